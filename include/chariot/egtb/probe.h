// From an engine position to a table's index and back: which material, which
// placement (colours flipped when black is the strong side) and which side to
// move, in the tables' terms.
#pragma once

#include <optional>
#include <string>

#include "chariot/egtb/generator.h"
#include "chariot/egtb/index.h"
#include "chariot/egtb/material.h"
#include "chariot/position.h"

namespace chariot::egtb {

struct TableKey {
    Material material;
    Placement placement;  // strong side as red
    int stm = StrongToMove;
    bool flipped = false;  // black is the strong side in the position
};

// nullopt unless exactly one side has attackers (one or two), the other only
// advisors and elephants, and no side more than two of a kind.
std::optional<TableKey> tableKey(const Position& pos);

// The FEN of a table position (strong side red), for the engine's checks.
std::string fenOf(const Placement& p, int stm);

// The value of pos from the tables `lookup` finds (its side to move's view),
// or nullopt when its material is not there. With no attacker on either side
// the answer is a draw.
std::optional<uint16_t> probeValue(const Position& pos, const TableLookup& lookup);

}  // namespace chariot::egtb
