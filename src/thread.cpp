#include "chariot/thread.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "chariot/movegen.h"

namespace chariot {

#if CHARIOT_NO_THREADS

PoolThread::PoolThread() = default;
PoolThread::~PoolThread() = default;

void PoolThread::run(std::function<void()> job) {
    assert(!busy_);
    busy_ = true;
    job();
    busy_ = false;
}

void PoolThread::wait() {}

bool PoolThread::busy() const { return busy_; }

#else

PoolThread::PoolThread() : thread_([this] { idleLoop(); }) {}

PoolThread::~PoolThread() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void PoolThread::run(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        assert(!busy_);
        job_ = std::move(job);
        busy_ = true;
    }
    cv_.notify_all();
}

void PoolThread::wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return !busy_; });
}

bool PoolThread::busy() const {
    std::lock_guard lock(mutex_);
    return busy_;
}

void PoolThread::idleLoop() {
    std::unique_lock lock(mutex_);
    while (true) {
        cv_.wait(lock, [this] { return busy_ || quit_; });
        if (!busy_) return;  // quit, and no job left
        std::function<void()> job = std::move(job_);
        lock.unlock();
        job();
        lock.lock();
        busy_ = false;
        cv_.notify_all();
    }
}

#endif  // CHARIOT_NO_THREADS

// ---------------------------------------------------------------------------

Searcher::Searcher(TranspositionTable& tt) : shared_(tt) { resizePool(1); }

Searcher::~Searcher() {
    stop();
    wait();
    threads_.clear();  // joins the threads before the workers go
}

void Searcher::resizePool(int threads) {
    while (int(workers_.size()) < threads) {
        workers_.push_back(std::make_unique<Worker>(shared_, int(workers_.size())));
        threads_.push_back(std::make_unique<PoolThread>());
    }
    while (int(workers_.size()) > threads) {
        threads_.pop_back();
        workers_.pop_back();
    }
    shared_.nodeCounters.clear();
    for (const auto& w : workers_) shared_.nodeCounters.push_back(&w->nodes);
}

void Searcher::clearHistory() {
    wait();
    for (auto& w : workers_) w->clearHistory();
}

void Searcher::ponderhit() {
    {
        std::lock_guard lock(shared_.waitMutex);
        shared_.time.ponderhit();
    }
    shared_.wake.notify_all();
}

bool Searcher::searching() const { return threads_[0]->busy(); }

void Searcher::wait() { threads_[0]->wait(); }

SearchResult Searcher::search(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                              SearchCallbacks callbacks) {
    start(root, limits, options, std::move(callbacks));
    wait();
    return lastResult_;
}

void Searcher::start(const Position& root, const SearchLimits& limits, const SearchOptions& options,
                     SearchCallbacks callbacks) {
    wait();
    shared_.stopRequested = false;
    shared_.stopCommanded = false;
    shared_.options = options;
    shared_.callbacks = std::move(callbacks);
    shared_.time.init(limits, options);
    // Without threads the helpers would search one after another: one thread.
    shared_.threadCount = std::clamp(options.threads, 1, CHARIOT_NO_THREADS ? 1 : 256);
    root_ = root;
    resizePool(shared_.threadCount);

    // Root moves: legal, not banned, and within searchmoves if given.
    MoveList legal;
    generateLegal(root_, legal);
    rootMoves_.clear();
    for (Move m : legal) {
        if (std::find(options.banned.begin(), options.banned.end(), m) != options.banned.end()) continue;
        if (!limits.searchMoves.empty() &&
            std::find(limits.searchMoves.begin(), limits.searchMoves.end(), m) == limits.searchMoves.end())
            continue;
        rootMoves_.push_back(m);
    }
    // What an earlier, deeper search found here: the answer if this one is
    // stopped before it gets past its first iteration.
    ttRootMove_ = Move::none();
    ttRootDepth_ = 0;
    TTHit hit;
    if (shared_.tt.probe(root_.key(), 0, hit) && hit.move && hit.bound == Bound::Exact &&
        std::find(rootMoves_.begin(), rootMoves_.end(), hit.move) != rootMoves_.end()) {
        ttRootMove_ = hit.move;
        ttRootDepth_ = hit.depth;
        ttRootValue_ = hit.value;
    }
    shared_.tt.newSearch();
    threads_[0]->run([this] { mainThread(); });
}

