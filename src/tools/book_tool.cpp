// The book tools: Chariot's binary book built from the text source
// (books/openings.txt, format in books/README.md), and `chariot book
// build|probe|dump|bench`. Loading and probing are the engine's (book.cpp).

#include "chariot/book_tool.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "chariot/book.h"
#include "chariot/book_format.h"
#include "chariot/movegen.h"
#include "chariot/text.h"

namespace chariot {

using namespace bookfile;

namespace {

constexpr int MinLineWeight = 1, MaxLineWeight = 1000;

// Appends the `bytes` low bytes of v, least significant first (independent of
// the host's byte order).
void appendLe(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xFF);
}

// ---------------------------------------------------------------------------
// Building from the text source.

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool isIccsMove(std::string_view t) {
    return t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' && t[2] <= 'i' &&
           t[3] >= '0' && t[3] <= '9';
}

// A (position, move) occurrence before merging; the weight is a wide sum.
struct Pending {
    uint64_t key;
    uint16_t move;
    uint64_t weight;
};

// Parses one data line and appends its (position, move, weight) occurrences,
// each in mirror-folded form. Returns an error without the "file:line: " prefix.
std::optional<std::string> addLine(std::string_view line, std::vector<Pending>& out) {
    std::array<std::string_view, 3> fields;
    size_t nFields = 0;
    for (size_t start = 0;;) {
        size_t bar = line.find('|', start);
        if (nFields == fields.size())
            return "expected '<weight> | <name> | <moves>': too many '|' (the name may not contain one)";
        fields[nFields++] = trim(line.substr(start, bar == std::string_view::npos ? bar : bar - start));
        if (bar == std::string_view::npos) break;
        start = bar + 1;
    }
    if (nFields != 3) return "expected '<weight> | <name> | <moves>'";

    int weight = 0;
    if (!parseNumber(fields[0], weight, MinLineWeight, MaxLineWeight))
        return fmt::format("weight '{}' is not an integer from {} to {}", fields[0], MinLineWeight, MaxLineWeight);
    if (fields[1].empty()) return "the name is empty";
    const std::string_view moves = fields[2];
    if (moves.empty()) return "the line has no moves";

    Position pos;
    size_t ply = 0;
    for (size_t start = 0; start <= moves.size();) {
        size_t space = moves.find(' ', start);
        if (space == std::string_view::npos) space = moves.size();
        const std::string_view token = moves.substr(start, space - start);
        ++ply;
        if (token.empty()) return fmt::format("moves must be separated by single spaces (before move {})", ply);
        if (!isIccsMove(token))
            return fmt::format("move {} '{}' is not a lower-case ICCS move such as h2e2", ply, token);
        const Move m = pos.parseLegalMove(token);
        if (!m) return fmt::format("move {} '{}' is illegal in {}", ply, token, pos.fen());

        // Store whichever of the position and its mirror image has the smaller
        // key, so the two halves of the board share one set of records.
        const uint64_t key = pos.key(), mkey = mirrorKey(pos);
        if (mkey < key)
            out.push_back({mkey, m.mirrored().raw(), uint64_t(weight)});
        else
            out.push_back({key, m.raw(), uint64_t(weight)});
        pos.makeMove(m);
        start = space + 1;
    }
    return std::nullopt;
}

// ---------------------------------------------------------------------------
// `chariot book ...`

using Print = std::function<void(const std::string&)>;

void bookUsage(const Print& print) {
    print("usage: chariot book build <source.txt> <book.bin>          build a Chariot book from a text source");
    print("       chariot book probe [<book>] <FEN|startpos> [moves ...] book moves of a position");
    print("                                                             (default book: the engine's chariot.book)");
    print("       chariot book dump <book>                              every record: key, move, weight");
    print("       chariot book bench <book>                             time loading and probing");
    print("  <book> is a Chariot book or an ElephantEye BOOK.DAT (detected from the header)");
}

const char* formatName(Book::Format f) { return f == Book::Format::Chariot ? "Chariot" : "ElephantEye BOOK.DAT"; }

int toolBuild(const std::vector<std::string>& args, const Print& print) {
    if (args.size() != 3) return bookUsage(print), 2;
    BookBuildStats stats;
    if (auto error = buildBook(args[1], args[2], &stats)) {
        print(fmt::format("book build: {}", *error));
        return 1;
    }
    print(fmt::format("built {} from {}: {} lines, {} positions, {} records ({} bytes){}", args[2], args[1],
                      stats.lines, stats.positions, stats.records, HeaderBytes + stats.records * RecordBytes,
                      stats.clamped ? fmt::format(", {} weights capped at {}", stats.clamped, MaxRecordWeight) : ""));
    return 0;
}

int toolProbe(std::vector<std::string> args, const Print& print) {
    // The book may be left out: the position then follows 'probe' directly
    // ("startpos", or a FEN board: ten ranks of letters and digits).
    auto isBoard = [](std::string_view text) {
        text = text.substr(0, text.find(' '));
        return std::count(text.begin(), text.end(), '/') == 9 &&
               std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum((unsigned char)c) || c == '/'; });
    };
    if (args.size() >= 2 && (args[1] == "startpos" || isBoard(args[1])))
        args.insert(args.begin() + 1, defaultBookPath());
    if (args.size() < 3) return bookUsage(print), 2;
    // The position: "startpos", one argument holding a whole FEN, or a FEN
    // split over several arguments (up to "moves" or the first ICCS move).
    Position pos;
    PositionText text;
    std::optional<std::string> problem = parsePositionText(args, 2, true, text);
    if (!problem) problem = setupPosition(pos, text.fen, text.moves);
    if (problem) {
        print(fmt::format("book probe: {}", *problem));
        return 2;
    }

    std::string error;
    auto book = Book::load(args[1], error);
    if (!book) return print(fmt::format("book probe: {}", error)), 1;
    print(fmt::format("book: {} ({}, {} records)", args[1], formatName(book->format()), book->size()));
    print(fmt::format("position: {}", pos.fen()));
    print(book->format() == Book::Format::Chariot ? fmt::format("key: {:#018x}", pos.key())
                                                  : fmt::format("lock: {:#010x}", elephantEyeLock(pos)));
    const auto moves = book->probe(pos);
    if (moves.empty()) {
        print("no book moves");
        return 0;
    }
    long total = 0;
    for (const BookMove& bm : moves) total += bm.weight;
    for (const BookMove& bm : moves)
        print(fmt::format("{}  {:>6}  {:5.1f}%", bm.move.toString(), bm.weight,
                          total ? 100.0 * bm.weight / double(total) : 0.0));
    return 0;
}

