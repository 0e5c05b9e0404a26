// GUIs write commands in bursts without waiting for answers (issue 65). These
// tests write whole bursts in one write, as a GUI does, and count and order
// the answers: exactly one bestmove per go, in order; a stop or ponderhit
// belongs to the go it follows; a stop that crosses the engine's own answer
// gets no second one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "chariot/position.h"
#include "chariot/ucci.h"
#include "engine_process.h"

using namespace chariot;
using namespace std::chrono_literals;
using chariot::test::EngineProcess;
using chariot::test::isLegalIn;
using chariot::test::words;

namespace {

constexpr auto Timeout = 10000ms;

// Reads lines until `readyok` (after sending isready), returning them all.
std::vector<std::string> readUntilReady(EngineProcess& e, std::chrono::milliseconds timeout = Timeout) {
    e.send("isready");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("readyok", timeout, &seen));
    return seen;
}

std::vector<std::string> starting(const std::vector<std::string>& lines, const std::string& prefix) {
    std::vector<std::string> out;
    for (const auto& l : lines)
        if (l.rfind(prefix, 0) == 0) out.push_back(l);
    return out;
}

std::string fenAfter(const std::string& moves) {
    Position p;
    std::vector<std::string> list = words(moves);
    for (const auto& m : list) p.makeMove(p.parseLegalMove(m));
    return p.fen();
}

// Waits for `count` bestmove lines (any order of other output), then checks
// that nothing more comes within `quiet`.
std::vector<std::string> collectBestMoves(EngineProcess& e, size_t count, std::chrono::milliseconds timeout) {
    std::vector<std::string> best;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (best.size() < count) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left <= 0ms) break;
        auto line = e.readLine(left);
        if (!line) break;
        if (line->rfind("bestmove", 0) == 0 || *line == "nobestmove") best.push_back(*line);
    }
    return best;
}

void uciHandshake(EngineProcess& e) {
    e.send("uci");
    REQUIRE(e.waitFor("uciok", Timeout));
    e.send("setoption name OwnBook value false");
    readUntilReady(e);
}

}  // namespace

TEST_CASE("gui sync: stop after a queued go infinite reaches that search (UCI)", "[protocol][gui][process]") {
    EngineProcess e;
    uciHandshake(e);
    e.sendRaw("position startpos\ngo infinite\nstop\ngo infinite\nstop\n");
    const auto best = collectBestMoves(e, 2, Timeout);
    REQUIRE(best.size() == 2);
    // Both searches answered, so a third line would be a stray.
    const auto after = readUntilReady(e);
    CHECK(starting(after, "bestmove").empty());
}

TEST_CASE("gui sync: twenty rounds of position/go infinite/stop in one burst", "[protocol][gui][process]") {
    EngineProcess e;
    uciHandshake(e);
    // Alternate positions whose legal moves differ, so that each answer can
    // be matched to the position its go was sent for.
    const std::vector<std::string> lines = {"h2e2", "h2e2 h9g7", "b0c2 b9c7 h0g2"};
    std::string burst;
    for (int i = 0; i < 20; ++i)
        burst += "position startpos moves " + lines[size_t(i) % lines.size()] + "\ngo infinite\nstop\n";
    e.sendRaw(burst);
    const auto best = collectBestMoves(e, 20, 60000ms);
    REQUIRE(best.size() == 20);
    for (size_t i = 0; i < best.size(); ++i) {
        INFO("round " << i << ": " << best[i]);
        CHECK(isLegalIn(fenAfter(lines[i % lines.size()]), words(best[i])[1]));
    }
    const auto after = readUntilReady(e);
    CHECK(starting(after, "bestmove").empty());
}

TEST_CASE("gui sync: each ponderhit reaches its own ponder search (UCCI)", "[protocol][gui][process]") {
    EngineProcess e;
    chariot::test::ucciHandshake(e, Timeout);
    const auto start = std::chrono::steady_clock::now();
    e.sendRaw(
        "position startpos\ngo ponder time 1500 increment 0\nponderhit\n"
        "go ponder time 1500 increment 0\nponderhit\n");
    const auto best = collectBestMoves(e, 2, Timeout);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    REQUIRE(best.size() == 2);
    INFO("two 1.5 s clocks answered after " << ms.count() << " ms");
    // Each search is a timed one from its ponderhit: well under the two
    // clocks together (a lost ponderhit would wait for end of input).
    CHECK(ms < 3500ms);
    CHECK(starting(readUntilReady(e), "bestmove").empty());
}

TEST_CASE("gui sync: ponderhit draw in a burst, and a stop for a queued ponder search", "[protocol][gui][process]") {
    EngineProcess e;
    chariot::test::ucciHandshake(e, Timeout);
    e.sendRaw(
        "position startpos\ngo ponder time 800 increment 0\nponderhit draw\n"
        "go ponder time 60000 increment 0\nstop\n");
    const auto best = collectBestMoves(e, 2, Timeout);
    REQUIRE(best.size() == 2);
    for (const auto& b : best) CHECK(isLegalIn(fenAfter(""), words(b)[1]));
    CHECK(starting(readUntilReady(e), "bestmove").empty());
}

