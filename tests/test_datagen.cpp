// `chariot datagen --starts`: games that begin at positions of master games.
// The reachable positions are worked out here by replaying the PGN files
// move by move, independently of the generator's own reading of them.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "chariot/datagen.h"
#include "chariot/movegen.h"
#include "chariot/notation.h"
#include "chariot/pgn.h"
#include "test_util.h"

using namespace chariot;

namespace {

const std::string Data = CHARIOT_TEST_DATA;
const std::string Big5Sample = Data + "/ccpd-big5-sample.pgn";
const std::string GbkGame = Data + "/uccileag-gbk-chinese.pgn";

// A FEN's board and side to move (the counters depend on the history).
std::string placement(const std::string& fen) {
    std::istringstream in(fen);
    std::string board, side;
    in >> board >> side;
    return board + " " + side;
}

// Every position of every game of the files, with the plies at which it
// occurs and the length (plies read) of the game it occurs in.
struct Occurrence {
    int ply = 0, length = 0;
};
std::map<std::string, std::vector<Occurrence>> reachable(const std::vector<std::string>& paths) {
    std::map<std::string, std::vector<Occurrence>> out;
    for (const std::string& path : paths) {
        std::ifstream f(path, std::ios::binary);
        REQUIRE(f);
        const std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
        const pgn::PgnFile file = pgn::parsePgn(bytes);
        REQUIRE_FALSE(file.error);
        for (const pgn::PgnGame& game : file.games) {
            Position pos = test::fromFen(game.fen());
            std::vector<std::string> seen{placement(pos.fen())};
            for (const pgn::PgnMove& m : game.moves) {
                const Move move = notation::parseMove(pos, m.text);
                if (!move) break;
                pos.makeMove(move);
                seen.push_back(placement(pos.fen()));
            }
            for (size_t i = 0; i < seen.size(); ++i) out[seen[i]].push_back({int(i), int(seen.size()) - 1});
        }
    }
    return out;
}

struct Run {
    int status = 0;
    std::string messages;
};
Run runDatagen(std::vector<std::string> args) {
    std::ostringstream err;
    Run r;
    r.status = datagen::runDatagenTool(
        args, [](const std::string&) {}, err);
    r.messages = err.str();
    return r;
}

std::vector<datagen::Game> readGames(const std::string& path) {
    datagen::Reader reader;
    std::string error;
    REQUIRE(reader.open(path, error));
    std::vector<datagen::Game> games;
    while (auto g = reader.next()) games.push_back(*g);
    REQUIRE_FALSE(reader.damaged());
    return games;
}

std::string fileBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Checks a game's record: the opening plies come first, within `maxRandom`,
// and every move is legal from the start FEN.
void checkRecord(const datagen::Game& g, int maxRandom) {
    INFO("game " << g.index << " from " << g.startFen);
    Position pos = test::fromFen(g.startFen);
    int opening = 0;
    bool searched = false;
    for (const datagen::Ply& p : g.plies) {
        if (p.flags & datagen::PlyFlag::Opening) {
            CHECK_FALSE(searched);
            CHECK(p.score == 0);
            ++opening;
        } else {
            searched = true;
        }
        MoveList legal;
        generateLegal(pos, legal);
        REQUIRE(std::find(legal.moves, legal.moves + legal.size, p.move) != legal.moves + legal.size);
        pos.makeMove(p.move);
    }
    CHECK(opening <= maxRandom);
    CHECK(searched);
}

}  // namespace

TEST_CASE("datagen --starts: games begin at positions of the master games", "[datagen]") {
    test::TempDir dir;
    const auto positions = reachable({Big5Sample, GbkGame});
    REQUIRE(positions.size() > 300);
    const std::string out = dir.file("starts.data");
    const Run run = runDatagen({"--starts", Big5Sample, "--starts", GbkGame, "--games", "8", "--nodes", "300",
                                "--max-plies", "12", "--progress", "0", "--seed", "5", out});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    CHECK(run.messages.find("Big5") != std::string::npos);
    CHECK(run.messages.find("GBK") != std::string::npos);
    const auto games = readGames(out);
    REQUIRE(games.size() == 8);
    const std::string start = placement(std::string(StartFen));
    std::set<std::string> starts;
    for (const auto& g : games) {
        const std::string key = placement(g.startFen);
        INFO("start " << g.startFen);
        REQUIRE(positions.count(key));
        // Some game holds it at a ply of the default range 8-80 (clipped to its length).
        const auto& at = positions.at(key);
        CHECK(std::any_of(at.begin(), at.end(), [](const Occurrence& o) {
            return o.ply >= std::min(8, o.length) && o.ply <= std::min(80, o.length);
        }));
        CHECK(key != start);
        checkRecord(g, 2);  // the default random plies with --starts: 0-2
        starts.insert(key);
    }
    CHECK(starts.size() >= 4);  // drawn from seven games and dozens of plies
}

