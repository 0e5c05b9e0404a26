// `chariot datagen --starts`: games that begin at positions of master games.
// The reachable positions are worked out here by replaying the PGN files
// move by move, independently of the generator's own reading of them.
#include <algorithm>
#include <filesystem>
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

// ---------------------------------------------------------------------------
// datagen relabel

namespace {

const std::string SampleData = Data + "/../../tools/nnue/testdata/sample-s7-12games.data";

// A small file made by the generator itself: `games` games at `nodes`.
std::string generated(const test::TempDir& dir, const std::string& name, int games, int nodes, uint64_t seed = 11) {
    const std::string out = dir.file(name);
    const Run run = runDatagen({"--book", "none", "--games", std::to_string(games), "--nodes", std::to_string(nodes),
                                "--max-plies", "40", "--seed", std::to_string(seed), "--progress", "0", out});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    return out;
}

// Everything but the search's labels (score and the quiet, in-check,
// capture-best and unlabelled flags) is equal.
void checkSameGames(const std::vector<datagen::Game>& a, const std::vector<datagen::Game>& b) {
    REQUIRE(a.size() == b.size());
    constexpr uint8_t searchBits = datagen::PlyFlag::Quiet | datagen::PlyFlag::InCheck | datagen::PlyFlag::CaptureBest |
                                   datagen::PlyFlag::Unlabelled;
    for (size_t i = 0; i < a.size(); ++i) {
        INFO("game " << i);
        CHECK(a[i].seed == b[i].seed);
        CHECK(a[i].index == b[i].index);
        CHECK(a[i].result == b[i].result);
        CHECK(a[i].termination == b[i].termination);
        CHECK(a[i].startFen == b[i].startFen);
        REQUIRE(a[i].plies.size() == b[i].plies.size());
        for (size_t k = 0; k < a[i].plies.size(); ++k) {
            CHECK(a[i].plies[k].move == b[i].plies[k].move);
            CHECK((a[i].plies[k].flags & ~searchBits) == (b[i].plies[k].flags & ~searchBits));
        }
    }
}

datagen::FileHeader headerOf(const std::string& path) {
    datagen::Reader reader;
    std::string error;
    REQUIRE(reader.open(path, error));
    return reader.header();
}

}  // namespace

TEST_CASE("datagen relabel with the generator's nodes, net and hash gives back its file", "[datagen][relabel]") {
    test::TempDir dir;
    const std::string original = generated(dir, "orig.data", 4, 300);
    const std::string one = dir.file("one.data"), two = dir.file("two.data");
    const Run run = runDatagen({"relabel", "--nodes", "300", "--progress", "0", original, one});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    CHECK(fileBytes(one) == fileBytes(original));
    const Run run2 = runDatagen({"relabel", "--nodes", "300", "--threads", "2", "--progress", "0", original, two});
    REQUIRE(run2.status == 0);
    CHECK(fileBytes(two) == fileBytes(original));
}

TEST_CASE("datagen relabel at other nodes: the same games, new labels, any thread count", "[datagen][relabel]") {
    test::TempDir dir;
    const std::string a = dir.file("a.data"), b = dir.file("b.data"), c = dir.file("c.data");
    const Run run = runDatagen({"relabel", "--nodes", "200", "--progress", "0", SampleData, a});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    REQUIRE(runDatagen({"relabel", "--nodes", "200", "--progress", "0", SampleData, b}).status == 0);
    REQUIRE(runDatagen({"relabel", "--nodes", "200", "--threads", "3", "--progress", "0", SampleData, c}).status == 0);
    CHECK(fileBytes(a) == fileBytes(b));
    CHECK(fileBytes(a) == fileBytes(c));

    const auto before = readGames(SampleData), after = readGames(a);
    REQUIRE(before.size() == 12);
    checkSameGames(before, after);
    CHECK(headerOf(a).seed == headerOf(SampleData).seed);
    CHECK(headerOf(a).nodes == 200);
    CHECK(headerOf(SampleData).nodes != 200);

    // Scores changed somewhere; opening plies stay unsearched; the flags
    // agree with the positions (in check replayed independently here).
    size_t changed = 0, searched = 0;
    for (size_t i = 0; i < after.size(); ++i) {
        Position pos = test::fromFen(after[i].startFen);
        for (size_t k = 0; k < after[i].plies.size(); ++k) {
            const datagen::Ply& p = after[i].plies[k];
            if (p.flags & datagen::PlyFlag::Opening) {
                CHECK(p.score == 0);
            } else {
                ++searched;
                changed += p.score != before[i].plies[k].score;
                CHECK(bool(p.flags & datagen::PlyFlag::InCheck) == pos.inCheck());
                if (p.flags & datagen::PlyFlag::Quiet) {
                    CHECK_FALSE(p.flags & (datagen::PlyFlag::InCheck | datagen::PlyFlag::CaptureBest));
                    CHECK(std::abs(p.score) < 20000);
                }
            }
            pos.makeMove(p.move);
        }
    }
    CHECK(searched > 100);
    CHECK(changed > searched / 10);

    // `datagen check` reads it whole.
    std::string text;
    std::ostringstream err;
    CHECK(datagen::runDatagenTool(
              {"check", a}, [&](const std::string& line) { text += line + "\n"; }, err) == 0);
    CHECK(text.find("games 12") != std::string::npos);
    CHECK(text.find("damaged") == std::string::npos);
}

