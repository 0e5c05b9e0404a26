#include "chariot/analyze.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#if CHARIOT_EGTB
#include "chariot/egtb/prober.h"
#endif
#include "chariot/movegen.h"
#include "chariot/tool_args.h"
#include "chariot/wdl.h"

namespace chariot::analyze {

using notation::Notation;

// ---------------------------------------------------------------------------
// Preparing and searching

PreparedGame prepareGame(const pgn::PgnGame& game, int number) {
    PreparedGame g;
    g.game = &game;
    g.number = number;
    g.fen = game.fen();
    if (!game.moves.empty())
        if (auto n = notation::classify(game.moves.front().text)) g.inputNotation = *n;
    Position pos;
    if (auto error = pos.setFen(g.fen)) {
        g.stop = fmt::format("{}: bad FEN tag: {}", game.describe(number), *error);
        g.badFen = true;
        return g;
    }
    auto where = [&](const pgn::PgnMove& m) {
        return fmt::format("{}: move {}{} ('{}', line {})", game.describe(number), pos.gamePly() / 2 + 1,
                           pos.sideToMove() == Color::Red ? "" : " (black)", m.text, m.line);
    };
    for (const pgn::PgnMove& m : game.moves) {
        std::string why;
        const Move move = notation::parseMove(pos, m.text, &why);
        if (!move) {
            g.stop = fmt::format("{} is {}", where(m), why == "not a move" ? "not a move" : why + " here");
            return g;
        }
        g.moves.push_back(move);
        pos.makeMove(move);
    }
    if (game.unreadable) g.stop = fmt::format("{} is not a move", where(*game.unreadable));
    return g;
}

namespace {

Eval searchPosition(Engine& engine, const std::string& fen, const std::vector<std::string>& iccs, size_t plies,
                    const Options& options) {
    Eval e;
    const std::vector<std::string> prefix(iccs.begin(), iccs.begin() + std::ptrdiff_t(plies));
    if (engine.setPosition(fen, prefix)) return e;  // cannot happen: the moves were checked
    MoveList legal;
    generateLegal(engine.position(), legal);
    if (legal.size == 0) {
        e.score = matedIn(0);  // no move: lost (checkmate or stalemate)
        return e;
    }
    SearchLimits limits;
    if (options.depth > 0) limits.depth = options.depth;
    limits.nodes = options.nodes;
    limits.time.moveTime = options.moveTimeMs;
    std::vector<SearchInfo> lines;
    auto onInfo = [&](const SearchInfo& info) {
        if (options.multiPV <= 1 || info.pv.empty()) return;
        const size_t k = size_t(std::max(info.multiPV, 1)) - 1;
        if (lines.size() <= k) lines.resize(k + 1);
        lines[k] = info;
    };
    const SearchResult r = engine.search(limits, onInfo);
    e.best = r.best;
    e.score = r.score;
    e.depth = r.depth;
    e.nodes = r.nodes;
    e.timeMs = r.timeMs;
    e.pv = r.pv;
    lines.erase(std::remove_if(lines.begin(), lines.end(), [](const SearchInfo& i) { return i.pv.empty(); }),
                lines.end());
    e.lines = std::move(lines);
    return e;
}

Value forRed(Value v, Color side) { return side == Color::Red ? v : -v; }

// Who wins a table position ("red", "black" or "draw"), not who is to move.
const char* tableWinner(const TbResult& r, Color toMove) {
    if (r.wdl == TbWdl::Draw) return "draw";
    return (r.wdl == TbWdl::Win ? toMove : ~toMove) == Color::Red ? "red" : "black";
}
// "egtb KRKAABB: red wins, mate in 12 moves".
std::string tableVerdict(const TbResult& r, Color toMove) {
    if (r.wdl == TbWdl::Draw) return "egtb " + r.table + ": draw";
    return fmt::format("egtb {}: {} wins, mate in {} moves", r.table, tableWinner(r, toMove), tbMateMoves(r));
}
int capped(Value v) { return std::clamp(v, -LossCap, LossCap); }

}  // namespace

GameReport analyzeGame(Engine& engine, const PreparedGame& game, const Options& options,
                       const std::function<void()>& onPosition) {
    GameReport report;
    report.prepared = &game;
    report.notation = options.notation.value_or(game.inputNotation);
    Position pos;
    if (pos.setFen(game.fen)) return report;
    std::vector<std::string> iccs;
    for (Move m : game.moves) iccs.push_back(m.toString());

    engine.newGame();
    std::vector<Eval> evals;
    for (size_t k = 0; k <= game.moves.size(); ++k) {
        evals.push_back(searchPosition(engine, game.fen, iccs, k, options));
        if (onPosition) onPosition();
    }
    report.start = evals[0];
    for (size_t k = 0; k < game.moves.size(); ++k) {
        MoveNote n;
        n.ply = int(k);
        n.number = pos.gamePly() / 2 + 1;
        n.side = pos.sideToMove();
        n.move = game.moves[k];
        n.text = notation::write(pos, n.move, report.notation);
        n.before = evals[k];
        n.after = evals[k + 1];
        // The best move's score against the played move's, both for the mover.
        if (n.move != n.before.best) n.loss = std::max(0, capped(n.before.score) - capped(-n.after.score));
        const Thresholds& t = options.thresholds;
        n.mark = n.loss >= t.blunder ? "??" : n.loss >= t.mistake ? "?" : n.loss >= t.dubious ? "?!" : "";
        // With tables, the searches score table positions by the tables (the
        // root keeps the best table result): a move that throws away a table
        // win or draw loses a mate's worth, and is marked ?? above.
        Position after = pos;
        after.makeMove(n.move);
        n.table = engine.probeTablebase(after);
        SideSummary& s = n.side == Color::Red ? report.red : report.black;
        ++s.moves;
        s.totalLoss += n.loss;
        s.dubious += n.mark == "?!";
        s.mistakes += n.mark == "?";
        s.blunders += n.mark == "??";
        report.moves.push_back(std::move(n));
        pos.makeMove(game.moves[k]);
    }
    for (size_t i = 0; i < report.moves.size(); ++i)
        if (!report.moves[i].mark.empty()) report.worst.push_back(i);
    std::stable_sort(report.worst.begin(), report.worst.end(),
                     [&](size_t a, size_t b) { return report.moves[a].loss > report.moves[b].loss; });
    if (report.worst.size() > 3) report.worst.resize(3);
    return report;
}

// ---------------------------------------------------------------------------
// Output

std::string formatScore(Value v, int depth) {
    std::string s;
    if (isMateScore(v))
        s = fmt::format("{}M{}", v > 0 ? '+' : '-', std::abs(mateInMoves(v)));
    else
        s = fmt::format("{:+.2f}", v / 100.0);
    if (depth >= 0) s += fmt::format("/{}", depth);
    return s;
}

namespace {

std::string pawns(int units) { return fmt::format("{:.2f}", units / 100.0); }

std::string limitsText(const Options& o) {
    std::vector<std::string> parts;
    if (o.depth > 0) parts.push_back(fmt::format("depth {}", o.depth));
    if (o.nodes > 0) parts.push_back(fmt::format("{} nodes", o.nodes));
    if (o.moveTimeMs >= 0) parts.push_back(fmt::format("{} ms", o.moveTimeMs));
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
    return s + " per position";
}

// A line of moves from `pos`, written in notation n (at most `maxPlies`).
std::vector<std::string> writeLine(Position pos, const std::vector<Move>& pv, Notation n, size_t maxPlies = 12) {
    std::vector<std::string> out;
    for (Move m : pv) {
        if (out.size() >= maxPlies || !pos.isPseudoLegal(m) || !pos.isLegal(m)) break;
        out.push_back(notation::write(pos, m, n));
        pos.makeMove(m);
    }
    return out;
}

std::string moveLabel(const MoveNote& n) {
    return fmt::format("{}{} {}{}", n.number, n.side == Color::Red ? "." : "...", n.text, n.mark);
}

std::string sideText(const char* name, const SideSummary& s) {
    return fmt::format("{}: average loss {} in {} move{} (?! {}, ? {}, ?? {})", name,
                       pawns(int(std::lround(s.averageLoss()))), s.moves, s.moves == 1 ? "" : "s", s.dubious,
                       s.mistakes, s.blunders);
}

std::string worstText(const GameReport& r) {
    std::string s;
    for (size_t i : r.worst) {
        const MoveNote& n = r.moves[i];
        s += fmt::format("{}{} (-{})", s.empty() ? "" : ", ", moveLabel(n), pawns(n.loss));
    }
    return s.empty() ? "none" : s;
}

// Game positions before each move, for writing lines from them.
std::vector<Position> positionsOf(const PreparedGame& g) {
    std::vector<Position> out(1);
    out[0].setFen(g.fen);
    for (Move m : g.moves) {
        out.push_back(out.back());
        out.back().makeMove(m);
    }
    return out;
}

const char* formatTag(Notation n) {
    switch (n) {
        case Notation::Iccs: return "ICCS";
        case Notation::Wxf: return "WXF";
        case Notation::Chinese: return "Chinese";
    }
    return "ICCS";
}

}  // namespace

std::string summaryLine(const GameReport& r) {
    const PreparedGame& g = *r.prepared;
    return fmt::format("{}: {} plies; {}; {}; biggest mistakes: {}", g.game->describe(g.number), r.moves.size(),
                       sideText("red", r.red), sideText("black", r.black), worstText(r));
}

std::string formatPgn(const GameReport& r, const Options& o) {
    const PreparedGame& g = *r.prepared;
    const pgn::PgnGame& game = *g.game;
    std::string out;
    bool formatDone = false;
    for (const pgn::Tag& t : game.tags) {
        std::string value = t.value;
        if (t.name == "Format") value = formatTag(r.notation), formatDone = true;
        if (t.name == "Annotator") continue;
        out += fmt::format("[{} \"{}\"]\n", t.name, pgn::escapeTagValue(value));
    }
    if (!formatDone) out += fmt::format("[Format \"{}\"]\n", formatTag(r.notation));
    out += fmt::format("[Annotator \"Chariot {}\"]\n", pgn::escapeTagValue(limitsText(o)));
    out += "\n";
    for (const std::string& c : game.comments) out += fmt::format("{{{}}}\n", c);
    const Thresholds& t = o.thresholds;
    const std::vector<Position> positions = positionsOf(g);
    out += fmt::format(
        "{{Chariot: scores in pawns (internal units / 100) from red's view after each move, "
        "/depth; M = mate in moves; ?! ? ?? = loss of {} {} {}; start {}}}\n",
        pawns(t.dubious), pawns(t.mistake), pawns(t.blunder),
        formatScore(forRed(r.start.score, positions[0].sideToMove()), r.start.depth));
    std::string line;
    for (const MoveNote& n : r.moves) {
        if (n.side == Color::Red || line.empty()) {
            if (!line.empty()) out += line + "\n";
            line = fmt::format("{}{}", n.number, n.side == Color::Red ? "." : "...");
        }
        line += " " + n.text + n.mark;
        for (const std::string& c : game.moves[size_t(n.ply)].comments) line += fmt::format(" {{{}}}", c);
        const Color next = ~n.side;
        std::string note = formatScore(forRed(n.after.score, next), n.after.best ? n.after.depth : -1);
        if (n.table) note += "; " + tableVerdict(*n.table, ~n.side);
        if (!n.mark.empty() && n.before.best) {
            const std::vector<std::string> best = writeLine(positions[size_t(n.ply)], n.before.pv, r.notation);
            std::string pv;
            for (const std::string& m : best) pv += (pv.empty() ? "" : " ") + m;
            note += fmt::format("; best {} {}: {}", best.empty() ? n.before.best.toString() : best[0],
                                formatScore(forRed(n.before.score, n.side), n.before.depth), pv);
        }
        line += fmt::format(" {{{}}}", note);
    }
    if (!line.empty()) out += line + "\n";
    if (g.stop) out += fmt::format("{{analysis stopped: {}}}\n", *g.stop);
    out += fmt::format("{{{}; {}; biggest mistakes: {}}}\n", sideText("red", r.red), sideText("black", r.black),
                       worstText(r));
    out += game.result + "\n";
    return out;
}

std::string jsonString(std::string_view s) {
    std::string out = "\"";
    for (char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (ch) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (c < 0x20 || c == 0x7F)
                    out += fmt::format("\\u{:04x}", c);
                else
                    out += ch;
        }
    }
    return out + "\"";
}

