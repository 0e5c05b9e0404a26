// The XBoard (CECP v2) front-end: scripts through Protocol::runLines (no
// pipes; the whole script is queued at once, so a `ping` after a `go` holds
// the rest back until the move, as it would for XBoard), and the real binary
// behind pipes where timing matters (ponder, analyze, `?`, clocks).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "chariot/position.h"
#include "chariot/ucci.h"
#include "chariot/xboard.h"
#include "engine_process.h"

using namespace chariot;
using namespace std::chrono_literals;
using chariot::test::EngineProcess;
using chariot::test::isLegalIn;
using chariot::test::words;
using Clock = std::chrono::steady_clock;

namespace {

// A Protocol whose output is kept; each run is a fresh session.
struct Script {
    std::mutex mutex;
    std::vector<std::string> out;
    Protocol protocol{[this](const std::string& line) {
        std::lock_guard lock(mutex);
        out.push_back(line);
    }};

    const std::vector<std::string>& run(std::vector<std::string> lines) {
        out.clear();
        lines.insert(lines.begin(), {"xboard", "protover 2"});
        REQUIRE(protocol.runLines(lines) == 0);
        return out;
    }
};

std::vector<std::string> starting(const std::vector<std::string>& lines, const std::string& prefix) {
    std::vector<std::string> found;
    for (const auto& l : lines)
        if (l.rfind(prefix, 0) == 0) found.push_back(l);
    return found;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

size_t indexOf(const std::vector<std::string>& lines, const std::string& prefix) {
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].rfind(prefix, 0) == 0) return i;
    return lines.size();
}

// A thinking line, "depth score time nodes pv": four integers, then the PV.
struct ThinkingLine {
    int depth = 0;
    int score = 0;
    std::vector<std::string> pv;
};
std::optional<ThinkingLine> thinking(const std::string& line) {
    const std::vector<std::string> w = words(line);
    if (w.size() < 4 || line.empty() || line[0] == ' ') return std::nullopt;
    for (size_t i = 0; i < 4; ++i) {
        const std::string digits = i == 1 && !w[i].empty() && w[i][0] == '-' ? w[i].substr(1) : w[i];
        if (digits.empty() || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
    }
    return ThinkingLine{std::stoi(w[0]), std::stoi(w[1]), {w.begin() + 4, w.end()}};
}

std::string fenAfter(const std::string& fen, const std::vector<std::string>& moves) {
    Position p;
    REQUIRE_FALSE(p.setFen(fen));
    for (const auto& m : moves) {
        const Move move = p.parseLegalMove(m);
        REQUIRE(move);
        p.makeMove(move);
    }
    return p.fen();
}

// A legal move of a position other than `except` (a reply the tests can make).
std::string someMove(const std::string& fen, const std::string& except = "") {
    Position p;
    REQUIRE_FALSE(p.setFen(fen));
    for (int from = 0; from < 90; ++from)
        for (int to = 0; to < 90; ++to) {
            const std::string text =
                squareName(makeSquare(from % 9, from / 9)) + squareName(makeSquare(to % 9, to / 9));
            if (text != except && p.parseLegalMove(text)) return text;
        }
    FAIL("no legal move in " << fen);
    return {};
}

void xboardHandshake(EngineProcess& e) {
    e.send("xboard");
    e.send("protover 2");
    REQUIRE(e.waitFor("feature done=1", 2000ms));
    e.send("new");
    e.send("variant xiangqi");
    e.send("option OwnBook=0");
    e.send("ping 1");
    REQUIRE(e.waitFor("pong 1", 2000ms));
}

}  // namespace

TEST_CASE("xboard: scores and FENs as XBoard reads and writes them", "[xboard]") {
    CHECK(toXboardScore(123) == 123);
    CHECK(toXboardScore(-40) == -40);
    CHECK(toXboardScore(mateIn(1)) == 100001);  // mate with the next move
    CHECK(toXboardScore(mateIn(3)) == 100002);
    CHECK(toXboardScore(matedIn(2)) == -100001);
    // XBoard's xiangqi FEN: H and E letters, no castling or en-passant field.
    const std::string xb = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b 7 12";
    const std::string fen = fromXboardFen(words(xb));
    CHECK(fen == "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR b - - 7 12");
    Position p;
    REQUIRE_FALSE(p.setFen(fen));
    CHECK(p.rule60() == 7);
    CHECK(p.gamePly() == 23);
    // A full UCCI FEN passes unchanged.
    CHECK(fromXboardFen(words(std::string(StartFen))) == StartFen);
}

