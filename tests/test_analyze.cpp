// `chariot analyze` and `chariot epd`: the PGN reader (encodings, forms,
// malformed files), the WXF and Chinese notations (known moves, front/rear
// pieces, round trips), the annotation of a known blunder, the JSON output
// and the EPD suite runner. Searches are depth-limited (<= 6).
#include <catch2/catch.hpp>

#include "test_util.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "chariot/analyze.h"
#include "chariot/epd.h"
#include "chariot/movegen.h"
#include "chariot/notation.h"
#include "chariot/pgn.h"
#include "chariot/platform.h"
#include "chariot/tune.h"
#include "chariot/wdl.h"

using namespace chariot;
using test::readFile;
using test::TempDir;
using test::writeFile;
namespace fs = std::filesystem;
using notation::Notation;

namespace {

Position fromFen(const std::string& fen) {
    Position p;
    REQUIRE_FALSE(p.setFen(fen));
    return p;
}

std::string parsed(const Position& pos, std::string_view token) {
    std::string error;
    const Move m = notation::parseMove(pos, token, &error);
    return m ? m.toString() : "none: " + error;
}

// Runs the tool with the given arguments; stdout lines and stderr text.
struct Run {
    int status = 0;
    std::string out, err;
};
Run runAnalyze(const std::vector<std::string>& args, const std::string& stdinText = "") {
    Run r;
    std::ostringstream err;
    std::istringstream in(stdinText);
    r.status = analyze::runAnalyzeTool(
        args, [&](const std::string& line) { r.out += line + "\n"; }, err, in, false);
    r.err = err.str();
    return r;
}

// A small JSON checker: one value, proper strings (escapes, no raw control
// characters), numbers, literals, balanced objects and arrays.
class JsonChecker {
public:
    explicit JsonChecker(std::string_view s) : s_(s) {}
    bool valid() {
        skip();
        if (!value()) return false;
        skip();
        return i_ == s_.size();
    }

private:
    void skip() {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }
    bool literal(std::string_view w) {
        if (s_.substr(i_, w.size()) != w) return false;
        i_ += w.size();
        return true;
    }
    bool string() {
        if (i_ >= s_.size() || s_[i_] != '"') return false;
        for (++i_; i_ < s_.size(); ++i_) {
            const auto c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') return ++i_, true;
            if (c < 0x20) return false;
            if (c == '\\') {
                if (++i_ >= s_.size()) return false;
                const char e = s_[i_];
                if (e == 'u') {
                    for (int k = 0; k < 4; ++k)
                        if (++i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_]))) return false;
                } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
                    return false;
                }
            }
        }
        return false;
    }
    bool number() {
        const size_t start = i_;
        if (i_ < s_.size() && s_[i_] == '-') ++i_;
        while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e' ||
                                  s_[i_] == 'E' || s_[i_] == '+' || s_[i_] == '-'))
            ++i_;
        return i_ > start && std::isdigit(static_cast<unsigned char>(s_[i_ - 1]));
    }
    bool value() {
        if (i_ >= s_.size() || ++depth_ > 64) return false;
        bool ok;
        const char c = s_[i_];
        if (c == '{' || c == '[') {
            const char close = c == '{' ? '}' : ']';
            ++i_;
            skip();
            ok = true;
            if (i_ < s_.size() && s_[i_] == close) {
                ++i_;
            } else {
                for (;;) {
                    if (c == '{') {
                        skip();
                        if (!string()) return false;
                        skip();
                        if (i_ >= s_.size() || s_[i_++] != ':') return false;
                    }
                    skip();
                    if (!value()) return false;
                    skip();
                    if (i_ < s_.size() && s_[i_] == ',') {
                        ++i_;
                        continue;
                    }
                    if (i_ < s_.size() && s_[i_] == close) {
                        ++i_;
                        break;
                    }
                    return false;
                }
            }
        } else if (c == '"') {
            ok = string();
        } else if (c == 't' || c == 'f' || c == 'n') {
            ok = literal("true") || literal("false") || literal("null");
        } else {
            ok = number();
        }
        --depth_;
        return ok;
    }
    std::string_view s_;
    size_t i_ = 0;
    int depth_ = 0;
};

const std::string Data = CHARIOT_TEST_DATA;

// Red to move has a forced mate in 2 beginning e6g7 (tests/data/mates.epd,
// confirmed with Fairy-Stockfish and an exhaustive solver); g4g5 misses it
// and leaves red worse.
const char* const MissedMateFen = "3R1ab2/4k4/4b4/p3N3p/2p6/6P2/4P3r/4B4/1n2K4/9 w - - 0 1";

}  // namespace

// ---------------------------------------------------------------------------
// Notation

