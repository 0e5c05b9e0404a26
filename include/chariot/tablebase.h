// Endgame tablebases as the engine sees them: an interface the search and
// the engine call, implemented outside the core (chariot/egtb/, which the
// command line hands to the engine as a loader), so that the core depends on
// no table code and a build without tables runs unchanged.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "chariot/position.h"

namespace chariot {

enum class TbWdl : int8_t { Loss = -1, Draw = 0, Win = 1 };

struct TbResult {
    TbWdl wdl = TbWdl::Draw;
    int dtm = 0;        // plies to mate with best play (Win, Loss); 0 for a draw
    std::string table;  // the material's name, e.g. KRKAABB
};

class TablebaseProber {
public:
    virtual ~TablebaseProber() = default;
    // The side to move's result, or nullopt when the position's material is
    // not in the tables. Cheap (the search calls it after captures).
    virtual std::optional<TbWdl> probeWdl(const Position& pos) const = 0;
    // With the distance to mate (the root, `probe`, analysis).
    virtual std::optional<TbResult> probe(const Position& pos) const = 0;
    // "12 tables" or the like, for messages.
    virtual std::string describe() const = 0;
};

// Opens the tables in a folder; null with `error` set when there are none.
using TablebaseLoader =
    std::function<std::shared_ptr<const TablebaseProber>(const std::string& dir, std::string& error)>;

// Search values of table results: a win the tables prove but too far for a
// mate score ranks below every mate and above every evaluation (the net's is
// clamped below it; the handcrafted one stays far below). The search scores a
// table win reached at ply p ValueTbWin - p (above ValueTbWin - MaxPly).
constexpr Value ValueTbWin = ValueMateInMaxPly - 1;
// The score of a table result at the root: a mate score when the mate is
// within the search's ply range.
constexpr Value tbRootValue(const TbResult& r) {
    if (r.wdl == TbWdl::Draw) return ValueDraw;
    if (r.dtm < MaxPly) return r.wdl == TbWdl::Win ? mateIn(r.dtm) : matedIn(r.dtm);
    return r.wdl == TbWdl::Win ? ValueTbWin : -ValueTbWin;
}

// The mate's distance in moves (of the side that mates) from its distance in plies.
constexpr int tbMateMoves(const TbResult& r) { return (r.dtm + 1) / 2; }

// "KRKAABB: won, mate in 32 moves (63 plies)" for `probe` and analysis.
inline std::string describeTbResult(const TbResult& r) {
    if (r.wdl == TbWdl::Draw) return r.table + ": drawn";
    const int moves = tbMateMoves(r);
    return r.table + (r.wdl == TbWdl::Win ? ": won, mate in " : ": lost, mated in ") + std::to_string(moves) +
           " moves (" + std::to_string(r.dtm) + " plies)";
}

}  // namespace chariot
