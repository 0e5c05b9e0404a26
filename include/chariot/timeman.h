// Time management: turns the clock a GUI sends into a soft deadline (do not
// start another iteration after it) and a hard one (stop at once).
#pragma once

#include <cstdint>

namespace chariot {

struct TimeLimits {
    int64_t time = -1;        // our remaining clock (ms), -1 = not given
    int64_t increment = 0;    // ms per move
    int movesToGo = 0;        // moves until the next time control, 0 = sudden death
    int64_t moveTime = -1;    // fixed time for this move (ms), -1 = not given
    int64_t overhead = 30;    // ms lost per move to the pipe and the GUI
    bool ponderOption = false;  // the GUI ponders: we may spend a little more
    int timePercent = 100;      // with a clock (not movetime): share of the plan to use (strength limiter)
};

struct Deadlines {
    int64_t soft = -1;  // ms after the start; -1 = no limit
    int64_t hard = -1;
};

// Pure function: same input, same deadlines (unit-tested).
Deadlines computeDeadlines(const TimeLimits& limits);

}  // namespace chariot
