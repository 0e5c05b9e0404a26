// Opening books. Both supported formats are a sorted array of fixed-size
// records (position key, move, weight) that is read into memory whole and
// searched by binary search; see books/README.md for the byte layouts.
//
//   Chariot:      "CHARBOOK" header + 12-byte records keyed by Position::key(),
//                 built from books/openings.txt by buildBook().
//   ElephantEye:  headerless 8-byte records keyed by ElephantEye's 32-bit
//                 Zobrist lock (BOOK.DAT, also shipped with XQWizard).
//
// Both formats fold left-right mirror images into one form, so a lookup that
// misses retries with the mirrored position and mirrors the moves back.

#include "chariot/book.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>
#include <unistd.h>

#include "chariot/movegen.h"

namespace chariot {

namespace {

// ---------------------------------------------------------------------------
// Chariot binary format (version 1). All integers little-endian.
//   header  16 bytes: magic "CHARBOOK", uint32 version, uint32 record count
//   record  12 bytes: uint64 key, uint16 move (Move::raw()), uint16 weight
// Records are sorted by key ascending; within a key by weight descending,
// then move ascending (the reader relies only on the key order).

constexpr std::array<char, 8> Magic = {'C', 'H', 'A', 'R', 'B', 'O', 'O', 'K'};
constexpr uint32_t FormatVersion = 1;
constexpr size_t HeaderBytes = 16;
constexpr size_t RecordBytes = 12;
constexpr size_t EleEyeRecordBytes = 8;
// No real book comes near this; the cap turns a wrong path (a disk image, a
// log file) into an error instead of a multi-gigabyte allocation.
constexpr uintmax_t MaxBookBytes = uintmax_t(1) << 30;

constexpr uint32_t MaxRecordWeight = 65535;  // what a uint16 weight field can hold
constexpr int MinLineWeight = 1, MaxLineWeight = 1000;

uint16_t readLe16(const unsigned char* p) { return uint16_t(p[0] | p[1] << 8); }
uint32_t readLe32(const unsigned char* p) { return uint32_t(readLe16(p)) | uint32_t(readLe16(p + 2)) << 16; }
uint64_t readLe64(const unsigned char* p) { return uint64_t(readLe32(p)) | uint64_t(readLe32(p + 4)) << 32; }

// Appends the `bytes` low bytes of v, least significant first (independent of
// the host's byte order).
void appendLe(std::string& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xFF);
}

// One record in memory, for either format (an ElephantEye lock is zero-extended).
struct Entry {
    uint64_t key;
    uint16_t move;    // raw, in the file's own move encoding
    uint16_t weight;
};

constexpr Piece pieceFromIndex(int pi) { return makePiece(Color(pi / 7), PieceType(pi % 7)); }
static_assert(pieceIndex(pieceFromIndex(7)) == 7 && pieceFromIndex(13) == Piece::BlackPawn);

// Calls f(pieceIndex, square) for every piece on the board, via the piece
// lists (32 entries at most, cheaper than scanning 90 squares).
template <class F>
void forEachPiece(const Position& pos, F&& f) {
    for (int pi = 0; pi < PieceIndexCount; ++pi) {
        const Piece p = pieceFromIndex(pi);
        const Square* sq = pos.squares(p);
        for (int i = 0; i < pos.count(p); ++i) f(pi, sq[i]);
    }
}

// Position::key() of the position's mirror image, without building it
// (Position::mirrored() allocates its undo history; a probe should not).
uint64_t mirrorKey(const Position& pos) {
    uint64_t key = pos.sideToMove() == Color::Black ? tables::Zobrist.blackToMove : 0;
    forEachPiece(pos, [&](int pi, Square s) { key ^= tables::Zobrist.piece[pi][index(mirrorSquare(s))]; });
    return key;
}

// ---------------------------------------------------------------------------
// ElephantEye's Zobrist locks. Its keys come from an RC4 keystream with an
// all-zero key; each table slot takes three 32-bit words {Key, Lock0, Lock1}
// and only Lock1 is stored in BOOK.DAT, so only Lock1 is kept here. The
// table must match bit for bit, hence a faithful RC4 rather than our own PRNG.
// (It is computed once at first use: about 43,000 keystream bytes, beyond
// clang's default constexpr step limit.)

class Rc4 {
public:
    Rc4() {
        for (int i = 0; i < 256; ++i) s_[i] = uint8_t(i);
        // Key scheduling with a key of zero bytes: the key term drops out.
        uint8_t j = 0;
        for (int i = 0; i < 256; ++i) {
            j = uint8_t(j + s_[i]);
            std::swap(s_[i], s_[j]);
        }
    }
    uint8_t nextByte() {
        x_ = uint8_t(x_ + 1);
        y_ = uint8_t(y_ + s_[x_]);
        std::swap(s_[x_], s_[y_]);
        return s_[uint8_t(s_[x_] + s_[y_])];
    }
    // Four keystream bytes, the first one least significant.
    uint32_t nextLong() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(nextByte()) << (8 * i);
        return v;
    }

private:
    std::array<uint8_t, 256> s_{};
    uint8_t x_ = 0, y_ = 0;
};

