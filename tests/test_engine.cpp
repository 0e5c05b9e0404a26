// Engine-level tests: go / stop / ponderhit / book / draw offers through the
// callbacks, and the command loop's queue semantics (batch, quit, end of
// input) through Protocol::runLines, all without pipes. The pipe tests in
// test_protocol.cpp stay as end-to-end checks of the real binary.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "chariot/engine.h"
#include "chariot/movegen.h"
#include "chariot/ucci.h"
#include "engine_recorder.h"

using namespace chariot;
using Clock = std::chrono::steady_clock;
using chariot::test::finishesWithin;
using chariot::test::Recorder;

namespace {

// A middlegame position where the first generated legal move (b0b1) is a
// poor one and a one-ply search prefers another (issue #17's example).
const char* const Middlegame = "r1bakabr1/9/2n3n1c/p3p1p1p/2p6/2P6/P1c1P1P1P/C1N1C1N2/9/1RBAKABR1 w - - 14 8";


// The book the build puts next to the engine binary.
std::string builtBook() {
    const std::string binary = CHARIOT_BINARY;
    return binary.substr(0, binary.rfind('/') + 1) + "chariot.book";
}

Engine& quietEngine(Engine& e) {
    REQUIRE(e.setOption("usebook", "false").applied);
    return e;
}

Move firstLegalMove(const Position& pos) {
    MoveList list;
    generateLegal(pos, list);
    REQUIRE(list.size > 0);
    return list.moves[0];
}


std::vector<std::string> runProtocol(const std::vector<std::string>& lines) {
    std::vector<std::string> out;
    std::mutex m;
    Protocol protocol([&](const std::string& line) {
        std::lock_guard lock(m);
        out.push_back(line);
    });
    REQUIRE(protocol.runLines(lines) == 0);
    return out;
}

std::vector<std::string> linesStarting(const std::vector<std::string>& out, const std::string& prefix) {
    std::vector<std::string> found;
    for (const auto& l : out)
        if (l.rfind(prefix, 0) == 0) found.push_back(l);
    return found;
}

}  // namespace

TEST_CASE("go answers once, through the callbacks, with the last PV's first move", "[engine]") {
    Engine engine;
    quietEngine(engine);
    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    Recorder rec;
    SearchLimits limits;
    limits.depth = 7;
    engine.go({limits, false}, rec.callbacks());
    engine.wait();
    REQUIRE(rec.answerCount() == 1);
    const BestMove& answer = rec.answers[0];
    REQUIRE(answer.result.best);
    CHECK_FALSE(answer.fromBook);
    CHECK(answer.result.depth == 7);
    REQUIRE_FALSE(answer.result.pv.empty());
    CHECK(answer.result.pv[0] == answer.result.best);
    REQUIRE_FALSE(rec.infos.empty());
    CHECK(rec.infos.back().pv[0] == answer.result.best);
}

TEST_CASE("a search stopped at once still answers a searched move", "[engine]") {
    Engine reference;
    quietEngine(reference);
    REQUIRE_FALSE(reference.setPosition(Middlegame, {}));
    SearchLimits one;
    one.depth = 1;
    const Move depthOne = reference.search(one).best;
    const Move first = firstLegalMove(reference.position());
    // The test means something only if the two differ.
    REQUIRE(depthOne != first);

    SECTION("go infinite, then stop at once") {
        Engine engine;
        quietEngine(engine);
        REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
        Recorder rec;
        SearchLimits limits;
        limits.infinite = true;
        engine.go({limits, false}, rec.callbacks());
        engine.stop();
        engine.wait();
        REQUIRE(rec.answerCount() == 1);
        CHECK(rec.answers[0].result.depth >= 1);
        CHECK(rec.answers[0].result.best == depthOne);
    }
    SECTION("go nodes 50") {
        Engine engine;
        quietEngine(engine);
        REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
        SearchLimits limits;
        limits.nodes = 50;
        const SearchResult r = engine.search(limits);
        CHECK(r.depth >= 1);
        CHECK(r.best == depthOne);
    }
    SECTION("a deeper earlier result for the same position is preferred") {
        Engine engine;
        quietEngine(engine);
        REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
        SearchLimits deep;
        deep.depth = 9;
        const SearchResult first9 = engine.search(deep);
        SearchLimits tiny;
        tiny.nodes = 10;
        const SearchResult again = engine.search(tiny);
        CHECK(again.best == first9.best);
        CHECK(again.depth == 9);
    }
}

