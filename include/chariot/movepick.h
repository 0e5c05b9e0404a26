// Staged move ordering for the main search and the quiescence search: the
// TT move, good captures (MVV/LVA shifted by capture history; losing ones by
// static exchange held back), killers and the counter move, quiet moves by
// history, then the losing captures.
#pragma once

#include <cstdint>

#include "chariot/history.h"
#include "chariot/movegen.h"
#include "chariot/position.h"

namespace chariot {

// MVV/LVA: victims by value, attackers cheapest first.
inline constexpr int VictimValue[PieceTypeCount] = {5000, 190, 190, 430, 1000, 460, 90};
inline constexpr int AttackerOrder[PieceTypeCount] = {6, 1, 1, 3, 5, 4, 0};

// A victim's value for ordering; the king is never captured in legal play.
inline int victimValue(Piece p) { return VictimValue[int(typeOf(p))]; }

class MovePicker {
public:
    struct Scoring {
        const int16_t (*history)[BoardSize];
        const int16_t* cont1;  // continuation rows (may be null)
        const int16_t* cont2;
        const CaptureHistory* captures;
    };

    MovePicker(const Position& pos, Move ttMove, const Move* killers, Move counter, Scoring scoring, bool capturesOnly)
        : pos_(pos), ttMove_(ttMove), counter_(counter), scoring_(scoring), capturesOnly_(capturesOnly) {
        killers_[0] = killers ? killers[0] : Move::none();
        killers_[1] = killers ? killers[1] : Move::none();
        if (counter_ == killers_[0] || counter_ == killers_[1]) counter_ = Move::none();
        if (!ttMove_ || !pos.isPseudoLegal(ttMove_) || (capturesOnly_ && pos.isEmpty(ttMove_.to())))
            ttMove_ = Move::none();
        stage_ = ttMove_ ? Stage::TTMove : Stage::GenerateCaptures;
    }

    // Late-move pruning has begun: only quiet checks are still wanted.
    void skipQuiets() { skipQuiets_ = true; }

    // The next move to try, Move::none() when there are no more.
    Move next();

private:
    enum class Stage : uint8_t {
        TTMove,
        GenerateCaptures,
        GoodCaptures,
        Killer1,
        Killer2,
        Counter,
        GenerateQuiets,
        Quiets,
        BadCaptures,
        Done
    };

    Move pickBest() {
        int best = cursor_;
        for (int i = cursor_ + 1; i < list_.size; ++i)
            if (scores_[i] > scores_[best]) best = i;
        std::swap(list_.moves[cursor_], list_.moves[best]);
        std::swap(scores_[cursor_], scores_[best]);
        return list_.moves[cursor_++];
    }
    bool isUsableKiller(Move m) const { return m && m != ttMove_ && pos_.isEmpty(m.to()) && pos_.isPseudoLegal(m); }
    // How often this capture refuted its position before (capture history).
    int captureRecord(Move m) const {
        return (
            *scoring_.captures)[pieceIndex(pos_.pieceOn(m.from()))][index(m.to())][int(typeOf(pos_.pieceOn(m.to())))];
    }
    // A capture that loses material by static exchange waits for the end;
    // its record moves that line (Stockfish's habit): a capture that often
    // cut may lose a little, one with a bad record must win something.
    bool isLosingCapture(Move m) const { return !pos_.seeGe(m, -captureRecord(m) / 48); }

    const Position& pos_;
    Move ttMove_;
    Move killers_[2];
    Move counter_;
    Scoring scoring_;
    bool capturesOnly_;
    bool skipQuiets_ = false;
    Stage stage_;
    MoveList list_;
    int scores_[MaxMoves];
    int cursor_ = 0;
    MoveList badCaptures_;
};

}  // namespace chariot
