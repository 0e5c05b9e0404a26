#include "chariot/search.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <thread>
#include <utility>

#include "chariot/rules.h"

namespace chariot {

namespace {

// The tuning constants are SearchParams (search_params.h), read from the
// worker's options; these are fixed.
constexpr int CheckInterval = 1024;          // nodes between clock checks
constexpr int MaxHistory = 16384;
constexpr int RuleNoCapturePlies = 120;

// MVV/LVA: victims by value, attackers cheapest first.
constexpr int VictimValue[PieceTypeCount] = {5000, 190, 190, 430, 1000, 460, 90};
constexpr int AttackerOrder[PieceTypeCount] = {6, 1, 1, 3, 5, 4, 0};

// A victim's value for ordering; the king is never captured in legal play.
int victimValue(Piece p) { return VictimValue[int(typeOf(p))]; }

// Continuation-history slot of "piece p arrives on square to": one per
// square the piece may stand on by the rules (tables::mayStand, which FEN
// validation enforces), so kings, advisors, elephants and unadvanced pawns
// take few: 692 slots instead of 14 x 90, and a history table of 0.9 MB
// instead of 3.2 MB that stays in the cache far better. The last slot
// catches anything else.
struct ContSlotTable {
    std::array<std::array<int16_t, BoardSize>, PieceIndexCount> slot{};
    int count = 0;
};
constexpr ContSlotTable makeContSlots() {
    ContSlotTable t;
    for (int pi = 0; pi < PieceIndexCount; ++pi) t.slot[pi].fill(-1);
    for (Color c : {Color::Red, Color::Black})
        for (int type = 0; type < PieceTypeCount; ++type)
            for (int rank = 0; rank < RankCount; ++rank)
                for (int file = 0; file < FileCount; ++file)
                    if (const Square s = makeSquare(file, rank); tables::mayStand(c, PieceType(type), s))
                        t.slot[pieceIndex(c, PieceType(type))][index(s)] = int16_t(t.count++);
    for (auto& row : t.slot)
        for (auto& s : row)
            if (s < 0) s = int16_t(t.count);  // the catch-all slot
    ++t.count;
    return t;
}
constexpr ContSlotTable ContSlotsTable = makeContSlots();
constexpr int ContSlots = ContSlotsTable.count;
static_assert(ContSlots == 2 * (3 * 90 + 9 + 5 + 7 + 55) + 1);
inline int contSlot(Piece p, Square to) {
    assert(tables::mayStand(colorOf(p), typeOf(p), to));
    return ContSlotsTable.slot[pieceIndex(p)][index(to)];
}

// Capture history: [moving piece][to][captured type].
using CaptureHistory = int16_t[PieceIndexCount][BoardSize][PieceTypeCount];

inline void gravity(int16_t& h, int bonus) { h = int16_t(h + bonus - h * std::abs(bonus) / MaxHistory); }

}  // namespace

// ---------------------------------------------------------------------------

void LmrTable::init(const SearchParams& params) {
    if (params.lmrBase == base_ && params.lmrDivisor == divisor_) return;
    base_ = params.lmrBase;
    divisor_ = params.lmrDivisor;
    // In hundredths: 80 and 200 give exactly 0.8 and 2.0.
    const double base = base_ / 100.0, divisor = divisor_ / 100.0;
    for (int d = 1; d < 64; ++d)
        for (int m = 1; m < 64; ++m)
            table_[d][m] = int32_t(std::floor((base + std::log(d) * std::log(m) / divisor) * 1024.0));
}

struct RootMove {
    Move move;
    Value score = -ValueInfinite;
    Value previousScore = -ValueInfinite;
    Value jitter = 0;
    int selDepth = 0;
    std::vector<Move> pv;
};

class Worker {
public:
    Worker(Searcher& owner, SearchShared& shared, int id) : owner_(owner), shared_(shared), id_(id) {}

    void prepare(const Position& root, const std::vector<Move>& rootMoves, const SearchOptions& options,
                 uint64_t seed);
    void iterativeDeepening();
    void clearHistory() {
        std::memset(history_, 0, sizeof(history_));
        std::memset(captureHistory_, 0, sizeof(captureHistory_));
        std::memset(killers_, 0, sizeof(killers_));
        // memset, not a loop: the table is ~1 MB and is cleared per new game
        // (and per input in the persistent protocol fuzzer).
        std::memset(contHistory_.data(), 0, contHistory_.size() * sizeof(int16_t));
        std::fill(counterMoves_.begin(), counterMoves_.end(), Move::none());
    }

    std::atomic<uint64_t> nodes{0};
    std::vector<RootMove> rootMoves;
    int completedDepth = 0;
    std::vector<RootLine> completedLines;  // MultiPV > 1, main thread: the last completed iteration's lines

private:
    struct Frame {
        Value staticEval = 0;
        Move move;
        bool nullMove = false;   // the move made from this frame is a null move
        int contSlot = -1;       // continuation slot of the move made here (-1: none/null)
        Move excluded;           // singular-extension search: this move is left out
        bool ttPv = false;       // this node is or once was on a principal variation
    };

