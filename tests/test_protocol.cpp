// Protocol tests: the real binary behind pipes.
#include <catch2/catch.hpp>

#include <chrono>
#include <sstream>
#include <thread>

#include "chariot/position.h"
#include "engine_process.h"

using namespace chariot;
using namespace std::chrono_literals;
using chariot::test::EngineProcess;

namespace {

using chariot::test::isLegalIn;
using chariot::test::words;

void ucci(EngineProcess& e) { chariot::test::ucciHandshake(e, 2000ms); }
std::string currentFen(EngineProcess& e) { return chariot::test::currentFen(e, 2000ms); }

}  // namespace

TEST_CASE("UCCI handshake lists options before ucciok", "[protocol]") {
    EngineProcess e;
    e.send("ucci");
    std::vector<std::string> lines;
    REQUIRE(e.waitFor("ucciok", 2000ms, &lines));
    bool name = false, millisec = false, hash = false;
    for (const auto& l : lines) {
        name |= l.rfind("id name Chariot", 0) == 0;
        millisec |= l.rfind("option usemillisec type check", 0) == 0;
        hash |= l.rfind("option hashsize type spin", 0) == 0;
    }
    CHECK(name);
    CHECK(millisec);
    CHECK(hash);
    e.send("isready");
    CHECK(e.waitFor("readyok", 1000ms));
}

TEST_CASE("quit answers bye and exits 0; end of input exits too", "[protocol]") {
    {
        EngineProcess e;
        ucci(e);
        e.send("quit");
        CHECK(e.waitFor("bye", 1000ms));
        CHECK(e.waitExit(1000ms) == 0);
    }
    {
        EngineProcess e;
        ucci(e);
        e.closeInput();
        CHECK(e.waitExit(1000ms) == 0);
    }
    {
        // Even in the middle of an infinite search.
        EngineProcess e;
        ucci(e);
        e.send("go infinite");
        e.send("quit");
        CHECK(e.waitFor("bye", 1000ms));
        CHECK(e.waitExit(1000ms) == 0);
    }
}

TEST_CASE("isready and stop are answered during a search", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos");
    e.send("go infinite");
    std::this_thread::sleep_for(300ms);
    auto t0 = std::chrono::steady_clock::now();
    e.send("isready");
    CHECK(e.waitFor("readyok", 500ms));
    CHECK(std::chrono::steady_clock::now() - t0 < 500ms);
    // No bestmove before stop.
    std::vector<std::string> seen;
    CHECK_FALSE(e.waitFor("bestmove", 200ms, &seen));
    t0 = std::chrono::steady_clock::now();
    e.send("stop");
    auto best = e.waitFor("bestmove", 1000ms);
    auto took = std::chrono::steady_clock::now() - t0;
    REQUIRE(best);
    CHECK(took < 100ms);
    CHECK(isLegalIn(std::string(StartFen), words(*best)[1]));
}

TEST_CASE("info lines carry the fields GUIs parse", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 5");
    std::vector<std::string> lines;
    REQUIRE(e.waitFor("bestmove", 10000ms, &lines));
    int infos = 0;
    for (const auto& l : lines) {
        if (l.rfind("info depth", 0) != 0) continue;
        ++infos;
        auto w = words(l);
        for (const char* field : {"seldepth", "score", "time", "nodes", "nps", "hashfull", "pv"})
            CHECK(std::find(w.begin(), w.end(), field) != w.end());
        auto score = std::find(w.begin(), w.end(), "score");
        REQUIRE(score + 1 != w.end());
        CHECK_NOTHROW(std::stoi(*(score + 1)));  // a bare number: no "cp", no "mate"
    }
    CHECK(infos >= 5);
}

TEST_CASE("a bad FEN or an illegal move keeps the previous position whole", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos moves h2e2 h9g7");
    const std::string good = currentFen(e);
    CHECK(good.rfind("rnbakab1r/9/1c4nc1/", 0) == 0);

    e.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w - - 0 1");
    auto msg = e.waitFor("info string", 1000ms);
    REQUIRE(msg);
    CHECK(msg->find("ranks") != std::string::npos);
    CHECK(currentFen(e) == good);

    e.send("position startpos moves h2e2 h9g7 e2e9");  // the last move is illegal
    msg = e.waitFor("info string", 1000ms);
    REQUIRE(msg);
    CHECK(msg->find("e2e9") != std::string::npos);
    CHECK(currentFen(e) == good);

    e.send("position startpos moves h2e2 zz99");
    CHECK(e.waitFor("info string", 1000ms));
    CHECK(currentFen(e) == good);
}

