#include <catch2/catch.hpp>

#include "test_util.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "chariot/bench.h"
#include "chariot/movegen.h"
#include "chariot/position.h"

using namespace chariot;
using test::fromFen;
using test::play;

namespace {}  // namespace

TEST_CASE("start position round-trips through FEN", "[position]") {
    Position p;
    CHECK(p.fen() == StartFen);
    CHECK(p.sideToMove() == Color::Red);
    CHECK(p.count(Color::Red, PieceType::Pawn) == 5);
    CHECK(p.count(Color::Black, PieceType::Rook) == 2);
    CHECK(p.kingSquare(Color::Red) == makeSquare(4, 0));
    CHECK(p.kingSquare(Color::Black) == makeSquare(4, 9));
    CHECK_FALSE(p.inCheck());
    CHECK(p.isConsistent());
    CHECK(p.psq() == Score());  // symmetric start: material and tables cancel
}

TEST_CASE("FEN accepts the usual variants", "[position][fen]") {
    Position p;
    SECTION("side letters w, r and b") {
        REQUIRE_FALSE(p.setFen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r"));
        CHECK(p.sideToMove() == Color::Red);
        REQUIRE_FALSE(p.setFen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
        CHECK(p.sideToMove() == Color::Black);
    }
    SECTION("E/H aliases for elephant and horse") {
        REQUIRE_FALSE(p.setFen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1"));
        CHECK(p.fen() == StartFen);
    }
    SECTION("halfmove and move number are read") {
        REQUIRE_FALSE(p.setFen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 17 9"));
        CHECK(p.rule60() == 17);
        CHECK(p.gamePly() == 17);
    }
    SECTION("extra whitespace and tabs") {
        REQUIRE_FALSE(p.setFen("  rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR \t w  "));
        CHECK(p.fen() == StartFen);
    }
}

TEST_CASE("FEN validator rejects malformed and impossible positions with a reason", "[position][fen]") {
    struct Case {
        const char* fen;
        const char* reason;  // a fragment the message must contain
    };
    const Case cases[] = {
        {"", "empty"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "side-to-move"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w", "9 ranks"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR/9 w", "more than 10 ranks"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "rank 0 has 8 files"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w", "more than 9 files"},
        {"rnbakabnr/9/1c5c2/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 9 files"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1X1P1P/1C5C1/9/RNBAKABNR w", "unknown piece letter 'X'"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "is not w, r or b"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "red has no king"},
        {"rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "black has no king"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/4K4/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", "outside its palace"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "more than 1 king"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/3A5/RNB1KABNR w", "advisor point"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/B8/RN1AKABNR w", "elephant point"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/2B6/9/P1P1P1P1P/1C5C1/9/RN1AKABNR w", "elephant point"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/2P1P1P1P/1C5C1/P8/RNBAKABNR w", "behind its starting rank"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/1PP1P1P1P/1C5C1/9/RNBAKABNR w", "off its file"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "more than 5 pawns"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/P8/P1P1P1P2/1C5C1/9/RNBAKABNR w", "shares its file"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/R8/RNBAKABNR w", "more than 2 rooks"},
        {"4k4/9/9/9/9/9/9/9/9/4K4 w", "face each other"},
        {"4k4/9/9/9/9/9/9/9/4R4/3K5 w", "side not to move (black) is in check"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "no-capture counter"},
        {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 0", "move number"},
    };
    for (const Case& c : cases) {
        Position p;
        REQUIRE_FALSE(p.setFen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
        const std::string before = p.fen();
        auto error = p.setFen(c.fen);
        INFO("FEN: " << c.fen);
        REQUIRE(error);
        INFO("message: " << *error);
        CHECK(error->find(c.reason) != std::string::npos);
        CHECK(p.fen() == before);  // the old position is kept whole
        CHECK(p.isConsistent());
    }
}

TEST_CASE("make and unmake restore everything", "[position]") {
    Position p;
    const uint64_t key = p.key();
    const std::string fen = p.fen();
    MoveList moves;
    generateLegal(p, moves);
    for (Move m : moves) {
        p.makeMove(m);
        CHECK(p.isConsistent());
        CHECK(p.key() != key);
        p.unmakeMove();
        CHECK(p.key() == key);
        CHECK(p.fen() == fen);
    }
    p.makeNullMove();
    CHECK(p.sideToMove() == Color::Black);
    CHECK(p.isConsistent());
    p.unmakeNullMove();
    CHECK(p.fen() == fen);
}

TEST_CASE("transpositions reach the same key", "[position]") {
    Position a, b;
    play(a, "b0c2 h9g7 h2e2 b9c7");
    play(b, "h2e2 b9c7 b0c2 h9g7");
    CHECK(a.key() == b.key());
    CHECK(a.fen().substr(0, a.fen().find(' ')) == b.fen().substr(0, b.fen().find(' ')));
    Position c;
    play(c, "h2e2 b9c7 b0c2");
    CHECK(c.key() != a.key());
}

TEST_CASE("captures reset the no-capture counter", "[position]") {
    Position p;
    play(p, "h2e2 h9g7 e2e6");  // cannon takes the central pawn
    CHECK(p.rule60() == 0);
    CHECK(p.lastCaptured() == Piece::BlackPawn);
    play(p, "b9c7");
    CHECK(p.rule60() == 1);
}

TEST_CASE("flying general: moves that open the file between kings are illegal", "[position]") {
    // Only the red cannon on e5 separates the kings.
    Position p = fromFen("4k4/9/9/9/4C4/9/9/9/9/4K4 w - - 0 1");
    CHECK_FALSE(p.parseLegalMove("e5d5"));
    CHECK(p.parseLegalMove("e5e6"));
    CHECK_FALSE(p.parseLegalMove("e0d0") == Move::none());
    // A king may not step onto an open file facing the other king.
    Position q = fromFen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    CHECK_FALSE(q.parseLegalMove("e0d0"));
    CHECK(q.parseLegalMove("e0e1"));
}

TEST_CASE("mirror image swaps files and keeps the side", "[position]") {
    Position p = fromFen("2bakab2/9/2n1c1n2/p3p1p1p/2p6/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 5");
    Position m = p.mirrored();
    CHECK(m.fen() == "2bakab2/9/2n1c1n2/p1p1p3p/6p2/9/P1P1P1P1P/2N1C2C1/9/R1BAKABNR b - - 3 5");
    CHECK(m.isConsistent());
    CHECK(m.mirrored().key() == p.key());
}

TEST_CASE("static exchange evaluation", "[position][see]") {
    SECTION("an undefended pawn is won outright") {
        Position p = fromFen("4k4/9/9/9/4p4/9/9/9/4R4/3K5 w - - 0 1");
        Move m = p.parseLegalMove("e1e5");
        REQUIRE(m);
        CHECK(p.seeGe(m, 0));
        CHECK(p.seeGe(m, 100));
        CHECK_FALSE(p.seeGe(m, 101));
    }
    SECTION("a pawn defended by a horse costs the rook") {
        Position p = fromFen("4k4/9/3n5/9/4p4/9/9/9/4R4/3K5 w - - 0 1");
        Move m = p.parseLegalMove("e1e5");
        REQUIRE(m);
        CHECK_FALSE(p.seeGe(m, 0));
        CHECK(p.seeGe(m, 100 - 900));
        CHECK_FALSE(p.seeGe(m, 100 - 900 + 1));
    }
    SECTION("a cannon recaptures over its screen") {
        // Black cannon e8 behind the black horse e7 guards e5.
        Position p = fromFen("3k5/4c4/4n4/9/4p4/9/9/9/4R4/5K3 w - - 0 1");
        Move m = p.parseLegalMove("e1e5");
        REQUIRE(m);
        CHECK_FALSE(p.seeGe(m, 0));
    }
    SECTION("a second attacker behind the first keeps the exchange going") {
        // Red rooks e1 and e0 (doubled) against a pawn defended once by a horse:
        // RxP NxR RxN wins pawn + horse for a rook.
        Position p = fromFen("4k4/9/3n5/9/4p4/9/9/9/4R4/3KR4 w - - 0 1");
        Move m = p.parseLegalMove("e1e5");
        REQUIRE(m);
        CHECK(p.seeGe(m, 100 + 400 - 900));
        CHECK_FALSE(p.seeGe(m, 0));
    }
    SECTION("a quiet move onto an attacked square loses the piece") {
        Position p = fromFen("5k3/9/3n5/9/9/9/9/9/4R4/3K5 w - - 0 1");
        Move m = p.parseLegalMove("e1e5");  // the horse on d7 takes it
        REQUIRE(m);
        CHECK_FALSE(p.seeGe(m, 0));
        CHECK(p.seeGe(m, -900));
        Move safe = p.parseLegalMove("e1e4");
        REQUIRE(safe);
        CHECK(p.seeGe(safe, 0));
    }
    SECTION("the board is unchanged afterwards") {
        Position p = fromFen("5k3/4c4/4n4/9/4p4/9/9/9/4R4/3KR4 w - - 0 1");
        const std::string before = p.fen();
        MoveList moves;
        generateLegal(p, moves);
        for (Move m : moves) (void)p.seeGe(m, 0);
        CHECK(p.fen() == before);
        CHECK(p.isConsistent());
    }
}

namespace {

// The square a walk over empty squares from s in direction dir stops on.
Square walkToOccupied(const Position& p, Square s, int dir) {
    Square t = s + dir;
    while (p.isEmpty(t)) t += dir;
    return t;
}

template <int Dir>
void checkScans(const Position& p) {
    for (int rank = 0; rank < RankCount; ++rank)
        for (int file = 0; file < FileCount; ++file) {
            const Square s = makeSquare(file, rank);
            INFO(p.fen() << " from " << squareName(s) << " dir " << Dir);
            REQUIRE(p.nextOccupied<Dir>(s) == walkToOccupied(p, s, Dir));
        }
}

}  // namespace

TEST_CASE("row/column occupancy scans agree with walking the board", "[position][occupancy]") {
    // Random games from the bench positions: every square, every direction,
    // after moves and after undoing them; the capture generator (which reads
    // the occupancy) yields exactly the capturing moves of the full one; and
    // givesCheck agrees with making the move.
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    for (std::string_view fen : benchPositions()) {
        Position p = fromFen(fen);
        int made = 0;
        for (int ply = 0; ply < 40; ++ply) {
            checkScans<Up>(p);
            checkScans<Down>(p);
            checkScans<Right>(p);
            checkScans<Left>(p);
            MoveList all, captures;
            generate<GenType::All>(p, all);
            generate<GenType::Captures>(p, captures);
            std::vector<uint16_t> expected, got;
            for (Move m : all)
                if (!p.isEmpty(m.to())) expected.push_back(m.raw());
            for (Move m : captures) got.push_back(m.raw());
            std::sort(expected.begin(), expected.end());
            std::sort(got.begin(), got.end());
            REQUIRE(got == expected);
            MoveList legal;
            generateLegal(p, legal);
            // givesCheck (its line tests read the occupancy) against making the moves.
            for (Move m : legal) {
                const bool predicted = p.givesCheck(m);
                p.makeMove(m);
                const bool check = p.inCheck();
                p.unmakeMove();
                INFO(p.fen() << " move " << m.toString());
                REQUIRE(predicted == check);
            }
            if (legal.size == 0) break;
            p.makeMove(legal.moves[next() % uint64_t(legal.size)]);
            ++made;
            REQUIRE(p.isConsistent());
        }
        while (made-- > 0) {
            p.unmakeMove();
            REQUIRE(p.isConsistent());
            checkScans<Up>(p);
            checkScans<Left>(p);
        }
    }
}
