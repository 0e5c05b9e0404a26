// The searcher: iterative deepening over a separated root search, PVS with
// aspiration windows, null-move pruning, late-move reductions, check
// extensions and a capture-only quiescence search (all evasions in check).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "chariot/eval.h"
#include "chariot/history.h"
#include "chariot/nnue.h"
#include "chariot/position.h"
#include "chariot/search_params.h"
#include "chariot/tablebase.h"
#include "chariot/timeman.h"
#include "chariot/tt.h"

namespace chariot {

constexpr int MaxSearchDepth = 100;

// What the GUI asked for in its `go` command. Only the protocol's parser
// (and the tools and tests that search) write it; the engine's own settings
// go into SearchOptions, and the time manager combines the two.
struct SearchLimits {
    int depth = MaxSearchDepth;
    uint64_t nodes = 0;             // 0 = no node limit
    TimeLimits time;                // clock, increment, movetime
    int mate = 0;                   // search for a mate in this many moves (0 = off)
    bool infinite = false;          // no limit until stop
    bool ponder = false;            // started as a ponder search: clock runs from ponderhit
    std::vector<Move> searchMoves;  // if not empty, only these root moves (UCI searchmoves)
};

enum class Pruning : uint8_t { None, Small, Medium, Large };

struct SearchOptions {
    Pruning pruning = Pruning::Large;
    Knowledge knowledge = Knowledge::Large;
    // The NNUE net to evaluate with; null: the handcrafted evaluation. Used
    // at knowledge Large only (the lower levels are handcrafted ones).
    std::shared_ptr<const nnue::Network> net;
    int randomness = 0;  // root score jitter, internal units (0 = deterministic)
    uint64_t seed = 0;   // for the jitter
    int multiPV = 1;
    int threads = 1;
    bool judgeChase = true;  // perpetual chase loses (false: a chasing repetition is a draw)
    SearchParams params;     // the tunable constants (search_params.h)
    // The engine's settings for when to stop and what to play:
    TimeSettings time;              // move overhead, ponder option, the strength limiter's time share
    int depthCap = MaxSearchDepth;  // work caps and the strength limiter
    uint64_t nodeCap = 0;           // 0: none
    std::vector<Move> banned;       // root moves not to play (UCCI banmoves)
    // Endgame tablebases, probed after a capture leads into their material; null: none.
    std::shared_ptr<const TablebaseProber> tablebase;
};

// Late-move reductions by depth and move number (each capped at 63):
// lmrBase/100 + ln(depth) ln(moveCount) / (lmrDivisor/100), kept in 1024ths
// of a ply (rounded down) so that finer adjustments can be added before the
// search rounds down to whole plies.
class LmrTable {
public:
    explicit LmrTable(const SearchParams& params = {}) { init(params); }
    // Recomputes the table when the params' base or divisor differ from the last ones.
    void init(const SearchParams& params);
    // In 1024ths of a ply.
    int fine(int depth, int moveCount) const { return table_[std::min(depth, 63)][std::min(moveCount, 63)]; }
    // In whole plies (rounded down).
    int operator()(int depth, int moveCount) const { return fine(depth, moveCount) >> 10; }

private:
    std::array<std::array<int32_t, 64>, 64> table_{};
    int base_ = 0, divisor_ = 0;  // of the table computed (divisor 0: none yet)
};

// One line of output after an iteration (or a new best move at the root).
struct SearchInfo {
    int depth = 0;
    int selDepth = 0;
    int multiPV = 1;  // 1-based line number
    Value score = 0;
    Bound bound = Bound::Exact;  // Lower/Upper: from an aspiration fail-high/low or an unfinished iteration
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

// The root move being searched (reported after the first second).
struct CurrentMove {
    int depth = 0;
    Move move;
    int number = 0;  // 1-based, in the order searched
};

// Periodic sign of life (once a second after the first second).
struct SearchProgress {
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    int hashfull = 0;
};

// A root line of the last completed iteration (MultiPV), best first.
struct RootLine {
    Move move;
    Value score = 0;
    int depth = 0;
    int selDepth = 0;
    std::vector<Move> pv;  // starts with `move`
};

struct SearchResult {
    Move best;  // none() when there is no legal move
    Move ponder;
    Value score = 0;
    int depth = 0;  // depth of the line answered
    int selDepth = 0;
    // Exact: from the last completed iteration. Lower or Upper: the line of an
    // iteration that was stopped part way (its depth is that iteration's).
    Bound bound = Bound::Exact;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    int hashfull = 0;
    std::vector<Move> pv;  // starts with `best` (empty without a move)
    // With MultiPV > 1: the main thread's lines of its last completed
    // iteration, best first; empty with MultiPV 1.
    std::vector<RootLine> lines;
};

// The answer's own line as an `info` report (MultiPV line 1): what the
// protocols print last before the move, so a GUI's PV starts with it.
SearchInfo answerLine(const SearchResult& r);

// Cuts a line after the move that ends the game by the repetition rules or
// the no-capture rule (judged as the search judges, from `root`), or at a
// move that is not legal where it stands.
void trimAtGameEnd(const Position& root, std::vector<Move>& pv, bool judgeChase);
// Does the legal move m end the game (mate, stalemate, a repetition verdict
// as the search judges it, the no-capture rule)?
bool gameEndsAfter(const Position& root, Move m, bool judgeChase);

// The search reports through these; each may be empty. They are called on
// the search's own thread.
struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onIteration;
    std::function<void(const CurrentMove&)> onCurrentMove;
    std::function<void(const SearchProgress&)> onProgress;
    std::function<void(const SearchResult&)> onDone;  // last: the search is over
    // Only built without threads (CHARIOT_NO_THREADS): the search runs on the
    // thread that reads the input, so it calls this every few milliseconds
    // (argument 0), and while it waits for stop or ponderhit (the most
    // milliseconds it may wait; -1: until input arrives), for the caller to
    // take the input that has arrived (stop, ponderhit, isready...).
    std::function<void(int64_t)> onPoll;
};

// What every search thread reads of the search in progress: set by
// Searcher::start before the threads run, then read-only except the flags.
struct SearchShared {
    explicit SearchShared(TranspositionTable& table) : tt(table) {}
    TranspositionTable& tt;
    SearchOptions options;
    SearchCallbacks callbacks;
    TimeManager time;  // decides when the search ends
    int threadCount = 1;
    std::vector<const std::atomic<uint64_t>*> nodeCounters;  // one per thread
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> stopCommanded{false};  // a stop command (not a node or time limit)
    // Guards the end of the search: the main thread waits on `wake` for
    // stop or ponderhit once it has finished searching.
    std::mutex waitMutex;
    std::condition_variable wake;