struct EleEyeLocks {
    uint32_t blackToMove = 0;
    // [piece type 0..13 = red K A B N R C P, black K A B N R C P][EE square]:
    // the same order as Chariot's pieceIndex().
    std::array<std::array<uint32_t, 256>, PieceIndexCount> piece{};
};

EleEyeLocks makeEleEyeLocks() {
    EleEyeLocks locks;
    Rc4 rc4;
    // Each slot is {Key, Lock0, Lock1}: skip the first two words.
    auto lock1 = [&rc4] {
        rc4.nextLong();
        rc4.nextLong();
        return rc4.nextLong();
    };
    locks.blackToMove = lock1();
    for (auto& table : locks.piece)
        for (auto& slot : table) slot = lock1();  // all 256 squares, off-board too, to keep the stream in step
    return locks;
}

const EleEyeLocks& eleEye() {
    static const EleEyeLocks locks = makeEleEyeLocks();  // thread-safe one-time initialisation
    return locks;
}

// ElephantEye numbers the 16x16 board from the top (y = 3 is black's back
// rank), Chariot from the bottom (rank 0 at y = 3): y_ee = 15 - y, i.e. only
// the high nibble flips. Valid for on-board squares.
constexpr int toEleEyeSquare(Square s) { return index(s) ^ 0xF0; }
static_assert(toEleEyeSquare(makeSquare(7, 2)) == 0xAA && toEleEyeSquare(makeSquare(4, 2)) == 0xA7);
static_assert(toEleEyeSquare(makeSquare(0, 9)) == 0x33 && toEleEyeSquare(makeSquare(8, 0)) == 0xCB);

uint32_t eleEyeMirrorLock(const Position& pos) {
    const EleEyeLocks& ee = eleEye();
    uint32_t lock = pos.sideToMove() == Color::Black ? ee.blackToMove : 0;
    forEachPiece(pos, [&](int pi, Square s) { lock ^= ee.piece[pi][toEleEyeSquare(mirrorSquare(s))]; });
    return lock;
}

// ---------------------------------------------------------------------------
// The in-memory book, shared by both formats.

class TableBook final : public Book {
public:
    TableBook(Format format, std::vector<Entry> entries) : format_(format), entries_(std::move(entries)) {}

    std::vector<BookMove> probe(const Position& pos) const override;
    size_t size() const override { return entries_.size(); }
    Format format() const override { return format_; }

    const std::vector<Entry>& entries() const { return entries_; }
    // The stored move as a Chariot move; none() if a square is off the board.
    Move decode(uint16_t raw) const {
        if (format_ == Format::ElephantEye) return fromElephantEyeMove(raw);
        Move m = Move::fromRaw(raw);
        return tables::inBoard(m.from()) && tables::inBoard(m.to()) ? m : Move::none();
    }

private:
    // Records with this key: [first, last).
    std::pair<const Entry*, const Entry*> find(uint64_t key) const {
        const Entry* begin = entries_.data();
        const Entry* end = begin + entries_.size();
        const Entry* first =
            std::lower_bound(begin, end, key, [](const Entry& e, uint64_t k) { return e.key < k; });
        const Entry* last = first;
        while (last != end && last->key == key) ++last;  // a position has a handful of records
        return {first, last};
    }

    Format format_;
    std::vector<Entry> entries_;
};

std::vector<BookMove> TableBook::probe(const Position& pos) const {
    const bool isEleEye = format_ == Format::ElephantEye;
    auto [first, last] = find(isEleEye ? elephantEyeLock(pos) : pos.key());
    bool viaMirror = false;
    if (first == last) {
        std::tie(first, last) = find(isEleEye ? eleEyeMirrorLock(pos) : mirrorKey(pos));
        viaMirror = true;
    }
    std::vector<BookMove> moves;
    if (first == last) return moves;

    // Our builder stores a symmetric position once, with the moves exactly as
    // the source lines give them (h2e2 but not b2e2). The position is its own
    // mirror, so every record speaks for its mirror-image move too. BOOK.DAT
    // already holds both forms (MAKEBOOK writes them), so it is read as is.
    const bool addMirrorMoves = !isEleEye && !viaMirror && mirrorKey(pos) == pos.key();

    // Duplicate moves (a lock collision in BOOK.DAT, or a move and its own
    // mirror image) are merged by adding their weights.
    auto add = [&](Move m, int weight) {
        if (!pos.isPseudoLegal(m) || !pos.isLegal(m)) return;  // collision or corrupt record
        for (BookMove& bm : moves)
            if (bm.move == m) {
                bm.weight += weight;
                return;
            }
        moves.push_back({m, weight});
    };
    for (const Entry* e = first; e != last; ++e) {
        Move m = decode(e->move);
        if (m.isNone()) continue;
        if (viaMirror) m = m.mirrored();
        add(m, e->weight);
        if (addMirrorMoves) add(m.mirrored(), e->weight);
    }

    // Heaviest first; equal weights in ICCS text order, so output is stable.
    auto iccsOrder = [](Move m) {
        return ((fileOf(m.from()) * 10 + rankOf(m.from())) * 10 + fileOf(m.to())) * 10 + rankOf(m.to());
    };
    std::sort(moves.begin(), moves.end(), [&](const BookMove& a, const BookMove& b) {
        return a.weight != b.weight ? a.weight > b.weight : iccsOrder(a.move) < iccsOrder(b.move);
    });
    return moves;
}