void Searcher::mainThread() {
    SearchResult result;
    if (!rootMoves_.empty()) {
        for (auto& w : workers_) w->prepare(root_, rootMoves_, shared_.options, shared_.options.seed);
        for (size_t i = 1; i < workers_.size(); ++i) threads_[i]->run([this, i] { workers_[i]->iterativeDeepening(); });
        workers_[0]->iterativeDeepening();
    }
    // A ponder or infinite search must not answer before stop or ponderhit,
    // nor a limited one before its minimum think time: the time manager says.
#if CHARIOT_NO_THREADS
    // No other thread can bring the stop or ponderhit: the host is polled,
    // for at most the delay (-1: until input arrives), until the time
    // manager lets the search answer. With no host to poll (a blocking
    // search) nothing could end the wait: the search answers now.
    while (shared_.callbacks.onPoll) {
        const int64_t delay =
            shared_.time.answerDelayMs(shared_.stopRequested.load(), shared_.stopCommanded.load(), rootMoves_.empty());
        if (delay == 0) break;
        shared_.callbacks.onPoll(delay);
    }
#else
    {
        std::unique_lock lock(shared_.waitMutex);
        while (true) {
            const int64_t delay = shared_.time.answerDelayMs(shared_.stopRequested.load(), shared_.stopCommanded.load(),
                                                             rootMoves_.empty());
            if (delay == 0) break;
            if (delay < 0)
                shared_.wake.wait(lock);
            else
                shared_.wake.wait_for(lock, std::chrono::milliseconds(delay));
        }
    }
#endif
    shared_.requestStop(false);  // the helpers
    for (size_t i = 1; i < threads_.size(); ++i) threads_[i]->wait();
    if (!rootMoves_.empty()) result = pickResult();
    result.nodes = nodes();
    result.timeMs = shared_.time.elapsedMs();
    result.hashfull = shared_.tt.hashfull();
    lastResult_ = result;
    if (shared_.callbacks.onDone) shared_.callbacks.onDone(result);
}

SearchResult Searcher::pickResult() {
    // The main thread's answer, unless a helper completed a deeper iteration
    // with a better score (Lazy SMP: its tree is then the better one).
    const Worker* chosen = workers_[0].get();
    auto scoreOf = [](const Worker& w) {
        const RootMove& rm = w.rootMoves[0];
        return rm.score == -ValueInfinite ? rm.previousScore : rm.score;
    };
    for (size_t i = 1; i < workers_.size(); ++i) {
        const Worker& w = *workers_[i];
        if (w.completedDepth > chosen->completedDepth && scoreOf(w) > scoreOf(*chosen)) chosen = &w;
    }
    const RootMove& best = chosen->rootMoves[0];
    SearchResult result;
    result.best = best.move;
    result.score = scoreOf(*chosen);
    if (result.score == -ValueInfinite) result.score = 0;
    result.depth = chosen->completedDepth;
    // A line from an iteration stopped part way: its score bounds the root's
    // value at that iteration's depth (a fail low bounds it from above).
    if (best.score != -ValueInfinite && best.scoreDepth > result.depth) {
        result.depth = best.scoreDepth;
        result.bound = best.scoreBound == Bound::Upper ? Bound::Upper : Bound::Lower;
    }
    result.selDepth = std::max(best.selDepth, result.depth);
    result.pv = best.pv;
    if (result.pv.empty() || result.pv[0] != result.best) result.pv.assign(1, result.best);
    if (chosen == workers_[0].get()) result.lines = chosen->completedLines;
    // Stopped during the first iterations: an earlier, deeper search of this
    // very position knows better than a depth-1 answer.
    if (ttRootMove_ && result.depth <= 1 && ttRootDepth_ > result.depth && chosen == workers_[0].get()) {
        result.best = ttRootMove_;
        result.score = ttRootValue_;
        result.depth = ttRootDepth_;
        result.selDepth = std::max(result.selDepth, result.depth);
        result.bound = Bound::Exact;
        result.pv.assign(1, ttRootMove_);
    }
    trimAtGameEnd(root_, result.pv, shared_.options.judgeChase);
    if (result.pv.size() > 1) result.ponder = result.pv[1];
    if (!result.ponder && result.pv.size() == 1 && !gameEndsAfter(root_, result.best, shared_.options.judgeChase)) {
        // No PV move: take the reply from the TT if it is legal.
        Position p = root_;
        p.makeMove(result.best);
        TTHit hit;
        if (shared_.tt.probe(p.key(), 1, hit) && hit.move && p.isPseudoLegal(hit.move) && p.isLegal(hit.move)) {
            result.ponder = hit.move;
            result.pv.push_back(hit.move);
        }
    }
    return result;
}

}  // namespace chariot
