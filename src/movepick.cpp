#include "chariot/movepick.h"

#include <utility>

namespace chariot {

Move MovePicker::next() {
    switch (stage_) {
        case Stage::TTMove: stage_ = Stage::GenerateCaptures; return ttMove_;
        case Stage::GenerateCaptures:
            list_.size = 0;
            generate<GenType::Captures>(pos_, list_);
            for (int i = 0; i < list_.size; ++i) {
                Move m = list_.moves[i];
                const PieceType attacker = typeOf(pos_.pieceOn(m.from()));
                const PieceType victim = typeOf(pos_.pieceOn(m.to()));
                // MVV/LVA, shifted by how often this capture refuted the
                // position before (at most about a rook's worth).
                scores_[i] = VictimValue[int(victim)] * 8 - AttackerOrder[int(attacker)] + captureRecord(m) / 2;
            }
            cursor_ = 0;
            stage_ = Stage::GoodCaptures;
            [[fallthrough]];
        case Stage::GoodCaptures:
            while (cursor_ < list_.size) {
                Move m = pickBest();
                if (m == ttMove_) continue;
                if (!capturesOnly_ && isLosingCapture(m)) {
                    badCaptures_.push(m);
                    continue;
                }
                return m;
            }
            if (capturesOnly_) {
                stage_ = Stage::Done;
                return Move::none();
            }
            stage_ = Stage::Killer1;
            [[fallthrough]];
        case Stage::Killer1:
            stage_ = Stage::Killer2;
            if (isUsableKiller(killers_[0])) return killers_[0];
            [[fallthrough]];
        case Stage::Killer2:
            stage_ = Stage::Counter;
            if (killers_[1] != killers_[0] && isUsableKiller(killers_[1])) return killers_[1];
            [[fallthrough]];
        case Stage::Counter:
            stage_ = Stage::GenerateQuiets;
            if (isUsableKiller(counter_)) return counter_;
            [[fallthrough]];
        case Stage::GenerateQuiets:
            list_.size = 0;
            generate<GenType::Quiets>(pos_, list_);
            for (int i = 0; i < list_.size; ++i) {
                const Move m = list_.moves[i];
                const Piece p = pos_.pieceOn(m.from());
                const int slot = contSlot(p, m.to());
                scores_[i] = scoring_.history[pieceIndex(p)][index(m.to())] +
                             (scoring_.cont1 ? scoring_.cont1[slot] : 0) + (scoring_.cont2 ? scoring_.cont2[slot] : 0);
            }
            cursor_ = 0;
            stage_ = Stage::Quiets;
            [[fallthrough]];
        case Stage::Quiets:
            while (cursor_ < list_.size) {
                // Once late-move pruning has begun only checks can still be
                // searched: take them in list order, skipping the sort.
                Move m = skipQuiets_ ? list_.moves[cursor_++] : pickBest();
                if (m == ttMove_ || m == killers_[0] || m == killers_[1] || m == counter_) continue;
                if (skipQuiets_ && !pos_.givesCheck(m)) continue;
                return m;
            }
            stage_ = Stage::BadCaptures;
            cursor_ = 0;
            [[fallthrough]];
        case Stage::BadCaptures:
            if (cursor_ < badCaptures_.size) return badCaptures_.moves[cursor_++];
            stage_ = Stage::Done;
            [[fallthrough]];
        case Stage::Done: return Move::none();
    }
    return Move::none();
}

}  // namespace chariot
