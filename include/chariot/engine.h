// The engine without I/O: the game position, the transposition table, the
// searcher and the options. The protocol layer drives it; tests drive it
// directly.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/book.h"
#include "chariot/position.h"
#include "chariot/search.h"
#include "chariot/tt.h"

namespace chariot {


// Root-score jitter levels (UCCI option `randomness`).
enum class Randomness : uint8_t { None, Tiny, Small, Medium, Large, Huge };
int randomnessAmplitude(Randomness r);  // internal units

class Engine {
public:
    static constexpr size_t DefaultHashMB = 64;
    explicit Engine(size_t hashMB = DefaultHashMB);
    ~Engine();

    // `base` is "startpos" or a FEN. Commits only if the FEN and every move
    // are valid; otherwise returns the reason and keeps the old position.
    // Clears banned moves (UCCI: a new position cancels banmoves).
    std::optional<std::string> setPosition(std::string_view base, const std::vector<std::string>& moves);
    const Position& position() const { return position_; }
    // Moves must be legal in the current position; returns the ones rejected.
    std::vector<std::string> setBannedMoves(const std::vector<std::string>& moves);
    const std::vector<Move>& bannedMoves() const { return banned_; }

    // Blocking search on the current position.
    SearchResult search(SearchLimits limits, const std::function<void(const SearchInfo&)>& onInfo) {
        arm(limits);
        return searchArmed(std::move(limits), onInfo);
    }
    // The two halves, for a search on its own thread: arm() in the thread
    // that reads commands, searchArmed() in the search thread.
    void arm(const SearchLimits& limits) { searcher_.arm(limits); }
    SearchResult searchArmed(SearchLimits limits, const std::function<void(const SearchInfo&)>& onInfo);
    void stop() { searcher_.stop(); }
    void ponderhit() { searcher_.ponderhit(); }

    // Loads the `;`-separated book files (replacing the loaded ones); returns
    // one message per file that could not be loaded. Empty string: no book.
    std::vector<std::string> setBookFiles(const std::string& files);
    const std::string& bookFiles() const { return bookFiles_; }
    size_t loadedBooks() const { return books_.size(); }
    // A book move for the current position: legal, not banned, not repeating a
    // position of the game. `candidates` receives every usable book move
    // (best first). Returns none() when the book has nothing.
    Move bookMove(std::vector<BookMove>* candidates = nullptr, Move* ponder = nullptr);

    void newGame();
    size_t setHashMB(size_t mb) { return tt_.resize(mb); }
    size_t hashMB() const { return tt_.sizeMB(); }
    TranspositionTable& tt() { return tt_; }

    SearchOptions searchOptions;
    Randomness randomness = Randomness::None;
    bool useBook = true;

private:
    Position position_;
    std::vector<Move> banned_;
    TranspositionTable tt_;
    Searcher searcher_;
    std::vector<std::unique_ptr<Book>> books_;
    std::string bookFiles_;
    uint64_t rngState_;
};

}  // namespace chariot