TEST_CASE("a ponder search answers only after ponderhit or stop", "[engine]") {
    Engine engine;
    quietEngine(engine);
    REQUIRE_FALSE(engine.setPosition("startpos", {}));
    Recorder rec;
    SearchLimits limits;
    limits.depth = 3;  // done in milliseconds
    limits.ponder = true;
    engine.go({limits, false}, rec.callbacks());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(rec.answerCount() == 0);
    CHECK(engine.searching());
    engine.ponderhit();
    REQUIRE(finishesWithin(engine, 10));
    REQUIRE(rec.answerCount() == 1);
    CHECK(rec.answers[0].result.depth == 3);
}

TEST_CASE("movetime is used, less the overhead", "[engine]") {
    Engine engine;
    quietEngine(engine);
    REQUIRE(engine.setOption("moveoverhead", "20").applied);
    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    Recorder rec;
    SearchLimits limits;
    limits.time.moveTime = 600;
    const auto start = Clock::now();
    engine.go({limits, false}, rec.callbacks());
    REQUIRE(finishesWithin(engine, 10));
    REQUIRE(rec.answerCount() == 1);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(rec.answeredAt - start).count();
    // 580 ms are granted; at least 90% of the movetime is used (it answered
    // after 430-670 ms of 1000 before the fix), and it stops in time.
    CHECK(ms >= 540);
    CHECK(ms <= 600 + 250);
}

TEST_CASE("go mate ends by itself, with a mate when there is one", "[engine]") {
    Engine engine;
    quietEngine(engine);
    SECTION("no mate at the start position") {
        REQUIRE_FALSE(engine.setPosition("startpos", {}));
        Recorder rec;
        SearchLimits limits;
        limits.mate = 2;
        engine.go({limits, false}, rec.callbacks());
        const bool finished = finishesWithin(engine, 20);
        if (!finished) engine.stop(), engine.wait();
        REQUIRE(finished);
        REQUIRE(rec.answerCount() == 1);
        CHECK_FALSE(isMateScore(rec.answers[0].result.score));
    }
    SECTION("a mate in one is proven") {
        REQUIRE_FALSE(engine.setPosition("3k5/9/7R1/9/9/p7p/9/9/9/4K4 w - - 0 1", {}));
        SearchLimits limits;
        limits.mate = 1;
        const SearchResult r = engine.search(limits);
        CHECK(r.best.toString() == "h7d7");
        CHECK(mateInMoves(r.score) == 1);
    }
}

TEST_CASE("progress and current-move reports come after the first second", "[engine][slow]") {
    Engine engine;
    quietEngine(engine);
    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    Recorder rec;
    SearchLimits limits;
    limits.time.moveTime = 2300;
    engine.go({limits, false}, rec.callbacks());
    REQUIRE(finishesWithin(engine, 10));
    CHECK(rec.progress >= 1);
    CHECK(rec.currentMoves >= 1);

    Recorder shortRec;
    limits.time.moveTime = 300;
    engine.go({limits, false}, shortRec.callbacks());
    REQUIRE(finishesWithin(engine, 10));
    CHECK(shortRec.progress == 0);
    CHECK(shortRec.currentMoves == 0);
}

