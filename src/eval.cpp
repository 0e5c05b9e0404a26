#include "chariot/eval.h"
#include "chariot/eval_weights.h"

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

namespace chariot {

using namespace tables;

namespace {

// --- weights: the shipped EvalParams (eval_weights.h), plus the counts that
// are not weights (they pick table rows rather than add up linearly) --------
constexpr const EvalParams& W = DefaultEvalParams;
constexpr int PhaseWeight[PieceTypeCount] = {0, 0, 0, 3, 6, 3, 0};  // horses, rooks, cannons

// Rook/cannon quiet squares and the first piece met (or the off-board square
// past the edge) going from `from` in direction Dir.
template <int Dir>
inline Square scan(const Position& pos, Square from, int& empties) {
    const Square t = pos.nextOccupied<Dir>(from);
    empties += (index(t) - index(from)) / Dir - 1;
    return t;
}

enum Term : int { Mobility, KingSafety, Pieces, TermCount };

// Where evaluateSide puts the weights it uses. The engine sums them per term;
// the tuner's trace counts how often each weight is used.
struct SideTerms {
    Score term[TermCount];
    void add(Term t, const Score& w, int n = 1) { term[t] += w * n; }
};
struct WeightCounter {
    int16_t* coef;
    int sign;  // +1 for red's terms, -1 for black's
    void add(Term, const Score& w, int n = 1) { coef[paramIndex(W, w)] += int16_t(sign * n); }
};

// Terms for colour `us` (positive = good for us), given to `t.add`.
template <typename Sink>
void evaluateSide(const Position& pos, Color us, Knowledge knowledge, Sink& t) {
    const Color them = ~us;

    // Horses: count jumps whose leg is free and whose target is not our own piece.
    const Piece horse = makePiece(us, PieceType::Horse);
    for (int i = 0; i < pos.count(horse); ++i) {
        Square from = pos.squares(horse)[i];
        int moves = 0;
        for (const Jump& j : HorseJumps) {
            Piece target = pos.pieceOn(from + j.to);
            moves += pos.isEmpty(from + j.block) && target != Piece::OffBoard && !isColor(target, us);
        }
        t.add(Mobility, W.horseMobility[moves]);
    }

    const Piece rook = makePiece(us, PieceType::Rook);
    const Piece ownPawn = makePiece(us, PieceType::Pawn);
    for (int i = 0; i < pos.count(rook); ++i) {
        Square from = pos.squares(rook)[i];
        int empties = 0;
        forEachDirection([&](auto dir) {
            const Square end = scan<dir()>(pos, from, empties);
            empties += isColor(pos.pieceOn(end), them);
        });
        t.add(Mobility, W.rookMobility[std::min(empties, LineMobilitySize - 1)]);
        if (knowledge >= Knowledge::Large) {
            // No own pawn in front of it on its file: open or half-open.
            bool ownPawnAhead = false;
            for (int k = 0; k < pos.count(ownPawn); ++k) {
                const Square p = pos.squares(ownPawn)[k];
                ownPawnAhead |= fileOf(p) == fileOf(from) &&
                                (us == Color::Red ? rankOf(p) > rankOf(from) : rankOf(p) < rankOf(from));
            }
            if (!ownPawnAhead) t.add(Pieces, W.rookOpenFile);
        }
    }

    const Piece cannon = makePiece(us, PieceType::Cannon);
    for (int i = 0; i < pos.count(cannon); ++i) {
        Square from = pos.squares(cannon)[i];
        int empties = 0;
        forEachDirection([&](auto dir) { scan<dir()>(pos, from, empties); });
        t.add(Mobility, W.cannonMobility[std::min(empties, LineMobilitySize - 1)]);
    }

    if (knowledge < Knowledge::Large) return;

    // Material imbalance: each pair (our type, their type) of non-king pieces.
    int theirCount[ImbalanceTypes];
    for (int j = 0; j < ImbalanceTypes; ++j) theirCount[j] = pos.count(them, PieceType(j + 1));
    for (int i = 0; i < ImbalanceTypes; ++i) {
        const int ours = pos.count(us, PieceType(i + 1));
        if (ours == 0) continue;
        for (int j = 0; j < ImbalanceTypes; ++j) t.add(Pieces, W.imbalance[i][j], ours * theirCount[j]);
    }

    // Crossed pawns side by side support each other. Crossed pawns short of
    // the last rank (from where they no longer approach the palace from the
    // front) weighed by the advisors left to meet them.
    int attackingPawns = 0;
    for (int i = 0; i < pos.count(ownPawn); ++i) {
        Square s = pos.squares(ownPawn)[i];
        if (!crossedRiver(s, us)) continue;
        if (pos.pieceOn(s + Right) == ownPawn) t.add(Pieces, W.connectedPawns);
        attackingPawns += rankOf(s) != (us == Color::Red ? 9 : 0);
    }
    if (attackingPawns)
        t.add(Pieces, W.crossedPawnVsAdvisors[std::min(pos.count(them, PieceType::Advisor), AdvisorCounts - 1)],
              attackingPawns);

    // A horse on the palace centre blocks its own king and advisors.
    if (pos.pieceOn(makeSquare(4, us == Color::Red ? 1 : 8)) == horse) t.add(Pieces, W.palaceCentreHorse);

    // Cannons on the enemy back rank while the enemy king is still on it.
    const int enemyBackRank = us == Color::Red ? 9 : 0;
    if (rankOf(pos.kingSquare(them)) == enemyBackRank)
        for (int i = 0; i < pos.count(cannon); ++i)
            if (rankOf(pos.squares(cannon)[i]) == enemyBackRank) t.add(Pieces, W.bottomCannon);

    // King safety: enemy cannons and rooks lined up on our king, attackers in
    // our half, weighed against the advisors and elephants we have left.
    const Square ksq = pos.kingSquare(us);
    const Piece enemyCannon = makePiece(them, PieceType::Cannon);
    const Piece enemyRook = makePiece(them, PieceType::Rook);
    // Exposed king file: going forward from our king, the first piece met is
    // not ours (an enemy piece, or the edge); it counts per enemy rook.
    if (const int enemyRooks = pos.count(enemyRook)) {
        const Square front = us == Color::Red ? pos.nextOccupied<Up>(ksq) : pos.nextOccupied<Down>(ksq);
        if (!isColor(pos.pieceOn(front), us)) t.add(KingSafety, W.exposedKingFile, enemyRooks);
    }
    // Each pattern needs an enemy rook or cannon on the line: only the
    // directions from our king that hold one are scanned.
    unsigned lines = 0;  // bit 0 up, 1 down, 2 right, 3 left
    for (Piece p : {enemyCannon, enemyRook})
        for (int i = 0, n = pos.count(p); i < n; ++i) {
            const Square s = pos.squares(p)[i];
            if (fileOf(s) == fileOf(ksq))
                lines |= index(s) > index(ksq) ? 1u : 2u;
            else if (rankOf(s) == rankOf(ksq))
                lines |= index(s) > index(ksq) ? 4u : 8u;
        }
    forEachDirection([&](auto dir) {
        constexpr unsigned bit = dir() == Up ? 1u : dir() == Down ? 2u : dir() == Right ? 4u : 8u;
        if (!(lines & bit)) return;
        const Square first = pos.nextOccupied<dir()>(ksq);
        if (pos.pieceOn(first) == Piece::OffBoard) return;
        if (pos.pieceOn(first) == enemyCannon && (dir() == forward(us))) {
            t.add(KingSafety, W.hollowCannon, -1);
            return;
        }
        const Square second = pos.nextOccupied<dir()>(first);
        if (pos.pieceOn(second) == Piece::OffBoard) return;
        if (pos.pieceOn(second) == enemyRook) t.add(KingSafety, W.rookPinOnKingFile, -1);
        const Square third = pos.nextOccupied<dir()>(second);
        if (pos.pieceOn(third) == enemyCannon) t.add(KingSafety, W.cannonTwoScreens, -1);
    });

    // Attackers in our half (psqt::attackUnits, summed by the position).
    const int units = std::min(pos.attackUnits(us), 15);
    const int missingAdvisors = 2 - pos.count(us, PieceType::Advisor);
    const int missingElephants = 2 - pos.count(us, PieceType::Elephant);
    t.add(KingSafety, W.kingDanger[units], -1);
    t.add(KingSafety, W.missingAdvisor, -missingAdvisors * (units / 2));
    t.add(KingSafety, W.missingElephant, -missingElephants * (units / 2));
}

int phaseOf(const Position& pos) {
    int phase = 0;
    for (Color c : {Color::Red, Color::Black})
        for (int type = 0; type < PieceTypeCount; ++type) phase += PhaseWeight[type] * pos.count(c, PieceType(type));
    return std::min(phase, PhaseMax);
}

// Endgame scale for the side that is ahead (64 = no scaling).
int endgameScale(const Position& pos, Color strong) {
    const Color weak = ~strong;
    const int rooks = pos.count(strong, PieceType::Rook);
    const int knights = pos.count(strong, PieceType::Horse);
    const int cannons = pos.count(strong, PieceType::Cannon);
    if (rooks > 0 || knights + cannons > 1) return 64;  // the cases below need neither
    int crossedPawns = 0;
    const Piece pawn = makePiece(strong, PieceType::Pawn);
    for (int i = 0; i < pos.count(pawn); ++i) {
        Square s = pos.squares(pawn)[i];
        // A pawn on the last rank can no longer approach the palace from the front.
        int ownRank = strong == Color::Red ? rankOf(s) : 9 - rankOf(s);
        crossedPawns += ownRank < 9;
    }
    const int defenders = pos.count(weak, PieceType::Advisor) + pos.count(weak, PieceType::Elephant);
    if (rooks + knights + cannons + crossedPawns == 0) return 0;  // no way to mate
    if (rooks == 0 && knights + cannons + crossedPawns == 1) {
        // A lone horse, cannon or pawn: little to gain against a defended king.
        if (cannons == 1) return defenders >= 1 ? 4 : 24;
        if (knights == 1) return defenders >= 2 ? 12 : 32;
        return defenders >= 2 ? 8 : 40;
    }
    return 64;
}

}  // namespace

bool hasAttackers(const Position& pos, Color c) {
    return pos.count(c, PieceType::Rook) + pos.count(c, PieceType::Horse) + pos.count(c, PieceType::Cannon) +
               pos.count(c, PieceType::Pawn) >
           0;
}

bool nullMoveSafe(const Position& pos) {
    const Color us = pos.sideToMove();
    const int pieces =
        pos.count(us, PieceType::Rook) * 2 + pos.count(us, PieceType::Horse) + pos.count(us, PieceType::Cannon);
    return pieces >= 2;
}

namespace {

// Taper between middlegame and endgame, the endgame scale of the side ahead
// (scaleFor(colour)) and tempo: red's mg/eg sums to the side to move's value.
template <typename ScaleFor>
Value finish(int mg, int eg, int phase, Color sideToMove, ScaleFor scaleFor, int* scaledOut = nullptr,
             Value* redOut = nullptr) {
    int value = (mg * phase + eg * (PhaseMax - phase)) / PhaseMax;
    const int scaled = value > 0 ? scaleFor(Color::Red) : value < 0 ? scaleFor(Color::Black) : 64;
    value = value * scaled / 64;
    if (scaledOut) *scaledOut = scaled;
    if (redOut) *redOut = value;
    return sideToMove == Color::Red ? value + EvalTempo : -value + EvalTempo;
}
Value finish(const Position& pos, Score total, int phase, int* scaledOut = nullptr, Value* redOut = nullptr) {
    return finish(
        total.mg(), total.eg(), phase, pos.sideToMove(), [&](Color c) { return endgameScale(pos, c); }, scaledOut,
        redOut);
}

// evaluate() with the phase already known.
Value evaluateWithPhase(const Position& pos, EvalTrace& trace, Knowledge knowledge, int phase) {
    trace = EvalTrace{};
    trace.phase = phase;
    if (knowledge == Knowledge::None) {
        Score material;
        for (Color c : {Color::Red, Color::Black})
            for (int type = 0; type < PieceTypeCount; ++type) {
                Score v = W.pieceValue[type] * pos.count(c, PieceType(type));
                material += c == Color::Red ? v : -v;
            }
        trace.material = material;
    } else {
        trace.material = pos.psq();
    }
    if (knowledge >= Knowledge::Medium) {
        SideTerms red, black;
        evaluateSide(pos, Color::Red, knowledge, red);
        evaluateSide(pos, Color::Black, knowledge, black);
        trace.mobility = red.term[Mobility] - black.term[Mobility];
        trace.kingSafety = red.term[KingSafety] - black.term[KingSafety];
        trace.pieces = red.term[Pieces] - black.term[Pieces];
    }
    const Score total = trace.material + trace.mobility + trace.kingSafety + trace.pieces;
    return finish(pos, total, trace.phase, &trace.scaled, &trace.total);
}

}  // namespace

Value evaluateLazy(const Position& pos, Value alpha, Value beta, Knowledge knowledge, bool& exact) {
    exact = true;
    if (knowledge < Knowledge::Medium) return evaluate(pos, knowledge);
    const int phase = phaseOf(pos);
    const Value rough = finish(pos, pos.psq(), phase);
    exact = false;
    if (rough - LazyMargin >= beta) return rough - LazyMargin;
    if (rough + LazyMargin <= alpha) return rough + LazyMargin;
    exact = true;
    EvalTrace trace;
    return evaluateWithPhase(pos, trace, knowledge, phase);
}

Value evaluate(const Position& pos, EvalTrace& trace, Knowledge knowledge) {
    return evaluateWithPhase(pos, trace, knowledge, phaseOf(pos));
}

Value evaluate(const Position& pos, Knowledge knowledge) {
    EvalTrace trace;
    return evaluate(pos, trace, knowledge);
}

std::string evalReport(const Position& pos) {
    EvalTrace t;
    Value v = evaluate(pos, t);
    auto row = [&](std::string_view name, Score s) { return fmt::format("{:<14}{:>8}{:>8}\n", name, s.mg(), s.eg()); };
    std::string out = fmt::format("{:<14}{:>8}{:>8}\n", "term (red)", "mg", "eg");
    out += row("material+psq", t.material);
    out += row("mobility", t.mobility);
    out += row("king safety", t.kingSafety);
    out += row("pieces", t.pieces);
    out += fmt::format("phase {}/{}, endgame scale {}/64\n", t.phase, PhaseMax, t.scaled);
    out += fmt::format("total (red's view) {}, side to move's view with tempo {}\n", t.total, v);
    return out;
}

EvalLinear linearize(const Position& pos) {
    EvalLinear lin;
    lin.phase = phaseOf(pos);
    lin.scaleRed = endgameScale(pos, Color::Red);
    lin.scaleBlack = endgameScale(pos, Color::Black);
    lin.sideToMove = pos.sideToMove();
    // Material and tables: what Position::psq() sums incrementally.
    for (Color c : {Color::Red, Color::Black}) {
        const int sign = c == Color::Red ? 1 : -1;
        for (int type = 0; type < PieceTypeCount; ++type) {
            const Piece p = makePiece(c, PieceType(type));
            for (int i = 0; i < pos.count(p); ++i) {
                const Square s = pos.squares(p)[i];
                // Black reads the table from its own side: rank r is red's rank 9 - r.
                const int row = c == Color::Red ? 9 - rankOf(s) : rankOf(s);
                lin.coef[paramIndex(W, W.pieceValue[type])] += int16_t(sign);
                lin.coef[paramIndex(W, W.psqt[type][row][psqt::halfFile(fileOf(s))])] += int16_t(sign);
            }
        }
    }
    WeightCounter red{lin.coef.data(), 1}, black{lin.coef.data(), -1};
    evaluateSide(pos, Color::Red, Knowledge::Large, red);
    evaluateSide(pos, Color::Black, Knowledge::Large, black);
    return lin;
}

Value evaluateLinear(const EvalLinear& lin, const EvalParams& params) {
    const Score* w = paramData(params);
    int mg = 0, eg = 0;
    for (int i = 0; i < EvalParamCount; ++i) {
        mg += lin.coef[i] * w[i].mg();
        eg += lin.coef[i] * w[i].eg();
    }
    return finish(mg, eg, lin.phase, lin.sideToMove,
                  [&](Color c) { return c == Color::Red ? lin.scaleRed : lin.scaleBlack; });
}

std::string paramName(int i) {
    static constexpr const char* Pieces[PieceTypeCount] = {"king", "advisor", "elephant", "horse",
                                                           "rook", "cannon",  "pawn"};
    const EvalParams& p = DefaultEvalParams;
    for (int t = 0; t < PieceTypeCount; ++t)
        if (i == paramIndex(p, p.pieceValue[t])) return fmt::format("pieceValue.{}", Pieces[t]);
    for (int t = 0; t < PieceTypeCount; ++t)
        for (int r = 0; r < RankCount; ++r)
            for (int f = 0; f < HalfFiles; ++f)
                if (i == paramIndex(p, p.psqt[t][r][f]))
                    return fmt::format("psqt.{}.{}{}", Pieces[t], char('a' + f), 9 - r);  // square name, red's view
    for (int k = 0; k < HorseMobilitySize; ++k)
        if (i == paramIndex(p, p.horseMobility[k])) return fmt::format("horseMobility[{}]", k);
    for (int k = 0; k < LineMobilitySize; ++k) {
        if (i == paramIndex(p, p.rookMobility[k])) return fmt::format("rookMobility[{}]", k);
        if (i == paramIndex(p, p.cannonMobility[k])) return fmt::format("cannonMobility[{}]", k);
    }
    for (int k = 0; k < KingDangerSize; ++k)
        if (i == paramIndex(p, p.kingDanger[k])) return fmt::format("kingDanger[{}]", k);
    for (int a = 0; a < ImbalanceTypes; ++a)
        for (int b = 0; b < ImbalanceTypes; ++b)
            if (i == paramIndex(p, p.imbalance[a][b]))
                return fmt::format("imbalance.{}.{}", Pieces[a + 1], Pieces[b + 1]);  // ours, theirs
    for (int k = 0; k < AdvisorCounts; ++k)
        if (i == paramIndex(p, p.crossedPawnVsAdvisors[k])) return fmt::format("crossedPawnVsAdvisors[{}]", k);
    for (const NamedScalar& w : LeadingScalars)
        if (i == paramIndex(p, p.*w.member)) return w.name;
    for (const NamedScalar& w : TrailingScalars)
        if (i == paramIndex(p, p.*w.member)) return w.name;
    return fmt::format("param{}", i);
}

}  // namespace chariot
