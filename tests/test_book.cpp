#include <catch2/catch.hpp>

#include "test_util.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "chariot/book.h"
#include "chariot/book_tool.h"
#include "chariot/movegen.h"
#include "chariot/position.h"

using namespace chariot;
using test::readFile;
using test::TempDir;
using test::writeFile;
namespace fs = std::filesystem;

namespace {

void putLe(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xFF);
}
uint64_t getLe(const std::string& in, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(in[at + i])) << (8 * i);
    return v;
}

struct Rec {
    uint64_t key;
    uint16_t move;
    uint16_t weight;
};

// Chariot book bytes written from the documented layout (not by the library),
// so the tests pin the format down independently of the writer.
std::string chariotBytes(const std::vector<Rec>& records, uint32_t count, uint32_t version = 1) {
    std::string out = "CHARBOOK";
    putLe(out, version, 4);
    putLe(out, count, 4);
    for (const Rec& r : records) {
        putLe(out, r.key, 8);
        putLe(out, r.move, 2);
        putLe(out, r.weight, 2);
    }
    return out;
}
std::string chariotBytes(const std::vector<Rec>& records) { return chariotBytes(records, uint32_t(records.size())); }

std::string eleEyeBytes(std::vector<Rec> records) {
    std::sort(records.begin(), records.end(), [](const Rec& a, const Rec& b) { return a.key < b.key; });
    std::string out;
    for (const Rec& r : records) {
        putLe(out, r.key, 4);
        putLe(out, r.move, 2);
        putLe(out, r.weight, 2);
    }
    return out;
}

Position after(std::string_view moves) {
    Position p;
    std::istringstream in{std::string(moves)};
    std::string text;
    while (in >> text) {
        Move m = p.parseLegalMove(text);
        INFO("move " << text << " in " << p.fen());
        REQUIRE(m);
        p.makeMove(m);
    }
    return p;
}

Move mv(std::string_view text) {
    Move m = Move::parse(text);
    REQUIRE(m);
    return m;
}

// "h2e2:15 b2e2:15" style rendering, so a failed comparison shows the whole list.
std::string render(const std::vector<BookMove>& moves) {
    std::string out;
    for (const BookMove& bm : moves) {
        if (!out.empty()) out += ' ';
        out += fmt::format("{}:{}", bm.move.toString(), bm.weight);
    }
    return out;
}

std::unique_ptr<Book> loadOk(const std::string& path) {
    std::string error;
    auto book = Book::load(path, error);
    INFO(error);
    REQUIRE(book);
    CHECK(error.empty());
    return book;
}

std::string loadError(const std::string& path) {
    std::string error;
    auto book = Book::load(path, error);
    CHECK_FALSE(book);
    CHECK_FALSE(error.empty());
    return error;
}

std::string shippedSource() { return std::string(CHARIOT_TEST_DATA) + "/../../books/openings.txt"; }

}  // namespace

// ---------------------------------------------------------------------------
// Building

TEST_CASE("book build accumulates weights and merges mirror images", "[book]") {
    TempDir dir;
    writeFile(dir.file("src.txt"),
              "# comment | with bars\n"
              "\n"
              "10 | Central cannon | h2e2 h9g7 h0g2\n"
              "   \t\n"
              "5 | Central cannon, other side | b2e2 b9c7 b0c2\n"
              "3 | Pawn opening (仙人指路) | g3g4 h7g7\r\n");
    BookBuildStats stats;
    auto error = buildBook(dir.file("src.txt"), dir.file("book.bin"), &stats);
    INFO(error.value_or(""));
    REQUIRE_FALSE(error);
    // Positions: start (symmetric, 3 moves as written), after h2e2 = mirror of
    // after b2e2 (one record, 15), after h2e2 h9g7 likewise, after g3g4.
    CHECK(stats.lines == 3);
    CHECK(stats.positions == 4);
    CHECK(stats.records == 6);
    CHECK(stats.clamped == 0);
    CHECK_FALSE(fs::exists(dir.file("book.bin.tmp")));

    auto book = loadOk(dir.file("book.bin"));
    CHECK(book->format() == Book::Format::Chariot);
    CHECK(book->size() == 6);
    // The start position is its own mirror: each move also stands for its
    // mirror image, so h2e2 = 10 + 5 (b2e2's record) and likewise b2e2.
    CHECK(render(book->probe(Position())) == "b2e2:15 h2e2:15 c3c4:3 g3g4:3");
    CHECK(render(book->probe(after("h2e2"))) == "h9g7:15");
    CHECK(render(book->probe(after("b2e2"))) == "b9c7:15");
    CHECK(render(book->probe(after("h2e2 h9g7"))) == "h0g2:15");
    CHECK(render(book->probe(after("b2e2 b9c7"))) == "b0c2:15");
    CHECK(render(book->probe(after("c3c4"))) == "b7c7:3");
    CHECK(book->probe(after("h0g2")).empty());
    CHECK(book->probe(after("h2e2 h9g7 h0g2")).empty());  // the end of a line has no reply
}

