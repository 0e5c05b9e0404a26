// Bad input over the real pipe (issue 5): after each case the engine must
// keep its previous valid state and still answer isready with readyok.
//
// Behaviour these tests pin down:
//  - a line over 1 MB (LineSplitter::MaxLine) is dropped whole, with an info
//    string; nothing of it is executed;
//  - NUL, CR, tab and other control bytes act as spaces; only LF ends a line
//    (so CRLF works), and runs of blanks separate words like one space;
//  - command words, option names and keywords (startpos, fen, moves, depth,
//    ...) are case-insensitive, and so are move letters (H2E2); FEN piece
//    letters are not (their case is their colour);
//  - go numbers are clamped: depth to 1..100, negative times to 0, nodes to
//    at least 1; a non-number is reported and ignored, and a go left with no
//    usable limit by it is refused (no search that nothing would stop);
//  - hashsize is clamped to its range with an info string, then to what the
//    machine can back (tt.cpp), and an allocation that fails is retried at
//    half the size;
//  - FEN fields after the six standard ones are ignored with an info string;
//  - stop and ponderhit when idle change nothing (UCCI answers stop with
//    nobestmove); a go during a search waits for that search to answer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "chariot/position.h"
#include "engine_process.h"

using namespace chariot;
using namespace std::chrono_literals;
using chariot::test::EngineProcess;

namespace {

// Generous: the sanitizer build runs these too.
constexpr auto Timeout = 10000ms;

using chariot::test::isLegalIn;
using chariot::test::words;

// The FEN after `moves` from the start position, computed here.
std::string fenAfter(const std::vector<std::string>& moves) {
    Position p;
    for (const auto& text : moves) {
        Move m = p.parseLegalMove(text);
        REQUIRE(m);
        p.makeMove(m);
    }
    return p.fen();
}

bool contains(const std::vector<std::string>& lines, const std::string& fragment) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& l) { return l.find(fragment) != std::string::npos; });
}

void ucci(EngineProcess& e) { chariot::test::ucciHandshake(e, Timeout); }
std::string currentFen(EngineProcess& e) { return chariot::test::currentFen(e, Timeout); }

// isready answered; `seen` collects every line up to readyok.
void requireReady(EngineProcess& e, std::vector<std::string>* seen = nullptr) {
    e.send("isready");
    REQUIRE(e.waitFor("readyok", Timeout, seen));
}

const std::vector<std::string> BaseMoves = {"h2e2", "h9g7"};
const std::string BaseCommand = "position startpos moves h2e2 h9g7";

// UCCI engine set to the base position; returns that position's FEN.
std::string baseline(EngineProcess& e) {
    ucci(e);
    e.send(BaseCommand);
    const std::string fen = currentFen(e);
    REQUIRE(fen == fenAfter(BaseMoves));
    return fen;
}

// A short search still answers with a legal move in `fen`.
void requireSearches(EngineProcess& e, const std::string& fen, const std::string& go = "go depth 2") {
    e.send(go);
    auto best = e.waitFor("bestmove", Timeout);
    REQUIRE(best);
    REQUIRE(words(*best).size() >= 2);
    CHECK(isLegalIn(fen, words(*best)[1]));
}

}  // namespace

TEST_CASE("a line over 1 MB is dropped whole and reported", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    // Executing any prefix of this line would change the position.
    std::string huge = "position startpos moves b2e2" + std::string(size_t(1) << 20, ' ') + "h9g7";
    e.send(huge);
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK(contains(seen, "info string input line longer than"));
    CHECK(currentFen(e) == fen);
    // Just under the limit is an ordinary line.
    e.send(std::string(1000000, ' ') + "isready");
    CHECK(e.waitFor("readyok", Timeout));
    e.send(std::string(1000000, 'x'));
    requireReady(e);
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen);
}