namespace {

// Internal units (a mate: ±(30000 - plies)) and the mate distance in moves
// (null if none), red's view: "score":35,"mate":null; with a prefix
// "bestScore":...,"bestMate":...
std::string jsonScore(Value redView, std::string_view prefix = {}) {
    const std::string mate =
        isMateScore(redView) ? std::to_string((redView > 0 ? 1 : -1) * std::abs(mateInMoves(redView))) : "null";
    return prefix.empty() ? fmt::format("\"score\":{},\"mate\":{}", redView, mate)
                          : fmt::format("\"{}Score\":{},\"{}Mate\":{}", prefix, redView, prefix, mate);
}

// The model's win/draw/loss in per mille (wdl.h) of a search of `pos` (its
// score from the side to move's view), given from red's view like the
// scores: "wdl":[W,D,L]; with a prefix "bestWdl":[...].
std::string jsonWdl(Value v, const Position& pos, std::string_view prefix = {}) {
    wdl::Wdl w = wdl::fromValue(v, pos);
    if (pos.sideToMove() == Color::Black) w = {w.loss, w.draw, w.win};
    return fmt::format("\"{}\":[{},{},{}]", prefix.empty() ? "wdl" : std::string(prefix) + "Wdl", w.win, w.draw,
                       w.loss);
}

std::string jsonList(const std::vector<std::string>& items) {
    std::string s = "[";
    for (const std::string& i : items) s += (s.size() > 1 ? "," : "") + jsonString(i);
    return s + "]";
}

std::string jsonIccs(const std::vector<Move>& pv) {
    std::vector<std::string> items;
    for (Move m : pv) items.push_back(m.toString());
    return jsonList(items);
}

std::string jsonSide(const SideSummary& s) {
    return fmt::format("{{\"moves\":{},\"averageLoss\":{:.1f},\"dubious\":{},\"mistakes\":{},\"blunders\":{}}}",
                       s.moves, s.averageLoss(), s.dubious, s.mistakes, s.blunders);
}

}  // namespace