TEST_CASE("WXF and Chinese moves of the start position", "[analyze]") {
    Position p;
    for (const char* t : {"h2e2", "H2-E2", "H2E2", "C2.5", "C2=5", "炮二平五", "砲二平五", "炮2平5"}) {
        INFO(t);
        CHECK(parsed(p, t) == "h2e2");
    }
    for (const char* t : {"H8+7", "N8+7", "马八进七", "馬八進七", "傌八进七"}) {
        INFO(t);
        CHECK(parsed(p, t) == "b0c2");
    }
    CHECK(parsed(p, "R9+1") == "a0a1");
    CHECK(parsed(p, "车九进一") == "a0a1");
    CHECK(parsed(p, "E3+5") == "g0e2");
    CHECK(parsed(p, "相三进五") == "g0e2");
    CHECK(parsed(p, "A4+5") == "f0e1");
    CHECK(parsed(p, "仕四进五") == "f0e1");
    CHECK(parsed(p, "P7+1") == "c3c4");
    CHECK(parsed(p, "兵七进一") == "c3c4");
    CHECK(parsed(p, "C8+7") == "b2b9");  // the cannon takes the horse over the screen
    CHECK(parsed(p, "R1+9") == "none: illegal");
    CHECK(parsed(p, "马二进五") == "none: illegal");
    CHECK(parsed(p, "X2.5") == "none: not a move");
    CHECK(notation::toWxf(p, Move::parse("h2e2")) == "C2.5");
    CHECK(notation::toChinese(p, Move::parse("h2e2")) == "炮二平五");
    CHECK(notation::toChinese(p, Move::parse("b0c2")) == "马八进七");
    CHECK(notation::toPgnIccs(Move::parse("h2e2")) == "H2-E2");

    p.makeMove(Move::parse("h2e2"));  // black to move: files counted from black's right
    for (const char* t : {"h9g7", "H8+7", "马８进７", "馬８進７", "马8进7"}) {
        INFO(t);
        CHECK(parsed(p, t) == "h9g7");
    }
    for (const char* t : {"C8.5", "炮８平５", "砲８平５"}) {
        INFO(t);
        CHECK(parsed(p, t) == "h7e7");
    }
    CHECK(parsed(p, "卒３进１") == "c6c5");
    CHECK(parsed(p, "象７进５") == "g9e7");
    CHECK(notation::toChinese(p, Move::parse("h9g7")) == "马８进７");
    CHECK(notation::toChinese(p, Move::parse("h7e7")) == "炮８平５");
    CHECK(notation::toWxf(p, Move::parse("h9g7")) == "H8+7");
}

