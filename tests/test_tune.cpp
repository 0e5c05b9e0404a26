#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "chariot/eval_weights.h"
#include "chariot/psqt.h"
#include "chariot/tune.h"
#include "test_util.h"

using namespace chariot;

namespace {

constexpr const char* TermPositions[] = {
    "3ak4/9/2n3n2/9/9/9/P1P6/9/9/R2K5 w - - 0 1",
    "P2aka3/9/9/2P6/6P2/9/2p1P4/9/4A4/1p2K4 w - - 0 1",
    "r3k3r/9/9/9/9/9/9/9/9/3K5 w - - 0 1",
    "r3k4/9/9/9/3c5/9/9/9/9/3K5 w - - 0 1",
    "4k4/4n4/9/9/9/9/9/9/4N4/4K4 w - - 0 1",
    "3k1C3/9/9/9/9/9/9/9/9/c3K4 w - - 0 1",
    "rCbakab1r/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/4C4/4N4/RNBAKAB1R b - - 0 1",
};

// The same position with the colours swapped: ranks reversed, red and black
// exchanged, the other side to move.
Position colourSwapped(const Position& p) {
    const std::string fen = p.fen();
    const std::string board = fen.substr(0, fen.find(' '));
    std::vector<std::string> ranks;
    for (size_t start = 0;;) {
        const size_t end = board.find('/', start);
        ranks.push_back(board.substr(start, end - start));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    std::string swapped;
    for (auto r = ranks.rbegin(); r != ranks.rend(); ++r) {
        for (char c : *r) swapped += std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
        if (r + 1 != ranks.rend()) swapped += '/';
    }
    swapped += p.sideToMove() == Color::Red ? " b" : " w";
    Position out;
    INFO(fen << " -> " << swapped);
    REQUIRE_FALSE(out.setFen(swapped));
    return out;
}

// Red's uses minus black's of weight w in the position given by FEN.
int uses(std::string_view fen, const Score& w) {
    Position p;
    INFO(fen);
    REQUIRE_FALSE(p.setFen(fen));
    return linearize(p).coef[paramIndex(DefaultEvalParams, w)];
}
int usesSwapped(std::string_view fen, const Score& w) {
    Position p;
    INFO(fen);
    REQUIRE_FALSE(p.setFen(fen));
    return linearize(colourSwapped(p)).coef[paramIndex(DefaultEvalParams, w)];
}
const Score& imbalance(PieceType ours, PieceType theirs) {
    return DefaultEvalParams.imbalance[int(ours) - 1][int(theirs) - 1];
}

// Positions with varied material: the perft reference set, and the positions
// along a few pseudo-random games from the start (captures favoured, so that
// the endgames and their scaling are reached too).
std::vector<Position> evalTestPositions() {
    std::vector<Position> out;
    std::ifstream in(std::string(CHARIOT_TEST_DATA) + "/perft.epd");
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        Position p;
        const std::string fen = line.substr(0, line.find(';'));
        INFO(fen);
        REQUIRE_FALSE(p.setFen(fen));
        out.push_back(p);
    }
    // Positions where the imbalance, crossed-pawn, exposed-file, palace-horse
    // and bottom-cannon terms fire.
    for (const char* fen : TermPositions) {
        Position p;
        INFO(fen);
        REQUIRE_FALSE(p.setFen(fen));
        out.push_back(p);
    }
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    auto next = [&] {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return seed;
    };
    for (int game = 0; game < 40; ++game) {
        Position p;
        for (int ply = 0; ply < 200; ++ply) {
            MoveList moves;
            generateLegal(p, moves);
            if (moves.size == 0) break;
            Move m = moves.moves[next() % moves.size];
            for (Move c : moves)
                if (!p.isEmpty(c.to()) && next() % 2) m = c;
            p.makeMove(m);
            out.push_back(p);
        }
    }
    return out;
}

constexpr const char* TinyPgn = R"([Game "Chinese Chess"]
[Event "test"]
[Result "1-0"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 {a comment
over two lines} I9-H9 3. I0-H0 B9-C7
{adjudication: red wins} 1-0

[Game "Chinese Chess"]
[Result "1/2-1/2"]
[FEN "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1"]

1... e9d9 2. e0f0 d9e9 1/2-1/2

[Game "Chinese Chess"]
[Result "*"]

1. H2-E2 *
)";

}  // namespace

