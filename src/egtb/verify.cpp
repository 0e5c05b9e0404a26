#include "chariot/egtb/verify.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "chariot/egtb/probe.h"
#include "chariot/movegen.h"

namespace chariot::egtb {

namespace {

std::string describeValue(uint16_t v) {
    if (v == TbBroken) return "broken";
    if (v == TbDraw) return "draw";
    return fmt::format("{} in {}", isWinValue(v) ? "win" : "loss", dtmOf(v));
}

}  // namespace

VerifyResult verifyTable(const Table& t, const TableLookup& lookup, int threads, uint64_t stride,
                         const std::function<void(double)>& progress) {
    VerifyResult result;
    std::mutex mutex;
    std::atomic<uint64_t> checked{0}, errors{0}, next{0};
    const uint64_t size = t.indexer.size();
    stride = std::max<uint64_t>(1, stride);
    constexpr uint64_t Chunk = 4096;
    const uint64_t work = 2 * size;  // both sides to move

    auto fault = [&](const std::string& text) {
        errors.fetch_add(1);
        std::lock_guard lock(mutex);
        if (result.examples.size() < 10) result.examples.push_back(text);
    };
    auto run = [&] {
        Position pos;
        Placement p;
        for (;;) {
            const uint64_t begin = next.fetch_add(Chunk);
            if (begin >= work) return;
            const uint64_t end = std::min(work, begin + Chunk);
            for (uint64_t w = begin; w < end; ++w) {
                if (w % stride) continue;
                const int stm = w < size ? StrongToMove : WeakToMove;
                const uint64_t idx = w < size ? w : w - size;
                const uint16_t v = t.value(stm, idx);
                checked.fetch_add(1, std::memory_order_relaxed);
                if (!t.indexer.decode(idx, p)) {
                    if (v != TbBroken)
                        fault(fmt::format("index {} (two pieces on a square) is {}", idx, describeValue(v)));
                    continue;
                }
                const std::string fen = fenOf(p, stm);
                const bool legal = !pos.setFen(fen);
                if (!legal || v == TbBroken) {
                    if (legal != (v != TbBroken))
                        fault(fmt::format("{}: the engine {} it, the table says {}", fen, legal ? "accepts" : "refuses",
                                          describeValue(v)));
                    continue;
                }
                // Mirror image (strong king on the e-file: two indices).
                if (sqFile(p.sq[StrongKing][0]) == 4) {
                    Placement m = p;
                    for (int k = 0; k < KindCount; ++k)
                        for (int i = 0; i < m.count[size_t(k)]; ++i)
                            m.sq[size_t(k)][size_t(i)] = uint8_t(mirrorSq(m.sq[size_t(k)][size_t(i)]));
                    const int64_t mi = t.indexer.encode(m);
                    if (mi < 0 || t.value(stm, uint64_t(mi)) != v)
                        fault(fmt::format("{}: {}, its mirror image is not", fen, describeValue(v)));
                }
                MoveList moves;
                generateLegal(pos, moves);
                int minLoss = INT32_MAX, maxWin = -1;
                bool draw = false, missing = false;
                for (Move m : moves) {
                    pos.makeMove(m);
                    const auto child = probeValue(pos, lookup);
                    pos.unmakeMove();
                    if (!child || *child == TbBroken) {
                        missing = true;
                        continue;
                    }
                    if (*child == TbDraw)
                        draw = true;
                    else if (isLossValue(*child))
                        minLoss = std::min(minLoss, dtmOf(*child));
                    else
                        maxWin = std::max(maxWin, dtmOf(*child));
                }
                std::string why;
                if (missing)
                    why = "a move leads to a position no table has";
                else if (isWinValue(v) && minLoss != dtmOf(v) - 1)
                    why = minLoss == INT32_MAX ? "no move wins" : fmt::format("the best move loses in {}", minLoss);
                else if (isLossValue(v) && (minLoss != INT32_MAX || draw || maxWin != dtmOf(v) - 1))
                    why = minLoss != INT32_MAX || draw ? "a move does not lose"
                                                       : fmt::format("the longest defence is {}", maxWin);
                else if (v == TbDraw && (minLoss != INT32_MAX || !draw))
                    why = minLoss != INT32_MAX ? fmt::format("a move wins (opponent lost in {})", minLoss)
                                               : "no move keeps the draw";
                if (!why.empty()) fault(fmt::format("{}: table {}, but {}", fen, describeValue(v), why));
            }
            if (progress && begin % (Chunk * 64) == 0) {
                std::lock_guard lock(mutex);
                progress(double(end) / double(work));
            }
        }
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(run);
    run();
    for (auto& th : pool) th.join();
    result.checked = checked;
    result.errors = errors;
    return result;
}

}  // namespace chariot::egtb