TEST_CASE("datagen relabel resumes a cut output and refuses another file's", "[datagen][relabel]") {
    test::TempDir dir;
    const std::string full = dir.file("full.data"), part = dir.file("part.data");
    REQUIRE(runDatagen({"relabel", "--nodes", "150", "--progress", "0", SampleData, full}).status == 0);
    const std::string bytes = fileBytes(full);
    for (size_t cut : {size_t(0), size_t(32), size_t(40), bytes.size() / 2, bytes.size() - 3, bytes.size()}) {
        INFO("cut at " << cut);
        test::writeFile(part, bytes.substr(0, cut));
        const Run run =
            runDatagen({"relabel", "--nodes", "150", "--threads", "2", "--progress", "0", SampleData, part});
        INFO(run.messages);
        REQUIRE(run.status == 0);
        CHECK(fileBytes(part) == bytes);
    }
    // Other nodes than the output's: refused, the file left as it was.
    const Run other = runDatagen({"relabel", "--nodes", "151", "--progress", "0", SampleData, part});
    CHECK(other.status == 2);
    CHECK(other.messages.find("150 nodes") != std::string::npos);
    CHECK(fileBytes(part) == bytes);
    // An output made from another input (same seed and nodes): refused.
    const std::string mine = generated(dir, "mine.data", 2, 150, headerOf(SampleData).seed);
    const std::string foreign = dir.file("foreign.data");
    REQUIRE(runDatagen({"relabel", "--nodes", "150", "--progress", "0", mine, foreign}).status == 0);
    const std::string foreignBytes = fileBytes(foreign);
    const Run wrong = runDatagen({"relabel", "--nodes", "150", "--progress", "0", SampleData, foreign});
    CHECK(wrong.status == 2);
    CHECK(wrong.messages.find("not made from this input") != std::string::npos);
    CHECK(fileBytes(foreign) == foreignBytes);
}

TEST_CASE("datagen relabel: bad input and bad arguments", "[datagen][relabel]") {
    test::TempDir dir;
    const std::string out = dir.file("out.data");
    // A damaged input: its valid games are relabelled, with a warning.
    const std::string sample = fileBytes(SampleData);
    const std::string damaged = dir.file("damaged.data");
    test::writeFile(damaged, sample.substr(0, sample.size() - 100));
    const Run run = runDatagen({"relabel", "--nodes", "100", "--progress", "0", damaged, out});
    INFO(run.messages);
    CHECK(run.status == 0);
    CHECK(run.messages.find("damaged record") != std::string::npos);
    CHECK(readGames(out).size() == 11);

    auto refused = [&](const std::vector<std::string>& args, const std::string& words) {
        const Run r = runDatagen(args);
        INFO(r.messages);
        CHECK(r.status == 2);
        CHECK(r.messages.find(words) != std::string::npos);
    };
    refused({"relabel", dir.file("missing.data"), dir.file("x.data")}, "cannot open");
    CHECK_FALSE(std::filesystem::exists(dir.file("x.data")));
    refused({"relabel", SampleData, dir.file("no/such/dir/x.data")}, "cannot write");
    refused({"relabel", SampleData, SampleData}, "the output is the input");
    refused({"relabel", SampleData}, "an input and an output");
    refused({"relabel", "--nodes", "0", SampleData, out}, "--nodes needs a number");
    refused({"relabel", "--net", dir.file("none.nnue"), SampleData, out}, "--net");
    refused({"relabel", "--depth", "3", SampleData, out}, "unknown option --depth");
    const std::string text = dir.file("text.data");
    test::writeFile(text, "not a data file at all, just some words");
    refused({"relabel", SampleData, text}, "not a Chariot data file");
    CHECK(fileBytes(text) == "not a data file at all, just some words");
}

