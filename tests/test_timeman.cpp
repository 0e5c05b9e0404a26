#include <catch2/catch.hpp>

#include "chariot/timeman.h"

using namespace chariot;

TEST_CASE("fixed move time uses the time less the overhead", "[timeman]") {
    TimeLimits l;
    l.moveTime = 1000;
    l.overhead = 30;
    Deadlines d = computeDeadlines(l);
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
                CHECK(d.hard <= std::max<int64_t>(1, time - l.overhead));
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
    CHECK(d.hard >= 200 - l.overhead - 200 / 20);
    CHECK(d.hard <= 200 - l.overhead);
    l.time = 60000;
    d = computeDeadlines(l);
    CHECK(d.soft >= 60000 - l.overhead - 1000);
}

TEST_CASE("the strength limiter's time share scales a clock's plan, not a movetime", "[timeman][skill]") {
    for (int mtg : {0, 1, 20}) {
        TimeLimits full;
        full.time = 60000;
        full.increment = 500;
        full.movesToGo = mtg;
        TimeLimits half = full;
        half.timePercent = 50;
        const Deadlines a = computeDeadlines(full), b = computeDeadlines(half);
        INFO("movestogo " << mtg);
        CHECK(b.soft == a.soft / 2);
        CHECK(b.hard >= b.soft);
        CHECK(b.hard <= a.hard / 2 + 1);
    }
    TimeLimits fixed;
    fixed.moveTime = 1000;
    fixed.timePercent = 50;
    CHECK(computeDeadlines(fixed).soft == 1000 - fixed.overhead);
}
