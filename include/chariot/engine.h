// The engine without I/O: it owns the game position, the transposition
// table, the options, the opening book and the search threads. `go` is
// non-blocking (book first, then search) and reports through callbacks; the
// protocol layer parses and formats, tests drive the engine directly.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chariot/book.h"
#include "chariot/nnue.h"
#include "chariot/options.h"
#include "chariot/position.h"
#include "chariot/thread.h"
#include "chariot/skill.h"
#include "chariot/tablebase.h"
#include "chariot/tt.h"

namespace chariot {

// Root-score jitter levels (UCCI option `randomness`).
enum class Randomness : uint8_t { None, Tiny, Small, Medium, Large, Huge };
int randomnessAmplitude(Randomness r);  // internal units

// Upper bounds on the work one command may start, whatever the input asks.
// For tests and fuzzing: the defaults bound nothing.
struct WorkCaps {
    int depth = MaxSearchDepth;                 // search, perft and bench depth
    uint64_t nodes = 0;                         // nodes per search; 0: no cap
    size_t hashMB = TranspositionTable::MaxMB;  // hashsize option and bench hash
    int threads = 256;                          // search threads
    size_t benchPositions = 0;                  // bench runs only the first N positions; 0: all
    int64_t minThinkMs = INT64_MAX;             // the strength limiter's minimum think time at most this
    // Why `threads` is capped, said with the clamp (the single-threaded
    // WebAssembly module: no threads where the page is not cross-origin isolated).
    std::string threadsNote;
};

struct GoRequest {
    SearchLimits limits;
    bool drawOffered = false;  // UCCI `go draw` / `ponderhit draw`
    bool inputClosed = false;  // no stop or ponderhit can follow (end of input)
};

// The answer to a `go`.
struct BestMove {
    SearchResult result;  // best none(): no legal move
    bool fromBook = false;
    std::vector<BookMove> bookMoves;  // with fromBook: every usable book move, best first
    bool offerDraw = false;           // a dead draw, or a long level no-capture run (or accepting an offer)
    bool resign = false;              // a short forced mate against us
};

struct EngineCallbacks {
    std::function<void(const SearchInfo&)> onIteration;
    std::function<void(const CurrentMove&)> onCurrentMove;
    std::function<void(const SearchProgress&)> onProgress;
    std::function<void(const BestMove&)> onBestMove;  // last call of a go
    std::function<void(int64_t)> onPoll;              // built without threads only: SearchCallbacks::onPoll
};

// A hash-table entry as `probe` shows it.
struct ProbeResult {
    bool found = false;
    Move move;  // none() if the entry has no legal move here
    Value value = 0;
    Bound bound = Bound::None;
    int depth = 0;
};

class Engine {
public:
    static constexpr size_t DefaultHashMB = 64;
    explicit Engine(const WorkCaps& caps = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // --- options (one registry; see options.h) ---------------------------
    OptionRegistry& options() { return options_; }
    // setoption; the messages are for `info string`.
    OptionRegistry::SetResult setOption(std::string_view name, std::string_view value) {
        return options_.set(name, value);
    }
    SearchOptions& searchOptions() { return searchOptions_; }
    int64_t moveOverheadMs() const { return moveOverheadMs_; }
    // The strength limiter (skill.h): the level the next search plays at,
    // from `elo` when `limitstrength` is on, else from `skilllevel`; 20 is
    // full strength (the engine untouched).
    double skillLevel() const;
    // Fixes the random stream (book choice, randomness, the limiter's move
    // choice) for reproducible tests; it is seeded from the clock otherwise.
    void seedRandom(uint64_t seed) { rngState_ = seed; }

    // --- the game --------------------------------------------------------
    // `base` is "startpos" or a FEN. Commits only if the FEN and every move
    // are valid; otherwise returns the reason and keeps the old position.
    // Clears banned moves (UCCI: a new position cancels banmoves).
    std::optional<std::string> setPosition(std::string_view base, const std::vector<std::string>& moves);
    const Position& position() const { return position_; }
    // Moves must be legal in the current position; returns the ones rejected.
    std::vector<std::string> setBannedMoves(const std::vector<std::string>& moves);
    const std::vector<Move>& bannedMoves() const { return banned_; }
    void newGame();

    // --- searching -------------------------------------------------------
    // Starts answering the current position and returns at once: a book move
    // (when the book is on and the limits allow one: not ponder, infinite,
    // mate or searchmoves), else a search. The answer arrives through
    // onBestMove, on the search thread (for a book move, and in a build
    // without threads for every move: before go returns). A search still
    // running is waited for first.
    void go(GoRequest request, EngineCallbacks callbacks);
    void stop() { searcher_.stop(); }
    void ponderhit(bool drawOffered = false);
    void wait() { searcher_.wait(); }
    // Blocks until a new hash table's memory is in place (isready): the
    // first search after it then runs at full speed.
    void waitUntilReady() { tt_.waitPopulated(); }
    bool searching() const { return searcher_.searching(); }
    // Blocking search of the current position without the book (tests, bench).
    SearchResult search(const SearchLimits& limits, const std::function<void(const SearchInfo&)>& onInfo = nullptr);

    // --- evaluation ----------------------------------------------------------
    // The NNUE net (`evalfile`; the embedded one by default, null when the
    // build has none) and whether the search uses it (`usennue`).
    const std::shared_ptr<const nnue::Network>& network() const { return net_; }
    // (A search running keeps the net it started with.)
    void setNetwork(std::shared_ptr<const nnue::Network> net) { net_ = std::move(net); }
    bool useNnue() const { return useNnue_; }
    // `usennue`'s default: the net is the default evaluation (it beat the
    // handcrafted one at 1 s + 0.02 s and at 10 s + 0.1 s; docs/strength.md).
    static constexpr bool DefaultUseNnue = true;

    // --- endgame tablebases ----------------------------------------------------
    // How `egtbpath` opens a folder of tables (chariot/egtb/ gives one; without
    // it the option answers that this build has no tables).
    void setTablebaseLoader(TablebaseLoader loader) { tbLoader_ = std::move(loader); }
    // The tables in use (`egtbpath` set and `useegtb` on), or null.
    std::shared_ptr<const TablebaseProber> tablebase() const { return useEgtb_ ? tablebase_ : nullptr; }
    // The tables' verdict on pos, if they have it.
    std::optional<TbResult> probeTablebase(const Position& pos) const;

    // --- inspection --------------------------------------------------------
    ProbeResult probe(const Position& pos) const;
    // The handcrafted evaluation by term, and the net's value when a net is loaded.
    std::string evalReport() const;

    // --- book --------------------------------------------------------------
    // Loads the `;`-separated book files (replacing the loaded ones); returns
    // one message per file that could not be loaded. Empty string: no book.
    std::vector<std::string> setBookFiles(const std::string& files);
    const std::string& bookFiles() const { return bookFiles_; }
    size_t loadedBooks() const { return books_.size(); }
    // A book move for the current position: legal, not banned, not repeating a
    // position of the game. `candidates` receives every usable book move
    // (best first). Returns none() when the book has nothing. The choice is
    // random, weighted by the moves' weights, unless `bookrandom` is off.
    Move bookMove(std::vector<BookMove>* candidates = nullptr, Move* ponder = nullptr);

    size_t setHashMB(size_t mb) { return tt_.resize(std::min(mb, caps_.hashMB)); }
    size_t hashMB() const { return tt_.sizeMB(); }
    const WorkCaps& caps() const { return caps_; }

private:
    void declareOptions();
    // The options of the next search: the registry's, plus the banned moves,
    // the time settings and the work caps; for a `limited` search (the
    // strength limiter) the net its ratings were measured with.
    SearchOptions preparedOptions(bool limited = false);
    // The strength limiter's caps, MultiPV, time share and minimum think time.
    void limitStrength(SearchOptions& options, const skill::Params& params) const;
    // Replaces the result's move, score and PV by those of the line the
    // limiter chooses among the result's lines.
    void chooseLimitedMove(SearchResult& result, const skill::Params& params, uint64_t seed) const;
    // A root the tables know: restricts the root moves (searchmoves) to those
    // that keep the best result (the shortest win, a draw, the longest loss)
    // and returns the table's score for the root, which the reports then show.
    std::optional<Value> tablebaseRoot(SearchLimits& limits, const SearchOptions& options) const;
    // Fills the draw offer and resignation (when `mayResign`) of a finished search.
    void judgeOutcome(BestMove& answer, bool drawOffered, bool mayResign);

    WorkCaps caps_;
    Position position_;
    std::vector<Move> banned_;
    TranspositionTable tt_;
    Searcher searcher_;
    OptionRegistry options_;
    SearchOptions searchOptions_;
    std::shared_ptr<const nnue::Network> net_;
    bool useNnue_ = DefaultUseNnue;
    Randomness randomness_ = Randomness::None;
    bool useBook_ = true;
    bool bookRandom_ = true;
    bool ponderOption_ = false;
    int64_t moveOverheadMs_ = 30;
    int skillLevel_ = skill::MaxLevel;
    bool limitStrength_ = false;
    int elo_ = skill::minElo();
    TablebaseLoader tbLoader_;
    std::shared_ptr<const TablebaseProber> tablebase_;
    bool useEgtb_ = true;
    std::vector<std::unique_ptr<Book>> books_;
    std::string bookFiles_;
    uint64_t rngState_;
    // The evaluation of the last search (net, knowledge); 0xFF: none yet.
    std::pair<const void*, Knowledge> lastEvaluation_{nullptr, Knowledge(0xFF)};
    // Scores of our recent searches with the no-capture count they were made
    // at, for draw offers; cleared by a capture or a new game.
    std::vector<std::pair<int, Value>> recentScores_;
    std::atomic<bool> drawOffered_{false};  // of the search running now (ponderhit draw sets it)
};

}  // namespace chariot