TEST_CASE("book build writes the documented binary layout", "[book]") {
    TempDir dir;
    writeFile(dir.file("src.txt"), "7 | a | h2e2 h9g7\n4 | b | h2e2 b9c7\n9 | c | g0e2\n");
    BookBuildStats stats;
    REQUIRE_FALSE(buildBook(dir.file("src.txt"), dir.file("book.bin"), &stats));
    const std::string bytes = readFile(dir.file("book.bin"));
    REQUIRE(bytes.size() == 16 + 12 * stats.records);
    CHECK(bytes.substr(0, 8) == "CHARBOOK");
    CHECK(getLe(bytes, 8, 4) == 1);
    CHECK(getLe(bytes, 12, 4) == stats.records);
    CHECK(stats.records == 4);  // start: h2e2 11, g0e2 9; after h2e2 (folded): two replies
    // Sorted by key, then weight descending; every key is the smaller of the
    // position's key and its mirror's.
    for (size_t i = 1; i < stats.records; ++i) {
        const size_t a = 16 + 12 * (i - 1), b = a + 12;
        const uint64_t ka = getLe(bytes, a, 8), kb = getLe(bytes, b, 8);
        INFO("record " << i);
        CHECK(ka <= kb);
        if (ka == kb) CHECK(getLe(bytes, a + 10, 2) >= getLe(bytes, b + 10, 2));
    }
    const Position afterH2e2 = after("h2e2");
    const uint64_t folded = std::min(afterH2e2.key(), afterH2e2.mirrored().key());
    size_t found = 0;
    for (size_t i = 0; i < stats.records; ++i) {
        const size_t at = 16 + 12 * i;
        const uint64_t key = getLe(bytes, at, 8);
        CHECK(key != std::max(afterH2e2.key(), afterH2e2.mirrored().key()));
        if (key == folded) ++found;
        if (key == Position().key() && Move::fromRaw(uint16_t(getLe(bytes, at + 8, 2))) == mv("h2e2"))
            CHECK(getLe(bytes, at + 10, 2) == 11);
    }
    CHECK(found == 2);
}

TEST_CASE("book build clamps summed weights at 65535", "[book]") {
    TempDir dir;
    std::string source;
    for (int i = 0; i < 70; ++i) source += "1000 | heavy | h2e2 h9g7\n";
    source += "5 | light | h2e2 b9c7\n";
    writeFile(dir.file("src.txt"), source);
    BookBuildStats stats;
    REQUIRE_FALSE(buildBook(dir.file("src.txt"), dir.file("book.bin"), &stats));
    CHECK(stats.clamped == 2);  // start h2e2 (70005) and h9g7 (70000)
    auto book = loadOk(dir.file("book.bin"));
    CHECK(render(book->probe(after("h2e2"))) == "h9g7:65535 b9c7:5");
}