TEST_CASE("front and rear pieces on one file", "[analyze]") {
    // Red cannons h4 (front) and h2 (rear).
    Position p = fromFen("3k5/9/9/9/9/7C1/9/7C1/9/4K4 w - - 0 1");
    for (const char* t : {"+C.5", "C+.5", "前炮平五", "前砲平五"}) {
        INFO(t);
        CHECK(parsed(p, t) == "h4e4");
    }
    CHECK(parsed(p, "-C.5") == "h2e2");
    CHECK(parsed(p, "后炮平五") == "h2e2");
    CHECK(parsed(p, "後炮平五") == "h2e2");
    CHECK(parsed(p, "前炮进一") == "h4h5");
    CHECK(parsed(p, "后炮进一") == "h2h3");
    CHECK(parsed(p, "后炮进二") == "none: illegal");  // its own front cannon is there
    CHECK(parsed(p, "C2.5") == "none: ambiguous");
    CHECK(notation::toWxf(p, Move::parse("h4e4")) == "+C.5");
    CHECK(notation::toWxf(p, Move::parse("h2e2")) == "-C.5");
    CHECK(notation::toChinese(p, Move::parse("h4e4")) == "前炮平五");
    CHECK(notation::toChinese(p, Move::parse("h2h3")) == "后炮进一");

    // Black rooks b5 and b1: black's front is the lower rank.
    Position b = fromFen("4k4/9/9/9/1r7/9/9/9/1r7/3K5 b - - 0 1");
    CHECK(parsed(b, "前车平５") == "b1e1");
    CHECK(parsed(b, "前車平5") == "b1e1");
    CHECK(parsed(b, "后车平５") == "b5e5");
    CHECK(parsed(b, "-R.5") == "b5e5");
    CHECK(notation::toChinese(b, Move::parse("b1e1")) == "前车平５");
    CHECK(notation::toWxf(b, Move::parse("b5e5")) == "-R.5");

    // Two red pawns on file c (red's 7).
    Position two = fromFen("3k5/9/9/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    CHECK(parsed(two, "前兵平六") == "c6d6");
    CHECK(parsed(two, "+P.6") == "c6d6");
    CHECK(parsed(two, "后兵平八") == "c5b5");
    CHECK(parsed(two, "-P.8") == "c5b5");
    CHECK(parsed(two, "前兵进一") == "c6c7");
    CHECK(notation::toChinese(two, Move::parse("c5d5")) == "后兵平六");
    CHECK(notation::toWxf(two, Move::parse("c6c7")) == "+P+1");

    // Three pawns on a file: front, middle, rear (WXF: 1P, 2P, 3P).
    Position three = fromFen("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1");
    CHECK(parsed(three, "中兵平六") == "c6d6");
    CHECK(parsed(three, "2P.6") == "c6d6");
    CHECK(parsed(three, "前兵进一") == "c7c8");
    CHECK(parsed(three, "后兵平八") == "c5b5");
    CHECK(notation::toChinese(three, Move::parse("c6d6")) == "中兵平六");
    CHECK(notation::toWxf(three, Move::parse("c6d6")) == "2P.6");

    // Two files with two pawns each: the file replaces the piece's name.
    Position tandem = fromFen("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1");
    CHECK(notation::toChinese(tandem, Move::parse("c6d6")) == "前七平六");
    CHECK(notation::toChinese(tandem, Move::parse("g5f5")) == "后三平四");
    CHECK(notation::toWxf(tandem, Move::parse("c6d6")) == "+7.6");
    CHECK(parsed(tandem, "前七平六") == "c6d6");
    CHECK(parsed(tandem, "后三平四") == "g5f5");
    CHECK(parsed(tandem, "前兵七平六") == "c6d6");
    CHECK(parsed(tandem, "前兵进一") == "none: ambiguous");  // c6c7 or g6g7

    // Advisors and elephants on one file keep the file form.
    Position officers = fromFen("3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1");
    CHECK(notation::toChinese(officers, Move::parse("d0e1")) == "仕六进五");
    CHECK(notation::toChinese(officers, Move::parse("d2e1")) == "仕六退五");
    CHECK(parsed(officers, "A6-5") == "d2e1");
}

TEST_CASE("every legal move written in each notation parses back to itself", "[analyze]") {
    std::vector<Position> positions;
    for (const char* fen :
         {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
          "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w - - 0 1", "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w - - 0 1",
          "3k5/9/2P6/2P6/2P6/2P6/9/9/9/4K4 w - - 0 1", "4k4/9/9/9/1r7/9/9/9/1r7/3K5 b - - 0 1",
          "4k4/9/9/9/2p6/2p6/2p3p2/6p2/9/3K5 b - - 0 1", "3k5/9/9/9/9/9/9/3A5/9/3AK4 w - - 0 1", MissedMateFen})
        positions.push_back(fromFen(fen));
    // And the positions along a few random games.
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    for (int game = 0; game < 6; ++game) {
        Position p;
        for (int ply = 0; ply < 120; ++ply) {
            MoveList moves;
            generateLegal(p, moves);
            if (moves.size == 0) break;
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            p.makeMove(moves.moves[seed % uint64_t(moves.size)]);
            if (ply % 6 == 0) positions.push_back(p);
        }
    }
    int checked = 0;
    for (const Position& p : positions) {
        MoveList moves;
        generateLegal(p, moves);
        for (Move m : moves) {
            for (Notation n : {Notation::Iccs, Notation::Wxf, Notation::Chinese}) {
                const std::string text = notation::write(p, m, n);
                INFO(p.fen() << " " << m.toString() << " " << notation::notationName(n) << " " << text);
                CHECK(notation::classify(text) == n);
                CHECK(parsed(p, text) == m.toString());
                ++checked;
            }
        }
    }
    CHECK(checked > 3000);
}

// ---------------------------------------------------------------------------
// PGN reading

TEST_CASE("the GBK sample from ElephantEye's league simulator parses completely", "[analyze]") {
    const std::string bytes = readFile(Data + "/uccileag-gbk-chinese.pgn");
    REQUIRE(bytes.size() > 1000);
    REQUIRE_FALSE(pgn::isValidUtf8(bytes));
    const pgn::PgnFile f = pgn::parsePgn(bytes);
    REQUIRE_FALSE(f.error);
    CHECK(f.encoding == "GBK");
    REQUIRE(f.games.size() == 1);
    const pgn::PgnGame& g = f.games[0];
    CHECK(*g.tag("Red") == "ElephantEye");
    CHECK(*g.tag("Black") == "Chariot");
    CHECK(g.result == "1/2-1/2");
    CHECK(g.fen() == StartFen);
    REQUIRE(g.moves.size() == 188);  // 94 moves each
    CHECK(g.moves[0].text == "兵七进一");
    CHECK(g.moves[1].text == "卒７进１");
    CHECK(g.moves.back().text == "象３退５");
    CHECK(g.moves.back().comments == std::vector<std::string>{"超过自然限着作和"});
    CHECK_FALSE(g.unreadable);
    CHECK_FALSE(f.warnings.empty());  // the site's advertisement after the game
    const analyze::PreparedGame prepared = analyze::prepareGame(g, 1);
    CHECK_FALSE(prepared.stop);
    CHECK(prepared.moves.size() == 188);  // every move legal
    CHECK(prepared.inputNotation == Notation::Chinese);
    CHECK(prepared.moves[0] == Move::parse("c3c4"));
    CHECK(prepared.moves[1] == Move::parse("g6g5"));

    // Chariot's own table decodes it exactly as the C library does.
    const std::string own = pgn::gbkToUtf8(bytes, false);
    CHECK(own.find("\xEF\xBF\xBD") == std::string::npos);  // no U+FFFD
    CHECK(own == pgn::gbkToUtf8(bytes, true));

    // The same text as UTF-8 with a BOM, LF or CRLF: the same game.
    for (const std::string& eol : {std::string("\n"), std::string("\r\n")}) {
        std::string utf8 = "\xEF\xBB\xBF";
        for (char c : own)
            if (c != '\r') utf8 += c == '\n' ? eol : std::string(1, c);
        const pgn::PgnFile u = pgn::parsePgn(utf8);
        REQUIRE_FALSE(u.error);
        CHECK(u.encoding == "UTF-8");
        REQUIRE(u.games.size() == 1);
        REQUIRE(u.games[0].moves.size() == 188);
        CHECK(u.games[0].moves[100].text == g.moves[100].text);
        CHECK(*u.games[0].tag("Event") == "Chariot vs ElephantEye");
    }
    // The tuner reads it too (its moves resolved to ICCS).
    std::istringstream in(bytes);
    const auto tuneGames = tune::readPgn(in);
    REQUIRE(tuneGames.size() == 1);
    CHECK(tuneGames[0].result == 0.5);
    REQUIRE(tuneGames[0].moves.size() == 188);
    CHECK(tuneGames[0].moves[0] == "c3c4");
}

TEST_CASE("the Big5 sample of the CCPD master games parses and replays", "[analyze][big5]") {
    // Six games of the Chinese Chess Practical Dataset as distributed (Big5,
    // traditional notation; tests/data/README.md), among them front/rear
    // moves, king moves, a tag with unescaped quotes and a start with black
    // to move.
    const std::string bytes = readFile(Data + "/ccpd-big5-sample.pgn");
    REQUIRE(bytes.size() > 1000);
    REQUIRE_FALSE(pgn::isValidUtf8(bytes));
    CHECK(pgn::guessCharset(bytes) == platform::Charset::Big5);
    const pgn::PgnFile f = pgn::parsePgn(bytes);
    REQUIRE_FALSE(f.error);
    CHECK(f.encoding == "Big5");
    CHECK(f.warnings.empty());
    REQUIRE(f.games.size() == 6);
    // Moves counted in the file's text by hand (numbers and results left out).
    const std::vector<size_t> plies = {60, 101, 62, 74, 127, 31};
    for (size_t i = 0; i < f.games.size(); ++i) {
        INFO("game " << i + 1);
        const analyze::PreparedGame p = analyze::prepareGame(f.games[i], int(i) + 1);
        CHECK_FALSE(p.stop);
        CHECK(p.inputNotation == Notation::Chinese);
        CHECK(f.games[i].moves.size() == plies[i]);
        CHECK(p.moves.size() == plies[i]);  // every move legal
        CHECK_FALSE(f.games[i].unreadable);
    }
    const pgn::PgnGame& g = f.games[0];
    CHECK(*g.tag("Red") == "楊官璘");
    CHECK(*g.tag("Black") == "盧輝");
    CHECK(*g.tag("Site") == "廣州");
    CHECK(g.result == "1/2-1/2");
    CHECK(g.moves[0].text == "兵三進一");
    CHECK(g.moves[1].text == "卒３進１");
    CHECK(f.games[1].result == "1-0");
    CHECK(f.games[2].result == "0-1");
    CHECK(*f.games[4].tag("Event") == "1999年\"中視股份杯\"象棋年度總決賽 (半決賽)廣東呂欽先勝黑龍江趙國榮");
    // Moves resolved on the board: the plain ones, front and rear pieces, the
    // king, and black moving first from a FEN.
    auto iccs = [&](size_t game, size_t ply) {
        return analyze::prepareGame(f.games[game], 1).moves.at(ply).toString();
    };
    CHECK(iccs(0, 0) == "g3g4");    // 兵三進一
    CHECK(iccs(0, 1) == "c6c5");    // 卒３進１
    CHECK(iccs(1, 53) == "c1b3");   // 前馬退２: the front one of black's two horses on file c
    CHECK(iccs(1, 93) == "b5c3");   // 後馬進３
    CHECK(iccs(2, 42) == "g2e2");   // 後炮平五: red's rear cannon on file g
    CHECK(iccs(3, 32) == "g4f6");   // 前馬進四
    CHECK(iccs(4, 125) == "f9f8");  // 將６進１
    CHECK(f.games[5].fen() == "4kab2/4a4/2R1b1P2/9/p3p4/5p3/P3P1c2/N2Cr4/4A4/3AK4 b - - 0 1");
    CHECK(iccs(5, 0) == "e2h2");  // 車５平８, black first

    // Chariot's own table reads every move and result as the system does.
    const pgn::PgnFile own = pgn::parsePgn(pgn::big5ToUtf8(bytes, false));
    REQUIRE(own.games.size() == f.games.size());
    for (size_t i = 0; i < f.games.size(); ++i) {
        INFO("game " << i + 1);
        REQUIRE(own.games[i].moves.size() == f.games[i].moves.size());
        for (size_t k = 0; k < f.games[i].moves.size(); ++k)
            CHECK(own.games[i].moves[k].text == f.games[i].moves[k].text);
        CHECK(own.games[i].result == f.games[i].result);
        CHECK(own.games[i].fen() == f.games[i].fen());
    }
    // The same text as UTF-8: the same games.
    const pgn::PgnFile utf8 = pgn::parsePgn(pgn::big5ToUtf8(bytes));
    CHECK(utf8.encoding == "UTF-8");
    REQUIRE(utf8.games.size() == 6);
    CHECK(*utf8.games[4].tag("Event") == *f.games[4].tag("Event"));
    CHECK(utf8.games[1].moves[53].text == "前馬退２");

    // `chariot analyze` reads it (it used to stop at "move 1 ... is not a move"),
    // and --check reads it without a search.
    const Run r = runAnalyze({"--depth", "1", "--json", Data + "/ccpd-big5-sample.pgn"});
    CHECK(r.status == 0);
    CHECK(r.err.find("not a move") == std::string::npos);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 6);
    const Run c = runAnalyze({"--check", Data + "/ccpd-big5-sample.pgn"});
    CHECK(c.status == 0);
    CHECK(c.out.find(": Big5, 6 games, 6 read to the end\n") != std::string::npos);
    CHECK(c.out.find("games 6, read to the end 6, stopped early 0\n") != std::string::npos);
}

