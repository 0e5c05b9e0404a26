// The byte layout of Chariot's book files and the raw records of a book, as
// the loader (src/book.cpp, in the engine) reads them. Shared with the book
// tools (src/tools/book_tool.cpp: build, dump); engine code uses book.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chariot/book.h"
#include "chariot/position.h"

namespace chariot::bookfile {

// Chariot binary format (version 1). All integers little-endian.
//   header  16 bytes: magic "CHARBOOK", uint32 version, uint32 record count
//   record  12 bytes: uint64 key, uint16 move (Move::raw()), uint16 weight
// Records are sorted by key ascending; within a key by weight descending,
// then move ascending (the reader relies only on the key order).
constexpr std::array<char, 8> Magic = {'C', 'H', 'A', 'R', 'B', 'O', 'O', 'K'};
constexpr uint32_t FormatVersion = 1;
constexpr size_t HeaderBytes = 16;
constexpr size_t RecordBytes = 12;
constexpr uint32_t MaxRecordWeight = 65535;  // what a uint16 weight field can hold

// One record in memory, for either format (an ElephantEye lock is zero-extended).
struct Record {
    uint64_t key;
    uint16_t move;  // raw, in the file's own move encoding
    uint16_t weight;
};

// The records of a book file, in file order.
struct Records {
    Book::Format format;
    std::vector<Record> records;
};

// Reads and checks a book file exactly as Book::load does (same errors).
std::optional<Records> readRecords(const std::string& path, std::string& error);

// A stored move as a Chariot move; none() if a square is off the board.
Move decodeMove(Book::Format format, uint16_t raw);

// Position::key() of the position's mirror image, without building it. A
// Chariot book stores whichever of the two keys is smaller.
uint64_t mirrorKey(const Position& pos);

}  // namespace chariot::bookfile
