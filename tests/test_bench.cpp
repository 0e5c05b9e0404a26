#include <catch2/catch.hpp>

#include "chariot/bench.h"
#include "chariot/position.h"

using namespace chariot;

TEST_CASE("bench positions are valid and numerous", "[bench]") {
    const auto& list = benchPositions();
    CHECK(list.size() >= 30);
    for (auto fen : list) {
        Position p;
        INFO(fen);
        CHECK_FALSE(p.setFen(fen));
    }
}

TEST_CASE("bench node count is deterministic", "[bench]") {
    BenchConfig config;
    config.depth = 6;
    auto quiet = [](const std::string&) {};
    BenchResult a = runBench(config, quiet);
    BenchResult b = runBench(config, quiet);
    CHECK(a.nodes > 0);
    CHECK(a.nodes == b.nodes);
    CHECK(a.perPosition == b.perPosition);
}
