#include "chariot/egtb/tool.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include <fmt/format.h>

#include "chariot/egtb/generator.h"
#include "chariot/egtb/probe.h"
#include "chariot/egtb/table_file.h"
#include "chariot/egtb/verify.h"
#include "chariot/movegen.h"
#include "chariot/rules.h"
#include "chariot/tool_args.h"

namespace chariot::egtb {

namespace {

constexpr std::string_view Usage =
    "usage: chariot egtb build [--threads N] [--only MATERIAL] DIR\n"
    "       chariot egtb verify [--threads N] [--only MATERIAL] [--sample K] DIR\n"
    "       chariot egtb list DIR\n"
    "       chariot egtb play [--games N] [--nodes N] [--seed S] DIR MATERIAL\n"
    "       chariot egtb sample [--positions N] [--drawn] [--seed S] DIR [MATERIAL]\n"
    "Endgame tablebases for one side with only its king, advisors and elephants.\n"
    "  build   solves every table (or MATERIAL and the smaller tables it needs) into DIR,\n"
    "          one file per material; tables already there and intact are kept\n"
    "  verify  re-checks the tables in DIR (or MATERIAL) against the engine's rules;\n"
    "          --sample K checks every K-th position only\n"
    "  list    the tables in DIR with their counts\n"
    "  play    won positions of MATERIAL drawn at random (both colours), the strong side\n"
    "          played by the search without tables (--nodes a move, default 20000) against\n"
    "          the tables' best defence: how many it converts within the rules\n"
    "  sample  N distinct won (or --drawn) positions as FEN lines for a match runner's\n"
    "          openings file: a table of DIR (or MATERIAL) at random, a side to move at\n"
    "          random, a random index and the next position with that verdict; every\n"
    "          other line with black strong (default 200 positions)\n"
    "Materials are named strong side first: K, then R (rook) H (horse) C (cannon)\n"
    "P (pawn), then A (advisors) B (elephants); then K and the bare side's A and B.\n"
    "Examples: KRKAABB, KHPK, KCAKB.\n";

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string duration(double s) {
    const int t = int(s + 0.5);
    return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                     : fmt::format("{}:{:02}", t / 60, t % 60);
}

// The materials to work on: `only` and every table it captures into, smaller
// first; or the whole standard set.
std::vector<Material> targets(const std::optional<Material>& only) {
    if (!only) return standardMaterials();
    std::vector<Material> out;
    auto visit = [&](auto&& self, const Material& m) -> void {
        if (std::find(out.begin(), out.end(), m) != out.end()) return;
        for (const Material& s : subMaterials(m)) self(self, s);
        out.push_back(m);
    };
    visit(visit, *only);
    return out;
}

// Tables read from DIR (or just built), kept while later work needs them.
// The verifier's and generator's threads look sub-tables up at once: one
// lock over the map (a table, once read, is only read).
class TableCache {
public:
    explicit TableCache(std::string dir) : dir_(std::move(dir)) {}
    const Table* get(const Material& m, std::string& error) {
        std::lock_guard lock(mutex_);
        auto it = tables_.find(m.name());
        if (it != tables_.end()) return it->second.get();
        auto t = readTable(path(m), error);
        if (!t) return nullptr;
        return (tables_[m.name()] = std::move(t)).get();
    }
    void put(std::unique_ptr<Table> t) {
        std::lock_guard lock(mutex_);
        const std::string name = t->material().name();
        tables_[name] = std::move(t);
    }
    // Drops the tables none of `needed` is.
    void keepOnly(const std::set<std::string>& needed) {
        std::lock_guard lock(mutex_);
        for (auto it = tables_.begin(); it != tables_.end();)
            it = needed.count(it->first) ? std::next(it) : tables_.erase(it);
    }
    TableLookup lookup(std::string& error) {
        return [this, &error](const Material& m) { return get(m, error); };
    }
    std::string path(const Material& m) const { return (std::filesystem::path(dir_) / tableFileName(m)).string(); }

private:
    std::string dir_;
    std::map<std::string, std::unique_ptr<Table>> tables_;
    std::mutex mutex_;
};

struct Options {
    int threads = 1;
    uint64_t sample = 1;
    int games = 50;
    uint64_t nodes = 20000;
    uint64_t seed = 1;
    int positions = 200;   // sample
    bool drawn = false;    // sample
    std::string material;  // play, sample
    std::optional<Material> only;
    std::string dir;
};

int build(const Options& o, const std::function<void(const std::string&)>& print, std::ostream& err) {
    std::error_code ec;
    std::filesystem::create_directories(o.dir, ec);
    if (!std::filesystem::is_directory(o.dir)) {
        err << "egtb build: cannot create the folder " << o.dir << '\n';
        return 1;
    }
    const std::vector<Material> work = targets(o.only);
    TableCache cache(o.dir);
    const auto start = Clock::now();
    uint64_t built = 0, kept = 0, positions = 0;
    for (size_t i = 0; i < work.size(); ++i) {
        const Material& m = work[i];
        const std::string path = cache.path(m);
        std::string error;
        if (std::filesystem::exists(path)) {
            if (inspectTable(path, error)) {
                ++kept;
                continue;
            }
            err << "egtb build: " << error << "; rebuilding it\n";
        }
        // Keep in memory only the tables this one and later ones capture into.
        std::set<std::string> needed;
        for (size_t j = i; j < work.size(); ++j)
            for (const Material& s : subMaterials(work[j])) needed.insert(s.name());
        cache.keepOnly(needed);
        const auto t0 = Clock::now();
        const double indices = 2.0 * double(Indexer(m).size());
        GenerateOptions options;
        options.threads = o.threads;
        auto lastShown = Clock::now() - std::chrono::seconds(10);
        options.progress = [&](double f) {
            if (secondsSince(lastShown) < 1.0 && f < 1.0) return;
            lastShown = Clock::now();
            const double s = secondsSince(t0);
            err << fmt::format("\r{} ({}/{}): {:5.1f}%  {:.0f}k positions/s  {} left   ", m.name(), i + 1, work.size(),
                               100 * f, s > 0 ? indices * f / s / 1000 : 0.0,
                               f > 0.01 ? duration(s / f - s) : std::string("?"))
                << std::flush;
        };
        std::string subError;
        auto table = generate(m, cache.lookup(subError), options, error);
        if (!table) {
            err << "\negtb build: " << m.name() << ": " << (subError.empty() ? error : subError) << '\n';
            return 1;
        }
        const double s = secondsSince(t0);
        if (!writeTable(*table, path, error)) {
            err << "\negtb build: " << error << '\n';
            return 1;
        }
        const TableCounts c = table->counts();
        err << '\r' << std::string(70, ' ') << '\r';
        print(fmt::format("{}: {} positions ({} legal), longest mate {} plies, {:.1f} s, {:.0f}k positions/s, {} bytes",
                          m.name(), uint64_t(indices), c.legal[0] + c.legal[1], c.maxDtm, s,
                          indices / std::max(s, 1e-6) / 1000, std::filesystem::file_size(path, ec)));
        positions += uint64_t(indices);
        ++built;
        cache.put(std::move(table));
    }
    print(fmt::format("built {} table(s), {} already there; {} positions in {}", built, kept, positions,
                      duration(secondsSince(start))));
    return 0;
}

std::vector<Material> tablesIn(const std::string& dir, std::ostream& err) {
    std::vector<Material> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const auto p = entry.path();
        if (p.extension() != ".xtb") continue;
        std::string error;
        if (auto m = Material::parse(p.stem().string(), error))
            out.push_back(*m);
        else
            err << "egtb: " << p.filename().string() << ": not a table name (" << error << ")\n";
    }
    // Smaller tables first (the order they are built in).
    const auto order = standardMaterials();
    auto rank = [&](const Material& m) {
        const auto it = std::find(order.begin(), order.end(), m);
        return std::make_pair(it - order.begin(), m.name());
    };
    std::sort(out.begin(), out.end(), [&](const Material& a, const Material& b) { return rank(a) < rank(b); });
    return out;
}

int verify(const Options& o, const std::function<void(const std::string&)>& print, std::ostream& err) {
    std::vector<Material> work = o.only ? std::vector<Material>{*o.only} : tablesIn(o.dir, err);
    if (work.empty()) {
        err << "egtb verify: no tables in " << o.dir << '\n';
        return 1;
    }
    TableCache cache(o.dir);
    int failed = 0;
    for (const Material& m : work) {
        std::string error;
        const Table* t = cache.get(m, error);
        if (!t) {
            print(fmt::format("{}: FAILED: {}", m.name(), error));
            ++failed;
            continue;
        }
        std::string subError;
        const auto t0 = Clock::now();
        const VerifyResult r = verifyTable(*t, cache.lookup(subError), o.threads, o.sample, [&](double f) {
            err << fmt::format("\r{}: verifying {:5.1f}%   ", m.name(), 100 * f) << std::flush;
        });
        err << '\r' << std::string(40, ' ') << '\r';
        const TableCounts c = t->counts();
        if (r.errors == 0) {
            print(fmt::format("{}: ok, {} positions checked ({} legal of {}), longest mate {} plies, {:.1f} s",
                              m.name(), r.checked, c.legal[0] + c.legal[1], 2 * t->indexer.size(), c.maxDtm,
                              secondsSince(t0)));
        } else {
            ++failed;
            print(fmt::format("{}: FAILED: {} faults in {} positions{}", m.name(), r.errors, r.checked,
                              subError.empty() ? "" : " (" + subError + ")"));
            for (const auto& e : r.examples) print("  " + e);
        }
        std::set<std::string> keep;
        for (const Material& s : subMaterials(m)) keep.insert(s.name());
        cache.keepOnly(keep);
    }
    print(fmt::format("{} table(s) checked, {} failed", work.size(), failed));
    return failed ? 1 : 0;
}

int list(const Options& o, const std::function<void(const std::string&)>& print, std::ostream& err) {
    if (!std::filesystem::is_directory(o.dir)) {
        err << "egtb list: no folder " << o.dir << '\n';
        return 1;
    }
    const auto work = tablesIn(o.dir, err);
    print(fmt::format("{:<14} {:>12} {:>12} {:>7} {:>7} {:>7} {:>7} {:>5} {:>11}", "material", "legal(w)", "legal(b)",
                      "win%(w)", "draw%(w)", "loss%(b)", "draw%(b)", "dtm", "bytes"));
    int bad = 0;
    uint64_t total = 0;
    for (const Material& m : work) {
        std::string error;
        const auto info = inspectTable((std::filesystem::path(o.dir) / tableFileName(m)).string(), error);
        if (!info) {
            print(fmt::format("{:<14} {}", m.name(), error));
            ++bad;
            continue;
        }
        const TableCounts& c = info->counts;
        auto pct = [](uint64_t a, uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
        print(fmt::format("{:<14} {:>12} {:>12} {:>7.2f} {:>7.2f} {:>7.2f} {:>7.2f} {:>5} {:>11}", m.name(), c.legal[0],
                          c.legal[1], pct(c.wins[0], c.legal[0]), pct(c.draws[0], c.legal[0]),
                          pct(c.losses[1], c.legal[1]), pct(c.draws[1], c.legal[1]), c.maxDtm, info->fileBytes));
        total += info->fileBytes;
    }
    print(fmt::format("{} table(s), {} bytes{}", work.size(), total, bad ? fmt::format(", {} unusable", bad) : ""));
    return bad ? 1 : 0;
}

// The move the tables choose: the shortest win, else a draw, else the longest
// loss (none() when a child is in no table).
Move tableMove(const Position& pos, const TableLookup& lookup) {
    MoveList legal;
    generateLegal(pos, legal);
    Move best;
    int bestRank = INT32_MIN;
    for (Move m : legal) {
        Position after = pos;
        after.makeMove(m);
        const auto v = probeValue(after, lookup);
        if (!v) return Move::none();
        const int rank = isLossValue(*v) ? 100000 - dtmOf(*v) : isWinValue(*v) ? -100000 + dtmOf(*v) : 0;
        if (rank > bestRank) bestRank = rank, best = m;
    }
    return best;
}

// The same board with colours and ranks swapped (the other side strong).
std::string flippedFen(const std::string& fen) {
    const size_t space = fen.find(' ');
    std::vector<std::string> ranks(1);
    for (char c : fen.substr(0, space)) {
        if (c == '/')
            ranks.emplace_back();
        else
            ranks.back() += char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
    }
    std::string out;
    for (size_t i = ranks.size(); i-- > 0;) out += ranks[i] + (i ? "/" : "");
    const char side = fen[space + 1] == 'w' ? 'b' : 'w';
    return out + " " + side + " - - 0 1";
}

int play(const Options& o, const std::function<void(const std::string&)>& print, std::ostream& err) {
    std::string error;
    const auto m = Material::parse(o.material, error);
    if (!m) {
        err << "egtb play: " << o.material << ": " << error << '\n';
        return 2;
    }
    TableCache cache(o.dir);
    const Table* t = cache.get(*m, error);
    if (!t) {
        err << "egtb play: " << error << '\n';
        return 1;
    }
    std::string subError;
    const TableLookup lookup = cache.lookup(subError);
    Engine engine;
    tools::configureEngine(engine, 16, 1, err, "egtb play");
    uint64_t rng = o.seed;
    int converted = 0, thrown = 0, noCapture = 0, repetition = 0, tooLong = 0, longest = 0;
    int64_t pliesUsed = 0, pliesTable = 0;
    for (int game = 0; game < o.games; ++game) {
        // A won position with the strong side to move, drawn at random.
        Placement p;
        uint64_t idx = 0;
        do idx = tables::splitMix64(rng) % t->indexer.size();
        while (!isWinValue(t->value(StrongToMove, idx)) || !t->indexer.decode(idx, p));
        const int dtm = dtmOf(t->value(StrongToMove, idx));
        longest = std::max(longest, dtm);
        pliesTable += dtm;
        tooLong += dtm >= rules::NoCapturePlies;  // even the tables' mate comes after the no-capture limit
        std::string fen = fenOf(p, StrongToMove);
        if (game % 2) fen = flippedFen(fen);
        Position pos;
        if (pos.setFen(fen)) continue;
        const Color strong = pos.sideToMove();
        std::vector<std::string> moves;
        engine.newGame();
        std::string outcome, lastFen, lastMove;  // the move before the outcome, and where it was played
        for (int ply = 0; outcome.empty(); ++ply) {
            MoveList legal;
            generateLegal(pos, legal);
            const auto v = probeValue(pos, lookup);
            if (legal.size == 0) {
                outcome = pos.sideToMove() == strong ? "lost" : "mate";
            } else if (rules::judge(pos, 0).verdict != rules::Verdict::None) {
                outcome = "repetition";
            } else if (pos.rule60() >= rules::NoCapturePlies) {
                outcome = "no-capture";
            } else if (!v || !(pos.sideToMove() == strong ? isWinValue(*v) : isLossValue(*v))) {
                outcome = "thrown";
            } else {
                Move mv;
                if (pos.sideToMove() == strong) {
                    engine.setPosition(fen, moves);
                    SearchLimits limits;
                    limits.nodes = o.nodes;
                    mv = engine.search(limits).best;
                } else {
                    mv = tableMove(pos, lookup);
                }
                if (!mv) {
                    outcome = "thrown";
                    break;
                }
                lastFen = pos.fen();
                lastMove = mv.toString();
                moves.push_back(lastMove);
                pos.makeMove(mv);
            }
            if (!outcome.empty()) pliesUsed += outcome == "mate" ? ply : 0;
        }
        converted += outcome == "mate";
        thrown += outcome == "thrown" || outcome == "lost";
        noCapture += outcome == "no-capture";
        repetition += outcome == "repetition";
        err << fmt::format("egtb play {}: game {}/{}: {}", m->name(), game + 1, o.games, outcome);
        if (outcome == "thrown") err << fmt::format(" ({} in {})", lastMove, lastFen);
        err << '\n';
    }
    print(
        fmt::format("{}: {} won positions (half of them with black strong), search without tables at {} nodes a "
                    "move against the tables' defence:",
                    m->name(), o.games, o.nodes));
    print(fmt::format(
        "  converted {} ({:.1f}%, {:.1f} plies on average; the tables' mates: {:.1f}), threw the win "
        "away {}, no-capture rule {}, repetition {}",
        converted, 100.0 * converted / std::max(1, o.games), converted ? double(pliesUsed) / converted : 0.0,
        double(pliesTable) / std::max(1, o.games), thrown, noCapture, repetition));
    print(
        fmt::format("  with the tables: all {} mate in the tables' distance (longest {} plies); {} of them only "
                    "after the no-capture limit",
                    o.games, longest, tooLong));
    return 0;
}


// Positions with the verdict asked for, drawn at random from the tables, as
// an openings file ("FEN  # what the tables say").
int sample(const Options& o, const std::function<void(const std::string&)>& print, std::ostream& err) {
    std::vector<Material> work;
    if (!o.material.empty()) {
        std::string error;
        const auto m = Material::parse(o.material, error);
        if (!m) {
            err << "egtb sample: " << o.material << ": " << error << '\n';
            return 2;
        }
        work.push_back(*m);
    } else {
        work = tablesIn(o.dir, err);
    }
    // The tables, each with the sides to move that hold the verdict.
    struct Source {
        std::unique_ptr<TableFile> file;
        std::vector<int> sides;
    };
    std::vector<Source> sources;
    for (const Material& m : work) {
        std::string error;
        auto file = TableFile::open((std::filesystem::path(o.dir) / tableFileName(m)).string(), error);
        if (!file) {
            err << "egtb sample: " << error << '\n';
            return 1;
        }
        const TableCounts& c = file->info().counts;
        Source s{std::move(file), {}};
        for (int stm : {StrongToMove, WeakToMove}) {
            const uint64_t n = o.drawn ? c.draws[size_t(stm)] : stm == StrongToMove ? c.wins[0] : c.losses[1];
            if (n > 0) s.sides.push_back(stm);
        }
        if (!s.sides.empty()) sources.push_back(std::move(s));
    }
    if (sources.empty()) {
        err << "egtb sample: no table in " << o.dir << " has " << (o.drawn ? "drawn" : "won") << " positions\n";
        return 1;
    }
    auto wanted = [&](int stm, uint16_t v) {
        if (o.drawn) return v == TbDraw;
        return stm == StrongToMove ? isWinValue(v) : isLossValue(v);
    };
    uint64_t rng = o.seed;
    std::set<std::string> seen;
    print(fmt::format("# {} {} positions from the tables in {} (seed {}), every other one with black strong",
                      o.positions, o.drawn ? "drawn" : "won", o.dir, o.seed));
    for (int attempt = 0; int(seen.size()) < o.positions; ++attempt) {
        if (attempt > 100 * o.positions) {
            err << "egtb sample: only " << seen.size() << " distinct positions found\n";
            return 1;
        }
        const Source& s = sources[tables::splitMix64(rng) % sources.size()];
        const int stm = s.sides[tables::splitMix64(rng) % s.sides.size()];
        const uint64_t size = s.file->info().size;
        // The table holds one (counts say so): the scan ends within a lap.
        uint64_t idx = tables::splitMix64(rng) % size;
        Placement p;
        while (!wanted(stm, s.file->value(stm, idx)) || !s.file->indexer().decode(idx, p)) idx = (idx + 1) % size;
        std::string fen = fenOf(p, stm);
        const bool blackStrong = seen.size() % 2 == 1;
        if (blackStrong) fen = flippedFen(fen);
        Position pos;
        MoveList legal;
        if (pos.setFen(fen)) continue;
        generateLegal(pos, legal);
        if (legal.size == 0 || seen.count(fen)) continue;  // a game needs a move to play
        seen.insert(fen);
        const uint16_t v = s.file->value(stm, idx);
        const std::string verdict =
            o.drawn ? "drawn"
                    : fmt::format("{} to move {}: mate in {} plies", pos.sideToMove() == Color::Red ? "red" : "black",
                                  stm == StrongToMove ? "wins" : "loses", dtmOf(v));
        print(fmt::format("{}  # {}, {} strong, {}", fen, s.file->info().material.name(), blackStrong ? "black" : "red",
                          verdict));
    }
    return 0;
}

}  // namespace

int runEgtbTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                std::ostream& err) {
    if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        tools::printLines(print, Usage);
        return args.empty() ? 2 : 0;
    }
    const std::string& sub = args[0];
    if (sub != "build" && sub != "verify" && sub != "list" && sub != "play" && sub != "sample") {
        err << "egtb: unknown command '" << sub << "'\n";
        tools::printLines(print, Usage);
        return 2;
    }
    Options o;
    bool badMaterial = false;
    std::vector<tools::Flag> flags = {tools::numberFlag("--threads", o.threads, 1, 256),
                                      tools::numberFlag("--games", o.games, 1, 100000),
                                      tools::numberFlag<uint64_t>("--nodes", o.nodes, 1, uint64_t(1) << 40),
                                      tools::numberFlag<uint64_t>("--seed", o.seed, 0, ~uint64_t(0)),
                                      tools::numberFlag<uint64_t>("--sample", o.sample, 1, uint64_t(1) << 40),
                                      tools::numberFlag("--positions", o.positions, 1, 1000000),
                                      {"--drawn", nullptr, [&] { o.drawn = true; }},
                                      {"--only",
                                       [&](const std::string& v) {
                                           std::string error;
                                           o.only = Material::parse(v, error);
                                           if (!o.only) err << "egtb: --only " << v << ": " << error << '\n';
                                           badMaterial = !o.only;
                                           return bool(o.only);
                                       },
                                       nullptr}};
    std::vector<std::string> positional;
    const int code = tools::readArgs(
        "egtb " + sub, std::vector<std::string>(args.begin() + 1, args.end()), flags,
        [&](const std::string& w) {
            positional.push_back(w);
            return true;
        },
        print, err, Usage);
    if (code >= 0) return badMaterial ? 2 : code;
    if (sub == "play" && positional.size() == 2) {
        o.dir = positional[0];
        o.material = positional[1];
        return play(o, print, err);
    }
    if (sub == "sample" && (positional.size() == 1 || positional.size() == 2)) {
        o.dir = positional[0];
        if (positional.size() == 2) o.material = positional[1];
        return sample(o, print, err);
    }
    if (positional.size() != 1 || sub == "play") {
        err << "egtb " << sub << (sub == "play" ? ": name a folder and a material\n" : ": name one folder\n");
        tools::printLines(print, Usage);
        return 2;
    }
    o.dir = positional[0];
    if (sub == "build") return build(o, print, err);
    if (sub == "verify") return verify(o, print, err);
    return list(o, print, err);
}

}  // namespace chariot::egtb
