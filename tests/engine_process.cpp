// The POSIX half of EngineProcess: fork, pipes, poll. The helpers shared by
// every system are in engine_helpers.cpp; Windows builds take
// engine_process_unavailable.cpp instead of this file.
#include "engine_process.h"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#ifndef CHARIOT_BINARY
#error "CHARIOT_BINARY must name the engine binary"
#endif

namespace chariot::test {

EngineProcess::EngineProcess(const std::vector<std::string>& args, size_t addressSpaceMB) {
    ::signal(SIGPIPE, SIG_IGN);
    int toChild[2], fromChild[2];
    if (::pipe(toChild) != 0 || ::pipe(fromChild) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
        ::dup2(toChild[0], STDIN_FILENO);
        ::dup2(fromChild[1], STDOUT_FILENO);
        ::close(toChild[0]);
        ::close(toChild[1]);
        ::close(fromChild[0]);
        ::close(fromChild[1]);
        if (addressSpaceMB > 0) {
            rlimit limit{};
            limit.rlim_cur = limit.rlim_max = rlim_t(addressSpaceMB) << 20;
            ::setrlimit(RLIMIT_AS, &limit);
        }
        std::vector<char*> argv;
        std::string binary = CHARIOT_BINARY;
        argv.push_back(binary.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(binary.c_str(), argv.data());
        ::_exit(127);
    }
    ::close(toChild[0]);
    ::close(fromChild[1]);
    in_ = toChild[1];
    out_ = fromChild[0];
}

EngineProcess::~EngineProcess() {
    if (in_ >= 0) ::close(in_);
    if (!exitCode_ && pid_ > 0) {
        if (!waitExit(std::chrono::milliseconds(500))) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
        }
    }
    if (out_ >= 0) ::close(out_);
}

void EngineProcess::sendRaw(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the engine is gone; reads will tell
        done += size_t(n);
    }
}

void EngineProcess::send(const std::string& line) { sendRaw(line + "\n"); }

void EngineProcess::closeInput() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
}

std::optional<std::string> EngineProcess::readLine(std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
        size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            return line;
        }
        if (eof_) return std::nullopt;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return std::nullopt;
        pollfd p{out_, POLLIN, 0};
        int r = ::poll(&p, 1, int(left.count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char chunk[65536];
        ssize_t n = ::read(out_, chunk, sizeof chunk);
        if (n <= 0) {
            eof_ = true;
            continue;
        }
        buffer_.append(chunk, size_t(n));
    }
}

std::optional<int> EngineProcess::waitExit(std::chrono::milliseconds timeout) {
    if (exitCode_) return exitCode_;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
        int status = 0;
        pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            exitCode_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            return exitCode_;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return std::nullopt;
}

}  // namespace chariot::test