TEST_CASE("NUL bytes in a line act as spaces", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    std::vector<std::string> seen;
    e.sendRaw(std::string("posi\0tion startpos moves b2e2\n", 30));  // "posi tion ...": unknown command
    e.sendRaw(std::string("position fen \0\0\0\n", 17));             // FEN missing
    e.sendRaw(std::string("\0\0\0\0\n", 5));                         // a blank line
    e.sendRaw(std::string("isready\0\0\n", 10));
    REQUIRE(e.waitFor("readyok", Timeout, &seen));
    CHECK(contains(seen, "unknown command 'posi'"));
    CHECK(contains(seen, "the FEN is missing"));
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen);
}

TEST_CASE("CRLF line ends are accepted", "[protocol][hardening]") {
    EngineProcess e;
    e.sendRaw("ucci\r\n");
    REQUIRE(e.waitFor("ucciok", Timeout));
    e.sendRaw("setoption usemillisec true\r\nsetoption usebook false\r\n");
    // The CR must not stick to the last move ("h9g7\r" would be illegal).
    e.sendRaw(BaseCommand + "\r\n");
    e.sendRaw("isready\r\n");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("readyok", Timeout, &seen));
    CHECK_FALSE(contains(seen, "info string"));
    const std::string fen = fenAfter(BaseMoves);
    CHECK(currentFen(e) == fen);
    e.sendRaw("go depth 2\r\n");
    auto best = e.waitFor("bestmove", Timeout);
    REQUIRE(best);
    CHECK(isLegalIn(fen, words(*best)[1]));
    requireReady(e);
}

TEST_CASE("tabs and repeated spaces separate words like one space", "[protocol][hardening]") {
    EngineProcess e;
    ucci(e);
    e.send("position startpos moves h0g2");  // a different previous state
    e.send("  position\t\tstartpos   moves \t h2e2\t\th9g7  \t");
    e.send("\tsetoption   hashsize\t16 ");
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK_FALSE(contains(seen, "info string"));
    const std::string fen = fenAfter(BaseMoves);
    CHECK(currentFen(e) == fen);
    // A FEN with doubled blanks between its fields.
    e.send("position  fen \t" + std::string(StartFen).replace(std::string(StartFen).find(' '), 1, "  \t "));
    CHECK(currentFen(e) == std::string(StartFen));
    requireSearches(e, std::string(StartFen), "go\tdepth   2");
}

TEST_CASE("command words are case-insensitive", "[protocol][hardening]") {
    EngineProcess e;
    e.send("UCCI");
    REQUIRE(e.waitFor("ucciok", Timeout));
    e.send("SetOption UseMillisec TRUE");
    e.send("SETOPTION USEBOOK FALSE");
    e.send("POSITION STARTPOS MOVES H2E2 H9G7");
    std::vector<std::string> seen;
    e.send("ISREADY");
    REQUIRE(e.waitFor("readyok", Timeout, &seen));
    CHECK_FALSE(contains(seen, "info string"));
    const std::string fen = fenAfter(BaseMoves);
    CHECK(currentFen(e) == fen);
    // FEN letters keep their case (it is the colour); the keyword does not matter.
    e.send("POSITION FEN " + fen + " MOVES B0C2");
    CHECK(currentFen(e) == fenAfter({"h2e2", "h9g7", "b0c2"}));
    requireSearches(e, fenAfter({"h2e2", "h9g7", "b0c2"}), "GO DEPTH 2");
}

