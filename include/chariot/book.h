// Opening books: Chariot's own binary format (built from books/openings.txt)
// and ElephantEye's BOOK.DAT, both looked up by binary search on a sorted
// array of fixed-size records, with left-right mirror lookup. Building and
// inspecting books is left to the book tools (book_tool.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chariot/position.h"

namespace chariot {

struct BookMove {
    Move move;
    int weight = 0;
};

class Book {
public:
    enum class Format : uint8_t { Chariot, ElephantEye };

    virtual ~Book() = default;
    // Loads a book file, detecting its format (Chariot's files start with a
    // magic header; anything else of a size that is a multiple of 8 is read
    // as ElephantEye BOOK.DAT). On failure returns nullptr and sets `error`.
    static std::unique_ptr<Book> load(const std::string& path, std::string& error);

    // Legal book moves for `pos` (looked up directly, else through the
    // mirror image, moves mirrored back), highest weight first. Records whose
    // move is illegal here (hash collisions, corrupt data) are dropped.
    virtual std::vector<BookMove> probe(const Position& pos) const = 0;
    virtual size_t size() const = 0;  // records
    virtual Format format() const = 0;
};

// Picks a move with probability proportional to its weight; `random` is any
// 64-bit random number (the caller owns the generator, so tests can seed it).
// Returns none() for an empty list or all-zero weights.
Move pickBookMove(const std::vector<BookMove>& moves, uint64_t random);

// ElephantEye's 32-bit lock (third word of its 96-bit Zobrist key) for a
// position, as used by BOOK.DAT.
uint32_t elephantEyeLock(const Position& pos);
// A move in ElephantEye's 16-bit encoding (src | dst << 8 on its 16x16 board), and back.
uint16_t toElephantEyeMove(Move m);
Move fromElephantEyeMove(uint16_t raw);

// The book the engine loads by default: chariot.book next to the executable
// (the build puts it there).
std::string defaultBookPath();

}  // namespace chariot