TEST_CASE("the tuner's linear form of the evaluation rebuilds evaluate() exactly", "[eval][tune]") {
    int scaled = 0;
    for (const Position& p : evalTestPositions()) {
        const EvalLinear lin = linearize(p);
        INFO(p.fen());
        REQUIRE(evaluateLinear(lin, DefaultEvalParams) == evaluate(p));
        // The sparse sample form, red's view.
        const tune::Sample s = tune::makeSample(p, 0.5, 0);
        const int red = p.sideToMove() == Color::Red ? evaluate(p) : -evaluate(p);
        REQUIRE(tune::sampleEval(s, DefaultEvalParams) == red);
        scaled += lin.scaleRed < 64 || lin.scaleBlack < 64;
    }
    CHECK(scaled > 0);  // the endgame scale was exercised
}

TEST_CASE("the linear form follows a change of a weight", "[eval][tune]") {
    // Red has an extra rook: raising the rook's value by 10 raises red's score
    // by 10 in the middlegame and endgame alike (no scaling: both sides can mate).
    Position p;
    REQUIRE_FALSE(p.setFen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"));
    EvalParams params = DefaultEvalParams;
    params.pieceValue[int(PieceType::Rook)] += Score(10, 10);
    const EvalLinear lin = linearize(p);
    CHECK(lin.coef[paramIndex(params, params.pieceValue[int(PieceType::Rook)])] == 1);
    CHECK(evaluateLinear(lin, params) == evaluate(p) + 10);
    // Table entries mirror: a red rook on i0 reads the a0 entry.
    CHECK(lin.coef[paramIndex(params, params.psqt[int(PieceType::Rook)][9][0])] ==
          1);  // a0 and i0 for red, a9 only for black
}

TEST_CASE("every weight has its own readable name", "[tune]") {
    std::set<std::string> names;
    for (int i = 0; i < EvalParamCount; ++i) {
        const std::string name = paramName(i);
        INFO(i << " " << name);
        CHECK(name.rfind("param", 0) != 0);
        CHECK(names.insert(name).second);
    }
    CHECK(paramName(paramIndex(DefaultEvalParams, DefaultEvalParams.imbalance[3][2])) == "imbalance.rook.horse");
    CHECK(paramName(paramIndex(DefaultEvalParams, DefaultEvalParams.crossedPawnVsAdvisors[1])) ==
          "crossedPawnVsAdvisors[1]");
    CHECK(paramName(paramIndex(DefaultEvalParams, DefaultEvalParams.bottomCannon)) == "bottomCannon");
}

TEST_CASE("swapping the colours negates every weight's count", "[eval][tune]") {
    for (const Position& p : evalTestPositions()) {
        const EvalLinear lin = linearize(p), swapped = linearize(colourSwapped(p));
        INFO(p.fen());
        for (int i = 0; i < EvalParamCount; ++i) {
            INFO(paramName(i));
            REQUIRE(swapped.coef[i] == -lin.coef[i]);
        }
        REQUIRE(swapped.scaleRed == lin.scaleBlack);
        REQUIRE(swapped.scaleBlack == lin.scaleRed);
    }
}

TEST_CASE("material imbalance counts our pieces times theirs, type by type", "[eval][tune]") {
    using PT = PieceType;
    // Red: rook and two pawns; black: two horses and an advisor.
    const char* fen = "3ak4/9/2n3n2/9/9/9/P1P6/9/9/R2K5 w - - 0 1";
    CHECK(uses(fen, imbalance(PT::Rook, PT::Horse)) == 2);
    CHECK(uses(fen, imbalance(PT::Horse, PT::Rook)) == -2);
    CHECK(uses(fen, imbalance(PT::Pawn, PT::Horse)) == 4);
    CHECK(uses(fen, imbalance(PT::Horse, PT::Pawn)) == -4);
    CHECK(uses(fen, imbalance(PT::Pawn, PT::Advisor)) == 2);
    CHECK(uses(fen, imbalance(PT::Advisor, PT::Pawn)) == -2);
    CHECK(uses(fen, imbalance(PT::Rook, PT::Advisor)) == 1);
    CHECK(uses(fen, imbalance(PT::Advisor, PT::Rook)) == -1);
    for (PieceType t : {PT::Advisor, PT::Elephant, PT::Horse, PT::Rook, PT::Cannon, PT::Pawn}) {
        CHECK(uses(fen, imbalance(t, t)) == 0);
        CHECK(uses(fen, imbalance(PT::Elephant, t)) == 0);
        CHECK(uses(fen, imbalance(t, PT::Cannon)) == 0);
    }
    CHECK(usesSwapped(fen, imbalance(PT::Rook, PT::Horse)) == -2);
    CHECK(usesSwapped(fen, imbalance(PT::Pawn, PT::Horse)) == -4);
    // Equal material: every pair cancels.
    for (int i = 0; i < ImbalanceTypes; ++i)
        for (int j = 0; j < ImbalanceTypes; ++j) CHECK(uses(StartFen, DefaultEvalParams.imbalance[i][j]) == 0);
}

TEST_CASE("crossed pawns short of the last rank count by the enemy advisors left", "[eval][tune]") {
    const auto& w = DefaultEvalParams.crossedPawnVsAdvisors;
    // Red: pawns on c6 and g5 (crossed), e3 (not yet), a9 (last rank); black
    // has both advisors.
    const char* fen = "P2aka3/9/9/2P6/6P2/9/4P4/9/9/4K4 w - - 0 1";
    CHECK(uses(fen, w[2]) == 2);
    CHECK(uses(fen, w[1]) == 0);
    CHECK(uses(fen, w[0]) == 0);
    CHECK(usesSwapped(fen, w[2]) == -2);
    // Black too: a pawn on c3 against red's one advisor, and one on b0 (its last rank).
    const char* both = "P2aka3/9/9/2P6/6P2/9/2p1P4/9/4A4/1p2K4 w - - 0 1";
    CHECK(uses(both, w[2]) == 2);
    CHECK(uses(both, w[1]) == -1);
    CHECK(uses(both, w[0]) == 0);
    CHECK(usesSwapped(both, w[1]) == 1);
    // No advisors left against a lone crossed pawn.
    CHECK(uses("3k5/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1", w[0]) == 1);
    // Pawns that have not crossed count for nothing.
    CHECK(uses(StartFen, w[2]) == 0);
}

TEST_CASE("an exposed king file counts per enemy rook", "[eval][tune]") {
    const Score& w = DefaultEvalParams.exposedKingFile;
    // Nothing in front of red's king on d0: once per black rook. Black's king
    // file is open too, but red has no rook.
    CHECK(uses("r3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", w) == 1);
    CHECK(uses("r3k3r/9/9/9/9/9/9/9/9/3K5 w - - 0 1", w) == 2);
    CHECK(usesSwapped("r3k3r/9/9/9/9/9/9/9/9/3K5 w - - 0 1", w) == -2);
    // The first piece met is black's cannon: still exposed.
    CHECK(uses("r3k4/9/9/9/3c5/9/9/9/9/3K5 w - - 0 1", w) == 1);
    // Red's own horse covers the file.
    CHECK(uses("r3k4/9/9/9/9/9/9/9/3N5/3K5 w - - 0 1", w) == 0);
    // Both kings exposed, a rook each: the counts cancel.
    CHECK(uses("r3k4/9/9/9/9/9/9/9/9/3K4R w - - 0 1", w) == 0);
    // The start: both kings look at their own pieces.
    CHECK(uses(StartFen, w) == 0);
}

TEST_CASE("a horse on its own palace centre is counted", "[eval][tune]") {
    const Score& w = DefaultEvalParams.palaceCentreHorse;
    CHECK(uses("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", w) == 1);
    CHECK(usesSwapped("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", w) == -1);
    CHECK(uses("4k4/4n4/9/9/9/9/9/9/4N4/4K4 w - - 0 1", w) == 0);
    // On the enemy palace centre it is not.
    CHECK(uses("4k4/4N4/9/9/9/9/9/9/9/3K5 w - - 0 1", w) == 0);
}

TEST_CASE("a cannon on the enemy back rank counts while the enemy king is there", "[eval][tune]") {
    const Score& w = DefaultEvalParams.bottomCannon;
    CHECK(uses("3k1C3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", w) == 1);
    CHECK(usesSwapped("3k1C3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", w) == -1);
    // The king has stepped off its back rank.
    CHECK(uses("5C3/3k5/9/9/9/9/9/9/9/4K4 w - - 0 1", w) == 0);
    // Black's cannon on a0 beside red's king on e0 cancels red's.
    CHECK(uses("3k1C3/9/9/9/9/9/9/9/9/c3K4 w - - 0 1", w) == 0);
    // On its own back rank a cannon is not a bottom cannon.
    CHECK(uses("3k5/9/9/9/9/9/9/9/9/2C1K4 w - - 0 1", w) == 0);
}

TEST_CASE("rook and cannon mobility count the squares along their lines", "[eval][tune]") {
    const auto& rook = DefaultEvalParams.rookMobility;
    const auto& cannon = DefaultEvalParams.cannonMobility;
    // Red rook on a0: up the a-file to a8 and the black horse on a9 (9
    // squares), along rank 0 to c0 (its king on d0 stops it): 11. Black's
    // cannon on i9: 9 down the i-file, 3 along rank 9 up to its king: 12.
    const char* fen = "n3k3c/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    CHECK(uses(fen, rook[11]) == 1);
    CHECK(uses(fen, cannon[12]) == -1);
    CHECK(usesSwapped(fen, rook[11]) == -1);
    // A cannon's screen and what lies behind it add nothing.
    CHECK(uses("4k4/9/9/9/9/9/9/9/N8/C2K5 w - - 0 1", cannon[2]) == 1);
}

TEST_CASE("the material sum kept by the position is the tables' sum", "[eval][tune]") {
    for (const Position& p : evalTestPositions()) {
        Score sum;
        for (int sq = 0; sq < BoardSize; ++sq)
            if (isPiece(p.pieceOn(Square(sq)))) sum += psqt::value(p.pieceOn(Square(sq)), Square(sq));
        REQUIRE(sum == p.psq());
    }
}

TEST_CASE("the king-safety attack units kept by the position follow their rule", "[eval][tune]") {
    // The rule, written out: against the king of colour c, an enemy horse in
    // c's half counts 2, a rook 3 (1 still in its own half), a cannon 2 (1),
    // a pawn 1 in c's half on files c..g.
    for (const Position& p : evalTestPositions())
        for (Color c : {Color::Red, Color::Black}) {
            int units = 0;
            for (int sq = 0; sq < BoardSize; ++sq) {
                const Piece pc = p.pieceOn(Square(sq));
                if (!isPiece(pc) || colorOf(pc) == c) continue;
                const bool inHalf = c == Color::Red ? rankOf(Square(sq)) <= 4 : rankOf(Square(sq)) >= 5;
                const int file = fileOf(Square(sq));
                switch (typeOf(pc)) {
                    case PieceType::Horse: units += inHalf ? 2 : 0; break;
                    case PieceType::Rook: units += inHalf ? 3 : 1; break;
                    case PieceType::Cannon: units += inHalf ? 2 : 1; break;
                    case PieceType::Pawn: units += inHalf && file >= 2 && file <= 6 ? 1 : 0; break;
                    default: break;
                }
            }
            REQUIRE(units == p.attackUnits(c));
        }
}

TEST_CASE("PGN games are read with headers, comments, move numbers and results", "[tune]") {
    std::istringstream in(TinyPgn);
    const auto games = tune::readPgn(in);
    REQUIRE(games.size() == 3);
    CHECK(games[0].result == 1.0);
    CHECK(games[0].fen == StartFen);
    CHECK(games[0].moves == std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"});
    CHECK(games[1].result == 0.5);
    CHECK(games[1].fen == "4k4/9/9/9/9/9/9/9/4A4/3AK4 b - - 0 1");
    CHECK(games[1].moves == std::vector<std::string>{"e9d9", "e0f0", "d9e9"});
    CHECK_FALSE(games[2].result);

    std::vector<tune::Sample> samples;
    tune::ExtractStats stats;
    tune::extractSamples(games, 0, tune::ExtractOptions{.skipPlies = 2}, samples, stats);
    CHECK(stats.games == 3);
    CHECK(stats.gamesUsed == 2);  // the unfinished game has no label
    CHECK(stats.badMoves == 0);
    // Game 1: plies 2..6 (5 positions, none in check); game 2: plies 2..3.
    CHECK(stats.positions + stats.inCheck + stats.leafInCheck == 7);
    REQUIRE(samples.size() == size_t(stats.positions));
    for (const tune::Sample& s : samples) CHECK(s.result == (s.game == 0 ? 1.0f : 0.5f));
}

TEST_CASE("an illegal move ends the replay of its game", "[tune]") {
    std::istringstream in("[Result \"0-1\"]\n\n1. H2-E2 H9-H1 2. H0-G2 0-1\n");
    const auto games = tune::readPgn(in);
    REQUIRE(games.size() == 1);
    std::vector<tune::Sample> samples;
    tune::ExtractStats stats;
    tune::extractSamples(games, 0, tune::ExtractOptions{.skipPlies = 0}, samples, stats);
    CHECK(stats.badMoves == 1);
    CHECK(stats.positions == 2);  // the start and after h2e2
}

TEST_CASE("the quiescence leaf of a position with a hanging piece is after the capture", "[tune]") {
    // Red's rook takes the undefended black horse on b9.
    Position p;
    REQUIRE_FALSE(p.setFen("1n2kabr1/4a4/4b4/9/9/9/9/9/9/1R2K4 w - - 0 1"));
    const Position leaf = tune::quietLeaf(p);
    CHECK(leaf.historyLength() > p.historyLength());
    CHECK(leaf.count(Color::Black, PieceType::Horse) == 0);
}

namespace {

// Every position of TinyPgn's games, the first plies included.
std::vector<tune::Sample> tinySamples() {
    std::istringstream in(TinyPgn);
    std::vector<tune::Sample> samples;
    tune::ExtractStats stats;
    tune::extractSamples(tune::readPgn(in), 0, tune::ExtractOptions{.skipPlies = 0}, samples, stats);
    return samples;
}

}  // namespace

TEST_CASE("fitting lowers the training error and respects the step limit", "[tune]") {
    const std::vector<tune::Sample> samples = tinySamples();
    REQUIRE(samples.size() > 5);
    const double k = tune::fitK(samples, DefaultEvalParams);
    CHECK(k > 0);
    tune::FitOptions options;
    options.iterations = 200;
    options.maxChange = 7;
    options.lambda = 0;
    const EvalParams tuned = tune::fit(samples, DefaultEvalParams, k, options);
    CHECK(tune::meanError(samples, tuned, k) < tune::meanError(samples, DefaultEvalParams, k));
    for (int i = 0; i < EvalParamCount; ++i) {
        CHECK(std::abs(paramData(tuned)[i].mg() - paramData(DefaultEvalParams)[i].mg()) <= 7);
        CHECK(std::abs(paramData(tuned)[i].eg() - paramData(DefaultEvalParams)[i].eg()) <= 7);
    }
}

TEST_CASE("fitting moves only the weights marked tunable", "[tune]") {
    const std::vector<tune::Sample> samples = tinySamples();
    REQUIRE(samples.size() > 5);
    // The one weight left free: the one the samples use most (where no
    // endgame scale zeroes the evaluation, as in the king and advisors
    // game), started 80 away from its shipped value so that the fit has
    // somewhere to go.
    std::vector<int> uses(size_t(EvalParamCount), 0);
    for (const tune::Sample& s : samples)
        if (s.scaleRed == 64 && s.scaleBlack == 64)
            for (auto [i, c] : s.coef) uses[i] += std::abs(c);
    const int free = int(std::max_element(uses.begin(), uses.end()) - uses.begin());
    REQUIRE(uses[size_t(free)] > 0);
    EvalParams start = DefaultEvalParams;
    paramData(start)[free] = paramData(start)[free] + Score(80, 80);
    const double k = tune::fitK(samples, start);
    tune::FitOptions options;
    options.iterations = 100;
    options.lambda = 0;
    options.maxChange = 200;
    options.tunable.assign(size_t(EvalParamCount), false);
    options.tunable[size_t(free)] = true;
    const EvalParams tuned = tune::fit(samples, start, k, options);
    INFO("free weight " << paramName(free));
    for (int i = 0; i < EvalParamCount; ++i)
        if (i != free) CHECK(paramData(tuned)[i] == paramData(start)[i]);
    CHECK(paramData(tuned)[free] != paramData(start)[free]);
    CHECK(tune::meanError(samples, tuned, k) < tune::meanError(samples, start, k));
}

TEST_CASE("tune --only rejects a prefix that names no weight", "[tune]") {
    std::vector<std::string> lines;
    const int status = tune::runTuneTool({"--only", "noSuchWeight", "games.pgn"},
                                         [&](const std::string& line) { lines.push_back(line); });
    CHECK(status == 2);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines.back().find("names no weight") != std::string::npos);
}

TEST_CASE("the shipped weights header is exactly what the tuner writes", "[tune]") {
    std::ifstream in(std::string(CHARIOT_TEST_DATA) + "/../../include/chariot/eval_weights.h");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str() == tune::formatEvalWeights(DefaultEvalParams));
}