TEST_CASE("go with negative or absurd numbers is clamped", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    // Each of these answers promptly with a legal move.
    for (const char* go :
         {"go depth -3", "go depth 0", "go time 0", "go time -5", "go time -5 increment -5", "go nodes -1",
          "go nodes 0", "go movetime -100", "go movetime 0", "go time 0 movestogo -7", "go mate -2 depth 2"}) {
        INFO(go);
        auto t0 = std::chrono::steady_clock::now();
        requireSearches(e, fen, go);
        CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    }
    // Huge limits: a long search that isready, stop and the depth clamp (100) govern.
    for (const char* go :
         {"go depth 10000", "go depth 99999999999999999999999999", "go time 99999999999999999999 increment 99999999999",
          "go movetime 9223372036854775807 nodes 18446744073709551616"}) {
        INFO(go);
        e.send(go);
        std::this_thread::sleep_for(100ms);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK_FALSE(contains(seen, "bestmove"));
        e.send("stop");
        auto best = e.waitFor("bestmove", Timeout, &seen);
        REQUIRE(best);
        CHECK(isLegalIn(fen, words(*best)[1]));
        for (const auto& l : seen)
            if (l.rfind("info depth ", 0) == 0) CHECK(std::stoi(words(l)[2]) <= 100);
    }
    // Not numbers at all: reported, and the rest of the line still counts.
    e.send("go depth banana nodes 2000");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("bestmove", Timeout, &seen));
    CHECK(contains(seen, "'depth banana' is not a number"));
    requireReady(e);
    CHECK(currentFen(e) == fen);
}

TEST_CASE("a go whose only limit is malformed is refused, not run forever", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    for (const char* go :
         {"go depth", "GO DEPTH", "go movetime", "go nodes banana", "go time x", "go depth 5x", "go opptime"}) {
        INFO(go);
        e.send(go);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK(contains(seen, "not searching"));
        CHECK_FALSE(contains(seen, "bestmove"));
        CHECK_FALSE(contains(seen, "info depth"));
    }
    // No search was left running: the next real one answers at once.
    auto t0 = std::chrono::steady_clock::now();
    requireSearches(e, fen, "go depth 2");
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    // Explicitly unlimited searches are still searches.
    e.send("go depth infinite");
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK_FALSE(contains(seen, "not searching"));
    e.send("stop");
    REQUIRE(e.waitFor("bestmove", Timeout));
}

TEST_CASE("out-of-range hash sizes are clamped with a message", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    for (const char* value : {"-5", "-99999999999999999999999"}) {
        e.send(std::string("setoption hashsize ") + value);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK(contains(seen, "info string option hashsize: "));
        CHECK(contains(seen, " is out of range, using 1"));
    }
    // UCCI: 0 lets the engine decide (its default).
    e.send("setoption hashsize 0");
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK(contains(seen, "info string option hashsize: 0 means the default, 64"));
    e.send("setoption hashsize 16");
    requireReady(e);
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen, "go depth 3");
}

#ifndef CHARIOT_TEST_ASAN  // ASan reserves terabytes of shadow: no address-space limit possible
TEST_CASE("a huge hash size gets what can be allocated, without dying", "[protocol][hardening]") {
    // 448 MB of address space (the engine uses under 100 MB besides its
    // table): of the 65536 MB the option allows, at most 256 MB can be
    // mapped; each failed allocation is retried at half the size.
    EngineProcess e({}, 448);
    const std::string fen = baseline(e);
    e.send("setoption hashsize 999999999");
    std::vector<std::string> seen;
    e.send("isready");
    REQUIRE(e.waitFor("readyok", 60s, &seen));
    CHECK(contains(seen, "info string option hashsize: 999999999 is out of range, using 65536"));
    auto got = std::find_if(seen.begin(), seen.end(),
                            [](const std::string& l) { return l.rfind("info string hash table is ", 0) == 0; });
    REQUIRE(got != seen.end());
    const int mb = std::stoi(words(*got)[5]);
    CHECK(mb >= 1);
    CHECK(mb <= 256);
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen, "go depth 4");
    CHECK(e.alive());
}
#endif