TEST_CASE("GBK or Big5: told apart by the characters, not the bytes' form", "[analyze][big5]") {
    // 炮二平五 马８进７ in GBK: every byte pair is also well-formed Big5.
    const std::string gbk = "1. \xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 \xC2\xED\xA3\xB8\xBD\xF8\xA3\xB7 *\n";
    // 炮二平五 馬８進７ in Big5: every byte pair is also well-formed GBK.
    const std::string big5 = "1. \xAC\xB6\xA4\x47\xA5\xAD\xA4\xAD \xB0\xA8\xA2\xB7\xB6\x69\xA2\xB6 *\n";
    CHECK(pgn::guessCharset(gbk) == platform::Charset::Gbk);
    CHECK(pgn::guessCharset(big5) == platform::Charset::Big5);
    for (const auto& [bytes, encoding, second] :
         {std::tuple{gbk, "GBK", "马８进７"}, std::tuple{big5, "Big5", "馬８進７"}}) {
        const pgn::PgnFile f = pgn::parsePgn(bytes);
        REQUIRE(f.games.size() == 1);
        CHECK(f.encoding == encoding);
        REQUIRE(f.games[0].moves.size() == 2);
        CHECK(f.games[0].moves[0].text == "炮二平五");
        CHECK(f.games[0].moves[1].text == second);
        const analyze::PreparedGame p = analyze::prepareGame(f.games[0], 1);
        CHECK_FALSE(p.stop);
        REQUIRE(p.moves.size() == 2);
        CHECK(p.moves[1] == Move::parse("h9g7"));
    }
    // The GBK sample stays GBK.
    CHECK(pgn::guessCharset(readFile(Data + "/uccileag-gbk-chinese.pgn")) == platform::Charset::Gbk);
    // A GBK trail byte Big5 does not have (0x80-0xA0) counts against Big5.
    CHECK(pgn::guessCharset("\xB3\x95") == platform::Charset::Gbk);
}

