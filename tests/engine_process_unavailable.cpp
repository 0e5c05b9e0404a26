// EngineProcess for systems where the tests do not start engine processes
// (Windows builds; their protocol is checked by ucci_probe.py through wine,
// see scripts/test_windows.sh). Constructing one throws, so a test that needs
// it fails with this message unless the run leaves it out: such tests are in
// test_protocol.cpp and test_hardening.cpp or carry the [process] tag.
#include "engine_process.h"

#include <stdexcept>

namespace chariot::test {

EngineProcess::EngineProcess(const std::vector<std::string>&, size_t) {
    throw std::runtime_error("EngineProcess: this build cannot start engine processes (exclude [process] tests)");
}
EngineProcess::~EngineProcess() = default;
void EngineProcess::send(const std::string&) {}
void EngineProcess::sendRaw(const std::string&) {}
void EngineProcess::closeInput() {}
std::optional<std::string> EngineProcess::readLine(std::chrono::milliseconds) { return std::nullopt; }
std::optional<int> EngineProcess::waitExit(std::chrono::milliseconds) { return std::nullopt; }

}  // namespace chariot::test