TEST_CASE("gui sync: batch mode runs each go to its limit, its stop waits and gets no second answer",
          "[protocol][gui][process]") {
    EngineProcess e;
    chariot::test::ucciHandshake(e, Timeout);
    e.send("setoption batch true");
    e.sendRaw("position startpos\ngo depth 4\nstop\ngo depth 5\nstop\n");
    const auto best = collectBestMoves(e, 2, Timeout);
    REQUIRE(best.size() == 2);
    for (const auto& b : best) CHECK(b.rfind("bestmove ", 0) == 0);
    const auto after = readUntilReady(e);
    CHECK(std::find(after.begin(), after.end(), "nobestmove") == after.end());
    CHECK(starting(after, "bestmove").empty());
}

TEST_CASE("gui sync: a stop crossing the engine's own answer gets no nobestmove; an idle stop still does",
          "[protocol][gui][process]") {
    EngineProcess e;
    chariot::test::ucciHandshake(e, Timeout);
    e.send("position startpos");
    e.send("go depth 2");
    REQUIRE(e.waitFor("bestmove", Timeout));
    e.send("stop");  // sent as the answer came: it belongs to that search
    auto after = readUntilReady(e);
    CHECK(std::find(after.begin(), after.end(), "nobestmove") == after.end());
    e.send("stop");  // a stop with no search at all: UCCI answers nobestmove
    after = readUntilReady(e);
    CHECK(std::find(after.begin(), after.end(), "nobestmove") != after.end());
}

TEST_CASE("gui sync: a byte-order mark before the first command is ignored", "[protocol][gui][process]") {
    for (const char* dialect : {"ucci", "uci"}) {
        EngineProcess e;
        e.sendRaw(std::string("\xEF\xBB\xBF") + dialect + "\n");
        CHECK(e.waitFor(std::string(dialect) + "ok", Timeout));
        CHECK(starting(readUntilReady(e), "info string unknown").empty());
    }
}

TEST_CASE("gui sync: the last info line before bestmove is a completed depth or says it is a bound",
          "[protocol][gui][process]") {
    // A node limit ends the search inside an iteration that already changed
    // the first move's score: UCCI (no bound words) keeps the completed
    // depth's line last; UCI prints the unfinished depth as a bound.
    for (const char* dialect : {"ucci", "uci"}) {
        INFO(dialect);
        EngineProcess e;
        const bool ucci = std::string(dialect) == "ucci";
        if (ucci)
            chariot::test::ucciHandshake(e, Timeout);
        else
            uciHandshake(e);
        e.send("position startpos moves h2e2 h9g7");
        e.send("go nodes 100000");
        std::vector<std::string> seen;
        REQUIRE(e.waitFor("bestmove", Timeout, &seen));
        // Result lines only: a slow build (sanitizers) also prints progress
        // lines (`info depth 12 currmove ... currmovenumber 2`) after a second.
        std::vector<std::string> infos;
        for (const auto& l : starting(seen, "info depth"))
            if (l.find(" score ") != std::string::npos) infos.push_back(l);
        REQUIRE(infos.size() >= 2);
        auto field = [](const std::string& line, const std::string& key, int count) {
            const auto ws = words(line);
            const auto it = std::find(ws.begin(), ws.end(), key);
            std::string out;
            for (int k = 1; k <= count && it != ws.end() && it + k != ws.end(); ++k) out += *(it + k) + " ";
            return out;
        };
        int last = 0;
        std::string lastLine;
        for (const auto& l : infos) {
            const int depth = std::stoi(field(l, "depth", 1));
            const bool bound = l.find("lowerbound") != std::string::npos || l.find("upperbound") != std::string::npos;
            INFO(lastLine << "\n" << l);
            CHECK(depth >= last);
            if (ucci) CHECK_FALSE(bound);
            // The same depth again without a bound word is the same result.
            if (depth == last && !bound)
                CHECK(field(l, "score", ucci ? 1 : 2) == field(lastLine, "score", ucci ? 1 : 2));
            CHECK(std::stoi(field(l, "seldepth", 1)) >= depth);
            last = depth;
            lastLine = l;
        }
    }
}

TEST_CASE("gui sync: an answer taken from the hash table keeps seldepth at or above depth",
          "[protocol][gui][process]") {
    EngineProcess e;
    uciHandshake(e);
    e.send("position startpos moves h2e2 h9g7");
    e.send("go depth 9");
    REQUIRE(e.waitFor("bestmove", Timeout));
    // Stopped at once: the answer is the deeper search's, from the table.
    e.sendRaw("go infinite\nstop\n");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("bestmove", Timeout, &seen));
    for (const auto& l : starting(seen, "info depth")) {
        INFO(l);
        const auto ws = words(l);
        CHECK(std::stoi(ws[4]) >= std::stoi(ws[2]));  // info depth D seldepth S
    }
}

TEST_CASE("gui sync: banmoves holds until the next position, as in ElephantEye", "[protocol][gui][process]") {
    EngineProcess e;
    chariot::test::ucciHandshake(e, Timeout);
    // Two legal moves only would make this trivial; use the start position
    // and ban the move a depth-1 search plays.
    e.send("position startpos");
    e.send("go depth 1");
    auto first = e.waitFor("bestmove", Timeout);
    REQUIRE(first);
    const std::string banned = words(*first)[1];
    e.send("banmoves " + banned);
    for (int i = 0; i < 2; ++i) {
        e.send("go depth 1");
        auto again = e.waitFor("bestmove", Timeout);
        REQUIRE(again);
        CHECK(words(*again)[1] != banned);
    }
    e.send("position startpos");
    e.send("go depth 1");
    auto after = e.waitFor("bestmove", Timeout);
    REQUIRE(after);
    CHECK(words(*after)[1] == banned);
}