TEST_CASE("datagen --starts: a shard is reproducible from its command; seeds differ", "[datagen]") {
    test::TempDir dir;
    auto command = [&](const std::string& seed, const std::string& out) {
        return std::vector<std::string>{"--starts",   Big5Sample,    "--games", "4",      "--nodes",
                                        "200",        "--max-plies", "10",      "--seed", seed,
                                        "--progress", "0",           out};
    };
    const std::string a = dir.file("a.data"), b = dir.file("b.data"), c = dir.file("c.data");
    REQUIRE(runDatagen(command("7", a)).status == 0);
    REQUIRE(runDatagen(command("7", b)).status == 0);
    REQUIRE(runDatagen(command("8", c)).status == 0);
    CHECK(fileBytes(a) == fileBytes(b));
    // Another seed: other games (compared without the seed field).
    auto games = [](const std::string& path) {
        std::vector<std::pair<std::string, std::vector<Move>>> out;
        for (const auto& g : readGames(path)) {
            std::vector<Move> moves;
            for (const auto& p : g.plies) moves.push_back(p.move);
            out.emplace_back(g.startFen, moves);
        }
        return out;
    };
    const auto ga = games(a), gc = games(c);
    REQUIRE(ga.size() == 4);
    REQUIRE(gc.size() == 4);
    CHECK(ga != gc);
    std::set<std::string> startsA, startsC;
    for (const auto& g : ga) startsA.insert(g.first);
    for (const auto& g : gc) startsC.insert(g.first);
    CHECK(startsA != startsC);
}

TEST_CASE("datagen --starts: a game that stops at a bad move keeps its valid prefix", "[datagen]") {
    test::TempDir dir;
    const std::string pgnPath = dir.file("short.pgn");
    // Three legal moves, then a rook move through its own pawn.
    std::ofstream(pgnPath) << "[Event \"short\"]\n\n1. h2e2 h9g7 2. h0g2 a0a5 3. b0c2 *\n";
    Position pos;
    test::play(pos, "h2e2 h9g7 h0g2");
    const std::string third = placement(pos.fen());

    // --start-plies beyond its length: clipped to the three moves read.
    const std::string out = dir.file("short.data");
    const Run run = runDatagen({"--starts", pgnPath, "--start-plies", "5-9", "--random-plies", "0-0", "--games", "3",
                                "--nodes", "200", "--max-plies", "10", "--progress", "0", out});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    CHECK(run.messages.find("1 stopped early") != std::string::npos);
    const auto games = readGames(out);
    REQUIRE(games.size() == 3);
    for (const auto& g : games) {
        CHECK(placement(g.startFen) == third);
        checkRecord(g, 0);
        CHECK_FALSE(g.plies.front().flags & datagen::PlyFlag::Opening);
    }
}

TEST_CASE("datagen --starts: an unusable file is an error before anything is written", "[datagen]") {
    test::TempDir dir;
    const std::string out = dir.file("never.data");
    auto refused = [&](const std::vector<std::string>& startArgs, const std::string& words) {
        std::vector<std::string> args = startArgs;
        for (const char* a : {"--games", "1", "--nodes", "100", "--progress", "0"}) args.push_back(a);
        args.push_back(out);
        const Run run = runDatagen(args);
        INFO(run.messages);
        CHECK(run.status == 2);
        CHECK(run.messages.find(words) != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(out));
    };
    refused({"--starts", dir.file("missing.pgn")}, "missing.pgn: cannot read");
    const std::string empty = dir.file("empty.pgn");
    std::ofstream(empty).close();
    refused({"--starts", empty}, "empty.pgn: the file is empty");
    const std::string prose = dir.file("prose.pgn");
    std::ofstream(prose) << "This is not a game record.\nNor is this line.\n";
    refused({"--starts", prose}, "prose.pgn");
    const std::string noMoves = dir.file("nomoves.pgn");
    std::ofstream(noMoves) << "[Event \"x\"]\n\n1. a0a5 *\n";
    refused({"--starts", noMoves}, "no game with a legal move");
    // A good file after a bad one: still refused.
    refused({"--starts", Big5Sample, "--starts", empty}, "empty.pgn");
    refused({"--starts", Big5Sample, "--book", Big5Sample}, "--starts and --book");
    refused({"--starts", Big5Sample, "--start-plies", "9-3"}, "--start-plies needs A-B");
    const Run bare = runDatagen({out, "--starts"});
    CHECK(bare.status == 2);
    CHECK(bare.messages.find("--starts needs a PGN file") != std::string::npos);
}

TEST_CASE("datagen --help names --starts", "[datagen]") {
    std::string text;
    std::ostringstream err;
    CHECK(datagen::runDatagenTool(
              {"--help"}, [&](const std::string& line) { text += line + "\n"; }, err) == 0);
    CHECK(text.find("--starts FILE") != std::string::npos);
    CHECK(text.find("--start-plies A-B") != std::string::npos);
}