// The tables' verdict on a position (null outside them): the material, who
// wins ("red", "black" or "draw") and the mate's distance in moves.
std::string jsonTable(const std::optional<TbResult>& tb, Color toMove) {
    if (!tb) return "null";
    const std::string mate = tb->wdl == TbWdl::Draw ? "null" : std::to_string(tbMateMoves(*tb));
    return fmt::format("{{\"table\":{},\"winner\":\"{}\",\"mate\":{}}}", jsonString(tb->table),
                       tableWinner(*tb, toMove), mate);
}

std::string formatJson(const GameReport& r, const Options& o) {
    const PreparedGame& g = *r.prepared;
    const pgn::PgnGame& game = *g.game;
    const std::vector<Position> positions = positionsOf(g);
    std::string s = fmt::format("{{\"game\":{},\"tags\":{{", g.number);
    std::vector<std::string> seen;
    for (const pgn::Tag& t : game.tags) {
        if (std::find(seen.begin(), seen.end(), t.name) != seen.end()) continue;
        s += fmt::format("{}{}:{}", seen.empty() ? "" : ",", jsonString(t.name), jsonString(t.value));
        seen.push_back(t.name);
    }
    const Color first = positions[0].sideToMove();
    s +=
        fmt::format("}},\"fen\":{},\"result\":{},\"notation\":{},\"limits\":{},", jsonString(g.fen),
                    jsonString(game.result), jsonString(notation::notationName(r.notation)), jsonString(limitsText(o)));
    s += fmt::format("\"start\":{{{},{},\"depth\":{},\"best\":{},\"pv\":{}}},", jsonScore(forRed(r.start.score, first)),
                     jsonWdl(r.start.score, positions[0]), r.start.depth,
                     jsonString(r.start.best ? r.start.best.toString() : ""), jsonIccs(r.start.pv));
    s += "\"moves\":[";
    for (const MoveNote& n : r.moves) {
        const Position& before = positions[size_t(n.ply)];
        const Position& after = positions[size_t(n.ply) + 1];
        s += fmt::format("{}{{\"ply\":{},\"number\":{},\"side\":{},\"iccs\":{},\"move\":{},{},{},\"depth\":{},",
                         n.ply ? "," : "", n.ply + 1, n.number, jsonString(n.side == Color::Red ? "red" : "black"),
                         jsonString(n.move.toString()), jsonString(n.text), jsonScore(forRed(n.after.score, ~n.side)),
                         jsonWdl(n.after.score, after), n.after.depth);
        const std::string bestText = n.before.best ? notation::write(before, n.before.best, r.notation) : "";
        s += fmt::format("\"best\":{},\"bestMove\":{},{},{},\"bestDepth\":{},\"pv\":{},",
                         jsonString(n.before.best ? n.before.best.toString() : ""), jsonString(bestText),
                         jsonScore(forRed(n.before.score, n.side), "best"), jsonWdl(n.before.score, before, "best"),
                         n.before.depth, jsonIccs(n.before.pv));
        if (!n.before.lines.empty()) {
            s += "\"lines\":[";
            for (size_t i = 0; i < n.before.lines.size(); ++i) {
                const SearchInfo& l = n.before.lines[i];
                s += fmt::format("{}{{\"multipv\":{},{},{},\"depth\":{},\"pv\":{}}}", i ? "," : "", l.multiPV,
                                 jsonScore(forRed(l.score, n.side)), jsonWdl(l.score, before), l.depth, jsonIccs(l.pv));
            }
            s += "],";
        }
        std::vector<std::string> comments = game.moves[size_t(n.ply)].comments;
        s += fmt::format("\"loss\":{},\"mark\":{},\"egtb\":{},\"comments\":{}}}", n.loss, jsonString(n.mark),
                         jsonTable(n.table, after.sideToMove()), jsonList(comments));
    }
    s += fmt::format("],\"summary\":{{\"red\":{},\"black\":{},\"worst\":[", jsonSide(r.red), jsonSide(r.black));
    for (size_t i = 0; i < r.worst.size(); ++i) {
        const MoveNote& n = r.moves[r.worst[i]];
        s += fmt::format("{}{{\"ply\":{},\"move\":{},\"loss\":{},\"mark\":{}}}", i ? "," : "", n.ply + 1,
                         jsonString(n.text), n.loss, jsonString(n.mark));
    }
    s += fmt::format("]}},\"error\":{}}}", g.stop ? jsonString(*g.stop) : "null");
    return s;
}

