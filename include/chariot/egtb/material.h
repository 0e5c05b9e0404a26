// A tablebase's material: one side (the strong side) with attackers (rooks,
// horses, cannons, pawns) and its own advisors and elephants, the other (the
// bare side) with only advisors and elephants. Tables are built with the
// strong side red; a position where black is strong is probed with its
// colours flipped (chariot/egtb/index.h).
//
// Names: the strong side first, each side as K, then its attackers in the
// order R (rook), H (horse), C (cannon), P (pawn), then A (advisors) and B
// (elephants, the FEN letter), e.g. KRKAABB (rook against full defenders),
// KHPKA, KCAKB. On input N is read as H and E as B, in any letter case.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace chariot::egtb {

enum class Attacker : uint8_t { Rook, Horse, Cannon, Pawn };
constexpr int AttackerKinds = 4;

struct Material {
    std::array<uint8_t, AttackerKinds> attackers{};  // strong side's count per Attacker
    uint8_t strongAdvisors = 0, strongElephants = 0;
    uint8_t weakAdvisors = 0, weakElephants = 0;

    int attackerCount() const { return attackers[0] + attackers[1] + attackers[2] + attackers[3]; }
    std::string name() const;
    // nullopt with `error` set for a name that is not a material this
    // module handles (both sides with attackers, more than two of a piece).
    static std::optional<Material> parse(std::string_view text, std::string& error);
    bool operator==(const Material&) const = default;
};

// The sets `chariot egtb build` makes: every bare defence (0-2 advisors, 0-2
// elephants) against one attacker with any own advisors and elephants, and
// against two attackers other than rooks without own defenders. Sub-tables
// (one piece fewer) come before the tables that capture into them.
std::vector<Material> standardMaterials();

// The materials one capture away (one non-king piece fewer) that still hold
// an attacker: those a generator must have solved first.
std::vector<Material> subMaterials(const Material& m);

}  // namespace chariot::egtb