TEST_CASE("xboard: handshake lists the features and the registry's options, then done=1", "[xboard]") {
    Script s;
    const auto& out = s.run({});
    const auto features = starting(out, "feature ");
    REQUIRE(features.size() >= 3);
    const std::string& first = features.front();
    for (const char* f :
         {"myname=\"Chariot ", "variants=\"xiangqi\"", "setboard=1", "usermove=1", "ping=1", "sigint=0", "sigterm=0",
          "colors=0", "analyze=1", "memory=1", "smp=1", "san=0", "time=1", "draw=1", "reuse=1", "playother=1"})
        CHECK(first.find(f) != std::string::npos);
    CHECK(features.back() == "feature done=1");
    CHECK(has(out, "feature option=\"OwnBook -check 1\""));
    CHECK(has(out, "feature option=\"Skill Level -spin 20 0 20\""));
    CHECK(has(out, "feature option=\"Pruning -combo none /// small /// medium /// *large\""));
    CHECK(has(out, "feature option=\"Clear Hash -button\""));
    CHECK(indexOf(out, "feature option=\"BookFiles -string ") < out.size());
    // One line per registry option with a UCI name, less those CECP commands set.
    size_t expected = 0;
    for (const Option& o : s.protocol.engine().options().all()) {
        const bool covered =
            o.ucciName == "hashsize" || o.ucciName == "threads" || o.ucciName == "ponder" || o.ucciName == "debug";
        if (o.uciName.empty() || covered) {
            CHECK(indexOf(out, "feature option=\"" + (o.uciName.empty() ? o.ucciName : o.uciName) + " ") == out.size());
        } else {
            ++expected;
        }
    }
    CHECK(starting(out, "feature option=").size() == expected);
    CHECK(s.protocol.dialect() == Protocol::Dialect::Xboard);
}

TEST_CASE("xboard: only the first command selects it", "[xboard]") {
    Script s;
    s.out.clear();
    REQUIRE(s.protocol.runLines({"ucci", "xboard", "isready"}) == 0);
    CHECK(s.protocol.dialect() == Protocol::Dialect::Ucci);
    CHECK(has(s.out, "readyok"));
    CHECK(indexOf(s.out, "info string xboard selects") < s.out.size());
}

TEST_CASE("xboard: a usermove makes the engine think and move; ping answers after the move", "[xboard]") {
    Script s;
    const auto& out = s.run({"new", "variant xiangqi", "option OwnBook=0", "sd 4", "post", "time 30000", "otim 30000",
                             "usermove h2e2", "ping 1"});
    const size_t move = indexOf(out, "move ");
    REQUIRE(move < out.size());
    const std::string reply = words(out[move])[1];
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"h2e2"}), reply));
    // Thinking output came before it, in XBoard's format.
    int lines = 0;
    for (size_t i = 0; i < move; ++i) {
        const auto t = thinking(out[i]);
        if (!t) continue;
        ++lines;
        CHECK(t->depth >= 1);
        CHECK(std::abs(t->score) < 2000);
        CHECK_FALSE(t->pv.empty());
    }
    CHECK(lines >= 4);
    // The pong waits for the move.
    CHECK(indexOf(out, "pong 1") > move);
    CHECK(starting(out, "move ").size() == 1);
    // The game: both moves.
    CHECK(s.protocol.engine().position().fen() == fenAfter(std::string(StartFen), {"h2e2", reply}));
}

