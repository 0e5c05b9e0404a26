#include "chariot/engine.h"

#include <chrono>

#include <fmt/format.h>

namespace chariot {

int randomnessAmplitude(Randomness r) {
    constexpr int amplitude[] = {0, 4, 12, 28, 60, 120};
    return amplitude[int(r)];
}

Engine::Engine()
    : tt_(64),
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

void Engine::newGame() {
    tt_.clear();
    searcher_.clearHistory();
}

}  // namespace chariot
