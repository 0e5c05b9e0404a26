// The win/draw/loss model (wdl.h): its shape at every phase, and the `wdl`
// that `showwdl` / `UCI_ShowWDL` adds to both dialects' info lines.
#include <catch2/catch.hpp>

#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "chariot/wdl.h"
#include "test_util.h"

using namespace chariot;
using chariot::test::fromFen;

namespace {

constexpr int Phases[] = {0, 1, 2, 3, 5, 8, 11, 14, 17, 20, 22, 30};

wdl::Wdl reversed(const wdl::Wdl& w) { return {w.loss, w.draw, w.win}; }

}  // namespace

TEST_CASE("wdl: the phase counts rooks, horses, cannons and pawns of both sides", "[wdl]") {
    CHECK(wdl::phase(Position()) == 22);
    CHECK(wdl::phase(fromFen("4k4/9/9/9/9/9/9/9/4A4/3AKR3 w")) == 1);
    CHECK(wdl::phase(fromFen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w")) == 0);
    CHECK(wdl::phase(fromFen("2bak4/4a4/4b4/p8/2n6/6P2/9/4B4/4C4/3AKR3 b")) == 5);
}

TEST_CASE("wdl: sums to 1000, monotonic in the score, symmetric, at every phase", "[wdl]") {
    for (int phase : Phases) {
        INFO("phase " << phase);
        wdl::Wdl previous = wdl::fromValue(-ValueDecisive + 1, phase);
        for (Value v = -ValueDecisive + 1; v < ValueDecisive; ++v) {
            const wdl::Wdl w = wdl::fromValue(v, phase);
            INFO("score " << v << ": " << w.win << ' ' << w.draw << ' ' << w.loss);
            REQUIRE(w.win >= 0);
            REQUIRE(w.draw >= 0);
            REQUIRE(w.loss >= 0);
            REQUIRE(w.win + w.draw + w.loss == 1000);
            REQUIRE(w.win >= previous.win);
            REQUIRE(w.loss <= previous.loss);
            REQUIRE(wdl::fromValue(-v, phase) == reversed(w));
            previous = w;
        }
        // A level score: even odds, and some draws (a(m) > 0 at every phase).
        const wdl::Wdl level = wdl::fromValue(0, phase);
        CHECK(level.win == level.loss);
        CHECK(level.draw > 0);
        // The model reaches certainty, or nearly, long before the mate range.
        CHECK(wdl::fromValue(ValueDecisive - 1, phase).win >= 999);
    }
}

TEST_CASE("wdl: mates and rule wins are certain", "[wdl]") {
    for (int phase : Phases) {
        for (Value v : {mateIn(1), mateIn(40), ValueDecisive, ValueBan - 3, ValueBanInMaxPly}) {
            INFO("phase " << phase << " score " << v);
            CHECK(wdl::fromValue(v, phase) == wdl::Wdl{1000, 0, 0});
            CHECK(wdl::fromValue(-v, phase) == wdl::Wdl{0, 0, 1000});
        }
    }
    CHECK(wdl::fromValue(mateIn(3), Position()) == wdl::Wdl{1000, 0, 0});
}

TEST_CASE("wdl: fewer attackers, more draws at the same score", "[wdl]") {
    // The fitted model's broad shape: a two-pawn lead is mostly a draw with one
    // attacker left and mostly a win with a full board.
    CHECK(wdl::fromValue(200, 1).draw > 900);
    CHECK(wdl::fromValue(200, 22).win > 500);
    CHECK(wdl::fromValue(200, 3).draw > wdl::fromValue(200, 12).draw);
    // Clamped to the fitted range.
    CHECK(wdl::fromValue(150, 0) == wdl::fromValue(150, 1));
    CHECK(wdl::fromValue(150, 30) == wdl::fromValue(150, 22));
}
