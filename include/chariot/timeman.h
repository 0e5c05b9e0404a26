// Time management: the one place that decides when a search ends. It is
// built once per search from the GUI's limits (SearchLimits, which only the
// protocol writes) and the engine's settings (TimeSettings and the caps in
// SearchOptions); the search asks it "stop now?" and "start another
// iteration?", the searcher asks it whether the answer may be given yet.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "chariot/types.h"

namespace chariot {

struct SearchLimits;
struct SearchOptions;

// The clock as the GUI sends it.
struct TimeLimits {
    int64_t time = -1;      // our remaining clock (ms), -1 = not given
    int64_t increment = 0;  // ms per move
    int movesToGo = 0;      // moves until the next time control, 0 = sudden death
    int64_t moveTime = -1;  // fixed time for this move (ms), -1 = not given
};

// What the engine adds to the clock from its options.
struct TimeSettings {
    int64_t overhead = 30;      // ms lost per move to the pipe and the GUI
    bool ponderOption = false;  // the GUI ponders: we may spend a little more
    int timePercent = 100;      // with a clock (not movetime): share of the plan to use (strength limiter)
    // The strength limiter's minimum think time: -1 (off) leaves the answer
    // to the limits. 0 or more: the answer waits for a stop command, or for
    // the clock to run (after ponderhit; never with infinite) and
    // min(minThinkPercent % of the soft plan, minThinkCapMs) to pass on it,
    // even when a node or depth cap ended the search earlier.
    int minThinkPercent = -1;
    int64_t minThinkCapMs = 0;
    // The input has ended: no stop or ponderhit can come, so `infinite` and
    // `ponder` mean nothing; a search with no other limit answers after its
    // first iteration.
    bool noMoreCommands = false;
};

struct Deadlines {
    int64_t soft = -1;  // ms after the start; -1 = no limit
    int64_t hard = -1;
};

// Pure function: same input, same deadlines (unit-tested).
Deadlines computeDeadlines(const TimeLimits& limits, const TimeSettings& settings = {});

// What the search reports after a completed iteration.
struct IterationReport {
    int depth = 0;
    Value score = 0;
    Value previousScore = -ValueInfinite;  // of the iteration before (-ValueInfinite: none)
    int bestMoveChanges = 0;               // in this iteration
    int stableIterations = 0;              // consecutive iterations with the same best move
    size_t rootMoves = 0;
};

class TimeManager {
public:
    // Once per search, before any thread runs; the clock starts now (or at
    // ponderhit for a ponder search).
    void init(const SearchLimits& limits, const SearchOptions& options);

    // --- the search's questions -------------------------------------------
    int depthLimit() const { return depthLimit_; }
    uint64_t nodeLimit() const { return nodeLimit_; }  // 0: none
    // Past the hard deadline: stop inside the iteration.
    bool outOfTime() const {
        if (infinite_ || pondering_.load(std::memory_order_relaxed)) return false;
        return deadlines_.hard >= 0 && clockElapsedMs() >= deadlines_.hard;
    }
    // After a completed iteration: is it time to answer?
    bool stopAfterIteration(const IterationReport& report) const;

    // --- the searcher's question once the search has ended ----------------
    // 0: answer now; > 0: wait at most this many ms and ask again; -1: wait
    // for an event (stop or ponderhit). `stopRequested`: a stop command or a
    // limit ended the search; `stopCommanded`: a stop command.
    int64_t answerDelayMs(bool stopRequested, bool stopCommanded, bool noMoves) const;

    // --- events -------------------------------------------------------------
    void ponderhit() {
        clockStartMs_.store(elapsedMs(), std::memory_order_relaxed);
        pondering_.store(false, std::memory_order_relaxed);
    }
    bool pondering() const { return pondering_.load(std::memory_order_relaxed); }

    int64_t elapsedMs() const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
    }
    // Time on our clock: since ponderhit for a ponder search.
    int64_t clockElapsedMs() const { return elapsedMs() - clockStartMs_.load(std::memory_order_relaxed); }
    const Deadlines& deadlines() const { return deadlines_; }
    int64_t minThinkMs() const { return minThinkMs_; }

private:
    std::chrono::steady_clock::time_point start_;
    std::atomic<int64_t> clockStartMs_{0};
    std::atomic<bool> pondering_{false};
    Deadlines deadlines_;
    int depthLimit_ = 0;
    uint64_t nodeLimit_ = 0;
    int mate_ = 0;
    bool infinite_ = false;
    bool fixedMoveTime_ = false;
    int64_t minThinkMs_ = -1;
};

}  // namespace chariot
