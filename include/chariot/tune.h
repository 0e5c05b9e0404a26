// Texel-style tuning of the evaluation weights (`chariot tune`): positions
// from finished games, labelled with the game result, and a least-squares fit
// of sigmoid(eval) to the results by gradient descent on EvalParams.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "chariot/eval.h"
#include "chariot/eval_params.h"
#include "chariot/position.h"

namespace chariot::tune {

// One game of a PGN file: start FEN, result from red's view (1, 0.5, 0;
// nullopt if unfinished or unknown) and the moves as 4-letter ICCS ("h2e2").
struct PgnGame {
    std::string fen{StartFen};
    std::optional<double> result;
    std::vector<std::string> moves;
};

// Reads every game of a PGN file with pgn::parsePgn (xqmatch's ICCS PGN,
// WXF or Chinese moves, UTF-8 or GBK): the FEN and Result tags (else the
// result token), the moves resolved to ICCS; from the first move that does
// not resolve on, the moves are kept as written (extractSamples counts one
// bad move and stops the game there). A file that is not PGN gives no game.
std::vector<PgnGame> readPgn(std::istream& in);

// One labelled training position, as a sparse linear form of the weights.
struct Sample {
    std::vector<std::pair<uint16_t, int16_t>> coef;  // (weight index, red's uses minus black's)
    int8_t phase = 0;
    int8_t scaleRed = 64, scaleBlack = 64;
    int8_t tempo = 0;     // EvalTempo from red's view: + when red is to move
    float result = 0.5f;  // game result, red's view
    int game = 0;         // index of the game it came from
};

struct ExtractOptions {
    int skipPlies = 10;  // opening plies not taken
};

struct ExtractStats {
    int games = 0, gamesUsed = 0, badMoves = 0;
    int positions = 0, inCheck = 0, leafInCheck = 0, moved = 0;  // moved: the quiescence PV was not empty
};

// Replays each game (with a result) and takes, after the first skipPlies,
// every position not in check; a capture-only quiescence search replaces
// it by the end of its principal variation, so that the label goes with a
// quiet position. Appends to `out`; `firstGame` numbers the games.
// When `leaves` is given, the FEN of each sample's quiet position is appended
// to it, in step with `out`.
void extractSamples(const std::vector<PgnGame>& games, int firstGame, const ExtractOptions& options,
                    std::vector<Sample>& out, ExtractStats& stats, std::vector<std::string>* leaves = nullptr);

// Labelled positions from a text file, one per line: `game<TAB>label<TAB>FEN`,
// the label a probability of red's win in [0, 1] (for example a blend of the
// game result and a deeper engine's score, `tools/tuning/label_positions.py`).
// Lines that do not parse are counted in `bad` and skipped.
void readLabelled(std::istream& in, std::vector<Sample>& out, int& bad);
// The quiet position used for one position: the end of the quiescence PV.
Position quietLeaf(const Position& pos);

Sample makeSample(const Position& pos, double result, int game);
// Red's-view evaluation of a sample with integer weights, exactly as the
// engine computes it (tempo included).
int sampleEval(const Sample& s, const EvalParams& params);

// Mean squared error of 1 / (1 + 10^(-K e / 400)) against the results.
double meanError(const std::vector<Sample>& samples, const EvalParams& params, double k);
// K minimising meanError with the given weights.
double fitK(const std::vector<Sample>& samples, const EvalParams& params);

struct FitOptions {
    int iterations = 2000;
    double learningRate = 1.0;  // Adam step, internal units per iteration
    double lambda = 1e-7;       // L2 pull towards the starting weights, per weight, units^-2
    int maxChange = 60;         // no weight moves further than this from its start
    // Per weight (EvalParamCount entries): whether it may move. Empty: all.
    // Fitting a new term alone keeps the tuned rest where the games put it.
    std::vector<bool> tunable;
};

// Gradient descent (Adam, full batch) from `start`; returns rounded weights.
// `progress` is called every 100 iterations and at the end with (iteration,
// training loss with the L2 term, the current weights rounded).
EvalParams fit(const std::vector<Sample>& train, const EvalParams& start, double k, const FitOptions& options,
               const std::function<void(int, double, const EvalParams&)>& progress = {});

// The text of include/chariot/eval_weights.h for these weights.
std::string formatEvalWeights(const EvalParams& params);

// `chariot tune ...`: returns the exit status.
int runTuneTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print);

}  // namespace chariot::tune