TEST_CASE("book build rejects bad sources naming the line", "[book]") {
    TempDir dir;
    struct Case {
        std::string source;
        std::string expect;  // in the message
    };
    const std::vector<Case> cases = {
        {"0 | x | h2e2\n", ":1: weight '0' is not an integer from 1 to 1000"},
        {"1001 | x | h2e2\n", ":1: weight '1001'"},
        {"ten | x | h2e2\n", ":1: weight 'ten'"},
        {"5x | x | h2e2\n", ":1: weight '5x'"},
        {"5 | x\n", ":1: expected '<weight> | <name> | <moves>'"},
        {"5 | a | b | h2e2\n", ":1: expected '<weight> | <name> | <moves>': too many '|'"},
        {"5 |  | h2e2\n", ":1: the name is empty"},
        {"5 | x |   \n", ":1: the line has no moves"},
        {"5 | x | h2e2  h9g7\n", ":1: moves must be separated by single spaces (before move 2)"},
        {"5 | x | h2e2\th9g7\n", ":1: move 1 'h2e2\th9g7' is not a lower-case ICCS move"},
        {"5 | x | H2E2\n", ":1: move 1 'H2E2' is not a lower-case ICCS move"},
        {"5 | x | h2e2 h9g7 j0j1\n", ":1: move 3 'j0j1' is not a lower-case ICCS move"},
        {"# c\n\n5 | ok | h2e2\n7 | bad | h2e2 h9g7 h2e3\n", ":4: move 3 'h2e3' is illegal in "},
        {"5 | x | h2e2 h2e2\n",
         ":1: move 2 'h2e2' is illegal in rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"},
        {" # indented comments are not comments\n", ":1: expected"},
        {"# only comments\n\n", "no data lines"},
    };
    for (const Case& c : cases) {
        INFO(c.source);
        writeFile(dir.file("src.txt"), c.source);
        auto error = buildBook(dir.file("src.txt"), dir.file("book.bin"));
        REQUIRE(error);
        CHECK_THAT(*error, Catch::Contains(c.expect));
        CHECK_THAT(*error, Catch::Contains("src.txt"));
        CHECK_FALSE(fs::exists(dir.file("book.bin")));  // nothing written on failure
    }
    auto error = buildBook(dir.file("missing.txt"), dir.file("book.bin"));
    REQUIRE(error);
    CHECK_THAT(*error, Catch::Contains("cannot open book source"));
}

// ---------------------------------------------------------------------------
// Loading and lookup

TEST_CASE("book binary search finds the first, last and middle runs", "[book]") {
    TempDir dir;
    // A non-symmetric position, so only its own records come back.
    const Position pos = after("h2e2");
    const uint64_t key = pos.key();
    REQUIRE(key > 100);
    REQUIRE(key < ~uint64_t(0) - 100);
    const std::vector<std::string> replies = {"h9g7", "b9c7", "h7e7", "b7e7", "g6g5", "c6c5", "h9i7", "b9a7", "c9e7"};
    const int below = GENERATE(0, 1, 3, 8);
    const int above = GENERATE(0, 1, 3, 8);
    const int run = GENERATE(1, 9);
    INFO("below " << below << " run " << run << " above " << above);

    // Neighbouring keys carry a legal reply (a6a5), so an off-by-one in the
    // range shows up as an extra move.
    std::vector<Rec> records;
    for (int i = below; i > 0; --i) records.push_back({key - uint64_t(i), mv("a6a5").raw(), 50});
    std::string expected;
    for (int i = 0; i < run; ++i) {
        records.push_back({key, mv(replies[size_t(i)]).raw(), uint16_t(40 - i)});
        expected += fmt::format("{}{}:{}", i ? " " : "", replies[size_t(i)], 40 - i);
    }
    for (int i = 1; i <= above; ++i) records.push_back({key + uint64_t(i), mv("a6a5").raw(), 50});
    writeFile(dir.file("book.bin"), chariotBytes(records));

    auto book = loadOk(dir.file("book.bin"));
    CHECK(book->size() == records.size());
    CHECK(render(book->probe(pos)) == expected);
    CHECK(book->probe(Position()).empty());
}

TEST_CASE("book with duplicate keys across the middle returns every record once", "[book]") {
    TempDir dir;
    const Position pos = after("h2e2");
    // 2 + 40 + 2 records: the midpoints of the search all land inside the run.
    // Many records repeat the same move (as colliding positions could); they
    // merge into one move with the summed weight.
    std::vector<Rec> records{{pos.key() - 2, mv("a6a5").raw(), 1}, {pos.key() - 1, mv("a6a5").raw(), 1}};
    for (int i = 0; i < 40; ++i) records.push_back({pos.key(), mv(i % 2 ? "h9g7" : "b9c7").raw(), uint16_t(1 + i % 2)});
    records.push_back({pos.key() + 1, mv("a6a5").raw(), 1});
    records.push_back({pos.key() + 2, mv("a6a5").raw(), 1});
    writeFile(dir.file("book.bin"), chariotBytes(records));
    auto book = loadOk(dir.file("book.bin"));
    CHECK(render(book->probe(pos)) == "h9g7:40 b9c7:20");
}

