// Endgame tablebases (chariot/egtb/): names, the index, the generator against
// the engine's own rules (verifyTable) and against a plain forward solver
// written here, and the search's agreement with the tables.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "chariot/egtb/generator.h"
#include "chariot/egtb/probe.h"
#include "chariot/egtb/verify.h"
#include "chariot/engine.h"
#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "test_util.h"

using namespace chariot;
using namespace chariot::egtb;

namespace {

Material material(const std::string& name) {
    std::string error;
    auto m = Material::parse(name, error);
    INFO(name << ": " << error);
    REQUIRE(m);
    return *m;
}

// Solved tables kept for the whole test run (each set is solved once).
class Library {
public:
    const Table* get(const Material& m) {
        auto it = tables_.find(m.name());
        if (it != tables_.end()) return it->second.get();
        for (const Material& s : subMaterials(m)) get(s);
        std::string error;
        GenerateOptions options;
        options.threads = 2;
        auto t = generate(m, lookup(), options, error);
        INFO(m.name() << ": " << error);
        REQUIRE(t);
        return (tables_[m.name()] = std::move(t)).get();
    }
    const Table* get(const std::string& name) { return get(material(name)); }
    TableLookup lookup() {
        return [this](const Material& m) -> const Table* {
            auto it = tables_.find(m.name());
            return it == tables_.end() ? nullptr : it->second.get();
        };
    }

private:
    std::map<std::string, std::unique_ptr<Table>> tables_;
};

Library& library() {
    static Library lib;
    return lib;
}

// ---------------------------------------------------------------------------
// A forward solver, independent of the index and of the retrograde generator:
// every legal position of some materials (all squares the engine's FEN check
// accepts, no symmetry), the engine's move generator for the moves, and
// rounds of "won if a move reaches a position lost in the previous round,
// lost if every move reaches a position won in an earlier round".
class ForwardSolver {
public:
    // pieces: (piece, squares it may take) for each piece of the material.
    void addMaterial(const std::vector<Piece>& pieces) {
        std::vector<std::vector<Square>> squares;
        for (Piece p : pieces) {
            std::vector<Square> list;
            for (int r = 0; r < RankCount; ++r)
                for (int f = 0; f < FileCount; ++f)
                    if (tables::mayStand(colorOf(p), typeOf(p), makeSquare(f, r))) list.push_back(makeSquare(f, r));
            squares.push_back(list);
        }
        std::vector<Square> at(pieces.size());
        Position pos;
        auto place = [&](auto&& self, size_t i) -> void {
            if (i == pieces.size()) {
                char board[RankCount][FileCount];
                for (auto& row : board) std::fill(std::begin(row), std::end(row), '.');
                for (size_t j = 0; j < pieces.size(); ++j) {
                    char& c = board[rankOf(at[j])][fileOf(at[j])];
                    if (c != '.') return;
                    c = pieceToChar(pieces[j]);
                }
                std::string fen;
                for (int r = RankCount - 1; r >= 0; --r) {
                    int empty = 0;
                    for (int f = 0; f < FileCount; ++f) {
                        if (board[r][f] == '.') {
                            ++empty;
                            continue;
                        }
                        if (empty) fen += char('0' + empty);
                        empty = 0;
                        fen += board[r][f];
                    }
                    if (empty) fen += char('0' + empty);
                    if (r) fen += '/';
                }
                for (const char* side : {" w", " b"})
                    if (!pos.setFen(fen + side) && !id_.count(pos.key())) {
                        id_[pos.key()] = int(fens_.size());
                        fens_.push_back(fen + side);
                    }
                return;
            }
            for (Square s : squares[i]) {
                at[i] = s;
                self(self, i + 1);
            }
        };
        place(place, 0);
    }

