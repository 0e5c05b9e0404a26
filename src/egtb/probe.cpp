#include "chariot/egtb/probe.h"

namespace chariot::egtb {

namespace {

constexpr PieceType AttackerTypes[AttackerKinds] = {PieceType::Rook, PieceType::Horse, PieceType::Cannon,
                                                    PieceType::Pawn};

bool hasAttacker(const Position& pos, Color c) {
    for (PieceType t : AttackerTypes)
        if (pos.count(c, t)) return true;
    return false;
}

}  // namespace

std::optional<TableKey> tableKey(const Position& pos) {
    const bool red = hasAttacker(pos, Color::Red), black = hasAttacker(pos, Color::Black);
    if (red == black) return std::nullopt;
    const Color strong = red ? Color::Red : Color::Black, weak = ~strong;
    TableKey key;
    key.flipped = strong == Color::Black;
    key.stm = pos.sideToMove() == strong ? StrongToMove : WeakToMove;
    auto sq = [&](Square s) {
        const int q = makeSq(fileOf(s), rankOf(s));
        return key.flipped ? flipSq(q) : q;
    };
    auto add = [&](Color c, PieceType t, Kind k) {
        const int n = pos.count(c, t);
        if (n > 2) return false;
        const Square* list = pos.squares(makePiece(c, t));
        for (int i = 0; i < n; ++i) key.placement.add(k, sq(list[i]));
        return true;
    };
    Material& m = key.material;
    bool ok = add(strong, PieceType::King, StrongKing) && add(weak, PieceType::King, WeakKing) &&
              add(strong, PieceType::Advisor, StrongAdvisor) && add(strong, PieceType::Elephant, StrongElephant) &&
              add(weak, PieceType::Advisor, WeakAdvisor) && add(weak, PieceType::Elephant, WeakElephant);
    for (int a = 0; ok && a < AttackerKinds; ++a) {
        ok = add(strong, AttackerTypes[a], attackerKind(Attacker(a)));
        m.attackers[size_t(a)] = uint8_t(pos.count(strong, AttackerTypes[a]));
    }
    if (!ok || m.attackerCount() > 2) return std::nullopt;
    m.strongAdvisors = uint8_t(pos.count(strong, PieceType::Advisor));
    m.strongElephants = uint8_t(pos.count(strong, PieceType::Elephant));
    m.weakAdvisors = uint8_t(pos.count(weak, PieceType::Advisor));
    m.weakElephants = uint8_t(pos.count(weak, PieceType::Elephant));
    return key;
}

std::string fenOf(const Placement& p, int stm) {
    static constexpr char Letters[KindCount] = {'K', 'k', 'A', 'B', 'a', 'b', 'R', 'N', 'C', 'P'};
    char board[SquareCount];
    std::fill(board, board + SquareCount, '.');
    for (int k = 0; k < KindCount; ++k)
        for (int i = 0; i < p.count[size_t(k)]; ++i) board[p.sq[size_t(k)][size_t(i)]] = Letters[k];
    std::string fen;
    for (int rank = 9; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 9; ++file) {
            const char c = board[makeSq(file, rank)];
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty);
            empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += stm == StrongToMove ? " w - - 0 1" : " b - - 0 1";
    return fen;
}

std::optional<uint16_t> probeValue(const Position& pos, const TableLookup& lookup) {
    const auto key = tableKey(pos);
    if (!key) {
        bool anyAttacker = hasAttacker(pos, Color::Red) || hasAttacker(pos, Color::Black);
        if (!anyAttacker) return TbDraw;
        return std::nullopt;
    }
    const Table* t = lookup ? lookup(key->material) : nullptr;
    if (!t) return std::nullopt;
    const int64_t idx = t->indexer.encode(key->placement);
    if (idx < 0) return std::nullopt;
    return t->value(key->stm, uint64_t(idx));
}

}  // namespace chariot::egtb
