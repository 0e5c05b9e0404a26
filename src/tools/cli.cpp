#include "chariot/cli.h"

#include <iostream>

#include <fmt/format.h>

#include "chariot/analyze.h"
#include "chariot/bench.h"
#include "chariot/book_tool.h"
#include "chariot/datagen.h"
#include "chariot/epd.h"
#include "chariot/platform.h"
#include "chariot/position.h"
#include "chariot/rules.h"
#include "chariot/tool_args.h"
#include "chariot/tune.h"
#include "chariot/ucci.h"
#include "chariot/version.h"

namespace chariot {

namespace {

std::optional<int> toInt(const std::string& s, int lo, int hi) {
    int v = 0;
    if (!tools::parseNumber(s, v, lo, hi)) return std::nullopt;
    return v;
}

void usage(const std::function<void(const std::string&)>& print) {
    print("usage: chariot                        run the UCCI/UCI engine on stdin/stdout");
    print("       chariot bench [depth] [hashMB] [threads]  fixed-depth search benchmark");
    print("       chariot perft <depth> [FEN]    move generation count, divided by root move");
    print("       chariot book build|probe|dump|bench ...  opening-book tools ('chariot book' for help)");
    print("       chariot rules <FEN>|startpos [moves <m>...]  repetition verdict (third occurrence)");
    print("       chariot tune [options] <games.pgn>...  Texel tuning of the evaluation weights");
    print("       chariot analyze [options] <game.pgn>...  annotate games: scores, mistakes, best lines");
    print("                                      ('chariot analyze --help' for the options)");
    print("       chariot epd <suite.epd> [--movetime MS|--depth D|--nodes N]  run a test suite (bm/am)");
    print("       chariot datagen [options] <out.data>  self-play training data for the network");
    print("                                      ('chariot datagen --help' for the options)");
    print("       chariot version                version, commit, compiler and instruction set (also --version)");
    print("       chariot help                   this text");
}

}  // namespace

int runCommandLine(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print) {
    if (args.empty()) {
        Protocol protocol(print);
        return protocol.runStdin();
    }
    const std::string& cmd = args[0];
    if (cmd == "bench") {
        BenchConfig config;
        if (args.size() > 1) {
            auto d = toInt(args[1], 1, 64);
            if (!d) return print("bench: depth must be 1..64"), 2;
            config.depth = *d;
        }
        if (args.size() > 2) {
            auto h = toInt(args[2], 1, 65536);
            if (!h) return print("bench: hashMB must be 1..65536"), 2;
            config.hashMB = size_t(*h);
        }
        if (args.size() > 3) {
            auto t = toInt(args[3], 1, 256);
            if (!t) return print("bench: threads must be 1..256"), 2;
            config.threads = *t;
        }
        runBench(config, print);
        return 0;
    }
    if (cmd == "perft") {
        if (args.size() < 2) return usage(print), 2;
        auto d = toInt(args[1], 0, 12);
        if (!d) return print("perft: depth must be 0..12"), 2;
        std::string fen(StartFen);
        if (args.size() > 2) {
            fen.clear();
            for (size_t i = 2; i < args.size(); ++i) fen += (i > 2 ? " " : "") + args[i];
        }
        return runPerftBench(*d, fen, print) > 0 || *d == 0 ? 0 : 1;
    }
    if (cmd == "book") return runBookTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "rules") return rules::runRulesTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "tune") return tune::runTuneTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "analyze")
        return analyze::runAnalyzeTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr,
                                       std::cin, platform::stderrIsTerminal());
    if (cmd == "datagen")
        return datagen::runDatagenTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr);
    if (cmd == "epd") return epd::runEpdTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr);
    if (cmd == "version" || cmd == "--version") {
        for (const auto& line : version::describe()) print(line);
        return 0;
    }
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
        usage(print);
        return 0;
    }
    print(fmt::format("chariot: unknown command '{}'", cmd));
    usage(print);
    return 2;
}

}  // namespace chariot
