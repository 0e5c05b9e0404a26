// chariot                       UCCI/UCI engine on stdin/stdout
// chariot bench [depth] [hash] [threads] [nnue|hce]  fixed-depth search benchmark (node signature)
// chariot perft <depth> [FEN]   move-generation count with divide
// chariot book ...              opening-book tools (see `chariot help`)
#include <cstdio>
#include <string>
#include <vector>

#include "chariot/cli.h"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    return chariot::runCommandLine(args, [](const std::string& line) {
        std::fputs(line.c_str(), stdout);
        std::fputc('\n', stdout);
        std::fflush(stdout);
    });
}