// Checks that keys never decrease (what the binary search needs).
std::optional<std::string> checkSorted(const std::vector<Entry>& entries) {
    for (size_t i = 1; i < entries.size(); ++i)
        if (entries[i].key < entries[i - 1].key)
            return fmt::format("records are not sorted by key: record {} (key {:#x}) comes after key {:#x}", i,
                               entries[i].key, entries[i - 1].key);
    return std::nullopt;
}

std::unique_ptr<TableBook> parseBook(const std::vector<unsigned char>& bytes, std::string& error) {
    const size_t size = bytes.size();
    const unsigned char* data = bytes.data();
    const bool magic = size >= Magic.size() && std::memcmp(data, Magic.data(), Magic.size()) == 0;
    std::vector<Entry> entries;

    if (magic) {
        if (size < HeaderBytes) {
            error = fmt::format("truncated Chariot book: {} bytes, the header alone is {}", size, HeaderBytes);
            return nullptr;
        }
        const uint32_t version = readLe32(data + 8);
        if (version != FormatVersion) {
            error = fmt::format("unsupported Chariot book version {} (this build reads version {})", version,
                                FormatVersion);
            return nullptr;
        }
        const uint64_t count = readLe32(data + 12);
        const uint64_t expected = HeaderBytes + count * RecordBytes;
        if (size < expected) {
            error = fmt::format("truncated Chariot book: the header announces {} records ({} bytes) but the file "
                                "has {} bytes",
                                count, expected, size);
            return nullptr;
        }
        if (size > expected) {
            error = fmt::format("corrupt Chariot book: {} bytes after the {} records the header announces",
                                size - expected, count);
            return nullptr;
        }
        entries.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const unsigned char* r = data + HeaderBytes + i * RecordBytes;
            entries[i] = {readLe64(r), readLe16(r + 8), readLe16(r + 10)};
        }
    } else {
        if (size == 0) {
            error = "the book file is empty";
            return nullptr;
        }
        if (size < Magic.size() && std::memcmp(data, Magic.data(), size) == 0) {
            error = fmt::format("truncated Chariot book: {} bytes, the header alone is {}", size, HeaderBytes);
            return nullptr;
        }
        if (size % EleEyeRecordBytes != 0) {
            error = fmt::format("not a book: no CHARBOOK header, and the size ({} bytes) is not a multiple of 8 "
                                "as an ElephantEye BOOK.DAT would be",
                                size);
            return nullptr;
        }
        entries.resize(size / EleEyeRecordBytes);
        for (size_t i = 0; i < entries.size(); ++i) {
            const unsigned char* r = data + i * EleEyeRecordBytes;
            entries[i] = {readLe32(r), readLe16(r + 4), readLe16(r + 6)};
        }
    }
    // A misordered file would make the binary search miss positions silently;
    // it is a corrupt or foreign file, so refuse it rather than guess.
    if (auto unsorted = checkSorted(entries)) {
        error = *unsorted;
        return nullptr;
    }
    return std::make_unique<TableBook>(magic ? Book::Format::Chariot : Book::Format::ElephantEye,
                                       std::move(entries));
}

std::unique_ptr<TableBook> loadTable(const std::string& path, std::string& error) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        error = fmt::format("cannot open book '{}': {}", path,
                            fs::exists(path, ec) ? "not a regular file" : "no such file");
        return nullptr;
    }
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        error = fmt::format("cannot open book '{}': {}", path, ec.message());
        return nullptr;
    }
    if (size > MaxBookBytes) {
        error = fmt::format("book '{}' is {} bytes, more than the {} a book may have", path, size, MaxBookBytes);
        return nullptr;
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> bytes(size);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size))) {
        error = fmt::format("cannot read book '{}'", path);
        return nullptr;
    }
    auto book = parseBook(bytes, error);
    if (!book) error = fmt::format("book '{}': {}", path, error);
    return book;
}