TEST_CASE("an empty book loads and finds nothing", "[book]") {
    TempDir dir;
    writeFile(dir.file("empty.bin"), chariotBytes({}));
    auto book = loadOk(dir.file("empty.bin"));
    CHECK(book->size() == 0);
    CHECK(book->format() == Book::Format::Chariot);
    CHECK(book->probe(Position()).empty());
    CHECK(book->probe(after("h2e2")).empty());
}

TEST_CASE("damaged book files give clear errors, never a crash", "[book]") {
    TempDir dir;
    const Position pos = after("h2e2");
    const std::string good = chariotBytes({{pos.key(), mv("h9g7").raw(), 5}, {pos.key() + 1, mv("b9c7").raw(), 5}});
    const std::string path = dir.file("book.bin");

    SECTION("every truncation of a valid file") {
        for (size_t len = 0; len < good.size(); ++len) {
            INFO("length " << len);
            writeFile(path, good.substr(0, len));
            const std::string error = loadError(path);
            if (len == 0)
                CHECK_THAT(error, Catch::Contains("empty"));
            else
                CHECK_THAT(error, Catch::Contains("truncated"));
        }
        writeFile(path, good);
        CHECK(render(loadOk(path)->probe(pos)) == "h9g7:5");
    }
    SECTION("record count larger or smaller than the file") {
        std::string bytes = good;
        bytes[12] = 3;
        writeFile(path, bytes);
        CHECK_THAT(loadError(path), Catch::Contains("announces 3 records"));
        bytes[12] = 1;
        writeFile(path, bytes);
        CHECK_THAT(loadError(path), Catch::Contains("12 bytes after the 1 records"));
    }
    SECTION("unknown version") {
        writeFile(path, chariotBytes({}, 0, 2));
        CHECK_THAT(loadError(path), Catch::Contains("unsupported Chariot book version 2"));
    }
    SECTION("records out of order") {
        writeFile(path, chariotBytes({{pos.key() + 1, mv("b9c7").raw(), 5}, {pos.key(), mv("h9g7").raw(), 5}}));
        CHECK_THAT(loadError(path), Catch::Contains("not sorted"));
        writeFile(path, eleEyeBytes({}) + std::string("\x02\0\0\0\0\0\0\0\x01\0\0\0\0\0\0\0", 16));
        CHECK_THAT(loadError(path), Catch::Contains("not sorted"));
    }
    SECTION("no magic and a size that is not a multiple of 8") {
        std::string bytes = good;  // 16 + 24 = 40 bytes: a multiple of 8 ...
        bytes[7] = 'X';
        bytes += "abcd";  // ... made 44
        writeFile(path, bytes);
        CHECK_THAT(loadError(path), Catch::Contains("not a multiple of 8"));
        writeFile(path, "CHAR");  // a stub of the magic is a truncated header, not "not a multiple of 8"
        CHECK_THAT(loadError(path), Catch::Contains("truncated"));
    }
    SECTION("no magic and a multiple of 8 bytes: read as BOOK.DAT") {
        writeFile(path, "CHARBOOX");  // one record: lock "CHAR", move "BO", weight "OX"
        auto book = loadOk(path);
        CHECK(book->format() == Book::Format::ElephantEye);
        CHECK(book->size() == 1);
        CHECK(book->probe(Position()).empty());
    }
    SECTION("missing file and directory") {
        CHECK_THAT(loadError(dir.file("nope.bin")), Catch::Contains("no such file"));
        fs::create_directory(dir.file("adir"));
        CHECK_THAT(loadError(dir.file("adir")), Catch::Contains("not a regular file"));
    }
}

TEST_CASE("a position stored only as its mirror image is found", "[book]") {
    TempDir dir;
    const Position stored = after("b2e2"), probed = after("h2e2");
    REQUIRE(stored.key() == probed.mirrored().key());
    writeFile(dir.file("book.bin"),
              chariotBytes({{stored.key(), mv("b9c7").raw(), 9}, {stored.key(), mv("b7e7").raw(), 4}}));
    auto book = loadOk(dir.file("book.bin"));
    CHECK(render(book->probe(stored)) == "b9c7:9 b7e7:4");
    CHECK(render(book->probe(probed)) == "h9g7:9 h7e7:4");  // mirrored back
}