    // Values as the tables have them (0 draw, dtm + 1).
    void solve() {
        const int n = int(fens_.size());
        std::vector<std::vector<int>> children(static_cast<size_t>(n));  // -1: a drawn capture
        Position pos;
        for (int i = 0; i < n; ++i) {
            REQUIRE_FALSE(pos.setFen(fens_[size_t(i)]));
            MoveList moves;
            generateLegal(pos, moves);
            for (Move m : moves) {
                pos.makeMove(m);
                auto it = id_.find(pos.key());
                if (it != id_.end()) {
                    children[size_t(i)].push_back(it->second);
                } else {
                    INFO(pos.fen());
                    REQUIRE((!hasAttackers(pos, Color::Red) && !hasAttackers(pos, Color::Black)));
                    children[size_t(i)].push_back(-1);
                }
                pos.unmakeMove();
            }
        }
        value_.assign(size_t(n), 0);
        for (int i = 0; i < n; ++i)
            if (children[size_t(i)].empty()) value_[size_t(i)] = 1;
        int empty = 0;
        for (int round = 1; empty < 2; ++round) {
            std::vector<std::pair<int, uint16_t>> updates;
            for (int i = 0; i < n; ++i) {
                if (value_[size_t(i)]) continue;
                bool allWon = true;
                int longest = -1;
                for (int c : children[size_t(i)]) {
                    const uint16_t v = c < 0 ? 0 : value_[size_t(c)];
                    if (round % 2 == 1 && isLossValue(v) && dtmOf(v) == round - 1) {
                        updates.emplace_back(i, uint16_t(round + 1));
                        allWon = false;
                        break;
                    }
                    if (!isWinValue(v)) allWon = false;
                    longest = std::max(longest, isWinValue(v) ? dtmOf(v) : -1);
                }
                if (round % 2 == 0 && allWon && longest == round - 1) updates.emplace_back(i, uint16_t(round + 1));
            }
            for (auto [i, v] : updates) value_[size_t(i)] = v;
            empty = updates.empty() ? empty + 1 : 0;
        }
    }
    const std::vector<std::string>& fens() const { return fens_; }
    uint16_t value(size_t i) const { return value_[i]; }

private:
    std::unordered_map<uint64_t, int> id_;
    std::vector<std::string> fens_;
    std::vector<uint16_t> value_;
};

std::vector<Piece> piecesOf(const Material& m) {
    std::vector<Piece> out = {Piece::RedKing, Piece::BlackKing};
    const PieceType types[] = {PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn};
    for (int a = 0; a < AttackerKinds; ++a)
        out.insert(out.end(), m.attackers[size_t(a)], makePiece(Color::Red, types[a]));
    out.insert(out.end(), m.strongAdvisors, Piece::RedAdvisor);
    out.insert(out.end(), m.strongElephants, Piece::RedElephant);
    out.insert(out.end(), m.weakAdvisors, Piece::BlackAdvisor);
    out.insert(out.end(), m.weakElephants, Piece::BlackElephant);
    return out;
}

}  // namespace

TEST_CASE("egtb: material names", "[egtb]") {
    CHECK(material("KRKAABB").name() == "KRKAABB");
    CHECK(material("knkae").name() == "KHKAB");  // N for horse, E for elephant, any case
    CHECK(material("KPCKA").name() == "KCPKA");  // attackers in the order R H C P
    std::string error;
    CHECK_FALSE(Material::parse("KAKR", error));  // the strong side comes first
    CHECK_FALSE(Material::parse("KKA", error));   // no attacker: a draw, no table
    CHECK_FALSE(Material::parse("KRRRK", error));
    CHECK_FALSE(Material::parse("KXK", error));
    CHECK(error.find("unknown piece") != std::string::npos);
    // Every standard set's sub-tables come before it: 9 bare defences against
    // 4 attackers with 9 own defences each and against 6 attacker pairs.
    const auto all = standardMaterials();
    CHECK(all.size() == 9 * (4 * 9 + 6));
    for (size_t i = 0; i < all.size(); ++i)
        for (const Material& s : subMaterials(all[i])) {
            const auto at = std::find(all.begin(), all.end(), s);
            INFO(all[i].name() << " needs " << s.name());
            CHECK(at < all.begin() + std::ptrdiff_t(i));
        }
}

TEST_CASE("egtb: index round trip and mirror", "[egtb]") {
    for (const char* name : {"KRK", "KHPK", "KPPKAB", "KCABKAB"}) {
        const Indexer indexer(material(name));
        Placement p;
        uint64_t decoded = 0;
        for (uint64_t idx = 0; idx < indexer.size(); idx += 1 + indexer.size() / 5000) {
            if (!indexer.decode(idx, p)) continue;
            ++decoded;
            INFO(name << " " << idx);
            CHECK(indexer.encode(p) == int64_t(idx));
            // The mirror image of a position with the strong king on d is the
            // same index; on e it is another one, decoding to the mirror.
            Placement m = p;
            for (int k = 0; k < KindCount; ++k)
                for (int i = 0; i < m.count[size_t(k)]; ++i)
                    m.sq[size_t(k)][size_t(i)] = uint8_t(mirrorSq(m.sq[size_t(k)][size_t(i)]));
            const int64_t mi = indexer.encode(m);
            REQUIRE(mi >= 0);
            if (sqFile(p.sq[StrongKing][0]) == 3) CHECK(mi == int64_t(idx));
        }
        CHECK(decoded > 0);
    }
}