TEST_CASE("xboard: a game as XBoard plays it: time, otim, usermove; every reply legal", "[xboard][process]") {
    EngineProcess e;
    xboardHandshake(e);
    e.send("level 0 0:05 0.1");
    e.send("post");
    std::vector<std::string> game;
    int64_t clock = 500;
    for (int ply = 0; ply < 8; ++ply) {
        const std::string mine = someMove(fenAfter(std::string(StartFen), game));
        game.push_back(mine);
        e.send("time " + std::to_string(clock));
        e.send("otim " + std::to_string(clock));
        const auto t0 = Clock::now();
        e.send("usermove " + mine);
        std::vector<std::string> seen;
        auto move = e.waitFor("move ", 5000ms, &seen);
        REQUIRE(move);
        const std::string reply = words(*move)[1];
        INFO("after " << mine << ": " << reply);
        CHECK(isLegalIn(fenAfter(std::string(StartFen), game), reply));
        CHECK(std::count_if(seen.begin(), seen.end(), [](const std::string& l) { return thinking(l).has_value(); }) >=
              1);
        game.push_back(reply);
        clock -= std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count() / 10 - 10;
    }
    CHECK(clock > 0);
    e.send("quit");
    CHECK(e.waitExit(2000ms) == 0);
}

TEST_CASE("xboard: force, go and playother pick the engine's colour", "[xboard]") {
    Script s;
    // go: the engine takes the side to move (red).
    auto out = s.run({"new", "option OwnBook=0", "sd 2", "force", "go", "ping 1"});
    REQUIRE(starting(out, "move ").size() == 1);
    CHECK(isLegalIn(std::string(StartFen), words(starting(out, "move ")[0])[1]));
    // force: moves are only recorded.
    out = s.run({"new", "option OwnBook=0", "sd 2", "force", "usermove h2e2", "usermove h9g7", "ping 2"});
    CHECK(starting(out, "move ").empty());
    CHECK(has(out, "pong 2"));
    CHECK(s.protocol.engine().position().fen() == fenAfter(std::string(StartFen), {"h2e2", "h9g7"}));
    // playother: the engine takes the other side and moves after the opponent's move.
    out = s.run({"new", "option OwnBook=0", "sd 2", "force", "usermove h2e2", "playother", "ping 3", "usermove h9g7",
                 "ping 4"});
    REQUIRE(starting(out, "move ").size() == 1);
    CHECK(indexOf(out, "pong 3") < indexOf(out, "move "));
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"h2e2"}), "h9g7"));
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"h2e2", "h9g7"}), words(starting(out, "move ")[0])[1]));
}

TEST_CASE("xboard: setboard takes XBoard's FEN; a bad one is refused and the position kept", "[xboard]") {
    Script s;
    // Mate in one for red (a1d1: e9 would face the red king), in XBoard's form.
    const std::string mate = "3k5/9/9/9/9/9/9/9/R8/4K4 w 0 1";
    auto out = s.run({"new", "force", "setboard " + mate, "setboard rnbakabnr/9/1c5c1/RNBAKABNR w 0 1", "usermove h2e2",
                      "sd 3", "go", "ping 1"});
    const auto errors = starting(out, "Error (bad FEN: ");
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].find("): setboard rnbakabnr/9/1c5c1/RNBAKABNR w 0 1") != std::string::npos);
    CHECK(has(out, "Illegal move (no such move here): h2e2"));
    // The mate position was kept: the engine mates and claims the win.
    const size_t move = indexOf(out, "move ");
    REQUIRE(move < out.size());
    CHECK(out[move] == "move a1d1");
    REQUIRE(move + 1 < out.size());
    CHECK(out[move + 1] == "1-0 {Red mates}");
    // XBoard's start position, with H and E, black to move.
    out = s.run({"new", "force", "setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C4HC1/9/RHEAKAE1R b 1 1", "sd 2",
                 "go", "ping 1"});
    CHECK(starting(out, "Error").empty());
    REQUIRE(starting(out, "move ").size() == 1);
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"h0g2"}), words(starting(out, "move ")[0])[1]));
}