// ---------------------------------------------------------------------------
// The command

namespace {

const char* const UsageText =
    "usage: chariot analyze [options] <game.pgn>... ('-' reads stdin)\n"
    "  searches every position of every game and writes the games annotated (PGN, or --json)\n"
    "  --movetime MS      search time per position (default 500 when no limit is given)\n"
    "  --depth D          search depth per position\n"
    "  --nodes N          nodes per position (several limits: the first reached stops)\n"
    "  --threads N        search threads (default 1)\n"
    "  --hash MB          hash table (default 64); kept from one position to the next\n"
    "                     of a game, cleared between games\n"
    "  --multipv N        lines per search (the extra lines go to --json)\n"
    "  --notation iccs|wxf|chinese  moves of the output (default: the input's)\n"
    "  --json             one JSON object per game and line instead of PGN\n"
    "  --egtb DIR         endgame tablebases (chariot egtb build): table positions get the\n"
    "                     tables' verdict, a move that throws away a table win or draw is ??\n"
    "  --out FILE         write there (complete, at the end) instead of stdout\n"
    "  --check            only read the games and check their moves, no search: each file's\n"
    "                     encoding and games, the games that stop early (stderr), a total\n"
    "  Input: PGN with ICCS (H2-E2, h2e2), WXF (C2.5, +C.5) or Chinese moves (炮二平五,\n"
    "  馬８進７), UTF-8, GBK or Big5. Scores: pawns = internal units / 100 (a rook is about 10), red's view,\n"
    "  after each move, with the depth: {+0.35/14}; mates {+M3/12} (red mates in 3 moves).\n"
    "  A move's loss is the best move's score minus the played move's (scores capped at\n"
    "  +-20.00); marks ?! from 0.50, ? from 1.00, ?? from 3.00, with the best move and its line.\n"
    "  Progress on stderr when it is a terminal. Exit status 1 if a file could not be read,\n"
    "  is not PGN or holds an illegal move (the rest is still analysed); 2 for usage errors.\n";

void usage(std::ostream& out) { out << UsageText; }

std::string clock(double seconds) {
    const auto t = int64_t(seconds + 0.5);
    return t >= 3600 ? fmt::format("{}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
                     : fmt::format("{}:{:02}", t / 60, t % 60);
}

}  // namespace

int runAnalyzeTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                   std::ostream& err, std::istream& in, bool progress) {
    Options o;
    bool limitGiven = false, timeGiven = false;
    std::string outPath;
    bool checkOnly = false;
    std::vector<std::string> files;
    const std::vector<tools::Flag> flags = {
        tools::numberFlag<int64_t>("--movetime", o.moveTimeMs, 1, int64_t(1) << 40, &timeGiven),
        tools::numberFlag("--depth", o.depth, 1, MaxSearchDepth, &limitGiven),
        tools::numberFlag<uint64_t>("--nodes", o.nodes, 1, ~uint64_t(0), &limitGiven),
        tools::numberFlag("--threads", o.threads, 1, 256),
        tools::numberFlag("--hash", o.hashMB, 1, 65536),
        tools::numberFlag("--multipv", o.multiPV, 1, 128),
        {"--notation", [&](const std::string& v) { return (o.notation = notation::parseNotationName(v)).has_value(); },
         nullptr},
        {"--out", [&](const std::string& v) { return !(outPath = v).empty(); }, nullptr},
        {"--json", nullptr, [&] { o.json = true; }},
        {"--check", nullptr, [&] { checkOnly = true; }},
        {"--egtb", [&](const std::string& v) { return !(o.egtbPath = v).empty(); }, nullptr},
    };
    const int argStatus = tools::readArgs(
        "analyze", args, flags, [&](const std::string& file) { return files.push_back(file), true; }, print, err,
        UsageText);
    if (argStatus >= 0) return argStatus;
    limitGiven = limitGiven || timeGiven;
    if (files.empty()) {
        usage(err);
        return 2;
    }
    if (!timeGiven) o.moveTimeMs = limitGiven ? -1 : 500;

    // Read and check every file before the first search: a file that is not
    // PGN is reported at once and nothing of it is written.
    int status = 0;
    std::vector<std::unique_ptr<pgn::PgnFile>> inputs;
    std::vector<PreparedGame> games;
    size_t totalPositions = 0;
    int gameNumber = 0;
    int stoppedGames = 0;
    for (const std::string& path : files) {
        std::string bytes;
        if (path == "-") {
            bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        } else {
            std::ifstream f(path, std::ios::binary);
            if (!f) {
                err << fmt::format("analyze: cannot read {}\n", path);
                status = 1;
                continue;
            }
            bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
        }
        auto file = std::make_unique<pgn::PgnFile>(pgn::parsePgn(bytes));
        const std::string name = path == "-" ? "<stdin>" : path;
        for (const std::string& w : file->warnings) err << fmt::format("analyze: {}: {}\n", name, w);
        if (file->error) {
            err << fmt::format("analyze: {}: {}\n", name, *file->error);
            status = 1;
            continue;
        }
        int fileStopped = 0;
        for (const pgn::PgnGame& g : file->games) {
            games.push_back(prepareGame(g, ++gameNumber));
            const PreparedGame& p = games.back();
            if (p.stop) {
                err << fmt::format("analyze: {}: {}; {}\n", name, *p.stop,
                                   checkOnly  ? "the game stops there"
                                   : p.badFen ? "the game is skipped"
                                              : "the game is analysed up to that move");
                status = 1;
                ++fileStopped;
            }
            if (p.badFen)
                games.pop_back();
            else
                totalPositions += p.moves.size() + 1;
        }
        if (checkOnly)
            print(fmt::format("{}: {}, {} games, {} read to the end", name, file->encoding, file->games.size(),
                              file->games.size() - size_t(fileStopped)));
        stoppedGames += fileStopped;
        inputs.push_back(std::move(file));
    }
    if (checkOnly) {
        print(fmt::format("games {}, read to the end {}, stopped early {}", gameNumber, gameNumber - stoppedGames,
                          stoppedGames));
        return status;
    }
    if (games.empty()) {
        err << "analyze: no game to analyse\n";
        return 1;
    }

    const std::string partPath = outPath.empty() ? "" : outPath + ".part";
    std::ofstream out;
    if (!outPath.empty()) {
        out.open(partPath, std::ios::binary | std::ios::trunc);
        if (!out) {
            err << fmt::format("analyze: cannot write {}\n", partPath);
            return 1;
        }
    }
    auto emit = [&](const std::string& text) {  // text without its last newline
        if (out.is_open())
            out << text << '\n';
        else
            print(text);
    };

    Engine engine;
    tools::configureEngine(engine, o.hashMB, o.threads, err, "analyze");
    for (const std::string& m : engine.setOption("multipv", std::to_string(o.multiPV)).messages)
        err << "analyze: " << m << '\n';
    if (!o.egtbPath.empty()) {
#if CHARIOT_EGTB
        engine.setTablebaseLoader(egtb::tablebaseLoader());
#endif
        for (const std::string& m : engine.setOption("egtbpath", o.egtbPath).messages) err << "analyze: " << m << '\n';
    }

    const auto start = std::chrono::steady_clock::now();
    auto lastShown = start - std::chrono::seconds(1);
    size_t done = 0;
    for (size_t gi = 0; gi < games.size(); ++gi) {
        auto onPosition = [&] {
            ++done;
            const auto now = std::chrono::steady_clock::now();
            if (!progress || now - lastShown < std::chrono::milliseconds(200)) return;  // a few updates a second
            lastShown = now;
            const double elapsed = std::chrono::duration<double>(now - start).count();
            const double left = elapsed / double(done) * double(totalPositions - done);
            err << fmt::format("\ranalyze: game {}/{}, positions {}/{}, elapsed {}, left ~{}   ", gi + 1, games.size(),
                               done, totalPositions, clock(elapsed), clock(left))
                << std::flush;
        };
        const GameReport report = analyzeGame(engine, games[gi], o, onPosition);
        if (progress) err << "\r\x1b[K" << summaryLine(report) << '\n' << std::flush;
        if (o.json) {
            emit(formatJson(report, o));
        } else {
            std::string text = formatPgn(report, o);
            text.pop_back();
            emit(text);
            emit("");
        }
    }
    if (out.is_open()) {
        out.close();
        if (!out || std::rename(partPath.c_str(), outPath.c_str()) != 0) {
            err << fmt::format("analyze: cannot write {}\n", outPath);
            std::remove(partPath.c_str());
            return 1;
        }
    }
    return status;
}

}  // namespace chariot::analyze
