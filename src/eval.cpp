#include "chariot/eval.h"

#include <algorithm>

#include <fmt/format.h>

namespace chariot {

using namespace tables;

namespace {

// --- weights (internal units; a pawn before the river is about 100) ---------
constexpr int PhaseWeight[PieceTypeCount] = {0, 0, 0, 3, 6, 3, 0};  // horses, rooks, cannons
constexpr Score HorseMobility[9] = {Score(-60, -70), Score(-30, -35), Score(-12, -14), Score(0, 0), Score(8, 10),
                                    Score(14, 18), Score(18, 24), Score(22, 28), Score(24, 30)};
constexpr Score RookMobilityPerSquare = Score(4, 5);
constexpr Score RookMobilityBase = Score(-28, -35);
constexpr Score CannonMobilityPerSquare = Score(2, 1);
constexpr Score RookOpenFile = Score(16, 8);
constexpr Score ConnectedPawns = Score(10, 24);
constexpr Score HollowCannon = Score(90, 20);       // enemy cannon faces the king with nothing between
constexpr Score CannonTwoScreens = Score(20, 0);    // cannon two screens away on the king's file
constexpr Score RookPinOnKingFile = Score(18, 8);   // enemy rook on the king's line behind one piece
constexpr Score MissingAdvisor = Score(14, 20);     // per missing advisor, per enemy attacking unit
constexpr Score MissingElephant = Score(8, 14);
constexpr int AttackUnits[PieceTypeCount] = {0, 0, 0, 2, 3, 2, 1};
constexpr int KingDangerByUnits[16] = {0, 0, 2, 6, 12, 20, 30, 42, 56, 72, 90, 110, 130, 150, 170, 190};
constexpr Value Tempo = 10;

// Rook/cannon quiet squares and the first piece met, walking from `from`.
inline Square walk(const Position& pos, Square from, int dir, int& empties) {
    Square t = from + dir;
    while (pos.isEmpty(t)) {
        ++empties;
        t += dir;
    }
    return t;
}

struct SideTerms {
    Score mobility, kingSafety, pieces;
};

// Terms for colour `us` (positive = good for us).
SideTerms evaluateSide(const Position& pos, Color us, Knowledge knowledge) {
    SideTerms t;
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
        t.mobility += HorseMobility[moves];
    }

    const Piece rook = makePiece(us, PieceType::Rook);
    const Piece ownPawn = makePiece(us, PieceType::Pawn);
    for (int i = 0; i < pos.count(rook); ++i) {
        Square from = pos.squares(rook)[i];
        int empties = 0;
        for (int dir : OrthogonalSteps) {
            Square end = walk(pos, from, dir, empties);
            empties += isColor(pos.pieceOn(end), them);
        }
        t.mobility += RookMobilityBase + RookMobilityPerSquare * empties;
        if (knowledge >= Knowledge::Large) {
            // No own pawn in front of it on its file: open or half-open.
            bool ownPawnAhead = false;
            for (int k = 0; k < pos.count(ownPawn); ++k) {
                const Square p = pos.squares(ownPawn)[k];
                ownPawnAhead |= fileOf(p) == fileOf(from) && (us == Color::Red ? rankOf(p) > rankOf(from) : rankOf(p) < rankOf(from));
            }
            if (!ownPawnAhead) t.pieces += RookOpenFile;
        }
    }

    const Piece cannon = makePiece(us, PieceType::Cannon);
    for (int i = 0; i < pos.count(cannon); ++i) {
        Square from = pos.squares(cannon)[i];
        int empties = 0;
        for (int dir : OrthogonalSteps) walk(pos, from, dir, empties);
        t.mobility += CannonMobilityPerSquare * empties;
    }

    if (knowledge < Knowledge::Large) return t;

    // Crossed pawns side by side support each other.
    for (int i = 0; i < pos.count(ownPawn); ++i) {
        Square s = pos.squares(ownPawn)[i];
        if (crossedRiver(s, us) && pos.pieceOn(s + Right) == ownPawn) t.pieces += ConnectedPawns;
    }