TEST_CASE("egtb: small tables pass the engine's rules check", "[egtb]") {
    for (const char* name : {"KRK", "KHK", "KCK", "KPK", "KRKA", "KHKA", "KCKB", "KPKB", "KRAKB", "KPPK"}) {
        const Table* t = library().get(name);
        const VerifyResult r = verifyTable(*t, library().lookup(), 2);
        INFO(name << ": " << (r.examples.empty() ? "" : r.examples.front()));
        CHECK(r.checked == 2 * t->indexer.size());
        CHECK(r.errors == 0);
    }
}

TEST_CASE("egtb: the generator agrees with a forward solver", "[egtb]") {
    // KRKA captures into KRK: both in one forward graph.
    for (std::vector<const char*> names :
         {std::vector<const char*>{"KRK"}, {"KHK"}, {"KCK"}, {"KPK"}, {"KRK", "KRKA"}, {"KPK", "KPKB"}}) {
        ForwardSolver solver;
        for (const char* name : names) {
            solver.addMaterial(piecesOf(material(name)));
            library().get(name);
        }
        solver.solve();
        std::map<std::string, std::array<uint64_t, 2>> legalOnDE;
        Position pos;
        uint64_t decided = 0;
        for (size_t i = 0; i < solver.fens().size(); ++i) {
            REQUIRE_FALSE(pos.setFen(solver.fens()[i]));
            const auto v = probeValue(pos, library().lookup());
            INFO(solver.fens()[i]);
            REQUIRE(v);
            CHECK(*v == solver.value(i));
            decided += isDecided(*v);
            // The tables hold positions with the strong king on files d and e.
            const int file = fileOf(pos.kingSquare(Color::Red));
            if (file == 3 || file == 4)
                ++legalOnDE[tableKey(pos)->material.name()][pos.sideToMove() == Color::Red ? 0 : 1];
        }
        INFO(names.back());
        // A lone cannon cannot mate (it needs a screen, and the kings never share a rank).
        CHECK((decided > 0) == (std::string(names.back()) != "KCK"));
        for (const auto& [name, counts] : legalOnDE) {
            const TableCounts c = library().get(name)->counts();
            INFO(name);
            CHECK(c.legal[0] == counts[0]);
            CHECK(c.legal[1] == counts[1]);
        }
    }
}

TEST_CASE("egtb: colours flipped probe the same table", "[egtb]") {
    library().get("KRK");
    Position red, black;
    // Red rook and king against the black king; the same with colours and ranks swapped.
    REQUIRE_FALSE(red.setFen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1"));
    REQUIRE_FALSE(black.setFen("3k5/r8/9/9/9/9/9/9/9/4K4 b - - 0 1"));
    const auto a = probeValue(red, library().lookup()), b = probeValue(black, library().lookup());
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a == *b);
    CHECK(isWinValue(*a));
}

TEST_CASE("egtb: the search agrees with the tables", "[egtb]") {
    // Won positions with short mates: the search (no tables) finds a mate no
    // shorter than the table's; drawn ones: it never claims a mate.
    Engine engine;
    engine.setOption("usebook", "false");
    int wins = 0, draws = 0;
    for (const char* name : {"KRK", "KHK", "KPKB", "KCKB"}) {
        const Table* t = library().get(name);
        Placement p;
        for (uint64_t idx = 7; idx < t->indexer.size() && (wins < 24 || draws < 24); idx += 97) {
            for (int stm = 0; stm < 2; ++stm) {
                const uint16_t v = t->value(stm, idx);
                if (v == TbBroken || !t->indexer.decode(idx, p)) continue;
                const bool shortWin = isWinValue(v) && dtmOf(v) <= 5;
                if (!(shortWin && wins < 24) && !(v == TbDraw && draws < 24)) continue;
                const std::string fen = fenOf(p, stm);
                REQUIRE_FALSE(engine.setPosition(fen, {}));
                SearchLimits limits;
                limits.depth = shortWin ? 8 : 6;
                const SearchResult r = engine.search(limits);
                INFO(name << " " << fen << " table dtm " << dtmOf(v) << " score " << r.score);
                if (shortWin) {
                    ++wins;
                    CHECK(isMateScore(r.score));
                    CHECK(r.score <= mateIn(dtmOf(v)));
                    CHECK(r.score == mateIn(dtmOf(v)));  // and at this depth the shortest
                } else {
                    ++draws;
                    CHECK_FALSE(isMateScore(r.score));
                }
            }
        }
    }
    CHECK(wins >= 20);
    CHECK(draws >= 20);
}

