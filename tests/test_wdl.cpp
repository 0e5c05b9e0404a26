// The win/draw/loss model (wdl.h): its shape at every phase, and the `wdl`
// that `showwdl` / `UCI_ShowWDL` adds to both dialects' info lines.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "chariot/ucci.h"
#include "chariot/wdl.h"
#include "test_util.h"

using namespace chariot;
using chariot::test::fromFen;

namespace {

constexpr int Phases[] = {0, 1, 2, 3, 5, 8, 11, 14, 17, 20, 22, 30};

wdl::Wdl reversed(const wdl::Wdl& w) { return {w.loss, w.draw, w.win}; }

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

std::vector<std::string> tokensOf(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    return tokens;
}

// Checks every `info ... score` line of `out`: `wdl W D L` follows the score
// and is the model's value for the printed score in `pos`. Returns how many
// lines it checked.
int checkPrintedWdl(const std::vector<std::string>& out, const Position& pos, Protocol::Dialect dialect) {
    int checked = 0;
    for (const std::string& line : out) {
        const std::vector<std::string> t = tokensOf(line);
        auto score = std::find(t.begin(), t.end(), "score");
        if (t.empty() || t[0] != "info" || score == t.end()) continue;
        INFO(line);
        // UCCI: score N wdl W D L; UCI: score cp|mate N wdl W D L.
        const size_t at = size_t(score - t.begin()) + (dialect == Protocol::Dialect::Uci ? 2 : 1);
        REQUIRE(t.size() > at + 4);
        REQUIRE(t[at + 1] == "wdl");
        const wdl::Wdl printed{std::stoi(t[at + 2]), std::stoi(t[at + 3]), std::stoi(t[at + 4])};
        const int n = std::stoi(t[at]);
        if (dialect == Protocol::Dialect::Uci) {
            if (t[at - 1] == "mate") {
                CHECK(printed == (n > 0 ? wdl::Wdl{1000, 0, 0} : wdl::Wdl{0, 0, 1000}));
            } else if (std::abs(n) >= 20000 - MaxPly) {  // a rule win or loss
                CHECK(printed == (n > 0 ? wdl::Wdl{1000, 0, 0} : wdl::Wdl{0, 0, 1000}));
            } else {
                CHECK(printed == wdl::fromValue(n, pos));  // `score cp` is the internal value
            }
        } else if (std::abs(n) >= 9900 - MaxPly) {  // a mate or a rule win
            CHECK(printed == (n > 0 ? wdl::Wdl{1000, 0, 0} : wdl::Wdl{0, 0, 1000}));
        } else {
            // A UCCI score is the internal value / 4: the wdl is the model's
            // for one of the values that print as that score.
            bool found = false;
            for (Value v = 4 * n - 3; v <= 4 * n + 3; ++v)
                found = found || (toUcciScore(v) == n && wdl::fromValue(v, pos) == printed);
            CHECK(found);
        }
        ++checked;
    }
    return checked;
}

}  // namespace

