// The check of a solved table against the engine's own rules (its FEN
// validation and move generator, not the generator's): every index the
// generator calls broken is a position the engine refuses and every other
// one it accepts; every won position has a move to a position lost one ply
// sooner and none to a shorter loss; in a lost one every move leads to a won
// position, the longest one ply shorter (no move at all: lost in 0); in a
// drawn one some move keeps the draw and none wins; mirror images agree.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "chariot/egtb/generator.h"

namespace chariot::egtb {

struct VerifyResult {
    uint64_t checked = 0;  // indices looked at (both sides to move)
    uint64_t errors = 0;
    std::vector<std::string> examples;  // the first few faults, with their FEN
};

// Checks every stride-th index of t; `lookup` must find t itself and its
// sub-tables.
VerifyResult verifyTable(const Table& t, const TableLookup& lookup, int threads, uint64_t stride = 1,
                         const std::function<void(double)>& progress = nullptr);

}  // namespace chariot::egtb
