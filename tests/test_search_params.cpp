// The search's tunable constants (search_params.h): the defaults are the
// shipped search, every constant reaches the search, and tuning builds
// (CHARIOT_TUNABLE) set them through spin options while default builds have
// no such options.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "chariot/engine.h"
#include "chariot/search.h"

using namespace chariot;

namespace {

// A bench middlegame: rooks, cannons and horses on both sides, so checks,
// captures and quiet moves all occur in the tree.
constexpr const char* Middlegame = "r1bakab2/9/1cn3n2/p1p1p1p1p/7r1/1C7/P1P1P1PcP/2N1C1N2/7R1/2BAKABR1 b - - 13 7";
constexpr int Depth = 9;

uint64_t nodesWith(const SearchParams& params, int depth = Depth) {
    Engine engine;
    engine.searchOptions().params = params;
    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    SearchLimits limits;
    limits.depth = depth;
    return engine.search(limits).nodes;
}

}  // namespace

TEST_CASE("the default LMR table is the shipped formula", "[search][params]") {
    const LmrTable table;  // SearchParams{}
    const SearchParams defaults;
    const double base = defaults.lmrBase / 100.0;
    const double divisor = defaults.lmrDivisor / 100.0;
    int mismatches = 0;
    for (int d = 1; d < 80; ++d)
        for (int m = 1; m < 80; ++m) {
            // The shipped formula (the SPSA-tuned defaults), caps included.
            const int expected = int8_t(base + std::log(std::min(d, 63)) * std::log(std::min(m, 63)) / divisor);
            if (table(d, m) != expected) ++mismatches;
        }
    CHECK(mismatches == 0);
    CHECK(table(3, 3) == 1);
    // The table keeps 1024ths of a ply (for the fractional adjustments); the
    // whole plies are those rounded down.
    CHECK(table.fine(20, 20) == int(std::floor((base + std::log(20) * std::log(20) / divisor) * 1024.0)));
    CHECK(table.fine(20, 20) % 1024 != 0);
    CHECK(table.fine(20, 20) >> 10 == table(20, 20));
    CHECK(table.fine(1, 1) == int(std::floor(base * 1024.0)));
    CHECK(table(63, 63) == 11);

    SECTION("the table follows its params, and back") {
        LmrTable t;
        SearchParams halved;
        halved.lmrDivisor = 100;
        t.init(halved);
        CHECK(t(20, 20) == int8_t(base + std::log(20) * std::log(20) / 1.0));
        CHECK(t(20, 20) != table(20, 20));
        SearchParams shifted;
        shifted.lmrBase = defaults.lmrBase + 200;
        t.init(shifted);
        CHECK(t(20, 20) == table(20, 20) + 2);
        t.init(SearchParams{});
        CHECK(t(20, 20) == table(20, 20));
    }
}

TEST_CASE("a search with SearchParams{} is the engine's default search", "[search][params]") {
    SearchLimits limits;
    limits.depth = 8;
    Engine engine;
    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    const SearchResult viaEngine = engine.search(limits);

    TranspositionTable tt(Engine::DefaultHashMB);
    Searcher searcher(tt);
    Position root;
    REQUIRE_FALSE(root.setFen(Middlegame));
    SearchOptions options;
    options.params = SearchParams{};
    options.net = Engine::DefaultUseNnue ? engine.network() : nullptr;  // the engine's default evaluation
    const SearchResult direct = searcher.search(root, limits, options);
    CHECK(direct.nodes == viaEngine.nodes);
    CHECK(direct.best == viaEngine.best);
    CHECK(direct.score == viaEngine.score);
}

TEST_CASE("every search constant changes the search", "[search][params][slow]") {
    const uint64_t shipped = nodesWith(SearchParams{});
    REQUIRE(shipped == nodesWith(SearchParams{}));  // deterministic, so a difference below is the param's
    for (const SearchParamInfo& p : SearchParamTable) {
        INFO(p.name);
        SearchParams low, high;
        low.*(p.member) = p.min;
        high.*(p.member) = p.max;
        const uint64_t atMin = nodesWith(low), atMax = nodesWith(high);
        CHECK((atMin != shipped || atMax != shipped));
    }
    SECTION("e.g. no futility margin, or reductions twice as deep") {
        SearchParams noMargin;
        noMargin.futilityBase = 0;
        CHECK(nodesWith(noMargin) != shipped);
        SearchParams deeper;
        deeper.lmrDivisor = 100;
        CHECK(nodesWith(deeper) < shipped);
    }
}

#if CHARIOT_TUNABLE

TEST_CASE("tuning builds: the search constants are spin options", "[search][params][options]") {
    Engine engine;
    const SearchParams defaults;
    const auto ucci = engine.options().ucciLines();
    const auto uci = engine.options().uciLines();
    auto listed = [](const std::vector<std::string>& lines, const std::string& line) {
        return std::find(lines.begin(), lines.end(), line) != lines.end();
    };
    for (const SearchParamInfo& p : SearchParamTable) {
        INFO(p.name);
        std::string lower = p.name;
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        const int def = defaults.*(p.member);
        CHECK(listed(ucci, "option " + lower + " type spin min " + std::to_string(p.min) + " max " +
                               std::to_string(p.max) + " default " + std::to_string(def)));
        CHECK(listed(uci, "option name " + std::string(p.name) + " type spin default " + std::to_string(def) + " min " +
                              std::to_string(p.min) + " max " + std::to_string(p.max)));
        // Either spelling sets the field.
        auto r = engine.setOption(p.name, std::to_string(p.max));
        CHECK(r.applied);
        CHECK(r.messages.empty());
        CHECK(engine.searchOptions().params.*(p.member) == p.max);
        r = engine.setOption(lower, std::to_string(p.min));
        CHECK(r.applied);
        CHECK(engine.searchOptions().params.*(p.member) == p.min);
    }

    SECTION("out of range: clamped, with a message") {
        auto r = engine.setOption("FutilityBase", "100000");
        CHECK(r.applied);
        REQUIRE(r.messages.size() == 1);
        CHECK(r.messages[0] == "option futilitybase: 100000 is out of range, using 500");
        CHECK(engine.searchOptions().params.futilityBase == 500);
        r = engine.setOption("LmrDivisor", "abc");
        CHECK_FALSE(r.applied);
    }

    SECTION("setoption changes the search, and the defaults restore it") {
        SearchLimits limits;
        limits.depth = 9;
        engine.options().resetToDefaults();
        REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
        engine.newGame();
        const uint64_t shipped = engine.search(limits).nodes;
        REQUIRE(engine.setOption("FutilityBase", "0").applied);
        engine.newGame();
        CHECK(engine.search(limits).nodes != shipped);
        engine.options().resetToDefaults();
        CHECK(engine.searchOptions().params.futilityBase == defaults.futilityBase);
        engine.newGame();
        CHECK(engine.search(limits).nodes == shipped);
    }
}

#else

TEST_CASE("default builds: no search-constant options", "[search][params][options]") {
    Engine engine;
    for (const SearchParamInfo& p : SearchParamTable) {
        INFO(p.name);
        const auto r = engine.setOption(p.name, std::to_string(p.max));
        CHECK_FALSE(r.known);
        CHECK_FALSE(r.applied);
    }
    CHECK(engine.searchOptions().params.futilityBase == SearchParams{}.futilityBase);
}

#endif