TEST_CASE("position with 1000 moves", "[protocol][hardening]") {
    EngineProcess e;
    ucci(e);
    // Horses out and back: the start position recurs every four plies, which
    // makes the game a repetition but no move illegal.
    std::vector<std::string> moves;
    std::string command = "position startpos moves";
    for (int i = 0; i < 250; ++i)
        for (const char* m : {"h0g2", "h9g7", "g2h0", "g7h9"}) {
            moves.push_back(m);
            command += ' ';
            command += m;
        }
    const std::string fen = fenAfter(moves);
    CHECK(fen == std::string(StartFen).substr(0, std::string(StartFen).size() - 3) + "1000 501");
    auto t0 = std::chrono::steady_clock::now();
    e.send(command);
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    CHECK_FALSE(contains(seen, "info string"));
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen, "go depth 4");
    // One illegal move more: the whole command is refused, the 1000 moves stay.
    e.send(command + " h0g2 h0g2");
    seen.clear();
    requireReady(e, &seen);
    CHECK(contains(seen, "move 1002 'h0g2' is illegal"));
    CHECK(currentFen(e) == fen);
}

TEST_CASE("a FEN with extra fields is read, the extras ignored", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    const std::string target = "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 3 7";
    e.send("position fen " + target + " extra 42 fields");
    std::vector<std::string> seen;
    requireReady(e, &seen);
    CHECK(contains(seen, "info string position fen: 3 extra field(s) after the move number ignored"));
    CHECK(currentFen(e) == target);
    // With moves after the extras.
    e.send("position fen " + target + " junk moves a1a2");
    CHECK(currentFen(e) == "3k5/9/9/9/9/9/9/R8/9/4K4 b - - 4 7");
    // A FEN that is bad in its first six fields is still refused whole.
    e.send(BaseCommand);
    e.send("position fen 3k5/9/9/9/9/9/9/9/R8/4K4 x - - 0 1 extra");
    seen.clear();
    requireReady(e, &seen);
    CHECK(contains(seen, "is not w, r or b"));
    CHECK(currentFen(e) == fen);
}

TEST_CASE("stop and ponderhit when idle change nothing", "[protocol][hardening]") {
    SECTION("UCCI") {
        EngineProcess e;
        const std::string fen = baseline(e);
        e.send("stop");
        CHECK(e.waitFor("nobestmove", Timeout));  // the UCCI spec's answer to a stray stop
        for (const char* cmd : {"ponderhit", "ponderhit draw", "stop", "ponderhit"}) e.send(cmd);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK_FALSE(contains(seen, "bestmove "));
        CHECK(currentFen(e) == fen);
        requireSearches(e, fen);
    }
    SECTION("UCI") {
        EngineProcess e;
        e.send("uci");
        REQUIRE(e.waitFor("uciok", Timeout));
        e.send("setoption name OwnBook value false");
        e.send(BaseCommand);
        for (const char* cmd : {"stop", "ponderhit", "stop"}) e.send(cmd);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK_FALSE(contains(seen, "bestmove"));
        const std::string fen = fenAfter(BaseMoves);
        CHECK(currentFen(e) == fen);
        requireSearches(e, fen);
    }
}

TEST_CASE("go while a search runs waits for that search to answer", "[protocol][hardening]") {
    EngineProcess e;
    const std::string fen = baseline(e);
    e.send("go infinite");
    e.send("go depth 1");
    std::vector<std::string> seen;
    requireReady(e, &seen);  // answered at once, during the search
    std::this_thread::sleep_for(200ms);
    CHECK_FALSE(e.waitFor("bestmove", 100ms, &seen));
    e.send("stop");
    auto first = e.waitFor("bestmove", Timeout);
    REQUIRE(first);
    CHECK(isLegalIn(fen, words(*first)[1]));
    // Then the queued go runs and answers on its own.
    auto second = e.waitFor("bestmove", Timeout);
    REQUIRE(second);
    CHECK(isLegalIn(fen, words(*second)[1]));
    requireReady(e);
    CHECK(currentFen(e) == fen);
}

TEST_CASE("a command sent right after bestmove is done before the next readyok", "[protocol][hardening]") {
    // Found while measuring memory: bestmove was printed by the search thread
    // before the loop knew the search had ended, so a command sent on seeing
    // bestmove could still be deferred "until the search ends" while the
    // isready after it was answered at once, out of order.
    EngineProcess e;
    const std::string fen = baseline(e);
    for (int i = 0; i < 200; ++i) {
        e.send(i % 2 ? "go depth 1" : "go nodes 50");
        REQUIRE(e.waitFor("bestmove", Timeout));
        e.send("d");
        e.send("isready");
        std::vector<std::string> seen;
        REQUIRE(e.waitFor("readyok", Timeout, &seen));
        INFO("round " << i);
        REQUIRE(contains(seen, "fen " + fen));  // d was carried out before readyok
    }
}