TEST_CASE("xboard: undo and remove take moves back", "[xboard]") {
    Script s;
    auto out = s.run({"new", "force", "usermove h2e2", "usermove h9g7", "usermove h0g2", "undo", "ping 1"});
    CHECK(starting(out, "Error").empty());
    CHECK(s.protocol.engine().position().fen() == fenAfter(std::string(StartFen), {"h2e2", "h9g7"}));
    out = s.run({"new", "force", "usermove h2e2", "usermove h9g7", "usermove h0g2", "remove", "ping 1"});
    CHECK(s.protocol.engine().position().fen() == fenAfter(std::string(StartFen), {"h2e2"}));
    out = s.run({"new", "force", "usermove h2e2", "remove", "undo", "undo", "ping 1"});
    CHECK(has(out, "Error (fewer than two moves to remove): remove"));
    CHECK(has(out, "Error (no move to undo): undo"));
    CHECK(s.protocol.engine().position().fen() == std::string(StartFen));
    // After an undo the engine, still playing black, answers the new move.
    out = s.run({"new", "option OwnBook=0", "sd 2", "usermove h2e2", "ping 1", "force", "undo", "undo", "new",
                 "option OwnBook=0", "sd 2", "usermove b2e2", "ping 2"});
    const auto moves = starting(out, "move ");
    REQUIRE(moves.size() == 2);
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"b2e2"}), words(moves[1])[1]));
}

TEST_CASE("xboard: bad input gets Illegal move or Error and changes nothing", "[xboard]") {
    Script s;
    const auto& out = s.run({"new",           "force",         "usermove h2e2",    "usermove h2e9",
                             "usermove zz99", "usermove a0a2", "frobnicate 3",     "level x y z",
                             "level 40",      "st banana",     "sd deep",          "time soon",
                             "variant shogi", "memory lots",   "option",           "option Nonexistent=3",
                             "usermove",      "setboard",      "setboard 9/9/9 w", "ping 9"});
    CHECK(has(out, "Illegal move (no such move here): h2e9"));
    CHECK(has(out, "Illegal move (not a move like h2e2): zz99"));
    CHECK(has(out, "Illegal move (no such move here): a0a2"));  // black to move
    CHECK(has(out, "Error (unknown command): frobnicate 3"));
    CHECK(has(out, "Error (bad time control): level x y z"));
    CHECK(has(out, "Error (level needs MPS BASE INC): level 40"));
    CHECK(has(out, "Error (bad seconds): st banana"));
    CHECK(has(out, "Error (bad depth): sd deep"));
    CHECK(has(out, "Error (bad clock): time soon"));
    CHECK(has(out, "Error (unsupported variant): variant shogi"));
    CHECK(has(out, "Error (bad number): memory lots"));
    CHECK(has(out, "Error (no option name): option"));
    CHECK(has(out, "Error (unknown option): option Nonexistent=3"));
    CHECK(has(out, "Error (no move given): usermove"));
    CHECK(has(out, "Error (no FEN given): setboard"));
    CHECK(indexOf(out, "Error (bad FEN: ") < out.size());
    CHECK(has(out, "pong 9"));
    // Nothing says "illegal" but the move errors (XBoard reads that as a refused move).
    for (const auto& l : starting(out, "Error")) CHECK(l.find("llegal") == std::string::npos);
    CHECK(s.protocol.engine().position().fen() == fenAfter(std::string(StartFen), {"h2e2"}));
}

TEST_CASE("xboard: a clock below zero means no time left, not the whole control", "[xboard]") {
    Script s;
    const auto t0 = Clock::now();
    const auto& out =
        s.run({"new", "option OwnBook=0", "level 0 5 0", "time -50", "otim 30000", "usermove h2e2", "ping 1"});
    CHECK(Clock::now() - t0 < 2000ms);
    REQUIRE(starting(out, "move ").size() == 1);
    CHECK(indexOf(out, "pong 1") > indexOf(out, "move "));
}

TEST_CASE("xboard: options, memory and cores reach the engine's registry", "[xboard]") {
    Script s;
    const auto& out = s.run({"memory 32", "cores 2", "option Skill Level=7", "OPTION  OwnBook = 0",
                             "option Pruning=small", "option Clear Hash", "option Move Overhead=99999", "ping 1"});
    CHECK(starting(out, "Error").empty());
    CHECK(has(out, "pong 1"));
    Engine& engine = s.protocol.engine();
    CHECK(engine.hashMB() == 32);
    CHECK(engine.searchOptions().threads == 2);
    CHECK(engine.skillLevel() == 7);
    CHECK(engine.searchOptions().pruning == Pruning::Small);
    CHECK(engine.options().all().end() !=
          std::find_if(engine.options().all().begin(), engine.options().all().end(),
                       [](const Option& o) { return o.ucciName == "usebook" && o.current == "false"; }));
    // An out-of-range value is clamped, with a debug line XBoard only logs.
    CHECK(indexOf(out, "# option moveoverhead: 99999 is out of range") < out.size());
    CHECK(engine.moveOverheadMs() == 5000);
}