    template <bool PvNode>
    Value search(Value alpha, Value beta, Depth depth, int ply, bool cutNode);
    template <bool PvNode>
    Value qsearch(Value alpha, Value beta, int ply);
    Value rootSearch(Value alpha, Value beta, Depth depth, size_t pvIndex);
    bool checkStop();
    // The main thread's first iteration always completes, stop or not, so
    // that the answer is never an unsearched move (it takes microseconds).
    bool mustFinish() const { return id_ == 0 && rootDepth_ <= 1; }
    bool stopping() const { return !mustFinish() && owner_.stopped(); }
    // Only this thread writes its counter: a plain increment, no locked add.
    void countNode() { nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    void updatePv(int ply, Move m);
    void updateQuietStats(int ply, Move best, Depth depth, const Move* quiets, int quietCount);
    void updateCaptureStats(Move best, Depth depth, const Move* captures, int captureCount);
    // The history bonus of a cutoff at this depth (the malus is its negative).
    int historyBonus(Depth depth) const {
        return std::min(depth * options_.params.historyBonusPerDepth, options_.params.historyBonusMax);
    }
    Value repetitionValue(const rules::Ruling& r, int ply) const;
    void report(int depth, size_t lines);

    // Staged move ordering for the main search.
    class MovePicker;

    Searcher& owner_;       // its public API: limitReached(), stopped(), nodes()
    SearchShared& shared_;  // limits, options, clock, callbacks, TT
    int id_;
    Position pos_;
    SearchOptions options_;
    LmrTable lmr_;          // from options_.params
    int selDepth_ = 0;
    int rootDepth_ = 0;
    // During a null-move verification search the verifying side plays no
    // null move before this ply (0: no verification running).
    int nullMoveMinPly_ = 0;
    Color nullMoveColor_ = Color::Red;
    int bestMoveChanges_ = 0;
    int64_t nextProgressMs_ = 1000;
    Frame frames_[MaxPly + 4];
    Move pv_[MaxPly + 1][MaxPly + 1];
    int pvLength_[MaxPly + 1] = {};
    Move killers_[MaxPly + 2][2];
    int16_t history_[PieceIndexCount][BoardSize] = {};
    CaptureHistory captureHistory_ = {};
    // Continuation history: [slot of the move one or two plies back][slot of this move].
    std::vector<int16_t> contHistory_ = std::vector<int16_t>(size_t(ContSlots) * ContSlots);
    std::vector<Move> counterMoves_ = std::vector<Move>(ContSlots);  // reply that refuted a move
    const int16_t* contRow(int ply, int back) const {
        const int slot = ply >= back ? frames_[ply - back].contSlot : -1;
        return slot >= 0 ? &contHistory_[size_t(slot) * ContSlots] : nullptr;
    }
    int16_t* contRow(int ply, int back) { return const_cast<int16_t*>(std::as_const(*this).contRow(ply, back)); }
};

// ---------------------------------------------------------------------------
// Move picker: TT move, good captures (MVV/LVA, losing ones held back),
// killers, quiets by history, then the losing captures.

class Worker::MovePicker {
public:
    struct Scoring {
        const int16_t (*history)[BoardSize];
        const int16_t* cont1;  // continuation rows (may be null)
        const int16_t* cont2;
        const CaptureHistory* captures;
    };

    MovePicker(const Position& pos, Move ttMove, const Move* killers, Move counter, Scoring scoring,
               bool capturesOnly)
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

    Move next() {
        switch (stage_) {
            case Stage::TTMove:
                stage_ = Stage::GenerateCaptures;
                return ttMove_;
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
            case Stage::Done:
                return Move::none();
        }
        return Move::none();
    }

private:
    enum class Stage : uint8_t {
        TTMove, GenerateCaptures, GoodCaptures, Killer1, Killer2, Counter, GenerateQuiets, Quiets, BadCaptures, Done
    };

