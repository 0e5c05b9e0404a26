#include <catch2/catch.hpp>

#include "chariot/search.h"
#include "chariot/timeman.h"

using namespace chariot;

TEST_CASE("fixed move time uses the time less the overhead", "[timeman]") {
    TimeLimits l;
    l.moveTime = 1000;
    TimeSettings settings;
    settings.overhead = 30;
    Deadlines d = computeDeadlines(l, settings);
    CHECK(d.soft == 970);
    CHECK(d.hard == 970);
}

TEST_CASE("no clock means no deadline", "[timeman]") {
    Deadlines d = computeDeadlines(TimeLimits{});
    CHECK(d.soft == -1);
    CHECK(d.hard == -1);
}

TEST_CASE("deadlines never exceed the clock", "[timeman]") {
    for (int64_t time : {0, 1, 10, 50, 100, 200, 1000, 3000, 10000, 60000, 600000})
        for (int64_t inc : {0, 50, 100, 1000, 5000})
            for (int mtg : {0, 1, 2, 10, 40}) {
                TimeLimits l;
                l.time = time;
                l.increment = inc;
                l.movesToGo = mtg;
                Deadlines d = computeDeadlines(l);
                INFO("time " << time << " inc " << inc << " mtg " << mtg);
                CHECK(d.soft >= 1);
                CHECK(d.soft <= d.hard);
                CHECK(d.hard <= std::max<int64_t>(1, time - TimeSettings{}.overhead));
            }
}

TEST_CASE("more time and increment give more time per move", "[timeman]") {
    TimeLimits a, b;
    a.time = 10000;
    b.time = 60000;
    CHECK(computeDeadlines(b).soft > computeDeadlines(a).soft);
    TimeLimits c = a;
    c.increment = 500;
    CHECK(computeDeadlines(c).soft > computeDeadlines(a).soft);
    TimeLimits last = a;
    last.movesToGo = 1;
    CHECK(computeDeadlines(last).soft > computeDeadlines(a).soft);
}

TEST_CASE("the last move before the control spends the usable clock", "[timeman]") {
    // `go time 200 movestogo 1` is how UCCI sends a fixed time per move: the
    // engine must plan the whole of it (less overhead and reserve), not half.
    TimeLimits l;
    l.time = 200;
    l.movesToGo = 1;
    Deadlines d = computeDeadlines(l);
    CHECK(d.soft == d.hard);
    CHECK(d.hard >= 200 - TimeSettings{}.overhead - 200 / 20);
    CHECK(d.hard <= 200 - TimeSettings{}.overhead);
    l.time = 60000;
    d = computeDeadlines(l);
    CHECK(d.soft >= 60000 - TimeSettings{}.overhead - 1000);
}

TEST_CASE("the strength limiter's time share scales a clock's plan, not a movetime", "[timeman][skill]") {
    for (int mtg : {0, 1, 20}) {
        TimeLimits full;
        full.time = 60000;
        full.increment = 500;
        full.movesToGo = mtg;
        TimeSettings half;
        half.timePercent = 50;
        const Deadlines a = computeDeadlines(full), b = computeDeadlines(full, half);
        INFO("movestogo " << mtg);
        CHECK(b.soft == a.soft / 2);
        CHECK(b.hard >= b.soft);
        CHECK(b.hard <= a.hard / 2 + 1);
    }
    TimeLimits fixed;
    fixed.moveTime = 1000;
    TimeSettings half;
    half.timePercent = 50;
    CHECK(computeDeadlines(fixed, half).soft == 1000 - half.overhead);
}

// The time manager: one owner for every "stop now" and "one more iteration".