TEST_CASE("illegal and colliding book moves are dropped", "[book]") {
    TempDir dir;
    const uint64_t start = Position().key();
    const std::vector<Rec> records = {
        {start, mv("h2e2").raw(), 10},
        {start, mv("h2h9").raw(), 9},                                 // cannon captures over the h7 screen: legal
        {start, mv("e0e2").raw(), 90},                                // king two steps
        {start, mv("h2h8").raw(), 80},                                // cannon blocked by h7
        {start, mv("a0a5").raw(), 70},                                // rook through its own pawn
        {start, mv("b9c7").raw(), 60},                                // black's move with red to move (a key collision)
        {start, Move(makeSquare(4, 3), makeSquare(4, 3)).raw(), 55},  // from == to
        {start, 0x0000, 50},                                          // none
        {start, 0x0101, 40},                                          // null / off board
        {start, 0xFFFF, 30},                                          // off board
    };
    writeFile(dir.file("book.bin"), chariotBytes(records));
    auto book = loadOk(dir.file("book.bin"));
    CHECK(book->size() == records.size());
    // The start position is symmetric: b2e2 and b2b9 are the mirror images.
    CHECK(render(book->probe(Position())) == "b2e2:10 h2e2:10 b2b9:9 h2h9:9");

    // A pinned horse: e1f3 is a horse move, but it would expose the king to the rook.
    Position pinned;
    REQUIRE_FALSE(pinned.setFen("3k5/9/9/9/4r4/9/9/9/4N4/4K4 w - - 0 1"));
    REQUIRE(pinned.isPseudoLegal(mv("e1f3")));
    writeFile(dir.file("pinned.bin"), chariotBytes({{pinned.key(), mv("e1f3").raw(), 50},
                                                    {pinned.key(), mv("e0f0").raw(), 10},
                                                    {pinned.key(), mv("e0d0").raw(), 20}}));
    CHECK(render(loadOk(dir.file("pinned.bin"))->probe(pinned)) == "e0f0:10");  // e0d0 would face the black king

    // The same in an ElephantEye file.
    const uint32_t lock = elephantEyeLock(Position());
    writeFile(dir.file("BOOK.DAT"), eleEyeBytes({{lock, toElephantEyeMove(mv("h2e2")), 3},
                                                 {lock, toElephantEyeMove(mv("h2h8")), 50},
                                                 {lock, toElephantEyeMove(mv("b9c7")), 40},
                                                 {lock, 0x0000, 30},
                                                 {lock, 0xA7A7, 20}}));  // from == to
    auto ee = loadOk(dir.file("BOOK.DAT"));
    CHECK(ee->format() == Book::Format::ElephantEye);
    CHECK(render(ee->probe(Position())) == "h2e2:3");
}

// ---------------------------------------------------------------------------
// Choosing

TEST_CASE("pickBookMove is proportional to weight", "[book]") {
    const std::vector<BookMove> moves = {{mv("h2e2"), 50}, {mv("g3g4"), 30}, {mv("g0e2"), 15}, {mv("h0g2"), 5}};
    std::mt19937_64 rng(20240601);
    std::map<uint16_t, int> counts;
    constexpr int Draws = 100000;
    for (int i = 0; i < Draws; ++i) ++counts[pickBookMove(moves, rng()).raw()];
    CHECK(counts.size() == moves.size());
    for (const BookMove& bm : moves) {
        INFO(bm.move.toString());
        CHECK(double(counts[bm.move.raw()]) / Draws == Approx(bm.weight / 100.0).margin(0.02));
    }
}

TEST_CASE("pickBookMove is deterministic and handles degenerate lists", "[book]") {
    const std::vector<BookMove> moves = {{mv("h2e2"), 50}, {mv("g3g4"), 0}, {mv("g0e2"), 30}};
    CHECK(pickBookMove(moves, 0) == mv("h2e2"));
    CHECK(pickBookMove(moves, 49) == mv("h2e2"));
    CHECK(pickBookMove(moves, 50) == mv("g0e2"));  // the zero-weight move is never chosen
    CHECK(pickBookMove(moves, 79) == mv("g0e2"));
    CHECK(pickBookMove(moves, 80) == mv("h2e2"));  // wraps around the total
    CHECK(pickBookMove(moves, ~uint64_t(0)) == pickBookMove(moves, ~uint64_t(0)));
    CHECK(pickBookMove({}, 12345).isNone());
    CHECK(pickBookMove({{mv("h2e2"), 0}, {mv("g3g4"), 0}}, 7).isNone());
    CHECK(pickBookMove({{mv("h2e2"), -5}, {mv("g3g4"), 1}}, 0) == mv("g3g4"));  // negative counts as zero
}

// ---------------------------------------------------------------------------
// The shipped book