TEST_CASE("wdl: the phase counts rooks, horses, cannons and pawns of both sides", "[wdl]") {
    CHECK(wdl::phase(Position()) == 22);
    CHECK(wdl::phase(fromFen("4k4/9/9/9/9/9/9/9/4A4/3AKR3 w")) == 1);
    CHECK(wdl::phase(fromFen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w")) == 0);
    CHECK(wdl::phase(fromFen("2bak4/4a4/4b4/p8/2n6/6P2/9/4B4/4C4/3AKR3 b")) == 5);
}

TEST_CASE("wdl: sums to 1000, monotonic in the score, symmetric, at every phase", "[wdl]") {
    for (int phase : Phases) {
        INFO("phase " << phase);
        wdl::Wdl previous = wdl::fromValue(-ValueDecisive + 1, phase);
        for (Value v = -ValueDecisive + 1; v < ValueDecisive; ++v) {
            const wdl::Wdl w = wdl::fromValue(v, phase);
            INFO("score " << v << ": " << w.win << ' ' << w.draw << ' ' << w.loss);
            REQUIRE(w.win >= 0);
            REQUIRE(w.draw >= 0);
            REQUIRE(w.loss >= 0);
            REQUIRE(w.win + w.draw + w.loss == 1000);
            REQUIRE(w.win >= previous.win);
            REQUIRE(w.loss <= previous.loss);
            REQUIRE(wdl::fromValue(-v, phase) == reversed(w));
            previous = w;
        }
        // A level score: even odds, and some draws (a(m) > 0 at every phase).
        const wdl::Wdl level = wdl::fromValue(0, phase);
        CHECK(level.win == level.loss);
        CHECK(level.draw > 0);
        // The model reaches certainty, or nearly, long before the mate range.
        CHECK(wdl::fromValue(ValueDecisive - 1, phase).win >= 999);
    }
}

TEST_CASE("wdl: mates and rule wins are certain", "[wdl]") {
    for (int phase : Phases) {
        for (Value v : {mateIn(1), mateIn(40), ValueDecisive, ValueBan - 3, ValueBanInMaxPly}) {
            INFO("phase " << phase << " score " << v);
            CHECK(wdl::fromValue(v, phase) == wdl::Wdl{1000, 0, 0});
            CHECK(wdl::fromValue(-v, phase) == wdl::Wdl{0, 0, 1000});
        }
    }
    CHECK(wdl::fromValue(mateIn(3), Position()) == wdl::Wdl{1000, 0, 0});
}

TEST_CASE("wdl: fewer attackers, more draws at the same score", "[wdl]") {
    // The fitted model's broad shape: a two-pawn lead is mostly a draw with one
    // attacker left and mostly a win with a full board.
    CHECK(wdl::fromValue(200, 1).draw > 900);
    CHECK(wdl::fromValue(200, 22).win > 500);
    CHECK(wdl::fromValue(200, 3).draw > wdl::fromValue(200, 12).draw);
    // Clamped to the fitted range.
    CHECK(wdl::fromValue(150, 0) == wdl::fromValue(150, 1));
    CHECK(wdl::fromValue(150, 30) == wdl::fromValue(150, 22));
}

TEST_CASE("showwdl: both dialects print the model's wdl for the printed score", "[wdl][protocol]") {
    // A middlegame (21 attackers), an endgame (5) and a mate in 2 (1). Depth 6:
    // the mate's last move is a quiet one at the frontier, which depth 4 may
    // prune (whether it does depends on the net's evaluation).
    const std::vector<std::string> fens = {
        "r1bakabr1/9/2n3n1c/p3p1p1p/2p6/2P6/P1c1P1P1P/C1N1C1N2/9/1RBAKABR1 w - - 14 8",
        "2bak4/4a4/4b4/p8/2n6/6P2/9/4B4/4C4/3AKR3 b - - 0 1",
        "4k4/9/9/9/9/9/9/9/4A4/3AKR3 w - - 0 1",
    };
    bool sawMate = false, sawEstimate = false;
    for (const std::string& fen : fens) {
        INFO(fen);
        const Position pos = fromFen(fen);
        const std::vector<std::string> uci =
            runProtocol({"uci", "setoption name UCI_ShowWDL value true", "setoption name OwnBook value false",
                         "position fen " + fen, "go depth 6"});
        CHECK(checkPrintedWdl(uci, pos, Protocol::Dialect::Uci) >= 4);
        const std::vector<std::string> ucci = runProtocol(
            {"ucci", "setoption showwdl true", "setoption usebook false", "position fen " + fen, "go depth 6"});
        CHECK(checkPrintedWdl(ucci, pos, Protocol::Dialect::Ucci) >= 4);
        for (const std::string& line : uci) {
            sawMate = sawMate || line.find("score mate 2 wdl 1000 0 0") != std::string::npos;
            sawEstimate = sawEstimate ||
                          (line.find(" wdl ") != std::string::npos && line.find(" wdl 1000 0 0") == std::string::npos &&
                           line.find(" wdl 0 0 1000") == std::string::npos);
        }
    }
    CHECK(sawMate);
    CHECK(sawEstimate);

    // With MultiPV every line carries the wdl of its own score.
    const std::string fen = fens[0];
    const std::vector<std::string> multi =
        runProtocol({"uci", "setoption name UCI_ShowWDL value true", "setoption name OwnBook value false",
                     "setoption name MultiPV value 3", "position fen " + fen, "go depth 4"});
    CHECK(checkPrintedWdl(multi, fromFen(fen), Protocol::Dialect::Uci) >= 12);
}

TEST_CASE("showwdl false (the default) prints no wdl", "[wdl][protocol]") {
    for (const std::vector<std::string>& script : std::vector<std::vector<std::string>>{
             {"uci", "setoption name OwnBook value false", "go depth 4"},
             {"uci", "setoption name UCI_ShowWDL value true", "setoption name UCI_ShowWDL value false",
              "setoption name OwnBook value false", "go depth 4"},
             {"ucci", "setoption usebook false", "go depth 4"},
             {"ucci", "setoption showwdl true", "setoption showwdl false", "setoption usebook false", "go depth 4"},
         }) {
        const std::vector<std::string> out = runProtocol(script);
        int infos = 0;
        for (const std::string& line : out) {
            if (line.rfind("info", 0) != 0) continue;  // (the handshake's option line names showwdl)
            INFO(line);
            CHECK(line.find("wdl") == std::string::npos);
            infos += line.find(" score ") != std::string::npos;
        }
        CHECK(infos >= 4);
    }
}