int toolDump(const std::vector<std::string>& args, const Print& print) {
    if (args.size() != 2) return bookUsage(print), 2;
    std::string error;
    auto book = readRecords(args[1], error);
    if (!book) return print(fmt::format("book dump: {}", error)), 1;
    const bool isEleEye = book->format == Book::Format::ElephantEye;
    print(fmt::format("# {} ({}, {} records): {} move weight", args[1], formatName(book->format), book->records.size(),
                      isEleEye ? "lock" : "key"));
    for (const Record& e : book->records) {
        Move m = decodeMove(book->format, e.move);
        std::string move = m ? m.toString() : fmt::format("?{:04x}", e.move);  // off-board: show the raw bits
        print(isEleEye ? fmt::format("{:08x} {} {}", e.key, move, e.weight)
                       : fmt::format("{:016x} {} {}", e.key, move, e.weight));
    }
    return 0;
}

int toolBench(const std::vector<std::string>& args, const Print& print) {
    using Clock = std::chrono::steady_clock;
    auto micros = [](Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); };
    if (args.size() != 2) return bookUsage(print), 2;

    // Load repeatedly for a stable figure; the first load also warms the page cache.
    std::string error;
    std::unique_ptr<Book> book;
    double best = 1e300, sum = 0;
    int loads = 0;
    const auto loadStart = Clock::now();
    do {
        const auto t0 = Clock::now();
        book = Book::load(args[1], error);
        const double us = micros(Clock::now() - t0);
        if (!book) return print(fmt::format("book bench: {}", error)), 1;
        best = std::min(best, us);
        sum += us;
        ++loads;
    } while (loads < 50 && micros(Clock::now() - loadStart) < 1e6);
    std::error_code ec;
    print(fmt::format("book: {} ({}, {} records, {} bytes)", args[1], formatName(book->format()), book->size(),
                      std::filesystem::file_size(args[1], ec)));
    print(fmt::format("load: {:.3f} ms average, {:.3f} ms best ({} loads)", sum / loads / 1000, best / 1000, loads));

    // Positions to probe: the book tree from the start position (breadth
    // first, each position once), plus for each of them one position reached
    // by a non-book move, which mostly misses (a miss costs both lookups).
    constexpr size_t MaxPositions = 5000;
    std::vector<Position> hits, misses;
    std::unordered_set<uint64_t> seen;
    std::vector<Position> frontier{Position()};
    seen.insert(frontier[0].key());
    while (!frontier.empty() && hits.size() < MaxPositions) {
        std::vector<Position> next;
        for (Position& pos : frontier) {
            const auto moves = book->probe(pos);
            if (moves.empty()) {
                misses.push_back(pos);
                continue;
            }
            hits.push_back(pos);
            if (hits.size() >= MaxPositions) break;
            MoveList legal;
            generateLegal(pos, legal);
            for (Move m : legal) {
                const bool inBook =
                    std::any_of(moves.begin(), moves.end(), [&](const BookMove& b) { return b.move == m; });
                Position child = pos;
                child.makeMove(m);
                if (!inBook) {
                    if (misses.size() < hits.size()) misses.push_back(std::move(child));
                    continue;
                }
                if (seen.insert(child.key()).second) next.push_back(std::move(child));
            }
        }
        frontier = std::move(next);
    }

    auto timeProbes = [&](const std::vector<Position>& positions, const char* what) {
        if (positions.empty()) return;
        constexpr size_t TargetProbes = 200000;
        size_t probes = 0, found = 0;
        const auto t0 = Clock::now();
        while (probes < TargetProbes)
            for (const Position& pos : positions) {
                found += book->probe(pos).size();  // used below, so the probes are not optimised away
                ++probes;
            }
        const double us = micros(Clock::now() - t0);
        print(fmt::format("probe ({}): {} positions, {} probes, {:.3f} us/probe ({:.2f} moves/probe)", what,
                          positions.size(), probes, us / double(probes), double(found) / double(probes)));
    };
    timeProbes(hits, "book positions");
    timeProbes(misses, "positions out of book");
    return 0;
}

}  // namespace

