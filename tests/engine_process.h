// Runs the real chariot binary behind pipes, for protocol tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

// CHARIOT_TEST_ASAN: the tests run under AddressSanitizer (address-space
// limits and RSS figures mean nothing there).
#if defined(__SANITIZE_ADDRESS__)
#define CHARIOT_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHARIOT_TEST_ASAN 1
#endif
#endif

namespace chariot::test {

class EngineProcess {
public:
    // addressSpaceMB > 0 caps the child's address space (RLIMIT_AS), to
    // make large allocations fail.
    explicit EngineProcess(const std::vector<std::string>& args = {}, size_t addressSpaceMB = 0);
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    void send(const std::string& line);  // appends '\n'
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

// Helpers shared by the protocol test files.
std::vector<std::string> words(const std::string& line);
// Is `move` legal in `fen` (computed here, not by the engine under test)?
bool isLegalIn(const std::string& fen, const std::string& move);
// UCCI handshake with milliseconds; the book is switched off so that searches
// really search (the book has its own tests).
void ucciHandshake(EngineProcess& e, std::chrono::milliseconds timeout);
// The engine's current position, read from the FEN line of `d`.
std::string currentFen(EngineProcess& e, std::chrono::milliseconds timeout);
// VmRSS of a process in kB (0 if unreadable).
long residentKB(int pid);

}  // namespace chariot::test