    uint64_t nodes() const {
        uint64_t total = 0;
        for (const auto* n : nodeCounters) total += n->load(std::memory_order_relaxed);
        return total;
    }
    // A limit was reached, or (with `commanded`) a stop command came.
    void requestStop(bool commanded) {
        // Set before the lock is taken, so a waiter woken by it sees the command.
        if (commanded) stopCommanded.store(true, std::memory_order_relaxed);
        {
            std::lock_guard lock(waitMutex);
            stopRequested.store(true, std::memory_order_relaxed);
        }
        wake.notify_all();
    }
};

namespace rules {
struct Ruling;
}

struct RootMove {
    Move move;
    Value score = -ValueInfinite;
    Value previousScore = -ValueInfinite;
    Value jitter = 0;
    int selDepth = 0;
    int scoreDepth = 0;               // the iteration that set `score`
    Bound scoreBound = Bound::Exact;  // for this move: Upper after a fail low, Lower after a fail high
    std::vector<Move> pv;
};

class Worker {
public:
    Worker(SearchShared& shared, int id) : shared_(shared), id_(id) {}

    void prepare(const Position& root, const std::vector<Move>& rootMoves, const SearchOptions& options, uint64_t seed);
    void iterativeDeepening();
    void clearHistory();

    std::atomic<uint64_t> nodes{0};
    std::vector<RootMove> rootMoves;
    int completedDepth = 0;
    std::vector<RootLine> completedLines;  // MultiPV > 1, main thread: the last completed iteration's lines

private:
    struct Frame {
        Value staticEval = 0;
        Move move;
        bool nullMove = false;  // the move made from this frame is a null move
        int contSlot = -1;      // continuation slot of the move made here (-1: none/null)
        Move excluded;          // singular-extension search: this move is left out
        bool ttPv = false;      // this node is or once was on a principal variation
    };