TEST_CASE("nobestmove when there is no legal move", "[protocol]") {
    EngineProcess e;
    ucci(e);
    // Black is checkmated: rook d8 checks, rook d7 guards it, e9 faces the red king.
    e.send("position fen 3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go depth 5");
    auto line = e.readLine(3000ms);
    while (line && line->rfind("info", 0) == 0) line = e.readLine(3000ms);
    REQUIRE(line);
    CHECK(*line == "nobestmove");
    // Stalemate (no legal move, not in check) is a loss too: nobestmove.
    e.send("position fen 3k5/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go depth 3");
    line = e.readLine(3000ms);
    while (line && line->rfind("info", 0) == 0) line = e.readLine(3000ms);
    REQUIRE(line);
    CHECK(*line == "nobestmove");
}

TEST_CASE("banmoves excludes root moves until the next position", "[protocol]") {
    EngineProcess e;
    ucci(e);
    // The black king e9 has two moves, e8 and f9 (d9 would face the red king).
    const std::string fen = "4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1";
    e.send("position fen " + fen);
    e.send("go depth 4");
    auto first = e.waitFor("bestmove", 5000ms);
    REQUIRE(first);
    std::string chosen = words(*first)[1];
    e.send("banmoves " + chosen);
    e.send("go depth 4");
    auto second = e.waitFor("bestmove", 5000ms);
    REQUIRE(second);
    CHECK(words(*second)[1] != chosen);
    CHECK(isLegalIn(fen, words(*second)[1]));
    // A new position clears the ban.
    e.send("position fen " + fen);
    e.send("go depth 4");
    auto third = e.waitFor("bestmove", 5000ms);
    REQUIRE(third);
    CHECK(words(*third)[1] == chosen);
}

TEST_CASE("go time is in seconds until usemillisec is set", "[protocol]") {
    EngineProcess e;
    e.send("ucci");
    REQUIRE(e.waitFor("ucciok", 2000ms));
    e.send("setoption usebook false");
    e.send("position startpos");
    // 1 second left with no increment: a sensible engine answers in well under a second,
    // but not instantly as it would if it read 1 ms.
    auto t0 = std::chrono::steady_clock::now();
    e.send("go time 1 increment 0");
    REQUIRE(e.waitFor("bestmove", 2000ms));
    auto took = std::chrono::steady_clock::now() - t0;
    CHECK(took < 1000ms);
    CHECK(took >= 10ms);
    // With usemillisec, "go time 100" is 100 ms.
    e.send("setoption usemillisec true");
    t0 = std::chrono::steady_clock::now();
    e.send("go time 100 increment 0");
    REQUIRE(e.waitFor("bestmove", 1000ms));
    CHECK(std::chrono::steady_clock::now() - t0 < 150ms);
}

TEST_CASE("ponder search answers only after ponderhit", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos moves h2e2");
    e.send("go ponder time 1000 increment 0");
    CHECK_FALSE(e.waitFor("bestmove", 400ms));
    auto t0 = std::chrono::steady_clock::now();
    e.send("ponderhit");
    auto best = e.waitFor("bestmove", 1500ms);
    REQUIRE(best);
    CHECK(std::chrono::steady_clock::now() - t0 < 1000ms);
}

TEST_CASE("commands sent during a search run after it, in order", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos");
    e.send("go depth 6");
    e.send("position startpos moves b2e2");
    e.send("d");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("fen ", 10000ms, &seen));
    bool bestBeforeFen = false;
    for (const auto& l : seen) bestBeforeFen |= l.rfind("bestmove", 0) == 0;
    CHECK(bestBeforeFen);
    CHECK(seen.back().find("/4C2C1/") != std::string::npos);
}

TEST_CASE("bad input never kills the engine", "[protocol]") {
    EngineProcess e;
    ucci(e);
    // (An absurd hashsize is tested in test_hardening.cpp, under an address-space
    // limit: the table's pages are touched when it is allocated.)
    const std::vector<std::string> junk = {
        "",
        "   ",
        "\t\t",
        "frobnicate",
        "GO DEPTH",
        "setoption",
        "setoption hashsize banana",
        "setoption hashsize -999999999",
        "setoption nosuchoption 3",
        "setoption threads -4",
        "setoption randomness extreme",
        "position",
        "position fen",
        "position banana",
        "position startpos moves",
        "position startpos moves h2e2 h2e2",
        "banmoves zz00 h2e2",
        "go depth -3",
        "go nodes -5",
        "go time -5",
        "go depth",
        "go movetime",
        "perft x",
        "perft 99",
        "probe fen xyz",
        "ponderhit",
        "stop",
        std::string(200000, 'x'),
        std::string("po\0sition", 9),
        "POSITION STARTPOS",
        "fen 9/9/9 w",
        "bench 0",
    };
    for (const auto& line : junk) {
        e.send(line);
        e.send("isready");
        auto ok = e.waitFor("readyok", 5000ms);
        INFO("after: " << line.substr(0, 60));
        REQUIRE(ok);
    }
    e.send("position startpos");
    e.send("go depth 2");
    // A liveness check, not a speed one: generous for a loaded CI machine.
    auto best = e.waitFor("bestmove", 20000ms);
    REQUIRE(best);
    CHECK(isLegalIn(std::string(StartFen), words(*best)[1]));
}

