#include "chariot/engine.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "chariot/rules.h"

namespace chariot {

int randomnessAmplitude(Randomness r) {
    constexpr int amplitude[] = {0, 4, 12, 28, 60, 120};
    return amplitude[int(r)];
}

Engine::Engine(size_t hashMB)
    : tt_(hashMB),
      searcher_(tt_),
      rngState_(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) | 1) {}

Engine::~Engine() { searcher_.stop(); }

std::optional<std::string> Engine::setPosition(std::string_view base, const std::vector<std::string>& moves) {
    Position p;
    if (base != "startpos") {
        if (auto error = p.setFen(base)) return error;
    }
    for (size_t i = 0; i < moves.size(); ++i) {
        Move m = p.parseLegalMove(moves[i]);
        if (!m) {
            std::string shown = moves[i].substr(0, 16);
            return fmt::format("move {} '{}' is {} in {}", i + 1, shown,
                               Move::parse(moves[i]) ? "illegal" : "not an ICCS move", p.fen());
        }
        p.makeMove(m);
    }
    position_ = std::move(p);
    banned_.clear();
    return std::nullopt;
}

std::vector<std::string> Engine::setBannedMoves(const std::vector<std::string>& moves) {
    std::vector<std::string> rejected;
    banned_.clear();
    for (const auto& text : moves) {
        Move m = position_.parseLegalMove(text);
        if (m)
            banned_.push_back(m);
        else
            rejected.push_back(text.substr(0, 16));
    }
    return rejected;
}

SearchResult Engine::searchArmed(SearchLimits limits, const std::function<void(const SearchInfo&)>& onInfo) {
    limits.banned.insert(limits.banned.end(), banned_.begin(), banned_.end());
    SearchOptions options = searchOptions;
    options.randomness = randomnessAmplitude(randomness);
    // splitmix step: a fresh jitter pattern every search
    rngState_ += 0x9E3779B97F4A7C15ULL;
    options.seed = rngState_;
    return searcher_.search(position_, limits, options, onInfo);
}

std::vector<std::string> Engine::setBookFiles(const std::string& files) {
    std::vector<std::string> errors;
    books_.clear();
    bookFiles_ = files;
    size_t start = 0;
    while (start <= files.size()) {
        size_t end = files.find(';', start);
        if (end == std::string::npos) end = files.size();
        std::string path = files.substr(start, end - start);
        while (!path.empty() && path.back() == ' ') path.pop_back();
        while (!path.empty() && path.front() == ' ') path.erase(path.begin());
        if (!path.empty()) {
            std::string error;
            if (auto book = Book::load(path, error))
                books_.push_back(std::move(book));
            else
                errors.push_back(path + ": " + error);
        }
        start = end + 1;
    }
    return errors;
}

Move Engine::bookMove(std::vector<BookMove>* candidates, Move* ponder) {
    if (!useBook || books_.empty()) return Move::none();
    // The first book that knows the position decides.
    std::vector<BookMove> moves;
    for (const auto& book : books_) {
        moves = book->probe(position_);
        if (!moves.empty()) break;
    }
    // Drop banned moves and moves that would repeat a position of the game.
    std::vector<BookMove> usable;
    for (const BookMove& bm : moves) {
        if (std::find(banned_.begin(), banned_.end(), bm.move) != banned_.end()) continue;
        Position after = position_;
        after.makeMove(bm.move);
        if (rules::judge(after, 0, {searchOptions.judgeChase, 1}).verdict != rules::Verdict::None) continue;
        usable.push_back(bm);
    }
    if (candidates) *candidates = usable;
    if (usable.empty()) return Move::none();
    // Reproducible without randomness (seeded by the position), varied with it.
    uint64_t random;
    if (randomness == Randomness::None) {
        random = position_.key() * 0x9E3779B97F4A7C15ULL;
    } else {
        rngState_ += 0x9E3779B97F4A7C15ULL;
        random = rngState_ ^ (rngState_ >> 29);
    }
    Move chosen = pickBookMove(usable, random);
    if (ponder) {
        // The ponder move: the best-weighted book reply, if any.
        *ponder = Move::none();
        Position after = position_;
        after.makeMove(chosen);
        for (const auto& book : books_) {
            auto replies = book->probe(after);
            if (!replies.empty()) {
                *ponder = replies.front().move;
                break;
            }
        }
    }
    return chosen;
}

void Engine::newGame() {
    tt_.clear();
    searcher_.clearHistory();
}

}  // namespace chariot