    // King safety: enemy cannons and rooks lined up on our king, attackers in
    // our half, weighed against the advisors and elephants we have left.
    const Square ksq = pos.kingSquare(us);
    const Piece enemyCannon = makePiece(them, PieceType::Cannon);
    const Piece enemyRook = makePiece(them, PieceType::Rook);
    for (int dir : OrthogonalSteps) {
        int empties = 0;
        Square first = walk(pos, ksq, dir, empties);
        if (pos.pieceOn(first) == Piece::OffBoard) continue;
        if (pos.pieceOn(first) == enemyCannon && (dir == forward(us))) {
            t.kingSafety -= HollowCannon;
            continue;
        }
        Square second = walk(pos, first, dir, empties);
        if (pos.pieceOn(second) == Piece::OffBoard) continue;
        if (pos.pieceOn(second) == enemyRook) t.kingSafety -= RookPinOnKingFile;
        Square third = walk(pos, second, dir, empties);
        if (pos.pieceOn(third) == enemyCannon) t.kingSafety -= CannonTwoScreens;
    }

    int units = 0;
    for (PieceType type : {PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn}) {
        const Piece p = makePiece(them, type);
        for (int i = 0; i < pos.count(p); ++i) {
            Square s = pos.squares(p)[i];
            if (!inOwnHalf(s, us)) {
                // Rooks and cannons reach across the river quickly: half weight.
                if (type == PieceType::Rook || type == PieceType::Cannon) units += AttackUnits[int(type)] / 2;
                continue;
            }
            if (type == PieceType::Pawn && std::abs(fileOf(s) - 4) > 2) continue;
            units += AttackUnits[int(type)];
        }
    }
    units = std::min(units, 15);
    const int missingAdvisors = 2 - pos.count(us, PieceType::Advisor);
    const int missingElephants = 2 - pos.count(us, PieceType::Elephant);
    t.kingSafety -= Score(KingDangerByUnits[units], KingDangerByUnits[units] / 2);
    t.kingSafety -= (MissingAdvisor * missingAdvisors + MissingElephant * missingElephants) * (units / 2);
    return t;
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
    const int pieces = pos.count(us, PieceType::Rook) * 2 + pos.count(us, PieceType::Horse) +
                       pos.count(us, PieceType::Cannon);
    return pieces >= 2;
}

Value evaluate(const Position& pos, EvalTrace& trace, Knowledge knowledge) {
    trace = EvalTrace{};
    trace.phase = phaseOf(pos);
    if (knowledge == Knowledge::None) {
        Score material;
        for (Color c : {Color::Red, Color::Black})
            for (int type = 0; type < PieceTypeCount; ++type) {
                Score v = psqt::PieceValue[type] * pos.count(c, PieceType(type));
                material += c == Color::Red ? v : -v;
            }
        trace.material = material;
    } else {
        trace.material = pos.psq();
    }
    if (knowledge >= Knowledge::Medium) {
        SideTerms red = evaluateSide(pos, Color::Red, knowledge);
        SideTerms black = evaluateSide(pos, Color::Black, knowledge);
        trace.mobility = red.mobility - black.mobility;
        trace.kingSafety = red.kingSafety - black.kingSafety;
        trace.pieces = red.pieces - black.pieces;
    }
    Score total = trace.material + trace.mobility + trace.kingSafety + trace.pieces;
    int value = (total.mg() * trace.phase + total.eg() * (PhaseMax - trace.phase)) / PhaseMax;
    trace.scaled = value > 0 ? endgameScale(pos, Color::Red) : value < 0 ? endgameScale(pos, Color::Black) : 64;
    value = value * trace.scaled / 64;
    trace.total = value;
    return pos.sideToMove() == Color::Red ? value + Tempo : -value + Tempo;
}

Value evaluate(const Position& pos, Knowledge knowledge) {
    EvalTrace trace;
    return evaluate(pos, trace, knowledge);
}

std::string evalReport(const Position& pos) {
    EvalTrace t;
    Value v = evaluate(pos, t);
    auto row = [&](std::string_view name, Score s) {
        return fmt::format("{:<14}{:>8}{:>8}\n", name, s.mg(), s.eg());
    };
    std::string out = fmt::format("{:<14}{:>8}{:>8}\n", "term (red)", "mg", "eg");
    out += row("material+psq", t.material);
    out += row("mobility", t.mobility);
    out += row("king safety", t.kingSafety);
    out += row("pieces", t.pieces);
    out += fmt::format("phase {}/{}, endgame scale {}/64\n", t.phase, PhaseMax, t.scaled);
    out += fmt::format("total (red's view) {}, side to move's view with tempo {}\n", t.total, v);
    return out;
}

}  // namespace chariot
