// The searcher: iterative deepening over a separated root search, PVS with
// aspiration windows, null-move pruning, late-move reductions, check
// extensions and a capture-only quiescence search (all evasions in check).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "chariot/position.h"
#include "chariot/search_params.h"
#include "chariot/timeman.h"
#include "chariot/tt.h"

namespace chariot {

constexpr int MaxSearchDepth = 100;

struct SearchLimits {
    int depth = MaxSearchDepth;
    uint64_t nodes = 0;       // 0 = no node limit
    TimeLimits time;          // clock, increment, movetime
    int mate = 0;             // search for a mate in this many moves (0 = off)
    bool infinite = false;    // no limit until stop
    bool ponder = false;      // started as a ponder search: clock runs from ponderhit
    std::vector<Move> banned;       // root moves not to play (UCCI banmoves)
    std::vector<Move> searchMoves;  // if not empty, only these root moves (UCI searchmoves)
    // The strength limiter's minimum think time: -1 (off) leaves the answer to
    // the limits above. 0 or more: the answer waits for a stop command, or for
    // the clock to run (after ponderhit; never with infinite) and this many ms
    // to pass on it, even when a node or depth cap ended the search earlier;
    // a cap reached while pondering then waits for ponderhit as well.
    int64_t minThinkMs = -1;
};

enum class Pruning : uint8_t { None, Small, Medium, Large };

struct SearchOptions {
    Pruning pruning = Pruning::Large;
    Knowledge knowledge = Knowledge::Large;
    int randomness = 0;       // root score jitter, internal units (0 = deterministic)
    uint64_t seed = 0;        // for the jitter
    int multiPV = 1;
    int threads = 1;
    bool judgeChase = true;   // perpetual chase loses (false: a chasing repetition is a draw)
    SearchParams params;      // the tunable constants (search_params.h)
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
    int multiPV = 1;          // 1-based line number
    Value score = 0;
    Bound bound = Bound::Exact;  // Lower/Upper for aspiration fail-high/low
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

// The root move being searched (reported after the first second).
struct CurrentMove {
    int depth = 0;
    Move move;
    int number = 0;           // 1-based, in the order searched
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
    Move best;                // none() when there is no legal move
    Move ponder;
    Value score = 0;
    int depth = 0;            // completed depth of the line answered
    int selDepth = 0;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    int hashfull = 0;
    std::vector<Move> pv;     // starts with `best` (empty without a move)
    // With MultiPV > 1: the main thread's lines of its last completed
    // iteration, best first; empty with MultiPV 1.
    std::vector<RootLine> lines;
};

// The search reports through these; each may be empty. They are called on
// the search's own thread.
struct SearchCallbacks {
    std::function<void(const SearchInfo&)> onIteration;
    std::function<void(const CurrentMove&)> onCurrentMove;
    std::function<void(const SearchProgress&)> onProgress;
    std::function<void(const SearchResult&)> onDone;  // last: the search is over
};

// A thread that sleeps on a condition variable until it is given a job.
class PoolThread {
public:
    PoolThread();
    ~PoolThread();  // waits for the job in hand
    PoolThread(const PoolThread&) = delete;
    PoolThread& operator=(const PoolThread&) = delete;
    void run(std::function<void()> job);  // the thread must be idle
    void wait();                          // until idle
    bool busy() const;

private:
    void idleLoop();
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::function<void()> job_;
    bool busy_ = false;
    bool quit_ = false;
    std::thread thread_;  // last: starts once the members above exist
};

// What every search thread reads of the search in progress: set by
// Searcher::start before the threads run, then read-only except the flags.
struct SearchShared {
    explicit SearchShared(TranspositionTable& table) : tt(table) {}
    TranspositionTable& tt;
    SearchLimits limits;
    SearchOptions options;
    SearchCallbacks callbacks;
    Deadlines deadlines;
    int threadCount = 1;
    std::chrono::steady_clock::time_point start;
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> stopCommanded{false};  // stop() was called (not a node or time limit)
    std::atomic<bool> pondering{false};
    std::atomic<int64_t> clockStartMs{0};  // ms since `start` when the clock began (ponderhit)

    int64_t elapsedMs() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    }
    int64_t clockElapsedMs() const { return elapsedMs() - clockStartMs.load(std::memory_order_relaxed); }
    bool timeUp(bool hard) const {
        if (pondering.load(std::memory_order_relaxed) || limits.infinite) return false;
        const int64_t deadline = hard ? deadlines.hard : deadlines.soft;
        return deadline >= 0 && clockElapsedMs() >= deadline;
    }
};

class Searcher {
public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Starts a search of a copy of `root` on the pool and returns at once.
    // The stop and ponder state and the clock are reset here, in the caller's
    // thread, so a stop or ponderhit sent right after `go` cannot be lost.
    // A search still running is waited for first.
    void start(const Position& root, const SearchLimits& limits, const SearchOptions& options,
               SearchCallbacks callbacks);
    // Blocks until the search started last is over (its onDone has returned).
    void wait();
    bool searching() const;
    // start + wait; returns the result.
    SearchResult search(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                        SearchCallbacks callbacks = {});
    // A stop command (GUI, quit, destructor): stops the search and ends any
    // wait for ponderhit or for the minimum think time.
    void stop();
    // A node or time limit was reached: stops the search only.
    void limitReached();
    // Converts a ponder search into a timed search whose clock starts now.
    void ponderhit();
    bool stopped() const { return shared_.stopRequested.load(std::memory_order_relaxed); }
    // Forget killers and history (new game).
    void clearHistory();
    uint64_t nodes() const;

private:
    void mainThread();
    void resizePool(int threads);
    SearchResult pickResult();
    SearchShared shared_;
    std::vector<std::unique_ptr<class Worker>> workers_;
    std::vector<std::unique_ptr<PoolThread>> threads_;  // threads_[i] runs workers_[i]
    std::mutex waitMutex_;                  // for the ponder/infinite wait
    std::condition_variable waitCv_;
    Position root_;
    std::vector<Move> rootMoves_;
    Move ttRootMove_;          // a deeper earlier result for the root, if any
    int ttRootDepth_ = 0;
    Value ttRootValue_ = 0;
    SearchResult lastResult_;
};

// Score as UCCI GUIs read it: a bare number, "one light piece = 100", mate as
// +-(10000 - plies). UCI: centipawns, or a mate distance in moves.
int toUcciScore(Value v);
bool isMateValue(Value v);
int mateInMoves(Value v);  // > 0 when we mate, < 0 when we are mated
int toCentipawns(Value v);

}  // namespace chariot