TEST_CASE("tag values with unescaped quotes are read to the line's last quote", "[analyze]") {
    const std::string text = "[Event \"1999 \"Cup\" final\"]\n[Site \"a \"b\" ]\n[Red \"open]\n\n1. h2e2 *\n";
    const pgn::PgnFile f = pgn::parsePgn(text);
    REQUIRE_FALSE(f.error);
    REQUIRE(f.games.size() == 1);
    CHECK(*f.games[0].tag("Event") == "1999 \"Cup\" final");
    CHECK(*f.games[0].tag("Site") == "a \"b");
    CHECK_FALSE(f.games[0].tag("Red"));  // no closing quote: still malformed
    CHECK(f.warnings.size() == 1);
    CHECK(f.games[0].moves.size() == 1);
}

TEST_CASE("PGN forms: numbers, comments, variations, marks, NAGs, results", "[analyze]") {
    const std::string text =
        "[Event \"forms \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n"
        "{before} 1. H2-E2! {good} h9g7 ; a line comment\n"
        "2.H0-G2 (2. C3-C4 {inside} (2. I0-I1) c6c5) 2... I9-H9?! $6 3. 车九进一!? 车１进１ 1-0\n"
        "[Event \"second\"]\n\n1. C2.5 *\n\n"
        "1. 炮二平五 0-1\n";
    const pgn::PgnFile f = pgn::parsePgn(text);
    REQUIRE_FALSE(f.error);
    REQUIRE(f.games.size() == 3);
    const pgn::PgnGame& g = f.games[0];
    CHECK(*g.tag("Event") == "forms \"quoted\"");
    CHECK(g.comments == std::vector<std::string>{"before"});
    REQUIRE(g.moves.size() == 6);
    CHECK(g.moves[0].text == "H2-E2");
    CHECK(g.moves[0].comments == std::vector<std::string>{"good"});
    CHECK(g.moves[1].comments == std::vector<std::string>{"a line comment"});
    CHECK(g.moves[2].text == "H0-G2");
    CHECK(g.moves[3].text == "I9-H9");
    CHECK(g.moves[4].text == "车九进一");
    CHECK(g.result == "1-0");
    const analyze::PreparedGame p = analyze::prepareGame(g, 1);
    CHECK_FALSE(p.stop);
    CHECK(p.moves.size() == 6);
    CHECK(f.games[1].moves.size() == 1);
    CHECK(f.games[1].result == "*");
    CHECK(f.games[2].moves.size() == 1);  // a game without tags after a result
    CHECK(f.games[2].result == "0-1");
}

TEST_CASE("a file that is not PGN is refused and nothing is written", "[analyze]") {
    for (const std::string& bytes :
         {std::string("hello, this is not a game\n"), std::string("# Title\n\nSome text.\n"), std::string(""),
          std::string("\x7F"
                      "ELF\x02\x01\x01\0\0\0",
                      10),
          std::string("[Event \"unterminated\n1. h2e2\n")}) {
        INFO(bytes);
        const pgn::PgnFile f = pgn::parsePgn(bytes);
        REQUIRE(f.error);
        CHECK(f.error->find("not a PGN file") != std::string::npos);
        CHECK(f.games.empty());
    }
    TempDir dir;
    writeFile(dir.file("notes.txt"), "shopping list: milk, eggs\n");
    const Run r = runAnalyze({"--depth", "1", "--out", dir.file("out.pgn"), dir.file("notes.txt")});
    CHECK(r.status == 1);
    CHECK(r.err.find("not a PGN file") != std::string::npos);
    CHECK(r.out.empty());
    CHECK_FALSE(fs::exists(dir.file("out.pgn")));
    CHECK_FALSE(fs::exists(dir.file("out.pgn.part")));
}