namespace {

struct SourceLine {
    int weight;
    std::vector<std::string> moves;
};

std::vector<SourceLine> readSource(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::vector<SourceLine> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#' || line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const size_t bar1 = line.find('|'), bar2 = line.rfind('|');
        REQUIRE(bar1 != bar2);
        SourceLine sl{std::stoi(line.substr(0, bar1)), {}};
        std::istringstream moves(line.substr(bar2 + 1));
        std::string m;
        while (moves >> m) sl.moves.push_back(m);
        lines.push_back(sl);
    }
    return lines;
}

}  // namespace

TEST_CASE("the shipped book builds and agrees with its source", "[book]") {
    TempDir dir;
    BookBuildStats stats;
    auto error = buildBook(shippedSource(), dir.file("book.bin"), &stats);
    INFO(error.value_or(""));
    REQUIRE_FALSE(error);
    const auto source = readSource(shippedSource());
    CHECK(stats.lines == source.size());
    CHECK(stats.lines >= 100);
    CHECK(stats.positions > 100);
    CHECK(stats.records >= stats.positions);
    CHECK(stats.clamped == 0);
    auto book = loadOk(dir.file("book.bin"));
    CHECK(book->size() == stats.records);

    SECTION("main moves") {
        const auto start = book->probe(Position());
        INFO(render(start));
        CHECK(start.size() >= 6);
        auto weightOf = [](const std::vector<BookMove>& moves, std::string_view text) {
            for (const BookMove& bm : moves)
                if (bm.move.toString() == text) return bm.weight;
            return 0;
        };
        // Both sides' central cannon, with the same weight (the start position is symmetric).
        CHECK(weightOf(start, "h2e2") > 0);
        CHECK(weightOf(start, "h2e2") == weightOf(start, "b2e2"));
        CHECK(weightOf(start, "g3g4") == weightOf(start, "c3c4"));
        const auto replies = book->probe(after("h2e2"));
        INFO(render(replies));
        REQUIRE(replies.size() >= 3);
        for (auto m : {"h9g7", "b9c7", "h7e7"})
            CHECK(std::any_of(replies.begin(), replies.end(), [&](const BookMove& b) { return b.move == mv(m); }));
        // The other side's central cannon has the mirrored replies, same weights.
        const auto mirrored = book->probe(after("b2e2"));
        REQUIRE(mirrored.size() == replies.size());
        for (size_t i = 0; i < replies.size(); ++i) {
            CHECK(mirrored[i].weight == replies[i].weight);
            CHECK(std::any_of(mirrored.begin(), mirrored.end(),
                              [&](const BookMove& b) { return b.move == replies[i].move.mirrored(); }));
        }
    }

    SECTION("every position along every line has the weights the source implies") {
        // An independent model of the build: sum weights per (folded position,
        // folded move), folding with Position::mirrored().
        std::map<std::pair<uint64_t, uint16_t>, int> model;
        auto folded = [](const Position& p, Move m) {
            const uint64_t k = p.key(), mk = p.mirrored().key();
            return mk < k ? std::make_pair(mk, m.mirrored().raw()) : std::make_pair(k, m.raw());
        };
        for (const SourceLine& line : source) {
            Position p;
            for (const auto& text : line.moves) {
                Move m = p.parseLegalMove(text);
                REQUIRE(m);
                model[folded(p, m)] += line.weight;
                p.makeMove(m);
            }
        }
        size_t probes = 0;
        for (const SourceLine& line : source) {
            Position p;
            for (const auto& text : line.moves) {
                const auto moves = book->probe(p);
                const bool symmetric = p.mirrored().key() == p.key();
                int total = 0;
                for (const BookMove& bm : moves) {
                    int expected = model[folded(p, bm.move)];
                    if (symmetric) expected += model[folded(p, bm.move.mirrored())];
                    INFO(p.fen() << " " << bm.move.toString());
                    CHECK(bm.weight == expected);
                    CHECK(p.isPseudoLegal(bm.move));
                    total += bm.weight;
                }
                Move m = p.parseLegalMove(text);
                INFO(p.fen() << " line move " << text << " in " << render(moves));
                CHECK(std::any_of(moves.begin(), moves.end(), [&](const BookMove& b) { return b.move == m; }));
                CHECK(total > 0);
                p.makeMove(m);
                ++probes;
            }
        }
        CHECK(probes > 1000);
    }
}

// ---------------------------------------------------------------------------
// ElephantEye BOOK.DAT