TEST_CASE("xboard: the rules end the game: the claims XBoard checks and accepts", "[xboard]") {
    Script s;
    // Mated: the engine, to move, claims the loss.
    auto out =
        s.run({"new", "force", "setboard 3k5/9/9/9/9/9/9/9/R8/4K4 w 0 1", "playother", "usermove a1d1", "ping 1"});
    CHECK(has(out, "1-0 {Red mates}"));
    CHECK(starting(out, "move ").empty());
    // Stalemated (a loss in xiangqi).
    out = s.run({"new", "force", "setboard 3k5/9/4R4/9/9/9/9/9/9/5K3 w 0 1", "playother", "usermove e7e8", "ping 1"});
    CHECK(has(out, "1-0 {Black is stalemated}"));
    // A draw by repetition at the third occurrence: the horses go back and forth.
    const std::string horses = "3k2n2/9/9/9/9/9/9/9/9/4K1N2 w 0 1";
    out =
        s.run({"new", "force", "setboard " + horses, "usermove g0h2", "usermove g9h7", "usermove h2g0", "usermove h7g9",
               "usermove g0h2", "usermove g9h7", "usermove h2g0", "playother", "usermove h7g9", "ping 1"});
    CHECK(has(out, "1/2-1/2 {repetition}"));
    CHECK(starting(out, "move ").empty());
    // A game finished by `result`: the engine is in force mode and does not move.
    out = s.run({"new", "option OwnBook=0", "sd 2", "result 1-0 {White wins on time}", "usermove h2e2", "ping 1"});
    CHECK(starting(out, "move ").empty());
}

TEST_CASE("xboard: a perpetual by the opponent is left to XBoard; the no-capture rule is claimed by a draw offer",
          "[xboard]") {
    Script s;
    // Red checks on every move: at the third occurrence the rules say red
    // loses. XBoard calls a win claim other than mate false (when it tests
    // claims) and judges repetitions itself: the engine says it in a `#` line
    // and plays on.
    const std::string fen = "9/4k4/9/9/9/9/9/9/9/R2K5 w 0 1";
    auto out = s.run({"new", "option OwnBook=0", "sd 3", "force", "setboard " + fen, "usermove a0a8", "usermove e8e9",
                      "usermove a8a9", "usermove e9e8", "usermove a9a8", "usermove e8e9", "usermove a8a9",
                      "usermove e9e8", "playother", "usermove a9a8", "ping 1"});
    CHECK(has(out, "# the rules' verdict: 0-1 {Red: perpetual check}; XBoard judges repetitions itself"));
    CHECK_FALSE(has(out, "0-1 {Red: perpetual check}"));
    REQUIRE(starting(out, "move ").size() == 1);
    const std::vector<std::string> cycle = {"a0a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"};
    CHECK(isLegalIn(fenAfter("9/4k4/9/9/9/9/9/9/9/R2K5 w - - 0 1", cycle), words(starting(out, "move ")[0])[1]));
    // 119 plies without a capture: the engine's move reaches the 120th, so
    // it offers the draw first (XBoard grants it where its own count agrees).
    out = s.run(
        {"new", "option OwnBook=0", "sd 3", "force", "setboard 4k4/9/9/9/9/9/9/9/9/R2K5 w 119 80", "go", "ping 1"});
    const size_t move = indexOf(out, "move ");
    REQUIRE(move < out.size());
    REQUIRE(move > 0);
    CHECK(out[move - 1] == "offer draw");
    CHECK(starting(out, "1/2-1/2").empty());
}

TEST_CASE("xboard: a draw offer is accepted by the engine's rule (clearly worse), not otherwise", "[xboard]") {
    Script s;
    // Black has the full defence against a lone rook: clearly worse, not lost.
    const std::string fen = "2bakab2/9/9/9/9/9/9/9/9/R2K5 b 0 1";
    auto out = s.run({"new", "force", "setboard " + fen, "sd 5", "draw", "go", "ping 1"});
    const size_t move = indexOf(out, "move ");
    REQUIRE(move < out.size());
    REQUIRE(move > 0);
    CHECK(out[move - 1] == "offer draw");
    out = s.run({"new", "force", "setboard " + fen, "sd 5", "go", "ping 1"});
    CHECK_FALSE(has(out, "offer draw"));
    REQUIRE(starting(out, "move ").size() == 1);
}