// ---------------------------------------------------------------------------
// Files, the command line, and the engine with tables.

#include "chariot/egtb/prober.h"
#include "chariot/egtb/table_file.h"
#include "chariot/egtb/tool.h"
#include "chariot/ucci.h"

namespace {

struct ToolRun {
    int code;
    std::string out, err;
};

ToolRun egtbTool(const std::vector<std::string>& args) {
    ToolRun r;
    std::ostringstream err;
    r.code = runEgtbTool(
        args, [&](const std::string& line) { r.out += line + "\n"; }, err);
    r.err = err.str();
    return r;
}

// A folder with KRK and KRKA built by the command line (once for the run).
const std::string& builtFolder() {
    static test::TempDir dir;
    static const std::string path = [] {
        const ToolRun r = egtbTool({"build", "--threads", "2", "--only", "KRKA", dir.file("")});
        REQUIRE(r.code == 0);
        return dir.file("");
    }();
    return path;
}

}  // namespace

TEST_CASE("egtb: files round trip, resume, verify, list", "[egtb]") {
    test::TempDir dir;
    ToolRun r = egtbTool({"build", "--only", "KHKA", dir.file("")});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("built 2 table(s), 0 already there") != std::string::npos);
    // The files hold what the generator made.
    std::string error;
    for (const char* name : {"KHK", "KHKA"}) {
        auto t = readTable(dir.file(std::string(name) + ".xtb"), error);
        REQUIRE(t);
        CHECK(t->values == library().get(name)->values);
    }
    // Resumable: an intact table is kept; a damaged one is rebuilt.
    r = egtbTool({"build", "--only", "KHKA", dir.file("")});
    CHECK(r.out.find("built 0 table(s), 2 already there") != std::string::npos);
    std::string bytes = test::readFile(dir.file("KHKA.xtb"));
    bytes[bytes.size() / 2] ^= 0x20;
    test::writeFile(dir.file("KHKA.xtb"), bytes);
    CHECK_FALSE(inspectTable(dir.file("KHKA.xtb"), error));
    CHECK(error.find("checksum") != std::string::npos);
    r = egtbTool({"verify", dir.file("")});
    CHECK(r.code == 1);
    CHECK(r.out.find("KHKA: FAILED") != std::string::npos);
    r = egtbTool({"build", "--only", "KHKA", dir.file("")});
    CHECK(r.err.find("checksum mismatch") != std::string::npos);
    CHECK(r.out.find("built 1 table(s), 1 already there") != std::string::npos);
    r = egtbTool({"verify", "--threads", "2", dir.file("")});
    CHECK(r.code == 0);
    CHECK(r.out.find("2 table(s) checked, 0 failed") != std::string::npos);
    r = egtbTool({"list", dir.file("")});
    CHECK(r.code == 0);
    CHECK(r.out.find("KHKA ") != std::string::npos);
    // Games from won positions: the tables' own mates always come; KHK's are
    // short enough for the search to find every one.
    r = egtbTool({"play", "--games", "4", "--nodes", "20000", dir.file(""), "KHK"});
    CHECK(r.code == 0);
    CHECK(r.out.find("KHK: 4 won positions") != std::string::npos);
    CHECK(r.out.find("converted 4 (100.0%") != std::string::npos);
    CHECK(egtbTool({"play", dir.file("")}).code == 2);
    // The engine refuses a damaged file with a message and uses the rest.
    {
        std::string damaged = test::readFile(dir.file("KHKA.xtb"));
        damaged[damaged.size() / 3] ^= 0x01;
        test::writeFile(dir.file("KHKA.xtb"), damaged);
        Engine engine;
        engine.setTablebaseLoader(tablebaseLoader());
        const auto set = engine.setOption("egtbpath", dir.file(""));
        REQUIRE(set.messages.size() == 1);
        CHECK(set.messages[0].find("1 endgame table(s) found; 1 refused") != std::string::npos);
        CHECK(set.messages[0].find("checksum mismatch") != std::string::npos);
        Position pos;
        REQUIRE_FALSE(pos.setFen("3k5/4a4/9/9/9/9/9/9/4N4/4K4 w - - 0 1"));
        CHECK_FALSE(engine.probeTablebase(pos));  // KHKA: refused
        REQUIRE_FALSE(pos.setFen("3k5/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1"));
        CHECK(engine.probeTablebase(pos));  // KHK: in use
    }
    // Bad input: clear messages, no crash.
    CHECK(egtbTool({"build", "--only", "KAKR", dir.file("")}).code == 2);
    CHECK(egtbTool({"frobnicate"}).code == 2);
    CHECK(egtbTool({"list", dir.file("nothing-here")}).code == 1);
}