TEST_CASE("lazy evaluation: the full value inside the margin, a bound outside the window otherwise", "[eval]") {
    int lazy = 0, full = 0;
    for (const Position& p : evalTestPositions()) {
        const Value v = evaluate(p);
        INFO(p.fen() << " eval " << v);
        bool exact = false;
        // An open window never allows a shortcut.
        REQUIRE(evaluateLazy(p, -ValueInfinite, ValueInfinite, Knowledge::Large, exact) == v);
        REQUIRE(exact);
        for (Value alpha : {-900, -400, -100, 0, 100, 400, 900}) {
            const Value beta = alpha + 1;
            const Value w = evaluateLazy(p, alpha, beta, Knowledge::Large, exact);
            if (exact) {
                REQUIRE(w == v);
                ++full;
            } else {
                // The shortcut answers the window test on its own...
                REQUIRE((w >= beta || w <= alpha));
                // ...with the rough value moved LazyMargin toward the window.
                const Value rough = evaluate(p, Knowledge::Small);
                REQUIRE(w == (w >= beta ? rough - LazyMargin : rough + LazyMargin));
                ++lazy;
            }
        }
        // Knowledge below Medium has nothing to skip.
        REQUIRE(evaluateLazy(p, 0, 1, Knowledge::Small, exact) == evaluate(p, Knowledge::Small));
        REQUIRE(exact);
    }
    CHECK(lazy > 0);
    CHECK(full > 0);
}