// ---------------------------------------------------------------------------
// Public interface

std::optional<std::string> buildBook(const std::string& sourcePath, const std::string& outPath, BookBuildStats* stats) {
    std::ifstream in(sourcePath);
    if (!in) return fmt::format("cannot open book source '{}'", sourcePath);

    std::vector<Pending> pending;
    BookBuildStats st;
    std::string line;
    for (size_t lineNo = 1; std::getline(in, line); ++lineNo) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // tolerate CRLF files
        if (trim(line).empty() || line[0] == '#') continue;
        if (auto error = addLine(line, pending)) return fmt::format("{}:{}: {}", sourcePath, lineNo, *error);
        ++st.lines;
    }
    if (in.bad()) return fmt::format("error reading book source '{}'", sourcePath);
    if (st.lines == 0) return fmt::format("{}: no data lines", sourcePath);

    // Merge equal (key, move) pairs by summing their weights.
    std::sort(pending.begin(), pending.end(),
              [](const Pending& a, const Pending& b) { return a.key != b.key ? a.key < b.key : a.move < b.move; });
    std::vector<Record> records;
    for (size_t i = 0; i < pending.size();) {
        uint64_t sum = 0;
        size_t j = i;
        for (; j < pending.size() && pending[j].key == pending[i].key && pending[j].move == pending[i].move; ++j)
            sum += pending[j].weight;
        if (sum > MaxRecordWeight) ++st.clamped;
        records.push_back({pending[i].key, pending[i].move, uint16_t(std::min<uint64_t>(sum, MaxRecordWeight))});
        if (records.size() == 1 || records[records.size() - 2].key != pending[i].key) ++st.positions;
        i = j;
    }
    std::stable_sort(records.begin(), records.end(), [](const Record& a, const Record& b) {
        if (a.key != b.key) return a.key < b.key;
        return a.weight != b.weight ? a.weight > b.weight : a.move < b.move;
    });
    st.records = records.size();
    if (records.size() > UINT32_MAX) return fmt::format("{}: more records than the header can count", sourcePath);

    std::string bytes;
    bytes.reserve(HeaderBytes + records.size() * RecordBytes);
    bytes.append(Magic.data(), Magic.size());
    appendLe(bytes, FormatVersion, 4);
    appendLe(bytes, records.size(), 4);
    for (const Record& e : records) {
        appendLe(bytes, e.key, 8);
        appendLe(bytes, e.move, 2);
        appendLe(bytes, e.weight, 2);
    }

    // Write aside and rename, so a failed build never leaves a half-written
    // book where the engine would load it.
    const std::string tmpPath = outPath + ".tmp";
    {
        std::ofstream out(tmpPath, std::ios::binary | std::ios::trunc);
        if (!out || !out.write(bytes.data(), std::streamsize(bytes.size())) || !out.flush())
            return fmt::format("cannot write book '{}'", tmpPath);
    }
    std::error_code ec;
    std::filesystem::rename(tmpPath, outPath, ec);
    if (ec) {
        std::filesystem::remove(tmpPath, ec);
        return fmt::format("cannot write book '{}'", outPath);
    }
    if (stats) *stats = st;
    return std::nullopt;
}

int runBookTool(const std::vector<std::string>& args, const Print& print) {
    if (args.empty()) return bookUsage(print), 2;
    const std::string& cmd = args[0];
    if (cmd == "build") return toolBuild(args, print);
    if (cmd == "probe") return toolProbe(args, print);
    if (cmd == "dump") return toolDump(args, print);
    if (cmd == "bench") return toolBench(args, print);
    if (cmd == "help" || cmd == "--help" || cmd == "-h") return bookUsage(print), 0;
    print(fmt::format("chariot book: unknown command '{}'", cmd));
    bookUsage(print);
    return 2;
}

}  // namespace chariot
