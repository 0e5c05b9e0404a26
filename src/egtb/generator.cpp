#include "chariot/egtb/generator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include "chariot/types.h"

namespace chariot::egtb {

namespace {

// ---------------------------------------------------------------------------
// Move geometry on the 90-square board (the generator's own, so that the
// verifier, which uses the engine's move generator, checks it).

struct Steps {
    uint8_t n = 0;
    uint8_t to[8] = {};
    uint8_t via[8] = {};  // the horse leg or elephant eye
    void add(int t, int v = 0) {
        to[n] = uint8_t(t);
        via[n] = uint8_t(v);
        ++n;
    }
};

struct Ray {
    uint8_t n = 0;
    uint8_t sq[9] = {};
};

constexpr int Red = 0, Black = 1;

bool onBoard(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 10; }
bool inPalace(int c, int f, int r) { return f >= 3 && f <= 5 && (c == Red ? r >= 0 && r <= 2 : r >= 7 && r <= 9); }
bool ownHalf(int c, int r) { return c == Red ? r <= 4 : r >= 5; }

struct Geometry {
    Steps king[2][SquareCount], advisor[2][SquareCount], elephant[2][SquareCount];
    Steps horse[SquareCount];      // to, leg (next to the origin)
    Steps horseFrom[SquareCount];  // origin, leg: the horse moves that end here
    Steps pawn[2][SquareCount];
    Steps pawnFrom[2][SquareCount];
    Ray ray[SquareCount][4];  // up, down, left, right
    static constexpr int Vertical[4] = {1, 1, 0, 0};

    Geometry() {
        const int df[4] = {0, 0, -1, 1}, dr[4] = {1, -1, 0, 0};
        for (int s = 0; s < SquareCount; ++s) {
            const int f = sqFile(s), r = sqRank(s);
            for (int d = 0; d < 4; ++d)
                for (int ff = f + df[d], rr = r + dr[d]; onBoard(ff, rr); ff += df[d], rr += dr[d])
                    ray[s][d].sq[ray[s][d].n++] = uint8_t(makeSq(ff, rr));
            for (int c = 0; c < 2; ++c) {
                for (int d = 0; d < 4; ++d)
                    if (inPalace(c, f, r) && inPalace(c, f + df[d], r + dr[d]))
                        king[c][s].add(makeSq(f + df[d], r + dr[d]));
                for (int x = -1; x <= 1; x += 2)
                    for (int y = -1; y <= 1; y += 2) {
                        if (inPalace(c, f, r) && inPalace(c, f + x, r + y)) {
                            const bool centre = f == 4 && (r == 1 || r == 8);
                            const bool corner = (f == 3 || f == 5) && (r == 0 || r == 2 || r == 7 || r == 9);
                            if (centre || corner) advisor[c][s].add(makeSq(f + x, r + y));
                        }
                        if (onBoard(f + 2 * x, r + 2 * y) && ownHalf(c, r) && ownHalf(c, r + 2 * y))
                            elephant[c][s].add(makeSq(f + 2 * x, r + 2 * y), makeSq(f + x, r + y));
                    }
                // Pawns: forward, and sideways once across the river.
                const int fwd = c == Red ? 1 : -1;
                if (onBoard(f, r + fwd)) pawn[c][s].add(makeSq(f, r + fwd));
                if (!ownHalf(c, r)) {
                    if (f > 0) pawn[c][s].add(makeSq(f - 1, r));
                    if (f < 8) pawn[c][s].add(makeSq(f + 1, r));
                }
            }
            // Horse: two along one line, one across; the leg is the first step along the line.
            const int hf[8] = {1, -1, 1, -1, 2, 2, -2, -2}, hr[8] = {2, 2, -2, -2, 1, -1, 1, -1};
            for (int i = 0; i < 8; ++i) {
                if (!onBoard(f + hf[i], r + hr[i])) continue;
                const int lf = std::abs(hf[i]) == 2 ? hf[i] / 2 : 0, lr = std::abs(hr[i]) == 2 ? hr[i] / 2 : 0;
                horse[s].add(makeSq(f + hf[i], r + hr[i]), makeSq(f + lf, r + lr));
            }
        }
        for (int s = 0; s < SquareCount; ++s) {
            for (int i = 0; i < horse[s].n; ++i) horseFrom[horse[s].to[i]].add(s, horse[s].via[i]);
            for (int c = 0; c < 2; ++c)
                for (int i = 0; i < pawn[c][s].n; ++i) pawnFrom[c][pawn[c][s].to[i]].add(s);
        }
    }
};

const Geometry& geometry() {
    static const Geometry g;
    return g;
}

// ---------------------------------------------------------------------------
// A position of the table being solved.

constexpr Piece KindPiece[KindCount] = {
    Piece::RedKing,       Piece::BlackKing, Piece::RedAdvisor, Piece::RedElephant, Piece::BlackAdvisor,
    Piece::BlackElephant, Piece::RedRook,   Piece::RedHorse,   Piece::RedCannon,   Piece::RedPawn};
int colorIndex(Piece p) { return isColor(p, Color::Red) ? Red : Black; }

struct Node {
    std::array<Piece, SquareCount> board{};
    int count = 0;
    std::array<uint8_t, 12> kind{}, sq{};