TEST_CASE("book moves: weighted random by default, deterministic on request", "[engine][book]") {
    Engine engine;
    REQUIRE(engine.setOption("bookfiles", builtBook()).applied);
    REQUIRE(engine.loadedBooks() == 1);
    REQUIRE_FALSE(engine.setPosition("startpos", {}));
    std::vector<BookMove> candidates;
    REQUIRE(engine.bookMove(&candidates));
    REQUIRE(candidates.size() >= 2);

    std::set<std::string> seen;
    for (int i = 0; i < 60; ++i) {
        Recorder rec;
        engine.go({SearchLimits{}, false}, rec.callbacks());
        engine.wait();
        REQUIRE(rec.answerCount() == 1);
        REQUIRE(rec.answers[0].fromBook);
        seen.insert(rec.answers[0].result.best.toString());
    }
    // The two top moves weigh 1183 each of about 3,600: sixty identical
    // choices would have a probability far below 1e-20.
    CHECK(seen.size() >= 2);

    REQUIRE(engine.setOption("bookrandom", "false").applied);
    for (int i = 0; i < 10; ++i) CHECK(engine.bookMove() == candidates.front().move);
}

TEST_CASE("draw offers: a dead draw, not a live game", "[engine]") {
    Engine engine;
    quietEngine(engine);
    SearchLimits limits;
    limits.depth = 4;
    // Kings, advisors and elephants only: neither side can ever mate.
    REQUIRE_FALSE(engine.setPosition("2bak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1B2 w - - 0 1", {}));
    Recorder dead;
    engine.go({limits, false}, dead.callbacks());
    engine.wait();
    REQUIRE(dead.answerCount() == 1);
    CHECK(dead.answers[0].offerDraw);

    REQUIRE_FALSE(engine.setPosition(Middlegame, {}));
    Recorder live;
    engine.go({limits, false}, live.callbacks());
    engine.wait();
    REQUIRE(live.answerCount() == 1);
    CHECK_FALSE(live.answers[0].offerDraw);
}

TEST_CASE("options: one registry for both dialects, clamped with messages", "[engine][options]") {
    Engine engine;
    OptionRegistry& options = engine.options();
    SECTION("both spellings reach the same option") {
        CHECK(options.set("Move Overhead", "55").applied);
        CHECK(engine.moveOverheadMs() == 55);
        CHECK(options.set("move_overhead", "60").applied);
        CHECK(engine.moveOverheadMs() == 60);
        CHECK(options.set("moveoverhead", "70").applied);
        CHECK(engine.moveOverheadMs() == 70);
    }
    SECTION("out of range is clamped, malformed is refused, unknown is reported") {
        auto r = options.set("multipv", "500");
        CHECK(r.applied);
        REQUIRE(r.messages.size() == 1);
        CHECK(r.messages[0] == "option multipv: 500 is out of range, using 128");
        CHECK(engine.searchOptions().multiPV == 128);
        r = options.set("multipv", "lots");
        CHECK_FALSE(r.applied);
        CHECK(engine.searchOptions().multiPV == 128);
        r = options.set("pruning", "extreme");
        CHECK_FALSE(r.applied);
        REQUIRE(r.messages.size() == 1);
        CHECK(r.messages[0] == "option pruning: 'extreme' is not one of none, small, medium, large; unchanged");
        r = options.set("frobnicate", "1");
        CHECK_FALSE(r.known);
    }
    SECTION("standard UCCI options a GUI sends are accepted") {
        auto r = options.set("promotion", "false");
        CHECK(r.applied);
        CHECK(r.messages.empty());
        r = options.set("promotion", "true");
        REQUIRE(r.messages.size() == 1);
        CHECK(r.messages[0].find("not supported") != std::string::npos);
        CHECK(options.set("selectivity", "small").applied);  // the old name of randomness
        CHECK(options.set("idle", "none").applied);
        CHECK(options.set("useegtb", "false").messages.empty());
    }
    SECTION("every option is in the handshake of its dialects") {
        const auto ucci = options.ucciLines();
        const auto uci = options.uciLines();
        size_t withUci = 0;
        for (const Option& o : options.all()) {
            INFO(o.ucciName);
            CHECK(std::any_of(ucci.begin(), ucci.end(), [&](const std::string& l) {
                return l.rfind("option " + o.ucciName + " type ", 0) == 0;
            }));
            if (!o.uciName.empty()) {
                ++withUci;
                CHECK(std::any_of(uci.begin(), uci.end(), [&](const std::string& l) {
                    return l.rfind("option name " + o.uciName + " type ", 0) == 0;
                }));
            }
        }
        CHECK(uci.size() == withUci);
    }
}

