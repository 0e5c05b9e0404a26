#include <catch2/catch.hpp>

#include "test_util.h"

#include <algorithm>
#include <set>

#include "chariot/movegen.h"

using namespace chariot;
using test::fromFen;

namespace {

std::set<std::string> legalMoves(std::string_view fen) {
    Position p = fromFen(fen);
    MoveList list;
    generateLegal(p, list);
    std::set<std::string> out;
    for (Move m : list) out.insert(m.toString());
    return out;
}

std::set<std::string> movesFrom(std::string_view fen, std::string_view square) {
    std::set<std::string> out;
    for (const auto& m : legalMoves(fen))
        if (m.substr(0, 2) == square) out.insert(m);
    return out;
}

// Positions with checks, pins, screens and endgames (a subset of the perft data).
const char* const Positions[] = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4C3c/4a1P2/3k5/9/9/9/9/9/4K4/9 b - - 0 1",
    "3k5/9/9/9/9/4c4/9/9/4C4/4K4 w - - 0 1",
};

}  // namespace

TEST_CASE("generation stages partition the pseudo-legal moves", "[movegen]") {
    for (const char* fen : Positions) {
        Position p = fromFen(fen);
        MoveList all, caps, quiets, legal;
        generate<GenType::All>(p, all);
        generate<GenType::Captures>(p, caps);
        generate<GenType::Quiets>(p, quiets);
        generateLegal(p, legal);
        INFO(fen);
        CHECK(caps.size + quiets.size == all.size);
        for (Move m : caps) {
            CHECK(isColor(p.pieceOn(m.to()), ~p.sideToMove()));
            CHECK(all.contains(m));
        }
        for (Move m : quiets) {
            CHECK(p.isEmpty(m.to()));
            CHECK(all.contains(m));
        }
        // Legal = pseudo-legal moves after which our king is safe.
        int safe = 0;
        for (Move m : all) {
            p.makeMove(m);
            bool ok = !p.kingAttacked(~p.sideToMove());
            p.unmakeMove();
            safe += ok;
            CHECK(ok == legal.contains(m));
        }
        CHECK(safe == legal.size);
        if (p.inCheck()) {
            MoveList evasions;
            generateEvasions(p, evasions);
            CHECK(evasions.size == legal.size);
        }
    }
}

TEST_CASE("isPseudoLegal agrees with the generator on every from-to pair", "[movegen]") {
    for (const char* fen : Positions) {
        Position p = fromFen(fen);
        MoveList all;
        generate<GenType::All>(p, all);
        int accepted = 0;
        for (int from = 0; from < BoardSize; ++from)
            for (int to = 0; to < BoardSize; ++to) {
                if (from == to) continue;
                Move m{Square(from), Square(to)};
                bool generated = all.contains(m);
                INFO(fen << " " << m.toString());
                CHECK(p.isPseudoLegal(m) == generated);
                accepted += generated;
            }
        CHECK(accepted == all.size);
        CHECK_FALSE(p.isPseudoLegal(Move::none()));
        CHECK_FALSE(p.isPseudoLegal(Move::null()));
    }
}

TEST_CASE("perft with consistency checks at every node", "[movegen]") {
    for (const char* fen : Positions) {
        Position p = fromFen(fen);
        INFO(fen);
        CHECK_NOTHROW(perftChecked(p, 3));
        CHECK(p.fen() == fromFen(fen).fen());
    }
}

TEST_CASE("piece rules", "[movegen]") {
    SECTION("a horse is blocked by its leg in one direction only") {
        // Red horse e4; a red pawn on e5 blocks the two upward jumps.
        auto m = movesFrom("4k4/9/9/9/4P4/4N4/9/9/9/3K5 w - - 0 1", "e4");
        CHECK(m == std::set<std::string>{"e4c3", "e4c5", "e4d2", "e4f2", "e4g3", "e4g5"});
    }
    SECTION("an elephant is blocked by its eye and stays on its side of the river") {
        // Red elephant c4, red horse on the eye d3.
        auto m = movesFrom("4k4/9/9/9/9/2B6/3N5/9/9/3K5 w - - 0 1", "c4");
        CHECK(m == std::set<std::string>{"c4a2"});  // e2 blocked by the eye, a6/e6 across the river
    }
    SECTION("advisors and the king stay in the palace") {
        CHECK(movesFrom("4k4/9/9/9/9/9/9/5A3/9/3K5 w - - 0 1", "f2") == std::set<std::string>{"f2e1"});
        CHECK(movesFrom("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "d0") == std::set<std::string>{"d0d1", "d0e0"});
    }
    SECTION("a cannon captures over exactly one screen") {
        // Red cannon a0, screen a3, black rook a7, black horse a8 (behind two screens).
        auto m = movesFrom("3k5/n8/r8/9/9/9/P8/9/9/C3K4 w - - 0 1", "a0");
        CHECK(m == std::set<std::string>{"a0a1", "a0a2", "a0a7", "a0b0", "a0c0", "a0d0"});
    }
    SECTION("pawns move sideways only after the river, never back") {
        CHECK(movesFrom("4k4/9/9/9/9/4P4/9/9/9/3K5 w - - 0 1", "e4") == std::set<std::string>{"e4e5"});
        CHECK(movesFrom("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1", "e5") == std::set<std::string>{"e5d5", "e5e6", "e5f5"});
        CHECK(movesFrom("3k5/4P4/9/9/9/9/9/9/9/4K4 w - - 0 1", "e8") == std::set<std::string>{"e8d8", "e8e9", "e8f8"});
    }
    SECTION("moving the only screen away from a cannon check is an evasion") {
        // Black cannon e5 checks the red king e0 over the red advisor e1.
        Position p = fromFen("3k5/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1");
        CHECK(p.inCheck());
        auto all = legalMoves("3k5/9/9/9/4c4/9/9/9/4A4/4K4 w - - 0 1");
        // e0d0 would face the black king on d9.
        CHECK(all == std::set<std::string>{"e1d0", "e1d2", "e1f0", "e1f2", "e0f0"});
    }
}

TEST_CASE("checks and evasions", "[movegen]") {
    SECTION("a move that puts a screen between an enemy cannon and its own king is illegal") {
        // Black cannon e6 faces the red king e0 with nothing between.
        auto all = legalMoves("3k5/9/9/4c4/9/9/9/3A5/9/4K4 w - - 0 1");
        CHECK(all.count("d2e1") == 0);
        CHECK(all.count("e0e1") == 1);  // the king itself may step up: still no screen
        CHECK(all.count("e0d0") == 1);  // the advisor on d2 keeps the kings apart
    }
    SECTION("givesCheck matches the position after the move") {
        for (const char* fen : Positions) {
            Position p = fromFen(fen);
            MoveList legal;
            generateLegal(p, legal);
            for (Move m : legal) {
                bool predicted = p.givesCheck(m);
                p.makeMove(m);
                CHECK(predicted == p.inCheck());
                p.unmakeMove();
            }
        }
    }
}