TEST_CASE("xboard: the book answers bk and gives the first move", "[xboard][book]") {
    Script s;
    // The book the build puts next to the engine binary (not next to the tests).
    const std::string binary = CHARIOT_BINARY;
    const std::string book = binary.substr(0, binary.rfind('/') + 1) + "chariot.book";
    const auto& out = s.run({"new", "option BookFiles=" + book, "bk", "force", "go", "ping 1"});
    CHECK(indexOf(out, "# bookfiles: 1 book(s) loaded") < out.size());
    const size_t first = indexOf(out, " ");
    REQUIRE(first < out.size());
    // " h2e2 31%": a move and its share.
    const std::vector<std::string> entry = words(out[first]);
    REQUIRE(entry.size() == 2);
    CHECK(bool(Move::parse(entry[0])));
    CHECK(entry[1].back() == '%');
    CHECK(has(out, ""));  // the end of the bk text
    REQUIRE(starting(out, "move ").size() == 1);
    const std::string move = words(starting(out, "move ")[0])[1];
    CHECK(isLegalIn(std::string(StartFen), move));
    CHECK(indexOf(out, " " + move + " ") < out.size());  // one of the listed moves
}

TEST_CASE("xboard: st, level and time set the engine's clock", "[xboard][slow][process]") {
    EngineProcess e;
    xboardHandshake(e);
    // st: a fixed time per move (less the move overhead).
    e.send("st 1");
    e.send("force");
    auto t0 = Clock::now();
    e.send("go");
    REQUIRE(e.waitFor("move ", 3000ms));
    auto took = Clock::now() - t0;
    CHECK(took > 700ms);
    CHECK(took < 2500ms);  // generous: a loaded machine
    // level with the clocks in centiseconds: 0.3 s left answers well inside it.
    e.send("new");
    e.send("option OwnBook=0");
    e.send("level 0 5 0");
    e.send("time 30");
    e.send("otim 30000");
    t0 = Clock::now();
    e.send("usermove h2e2");
    REQUIRE(e.waitFor("move ", 2000ms));
    CHECK(Clock::now() - t0 < 1000ms);  // (read as seconds, 30 would take several)
    // A conventional control, 40 moves in 0:20 with 20 s left: a move takes about half a second.
    e.send("new");
    e.send("option OwnBook=0");
    e.send("level 40 0:20 0");
    e.send("time 2000");
    e.send("otim 2000");
    t0 = Clock::now();
    e.send("usermove h2e2");
    REQUIRE(e.waitFor("move ", 3000ms));
    took = Clock::now() - t0;
    CHECK(took > 100ms);  // (read as milliseconds, 2000 would answer in a few)
    CHECK(took < 3000ms);
}

TEST_CASE("xboard: ? moves now", "[xboard][process]") {
    EngineProcess e;
    xboardHandshake(e);
    e.send("st 60");
    e.send("usermove h2e2");
    std::this_thread::sleep_for(300ms);
    const auto t0 = Clock::now();
    e.send("?");
    auto move = e.waitFor("move ", 2000ms);
    REQUIRE(move);
    CHECK(Clock::now() - t0 < 1000ms);  // of 60 s
    CHECK(isLegalIn(fenAfter(std::string(StartFen), {"h2e2"}), words(*move)[1]));
    // A ping during the thinking is answered after the move.
    e.send("st 1");
    e.send("usermove " + someMove(fenAfter(std::string(StartFen), {"h2e2", words(*move)[1]})));
    e.send("ping 5");
    std::vector<std::string> seen;
    REQUIRE(e.waitFor("pong 5", 3000ms, &seen));
    CHECK(starting(seen, "move ").size() == 1);
}