TEST_CASE("egtb: the engine probes the tables", "[egtb]") {
    const std::string& folder = builtFolder();
    Engine engine;
    engine.setTablebaseLoader(tablebaseLoader());
    engine.setOption("usebook", "false");

    // A bad folder: a message, and the engine plays on without tables.
    auto set = engine.setOption("egtbpath", folder + "/missing");
    REQUIRE(set.messages.size() == 1);
    CHECK(set.messages[0].find("playing without tables") != std::string::npos);
    CHECK_FALSE(engine.tablebase());
    set = engine.setOption("egtbpath", folder);
    REQUIRE(set.messages.size() == 1);
    CHECK(set.messages[0].find("2 endgame table(s)") != std::string::npos);
    REQUIRE(engine.tablebase());

    // The longest KRKA win: the search answers with the table's mate and a
    // move that keeps it (one ply shorter for the opponent).
    const Table* t = library().get("KRKA");
    const int longest = t->counts().maxDtm;
    Placement p;
    int found = 0;
    for (uint64_t idx = 0; idx < t->indexer.size() && found < 3; ++idx) {
        const uint16_t v = t->value(StrongToMove, idx);
        if (!isWinValue(v) || dtmOf(v) != longest - 1 || !t->indexer.decode(idx, p)) continue;
        ++found;
        REQUIRE_FALSE(engine.setPosition(fenOf(p, StrongToMove), {}));
        SearchLimits limits;
        limits.depth = 3;
        const SearchResult r = engine.search(limits);
        INFO(fenOf(p, StrongToMove));
        CHECK(r.score == mateIn(dtmOf(v)));
        Position after = engine.position();
        after.makeMove(r.best);
        const auto child = engine.probeTablebase(after);
        REQUIRE(child);
        CHECK(child->wdl == TbWdl::Loss);
        CHECK(child->dtm == dtmOf(v) - 1);
    }
    CHECK(found > 0);

    // A capture into a table: rook takes the cannon, KRK A left (black to move, lost).
    const std::string fen = "5a3/c8/4k4/R8/9/9/9/9/9/3K5 w - - 0 1";
    REQUIRE_FALSE(engine.setPosition(fen, {}));
    Position after = engine.position();
    after.makeMove(Move::parse("a6a8"));
    REQUIRE(engine.probeTablebase(after));
    REQUIRE(engine.probeTablebase(after)->wdl == TbWdl::Loss);
    SearchLimits limits;
    limits.depth = 4;
    SearchResult r = engine.search(limits);
    INFO(r.best.toString() << " " << r.score);
    CHECK(r.best == Move::parse("a6a8"));
    CHECK(r.score >= ValueTbWin - MaxPly);
    CHECK(r.score <= ValueTbWin);
    // Without tables the same search sees no such score (the bench is untouched by them).
    engine.setOption("useegtb", "false");
    engine.newGame();
    r = engine.search(limits);
    CHECK(r.score < ValueTbWin - MaxPly);
}

