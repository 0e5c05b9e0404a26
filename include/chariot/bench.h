// The bench: a fixed-depth search over a fixed list of positions, one
// thread, fresh hash per position. Its total node count is the build's
// search signature; its nodes/second is the speed yardstick.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/types.h"

namespace chariot {

class Engine;
class Position;
struct WorkCaps;

// Which evaluation a bench uses: the engine's default (the NNUE net when one
// is loaded, else the handcrafted evaluation), or one of the two by name
// (`bench ... nnue`, `bench ... hce`).
enum class BenchEval : uint8_t { Default, Nnue, Handcrafted };

struct BenchConfig {
    int depth = 11;
    size_t hashMB = 16;
    int threads = 1;                      // more than one: Lazy SMP, and the node count is no longer a signature
    size_t positions = 0;                 // the first N bench positions only; 0: all (the signature)
    BenchEval eval = BenchEval::Default;  // the signature is the default's: the embedded net
};

struct BenchResult {
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<uint64_t> perPosition;
    std::vector<Move> bestMoves;  // per position, as perPosition
};

const std::vector<std::string_view>& benchPositions();
BenchResult runBench(const BenchConfig& config, const std::function<void(const std::string&)>& print);
// The same on a given engine, which it resets first (table of the run's size,
// cleared; histories cleared; the run's thread count; `usennue` as the
// config's evaluation says), so that the node count is the one a fresh
// engine gives. The engine's other options must be the defaults; its net
// (`evalfile`) is the one an NNUE run uses.
// Lets a session reuse one bench engine instead of starting threads and
// tables at every `bench`.
BenchResult runBench(Engine& engine, const BenchConfig& config, const std::function<void(const std::string&)>& print);

// The arguments of `bench [depth] [hashMB] [threads] [nnue|hce]` (the words
// after `bench`), within the caps: on failure the message, `config` unchanged.
std::optional<std::string> parseBenchArgs(const std::vector<std::string>& args, const WorkCaps& caps,
                                          BenchConfig& config);

// Perft with a line per root move, the total and the speed (the `perft`
// command and `chariot perft`).
uint64_t runPerft(const Position& pos, int depth, const std::function<void(const std::string&)>& print);

}  // namespace chariot
