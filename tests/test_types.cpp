#include <catch2/catch.hpp>

#include "chariot/psqt.h"
#include "chariot/tables.h"
#include "chariot/types.h"

using namespace chariot;

TEST_CASE("squares map files and ranks onto the padded board", "[types]") {
    for (int r = 0; r < RankCount; ++r)
        for (int f = 0; f < FileCount; ++f) {
            Square s = makeSquare(f, r);
            CHECK(fileOf(s) == f);
            CHECK(rankOf(s) == r);
            CHECK(tables::inBoard(s));
            CHECK(fileOf(mirrorSquare(s)) == 8 - f);
            CHECK(rankOf(flipRank(s)) == 9 - r);
        }
    int onBoard = 0;
    for (int i = 0; i < BoardSize; ++i) onBoard += tables::inBoard(Square(i));
    CHECK(onBoard == 90);
}

TEST_CASE("ICCS move text round-trips and rejects junk", "[types]") {
    Move m = Move::parse("h2e2");
    REQUIRE(m);
    CHECK(m.from() == makeSquare(7, 2));
    CHECK(m.to() == makeSquare(4, 2));
    CHECK(m.toString() == "h2e2");
    CHECK(Move::parse("H2E2") == m);
    CHECK(Move::parse("j2e2").isNone());
    CHECK(Move::parse("h2e").isNone());
    CHECK(Move::parse("h2h2").isNone());
    CHECK(Move::parse("a0a10").isNone());
    CHECK(Move::none().toString() == "0000");
    CHECK(Move::null().isNull());
    CHECK(Move::parse("a0i9").mirrored() == Move::parse("i0a9"));
}

TEST_CASE("pieces carry colour and type", "[types]") {
    for (Color c : {Color::Red, Color::Black})
        for (int t = 0; t < PieceTypeCount; ++t) {
            Piece p = makePiece(c, PieceType(t));
            CHECK(colorOf(p) == c);
            CHECK(typeOf(p) == PieceType(t));
            CHECK(isColor(p, c));
            CHECK_FALSE(isColor(p, ~c));
            CHECK(charToPiece(pieceToChar(p)) == p);
        }
    CHECK_FALSE(isColor(Piece::OffBoard, Color::Red));
    CHECK_FALSE(isColor(Piece::OffBoard, Color::Black));
    CHECK(charToPiece('E') == Piece::RedElephant);
    CHECK(charToPiece('h') == Piece::BlackHorse);
    CHECK(charToPiece('x') == Piece::Empty);
}

TEST_CASE("packed scores add both halves", "[types]") {
    Score a(100, -50), b(-30, 20);
    CHECK((a + b).mg() == 70);
    CHECK((a + b).eg() == -30);
    CHECK((a - b).eg() == -70);
    CHECK((-a).mg() == -100);
    CHECK((a * 3).eg() == -150);
}

TEST_CASE("piece-square values are colour-symmetric", "[types]") {
    for (int t = 0; t < PieceTypeCount; ++t)
        for (int r = 0; r < RankCount; ++r)
            for (int f = 0; f < FileCount; ++f) {
                Square s = makeSquare(f, r);
                CHECK(psqt::value(makePiece(Color::Red, PieceType(t)), s) ==
                      -psqt::value(makePiece(Color::Black, PieceType(t)), flipRank(s)));
            }
}