TEST_CASE("the quiet leaves written beside the samples rebuild the same samples", "[tune]") {
    std::istringstream in(TinyPgn);
    std::vector<tune::Sample> samples;
    std::vector<std::string> leaves;
    tune::ExtractStats stats;
    tune::extractSamples(tune::readPgn(in), 0, tune::ExtractOptions{.skipPlies = 0}, samples, stats, &leaves);
    REQUIRE(samples.size() > 5);
    REQUIRE(leaves.size() == samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
        Position p;
        INFO(leaves[i]);
        REQUIRE_FALSE(p.setFen(leaves[i]));
        CHECK(tune::sampleEval(tune::makeSample(p, 0.5, 0), DefaultEvalParams) ==
              tune::sampleEval(samples[i], DefaultEvalParams));
    }
}

TEST_CASE("labelled positions are read with their game and label; bad lines are skipped", "[tune]") {
    const std::string good = "3ak4/9/2n3n2/9/9/9/P1P6/9/9/R2K5 w - - 0 1";
    std::istringstream in(
        "# comment\n"
        "7\t0.25\t" +
        good + "\n" +
        "8\t1\trnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\n"
        "9\t1.5\t" +
        good + "\n" +               // label above 1
        "x\t0.5\t" + good + "\n" +  // no game number
        "10\t0.5\tnot a fen\n"      // bad FEN
        "11\t0.5\n");               // no FEN field
    std::vector<tune::Sample> samples;
    int bad = 0;
    tune::readLabelled(in, samples, bad);
    CHECK(bad == 4);
    REQUIRE(samples.size() == 2);
    CHECK(samples[0].game == 7);
    CHECK(samples[0].result == 0.25f);
    CHECK(samples[1].game == 8);
    CHECK(samples[1].result == 1.0f);
    Position p;
    REQUIRE_FALSE(p.setFen(good));
    const Value red = evaluate(p);  // red to move: red's view
    CHECK(tune::sampleEval(samples[0], DefaultEvalParams) == red);
    CHECK(samples[1].tempo == -EvalTempo);  // black to move
}

