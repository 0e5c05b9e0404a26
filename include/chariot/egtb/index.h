// Position <-> index for one material (chariot/egtb/material.h), strong
// side red. Squares here are 0..89 (rank * 9 + file, files a..i = 0..8, ranks
// from red's side), not the engine's padded squares.
//
// An index is a mixed-radix number over the piece groups, most significant
// first: the strong king on files d/e (6 squares: left-right symmetry puts
// any king on f..i on d..f by mirroring the board), the bare king (9 palace
// squares), the strong advisors (5 points) and elephants (7 points), the bare
// side's, then rooks, horses, cannons (90 squares) and pawns (55 squares: the
// five files' starting and next ranks, then all 45 beyond the river). Two
// pieces of a kind are one unordered pair (C(n, 2) values). A position with
// the strong king on the e-file and its mirror image are two indices, both
// kept (a duplicate of a twelfth of the table, and no special cases).
// Indices that do not stand for a legal position (two pieces on a square,
// the side not to move in check) are marked broken by the generator.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "chariot/egtb/material.h"

namespace chariot::egtb {

constexpr int SquareCount = 90;
constexpr int sqFile(int s) { return s % 9; }
constexpr int sqRank(int s) { return s / 9; }
constexpr int makeSq(int file, int rank) { return rank * 9 + file; }
constexpr int mirrorSq(int s) { return s + 8 - 2 * (s % 9); }    // file f <-> 8 - f
constexpr int flipSq(int s) { return (9 - s / 9) * 9 + s % 9; }  // rank r <-> 9 - r

// The piece groups, in index order (strong = red, bare = black).
enum Kind : uint8_t {
    StrongKing,
    WeakKing,
    StrongAdvisor,
    StrongElephant,
    WeakAdvisor,
    WeakElephant,
    RookKind,
    HorseKind,
    CannonKind,
    PawnKind,
};
constexpr int KindCount = 10;
constexpr Kind attackerKind(Attacker a) { return Kind(RookKind + int(a)); }

// Where the pieces stand, by group (at most two a group).
struct Placement {
    std::array<uint8_t, KindCount> count{};
    std::array<std::array<uint8_t, 2>, KindCount> sq{};
    void add(int kind, int s) { sq[size_t(kind)][count[size_t(kind)]++] = uint8_t(s); }
};

class Indexer {
public:
    explicit Indexer(const Material& m);
    const Material& material() const { return material_; }
    // Indices per side to move.
    uint64_t size() const { return size_; }
    // The index of p (mirrored when the strong king is on f..i), or -1 when
    // p's counts are not the material's or a piece stands off its squares.
    int64_t encode(const Placement& p) const;
    // The placement of idx (strong king on d/e); false when two pieces share
    // a square (a broken index).
    bool decode(uint64_t idx, Placement& p) const;

private:
    struct Group {
        Kind kind;
        int count;
        uint64_t stride;
        int domain;  // squares the kind may stand on
    };
    Material material_;
    std::vector<Group> groups_;
    uint64_t size_ = 1;
};

// The number of squares a kind may stand on, and the square <-> local tables.
int kindDomain(Kind k);
int kindLocal(Kind k, int sq);  // -1: not a square of the kind
int kindSquare(Kind k, int local);

}  // namespace chariot::egtb
