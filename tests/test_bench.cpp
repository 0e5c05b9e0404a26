#include <catch2/catch.hpp>

#include "chariot/bench.h"
#include "chariot/engine.h"
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

TEST_CASE("a reused bench engine gives a fresh engine's node counts", "[bench]") {
    BenchConfig config;
    config.depth = 5;
    config.positions = 8;
    auto quiet = [](const std::string&) {};
    const BenchResult fresh = runBench(config, quiet);

    Engine engine;
    // Leave the engine with a used table, histories and another table size.
    engine.setHashMB(1);
    REQUIRE_FALSE(engine.setPosition("startpos", {"h2e2", "h9g7"}));
    SearchLimits limits;
    limits.depth = 7;
    REQUIRE(engine.search(limits).nodes > 0);

    const BenchResult first = runBench(engine, config, quiet);
    CHECK(first.perPosition == fresh.perPosition);
    const BenchResult second = runBench(engine, config, quiet);
    CHECK(second.perPosition == fresh.perPosition);
    CHECK(engine.hashMB() == config.hashMB);
}

TEST_CASE("bench arguments out of range are refused, not clamped", "[bench]") {
    const BenchConfig defaults;
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"0"}, {"-3"}, {"65"}, {"1.5"}, {"5", "0"}, {"5", "65537"}, {"5", "16", "0"}, {"5", "16", "257"}}) {
        BenchConfig config;
        INFO("bench " << args[0] << (args.size() > 1 ? " " + args[1] : "") << (args.size() > 2 ? " " + args[2] : ""));
        const auto error = parseBenchArgs(args, WorkCaps{}, config);
        REQUIRE(error);
        CHECK(error->find("bench:") == 0);
        CHECK(config.depth == defaults.depth);  // the configuration is left as it was
        CHECK(config.hashMB == defaults.hashMB);
        CHECK(config.threads == defaults.threads);
    }
    BenchConfig config;
    REQUIRE_FALSE(parseBenchArgs({"64", "65536", "256"}, WorkCaps{}, config));
    CHECK(config.depth == 64);
    CHECK(config.hashMB == 65536);
    CHECK(config.threads == 256);
    // A build's caps lower the range (the WebAssembly build's), and say so.
    WorkCaps caps;
    caps.depth = 20;
    const auto error = parseBenchArgs({"21"}, caps, config);
    REQUIRE(error);
    CHECK(error->find("1 to 20") != std::string::npos);
}