    Move pickBest() {
        int best = cursor_;
        for (int i = cursor_ + 1; i < list_.size; ++i)
            if (scores_[i] > scores_[best]) best = i;
        std::swap(list_.moves[cursor_], list_.moves[best]);
        std::swap(scores_[cursor_], scores_[best]);
        return list_.moves[cursor_++];
    }
    bool isUsableKiller(Move m) const {
        return m && m != ttMove_ && pos_.isEmpty(m.to()) && pos_.isPseudoLegal(m);
    }
    // How often this capture refuted its position before (capture history).
    int captureRecord(Move m) const {
        return (*scoring_.captures)[pieceIndex(pos_.pieceOn(m.from()))][index(m.to())]
                                   [int(typeOf(pos_.pieceOn(m.to())))];
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

// ---------------------------------------------------------------------------

void Worker::prepare(const Position& root, const std::vector<Move>& moves, const SearchOptions& options,
                     uint64_t seed) {
    pos_ = root;
    options_ = options;
    lmr_.init(options.params);
    nodes = 0;
    completedDepth = 0;
    completedLines.clear();
    rootDepth_ = 0;
    nullMoveMinPly_ = 0;
    nextProgressMs_ = 1000;
    rootMoves.clear();
    std::mt19937_64 rng(seed);
    for (Move m : moves) {
        RootMove rm;
        rm.move = m;
        rm.pv = {m};
        if (options.randomness > 0)
            rm.jitter = Value(int64_t(rng() % uint64_t(2 * options.randomness + 1)) - options.randomness);
        rootMoves.push_back(rm);
    }
    for (auto& f : frames_) f = Frame{};
    frames_[0].ttPv = true;  // the root is always on the PV
}

bool Worker::checkStop() {
    if (mustFinish()) return false;
    if (shared_.stopRequested.load(std::memory_order_relaxed)) return true;
    if (id_ != 0) return false;
    uint64_t n = nodes.load(std::memory_order_relaxed);
    if (n % CheckInterval == 0 && shared_.callbacks.onProgress) {
        // A sign of life once a second, so GUIs do not show a frozen engine
        // between two iterations.
        const int64_t now = shared_.elapsedMs();
        if (now >= nextProgressMs_) {
            nextProgressMs_ = now + 1000;
            shared_.callbacks.onProgress({owner_.nodes(), now, shared_.tt.hashfull()});
        }
    }
    if (const uint64_t limit = shared_.limits.nodes) {
        // Exact with one thread (reproducible `go nodes`), coarse with more.
        bool single = shared_.threadCount == 1;
        if ((single && n >= limit) || (!single && n % CheckInterval == 0 && owner_.nodes() >= limit)) {
            owner_.limitReached();
            return true;
        }
    }
    if (n % CheckInterval == 0 && shared_.timeUp(true)) {
        owner_.limitReached();
        return true;
    }
    return false;
}

void Worker::updatePv(int ply, Move m) {
    pv_[ply][ply] = m;
    for (int i = ply + 1; i < pvLength_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
    pvLength_[ply] = std::max(pvLength_[ply + 1], ply + 1);
}

Value Worker::repetitionValue(const rules::Ruling& r, int ply) const {
    // A perpetual check or chase loses for the offender, in the ban band
    // (the TT never keeps those scores: they depend on the path).
    if (!r.decided()) return ValueDraw;
    return r.offender == pos_.sideToMove() ? -ValueBan + ply : ValueBan - ply;
}

void Worker::updateQuietStats(int ply, Move best, Depth depth, const Move* quiets, int quietCount) {
    if (killers_[ply][0] != best) {
        killers_[ply][1] = killers_[ply][0];
        killers_[ply][0] = best;
    }
    const int bonus = historyBonus(depth);
    int16_t* cont1 = contRow(ply, 1);
    int16_t* cont2 = contRow(ply, 2);
    auto apply = [&](Move m, int b) {
        const Piece p = pos_.pieceOn(m.from());
        gravity(history_[pieceIndex(p)][index(m.to())], b);
        const int slot = contSlot(p, m.to());
        if (cont1) gravity(cont1[slot], b);
        if (cont2) gravity(cont2[slot], b);
    };
    apply(best, bonus);
    for (int i = 0; i < quietCount; ++i) apply(quiets[i], -bonus);
    if (const int prev = frames_[ply - 1].contSlot; prev >= 0) counterMoves_[size_t(prev)] = best;
}

// A cutoff's capture gains, the captures searched before it lose (best may
// be a quiet move: then the captures only lose).
void Worker::updateCaptureStats(Move best, Depth depth, const Move* captures, int captureCount) {
    const int bonus = historyBonus(depth);
    auto apply = [&](Move m, int b) {
        gravity(captureHistory_[pieceIndex(pos_.pieceOn(m.from()))][index(m.to())][int(typeOf(pos_.pieceOn(m.to())))],
                b);
    };
    if (!pos_.isEmpty(best.to())) apply(best, bonus);
    for (int i = 0; i < captureCount; ++i) apply(captures[i], -bonus);
}

template <bool PvNode>
Value Worker::qsearch(Value alpha, Value beta, int ply) {
    if (PvNode) pvLength_[ply] = ply;
    if (checkStop()) return 0;
    countNode();
    selDepth_ = std::max(selDepth_, ply);

    const bool inCheck = pos_.inCheck();
    if (ply >= MaxPly - 1) return inCheck ? ValueDraw : evaluate(pos_, options_.knowledge);

    alpha = std::max(matedIn(ply), alpha);
    beta = std::min(mateIn(ply + 1), beta);
    if (alpha >= beta) return alpha;

    TranspositionTable& tt = shared_.tt;
    TTHit hit;
    const bool ttHit = tt.probe(pos_.key(), ply, hit);
    if (!PvNode && ttHit && hit.bound != Bound::None &&
        ((hit.bound == Bound::Lower && hit.value >= beta) || (hit.bound == Bound::Upper && hit.value <= alpha) ||
         hit.bound == Bound::Exact))
        return hit.value;
    const bool ttPv = PvNode || (ttHit && hit.isPv);

    Value best, standPat = -ValueInfinite;
    bool exactEval = true;  // standPat is the full evaluation, not a lazy bound
    Value storedEval = 0;   // what the TT keeps as this node's static eval (0 in check)
    if (inCheck) {
        best = -ValueInfinite;
    } else {
        standPat = ttHit && hit.eval != EvalUnknown ? hit.eval
                                                   : evaluateLazy(pos_, alpha, beta, options_.knowledge, exactEval);
        storedEval = exactEval ? standPat : EvalUnknown;
        if (standPat >= beta) {
            if (!ttHit) tt.store(pos_.key(), ply, Move::none(), standPat, storedEval, -1, Bound::Lower, ttPv);
            return standPat;
        }
        alpha = std::max(alpha, standPat);
        best = standPat;
    }

    const Value oldAlpha = alpha;
    Move bestMove;
    int legalMoves = 0;
    MovePicker picker(pos_, ttHit ? hit.move : Move::none(), inCheck ? killers_[ply] : nullptr, Move::none(),
                      {history_, contRow(ply, 1), contRow(ply, 2), &captureHistory_}, !inCheck);
    while (Move m = picker.next()) {
        if (!inCheck) {
            // Hopeless captures: even winning the piece leaves us below alpha,
            // or a dearer piece takes a defended cheaper one.
            int victim = victimValue(pos_.pieceOn(m.to()));
            if (standPat + victim + options_.params.deltaMargin <= alpha) continue;
            if (!pos_.seeGe(m, 0)) continue;
        }
        if (!pos_.isLegal(m)) continue;
        ++legalMoves;
        frames_[ply].contSlot = contSlot(pos_.pieceOn(m.from()), m.to());
        tt.prefetch(pos_.keyAfter(m));
        pos_.makeMove(m);
        Value v = -qsearch<PvNode>(-beta, -alpha, ply + 1);
        pos_.unmakeMove();
        if (stopping()) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                bestMove = m;
                if (PvNode) updatePv(ply, m);
                if (v >= beta) break;
                alpha = v;
            }
        }
    }
    if (inCheck && legalMoves == 0) return matedIn(ply);  // mated (stalemate is a loss too)

    Bound bound = best >= beta ? Bound::Lower : (PvNode && best > oldAlpha) ? Bound::Exact : Bound::Upper;
    tt.store(pos_.key(), ply, bestMove, best, storedEval, 0, bound, ttPv);
    return best;
}

template <bool PvNode>
Value Worker::search(Value alpha, Value beta, Depth depth, int ply, bool cutNode) {
    if (depth <= 0) return qsearch<PvNode>(alpha, beta, ply);
    if (PvNode) pvLength_[ply] = ply;
    if (checkStop()) return 0;
    countNode();
    selDepth_ = std::max(selDepth_, ply);

    // Step 1. Draws and repetitions (path-dependent, so before the TT).
    if (const rules::Ruling r = rules::judge(pos_, ply, {options_.judgeChase}); r.verdict != rules::Verdict::None)
        return repetitionValue(r, ply);
    if (pos_.rule60() >= RuleNoCapturePlies) return ValueDraw;
    if (!hasAttackers(pos_, Color::Red) && !hasAttackers(pos_, Color::Black)) return ValueDraw;
    const bool inCheck = pos_.inCheck();
    if (ply >= MaxPly - 1) return inCheck ? ValueDraw : evaluate(pos_, options_.knowledge);

    // Step 2. Mate-distance pruning.
    alpha = std::max(matedIn(ply), alpha);
    beta = std::min(mateIn(ply + 1), beta);
    if (alpha >= beta) return alpha;

    // Step 3. Transposition table.
    TranspositionTable& tt = shared_.tt;
    TTHit hit;
    // A singular-extension search leaves the TT move out: no TT move, no cutoff.
    const Move excluded = frames_[ply].excluded;
    const bool ttHit = tt.probe(pos_.key(), ply, hit);
    const Move ttMove = ttHit && !excluded ? hit.move : Move::none();
    if (!PvNode && ttHit && !excluded && hit.depth >= depth && hit.bound != Bound::None &&
        ((hit.bound == Bound::Lower && hit.value >= beta) || (hit.bound == Bound::Upper && hit.value <= alpha) ||
         hit.bound == Bound::Exact))
        return hit.value;
    // A node once on a PV is likely to be on one again: it is pruned and
    // reduced less, and its entries keep the flag.
    const bool ttPv = PvNode || (ttHit && hit.isPv);
    // A singular search runs in its node's frame with a null window: the
    // frame keeps the node's own flag (a PV node's) for its children.
    if (!excluded) frames_[ply].ttPv = ttPv;

    // Step 4. Static evaluation.
    Value staticEval = inCheck                              ? -ValueInfinite
                       : ttHit && hit.eval != EvalUnknown ? hit.eval
                                                          : evaluate(pos_, options_.knowledge);
    frames_[ply].staticEval = staticEval;
    const Pruning pruning = options_.pruning;
    const SearchParams& params = options_.params;

    if (!PvNode && !inCheck && pruning >= Pruning::Small) {
        // Step 5a. Razoring: far below alpha at low depth, only a capture
        // can save the node; a null-window quiescence search decides.
        if (pruning >= Pruning::Large && !excluded && depth <= params.razorMaxDepth &&
            staticEval + params.razorBase + params.razorPerDepth * depth * depth < alpha && !isDecisive(alpha)) {
            const Value v = qsearch<false>(alpha - 1, alpha, ply);
            if (stopping()) return 0;
            if (v < alpha) return v;
        }

        // Step 5b. Reverse futility: far above beta at low depth.
        if (pruning >= Pruning::Large && !ttPv && depth <= params.reverseFutilityDepth &&
            staticEval - params.reverseFutilityMargin * depth >= beta && !isDecisive(beta))
            return staticEval;

        // Step 6. Null move: R = 2, 3 from depth 7 (the default params); never
        // twice in a row, not with too little material (zugzwang), verified
        // at high depth; only at expected cut nodes (at an expected all node
        // the null move's reply is mostly wasted work, as Stockfish found).
        if (cutNode && depth >= 2 && staticEval >= beta && !frames_[ply - 1].nullMove && !excluded &&
            (ply >= nullMoveMinPly_ || pos_.sideToMove() != nullMoveColor_) &&
            nullMoveSafe(pos_) &&
            !isDecisive(beta)) {
            const int R = params.nullMoveBase + (depth >= params.nullMoveDeepDepth);
            frames_[ply].nullMove = true;
            frames_[ply].move = Move::null();
            frames_[ply].contSlot = -1;
            pos_.makeNullMove();
            Value v = -search<false>(-beta, -beta + 1, depth - 1 - R, ply + 1, !cutNode);
            pos_.unmakeNullMove();
            frames_[ply].nullMove = false;
            if (stopping()) return 0;
            if (v >= beta) {
                if (v >= ValueDecisive) v = beta;  // no unproven mates from a null move
                if (nullMoveMinPly_ || depth < params.nullMoveVerifyDepth) return v;
                // Verification search (never nested): this side plays no null
                // move for the first three quarters of the reduced depth.
                nullMoveMinPly_ = ply + 3 * (depth - 1 - R) / 4;
                nullMoveColor_ = pos_.sideToMove();
                Value verified = search<false>(beta - 1, beta, depth - 1 - R, ply, false);
                nullMoveMinPly_ = 0;
                if (stopping()) return 0;
                if (verified >= beta) return v;
            }
        }
    }

    // Step 6b. ProbCut: a capture that beats beta by a margin in a search
    // four plies shallower very likely beats beta at full depth. Skipped
    // when the TT already holds a search nearly as deep that fell short.
    const Value probCutBeta = beta + params.probCutMargin;
    if (!PvNode && !inCheck && pruning >= Pruning::Large && !excluded && depth >= params.probCutMinDepth &&
        !isDecisive(beta) &&
        !(ttHit && hit.bound != Bound::None && hit.depth >= depth - 3 && hit.value < probCutBeta)) {
        MovePicker picker(pos_, ttMove, nullptr, Move::none(), {history_, nullptr, nullptr, &captureHistory_}, true);
        while (Move m = picker.next()) {
            if (!pos_.isLegal(m) || !pos_.seeGe(m, probCutBeta - staticEval)) continue;
            frames_[ply].move = m;
            frames_[ply].contSlot = contSlot(pos_.pieceOn(m.from()), m.to());
            tt.prefetch(pos_.keyAfter(m));
            pos_.makeMove(m);
            // The quiescence first: most candidates fail there, cheaply.
            Value v = -qsearch<false>(-probCutBeta, -probCutBeta + 1, ply + 1);
            if (v >= probCutBeta) v = -search<false>(-probCutBeta, -probCutBeta + 1, depth - 4, ply + 1, !cutNode);
            pos_.unmakeMove();
            if (stopping()) return 0;
            if (v >= probCutBeta) {
                tt.store(pos_.key(), ply, m, v, staticEval, depth - 3, Bound::Lower, ttPv);
                return v;
            }
        }
    }

    // Step 7. Internal iterative reduction: a PV or cut node without a TT
    // move is searched one ply shallower (its move ordering is a guess).
    if ((PvNode || cutNode) && !ttMove && !excluded && depth >= params.iirMinDepth) --depth;

    // Step 8. The move loop.
    const int prevSlot = frames_[ply - 1].contSlot;
    MovePicker picker(pos_, ttMove, killers_[ply], prevSlot >= 0 ? counterMoves_[size_t(prevSlot)] : Move::none(),
                      {history_, contRow(ply, 1), contRow(ply, 2), &captureHistory_}, false);
    const Value oldAlpha = alpha;
    Value best = -ValueInfinite;
    Move bestMove;
    MoveList quiets;  // quiet moves searched here (unfilled storage, like every move list)
    MoveList captures;  // captures searched here, the best one excepted
    int moveCount = 0;
    killers_[ply + 1][0] = killers_[ply + 1][1] = Move::none();

    const bool improving = ply >= 2 && !inCheck && staticEval > frames_[ply - 2].staticEval;
    // Whether this node may use the shallow pruning of step 8a. PV nodes prune
    // too, but only in deep iterations: in a shallow search the PV's leaves
    // decide the root's score, and pruned defences there made `analyze
    // --depth 2` and the low skill levels hang pieces.
    const bool shallowPruning = !inCheck && pruning >= Pruning::Large &&
                                (!PvNode || rootDepth_ >= params.pvPruneMinRootDepth);
    while (Move m = picker.next()) {
        if (m == excluded || !pos_.isLegal(m)) continue;
        tt.prefetch(pos_.keyAfter(m));  // early: the pruning tests below overlap the memory latency
        ++moveCount;
        const bool capture = !pos_.isEmpty(m.to());
        const bool isKiller = m == killers_[ply][0] || m == killers_[ply][1];

        // Step 8a. Shallow pruning of late quiet moves, once a move that
        // does not lose has been found: move-count pruning and futility (at
        // PV nodes too, as Stockfish: the first move already holds the PV).
        if (shallowPruning && !capture && !isKiller && best > -ValueDecisive) {
            const bool lateMove =
                depth <= params.lmpMaxDepth && moveCount > (params.lmpBase + depth * depth) / (2 - improving);
            if (lateMove) picker.skipQuiets();  // later quiet non-checks would be pruned too
            const bool futile = depth <= params.futilityMaxDepth &&
                                staticEval + params.futilityBase + params.futilityPerDepth * depth <= alpha;
            // ...or a quiet move that hangs material by static exchange.
            if ((lateMove || futile ||
                 (depth <= params.seePruneMaxDepth && !pos_.seeGe(m, -params.seeQuietMargin * depth))) &&
                !pos_.givesCheck(m))
                continue;
        }
        // Captures that lose a lot by static exchange, at low depth.
        if (shallowPruning && capture && best > -ValueDecisive && depth <= params.seePruneMaxDepth &&
            !pos_.seeGe(m, -params.seeCaptureMargin * depth * depth) &&
            !pos_.givesCheck(m))
            continue;

        // Singular extension: when every other move falls well short of the
        // TT move's score, the TT move is searched one ply deeper; when even
        // without it the node beats beta, cut (multi-cut); when the TT move
        // is not singular but already beats beta, search it one ply less.
        int singular = 0;
        if (m == ttMove && depth >= params.singularMinDepth && ply < 2 * rootDepth_ && hit.depth >= depth - 3 &&
            (hit.bound == Bound::Lower || hit.bound == Bound::Exact) && !isDecisive(hit.value)) {
            const Value singularBeta = hit.value - params.singularMarginPerDepth * depth;
            frames_[ply].excluded = m;
            const Value v = search<false>(singularBeta - 1, singularBeta, (depth - 1) / 2, ply, cutNode);
            frames_[ply].excluded = Move::none();
            if (stopping()) return 0;
            if (v < singularBeta) singular = 1;
            else if (singularBeta >= beta) return singularBeta;
            else if (hit.value >= beta) singular = -1;
        }

        // Only a check that does not give material away by static exchange
        // is extended: xiangqi's cannon and rook checks are too many to
        // extend them all (bounded so that perpetual checking cannot explode).
        const bool checkExtends = ply < 2 * rootDepth_ && pos_.givesCheck(m) && pos_.seeGe(m, 0);
        frames_[ply].move = m;
        frames_[ply].contSlot = contSlot(pos_.pieceOn(m.from()), m.to());
        pos_.makeMove(m);
        const bool givesCheck = pos_.inCheck();
        const int extension = singular != 0 ? singular : checkExtends ? 1 : 0;
        const Depth newDepth = depth - 1 + extension;

        Value v;
        if (moveCount == 1) {
            v = -search<PvNode>(-beta, -alpha, newDepth, ply + 1, !PvNode && !cutNode);
        } else {
            // Late-move reductions for quiet moves (a check one ply less).
            int r = 0;
            if (depth >= 3 && !capture && !inCheck && pruning >= Pruning::Medium) {
                // In 1024ths of a ply, rounded down to whole plies at the end.
                int fine = lmr_.fine(depth, moveCount);
                fine -= PvNode * params.lmrPv;
                fine -= (ttPv && !PvNode) * params.lmrTtPv;
                fine -= isKiller * params.lmrKiller;
                fine -= givesCheck * params.lmrCheck;
                fine += cutNode * params.lmrCutNode;
                fine += !improving * params.lmrNotImproving;
                if (params.lmrHistory) {
                    // Quiet moves with a good record are reduced less, bad ones more.
                    const int slot = frames_[ply].contSlot;
                    const int16_t *cont1 = contRow(ply, 1), *cont2 = contRow(ply, 2);
                    const int stat = 2 * history_[pieceIndex(pos_.pieceOn(m.to()))][index(m.to())] +
                                     (cont1 ? cont1[slot] : 0) + (cont2 ? cont2[slot] : 0);
                    fine -= stat * params.lmrHistory / 8192;
                }
                r = std::clamp(fine >> 10, 0, newDepth - 1);
            }
            v = -search<false>(-alpha - 1, -alpha, newDepth - r, ply + 1, true);
            if (r > 0 && v > alpha) {
                // The reduced search beat alpha: search again at full depth, a
                // ply deeper when it beat alpha by a margin, a ply shallower
                // when it barely beat the best move so far.
                const Depth reDepth = newDepth + (v > alpha + params.researchDeeperMargin + params.researchDeeperPerR * r) - (v < best + newDepth);
                if (reDepth > newDepth - r) v = -search<false>(-alpha - 1, -alpha, reDepth, ply + 1, !cutNode);
            }
            if (PvNode && v > alpha && v < beta) v = -search<true>(-beta, -alpha, newDepth, ply + 1, false);
        }
        pos_.unmakeMove();
        if (stopping()) return 0;

        if (v > best) {
            best = v;
            if (v > alpha) {
                bestMove = m;
                if (PvNode) updatePv(ply, m);
                if (v >= beta) break;
                alpha = v;
            }
        }
        if (!capture && quiets.size < MaxMoves) quiets.push(m);
        if (capture && m != bestMove && captures.size < MaxMoves) captures.push(m);
    }

    // Step 9. No legal move: mate and stalemate both lose.
    if (moveCount == 0) return matedIn(ply);

    // Step 10. History, killers and the TT.
    if (best >= beta) {
        if (pos_.isEmpty(bestMove.to())) updateQuietStats(ply, bestMove, depth, quiets.moves, quiets.size);
        updateCaptureStats(bestMove, depth, captures.moves, captures.size);
    }
    Bound bound = best >= beta ? Bound::Lower : (PvNode && best > oldAlpha) ? Bound::Exact : Bound::Upper;
    // A deep fail-low under a PV parent is a likely PV alternative: it joins the PV nodes.
    const bool storePv = ttPv || (best <= oldAlpha && depth > 3 && ply >= 1 && frames_[ply - 1].ttPv);
    // A fail-low stores no move: the scores of its moves are upper bounds
    // only, so the entry keeps the move an earlier search found.
    if (!excluded)
        tt.store(pos_.key(), ply, bestMove, best, inCheck ? 0 : staticEval, depth, bound,
                 storePv);
    return best;
}

Value Worker::rootSearch(Value alpha, Value beta, Depth depth, size_t pvIndex) {
    Value best = -ValueInfinite;
    for (size_t i = pvIndex; i < rootMoves.size(); ++i) {
        RootMove& rm = rootMoves[i];
        const Value jitter = rm.jitter;
        selDepth_ = 0;
        if (id_ == 0 && shared_.callbacks.onCurrentMove && shared_.elapsedMs() > 1000)
            shared_.callbacks.onCurrentMove({depth, rm.move, int(i) + 1});
        frames_[0].move = rm.move;
        frames_[0].contSlot = contSlot(pos_.pieceOn(rm.move.from()), rm.move.to());
        pos_.makeMove(rm.move);
        const Depth newDepth = depth - 1 + (pos_.inCheck() ? 1 : 0);
        Value v;
        // The jitter shifts this move's window so comparisons stay consistent.
        if (i == pvIndex) {
            v = -search<true>(-(beta - jitter), -(alpha - jitter), newDepth, 1, false) + jitter;
        } else {
            v = -search<false>(-(alpha - jitter) - 1, -(alpha - jitter), newDepth, 1, true) + jitter;
            if (v > alpha && v < beta)
                v = -search<true>(-(beta - jitter), -(alpha - jitter), newDepth, 1, false) + jitter;
        }
        pos_.unmakeMove();
        if (stopping()) break;

        if (i == pvIndex || v > alpha) {
            rm.score = v;
            rm.selDepth = selDepth_;
            rm.pv.assign(1, rm.move);
            for (int k = 1; k < pvLength_[1]; ++k) rm.pv.push_back(pv_[1][k]);
            if (v > best) best = v;
            if (v > alpha) {
                if (i != pvIndex) {
                    ++bestMoveChanges_;
                    // Bring the new best move to the front of the searched part.
                    std::rotate(rootMoves.begin() + long(pvIndex), rootMoves.begin() + long(i),
                                rootMoves.begin() + long(i) + 1);
                }
                if (v >= beta) return v;
                alpha = v;
                if (i != pvIndex && id_ == 0 && shared_.options.multiPV == 1 && shared_.elapsedMs() > 1000 && depth > 1)
                    report(depth, 1);
            }
        } else {
            rm.score = -ValueInfinite;  // failed low: keeps its previous order
        }
    }
    return best;
}

void Worker::report(int depth, size_t lines) {
    if (!shared_.callbacks.onIteration) return;
    for (size_t k = 0; k < lines && k < rootMoves.size(); ++k) {
        const RootMove& rm = rootMoves[k];
        SearchInfo info;
        info.depth = depth;
        info.selDepth = std::max(rm.selDepth, depth);
        info.multiPV = int(k) + 1;
        info.score = rm.score == -ValueInfinite ? rm.previousScore : rm.score;
        if (info.score == -ValueInfinite) continue;
        info.nodes = owner_.nodes();
        info.timeMs = shared_.elapsedMs();
        info.hashfull = shared_.tt.hashfull();
        info.pv = rm.pv;
        shared_.callbacks.onIteration(info);
    }
}

void Worker::iterativeDeepening() {
    const bool main = id_ == 0;
    const SearchLimits& limits = shared_.limits;
    const size_t multiPV = std::min<size_t>(std::max(1, options_.multiPV), rootMoves.size());
    Value previousBest = -ValueInfinite;
    Move previousBestMove;
    int stableIterations = 0;

    for (rootDepth_ = 1; rootDepth_ <= limits.depth && rootDepth_ <= MaxSearchDepth; ++rootDepth_) {
        // Helpers skip some depths so that threads spread over the tree.
        if (!main && rootDepth_ > 1 && ((rootDepth_ + id_) % 3 == 0)) continue;
        bestMoveChanges_ = 0;
        for (RootMove& rm : rootMoves) rm.previousScore = rm.score;

        for (size_t pvIndex = 0; pvIndex < multiPV && !stopping(); ++pvIndex) {
            Value prev = rootMoves[pvIndex].previousScore;
            Value delta = options_.params.aspirationDelta;
            Value alpha = -ValueInfinite, beta = ValueInfinite;
            if (rootDepth_ >= 4 && prev != -ValueInfinite && !isDecisive(prev)) {
                alpha = std::max(prev - delta, -ValueInfinite);
                beta = std::min(prev + delta, ValueInfinite);
            }
            while (true) {
                Value v = rootSearch(alpha, beta, rootDepth_, pvIndex);
                std::stable_sort(rootMoves.begin() + long(pvIndex), rootMoves.end(),
                                 [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                if (stopping()) break;
                if (v <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(v - delta, -ValueInfinite);
                } else if (v >= beta) {
                    beta = std::min(v + delta, ValueInfinite);
                } else {
                    break;
                }
                delta += delta / 2 + 8;
                if (delta > 600) alpha = -ValueInfinite, beta = ValueInfinite;
            }
            std::stable_sort(rootMoves.begin(), rootMoves.begin() + long(pvIndex) + 1,
                             [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        }
        if (stopping()) {
            // An interrupted iteration's first move was searched with a full
            // window only if its score is set; otherwise keep the last result.
            if (rootMoves[0].score == -ValueInfinite) {
                auto it = std::find_if(rootMoves.begin(), rootMoves.end(),
                                       [&](const RootMove& r) { return r.move == previousBestMove; });
                if (it != rootMoves.end()) std::rotate(rootMoves.begin(), it, it + 1);
                if (rootMoves[0].score == -ValueInfinite) rootMoves[0].score = rootMoves[0].previousScore;
            }
            break;
        }
        completedDepth = rootDepth_;
        if (!main) continue;
        // The root is never stored by the tree search; keep its result for
        // `probe` and for the next search from this position.
        if (!isBanScore(rootMoves[0].score))
            shared_.tt.store(pos_.key(), 0, rootMoves[0].move, rootMoves[0].score,
                             pos_.inCheck() ? 0 : evaluate(pos_, options_.knowledge), rootDepth_, Bound::Exact, true);

        report(rootDepth_, multiPV);
        if (multiPV > 1) {
            completedLines.clear();
            for (size_t k = 0; k < multiPV; ++k)
                completedLines.push_back({rootMoves[k].move, rootMoves[k].score, rootDepth_,
                                          std::max(rootMoves[k].selDepth, rootDepth_), rootMoves[k].pv});
        }

        // Time management after a completed iteration.
        const Value score = rootMoves[0].score;
        const Move bestMove = rootMoves[0].move;
        stableIterations = bestMove == previousBestMove ? stableIterations + 1 : 0;
        // A clock is managed: no new iteration once most of the plan is
        // spent. A fixed movetime is used to its end (the hard limit stops
        // it) unless the answer is forced or a mate is proven.
        const bool clocked = shared_.deadlines.soft >= 0 && !limits.infinite;
        const bool managed = clocked && limits.time.moveTime < 0;
        if (limits.mate > 0 && isMateScore(score) && score >= mateIn(2 * limits.mate)) break;
        if (clocked && !shared_.pondering.load()) {
            if (rootMoves.size() == 1 && rootDepth_ >= 6) break;  // only move
            if (isMateScore(score) && ValueMate - std::abs(score) <= rootDepth_) break;  // proven mate
        }
        if (managed && !shared_.pondering.load()) {
            double factor = 1.0;
            factor *= 1.0 + 0.6 * std::min(bestMoveChanges_, 4) / 2.0;
            if (previousBest != -ValueInfinite && score < previousBest - 30) factor *= 1.35;
            if (stableIterations >= 4) factor *= 0.7;
            // 0.85, not 0.6: at 0.6 a 10s+0.1 game of 160 plies spent about
            // 15 of the 18 s it gives each side (Pikafish-HCE: 17).
            if (shared_.clockElapsedMs() > int64_t(double(shared_.deadlines.soft) * factor * 0.85)) break;
        }
        previousBest = score;
        previousBestMove = bestMove;
    }
}

// ---------------------------------------------------------------------------

PoolThread::PoolThread() : thread_([this] { idleLoop(); }) {}

PoolThread::~PoolThread() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void PoolThread::run(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        assert(!busy_);
        job_ = std::move(job);
        busy_ = true;
    }
    cv_.notify_all();
}

void PoolThread::wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
}

bool PoolThread::busy() const {
    std::lock_guard lock(mutex_);
    return busy_;
}

void PoolThread::idleLoop() {
    std::unique_lock lock(mutex_);
    while (true) {
        cv_.wait(lock, [this] { return busy_ || quit_; });
        if (!busy_) return;  // quit, and no job left
        std::function<void()> job = std::move(job_);
        lock.unlock();
        job();
        lock.lock();
        busy_ = false;
        cv_.notify_all();
    }
}

// ---------------------------------------------------------------------------

Searcher::Searcher(TranspositionTable& tt) : shared_(tt) { resizePool(1); }

Searcher::~Searcher() {
    stop();
    wait();
    threads_.clear();  // joins the threads before the workers go
}

void Searcher::resizePool(int threads) {
    while (int(workers_.size()) < threads) {
        workers_.push_back(std::make_unique<Worker>(*this, shared_, int(workers_.size())));
        threads_.push_back(std::make_unique<PoolThread>());
    }
    while (int(workers_.size()) > threads) {
        threads_.pop_back();
        workers_.pop_back();
    }
}

void Searcher::clearHistory() {
    wait();
    for (auto& w : workers_) w->clearHistory();
}

uint64_t Searcher::nodes() const {
    uint64_t total = 0;
    for (const auto& w : workers_) total += w->nodes.load(std::memory_order_relaxed);
    return total;
}

void Searcher::stop() {
    // Set before limitReached() takes the wait mutex, so a waiter woken by it sees the command.
    shared_.stopCommanded.store(true, std::memory_order_relaxed);
    limitReached();
}

void Searcher::limitReached() {
    {
        std::lock_guard lock(waitMutex_);
        shared_.stopRequested.store(true, std::memory_order_relaxed);
    }
    waitCv_.notify_all();
}

void Searcher::ponderhit() {
    {
        std::lock_guard lock(waitMutex_);
        shared_.clockStartMs.store(shared_.elapsedMs(), std::memory_order_relaxed);
        shared_.pondering.store(false, std::memory_order_relaxed);
    }
    waitCv_.notify_all();
}

bool Searcher::searching() const { return threads_[0]->busy(); }

void Searcher::wait() { threads_[0]->wait(); }

SearchResult Searcher::search(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                              SearchCallbacks callbacks) {
    start(root, limits, options, std::move(callbacks));
    wait();
    return lastResult_;
}

void Searcher::start(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                     SearchCallbacks callbacks) {
    wait();
    shared_.start = std::chrono::steady_clock::now();
    shared_.clockStartMs = 0;
    shared_.pondering = limits.ponder;
    shared_.stopRequested = false;
    shared_.stopCommanded = false;
    shared_.limits = limits;
    // A mate search ends once the depth that could prove the mate is spent.
    if (limits.mate > 0) shared_.limits.depth = std::min(limits.depth, 2 * limits.mate + 2);
    shared_.options = options;
    shared_.callbacks = std::move(callbacks);
    shared_.deadlines = computeDeadlines(limits.time);
    shared_.threadCount = std::clamp(options.threads, 1, 256);
    root_ = root;
    resizePool(shared_.threadCount);

    // Root moves: legal, not banned, and within searchmoves if given.
    MoveList legal;
    generateLegal(root_, legal);
    rootMoves_.clear();
    for (Move m : legal) {
        if (std::find(limits.banned.begin(), limits.banned.end(), m) != limits.banned.end()) continue;
        if (!limits.searchMoves.empty() &&
            std::find(limits.searchMoves.begin(), limits.searchMoves.end(), m) == limits.searchMoves.end())
            continue;
        rootMoves_.push_back(m);
    }
    // What an earlier, deeper search found here: the answer if this one is
    // stopped before it gets past its first iteration.
    ttRootMove_ = Move::none();
    ttRootDepth_ = 0;
    TTHit hit;
    if (shared_.tt.probe(root_.key(), 0, hit) && hit.move && hit.bound == Bound::Exact &&
        std::find(rootMoves_.begin(), rootMoves_.end(), hit.move) != rootMoves_.end()) {
        ttRootMove_ = hit.move;
        ttRootDepth_ = hit.depth;
        ttRootValue_ = hit.value;
    }
    shared_.tt.newSearch();
    threads_[0]->run([this] { mainThread(); });
}

void Searcher::mainThread() {
    SearchResult result;
    if (!rootMoves_.empty()) {
        for (auto& w : workers_) w->prepare(root_, rootMoves_, shared_.options, shared_.options.seed);
        for (size_t i = 1; i < workers_.size(); ++i) threads_[i]->run([this, i] { workers_[i]->iterativeDeepening(); });
        workers_[0]->iterativeDeepening();
    }
    // A ponder or infinite search must not answer before stop or ponderhit.
    {
        std::unique_lock lock(waitMutex_);
        if (shared_.limits.minThinkMs < 0 || rootMoves_.empty()) {
            waitCv_.wait(lock, [this] {
                return shared_.stopRequested.load() || !(shared_.pondering.load() || shared_.limits.infinite);
            });
        } else {
            // The strength limiter: only a stop command ends the wait early;
            // otherwise the clock must run and the minimum think time pass.
            while (!shared_.stopCommanded.load()) {
                if (shared_.pondering.load() || shared_.limits.infinite) {
                    waitCv_.wait(lock);
                    continue;
                }
                const int64_t left = shared_.limits.minThinkMs - shared_.clockElapsedMs();
                if (left <= 0) break;
                waitCv_.wait_for(lock, std::chrono::milliseconds(left));
            }
        }
    }
    limitReached();  // the helpers
    for (size_t i = 1; i < threads_.size(); ++i) threads_[i]->wait();
    if (!rootMoves_.empty()) result = pickResult();
    result.nodes = nodes();
    result.timeMs = shared_.elapsedMs();
    result.hashfull = shared_.tt.hashfull();
    lastResult_ = result;
    if (shared_.callbacks.onDone) shared_.callbacks.onDone(result);
}

SearchResult Searcher::pickResult() {
    // The main thread's answer, unless a helper completed a deeper iteration
    // with a better score (Lazy SMP: its tree is then the better one).
    const Worker* chosen = workers_[0].get();
    auto scoreOf = [](const Worker& w) {
        const RootMove& rm = w.rootMoves[0];
        return rm.score == -ValueInfinite ? rm.previousScore : rm.score;
    };
    for (size_t i = 1; i < workers_.size(); ++i) {
        const Worker& w = *workers_[i];
        if (w.completedDepth > chosen->completedDepth && scoreOf(w) > scoreOf(*chosen)) chosen = &w;
    }
    const RootMove& best = chosen->rootMoves[0];
    SearchResult result;
    result.best = best.move;
    result.score = scoreOf(*chosen);
    if (result.score == -ValueInfinite) result.score = 0;
    result.depth = chosen->completedDepth;
    result.selDepth = std::max(best.selDepth, result.depth);
    result.pv = best.pv;
    if (result.pv.empty() || result.pv[0] != result.best) result.pv.assign(1, result.best);
    if (chosen == workers_[0].get()) result.lines = chosen->completedLines;
    // Stopped during the first iterations: an earlier, deeper search of this
    // very position knows better than a depth-1 answer.
    if (ttRootMove_ && result.depth <= 1 && ttRootDepth_ > result.depth && chosen == workers_[0].get()) {
        result.best = ttRootMove_;
        result.score = ttRootValue_;
        result.depth = ttRootDepth_;
        result.pv.assign(1, ttRootMove_);
    }
    if (result.pv.size() > 1) result.ponder = result.pv[1];
    if (!result.ponder) {
        // No PV move: take the reply from the TT if it is legal.
        Position p = root_;
        p.makeMove(result.best);
        TTHit hit;
        if (shared_.tt.probe(p.key(), 1, hit) && hit.move && p.isPseudoLegal(hit.move) && p.isLegal(hit.move)) {
            result.ponder = hit.move;
            result.pv.push_back(hit.move);
        }
    }
    return result;
}

// ---------------------------------------------------------------------------

bool isMateValue(Value v) { return isMateScore(v); }

int mateInMoves(Value v) {
    if (!isMateScore(v)) return 0;
    return v > 0 ? (ValueMate - v + 1) / 2 : -(ValueMate + v) / 2;
}

int toUcciScore(Value v) {
    if (v >= ValueBanInMaxPly) return 9900 - (ValueBan - v);   // won by the repetition rules
    if (v <= -ValueBanInMaxPly) return -9900 + (ValueBan + v);
    if (v >= ValueMateInMaxPly) return 10000 - (ValueMate - v);
    if (v <= -ValueMateInMaxPly) return -10000 + (ValueMate + v);
    return std::clamp(v / 4, -9000, 9000);
}

int toCentipawns(Value v) {
    if (v >= ValueBanInMaxPly) return 20000 - (ValueBan - v);
    if (v <= -ValueBanInMaxPly) return -20000 + (ValueBan + v);
    return v;
}

}  // namespace chariot