TEST_CASE("tune --dump writes the quiet positions that tune --labels reads back", "[tune]") {
    test::TempDir dir;
    test::writeFile(dir.file("g.pgn"), TinyPgn);
    std::vector<std::string> printed;
    auto print = [&](const std::string& line) { printed.push_back(line); };
    REQUIRE(tune::runTuneTool({"--dump", dir.file("pos.tsv"), "--skip-plies", "0", dir.file("g.pgn")}, print) == 0);
    std::istringstream dumped(test::readFile(dir.file("pos.tsv")));
    std::string line, labelled;
    int lines = 0;
    while (std::getline(dumped, line)) {
        // game<TAB>result<TAB>FEN: relabel every position 0.25, CRLF line ends.
        const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
        REQUIRE(t2 != std::string::npos);
        const std::string result = line.substr(t1 + 1, t2 - t1 - 1);
        CHECK((result == "1" || result == "0.5"));  // the unfinished game gives none
        labelled += line.substr(0, t1) + "\t0.25\t" + line.substr(t2 + 1) + "\r\n";
        ++lines;
    }
    CHECK(lines == int(tinySamples().size()));
    test::writeFile(dir.file("labels.tsv"), labelled);
    std::istringstream in(labelled);
    std::vector<tune::Sample> samples;
    int bad = 0;
    tune::readLabelled(in, samples, bad);
    CHECK(bad == 0);
    REQUIRE(samples.size() == size_t(lines));
    for (const tune::Sample& s : samples) CHECK(s.result == 0.25f);
    // --dump-every keeps every Nth position; --labels alone (no PGN) fits.
    REQUIRE(tune::runTuneTool(
                {"--dump", dir.file("pos3.tsv"), "--dump-every", "3", "--skip-plies", "0", dir.file("g.pgn")}, print) ==
            0);
    const std::string every3 = test::readFile(dir.file("pos3.tsv"));
    CHECK(std::count(every3.begin(), every3.end(), '\n') == (lines + 2) / 3);
    printed.clear();
    REQUIRE(tune::runTuneTool(
                {"--labels", dir.file("labels.tsv"), "--iterations", "10", "--holdout", "0", "--out", dir.file("w.h")},
                print) == 0);
    CHECK(test::readFile(dir.file("w.h")).find("DefaultEvalParams") != std::string::npos);
    // Bad uses: --dump without games, a missing labels file.
    CHECK(tune::runTuneTool({"--dump", dir.file("x.tsv"), "--labels", dir.file("labels.tsv")}, print) == 2);
    CHECK(tune::runTuneTool({"--labels", dir.file("missing.tsv")}, print) == 1);
    CHECK(tune::runTuneTool({"--dump-every", "0", dir.file("g.pgn")}, print) == 2);
}
