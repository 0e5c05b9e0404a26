#include "chariot/search.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <random>
#include <thread>
#include <utility>

#include "chariot/eval.h"
#include "chariot/movepick.h"
#include "chariot/rules.h"

namespace chariot {

namespace {

// The tuning constants are SearchParams (search_params.h), read from the
// worker's options; these are fixed.
constexpr int CheckInterval = 1024;  // nodes between clock checks
#if CHARIOT_NO_THREADS
// Without threads: the longest the input waits for the search to let the
// host deliver it (`stop`, `isready`); each turn costs the search a little
// (a few percent in all at this interval: docs/web.md).
constexpr int64_t PollIntervalMs = 5;
#endif

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

SearchInfo answerLine(const SearchResult& r) {
    SearchInfo line;
    line.depth = r.depth;
    line.selDepth = r.selDepth;
    line.score = r.score;
    line.bound = r.bound;
    line.nodes = r.nodes;
    line.timeMs = r.timeMs;
    line.hashfull = r.hashfull;
    line.pv = r.pv;
    return line;
}

bool gameEndsAfter(const Position& root, Move m, bool judgeChase) {
    Position pos = root;
    pos.makeMove(m);
    MoveList legal;
    generateLegal(pos, legal);
    return legal.size == 0 || rules::judge(pos, 1, {judgeChase}).verdict != rules::Verdict::None ||
           pos.rule60() >= rules::NoCapturePlies;
}

void trimAtGameEnd(const Position& root, std::vector<Move>& pv, bool judgeChase) {
    Position pos = root;
    for (size_t i = 0; i < pv.size(); ++i) {
        if (!pos.isPseudoLegal(pv[i]) || !pos.isLegal(pv[i])) {
            pv.resize(i);
            return;
        }
        pos.makeMove(pv[i]);
        // As the search judged it: a repetition inside the line ends the game.
        if (rules::judge(pos, int(i) + 1, {judgeChase}).verdict != rules::Verdict::None ||
            pos.rule60() >= rules::NoCapturePlies) {
            pv.resize(i + 1);
            return;
        }
    }
}

// ---------------------------------------------------------------------------

void Worker::prepare(const Position& root, const std::vector<Move>& moves, const SearchOptions& options,
                     uint64_t seed) {
    pos_ = root;
    options_ = options;
    lmr_.init(options.params);
    useNet_ = options.net && options.knowledge == Knowledge::Large;
    nnue_.setNetwork(useNet_ ? options.net : nullptr);
    nodes = 0;
    completedDepth = 0;
    completedLines.clear();
    rootDepth_ = 0;
    nullMoveMinPly_ = 0;
    nextProgressMs_ = 1000;
    nextPollMs_ = 0;
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

void Worker::clearHistory() {
    std::memset(history_, 0, sizeof(history_));
    std::memset(captureHistory_, 0, sizeof(captureHistory_));
    std::memset(killers_, 0, sizeof(killers_));
    // memset, not a loop: the table is ~1 MB and is cleared per new game
    // (and per input in the persistent protocol fuzzer).
    std::memset(contHistory_.data(), 0, contHistory_.size() * sizeof(int16_t));
    std::fill(counterMoves_.begin(), counterMoves_.end(), Move::none());
}

bool Worker::checkStop() {
    if (mustFinish()) return false;
    if (shared_.stopRequested.load(std::memory_order_relaxed)) return true;
    if (id_ != 0) return false;
    uint64_t n = nodes.load(std::memory_order_relaxed);
    if (n % CheckInterval == 0 && shared_.callbacks.onProgress) {
        // A sign of life once a second, so GUIs do not show a frozen engine
        // between two iterations.
        const int64_t now = shared_.time.elapsedMs();
        if (now >= nextProgressMs_) {
            nextProgressMs_ = now + 1000;
            shared_.callbacks.onProgress({shared_.nodes(), now, shared_.tt.hashfull()});
        }
    }
    if (const uint64_t limit = shared_.time.nodeLimit()) {
        // Exact with one thread (reproducible `go nodes`), coarse with more.
        bool single = shared_.threadCount == 1;
        if ((single && n >= limit) || (!single && n % CheckInterval == 0 && shared_.nodes() >= limit)) {
            shared_.requestStop(false);
            return true;
        }
    }
#if CHARIOT_NO_THREADS
    // The input arrives only when the search lets the host run: every few
    // milliseconds, at the clock checks. A `stop` (or `quit`) taken in the
    // poll ends the search here.
    if (n % CheckInterval == 0 && shared_.callbacks.onPoll) {
        const int64_t now = shared_.time.elapsedMs();
        if (now >= nextPollMs_) {
            nextPollMs_ = now + PollIntervalMs;
            shared_.callbacks.onPoll(0);
            if (shared_.stopRequested.load(std::memory_order_relaxed)) return true;
        }
    }
#endif
    if (n % CheckInterval == 0 && shared_.time.outOfTime()) {
        shared_.requestStop(false);
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
    // Only evasions and captures are searched here, so a repetition inside
    // the quiescence search is a cycle of checks answered by checks (a horse
    // and an advisor checking in turn): judged as the main search judges it,
    // or every such line runs to MaxPly, branching at each evasion, and the
    // search never ends.
    if (inCheck)
        if (const rules::Ruling r = rules::judge(pos_, ply, {options_.judgeChase}); r.verdict != rules::Verdict::None)
            return repetitionValue(r, ply);
    if (ply >= MaxPly - 1) return inCheck ? ValueDraw : staticEval();

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
        // No lazy evaluation with the net: it is one value, no cheaper part.
        standPat = ttHit && hit.eval != EvalUnknown ? hit.eval
                   : useNet_                        ? staticEval()
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
    if (pos_.rule60() >= rules::NoCapturePlies) return ValueDraw;
    if (!hasAttackers(pos_, Color::Red) && !hasAttackers(pos_, Color::Black)) return ValueDraw;
    // Endgame tablebases: a capture that leads into their material ends the
    // line with the table's verdict (only then: material changes only by
    // captures, and a table root's moves are chosen by the engine).
    if (options_.tablebase && pos_.rule60() == 0 && !frames_[ply].excluded) {
        if (const auto wdl = options_.tablebase->probeWdl(pos_)) {
            // Less the ply: the shorter way into a won table ranks first.
            const Value v = *wdl == TbWdl::Win ? ValueTbWin - ply : *wdl == TbWdl::Loss ? -ValueTbWin + ply : ValueDraw;
            shared_.tt.store(pos_.key(), ply, Move::none(), v, EvalUnknown, std::min(depth + 6, MaxSearchDepth - 1),
                             Bound::Exact, PvNode);
            return v;
        }
    }
    const bool inCheck = pos_.inCheck();
    if (ply >= MaxPly - 1) return inCheck ? ValueDraw : staticEval();

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
    Value staticEval = inCheck                            ? -ValueInfinite
                       : ttHit && hit.eval != EvalUnknown ? hit.eval
                                                          : this->staticEval();  // (the local hides it)
    frames_[ply].staticEval = staticEval;
    const Pruning pruning = options_.pruning;
    const SearchParams& params = options_.params;
    // Whether the static eval rose since this side's last move: reverse
    // futility cuts a ply sooner, move-count pruning waits longer, and
    // late-move reductions may differ (lmrNotImproving).
    const bool improving = ply >= 2 && !inCheck && staticEval > frames_[ply - 2].staticEval;

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
            staticEval - params.reverseFutilityMargin * (depth - improving) >= beta && !isDecisive(beta))
            return staticEval;

        // Step 6. Null move: R grows with the depth and with how far the
        // static eval stands above beta (the further above, the surer the
        // cutoff); never twice in a row, not with too little material
        // (zugzwang), verified at high depth; only at expected cut nodes (at
        // an expected all node the null move's reply is mostly wasted work,
        // as Stockfish found).
        if (cutNode && depth >= 2 && staticEval >= beta && !frames_[ply - 1].nullMove && !excluded &&
            (ply >= nullMoveMinPly_ || pos_.sideToMove() != nullMoveColor_) && nullMoveSafe(pos_) &&
            !isDecisive(beta)) {
            const int R = params.nullMoveBase + depth / params.nullMoveDepthDivisor +
                          std::min((staticEval - beta) / params.nullMoveEvalDivisor, params.nullMoveEvalMax);
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
    MoveList quiets;    // quiet moves searched here (unfilled storage, like every move list)
    MoveList captures;  // captures searched here, the best one excepted
    int moveCount = 0;
    killers_[ply + 1][0] = killers_[ply + 1][1] = Move::none();

    // Whether this node may use the shallow pruning of step 8a. PV nodes prune
    // too, but only in deep iterations: in a shallow search the PV's leaves
    // decide the root's score, and pruned defences there made `analyze
    // --depth 2` and the low skill levels hang pieces.
    const bool shallowPruning =
        !inCheck && pruning >= Pruning::Large && (!PvNode || rootDepth_ >= params.pvPruneMinRootDepth);
    while (Move m = picker.next()) {
        if (m == excluded || !pos_.isLegal(m)) continue;
        tt.prefetch(pos_.keyAfter(m));  // early: the pruning tests below overlap the memory latency
        ++moveCount;
        const bool capture = !pos_.isEmpty(m.to());
        const bool isKiller = m == killers_[ply][0] || m == killers_[ply][1];
        // Asked once: the pruning below and the check extension both need it.
        const bool checks = pos_.givesCheck(m);

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
                !checks)
                continue;
        }
        // Captures that lose a lot by static exchange, at low depth.
        if (shallowPruning && capture && best > -ValueDecisive && depth <= params.seePruneMaxDepth &&
            !pos_.seeGe(m, -params.seeCaptureMargin * depth * depth) && !checks)
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
            if (v < singularBeta)
                singular = 1;
            else if (singularBeta >= beta)
                return singularBeta;
            else if (hit.value >= beta)
                singular = -1;
        }

        // Only a check that does not give material away by static exchange
        // is extended: xiangqi's cannon and rook checks are too many to
        // extend them all (bounded so that perpetual checking cannot explode).
        const bool checkExtends = ply < 2 * rootDepth_ && checks && pos_.seeGe(m, 0);
        frames_[ply].move = m;
        frames_[ply].contSlot = contSlot(pos_.pieceOn(m.from()), m.to());
        pos_.makeMove(m);
        assert(checks == pos_.inCheck());
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
                fine -= checks * params.lmrCheck;
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
                const Depth reDepth = newDepth +
                                      (v > alpha + params.researchDeeperMargin + params.researchDeeperPerR * r) -
                                      (v < best + newDepth);
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
    if (!excluded) tt.store(pos_.key(), ply, bestMove, best, inCheck ? 0 : staticEval, depth, bound, storePv);
    return best;
}

Value Worker::rootSearch(Value alpha, Value beta, Depth depth, size_t pvIndex) {
    Value best = -ValueInfinite;
    for (size_t i = pvIndex; i < rootMoves.size(); ++i) {
        RootMove& rm = rootMoves[i];
        const Value jitter = rm.jitter;
        selDepth_ = 0;
        if (id_ == 0 && shared_.callbacks.onCurrentMove && shared_.time.elapsedMs() > 1000)
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
            rm.scoreDepth = depth;
            rm.scoreBound = v <= alpha ? Bound::Upper : v >= beta ? Bound::Lower : Bound::Exact;
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
                if (i != pvIndex && id_ == 0 && shared_.options.multiPV == 1 && shared_.time.elapsedMs() > 1000 &&
                    depth > 1)
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
        info.nodes = shared_.nodes();
        info.timeMs = shared_.time.elapsedMs();
        info.hashfull = shared_.tt.hashfull();
        info.pv = rm.pv;
        trimAtGameEnd(pos_, info.pv, options_.judgeChase);
        shared_.callbacks.onIteration(info);
    }
}

void Worker::iterativeDeepening() {
    const bool main = id_ == 0;
    const size_t multiPV = std::min<size_t>(std::max(1, options_.multiPV), rootMoves.size());
    Value previousBest = -ValueInfinite;
    Move previousBestMove;
    int stableIterations = 0;

    for (rootDepth_ = 1; rootDepth_ <= shared_.time.depthLimit(); ++rootDepth_) {
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
            // window only if this iteration set its score; otherwise keep the
            // last result. A score left from an earlier iteration is stale:
            // a move that was second best there sorts first once the best
            // move's new score is lower, though this iteration never got to
            // it, and answering with it would show a line of the completed
            // depth that is not that depth's answer.
            if (rootMoves[0].score == -ValueInfinite || rootMoves[0].scoreDepth < rootDepth_) {
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
            shared_.tt.store(pos_.key(), 0, rootMoves[0].move, rootMoves[0].score, pos_.inCheck() ? 0 : staticEval(),
                             rootDepth_, Bound::Exact, true);

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
        if (shared_.time.stopAfterIteration(
                {rootDepth_, score, previousBest, bestMoveChanges_, stableIterations, rootMoves.size()}))
            break;
        previousBest = score;
        previousBestMove = bestMove;
    }
}


}  // namespace chariot