// The README documents the default build: a tuning build (CHARIOT_TUNABLE)
// has the search constants as options too.
#if !CHARIOT_TUNABLE
TEST_CASE("the README's option table is the registry's", "[engine][options]") {
    Protocol protocol([](const std::string&) {});
    const std::string table = protocol.engine().options().markdownTable();
    std::ifstream in(std::string(CHARIOT_TEST_DATA) + "/../../README.md");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    INFO("README.md must contain this table (regenerate it from the registry):\n" << table);
    CHECK(text.str().find(table) != std::string::npos);
}
#endif

TEST_CASE("command loop: batch runs every go to its limit, quit included", "[engine][protocol]") {
    const std::vector<std::string> script = {"ucci",
                                             "setoption batch true",
                                             "setoption usebook false",
                                             "position startpos",
                                             "go depth 6",
                                             "position startpos moves h2e2",
                                             "go depth 6",
                                             "quit"};
    const auto out = runProtocol(script);
    const auto best = linesStarting(out, "bestmove");
    REQUIRE(best.size() == 2);
    CHECK(linesStarting(out, "info depth 6 ").size() >= 2);
    CHECK(linesStarting(out, "info string go ignored").empty());
    CHECK(out.back() == "bye");
}

TEST_CASE("command loop: end of input finishes the queued finite searches", "[engine][protocol]") {
    const auto out = runProtocol({"ucci", "setoption usebook false", "position startpos", "go depth 6",
                                  "position startpos moves h2e2", "go depth 6"});
    CHECK(linesStarting(out, "bestmove").size() == 2);
    CHECK(linesStarting(out, "info depth 6 ").size() >= 2);
}

TEST_CASE("command loop: quit stops a search at once, still with a searched move", "[engine][protocol]") {
    const auto out = runProtocol(
        {"ucci", "setoption usebook false", std::string("position fen ") + Middlegame, "go infinite", "quit"});
    const auto best = linesStarting(out, "bestmove");
    REQUIRE(best.size() == 1);
    CHECK(best[0].rfind("bestmove b0b1", 0) != 0);  // not the first legal move, unsearched
    CHECK_FALSE(linesStarting(out, "info depth ").empty());
    CHECK(out.back() == "bye");
}

TEST_CASE("command loop: go infinite ends at end of input with its bestmove", "[engine][protocol]") {
    const auto out = runProtocol({"ucci", "setoption usebook false", "position startpos", "go infinite"});
    CHECK(linesStarting(out, "bestmove").size() == 1);
}

TEST_CASE("command loop: UCI book moves are not shown as scores", "[engine][protocol][book]") {
    const auto out = runProtocol({"uci", "setoption name BookFiles value " + builtBook(),
                                  "setoption name BookRandom value false", "position startpos", "go depth 5"});
    CHECK_FALSE(linesStarting(out, "info string book move ").empty());
    for (const auto& l : linesStarting(out, "info ")) {
        INFO(l);
        CHECK(l.find(" score ") == std::string::npos);
    }
    CHECK(linesStarting(out, "bestmove").size() == 1);
}

TEST_CASE("command loop: the last PV before bestmove starts with the move played", "[engine][protocol]") {
    for (const char* threads : {"1", "2"}) {
        const auto out = runProtocol({"uci", "setoption name OwnBook value false",
                                      std::string("setoption name Threads value ") + threads,
                                      std::string("position fen ") + Middlegame, "go movetime 300"});
        std::string lastPv, best;
        for (const auto& l : out) {
            if (l.rfind("info ", 0) == 0 && l.find(" pv ") != std::string::npos)
                lastPv = l.substr(l.find(" pv ") + 4, 4);
            if (l.rfind("bestmove ", 0) == 0) best = l.substr(9, 4);
        }
        INFO("threads " << threads);
        REQUIRE_FALSE(best.empty());
        CHECK(lastPv == best);
    }
}
