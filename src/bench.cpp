#include "chariot/bench.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "chariot/engine.h"
#include "chariot/movegen.h"
#include "chariot/nnue.h"
#include "chariot/text.h"

namespace chariot {

namespace {

// The start position, then openings, middlegames and endgames taken from
// self-play games (shared openings, 100 ms a move), both sides to move.
const std::vector<std::string_view> Positions = {
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabn1/9/1cn5c/pCp1p1p1p/9/9/P1P1P1P1P/4C1N2/9/RNBAKAB2 b - - 1 6",
    "2bakab2/1r7/2N6/pCR6/9/3n5/P3c1p2/4B4/4A4/4KAB2 w - - 2 26",
    "2bak4/4a4/4b4/9/9/P6R1/9/9/r3A4/3AK4 b - - 27 51",
    "2bakab2/9/2n3n1c/p1p1p1p1p/1c7/3r5/P1P1P1P1P/1CN1C1N2/2R6/2BAKAB2 w - - 10 11",
    "R2akab2/9/4b4/9/6p1p/9/P1P1P1P1P/5r3/4Nc3/4K1B2 w - - 3 36",
    "2bakab2/r8/1cn3n1c/pCp1p1p1p/9/4P4/P1P3P1P/2N1C1N2/9/R1BAKAB2 b - - 5 8",
    "3ak1b2/4a3c/1Nn1b4/pR7/9/2P3BN1/8P/5r3/9/2BAKA3 b - - 18 32",
    "3akabRN/9/6r2/9/9/9/p8/4B4/4A4/2B1KA3 w - - 21 61",
    "r2aka3/9/3Rb1n1b/p3p4/c2n5/C8/P1P1P1P1P/4C1r2/1c2A4/RNB1KAB2 w - - 0 16",
    "r1bakab2/9/1cn3c2/pCC1p3p/5np2/9/P1P1P1P1P/2N3N2/9/R1BAKAB2 w - - 3 10",
    "2bakab2/9/7c1/pr5C1/4R1p2/2P6/8P/4B4/3K2n2/2NA1AB2 b - - 0 23",
    "3a1kb2/4a4/4b4/9/2r1c4/1p7/4R4/4B4/4A4/4K1B2 b - - 1 50",
    "1rbaka1n1/9/1cn1b4/p1p5p/4C4/4p4/P1P1N1P1P/R5N2/9/2BAKAB2 b - - 1 13",
    "2baka3/5n3/9/2p1nN2p/2b2C3/prP4NP/3R5/4B4/4A4/2B1K4 b - - 0 29",
    "r1bakab2/9/1cn3n2/p1p1p1p1p/7r1/1C7/P1P1P1PcP/2N1C1N2/7R1/2BAKABR1 b - - 13 7",
    "5aC2/4k4/3a2r2/3R4p/9/8P/p8/9/4A4/2BK1A3 w - - 2 45",
    "3akab2/1r6n/2n1b4/p1p1p3p/4N4/2P3P2/PcC1P3P/BR4Cr1/3N4R/3AKABc1 b - - 20 17",
    "3ak1b2/8n/b8/p3p3p/6P2/2P6/PR1CP3P/BC1r5/4K4/3A1A1c1 w - - 6 34",
    "2bakab2/7r1/1cn3n1c/p1p1p1p1p/9/2PR5/PC2P1P1P/2N1C4/4A3N/2B1KAB2 b - - 0 11",
    "C3kab2/1R7/b7r/3n4C/4p4/9/9/4B4/4A4/4KAB2 w - - 1 41",
    "2baka3/4n4/4bRn2/p1p1p1p1p/9/5NP2/P1P1P3P/2r1B4/7N1/3AKAB2 b - - 0 14",
    "2baknb2/4a4/5n3/5N2R/p2N2P1p/9/P4r3/4B4/4A4/3AK1B2 b - - 12 28",
    "2b1k4/4a4/4b4/9/9/9/4p4/7RB/4Ar3/3AK1B2 w - - 31 56",
    "1rbakabr1/9/2n3n2/p1p1p1p1p/6c2/9/P1P1P1PcP/1CN1C1NR1/3R5/2BAKAB2 b - - 17 9",
    "4k1b2/4a4/4b4/p1pR5/9/3nr4/P1P6/9/4A4/4KA3 b - - 8 37",
    "4kab2/4a4/n3b1n2/p1pR2p1p/4p4/2P3P2/P1c3r2/2NCB1N1B/4A4/4KA3 b - - 1 18",
    "4kab2/4a4/4b3n/9/2p3P2/7R1/9/r7B/9/3AK4 b - - 0 48",
    "1rbakabr1/9/2n3n2/p1p1p1p1p/2c6/9/P1P1P1PcP/1CN1C2R1/4NR3/2BAKAB2 b - - 19 10",
    "2bakan2/9/4b1n2/p3pRC1p/2p6/1r5r1/P1P1P1PcP/N1N4RB/9/2BAKA3 b - - 2 31",
    "2b2a3/3ck4/9/4P4/p4r3/9/P5R2/N3B3p/4A4/2BAK4 w - - 5 71",
    "3akab2/9/2n1b3c/p1R6/6p1p/9/P1P1P1P1P/4B4/4A1r2/1NBAKN3 b - - 0 15",
    "3aka3/4c4/9/R8/1n7/2Br4p/P1Pp5/9/4A4/1N1K1AB2 b - - 10 43",
    "1Cbakab2/7R1/r5n2/p1p1p1p1p/9/9/P3P1P1P/2r1C1N2/4A4/R1c1KAB2 b - - 1 12",
    "2baka3/9/9/p2R4C/2p6/9/P5P2/9/3K5/8r b - - 10 34",
    "3nkab2/1r2a3c/1c2b1n2/p1p1C1R2/9/2C6/P1P1P1P1P/2N2r3/R7N/2BAKAB2 b - - 0 16",
};

}  // namespace

const std::vector<std::string_view>& benchPositions() { return Positions; }

BenchResult runBench(const BenchConfig& config, const std::function<void(const std::string&)>& print) {
    WorkCaps caps;
    caps.hashMB = config.hashMB;  // allocate the run's table at once, not the default first
    Engine engine(caps);
    return runBench(engine, config, print);
}

BenchResult runBench(Engine& engine, const BenchConfig& config, const std::function<void(const std::string&)>& print) {
    BenchResult result;
    if (engine.hashMB() != config.hashMB) engine.setHashMB(config.hashMB);
    engine.searchOptions().threads = config.threads;
    if (config.eval == BenchEval::Nnue && !engine.network()) {
        print("bench: no NNUE net is loaded (this build embeds none; set evalfile)");
        return result;
    }
    const bool nnue = config.eval == BenchEval::Nnue ||
                      (config.eval == BenchEval::Default && Engine::DefaultUseNnue && engine.network());
    engine.setOption("usennue", nnue ? "true" : "false");
    engine.newGame();  // an empty table and histories, as after ucinewgame
    auto start = std::chrono::steady_clock::now();
    const size_t count = config.positions ? std::min(config.positions, Positions.size()) : Positions.size();
    for (size_t i = 0; i < count; ++i) {
        if (auto error = engine.setPosition(Positions[i], {})) {
            print(fmt::format("bench position {} is invalid: {}", i + 1, *error));
            continue;
        }
        SearchLimits limits;
        limits.depth = config.depth;
        SearchResult r = engine.search(limits, nullptr);
        result.perPosition.push_back(r.nodes);
        result.bestMoves.push_back(r.best);
        result.nodes += r.nodes;
        print(fmt::format("Position {:>2}/{}: bestmove {} score {} nodes {}", i + 1, count, r.best.toString(), r.score,
                          r.nodes));
    }
    result.timeMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    print("===========================");
    print(fmt::format("Total time (ms) : {}", result.timeMs));
    print(fmt::format("Nodes searched  : {}", result.nodes));
    print(fmt::format("Nodes/second    : {}", result.nodes * 1000 / uint64_t(std::max<int64_t>(result.timeMs, 1))));
    if (config.threads > 1) print(fmt::format("Threads         : {}", config.threads));
    print(nnue ? fmt::format("Evaluation      : NNUE {} ({})", engine.network()->name(), nnue::kernels::name())
               : std::string("Evaluation      : handcrafted"));
    return result;
}

std::optional<std::string> parseBenchArgs(const std::vector<std::string>& words, const WorkCaps& caps,
                                          BenchConfig& config) {
    BenchConfig c = config;
    const int maxDepth = std::min(64, caps.depth);
    const int64_t maxHash = int64_t(std::min<size_t>(65536, caps.hashMB));
    const int maxThreads = std::min(256, caps.threads);
    c.depth = std::min(c.depth, maxDepth);
    c.hashMB = std::min<size_t>(c.hashMB, size_t(maxHash));
    if (caps.benchPositions) c.positions = caps.benchPositions;
    // A last word `nnue` or `hce`: the same bench with that evaluation; numbers before it.
    std::vector<std::string> args = words;
    const std::string last = args.empty() ? std::string() : asciiLower(args.back());
    if (last == "nnue" || last == "hce") {
        c.eval = last == "nnue" ? BenchEval::Nnue : BenchEval::Handcrafted;
        args.pop_back();
    }
    // Strict, unlike a GUI's option values: a typed 0 or 100 is refused
    // with the range, not quietly run as 1 or 64.
    auto number = [&](size_t i, int64_t hi) -> std::optional<int64_t> {
        int64_t value = 0;
        if (i < args.size() && parseNumber(args[i], value, int64_t(1), hi)) return value;
        return std::nullopt;
    };
    if (args.size() > 3) return std::string("bench: at most three numbers: [depth] [hashMB] [threads] [nnue|hce]");
    if (args.size() > 0) {
        auto n = number(0, maxDepth);
        if (!n) return fmt::format("bench: the depth must be a number from 1 to {}", maxDepth);
        c.depth = int(*n);
    }
    if (args.size() > 1) {
        auto n = number(1, maxHash);
        if (!n) return fmt::format("bench: the hash size must be 1 to {} MB", maxHash);
        c.hashMB = size_t(*n);
    }
    if (args.size() > 2) {
        auto n = number(2, maxThreads);
        if (!n) return fmt::format("bench: threads must be 1 to {}", maxThreads);
        c.threads = int(*n);
    }
    config = c;
    return std::nullopt;
}

uint64_t runPerft(const Position& root, int depth, const std::function<void(const std::string&)>& print) {
    Position pos = root;
    auto start = std::chrono::steady_clock::now();
    uint64_t total =
        perftDivide(pos, depth, [&](Move m, uint64_t n) { print(fmt::format("{}: {}", m.toString(), n)); });
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print(fmt::format("Nodes searched: {}", total));
    print(fmt::format("info string perft {} time {} ms nps {}", depth, int64_t(seconds * 1000),
                      seconds > 0 ? uint64_t(double(total) / seconds) : 0));
    return total;
}

}  // namespace chariot