TEST_CASE("UCI setoption with a value that is not a number keeps the option", "[protocol][hardening]") {
    EngineProcess e;
    e.send("uci");
    REQUIRE(e.waitFor("uciok", Timeout));
    e.send("setoption name OwnBook value false");
    e.send(BaseCommand);
    const std::string fen = fenAfter(BaseMoves);
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"setoption name Hash value abc", "option hashsize: 'abc' is not a number from 1 to 65536; unchanged"},
        {"setoption name Hash value", "option hashsize: '' is not a number"},
        {"setoption name Hash", "option hashsize: '' is not a number"},
        {"setoption name Hash value 12abc", "option hashsize: '12abc' is not a number"},
        {"setoption name value 3", "setoption needs an option name"},
        {"setoption name Threads value 99999", "option threads: 99999 is out of range, using 256"},
        {"setoption name OwnBook value maybe", "option usebook: 'maybe' is not true or false; unchanged"},
        {"setoption name No Such Thing value 1", "unknown option 'No Such Thing' ignored"},
    };
    for (const auto& [command, message] : cases) {
        INFO(command);
        e.send(command);
        std::vector<std::string> seen;
        requireReady(e, &seen);
        CHECK(contains(seen, "info string " + message));
    }
    e.send("setoption name Threads value 1");
    CHECK(currentFen(e) == fen);
    requireSearches(e, fen, "go depth 3");
}

#ifndef CHARIOT_TEST_ASAN  // ASan's quarantine and shadow make RSS meaningless
using chariot::test::residentKB;

TEST_CASE("memory does not grow over 1000 searches", "[protocol][hardening][memory]") {
    EngineProcess e;
    ucci(e);
    e.send("setoption hashsize 16");
    const std::vector<std::string> positions = {"position startpos", BaseCommand,
                                                "position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1",
                                                "position startpos moves b2e2 b9c7 b0c2"};
    auto round = [&](int count) {
        for (int i = 0; i < count; ++i) {
            e.send(positions[size_t(i) % positions.size()]);
            e.send(i % 2 ? "go depth 1" : "go nodes 300");
            REQUIRE(e.waitFor("bestmove", Timeout));
        }
        requireReady(e);
    };
    round(100);  // warm up: the allocator's pools and the hash pages in use
    const long before = residentKB(e.pid());
    round(1000);
    const long after = residentKB(e.pid());
    INFO("VmRSS before " << before << " kB, after " << after << " kB");
    REQUIRE(before > 0);
    CHECK(after - before < 4096);  // a leak of even 4 kB per search would show
}

TEST_CASE("a smaller hash size gives the old table back", "[protocol][hardening][memory]") {
    EngineProcess e;
    ucci(e);
    e.send("setoption hashsize 16");
    requireReady(e);
    const long base = residentKB(e.pid());
    e.send("setoption hashsize 256");
    e.send("position startpos");
    e.send("go nodes 200000");  // the table is used, whether its pages were touched up front or not
    REQUIRE(e.waitFor("bestmove", 60s));
    e.send("isready");
    REQUIRE(e.waitFor("readyok", 60s));
    const long big = residentKB(e.pid());
    e.send("setoption hashsize 16");
    requireReady(e);
    const long small = residentKB(e.pid());
    INFO("VmRSS with 16 MB " << base << " kB, 256 MB used " << big << " kB, back to 16 MB " << small << " kB");
    REQUIRE(base > 0);
    CHECK(big - base > 32 * 1024);                  // the search really used the big table
    CHECK(small < base + (big - base) / 4 + 8192);  // and it was unmapped, not kept
}
#endif
