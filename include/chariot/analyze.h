// `chariot analyze`: searches every position of the games of PGN files and
// writes them back annotated (scores, best moves where the played move lost
// ground, ?! ? ?? marks, a summary per game), as PGN or one JSON object per game.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "chariot/engine.h"
#include "chariot/notation.h"
#include "chariot/pgn.h"

namespace chariot::analyze {

// Losses (the best move's score minus the played move's, for the side that
// moved, internal units: a pawn is 100) from which a move is marked.
struct Thresholds {
    int dubious = 50;   // ?!
    int mistake = 100;  // ?
    int blunder = 300;  // ??
};
// Scores are clamped to ±LossCap (a mate counts as LossCap) before a loss is taken.
constexpr int LossCap = 2000;

struct Options {
    int64_t moveTimeMs = 500;  // -1: none
    int depth = 0;             // 0: none
    uint64_t nodes = 0;        // 0: none
    int threads = 1;
    int hashMB = int(Engine::DefaultHashMB);
    int multiPV = 1;
    std::optional<notation::Notation> notation;  // nullopt: the input's
    bool json = false;
    Thresholds thresholds;
    std::string egtbPath;  // --egtb: a folder of endgame tablebases ("" none)
};

// One search: the side to move's view.
struct Eval {
    Move best;  // none(): no legal move (the side to move has lost)
    Value score = 0;
    int depth = 0;
    uint64_t nodes = 0;
    int64_t timeMs = 0;
    std::vector<Move> pv;
    std::vector<SearchInfo> lines;  // with MultiPV > 1: the last complete iteration's lines
};

struct MoveNote {
    int ply = 0;     // 0-based index in the game
    int number = 0;  // the move number printed before it
    Color side = Color::Red;
    Move move;
    std::string text;               // in the output notation
    Eval before;                    // the search of the position it was played in
    Eval after;                     // the search of the position it led to
    int loss = 0;                   // internal units, >= 0
    std::string mark;               // "", "?!", "?", "??"
    std::optional<TbResult> table;  // the tables' verdict on the position after it (its side to move's view)
};

struct SideSummary {
    int moves = 0;
    int64_t totalLoss = 0;
    int dubious = 0, mistakes = 0, blunders = 0;
    double averageLoss() const { return moves ? double(totalLoss) / moves : 0.0; }
};

// A game with its moves resolved (before any search).
struct PreparedGame {
    const pgn::PgnGame* game = nullptr;
    int number = 0;  // 1-based over the whole run
    std::string fen;
    std::vector<Move> moves;
    notation::Notation inputNotation = notation::Notation::Iccs;
    std::optional<std::string> stop;  // the move at which the game stops, and why
    bool badFen = false;              // the FEN tag is invalid: nothing to analyse
};
PreparedGame prepareGame(const pgn::PgnGame& game, int number);

struct GameReport {
    const PreparedGame* prepared = nullptr;
    notation::Notation notation = notation::Notation::Iccs;  // of the output
    Eval start;                                              // the first position's search
    std::vector<MoveNote> moves;
    SideSummary red, black;
    std::vector<size_t> worst;  // indices of the biggest losses (marked moves only), at most 3
};

// Searches the positions of a prepared game (engine.newGame() first: the
// hash table is kept from one position to the next, cleared between games).
// `onPosition` is called after each search.
GameReport analyzeGame(Engine& engine, const PreparedGame& game, const Options& options,
                       const std::function<void()>& onPosition = {});

// "+0.35/14", "-M3/12"; `v` from red's view; depth < 0: no "/depth".
std::string formatScore(Value v, int depth = -1);
std::string formatPgn(const GameReport& report, const Options& options);
std::string formatJson(const GameReport& report, const Options& options);
std::string summaryLine(const GameReport& report);
// A JSON string literal (quotes included).
std::string jsonString(std::string_view s);

// `chariot analyze ...`: annotated games on `print` (stdout) or --out,
// messages on `err`, progress on `err` when `progress`. Returns the exit status.
int runAnalyzeTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                   std::ostream& err, std::istream& in, bool progress);

}  // namespace chariot::analyze
