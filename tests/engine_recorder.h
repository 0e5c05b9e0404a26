// Helpers for tests that drive the Engine through its callbacks: a recorder of
// what a go reports, and a bounded wait for the search to end.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "chariot/engine.h"

namespace chariot::test {

// Collects what a go reports; the answer arrives on the search thread.
struct Recorder {
    using Clock = std::chrono::steady_clock;
    std::mutex mutex;
    std::vector<SearchInfo> infos;
    std::vector<BestMove> answers;
    std::atomic<int> progress{0};
    std::atomic<int> currentMoves{0};
    Clock::time_point answeredAt;

    EngineCallbacks callbacks() {
        EngineCallbacks c;
        c.onIteration = [this](const SearchInfo& i) {
            std::lock_guard lock(mutex);
            infos.push_back(i);
        };
        c.onCurrentMove = [this](const CurrentMove&) { ++currentMoves; };
        c.onProgress = [this](const SearchProgress&) { ++progress; };
        c.onBestMove = [this](const BestMove& b) {
            std::lock_guard lock(mutex);
            answers.push_back(b);
            answeredAt = Clock::now();
        };
        return c;
    }
    size_t answerCount() {
        std::lock_guard lock(mutex);
        return answers.size();
    }
};

// Waits up to `seconds` for the engine to finish; false if it did not.
inline bool finishesWithin(Engine& e, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (e.searching()) {
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    e.wait();
    return true;
}

}  // namespace chariot::test