TEST_CASE("datagen's rate clock leaves out the time the process stood still", "[datagen]") {
    using namespace std::chrono;
    using datagen::RunClock;
    const RunClock::Clock::time_point t0{};
    RunClock clock(t0);
    // Ten seconds of 100 ms ticks, then a 60 s gap (the process stopped), then 5 s more.
    auto t = t0;
    for (int i = 0; i < 100; ++i) clock.tick(t += milliseconds(100));
    CHECK(clock.seconds() == Approx(10.0));
    CHECK(clock.pausedSeconds() == Approx(0.0));
    clock.tick(t += seconds(60));
    for (int i = 0; i < 50; ++i) clock.tick(t += milliseconds(100));
    // The long gap counts as at most one second of running time.
    CHECK(clock.seconds() == Approx(16.0));
    CHECK(clock.pausedSeconds() == Approx(59.0));
    CHECK(clock.seconds() + clock.pausedSeconds() == Approx(duration<double>(t - t0).count()));
}

// datagen --win-score

namespace {

// Red's view of each searched ply's score (the file keeps the side to move's),
// 0 for opening plies.
std::vector<int> redScores(const datagen::Game& g) {
    Position pos = test::fromFen(g.startFen);
    std::vector<int> out;
    for (const datagen::Ply& p : g.plies) {
        const bool searched = !(p.flags & datagen::PlyFlag::Opening);
        out.push_back(!searched ? 0 : pos.sideToMove() == Color::Red ? p.score : -p.score);
        pos.makeMove(p.move);
    }
    return out;
}

// The ply after which a run of 8 searched plies beyond +-threshold for one
// side first ends, or -1.
int firstWinRun(const std::vector<int>& red, int threshold) {
    int run = 0, sign = 0;
    for (size_t i = 0; i < red.size(); ++i) {
        const int s = red[i] >= threshold ? 1 : red[i] <= -threshold ? -1 : 0;
        run = s != 0 && s == sign ? run + 1 : s != 0 ? 1 : 0;
        sign = s;
        if (run >= 8) return int(i);
    }
    return -1;
}

}  // namespace

TEST_CASE("datagen --win-score: a win is adjudicated at the first 8 plies beyond the score", "[datagen]") {
    test::TempDir dir;
    const std::string out = dir.file("win400.data");
    const Run run = runDatagen({"--book", "none", "--games", "12", "--nodes", "300", "--win-score", "400", "--seed",
                                "5", "--progress", "0", out});
    INFO(run.messages);
    REQUIRE(run.status == 0);
    int adjudicated = 0;
    for (const datagen::Game& g : readGames(out)) {
        INFO("game " << g.index);
        const std::vector<int> red = redScores(g);
        const int end = firstWinRun(red, 400);
        if (g.termination == datagen::Termination::AdjudicatedWin) {
            // It ends right after the first such run, won by the side the scores favour.
            ++adjudicated;
            REQUIRE(end == int(red.size()) - 1);
            CHECK(g.result == (red.back() > 0 ? datagen::Result::RedWin : datagen::Result::BlackWin));
        } else {
            CHECK(end == -1);  // no run went unjudged
        }
    }
    // Random openings at 300 nodes: most games are decided early at this score.
    CHECK(adjudicated >= 3);

    // Out of range or not a number: refused before anything is written.
    for (const char* bad : {"299", "30001", "many"}) {
        const std::string refused = dir.file(std::string("bad-") + bad + ".data");
        const Run r = runDatagen({"--book", "none", "--games", "1", "--win-score", bad, refused});
        CHECK(r.status != 0);
        CHECK(r.messages.find("--win-score needs a number from 300 to 30000") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(refused));
    }
}