    template <bool PvNode>
    Value search(Value alpha, Value beta, Depth depth, int ply, bool cutNode);
    template <bool PvNode>
    Value qsearch(Value alpha, Value beta, int ply);
    Value rootSearch(Value alpha, Value beta, Depth depth, size_t pvIndex);
    bool checkStop();
    // The main thread's first iteration always completes, stop or not, so
    // that the answer is never an unsearched move (it takes microseconds
    // once the hash table's memory is in place: isready waits for that).
    bool mustFinish() const { return id_ == 0 && rootDepth_ <= 1; }
    bool stopping() const { return !mustFinish() && shared_.stopRequested.load(std::memory_order_relaxed); }
    // Only this thread writes its counter: a plain increment, no locked add.
    void countNode() { nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    void updatePv(int ply, Move m);
    void updateQuietStats(int ply, Move best, Depth depth, const Move* quiets, int quietCount);
    void updateCaptureStats(Move best, Depth depth, const Move* captures, int captureCount);
    // The history bonus of a cutoff at this depth (the malus is its negative).
    int historyBonus(Depth depth) const {
        return std::min(depth * options_.params.historyBonusPerDepth, options_.params.historyBonusMax);
    }
    Value repetitionValue(const rules::Ruling& r, int ply) const;
    // The static evaluation of pos_: the net's when the search has one, else the handcrafted one.
    Value staticEval() { return useNet_ ? nnue_.evaluate(pos_) : evaluate(pos_, options_.knowledge); }
    void report(int depth, size_t lines);

    SearchShared& shared_;  // limits, options, clock, callbacks, TT
    int id_;
    Position pos_;
    SearchOptions options_;
    LmrTable lmr_;          // from options_.params
    nnue::Evaluator nnue_;  // the net's accumulators along the search
    bool useNet_ = false;   // options_.net at knowledge Large
    int selDepth_ = 0;
    int rootDepth_ = 0;
    // During a null-move verification search the verifying side plays no
    // null move before this ply (0: no verification running).
    int nullMoveMinPly_ = 0;
    Color nullMoveColor_ = Color::Red;
    int bestMoveChanges_ = 0;
    int64_t nextProgressMs_ = 1000;
    int64_t nextPollMs_ = 0;  // without threads: when to call onPoll next
    Frame frames_[MaxPly + 4];
    Move pv_[MaxPly + 1][MaxPly + 1];
    int pvLength_[MaxPly + 1] = {};
    Move killers_[MaxPly + 2][2];
    int16_t history_[PieceIndexCount][BoardSize] = {};
    CaptureHistory captureHistory_ = {};
    // Continuation history: [slot of the move one or two plies back][slot of this move].
    std::vector<int16_t> contHistory_ = std::vector<int16_t>(size_t(ContSlots) * ContSlots);
    std::vector<Move> counterMoves_ = std::vector<Move>(ContSlots);  // reply that refuted a move
    const int16_t* contRow(int ply, int back) const {
        const int slot = ply >= back ? frames_[ply - back].contSlot : -1;
        return slot >= 0 ? &contHistory_[size_t(slot) * ContSlots] : nullptr;
    }
    int16_t* contRow(int ply, int back) { return const_cast<int16_t*>(std::as_const(*this).contRow(ply, back)); }
};

}  // namespace chariot
