// Runs the real chariot binary behind pipes, for protocol tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace chariot::test {

class EngineProcess {
public:
    // addressSpaceMB > 0 caps the child's address space (RLIMIT_AS), to
    // make large allocations fail.
    explicit EngineProcess(const std::vector<std::string>& args = {}, size_t addressSpaceMB = 0);
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    void send(const std::string& line);   // appends '\n'
    void sendRaw(const std::string& bytes);
    void closeInput();
    // Next output line, or nullopt on timeout / end of output.
    std::optional<std::string> readLine(std::chrono::milliseconds timeout);
    // Reads until a line starting with `prefix`; collects every line read.
    std::optional<std::string> waitFor(const std::string& prefix, std::chrono::milliseconds timeout,
                                       std::vector<std::string>* seen = nullptr);
    // Exit code if the process ends within the timeout.
    std::optional<int> waitExit(std::chrono::milliseconds timeout);
    bool alive();
    int pid() const { return pid_; }

private:
    int pid_ = -1;
    int in_ = -1;   // we write
    int out_ = -1;  // we read
    std::string buffer_;
    bool eof_ = false;
    std::optional<int> exitCode_;
};

}  // namespace chariot::test
