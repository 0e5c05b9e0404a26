// The search threads: a pool of sleeping threads, and the Searcher that
// starts a search on them (Lazy SMP: every thread searches the same root
// and shares the transposition table), waits for ponderhit or stop, and
// picks the answer.
//
// Built with CHARIOT_NO_THREADS=1 (a host without threads: the WebAssembly
// module for pages that are not cross-origin isolated) there is no thread at
// all: a PoolThread runs its job on the caller's thread, so `go` returns once
// the search has answered, the search has one thread, and the main search
// thread lets the host deliver input through SearchCallbacks::onPoll.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "chariot/platform.h"
#include "chariot/search.h"

namespace chariot {

// A thread that sleeps on a condition variable until it is given a job
// (without threads: the job runs at once, in run()).
class PoolThread {
public:
    PoolThread();
    ~PoolThread();  // waits for the job in hand
    PoolThread(const PoolThread&) = delete;
    PoolThread& operator=(const PoolThread&) = delete;
    void run(std::function<void()> job);  // the thread must be idle
    void wait();                          // until idle
    bool busy() const;

private:
#if CHARIOT_NO_THREADS
    bool busy_ = false;  // in run(), doing the job
#else
    void idleLoop();
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::function<void()> job_;
    bool busy_ = false;
    bool quit_ = false;
    std::thread thread_;  // last: starts once the members above exist
#endif
};

class Searcher {
public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    // Starts a search of a copy of `root` on the pool and returns at once
    // (without threads: once the search is over and onDone has returned).
    // The stop and ponder state and the clock are reset here, in the caller's
    // thread, so a stop or ponderhit sent right after `go` cannot be lost.
    // A search still running is waited for first.
    void start(const Position& root, const SearchLimits& limits, const SearchOptions& options,
               SearchCallbacks callbacks);
    // Blocks until the search started last is over (its onDone has returned).
    void wait();
    bool searching() const;
    // start + wait; returns the result.
    SearchResult search(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                        SearchCallbacks callbacks = {});
    // A stop command (GUI, quit, destructor): stops the search and ends any
    // wait for ponderhit or for the minimum think time.
    void stop() { shared_.requestStop(true); }
    // Converts a ponder search into a timed search whose clock starts now.
    void ponderhit();
    bool stopped() const { return shared_.stopRequested.load(std::memory_order_relaxed); }
    // Forget killers and history (new game).
    void clearHistory();
    uint64_t nodes() const { return shared_.nodes(); }

private:
    void mainThread();
    void resizePool(int threads);
    SearchResult pickResult();
    SearchShared shared_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::vector<std::unique_ptr<PoolThread>> threads_;  // threads_[i] runs workers_[i]
    Position root_;
    std::vector<Move> rootMoves_;
    Move ttRootMove_;  // a deeper earlier result for the root, if any
    int ttRootDepth_ = 0;
    Value ttRootValue_ = 0;
    SearchResult lastResult_;
};

}  // namespace chariot
