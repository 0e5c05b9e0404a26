// The searcher: iterative deepening over a separated root search, PVS with
// aspiration windows, null-move pruning, late-move reductions, check
// extensions and a capture-only quiescence search (all evasions in check).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "chariot/position.h"
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

struct SearchResult {
    Move best;                // none() when there is no legal move
    Move ponder;
    Value score = 0;
    int depth = 0;
    uint64_t nodes = 0;
};

class Searcher {
public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Resets the stop and ponder state and starts the clock. Call it in the
    // thread that receives the commands, before the search thread starts,
    // so that a stop or ponderhit sent right after `go` cannot be lost.
    void arm(const SearchLimits& limits);
    // Runs an armed search on a copy of `root`. `onInfo` is called for each
    // completed iteration and each new best line. stop() and ponderhit() may
    // be called from another thread while it runs.
    SearchResult search(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                        const std::function<void(const SearchInfo&)>& onInfo);
    void stop() { stopRequested_.store(true, std::memory_order_relaxed); }
    // Converts a ponder search into a timed search whose clock starts now.
    void ponderhit();
    bool stopped() const { return stopRequested_.load(std::memory_order_relaxed); }
    // Forget killers and history (new game).
    void clearHistory();
    uint64_t nodes() const;

private:
    friend class Worker;
    TranspositionTable& tt_;
    std::vector<std::unique_ptr<class Worker>> workers_;
    std::atomic<bool> stopRequested_{false};
    std::atomic<bool> pondering_{false};
    std::atomic<int64_t> clockStartMs_{0};  // ms since `start_` when the clock began
    std::chrono::steady_clock::time_point start_;
    Deadlines deadlines_;
    SearchLimits limits_;
    SearchOptions options_;
    std::function<void(const SearchInfo&)> onInfo_;

    int64_t elapsedMs() const;
    int64_t clockElapsedMs() const { return elapsedMs() - clockStartMs_.load(std::memory_order_relaxed); }
    bool timeUp(bool hard) const;
};

// Score as UCCI GUIs read it: a bare number, "one light piece = 100", mate as
// +-(10000 - plies). UCI: centipawns, or a mate distance in moves.
int toUcciScore(Value v);
bool isMateValue(Value v);
int mateInMoves(Value v);  // > 0 when we mate, < 0 when we are mated
int toCentipawns(Value v);

}  // namespace chariot