TEST_CASE("datagen --play-nodes: a share of the moves are labels, the others cheaper and unlabelled", "[datagen]") {
    test::TempDir dir;
    const std::string out = dir.file("sparse.data"), again = dir.file("again.data");
    const std::vector<std::string> args = {"--book",      "none",         "--games",    "8",      "--nodes",
                                           "600",         "--play-nodes", "150",        "--seed", "9",
                                           "--max-plies", "60",           "--progress", "0"};
    auto with = [&](std::vector<std::string> extra, const std::string& file) {
        std::vector<std::string> a = args;
        a.insert(a.end(), extra.begin(), extra.end());
        a.push_back(file);
        return runDatagen(a);
    };
    const Run run = with({}, out);
    INFO(run.messages);
    REQUIRE(run.status == 0);
    CHECK(headerOf(out).nodes == 600);
    CHECK(headerOf(out).playNodes == 150);

    // Every searched ply is a label or unlabelled, never both; about one in
    // four (the default --label-every) is a label.
    const auto games = readGames(out);
    REQUIRE(games.size() == 8);
    int labels = 0, unlabelled = 0, quiet = 0;
    for (const datagen::Game& g : games) {
        checkRecord(g, 8);  // no book: 2 to 8 random plies
        for (const datagen::Ply& p : g.plies) {
            if (p.flags & datagen::PlyFlag::Opening) {
                CHECK_FALSE(p.flags & datagen::PlyFlag::Unlabelled);
            } else if (p.flags & datagen::PlyFlag::Unlabelled) {
                ++unlabelled;
                CHECK_FALSE(p.flags & datagen::PlyFlag::Quiet);
            } else {
                ++labels;
                quiet += (p.flags & datagen::PlyFlag::Quiet) != 0;
            }
        }
    }
    INFO(labels << " labels, " << unlabelled << " unlabelled");
    REQUIRE(labels + unlabelled > 200);
    CHECK(labels > (labels + unlabelled) / 8);
    CHECK(labels < (labels + unlabelled) / 2);
    CHECK(quiet > 0);

    // The same command makes the same file; a run with another --play-nodes
    // does not continue it.
    REQUIRE(with({}, again).status == 0);
    CHECK(fileBytes(again) == fileBytes(out));
    const Run other = with({"--label-every", "4"}, out);  // same settings, said out loud: continues
    CHECK(other.status == 0);
    std::vector<std::string> changed = args;
    changed[7] = "200";  // --play-nodes 200
    changed.push_back(out);
    const Run refused = runDatagen(changed);
    CHECK(refused.status == 2);
    CHECK(refused.messages.find("play nodes 150") != std::string::npos);

    // A relabelling at the generator's nodes makes every searched ply a label.
    const std::string relabelled = dir.file("relabelled.data");
    REQUIRE(runDatagen({"relabel", "--nodes", "600", "--progress", "0", out, relabelled}).status == 0);
    const auto after = readGames(relabelled);
    checkSameGames(games, after);
    CHECK(headerOf(relabelled).playNodes == 0);
    int quietAfter = 0;
    for (const datagen::Game& g : after)
        for (const datagen::Ply& p : g.plies) {
            CHECK_FALSE(p.flags & datagen::PlyFlag::Unlabelled);
            quietAfter += (p.flags & datagen::PlyFlag::Quiet) != 0;
        }
    CHECK(quietAfter > 2 * quiet);

    // Bad combinations are refused before anything is written.
    const std::string bad = dir.file("bad.data");
    for (const std::vector<std::string>& a :
         {std::vector<std::string>{"--book", "none", "--label-every", "3", bad},
          std::vector<std::string>{"--book", "none", "--play-nodes", "5000", bad},
          std::vector<std::string>{"--book", "none", "--play-nodes", "100", "--label-every", "1", bad}}) {
        const Run r = runDatagen(a);
        INFO(r.messages);
        CHECK(r.status == 2);
        CHECK_FALSE(std::filesystem::exists(bad));
    }
}