TEST_CASE("an illegal move stops its game; the next game is still analysed", "[analyze]") {
    const std::string text =
        "[Red \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n\n"
        "1. H2-E2 H9-G7 2. H0-G2 I9-I5 3. I0-H0 1-0\n\n"
        "[Red \"Carol\"]\n[Black \"Dave\"]\n[Result \"0-1\"]\n\n"
        "1. C2.5 C8.5 0-1\n";
    const Run r = runAnalyze({"--depth", "2", "-"}, text);
    CHECK(r.status == 1);
    INFO(r.err);
    CHECK(r.err.find("game 1 (Alice - Bob): move 2 (black) ('I9-I5', line 5) is illegal here") != std::string::npos);
    // Game 1 up to the bad move, then game 2 in full.
    CHECK(r.out.find("2. H0-G2 {") != std::string::npos);
    CHECK(r.out.find("I9-I5 {") == std::string::npos);
    CHECK(r.out.find("I0-H0") == std::string::npos);
    CHECK(r.out.find("{analysis stopped: game 1 (Alice - Bob): move 2 (black)") != std::string::npos);
    CHECK(r.out.find("[Red \"Carol\"]") != std::string::npos);
    CHECK(r.out.find("1. C2.5") != std::string::npos);  // (in the input's notation)
    CHECK(r.out.find(" C8.5") != std::string::npos);

    // A game with a bad FEN is skipped, the next one still analysed (and numbered 2).
    const Run fen = runAnalyze({"--depth", "1", "-"}, "[FEN \"9/9 w\"]\n\n1. h2e2 *\n\n[Red \"B\"]\n\n1. h2e2 *\n");
    CHECK(fen.status == 1);
    CHECK(fen.err.find("game 1 (line 1): bad FEN tag") != std::string::npos);
    CHECK(fen.err.find("the game is skipped") != std::string::npos);
    CHECK(fen.out.find("[FEN") == std::string::npos);
    CHECK(fen.out.find("[Red \"B\"]") != std::string::npos);

    // A token that is no move at all stops its game the same way.
    const Run junk = runAnalyze({"--depth", "1", "-"}, "[Red \"A\"]\n\n1. H2-E2 Qxe5 2. H0-G2 *\n");
    CHECK(junk.status == 1);
    CHECK(junk.err.find("move 1 (black) ('Qxe5', line 3) is not a move") != std::string::npos);
    CHECK(junk.out.find("1. H2-E2") != std::string::npos);
}

// ---------------------------------------------------------------------------
// Annotation

TEST_CASE("a missed forced mate is marked ?? with the mating move as best", "[analyze]") {
    const std::string text = std::string("[FEN \"") + MissedMateFen + "\"]\n[Format \"ICCS\"]\n\n1. G4-G5 I6-I5 *\n";
    const pgn::PgnFile f = pgn::parsePgn(text);
    REQUIRE(f.games.size() == 1);
    const analyze::PreparedGame g = analyze::prepareGame(f.games[0], 1);
    REQUIRE(g.moves.size() == 2);
    analyze::Options o;
    o.moveTimeMs = -1;
    o.depth = 6;
    Engine engine;
    const analyze::GameReport r = analyze::analyzeGame(engine, g, o);
    REQUIRE(r.moves.size() == 2);
    const analyze::MoveNote& n = r.moves[0];
    CHECK(n.before.best == Move::parse("e6g7"));
    CHECK(isMateScore(n.before.score));
    CHECK(mateInMoves(n.before.score) == 2);
    CHECK(n.loss >= 300);
    CHECK(n.mark == "??");
    CHECK(r.red.blunders == 1);
    REQUIRE_FALSE(r.worst.empty());
    CHECK(r.worst[0] == 0);

    const std::string out = analyze::formatPgn(r, o);
    INFO(out);
    CHECK(out.find("1. G4-G5?? {") != std::string::npos);
    CHECK(out.find("best E6-G7 +M2/") != std::string::npos);
    o.notation = Notation::Chinese;
    const std::string chinese = analyze::formatPgn(analyze::analyzeGame(engine, g, o), o);
    CHECK(chinese.find("1. 兵三进一?? {") != std::string::npos);
    CHECK(chinese.find("best 马五进三 +M2/") != std::string::npos);
    CHECK(chinese.find("[Format \"Chinese\"]") != std::string::npos);
}

TEST_CASE("scores: pawns from red's view, mates in moves", "[analyze]") {
    CHECK(analyze::formatScore(35, 14) == "+0.35/14");
    CHECK(analyze::formatScore(-120, 9) == "-1.20/9");
    CHECK(analyze::formatScore(0) == "+0.00");
    CHECK(analyze::formatScore(mateIn(5), 12) == "+M3/12");
    CHECK(analyze::formatScore(-mateIn(4), 12) == "-M2/12");
    CHECK(analyze::formatScore(mateIn(0)) == "+M0");
}

