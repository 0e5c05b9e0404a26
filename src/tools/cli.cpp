#include "chariot/cli.h"

#include <iostream>

#include <fmt/format.h>

#include "chariot/analyze.h"
#include "chariot/bench.h"
#include "chariot/book_tool.h"
#include "chariot/datagen.h"
#include "chariot/epd.h"
#if CHARIOT_EGTB
#include "chariot/egtb/prober.h"
#include "chariot/egtb/tool.h"
#endif
#include "chariot/platform.h"
#include "chariot/position.h"
#include "chariot/rules.h"
#include "chariot/tool_args.h"
#include "chariot/tune.h"
#include "chariot/ucci.h"
#include "chariot/version.h"

namespace chariot {

namespace {

void usage(const std::function<void(const std::string&)>& print) {
    print("usage: chariot                        run the UCCI/UCI engine on stdin/stdout");
    print("       chariot bench [depth] [hashMB] [threads] [nnue|hce]  fixed-depth search benchmark");
    print("                                      (default: the embedded NNUE net; hce: handcrafted)");
    print("       chariot perft <depth> [FEN]    move generation count, divided by root move");
    print("       chariot book build|probe|dump|bench ...  opening-book tools ('chariot book' for help)");
    print("       chariot rules <FEN>|startpos [moves <m>...]  repetition verdict (third occurrence)");
    print("       chariot tune [options] <games.pgn>...  Texel tuning of the evaluation weights");
    print("       chariot analyze [options] <game.pgn>...  annotate games: scores, mistakes, best lines");
    print("                                      ('chariot analyze --help' for the options)");
    print("       chariot epd <suite.epd> [--movetime MS|--depth D|--nodes N]  run a test suite (bm/am)");
    print("       chariot datagen [options] <out.data>  self-play training data for the network");
    print("                                      ('chariot datagen --help' for the options)");
    print("       chariot egtb build|verify|list ...  endgame tablebases ('chariot egtb' for help)");
    print("       chariot version                version, commit, compiler and instruction set (also --version)");
    print("       chariot help                   this text");
}

// `chariot rules <FEN>|startpos [moves <m>...]`: the verdict on the position
// reached, judged as a game position (third occurrence).
int runRulesTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print) {
    PositionText text;
    Position pos;
    std::optional<std::string> error = parsePositionText(args, 0, true, text);
    if (!error) error = setupPosition(pos, text.fen, text.moves);
    if (error) {
        print("rules: " + *error);
        print("usage: chariot rules <FEN>|startpos [moves <m>...]");
        return 2;
    }
    print("verdict: " + rules::describe(rules::judge(pos, 0), pos));
    return 0;
}

}  // namespace

int runCommandLine(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print) {
    if (args.empty()) {
        Protocol protocol(print);
#if CHARIOT_EGTB
        protocol.engine().setTablebaseLoader(egtb::tablebaseLoader());
#endif
        return protocol.runStdin();
    }
    const std::string& cmd = args[0];
    if (cmd == "bench") {
        BenchConfig config;
        if (auto error = parseBenchArgs({args.begin() + 1, args.end()}, WorkCaps{}, config)) return print(*error), 2;
        runBench(config, print);
        return 0;
    }
    if (cmd == "perft") {
        if (args.size() < 2) return usage(print), 2;
        int depth = 0;
        if (!parseNumber(args[1], depth, 0, 12)) return print("perft: depth must be 0..12"), 2;
        Position pos;
        PositionText text;
        std::optional<std::string> error;
        if (args.size() > 2) {
            error = parsePositionText(args, 2, true, text);
            if (!error) error = setupPosition(pos, text.fen, text.moves);
        }
        if (error) return print("perft: " + *error), 2;
        return runPerft(pos, depth, print) > 0 || depth == 0 ? 0 : 1;
    }
    if (cmd == "book") return runBookTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "rules") return runRulesTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "tune") return tune::runTuneTool(std::vector<std::string>(args.begin() + 1, args.end()), print);
    if (cmd == "analyze")
        return analyze::runAnalyzeTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr,
                                       std::cin, platform::stderrIsTerminal());
    if (cmd == "datagen")
        return datagen::runDatagenTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr);
    if (cmd == "epd") return epd::runEpdTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr);
    if (cmd == "egtb") {
#if CHARIOT_EGTB
        return egtb::runEgtbTool(std::vector<std::string>(args.begin() + 1, args.end()), print, std::cerr);
#else
        print("egtb: this build has no endgame tablebase support (it was built without zstd)");
        return 2;
#endif
    }
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