    void set(const Placement& p) {
        board.fill(Piece::Empty);
        count = 0;
        for (int k = 0; k < KindCount; ++k)
            for (int i = 0; i < p.count[size_t(k)]; ++i) {
                kind[size_t(count)] = uint8_t(k);
                sq[size_t(count)] = p.sq[size_t(k)][size_t(i)];
                board[p.sq[size_t(k)][size_t(i)]] = KindPiece[k];
                ++count;
            }
    }
    // The placement with piece `skip` left out (a capture).
    Placement placement(int skip = -1) const {
        Placement p;
        for (int i = 0; i < count; ++i)
            if (i != skip) p.add(kind[size_t(i)], sq[size_t(i)]);
        return p;
    }
    int kingSq(int c) const { return sq[size_t(c)]; }  // StrongKing, WeakKing come first
    void mirror() {
        std::array<Piece, SquareCount> b{};
        for (int s = 0; s < SquareCount; ++s) b[size_t(mirrorSq(s))] = board[size_t(s)];
        board = b;
        for (int i = 0; i < count; ++i) sq[size_t(i)] = uint8_t(mirrorSq(sq[size_t(i)]));
    }
};

// Do the kings face each other on an open file?
bool kingsFace(const Node& n) {
    const int red = n.kingSq(Red), black = n.kingSq(Black);
    if (sqFile(red) != sqFile(black)) return false;
    for (int s = red + 9; s < black; s += 9)
        if (n.board[size_t(s)] != Piece::Empty) return false;
    return true;
}

// Is square k attacked by colour `by` (the flying general included)? In the
// tables black is the bare side: it attacks the red king only by facing it.
bool attacked(const Node& n, int k, int by) {
    if (by == Black) return k == n.kingSq(Red) && kingsFace(n);
    const Geometry& g = geometry();
    const Color c = by == Red ? Color::Red : Color::Black;
    const Piece rook = makePiece(c, PieceType::Rook), cannon = makePiece(c, PieceType::Cannon);
    const Piece king = makePiece(c, PieceType::King), horse = makePiece(c, PieceType::Horse);
    const Piece pawn = makePiece(c, PieceType::Pawn);
    for (int d = 0; d < 4; ++d) {
        const Ray& ray = g.ray[k][d];
        int i = 0;
        while (i < ray.n && n.board[ray.sq[i]] == Piece::Empty) ++i;
        if (i == ray.n) continue;
        const Piece first = n.board[ray.sq[i]];
        if (first == rook || (first == king && Geometry::Vertical[d])) return true;
        for (++i; i < ray.n; ++i)
            if (n.board[ray.sq[i]] != Piece::Empty) {
                if (n.board[ray.sq[i]] == cannon) return true;
                break;
            }
    }
    const Steps& hf = g.horseFrom[k];
    for (int i = 0; i < hf.n; ++i)
        if (n.board[hf.to[i]] == horse && n.board[hf.via[i]] == Piece::Empty) return true;
    const Steps& pf = g.pawnFrom[by][k];
    for (int i = 0; i < pf.n; ++i)
        if (n.board[pf.to[i]] == pawn) return true;
    return false;
}

// Calls f(piece, to) for each pseudo-legal move of side c's piece i.
template <typename F>
void pieceMoves(const Node& n, int i, F&& f) {
    const Geometry& g = geometry();
    const int s = n.sq[size_t(i)];
    const Piece pc = n.board[size_t(s)];
    const int c = colorIndex(pc);
    auto target = [&](int t) {
        const Piece x = n.board[size_t(t)];
        if (x == Piece::Empty || colorIndex(x) != c) f(t);
    };
    auto steps = [&](const Steps& st, bool blockable) {
        for (int j = 0; j < st.n; ++j)
            if (!blockable || n.board[st.via[j]] == Piece::Empty) target(st.to[j]);
    };
    switch (typeOf(pc)) {
        case PieceType::King: steps(g.king[c][s], false); break;
        case PieceType::Advisor: steps(g.advisor[c][s], false); break;
        case PieceType::Elephant: steps(g.elephant[c][s], true); break;
        case PieceType::Horse: steps(g.horse[s], true); break;
        case PieceType::Pawn: steps(g.pawn[c][s], false); break;
        case PieceType::Rook:
        case PieceType::Cannon: {
            const bool cannon = typeOf(pc) == PieceType::Cannon;
            for (int d = 0; d < 4; ++d) {
                const Ray& ray = g.ray[s][d];
                int j = 0;
                for (; j < ray.n && n.board[ray.sq[j]] == Piece::Empty; ++j) f(ray.sq[j]);
                if (j == ray.n) continue;
                if (!cannon) {
                    target(ray.sq[j]);
                    continue;
                }
                for (++j; j < ray.n; ++j)
                    if (n.board[ray.sq[j]] != Piece::Empty) {
                        if (colorIndex(n.board[ray.sq[j]]) != c) f(ray.sq[j]);
                        break;
                    }
            }
            break;
        }
        default: break;
    }
}

// Calls f(i, from) for each square `from` that piece i (of the side that just
// moved) could have come from by a move that captured nothing.
template <typename F>
void pieceUnmoves(const Node& n, int i, F&& f) {
    const Geometry& g = geometry();
    const int t = n.sq[size_t(i)];
    const Piece pc = n.board[size_t(t)];
    const int c = colorIndex(pc);
    auto steps = [&](const Steps& st, bool blockable) {
        for (int j = 0; j < st.n; ++j)
            if (n.board[st.to[j]] == Piece::Empty && (!blockable || n.board[st.via[j]] == Piece::Empty)) f(st.to[j]);
    };
    switch (typeOf(pc)) {
        case PieceType::King: steps(g.king[c][t], false); break;
        case PieceType::Advisor: steps(g.advisor[c][t], false); break;
        case PieceType::Elephant: steps(g.elephant[c][t], true); break;  // symmetric
        case PieceType::Horse: steps(g.horseFrom[t], true); break;       // the leg is next to the origin
        case PieceType::Pawn: {
            const Steps& st = g.pawnFrom[c][t];
            for (int j = 0; j < st.n; ++j)
                if (n.board[st.to[j]] == Piece::Empty && kindLocal(PawnKind, st.to[j]) >= 0) f(st.to[j]);
            break;
        }
        case PieceType::Rook:
        case PieceType::Cannon:
            for (int d = 0; d < 4; ++d) {
                const Ray& ray = g.ray[t][d];
                for (int j = 0; j < ray.n && n.board[ray.sq[j]] == Piece::Empty; ++j) f(ray.sq[j]);
            }
            break;
        default: break;
    }
}

int sideOfPiece(const Node& n, int i) { return colorIndex(KindPiece[n.kind[size_t(i)]]); }

// ---------------------------------------------------------------------------

// Work split over threads in chunks taken in turn.
template <typename F>
void parallelFor(uint64_t size, int threads, F&& body) {
    constexpr uint64_t Chunk = 1 << 14;
    std::atomic<uint64_t> next{0};
    auto run = [&] {
        for (;;) {
            const uint64_t begin = next.fetch_add(Chunk);
            if (begin >= size) return;
            body(begin, std::min(size, begin + Chunk));
        }
    };
    if (threads <= 1) {
        run();
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(run);
    for (auto& th : pool) th.join();
}

constexpr uint16_t WinCandidate = 0x8000;  // aux: a capture wins in (aux & 0x7FFF) plies

}  // namespace

Material withoutPiece(const Material& m, Kind captured) {
    Material s = m;
    auto take = [](uint8_t& n) { n = n ? uint8_t(n - 1) : n; };
    switch (captured) {
        case StrongAdvisor: take(s.strongAdvisors); break;
        case StrongElephant: take(s.strongElephants); break;
        case WeakAdvisor: take(s.weakAdvisors); break;
        case WeakElephant: take(s.weakElephants); break;
        case RookKind:
        case HorseKind:
        case CannonKind:
        case PawnKind: take(s.attackers[size_t(captured - RookKind)]); break;
        default: break;  // kings are never captured
    }
    return s;
}

TableCounts Table::counts() const {
    TableCounts c;
    for (int stm = 0; stm < 2; ++stm)
        for (uint16_t v : values[size_t(stm)]) {
            if (v == TbBroken) continue;
            ++c.legal[size_t(stm)];
            if (v == TbDraw)
                ++c.draws[size_t(stm)];
            else if (isWinValue(v))
                ++c.wins[size_t(stm)];
            else
                ++c.losses[size_t(stm)];
            if (isDecided(v)) c.maxDtm = std::max(c.maxDtm, dtmOf(v));
        }
    return c;
}

std::unique_ptr<Table> generate(const Material& m, const TableLookup& subTables, const GenerateOptions& options,
                                std::string& error) {
    // The sub-tables a capture can lead into (by captured kind).
    std::array<const Table*, KindCount> sub{};
    for (int k = StrongAdvisor; k < KindCount; ++k) {
        const Material s = withoutPiece(m, Kind(k));
        if (s == m || s.attackerCount() == 0) continue;  // no such piece, or a draw
        sub[size_t(k)] = subTables ? subTables(s) : nullptr;
        if (!sub[size_t(k)]) {
            error = "needs the table " + s.name() + " first";
            return nullptr;
        }
    }
    auto table = std::make_unique<Table>(m);
    const Indexer& indexer = table->indexer;
    const uint64_t size = indexer.size();
    const int threads = std::max(1, options.threads);
    auto& val = table->values;
    std::array<std::vector<uint16_t>, 2> aux;
    std::array<std::vector<uint8_t>, 2> counter;
    for (int s = 0; s < 2; ++s) {
        val[size_t(s)].assign(size, TbDraw);
        aux[size_t(s)].assign(size, 0);
        counter[size_t(s)].assign(size, 0);
    }

    // The value after a capture of piece `victim` (side `stm` to move then).
    auto captureValue = [&](const Node& n, int victim, int stm) -> uint16_t {
        const Table* t = sub[n.kind[size_t(victim)]];
        if (!t) return TbDraw;  // no attacker left
        const int64_t idx = t->indexer.encode(n.placement(victim));
        return idx < 0 ? TbDraw : t->value(stm, uint64_t(idx));
    };

    // 1. Every index: broken, mated, or its moves counted; captures looked up.
    std::atomic<int> maxLevel{0};
    for (int stm = 0; stm < 2; ++stm) {
        parallelFor(size, threads, [&](uint64_t begin, uint64_t end) {
            Node n;
            Placement p;
            int localMax = 0;
            for (uint64_t idx = begin; idx < end; ++idx) {
                if (!indexer.decode(idx, p)) {
                    val[size_t(stm)][idx] = TbBroken;
                    continue;
                }
                n.set(p);
                // Two pawns on one file before the river: no game reaches it
                // (pawns keep their files until they cross).
                const bool pawnsStacked = p.count[PawnKind] == 2 &&
                                          sqFile(p.sq[PawnKind][0]) == sqFile(p.sq[PawnKind][1]) &&
                                          sqRank(p.sq[PawnKind][0]) <= 4 && sqRank(p.sq[PawnKind][1]) <= 4;
                if (pawnsStacked || attacked(n, n.kingSq(1 - stm), stm)) {
                    val[size_t(stm)][idx] = TbBroken;
                    continue;
                }
                int legal = 0, counted = 0, winIn = INT32_MAX, lossIn = 0;
                for (int i = 0; i < n.count; ++i) {
                    if (sideOfPiece(n, i) != stm) continue;
                    pieceMoves(n, i, [&](int to) {
                        const int from = n.sq[size_t(i)];
                        const Piece moved = n.board[size_t(from)], captured = n.board[size_t(to)];
                        int victim = -1;
                        if (captured != Piece::Empty)
                            for (int j = 0; j < n.count; ++j)
                                if (n.sq[size_t(j)] == to) victim = j;
                        Node& w = n;  // tried in place, then put back
                        w.board[size_t(to)] = moved;
                        w.board[size_t(from)] = Piece::Empty;
                        w.sq[size_t(i)] = uint8_t(to);
                        if (victim >= 0) w.sq[size_t(victim)] = uint8_t(to);
                        const bool safe = !attacked(w, w.kingSq(stm), 1 - stm);
                        if (safe) {
                            ++legal;
                            if (victim < 0) {
                                ++counted;  // decided when the position it leads to is
                            } else {
                                const uint16_t v = captureValue(w, victim, 1 - stm);
                                if (isLossValue(v))
                                    winIn = std::min(winIn, dtmOf(v) + 1), ++counted;
                                else if (isWinValue(v))
                                    lossIn = std::max(lossIn, dtmOf(v) + 1);
                                else
                                    ++counted;  // a draw: this side never loses here
                            }
                        }
                        w.sq[size_t(i)] = uint8_t(from);
                        if (victim >= 0) w.sq[size_t(victim)] = uint8_t(to);
                        w.board[size_t(from)] = moved;
                        w.board[size_t(to)] = captured;
                    });
                }
                if (legal == 0) {
                    val[size_t(stm)][idx] = 1;  // mated (or stalemated): lost, 0 plies
                } else if (counted == 0) {
                    val[size_t(stm)][idx] = uint16_t(lossIn + 1);  // every move captures into a loss
                    localMax = std::max(localMax, lossIn);
                } else {
                    counter[size_t(stm)][idx] = uint8_t(counted);
                    if (winIn != INT32_MAX) {
                        aux[size_t(stm)][idx] = uint16_t(WinCandidate | winIn);
                        localMax = std::max(localMax, winIn);
                    } else {
                        aux[size_t(stm)][idx] = uint16_t(lossIn);
                    }
                }
            }
            int seen = maxLevel.load();
            while (localMax > seen && !maxLevel.compare_exchange_weak(seen, localMax)) {}
        });
        if (options.progress) options.progress(0.15 * (stm + 1));
    }

    // 2. Level by level: the positions decided at `level` plies decide their predecessors.
    for (int level = 0; level <= maxLevel.load(); ++level) {
        const bool wins = level % 2 == 1;  // the positions at this level are wins for the side to move
        if (wins) {
            for (int stm = 0; stm < 2; ++stm)
                parallelFor(size, threads, [&](uint64_t begin, uint64_t end) {
                    for (uint64_t idx = begin; idx < end; ++idx)
                        if (val[size_t(stm)][idx] == TbDraw && aux[size_t(stm)][idx] == (WinCandidate | level))
                            val[size_t(stm)][idx] = uint16_t(level + 1);
                });
        }
        for (int stm = 0; stm < 2; ++stm) {
            const int mover = 1 - stm;  // who made the move that led here
            auto& pv = val[size_t(mover)];
            auto& pc = counter[size_t(mover)];
            auto& pa = aux[size_t(mover)];
            parallelFor(size, threads, [&](uint64_t begin, uint64_t end) {
                Node n;
                Placement p;
                int localMax = 0;
                auto predecessor = [&](const Node& w) {
                    const int64_t pidx = indexer.encode(w.placement());
                    if (pidx < 0) return;
                    std::atomic_ref<uint16_t> v(pv[size_t(pidx)]);
                    if (v.load(std::memory_order_relaxed) != TbDraw) return;  // decided or broken
                    if (!wins) {
                        // It has a move to a lost position: won one ply later.
                        uint16_t expected = TbDraw;
                        v.compare_exchange_strong(expected, uint16_t(level + 2), std::memory_order_relaxed);
                        localMax = std::max(localMax, level + 1);
                    } else if (std::atomic_ref<uint8_t>(pc[size_t(pidx)]).fetch_sub(1, std::memory_order_relaxed) ==
                               1) {
                        // Its last move that did not lose: lost, in as many plies
                        // as its longest defence (maybe a capture).
                        const int dtm = std::max(level + 1, int(pa[size_t(pidx)]));
                        v.store(uint16_t(dtm + 1), std::memory_order_relaxed);
                        localMax = std::max(localMax, dtm);
                    }
                };
                auto unmoveAll = [&](Node& w, bool kingToE) {
                    for (int i = 0; i < w.count; ++i) {
                        if (sideOfPiece(w, i) != mover) continue;
                        const bool strongKing = w.kind[size_t(i)] == StrongKing;
                        if (kingToE && !strongKing) continue;
                        const int to = w.sq[size_t(i)];
                        const Piece piece = w.board[size_t(to)];
                        pieceUnmoves(w, i, [&](int from) {
                            // The strong king stays on files a..e: a predecessor with it
                            // on f..i is another index's mirror image (see index.h).
                            if (strongKing && (kingToE ? sqFile(from) != 4 : sqFile(from) > 4)) return;
                            w.board[size_t(from)] = piece;
                            w.board[size_t(to)] = Piece::Empty;
                            w.sq[size_t(i)] = uint8_t(from);
                            predecessor(w);
                            w.sq[size_t(i)] = uint8_t(to);
                            w.board[size_t(to)] = piece;
                            w.board[size_t(from)] = Piece::Empty;
                        });
                    }
                };
                const uint16_t target = uint16_t(level + 1);
                for (uint64_t idx = begin; idx < end; ++idx) {
                    if (std::atomic_ref<uint16_t>(val[size_t(stm)][idx]).load(std::memory_order_relaxed) != target)
                        continue;
                    indexer.decode(idx, p);
                    n.set(p);
                    unmoveAll(n, false);
                    // With the strong king on the d-file this index also stands for
                    // the mirror image (king on f), reached by a king move from e.
                    if (mover == StrongToMove && sqFile(n.kingSq(0)) == 3) {
                        n.mirror();
                        unmoveAll(n, true);
                    }
                }
                int seen = maxLevel.load();
                while (localMax > seen && !maxLevel.compare_exchange_weak(seen, localMax)) {}
            });
        }
        if (options.progress) {
            // The levels' share: an estimate, as the last level is not known in advance.
            const double f = double(level + 1) / double(maxLevel.load() + 2);
            options.progress(0.3 + 0.7 * f);
        }
    }
    if (options.progress) options.progress(1.0);
    return table;
}

}  // namespace chariot::egtb