TEST_CASE("perft and probe work inside the loop", "[protocol]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos");
    e.send("perft 3");
    auto total = e.waitFor("Nodes searched:", 5000ms);
    REQUIRE(total);
    CHECK(*total == "Nodes searched: 79666");
    e.send("go depth 6");
    auto best = e.waitFor("bestmove", 10000ms);
    REQUIRE(best);
    e.send("probe");
    auto pop = e.waitFor("pophash", 1000ms);
    REQUIRE(pop);
    CHECK(pop->find("bestmove " + words(*best)[1]) != std::string::npos);
}

TEST_CASE("UCI dialect: handshake, score cp/mate and bestmove (none)", "[protocol]") {
    EngineProcess e;
    e.send("uci");
    std::vector<std::string> lines;
    REQUIRE(e.waitFor("uciok", 2000ms, &lines));
    bool hash = false;
    for (const auto& l : lines) hash |= l.rfind("option name Hash type spin", 0) == 0;
    CHECK(hash);
    e.send("setoption name Hash value 32");
    e.send("setoption name OwnBook value false");
    e.send("isready");
    REQUIRE(e.waitFor("readyok", 1000ms));
    e.send("position startpos moves h2e2");
    e.send("go depth 4");
    lines.clear();
    REQUIRE(e.waitFor("bestmove", 5000ms, &lines));
    bool cp = false;
    for (const auto& l : lines) cp |= l.find(" score cp ") != std::string::npos;
    CHECK(cp);
    // Mate in one for red: a1d1 (the black king cannot step to e9, facing the red king).
    e.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    e.send("go depth 4");
    lines.clear();
    REQUIRE(e.waitFor("bestmove", 5000ms, &lines));
    bool mate = false;
    for (const auto& l : lines) mate |= l.find(" score mate 1 ") != std::string::npos;
    CHECK(mate);
    e.send("position fen 3k5/3R5/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    e.send("go depth 3");
    CHECK(e.waitFor("bestmove (none)", 3000ms));
    // Bare "fen ..." line (UCI-Cyclone style) sets the position.
    e.send("fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    e.send("go depth 3");
    auto best = e.waitFor("bestmove", 3000ms);
    REQUIRE(best);
    CHECK(words(*best)[1] == "a1d1");  // mate: e9 would face the red king
}

TEST_CASE("the opening book answers from the start position", "[protocol][book]") {
    EngineProcess e;
    e.send("ucci");
    std::vector<std::string> lines;
    REQUIRE(e.waitFor("ucciok", 2000ms, &lines));
    bool advertised = false;
    for (const auto& l : lines) advertised |= l.rfind("option bookfiles type string default ", 0) == 0;
    CHECK(advertised);
    e.send("position startpos");
    e.send("go depth 10");
    lines.clear();
    auto best = e.waitFor("bestmove", 2000ms, &lines);
    REQUIRE(best);
    // Candidates come first as "info string book move <move> weight <w>",
    // never as a score a GUI would show as an evaluation.
    int candidates = 0;
    bool chosenListed = false;
    for (const auto& l : lines) {
        CHECK(l.find(" score ") == std::string::npos);
        if (l.rfind("info string book move ", 0) == 0) {
            ++candidates;
            chosenListed |= words(l)[4] == words(*best)[1];
        }
    }
    CHECK(candidates >= 4);
    CHECK(chosenListed);
    // With the book off, the same go searches (depth 1 and up).
    e.send("setoption usebook false");
    e.send("go depth 3");
    lines.clear();
    REQUIRE(e.waitFor("bestmove", 5000ms, &lines));
    CHECK(
        std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("info depth 3", 0) == 0; }));
    // A book file that does not exist is reported, and the engine goes on.
    e.send("setoption bookfiles /nonexistent/book.bin");
    auto msg = e.waitFor("info string bookfiles", 2000ms);
    REQUIRE(msg);
    CHECK(msg->find("/nonexistent/book.bin") != std::string::npos);
    e.send("isready");
    CHECK(e.waitFor("readyok", 1000ms));
}