TEST_CASE("egtb: probe and go show the table's verdict", "[egtb]") {
    const std::string& folder = builtFolder();
    std::vector<std::string> out;
    Protocol protocol([&](const std::string& line) { out.push_back(line); });
    protocol.engine().setTablebaseLoader(tablebaseLoader());
    REQUIRE(protocol.runLines({"uci", "setoption name EGTBPath value " + folder, "setoption name OwnBook value false",
                               "position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "probe", "go depth 3", "quit"}) == 0);
    auto has = [&](const std::string& text) {
        return std::any_of(out.begin(), out.end(),
                           [&](const std::string& l) { return l.find(text) != std::string::npos; });
    };
    INFO([&] {
        std::string all;
        for (const auto& l : out) all += l + "\n";
        return all;
    }());
    CHECK(has("info string egtb KRK: won, mate in 1 moves (1 plies)"));
    CHECK(has("score mate 1"));
    CHECK(has("bestmove a0d0"));
}

#include "chariot/analyze.h"

TEST_CASE("egtb: analyze marks a move that throws away a table win", "[egtb]") {
    const std::string& folder = builtFolder();
    test::TempDir dir;
    // KRK, red to win; the rook goes next to the black king, which takes it: a draw.
    test::writeFile(dir.file("game.pgn"),
                    "[FEN \"4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1\"]\n[Format \"ICCS\"]\n\n1. F0-F9 E9-F9 *\n");
    std::string out;
    std::ostringstream err;
    std::istringstream in;
    const int code = analyze::runAnalyzeTool(
        {"--depth", "3", "--egtb", folder, dir.file("game.pgn")}, [&](const std::string& line) { out += line + "\n"; },
        err, in, false);
    INFO(out << err.str());
    CHECK(code == 0);
    CHECK(out.find("F0-F9??") != std::string::npos);
    CHECK(out.find("egtb KRK: draw") != std::string::npos);
    // --json carries the same verdict, per move.
    out.clear();
    analyze::runAnalyzeTool(
        {"--depth", "3", "--json", "--egtb", folder, dir.file("game.pgn")},
        [&](const std::string& line) { out += line + "\n"; }, err, in, false);
    CHECK(out.find("\"mark\":\"??\",\"egtb\":{\"table\":\"KRK\",\"winner\":\"draw\",\"mate\":null}") !=
          std::string::npos);
    // A quiet rook move keeps the win: red wins, a mate's distance in moves.
    test::writeFile(dir.file("win.pgn"),
                    "[FEN \"4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1\"]\n[Format \"ICCS\"]\n\n1. F0-F1 *\n");
    out.clear();
    analyze::runAnalyzeTool(
        {"--depth", "3", "--json", "--egtb", folder, dir.file("win.pgn")},
        [&](const std::string& line) { out += line + "\n"; }, err, in, false);
    CHECK(out.find("\"egtb\":{\"table\":\"KRK\",\"winner\":\"red\",\"mate\":") != std::string::npos);
    // Without the tables the position after the blunder is outside them: no verdict.
    out.clear();
    analyze::runAnalyzeTool(
        {"--depth", "3", dir.file("game.pgn")}, [&](const std::string& line) { out += line + "\n"; }, err, in, false);
    CHECK(out.find("egtb") == std::string::npos);
}

TEST_CASE("egtb: sample draws distinct positions with the verdict asked for", "[egtb]") {
    const std::string& folder = builtFolder();
    Engine engine;
    engine.setTablebaseLoader(tablebaseLoader());
    engine.setOption("egtbpath", folder);
    REQUIRE(engine.tablebase());
    for (const bool drawn : {false, true}) {
        std::vector<std::string> args = {"sample", "--positions", "40", "--seed", "3"};
        if (drawn) args.push_back("--drawn");
        args.push_back(folder);
        const ToolRun r = egtbTool(args);
        INFO(r.out << r.err);
        REQUIRE(r.code == 0);
        std::vector<std::string> fens;
        for (size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1) {
            const std::string line = r.out.substr(at, nl - at);
            if (line.empty() || line[0] == '#') continue;
            fens.push_back(line.substr(0, line.find("  #")));
        }
        REQUIRE(fens.size() == 40);
        CHECK(std::set<std::string>(fens.begin(), fens.end()).size() == fens.size());
        for (size_t i = 0; i < fens.size(); ++i) {
            INFO(fens[i]);
            Position pos;
            REQUIRE_FALSE(pos.setFen(fens[i]));
            MoveList legal;
            generateLegal(pos, legal);
            CHECK(legal.size > 0);
            // Every other position has black as the strong side.
            const Color strong = i % 2 ? Color::Black : Color::Red;
            CHECK(hasAttackers(pos, strong));
            CHECK_FALSE(hasAttackers(pos, ~strong));
            const auto tb = engine.probeTablebase(pos);
            REQUIRE(tb);
            if (drawn)
                CHECK(tb->wdl == TbWdl::Draw);
            else
                CHECK(tb->wdl == (pos.sideToMove() == strong ? TbWdl::Win : TbWdl::Loss));
        }
    }
    // Only KRK and KRKA are there: a material with no table is refused.
    CHECK(egtbTool({"sample", folder, "KHK"}).code == 1);
    CHECK(egtbTool({"sample", folder, "KQK"}).code == 2);
}
