#include "chariot/timeman.h"

#include <algorithm>

#include "chariot/search.h"

namespace chariot {

Deadlines computeDeadlines(const TimeLimits& l, const TimeSettings& settings) {
    Deadlines d;
    if (l.moveTime >= 0) {
        int64_t t = std::max<int64_t>(1, l.moveTime - settings.overhead);
        d.soft = d.hard = t;
        return d;
    }
    if (l.time < 0) return d;  // no clock: depth, nodes or infinite

    const int64_t time = std::max<int64_t>(0, l.time);
    const int64_t inc = std::max<int64_t>(0, l.increment);
    // Never plan to use the last reserve, whatever the increment says.
    const int64_t usable = std::max<int64_t>(1, time - settings.overhead - std::min<int64_t>(time / 20, 1000));
    int64_t soft, hard;
    if (l.movesToGo > 0) {
        int mtg = std::min(l.movesToGo, 50);
        if (mtg == 1) {
            // The last move before the clock is reset (also how a fixed time per
            // move is sent): nothing to save for, so all of the usable time.
            soft = hard = usable;
        } else {
            soft = time / (mtg + 1) + inc * 3 / 4;
            hard = std::min(usable, std::max(soft * 3, time / 4));
        }
    } else {
        // Sudden death (with or without increment): a twentieth of the clock
        // plus the increment. stopAfterIteration() starts no new
        // iteration once most of this (scaled by stability) is spent.
        soft = time / 20 + inc;
        hard = std::min(usable, std::max(soft * 4, time / 8));
    }
    if (settings.ponderOption) soft += soft / 4;
    if (settings.timePercent != 100) {
        const int64_t percent = std::clamp(settings.timePercent, 1, 100);
        soft = soft * percent / 100;
        hard = hard * percent / 100;
    }
    soft = std::clamp<int64_t>(soft, 1, usable);
    hard = std::clamp<int64_t>(hard, soft, usable);
    d.soft = soft;
    d.hard = hard;
    return d;
}

void TimeManager::init(const SearchLimits& limits, const SearchOptions& options) {
    start_ = std::chrono::steady_clock::now();
    clockStartMs_.store(0, std::memory_order_relaxed);
    const bool waitForCommands = !options.time.noMoreCommands;
    pondering_.store(limits.ponder && waitForCommands, std::memory_order_relaxed);
    infinite_ = limits.infinite && waitForCommands;
    mate_ = limits.mate;
    fixedMoveTime_ = limits.time.moveTime >= 0;
    depthLimit_ = std::min({limits.depth, options.depthCap, MaxSearchDepth});
    // A mate search ends once the depth that could prove the mate is spent.
    if (limits.mate > 0) depthLimit_ = std::min(depthLimit_, 2 * limits.mate + 2);
    const bool otherLimit = limits.depth < MaxSearchDepth || limits.nodes || limits.time.time >= 0 ||
                            limits.time.moveTime >= 0 || limits.mate;
    if ((limits.infinite || limits.ponder) && !waitForCommands && !otherLimit) depthLimit_ = std::min(depthLimit_, 1);
    nodeLimit_ = limits.nodes;
    if (options.nodeCap) nodeLimit_ = nodeLimit_ ? std::min(nodeLimit_, options.nodeCap) : options.nodeCap;
    deadlines_ = computeDeadlines(limits.time, options.time);
    // The limiter's minimum think time: a share of the plan, at most a few
    // seconds; nothing without a clock (depth, nodes, infinite, mate).
    minThinkMs_ = -1;
    if (options.time.minThinkPercent >= 0) {
        const int64_t share = deadlines_.soft > 0 ? deadlines_.soft * options.time.minThinkPercent / 100 : 0;
        minThinkMs_ = std::max<int64_t>(0, std::min(share, options.time.minThinkCapMs));
    }
}

bool TimeManager::stopAfterIteration(const IterationReport& r) const {
    if (mate_ > 0 && isMateScore(r.score) && r.score >= mateIn(2 * mate_)) return true;
    // A clock is managed: no new iteration once most of the plan is spent.
    // A fixed movetime is used to its end (the hard limit stops it) unless
    // the answer is forced or a mate is proven.
    const bool clocked = deadlines_.soft >= 0 && !infinite_;
    if (!clocked || pondering()) return false;
    if (r.rootMoves == 1 && r.depth >= 6) return true;                                  // only move
    if (isMateScore(r.score) && ValueMate - std::abs(r.score) <= r.depth) return true;  // proven mate
    if (fixedMoveTime_) return false;
    double factor = 1.0;
    factor *= 1.0 + 0.6 * std::min(r.bestMoveChanges, 4) / 2.0;
    if (r.previousScore != -ValueInfinite && r.score < r.previousScore - 30) factor *= 1.35;
    if (r.stableIterations >= 4) factor *= 0.7;
    // 0.85, not 0.6: at 0.6 a 10s+0.1 game of 160 plies spent about 15 of the
    // 18 s it gives each side (Pikafish-HCE: 17).
    return clockElapsedMs() > int64_t(double(deadlines_.soft) * factor * 0.85);
}

int64_t TimeManager::answerDelayMs(bool stopRequested, bool stopCommanded, bool noMoves) const {
    const bool waiting = pondering() || infinite_;  // for ponderhit or stop
    if (minThinkMs_ < 0 || noMoves) return stopRequested || !waiting ? 0 : -1;
    // The strength limiter: only a stop command ends the wait early;
    // otherwise the clock must run and the minimum think time pass.
    if (stopCommanded) return 0;
    if (waiting) return -1;
    return std::max<int64_t>(0, minThinkMs_ - clockElapsedMs());
}

}  // namespace chariot
