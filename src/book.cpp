// Opening books. Both supported formats are a sorted array of fixed-size
// records (position key, move, weight) that is read into memory whole and
// searched by binary search; see books/README.md for the byte layouts.
//
//   Chariot:      "CHARBOOK" header + 12-byte records keyed by Position::key(),
//                 built from books/openings.txt by buildBook() (the book
//                 tools, src/tools/book_tool.cpp).
//   ElephantEye:  headerless 8-byte records keyed by ElephantEye's 32-bit
//                 Zobrist lock (BOOK.DAT, also shipped with XQWizard).
//
// Both formats fold left-right mirror images into one form, so a lookup that
// misses retries with the mirrored position and mirrors the moves back.

#include "chariot/book.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "chariot/book_format.h"
#include "chariot/platform.h"

namespace chariot {

using namespace bookfile;

namespace {

// The Chariot format's layout is in book_format.h.
constexpr size_t EleEyeRecordBytes = 8;
// No real book comes near this; the cap turns a wrong path (a disk image, a
// log file) into an error instead of a multi-gigabyte allocation.
constexpr uintmax_t MaxBookBytes = uintmax_t(1) << 30;

uint16_t readLe16(const unsigned char* p) { return uint16_t(p[0] | p[1] << 8); }
uint32_t readLe32(const unsigned char* p) { return uint32_t(readLe16(p)) | uint32_t(readLe16(p + 2)) << 16; }
uint64_t readLe64(const unsigned char* p) { return uint64_t(readLe32(p)) | uint64_t(readLe32(p + 4)) << 32; }

using Entry = Record;

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

private:
    // Records with this key: [first, last).
    std::pair<const Entry*, const Entry*> find(uint64_t key) const {
        const Entry* begin = entries_.data();
        const Entry* end = begin + entries_.size();
        const Entry* first = std::lower_bound(begin, end, key, [](const Entry& e, uint64_t k) { return e.key < k; });
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
        Move m = decodeMove(format_, e->move);
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

std::optional<Records> parseBook(const std::vector<unsigned char>& bytes, std::string& error) {
    const size_t size = bytes.size();
    const unsigned char* data = bytes.data();
    const bool magic = size >= Magic.size() && std::memcmp(data, Magic.data(), Magic.size()) == 0;
    std::vector<Entry> entries;

    if (magic) {
        if (size < HeaderBytes) {
            error = fmt::format("truncated Chariot book: {} bytes, the header alone is {}", size, HeaderBytes);
            return std::nullopt;
        }
        const uint32_t version = readLe32(data + 8);
        if (version != FormatVersion) {
            error = fmt::format("unsupported Chariot book version {} (this build reads version {})", version,
                                FormatVersion);
            return std::nullopt;
        }
        const uint64_t count = readLe32(data + 12);
        const uint64_t expected = HeaderBytes + count * RecordBytes;
        if (size < expected) {
            error = fmt::format(
                "truncated Chariot book: the header announces {} records ({} bytes) but the file "
                "has {} bytes",
                count, expected, size);
            return std::nullopt;
        }
        if (size > expected) {
            error = fmt::format("corrupt Chariot book: {} bytes after the {} records the header announces",
                                size - expected, count);
            return std::nullopt;
        }
        entries.resize(count);
        for (size_t i = 0; i < count; ++i) {
            const unsigned char* r = data + HeaderBytes + i * RecordBytes;
            entries[i] = {readLe64(r), readLe16(r + 8), readLe16(r + 10)};
        }
    } else {
        if (size == 0) {
            error = "the book file is empty";
            return std::nullopt;
        }
        if (size < Magic.size() && std::memcmp(data, Magic.data(), size) == 0) {
            error = fmt::format("truncated Chariot book: {} bytes, the header alone is {}", size, HeaderBytes);
            return std::nullopt;
        }
        if (size % EleEyeRecordBytes != 0) {
            error = fmt::format(
                "not a book: no CHARBOOK header, and the size ({} bytes) is not a multiple of 8 "
                "as an ElephantEye BOOK.DAT would be",
                size);
            return std::nullopt;
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
        return std::nullopt;
    }
    return Records{magic ? Book::Format::Chariot : Book::Format::ElephantEye, std::move(entries)};
}

std::optional<Records> loadRecords(const std::string& path, std::string& error) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        error = fmt::format("cannot open book '{}': {}", path,
                            fs::exists(path, ec) ? "not a regular file" : "no such file");
        return std::nullopt;
    }
    const uintmax_t size = fs::file_size(path, ec);
    if (ec) {
        error = fmt::format("cannot open book '{}': {}", path, ec.message());
        return std::nullopt;
    }
    if (size > MaxBookBytes) {
        error = fmt::format("book '{}' is {} bytes, more than the {} a book may have", path, size, MaxBookBytes);
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<unsigned char> bytes(size);
    if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size))) {
        error = fmt::format("cannot read book '{}'", path);
        return std::nullopt;
    }
    auto records = parseBook(bytes, error);
    if (!records) error = fmt::format("book '{}': {}", path, error);
    return records;
}

}  // namespace

// ---------------------------------------------------------------------------
// Public interface

std::unique_ptr<Book> Book::load(const std::string& path, std::string& error) {
    auto records = loadRecords(path, error);
    if (!records) return nullptr;
    return std::make_unique<TableBook>(records->format, std::move(records->records));
}

std::optional<Records> bookfile::readRecords(const std::string& path, std::string& error) {
    return loadRecords(path, error);
}

Move bookfile::decodeMove(Book::Format format, uint16_t raw) {
    if (format == Book::Format::ElephantEye) return fromElephantEyeMove(raw);
    Move m = Move::fromRaw(raw);
    return tables::inBoard(m.from()) && tables::inBoard(m.to()) ? m : Move::none();
}

// Position::mirrored() would allocate its undo history; a probe should not.
uint64_t bookfile::mirrorKey(const Position& pos) {
    uint64_t key = pos.sideToMove() == Color::Black ? tables::Zobrist.blackToMove : 0;
    forEachPiece(pos, [&](int pi, Square s) { key ^= tables::Zobrist.piece[pi][index(mirrorSquare(s))]; });
    return key;
}

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

std::string defaultBookPath() { return platform::executableDir() + "/chariot.book"; }

}  // namespace chariot