TEST_CASE("xboard: pondering on the expected reply, a hit and a miss", "[xboard][slow][process]") {
    EngineProcess e;
    xboardHandshake(e);
    e.send("hard");
    e.send("post");
    e.send("level 0 0:10 0");
    e.send("time 1000");
    e.send("otim 1000");
    e.send("usermove h2e2");
    auto move = e.waitFor("move ", 5000ms);
    REQUIRE(move);
    std::vector<std::string> game = {"h2e2", words(*move)[1]};
    auto hint = e.waitFor("Hint: ", 2000ms);
    REQUIRE(hint);
    const std::string expected = words(*hint)[1];
    REQUIRE(isLegalIn(fenAfter(std::string(StartFen), game), expected));
    std::this_thread::sleep_for(500ms);  // the engine ponders meanwhile
    // A hit: the ponder search becomes the real one.
    e.send("time 950");
    e.send("otim 950");
    e.send("usermove " + expected);
    game.push_back(expected);
    move = e.waitFor("move ", 5000ms);
    REQUIRE(move);
    CHECK(isLegalIn(fenAfter(std::string(StartFen), game), words(*move)[1]));
    game.push_back(words(*move)[1]);
    // A miss: another reply than the hint; the engine answers that one.
    hint = e.waitFor("Hint: ", 2000ms);
    const std::string other = someMove(fenAfter(std::string(StartFen), game), hint ? words(*hint)[1] : "");
    e.send("usermove " + other);
    game.push_back(other);
    move = e.waitFor("move ", 5000ms);
    REQUIRE(move);
    CHECK(isLegalIn(fenAfter(std::string(StartFen), game), words(*move)[1]));
    // easy: no pondering after the next move.
    e.send("easy");
    e.send("force");
    e.send("ping 7");
    REQUIRE(e.waitFor("pong 7", 2000ms));
}

TEST_CASE("xboard: analyze searches until exit and follows the moves", "[xboard][process]") {
    EngineProcess e;
    xboardHandshake(e);
    e.send("post");
    e.send("analyze");
    std::vector<std::string> seen;
    auto line = e.waitFor("4 ", 10000ms, &seen);  // thinking at depth 4
    REQUIRE(line);
    auto t = thinking(*line);
    REQUIRE(t);
    REQUIRE_FALSE(t->pv.empty());
    CHECK(isLegalIn(std::string(StartFen), t->pv[0]));
    e.send(".");
    auto stat = e.waitFor("stat01: ", 10000ms);
    REQUIRE(stat);
    CHECK(words(*stat).size() >= 6);
    CHECK(words(*stat)[5] == "44");  // legal moves at the start
    // A move restarts the analysis on the new position (black to move).
    e.send("usermove h2e2");
    e.send("ping 2");
    REQUIRE(e.waitFor("pong 2", 10000ms));
    const std::string afterMove = fenAfter(std::string(StartFen), {"h2e2"});
    int checked = 0;
    for (int i = 0; i < 50 && checked < 3; ++i) {
        line = e.readLine(10000ms);
        REQUIRE(line);
        t = thinking(*line);
        if (!t || t->pv.empty()) continue;
        CHECK(isLegalIn(afterMove, t->pv[0]));
        ++checked;
    }
    CHECK(checked == 3);
    // undo: back to the start. Any thinking line after the pong is the new
    // analysis's (the restarted search may already be past depth 3 by the
    // time the ping is answered, so no particular depth is waited for).
    e.send("undo");
    e.send("ping 3");
    REQUIRE(e.waitFor("pong 3", 10000ms));
    bool restarted = false;
    for (int i = 0; i < 50 && !restarted; ++i) {
        line = e.readLine(10000ms);
        REQUIRE(line);
        t = thinking(*line);
        if (!t || t->pv.empty()) continue;
        CHECK(isLegalIn(std::string(StartFen), t->pv[0]));
        restarted = true;
    }
    CHECK(restarted);
    // exit: the analysis stops; no move is made.
    e.send("exit");
    e.send("ping 4");
    seen.clear();
    REQUIRE(e.waitFor("pong 4", 10000ms, &seen));
    CHECK(starting(seen, "move ").empty());
    seen.clear();
    CHECK_FALSE(e.waitFor("move ", 300ms, &seen));
    for (const auto& l : seen) CHECK_FALSE(thinking(l));
    e.send("quit");
    CHECK(e.waitExit(10000ms) == 0);
}
