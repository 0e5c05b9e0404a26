#include <catch2/catch.hpp>

#include "chariot/tt.h"

using namespace chariot;

TEST_CASE("TT stores and finds entries", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    CHECK_FALSE(tt.probe(0x123456789ULL, 0, hit));
    Move m = Move::parse("h2e2");
    tt.store(0x123456789ULL, 0, m, 57, 40, 7, Bound::Exact);
    REQUIRE(tt.probe(0x123456789ULL, 0, hit));
    CHECK(hit.move == m);
    CHECK(hit.value == 57);
    CHECK(hit.eval == 40);
    CHECK(hit.depth == 7);
    CHECK(hit.bound == Bound::Exact);
    CHECK_FALSE(tt.probe(0x123456789ULL ^ (1ULL << 40), 0, hit));  // same bucket, other key
}

TEST_CASE("TT adjusts mate scores by ply", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    // Mate in 5 plies seen from ply 3 is mate in 2 plies from the stored node.
    tt.store(42, 3, Move::none(), mateIn(5), 0, 4, Bound::Lower);
    REQUIRE(tt.probe(42, 1, hit));
    CHECK(hit.value == mateIn(3));
    tt.store(43, 2, Move::none(), matedIn(6), 0, 4, Bound::Upper);
    REQUIRE(tt.probe(43, 4, hit));
    CHECK(hit.value == matedIn(8));
}

TEST_CASE("TT keeps the move but never the score of a repetition verdict", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    Move m = Move::parse("b0c2");
    tt.store(99, 2, m, ValueBan - 5, 10, 6, Bound::Exact);
    REQUIRE(tt.probe(99, 2, hit));
    CHECK(hit.move == m);
    CHECK(hit.bound == Bound::None);
}

TEST_CASE("TT keeps a known move when a later store has none", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    Move m = Move::parse("c3c4");
    tt.store(7, 0, m, 10, 10, 5, Bound::Lower);
    tt.store(7, 0, Move::none(), -20, 10, 6, Bound::Upper);
    REQUIRE(tt.probe(7, 0, hit));
    CHECK(hit.move == m);
    CHECK(hit.value == -20);
}

TEST_CASE("TT replacement keeps deep entries and always stores the newest", "[tt]") {
    TranspositionTable tt(1);
    const size_t buckets = (size_t(1) << 20) / 64;
    TTHit hit;
    // Five keys in one bucket: three deep ones, then two shallow ones.
    for (uint64_t i = 1; i <= 3; ++i) tt.store(i * buckets, 0, Move::none(), 1, 1, 20, Bound::Exact);
    tt.store(4 * buckets, 0, Move::none(), 1, 1, 1, Bound::Exact);
    tt.store(5 * buckets, 0, Move::none(), 1, 1, 1, Bound::Exact);
    for (uint64_t i = 1; i <= 3; ++i) CHECK(tt.probe(i * buckets, 0, hit));
    CHECK(tt.probe(5 * buckets, 0, hit));
    CHECK_FALSE(tt.probe(4 * buckets, 0, hit));
}

TEST_CASE("TT resize clamps, rounds and clears", "[tt]") {
    TranspositionTable tt(1);
    tt.store(5, 0, Move::none(), 3, 3, 3, Bound::Exact);
    CHECK(tt.resize(3) == 2);
    TTHit hit;
    CHECK_FALSE(tt.probe(5, 0, hit));
    CHECK(tt.resize(0) == TranspositionTable::MinMB);
    tt.store(5, 0, Move::none(), 3, 3, 3, Bound::Exact);
    CHECK(tt.hashfull() >= 0);
    tt.clear();
    CHECK_FALSE(tt.probe(5, 0, hit));
}