TEST_CASE("the JSON output is valid JSON with the expected fields", "[analyze]") {
    CHECK(analyze::jsonString("a\"b\\c\n\x01 炮") == "\"a\\\"b\\\\c\\n\\u0001 炮\"");
    CHECK(JsonChecker(analyze::jsonString("x\ty\r\b\f\x1f")).valid());
    CHECK_FALSE(JsonChecker("{\"a\":1,}").valid());
    CHECK_FALSE(JsonChecker("[\"a\nb\"]").valid());

    const std::string text =
        std::string("[Event \"quotes \\\" and \\\\ backslash\"]\n[FEN \"") + MissedMateFen +
        "\"]\n\n1. G4-G5 {a \"comment\"} I6-I5 *\n\n[Red \"x\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 *\n";
    const Run r = runAnalyze({"--depth", "3", "--json", "--multipv", "2", "--notation", "wxf", "-"}, text);
    CHECK(r.status == 0);
    std::istringstream lines(r.out);
    std::string line;
    int count = 0;
    while (std::getline(lines, line)) {
        INFO(line);
        CHECK(JsonChecker(line).valid());
        ++count;
    }
    CHECK(count == 2);
    CHECK(r.out.find("\"Event\":\"quotes \\\" and \\\\ backslash\"") != std::string::npos);
    CHECK(r.out.find("\"comments\":[\"a \\\"comment\\\"\"]") != std::string::npos);
    CHECK(r.out.find("\"iccs\":\"g4g5\",\"move\":\"P3+1\"") != std::string::npos);
    CHECK(r.out.find("\"mark\":\"??\"") != std::string::npos);
    CHECK(r.out.find("\"lines\":[{\"multipv\":1,") != std::string::npos);
    CHECK(r.out.find("\"iccs\":\"h2e2\",\"move\":\"C2.5\"") != std::string::npos);
}

TEST_CASE("the JSON gives the wdl of every score, from red's view", "[analyze][wdl]") {
    const std::string text = std::string("[FEN \"") + MissedMateFen + "\"]\n[Format \"ICCS\"]\n\n1. G4-G5 I6-I5 *\n";
    const pgn::PgnFile f = pgn::parsePgn(text);
    REQUIRE(f.games.size() == 1);
    const analyze::PreparedGame g = analyze::prepareGame(f.games[0], 1);
    analyze::Options o;
    o.moveTimeMs = -1;
    o.depth = 4;
    o.multiPV = 2;
    o.json = true;
    Engine engine;
    const analyze::GameReport r = analyze::analyzeGame(engine, g, o);
    REQUIRE(r.moves.size() == 2);
    const std::string json = analyze::formatJson(r, o);
    INFO(json);
    auto triple = [](const char* key, const wdl::Wdl& w) {
        return fmt::format("\"{}\":[{},{},{}]", key, w.win, w.draw, w.loss);
    };
    // Red mates in 2 from the start: certain, as is the best move's line.
    CHECK(json.find("\"start\":{\"score\":29997,\"mate\":2,\"wdl\":[1000,0,0],") != std::string::npos);
    CHECK(json.find("\"bestScore\":29997,\"bestMate\":2,\"bestWdl\":[1000,0,0],") != std::string::npos);
    // After each move, the model's value for the search of the position it
    // led to, turned to red's view when black is to move.
    Position pos = fromFen(MissedMateFen);
    for (const analyze::MoveNote& n : r.moves) {
        pos.makeMove(n.move);
        wdl::Wdl w = wdl::fromValue(n.after.score, pos);
        if (pos.sideToMove() == Color::Black) w = {w.loss, w.draw, w.win};
        const size_t at = json.find("\"iccs\":\"" + n.move.toString() + "\"");
        REQUIRE(at != std::string::npos);
        const std::string expected = triple("wdl", w);
        CHECK(json.substr(json.find("\"wdl\":", at), expected.size()) == expected);
    }
    // Every triple sums to 1000.
    int triples = 0;
    for (size_t at = json.find("dl\":["); at != std::string::npos; at = json.find("dl\":[", at + 1)) {
        int win = 0, draw = 0, loss = 0;
        REQUIRE(std::sscanf(json.c_str() + at + 5, "%d,%d,%d]", &win, &draw, &loss) == 3);
        CHECK(win + draw + loss == 1000);
        CHECK(std::min({win, draw, loss}) >= 0);
        ++triples;
    }
    // start, then per move the score and the best score, and each MultiPV line.
    size_t lines = 0;
    for (size_t at = json.find("\"multipv\":"); at != std::string::npos; at = json.find("\"multipv\":", at + 1))
        ++lines;
    CHECK(lines >= 2);
    CHECK(size_t(triples) == 1 + 2 * 2 + lines);
}

TEST_CASE("analyze: usage errors and --out", "[analyze]") {
    CHECK(runAnalyze({}).status == 2);
    CHECK(runAnalyze({"--depth"}).status == 2);
    CHECK(runAnalyze({"--depth", "x", "a.pgn"}).status == 2);
    CHECK(runAnalyze({"--notation", "klingon", "a.pgn"}).status == 2);
    CHECK(runAnalyze({"--frobnicate", "a.pgn"}).status == 2);
    CHECK(runAnalyze({"--depth", "1", "/nonexistent/x.pgn"}).status == 1);

    TempDir dir;
    const Run r = runAnalyze({"--depth", "2", "--out", dir.file("a.pgn"), Data + "/tune_games.pgn"});
    CHECK(r.status == 0);
    CHECK(r.out.empty());
    const std::string written = readFile(dir.file("a.pgn"));
    CHECK(written.find("[Annotator \"Chariot depth 2 per position\"]") != std::string::npos);
    CHECK(written.find("1. H2-E2 {") != std::string::npos);
    CHECK_FALSE(fs::exists(dir.file("a.pgn.part")));
}

