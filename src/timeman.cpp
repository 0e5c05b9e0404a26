#include "chariot/timeman.h"

#include <algorithm>

namespace chariot {

Deadlines computeDeadlines(const TimeLimits& l) {
    Deadlines d;
    if (l.moveTime >= 0) {
        int64_t t = std::max<int64_t>(1, l.moveTime - l.overhead);
        d.soft = d.hard = t;
        return d;
    }
    if (l.time < 0) return d;  // no clock: depth, nodes or infinite

    const int64_t time = std::max<int64_t>(0, l.time);
    const int64_t inc = std::max<int64_t>(0, l.increment);
    // Never plan to use the last reserve, whatever the increment says.
    const int64_t usable = std::max<int64_t>(1, time - l.overhead - std::min<int64_t>(time / 20, 1000));
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
        // plus the increment. Worker::iterativeDeepening starts no new
        // iteration once most of this (scaled by stability) is spent.
        soft = time / 20 + inc;
        hard = std::min(usable, std::max(soft * 4, time / 8));
    }
    if (l.ponderOption) soft += soft / 4;
    if (l.timePercent != 100) {
        const int64_t percent = std::clamp(l.timePercent, 1, 100);
        soft = soft * percent / 100;
        hard = hard * percent / 100;
    }
    soft = std::clamp<int64_t>(soft, 1, usable);
    hard = std::clamp<int64_t>(hard, soft, usable);
    d.soft = soft;
    d.hard = hard;
    return d;
}

}  // namespace chariot