// ---------------------------------------------------------------------------
// Building from the text source.

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool isIccsMove(std::string_view t) {
    return t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' && t[1] <= '9' && t[2] >= 'a' &&
           t[2] <= 'i' && t[3] >= '0' && t[3] <= '9';
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
    auto [end, ec] = std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), weight);
    if (ec != std::errc() || end != fields[0].data() + fields[0].size() || weight < MinLineWeight ||
        weight > MaxLineWeight)
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
    if (args.size() >= 2 && (args[1] == "startpos" || isBoard(args[1]))) args.insert(args.begin() + 1, defaultBookPath());
    if (args.size() < 3) return bookUsage(print), 2;
    // The position: "startpos", one argument holding a whole FEN, or a FEN
    // split over several arguments (up to "moves" or the first ICCS move).
    Position pos;
    size_t i = 3;
    if (args[2] != "startpos") {
        std::string fen = args[2];
        if (fen.find(' ') == std::string::npos)
            for (; i < args.size() && args[i] != "moves" && Move::parse(args[i]).isNone(); ++i) fen += " " + args[i];
        if (auto error = pos.setFen(fen)) {
            print(fmt::format("book probe: {}", *error));
            return 2;
        }
    }
    if (i < args.size() && args[i] == "moves") ++i;
    for (; i < args.size(); ++i) {
        Move m = pos.parseLegalMove(args[i]);
        if (!m) {
            print(fmt::format("book probe: move '{}' is not legal in {}", args[i], pos.fen()));
            return 2;
        }
        pos.makeMove(m);
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
    auto book = loadTable(args[1], error);
    if (!book) return print(fmt::format("book dump: {}", error)), 1;
    const bool isEleEye = book->format() == Book::Format::ElephantEye;
    print(fmt::format("# {} ({}, {} records): {} move weight", args[1], formatName(book->format()), book->size(),
                      isEleEye ? "lock" : "key"));
    for (const Entry& e : book->entries()) {
        Move m = book->decode(e.move);
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
    std::unique_ptr<TableBook> book;
    double best = 1e300, sum = 0;
    int loads = 0;
    const auto loadStart = Clock::now();
    do {
        const auto t0 = Clock::now();
        book = loadTable(args[1], error);
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

std::unique_ptr<Book> Book::load(const std::string& path, std::string& error) { return loadTable(path, error); }

Move pickBookMove(const std::vector<BookMove>& moves, uint64_t random) {
    uint64_t total = 0;
    for (const BookMove& bm : moves) total += uint64_t(std::max(bm.weight, 0));
    if (total == 0) return Move::none();
    // Weights sum to far less than 2^32, so the modulo bias is below 2^-32.
    uint64_t r = random % total;
    for (const BookMove& bm : moves) {
        const uint64_t w = uint64_t(std::max(bm.weight, 0));
        if (r < w) return bm.move;
        r -= w;
    }
    return Move::none();  // unreachable: r < total
}

std::optional<std::string> buildBook(const std::string& sourcePath, const std::string& outPath,
                                     BookBuildStats* stats) {
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
    std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        return a.key != b.key ? a.key < b.key : a.move < b.move;
    });
    std::vector<Entry> records;
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
    std::stable_sort(records.begin(), records.end(), [](const Entry& a, const Entry& b) {
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
    for (const Entry& e : records) {
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

uint32_t elephantEyeLock(const Position& pos) {
    const EleEyeLocks& ee = eleEye();
    uint32_t lock = pos.sideToMove() == Color::Black ? ee.blackToMove : 0;
    forEachPiece(pos, [&](int pi, Square s) { lock ^= ee.piece[pi][toEleEyeSquare(s)]; });
    return lock;
}

uint16_t toElephantEyeMove(Move m) {
    if (!tables::inBoard(m.from()) || !tables::inBoard(m.to()) || m.from() == m.to()) return 0;  // none, null
    return uint16_t(toEleEyeSquare(m.from()) | toEleEyeSquare(m.to()) << 8);
}

Move fromElephantEyeMove(uint16_t raw) {
    // The square flip is its own inverse; off-board squares give none().
    const Square from = Square((raw & 0xFF) ^ 0xF0), to = Square((raw >> 8) ^ 0xF0);
    if (!tables::inBoard(from) || !tables::inBoard(to) || from == to) return Move::none();
    return Move(from, to);
}

std::string defaultBookPath() {
    char buffer[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    std::string dir = ".";
    if (n > 0) {
        const std::string path(buffer, size_t(n));
        const size_t slash = path.rfind('/');
        if (slash != std::string::npos) dir = path.substr(0, slash);
    }
    return dir + "/chariot.book";
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