TEST_CASE("time manager: the depth limit combines the GUI's depth, mate and the engine's cap", "[timeman]") {
    SearchLimits limits;
    SearchOptions options;
    TimeManager tm;
    tm.init(limits, options);
    CHECK(tm.depthLimit() == MaxSearchDepth);
    CHECK(tm.nodeLimit() == 0);
    limits.depth = 12;
    options.depthCap = 9;
    tm.init(limits, options);
    CHECK(tm.depthLimit() == 9);
    limits.mate = 2;
    options.depthCap = MaxSearchDepth;
    tm.init(limits, options);
    CHECK(tm.depthLimit() == 6);  // a mate in 2 is proven by depth 2 * 2 + 2
    limits = {};
    limits.nodes = 5000;
    options.nodeCap = 1000;
    tm.init(limits, options);
    CHECK(tm.nodeLimit() == 1000);
    limits.nodes = 0;
    tm.init(limits, options);
    CHECK(tm.nodeLimit() == 1000);
}

TEST_CASE("time manager: a clocked search stops iterating once most of the plan is spent", "[timeman]") {
    SearchLimits limits;
    limits.time.time = 60000;  // sudden death: plans about 3 s
    TimeManager tm;
    tm.init(limits, SearchOptions{});
    IterationReport r;
    r.depth = 5;
    r.rootMoves = 30;
    CHECK_FALSE(tm.stopAfterIteration(r));  // nothing spent yet
    r.rootMoves = 1;
    r.depth = 6;
    CHECK(tm.stopAfterIteration(r));  // the only move
    r.rootMoves = 30;
    r.score = mateIn(3);
    CHECK(tm.stopAfterIteration(r));  // a mate proven within the depth
    // Without a clock nothing but the limits ends it.
    tm.init(SearchLimits{}, SearchOptions{});
    r.rootMoves = 1;
    CHECK_FALSE(tm.stopAfterIteration(r));
    CHECK_FALSE(tm.outOfTime());
}

TEST_CASE("time manager: infinite and ponder wait for a command, unless none can come", "[timeman]") {
    SearchLimits limits;
    limits.infinite = true;
    SearchOptions options;
    TimeManager tm;
    tm.init(limits, options);
    CHECK(tm.answerDelayMs(false, false, false) < 0);  // wait for stop
    CHECK(tm.answerDelayMs(true, true, false) == 0);
    limits = {};
    limits.ponder = true;
    limits.time.time = 10000;
    tm.init(limits, options);
    CHECK(tm.pondering());
    CHECK_FALSE(tm.outOfTime());
    CHECK(tm.answerDelayMs(false, false, false) < 0);  // wait for ponderhit
    tm.ponderhit();
    CHECK_FALSE(tm.pondering());
    CHECK(tm.answerDelayMs(false, false, false) == 0);
    // End of input: nobody can stop it, so it ends by itself.
    options.time.noMoreCommands = true;
    limits = {};
    limits.infinite = true;
    tm.init(limits, options);
    CHECK(tm.depthLimit() == 1);
    CHECK(tm.answerDelayMs(false, false, false) == 0);
    limits.depth = 7;
    tm.init(limits, options);
    CHECK(tm.depthLimit() == 7);
}

TEST_CASE("time manager: the strength limiter's minimum think time", "[timeman][skill]") {
    SearchLimits limits;
    limits.time.time = 20000;
    SearchOptions options;
    options.time.minThinkPercent = 50;
    options.time.minThinkCapMs = 100000;
    TimeManager tm;
    tm.init(limits, options);
    const int64_t soft = computeDeadlines(limits.time, options.time).soft;
    CHECK(tm.minThinkMs() == soft / 2);
    const int64_t delay = tm.answerDelayMs(true, false, false);  // a cap ended the search: wait
    CHECK(delay > 0);
    CHECK(delay <= soft / 2);
    CHECK(tm.answerDelayMs(true, true, false) == 0);  // a stop command answers at once
    options.time.minThinkCapMs = 10;
    tm.init(limits, options);
    CHECK(tm.minThinkMs() == 10);
    tm.init(SearchLimits{}, options);  // no clock: nothing to wait for
    CHECK(tm.minThinkMs() == 0);
}
