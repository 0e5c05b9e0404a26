// Training data for the evaluation network: self-play games at a fixed node
// limit, stored game by game (a start position, then per ply the move, the
// search score and flags), so that a position costs five bytes.
//
// File format, version 1 (little-endian; docs/nnue.md has the same text):
//   header (32 bytes): "CHRTDATA", u32 version = 1, u32 header bytes = 32,
//                      u64 seed, u32 nodes per move, u32 play nodes (0: every
//                      move searched at the nodes per move; else the nodes of
//                      the moves that are not labels, see PlyFlag::Unlabelled)
//   records, each:     u32 0x454D4147 ("GAME"), u32 payload bytes P,
//                      P payload bytes, u32 CRC-32 (IEEE) of the payload
//   payload:           u64 seed, u64 game index, u8 result (0 black won,
//                      1 draw, 2 red won), u8 termination, u16 plies n,
//                      u8 FEN length L, L bytes of start FEN, then n plies of
//                      u16 move (from + 90 * to, squares rank * 9 + file),
//                      i16 score (internal units, side to move's view; 0 for
//                      opening plies), u8 flags (PlyFlag)
// The start FEN is the standard start position for book openings (the book
// and random plies follow as opening plies) and the chosen position of a
// master game with --starts (only the random plies follow as opening plies).
// A reader stops at the first record that is short or fails its check; the
// generator truncates such a tail when it resumes.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "chariot/types.h"

namespace chariot::datagen {

inline constexpr char FileMagic[8] = {'C', 'H', 'R', 'T', 'D', 'A', 'T', 'A'};
constexpr uint32_t FormatVersion = 1;
constexpr uint32_t HeaderBytes = 32;
constexpr uint32_t RecordMagic = 0x454D4147;  // "GAME" in file order
constexpr size_t PlyBytes = 5;

enum class Result : uint8_t { BlackWin = 0, Draw = 1, RedWin = 2 };
enum class Termination : uint8_t {
    Mate,  // no legal move (checkmate or stalemate: both lose)
    PerpetualCheck,
    PerpetualChase,
    Repetition,  // a draw by repetition
    NoCapture,   // 120 plies without a capture
    DeadDraw,    // neither side has an attacking piece
    MaxPlies,
    AdjudicatedWin,   // both sides' searches agreed on a decisive score
    AdjudicatedDraw,  // a long run of level scores late in the game
};
const char* terminationName(Termination t);

// Per-ply flags.
namespace PlyFlag {
constexpr uint8_t Quiet = 1;  // a training position: searched, not in check, best move quiet, score not decisive
constexpr uint8_t InCheck = 2;
constexpr uint8_t CaptureBest = 4;  // the search's best move captures (the move played, unless relabelled)
constexpr uint8_t Opening = 8;      // a book or random opening ply: not searched, score 0
// Searched only at the file's play nodes to choose the move (datagen --play-nodes):
// its score served adjudication but is no training label, so Quiet is never set.
constexpr uint8_t Unlabelled = 16;
}  // namespace PlyFlag

struct Ply {
    Move move;
    int16_t score = 0;
    uint8_t flags = 0;
};

struct Game {
    uint64_t seed = 0;
    uint64_t index = 0;
    Result result = Result::Draw;
    Termination termination = Termination::MaxPlies;
    std::string startFen;
    std::vector<Ply> plies;
};

// 0..89 square numbers (rank * 9 + file), independent of the padded board.
constexpr int square90(Square s) { return rankOf(s) * 9 + fileOf(s); }
constexpr Square fromSquare90(int n) { return makeSquare(n % 9, n / 9); }

// The whole record (magic, length, payload, check).
std::vector<uint8_t> encodeRecord(const Game& game);
std::vector<uint8_t> encodeHeader(uint64_t seed, uint32_t nodes, uint32_t playNodes = 0);

struct FileHeader {
    uint64_t seed = 0;
    uint32_t nodes = 0;
    uint32_t playNodes = 0;  // 0: every move at `nodes`
};

// Sequential reader of a data file.
class Reader {
public:
    // Opens and checks the header; on failure returns false with `error` set.
    bool open(const std::string& path, std::string& error);
    const FileHeader& header() const { return header_; }
    // The next valid record; nullopt at the end of the file or at the first
    // damaged record (then `damaged()` is true and `goodBytes()` says where
    // the valid data ends).
    std::optional<Game> next();
    bool damaged() const { return damaged_; }
    uint64_t goodBytes() const { return goodBytes_; }
    const std::string& damage() const { return damage_; }

private:
    std::ifstream in_;
    FileHeader header_;
    bool damaged_ = false;
    std::string damage_;
    uint64_t goodBytes_ = 0;
};

// Decodes one payload (for the reader and the tests); nullopt if malformed.
std::optional<Game> decodePayload(const uint8_t* data, size_t size);

// The seconds of a run that its positions/s divide by: wall time less the
// time the process stood still (stopped by SIGSTOP or Ctrl-Z, a suspended
// machine), so that a paused generator's rate stays its working rate. The
// progress loop calls tick() about every 100 ms; a longer gap between two
// ticks than maxGap counts as maxGap, the rest as paused.
class RunClock {
public:
    using Clock = std::chrono::steady_clock;
    explicit RunClock(Clock::time_point start, Clock::duration maxGap = std::chrono::seconds(1))
        : last_(start), maxGap_(maxGap) {}
    void tick(Clock::time_point now) {
        const Clock::duration gap = now - last_, counted = std::min(gap, maxGap_);
        last_ = now;
        running_ += counted;
        paused_ += gap - counted;
    }
    double seconds() const { return std::chrono::duration<double>(running_).count(); }
    double pausedSeconds() const { return std::chrono::duration<double>(paused_).count(); }

private:
    Clock::time_point last_;
    Clock::duration maxGap_;
    Clock::duration running_{0}, paused_{0};
};

// `chariot datagen ...`: generate, merge, check, relabel (the same games
// with every searched position searched again). Messages go to `err`.
int runDatagenTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                   std::ostream& err);

}  // namespace chariot::datagen
