// Regression tests for what the fuzz targets in tests/fuzz found.
#include <catch2/catch.hpp>

#include <string>

#include "chariot/movegen.h"
#include "chariot/position.h"
#include "chariot/rules.h"

using namespace chariot;

TEST_CASE("fuzz: FEN counters at their limits still read back after a move", "[position][fen][fuzz]") {
    // fuzz_fen: fen() wrote "10000" / "100000", which setFen refuses.
    for (const char* fen : {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 9999 1",
                            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 99999"}) {
        INFO(fen);
        Position p;
        REQUIRE_FALSE(p.setFen(fen));
        MoveList legal;
        generateLegal(p, legal);
        REQUIRE(legal.size > 0);
        p.makeMove(legal.moves[0]);
        Position again;
        auto error = again.setFen(p.fen());
        INFO(p.fen() << " : " << error.value_or(""));
        CHECK_FALSE(error);
        CHECK(again.key() == p.key());
    }
}

TEST_CASE("fuzz: the no-capture counter saturates instead of wrapping", "[position][repetition][fuzz]") {
    // 33,000 plies without a capture (a `position` line can carry that many):
    // the 16-bit counters used to wrap negative, which switched off the
    // no-capture rule and repetition detection.
    Position p;
    const char* const cycle[] = {"h0g2", "h9g7", "g2h0", "g7h9"};
    for (int ply = 0; ply < 33000; ++ply) {
        Move m = p.parseLegalMove(cycle[ply % 4]);
        REQUIRE(m);
        p.makeMove(m);
    }
    CHECK(p.rule60() == 32767);
    CHECK(rules::judge(p, 0).verdict == rules::Verdict::Draw);  // the start position recurs
    CHECK(p.isConsistent());
    Position again;
    CHECK_FALSE(again.setFen(p.fen()));
}
