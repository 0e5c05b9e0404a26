// EngineProcess members and protocol-test helpers that need no system call.
#include "engine_process.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "chariot/position.h"

namespace chariot::test {

std::optional<std::string> EngineProcess::waitFor(const std::string& prefix, std::chrono::milliseconds timeout,
                                                  std::vector<std::string>* seen) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        auto line = readLine(left);
        if (!line) return std::nullopt;
        if (seen) seen->push_back(*line);
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

bool EngineProcess::alive() { return !waitExit(std::chrono::milliseconds(0)); }

std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

bool isLegalIn(const std::string& fen, const std::string& move) {
    Position p;
    if (p.setFen(fen)) return false;
    return bool(p.parseLegalMove(move));
}

void ucciHandshake(EngineProcess& e, std::chrono::milliseconds timeout) {
    e.send("ucci");
    REQUIRE(e.waitFor("ucciok", timeout));
    e.send("setoption usemillisec true");
    e.send("setoption usebook false");
}

std::string currentFen(EngineProcess& e, std::chrono::milliseconds timeout) {
    e.send("d");
    auto line = e.waitFor("fen ", timeout);
    REQUIRE(line);
    return line->substr(4);
}

long residentKB(int pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

}  // namespace chariot::test