TEST_CASE("ElephantEye locks and move encoding match ElephantEye", "[book]") {
    CHECK(elephantEyeLock(Position()) == 0x052656D5);
    CHECK(elephantEyeLock(after("h2e2 h9g7")) == 0xDF3AD30D);
    // The side to move is part of the lock.
    Position black;
    REQUIRE_FALSE(black.setFen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1"));
    CHECK(elephantEyeLock(black) != elephantEyeLock(Position()));

    CHECK(toElephantEyeMove(mv("h2e2")) == 0xA7AA);
    CHECK(toElephantEyeMove(mv("h0g2")) == 0xA9CA);
    CHECK(toElephantEyeMove(mv("a9a8")) == 0x4333);
    CHECK(fromElephantEyeMove(0xA7AA) == mv("h2e2"));
    CHECK(toElephantEyeMove(Move::none()) == 0);
    CHECK(toElephantEyeMove(Move::null()) == 0);
    CHECK(fromElephantEyeMove(0).isNone());
    CHECK(fromElephantEyeMove(0x1233).isNone());  // 0x12 is off the board
    CHECK(fromElephantEyeMove(0x3333).isNone());  // from == to
    int pairs = 0;
    for (int f1 = 0; f1 < 9; ++f1)
        for (int r1 = 0; r1 < 10; ++r1)
            for (int f2 = 0; f2 < 9; ++f2)
                for (int r2 = 0; r2 < 10; ++r2) {
                    if (f1 == f2 && r1 == r2) continue;
                    const Move m(makeSquare(f1, r1), makeSquare(f2, r2));
                    pairs += fromElephantEyeMove(toElephantEyeMove(m)) == m;
                }
    CHECK(pairs == 90 * 89);
}

TEST_CASE("ElephantEye BOOK.DAT files are read, mirrors included", "[book]") {
    TempDir dir;
    const Position afterB2e2 = after("b2e2"), afterH2e2 = after("h2e2");
    REQUIRE(elephantEyeLock(afterB2e2) != elephantEyeLock(afterH2e2));
    // As in the real BOOK.DAT, the position after h2e2 is stored only in its
    // mirror form (after b2e2), with b9c7 standing for h9g7.
    writeFile(dir.file("BOOK.DAT"), eleEyeBytes({
                                        {0x052656D5, 0xA7AA, 1473},  // start: h2e2
                                        {0x052656D5, toElephantEyeMove(mv("b2e2")), 1473},
                                        {0x052656D5, toElephantEyeMove(mv("g3g4")), 546},
                                        {0xDF3AD30D, toElephantEyeMove(mv("h0g2")), 700},
                                        {0xDF3AD30D, toElephantEyeMove(mv("g3g4")), 45},
                                        {elephantEyeLock(afterB2e2), toElephantEyeMove(mv("b9c7")), 761},
                                        {elephantEyeLock(afterB2e2), toElephantEyeMove(mv("b7e7")), 97},
                                    }));
    auto book = loadOk(dir.file("BOOK.DAT"));
    CHECK(book->format() == Book::Format::ElephantEye);
    CHECK(book->size() == 7);
    // Both forms are in the file for the symmetric start: read as stored, no doubling.
    CHECK(render(book->probe(Position())) == "b2e2:1473 h2e2:1473 g3g4:546");
    CHECK(render(book->probe(after("h2e2 h9g7"))) == "h0g2:700 g3g4:45");
    CHECK(render(book->probe(afterB2e2)) == "b9c7:761 b7e7:97");
    CHECK(render(book->probe(afterH2e2)) == "h9g7:761 h7e7:97");           // via the mirror
    CHECK(render(book->probe(after("b2e2 b9c7"))) == "b0c2:700 c3c4:45");  // via the mirror
    CHECK(book->probe(after("g3g4")).empty());
}

// ---------------------------------------------------------------------------
// The command-line tool

namespace {

struct ToolRun {
    int code;
    std::vector<std::string> lines;
    std::string text() const {
        std::string out;
        for (const auto& l : lines) out += l + "\n";
        return out;
    }
};

ToolRun runTool(const std::vector<std::string>& args) {
    ToolRun run{0, {}};
    run.code = runBookTool(args, [&](const std::string& line) { run.lines.push_back(line); });
    return run;
}

}  // namespace

TEST_CASE("book tool commands", "[book]") {
    TempDir dir;
    writeFile(dir.file("src.txt"), "10 | a | h2e2 h9g7 h0g2\n3 | b | g3g4 h7g7\n");
    const std::string book = dir.file("book.bin");

    auto built = runTool({"build", dir.file("src.txt"), book});
    INFO(built.text());
    REQUIRE(built.code == 0);
    CHECK_THAT(built.text(), Catch::Contains("2 lines, 4 positions, 5 records (76 bytes)"));

    auto start = runTool({"probe", book, "startpos"});
    CHECK(start.code == 0);
    CHECK_THAT(start.text(), Catch::Contains("h2e2      10   38.5%"));
    CHECK_THAT(start.text(), Catch::Contains("c3c4       3   11.5%"));

    // A FEN split over several arguments, then moves; and a FEN in one argument.
    auto split = runTool({"probe", book, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "w", "-", "-",
                          "0", "1", "h2e2"});
    CHECK(split.code == 0);
    CHECK_THAT(split.text(), Catch::Contains("h9g7      10  100.0%"));
    auto whole = runTool({"probe", book, std::string(StartFen), "moves", "h2e2", "h9g7"});
    CHECK(whole.code == 0);
    CHECK_THAT(whole.text(), Catch::Contains("h0g2"));
    auto none = runTool({"probe", book, "startpos", "h0g2"});
    CHECK(none.code == 0);
    CHECK_THAT(none.text(), Catch::Contains("no book moves"));

    auto dump = runTool({"dump", book});
    CHECK(dump.code == 0);
    CHECK(dump.lines.size() == 1 + 5);
    CHECK_THAT(dump.text(), Catch::Contains(fmt::format("{:016x} h2e2 10", Position().key())));

    auto bench = runTool({"bench", book});
    CHECK(bench.code == 0);
    CHECK_THAT(bench.text(), Catch::Contains("us/probe"));
    CHECK_THAT(bench.text(), Catch::Contains("load:"));

    // An ElephantEye file through the same commands.
    writeFile(dir.file("BOOK.DAT"), eleEyeBytes({{0x052656D5, 0xA7AA, 1473}}));
    auto ee = runTool({"probe", dir.file("BOOK.DAT"), "startpos"});
    CHECK(ee.code == 0);
    CHECK_THAT(ee.text(), Catch::Contains("ElephantEye"));
    CHECK_THAT(ee.text(), Catch::Contains("lock: 0x052656d5"));
    CHECK_THAT(ee.text(), Catch::Contains("h2e2    1473  100.0%"));
    auto eeDump = runTool({"dump", dir.file("BOOK.DAT")});
    CHECK(eeDump.code == 0);
    CHECK_THAT(eeDump.text(), Catch::Contains("052656d5 h2e2 1473"));

    SECTION("bad arguments and errors exit non-zero with a message") {
        const std::vector<std::vector<std::string>> usage = {
            {}, {"frobnicate"}, {"build"}, {"build", "a"}, {"probe", book}, {"dump"}, {"bench"},
        };
        for (const auto& args : usage) {
            auto run = runTool(args);
            CHECK(run.code == 2);
            CHECK_THAT(run.text(), Catch::Contains("usage:"));
        }
        auto badFen = runTool({"probe", book, "not-a-fen", "w"});
        CHECK(badFen.code == 2);
        CHECK_THAT(badFen.text(), Catch::Contains("FEN"));
        auto badMove = runTool({"probe", book, "startpos", "h2e3"});
        CHECK(badMove.code == 2);
        CHECK_THAT(badMove.text(), Catch::Contains("'h2e3' is illegal"));
        auto missing = runTool({"probe", dir.file("missing.bin"), "startpos"});
        CHECK(missing.code == 1);
        CHECK_THAT(missing.text(), Catch::Contains("no such file"));
        CHECK(runTool({"dump", dir.file("missing.bin")}).code == 1);
        CHECK(runTool({"bench", dir.file("missing.bin")}).code == 1);
        writeFile(dir.file("bad.txt"), "5 | x | h2e3\n");
        auto badBuild = runTool({"build", dir.file("bad.txt"), dir.file("bad.bin")});
        CHECK(badBuild.code == 1);
        CHECK_THAT(badBuild.text(), Catch::Contains("bad.txt:1: move 1 'h2e3' is illegal"));
        auto help = runTool({"help"});
        CHECK(help.code == 0);
        CHECK_THAT(help.text(), Catch::Contains("usage:"));
    }
}