// ---------------------------------------------------------------------------
// EPD

TEST_CASE("EPD lines: FEN fields, bm, am, id; malformed lines", "[analyze]") {
    std::string error;
    auto e = epd::parseLine("4k4/9/4N4/9/9/2p3p2/9/7C1/9/3K5 w - - bm h2e2; id \"mate \\\"one\\\"\";", 7, &error);
    REQUIRE(e);
    CHECK(e->id == "mate \"one\"");
    CHECK(e->line == 7);
    CHECK(e->bm == std::vector<Move>{Move::parse("h2e2")});
    CHECK(e->solvedBy(Move::parse("h2e2")));
    CHECK_FALSE(e->solvedBy(Move::parse("h2h3")));

    e = epd::parseLine("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w am a0a2 i0i2; c0 \"x\"", 3,
                       &error);
    REQUIRE(e);
    CHECK(e->id == "line 3");
    CHECK(e->am.size() == 2);
    CHECK(e->solvedBy(Move::parse("h2e2")));
    CHECK_FALSE(e->solvedBy(Move::parse("a0a2")));

    e = epd::parseLine("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 bm C2.5 h2d2;", 4,
                       &error);
    REQUIRE(e);
    CHECK(e->bm.size() == 2);

    CHECK_FALSE(epd::parseLine("   ", 1, &error));
    CHECK(error.empty());
    CHECK_FALSE(epd::parseLine("# comment", 1, &error));
    CHECK(error.empty());
    CHECK_FALSE(epd::parseLine("bm h2e2; id \"no fen\";", 9, &error));
    CHECK(error.find("line 9: no FEN") != std::string::npos);
    CHECK_FALSE(epd::parseLine("3k5/9/9/9/9/9/9/9/9/4K4 w - - id \"x\";", 2, &error));
    CHECK(error.find("no bm or am") != std::string::npos);
    CHECK_FALSE(epd::parseLine("4k4/9/4N4/9/9/2p3p2/9/7C1/9/3K5 w - - bm a0a1;", 5, &error));
    CHECK(error.find("line 5: bm 'a0a1' is illegal") != std::string::npos);
    CHECK_FALSE(epd::parseLine("4k4/9/4N4/9/9/2p3p2/9/7C1/9/3K5 x - - bm h2e2;", 6, &error));
    CHECK(error.find("no side to move") != std::string::npos);
    CHECK_FALSE(epd::parseLine("4k5/9/4N4/9/9/2p3p2/9/7C1/9/3K5 w - - bm h2e2;", 8, &error));
    CHECK(error.find("bad FEN") != std::string::npos);
}

TEST_CASE("a small EPD suite: mates found, a malformed line reported", "[analyze]") {
    TempDir dir;
    writeFile(dir.file("suite.epd"),
              "# three mates in one, one line without a FEN\n"
              "4k4/9/4N4/9/9/2p3p2/9/7C1/9/3K5 w - - bm h2e2; id \"m1\";\n"
              "bm h2e2; id \"broken\";\n"
              "3k5/9/7R1/9/9/p7p/9/9/9/4K4 w - - bm h7d7; id \"m2\";\n"
              "4k4/9/9/9/P7P/9/9/1r7/9/5K3 b - - bm b2f2; am b2b0; id \"m3\";\n");
    std::vector<std::string> out;
    std::ostringstream err;
    const int status = epd::runEpdTool(
        {dir.file("suite.epd"), "--depth", "4"}, [&](const std::string& l) { out.push_back(l); }, err);
    CHECK(status == 0);
    INFO(err.str());
    CHECK(err.str().find("line 3: no FEN") != std::string::npos);
    REQUIRE(out.size() == 4);
    CHECK(out[0].rfind("m1", 0) == 0);
    CHECK(out[0].find("found   h2e2  +M1") != std::string::npos);
    CHECK(out[1].find("found   h7d7  +M1") != std::string::npos);
    CHECK(out[2].find("found   b2f2  +M1") != std::string::npos);
    CHECK(out[3] == "solved 3/3");

    // The shipped suite: every mate in one is found at depth 2.
    Engine engine;
    std::ifstream in(Data + "/mates_bm.epd");
    REQUIRE(in);
    std::string line;
    int lineNo = 0, mateInOne = 0;
    SearchLimits limits;
    limits.depth = 2;
    while (std::getline(in, line)) {
        std::string error;
        auto e = epd::parseLine(line, ++lineNo, &error);
        CHECK(error.empty());
        if (!e || e->id.rfind("mate1.", 0) != 0) continue;
        ++mateInOne;
        INFO(e->id);
        CHECK(epd::solve(engine, *e, limits).solved);
    }
    CHECK(mateInOne == 12);

    std::ostringstream usage;
    CHECK(epd::runEpdTool(
              {}, [](const std::string&) {}, usage) == 2);
    CHECK(epd::runEpdTool(
              {"/nonexistent.epd"}, [](const std::string&) {}, usage) == 2);
    CHECK(epd::runEpdTool(
              {"x.epd", "--depth", "zero"}, [](const std::string&) {}, usage) == 2);
}
