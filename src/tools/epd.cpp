#include "chariot/epd.h"

#include <algorithm>
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "chariot/analyze.h"
#include "chariot/movegen.h"
#include "chariot/tool_args.h"
#include "chariot/notation.h"

namespace chariot::epd {

bool EpdEntry::solvedBy(Move m) const {
    if (!m) return false;
    if (!bm.empty() && std::find(bm.begin(), bm.end(), m) == bm.end()) return false;
    return std::find(am.begin(), am.end(), m) == am.end();
}

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Whitespace-separated words; a "quoted string" is one word (quotes removed).
std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        if (isSpace(s[i])) {
            ++i;
            continue;
        }
        std::string w;
        if (s[i] == '"') {
            ++i;
            while (i < s.size() && s[i] != '"') {
                if (s[i] == '\\' && i + 1 < s.size()) ++i;
                w += s[i++];
            }
            ++i;
        } else {
            while (i < s.size() && !isSpace(s[i])) w += s[i++];
        }
        out.push_back(std::move(w));
    }
    return out;
}

// The operations: split at the semicolons outside quotes.
std::vector<std::string_view> operations(std::string_view s) {
    std::vector<std::string_view> out;
    size_t start = 0;
    bool quoted = false;
    for (size_t i = 0; i <= s.size(); ++i) {
        if (i < s.size() && s[i] == '"') quoted = !quoted;
        if (i == s.size() || (s[i] == ';' && !quoted)) {
            std::string_view op = s.substr(start, i - start);
            while (!op.empty() && isSpace(op.front())) op.remove_prefix(1);
            while (!op.empty() && isSpace(op.back())) op.remove_suffix(1);
            if (!op.empty()) out.push_back(op);
            start = i + 1;
        }
    }
    return out;
}

bool isFenExtra(std::string_view w) {
    return w == "-" || (!w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; }));
}

}  // namespace

std::optional<EpdEntry> parseLine(std::string_view line, int lineNo, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<EpdEntry> {
        if (error) *error = fmt::format("line {}: {}", lineNo, why);
        return std::nullopt;
    };
    if (error) error->clear();
    size_t i = 0;
    while (i < line.size() && isSpace(line[i])) ++i;
    if (i == line.size() || line[i] == '#') return std::nullopt;

    // The FEN: board, side, then up to four '-' or number fields.
    auto nextWord = [&](size_t& at) {
        while (at < line.size() && isSpace(line[at])) ++at;
        const size_t b = at;
        while (at < line.size() && !isSpace(line[at]) && line[at] != ';') ++at;
        return line.substr(b, at - b);
    };
    const std::string_view board = nextWord(i);
    if (board.find('/') == std::string_view::npos)
        return fail(fmt::format("no FEN ('{}' is not a board)", board.substr(0, 40)));
    const std::string_view side = nextWord(i);
    if (side != "w" && side != "b" && side != "r" && side != "W" && side != "B" && side != "R")
        return fail("no side to move after the board");
    std::string fen = fmt::format("{} {}", board, side);
    std::vector<std::string_view> extra;
    for (int k = 0; k < 4; ++k) {
        size_t j = i;
        const std::string_view w = nextWord(j);
        if (!isFenExtra(w)) break;
        extra.push_back(w);
        i = j;
    }
    while (extra.size() < 2) extra.push_back("-");
    for (std::string_view w : extra) fen += fmt::format(" {}", w);

    EpdEntry e;
    e.line = lineNo;
    Position pos;
    if (auto why = pos.setFen(fen)) return fail(fmt::format("bad FEN: {}", *why));
    e.fen = pos.fen();
    for (std::string_view op : operations(line.substr(i))) {
        std::vector<std::string> w = words(op);
        if (w.empty()) continue;
        const std::string opcode = w[0];
        w.erase(w.begin());
        if (opcode == "bm" || opcode == "am") {
            if (w.empty()) return fail(fmt::format("'{}' without a move", opcode));
            for (const std::string& text : w) {
                std::string why;
                const Move m = notation::parseMove(pos, text, &why);
                if (!m)
                    return fail(fmt::format("{} '{}' is {}", opcode, text.substr(0, 20),
                                            why == "not a move" ? why : why + " here"));
                (opcode == "bm" ? e.bm : e.am).push_back(m);
            }
        } else if (opcode == "id") {
            if (!w.empty()) e.id = w[0];
        }
        // Other operations (dm, c0, ...) are accepted and ignored.
    }
    if (e.bm.empty() && e.am.empty()) return fail("no bm or am operation");
    if (e.id.empty()) e.id = fmt::format("line {}", lineNo);
    return e;
}

Outcome solve(Engine& engine, const EpdEntry& entry, const SearchLimits& limits) {
    Outcome o;
    engine.newGame();
    if (engine.setPosition(entry.fen, {})) return o;
    bool holding = false;  // the latest iteration's move solves
    auto onInfo = [&](const SearchInfo& info) {
        if (info.multiPV != 1 || info.pv.empty()) return;
        const bool solves = entry.solvedBy(info.pv[0]);
        if (solves && !holding) o.solvedDepth = info.depth, o.solvedTimeMs = info.timeMs;
        holding = solves;
    };
    const SearchResult r = engine.search(limits, onInfo);
    o.played = r.best;
    o.score = r.score;
    o.depth = r.depth;
    o.timeMs = r.timeMs;
    o.nodes = r.nodes;
    o.solved = entry.solvedBy(r.best);
    if (o.solved && !holding) o.solvedDepth = r.depth, o.solvedTimeMs = r.timeMs;
    if (!o.solved) o.solvedDepth = 0, o.solvedTimeMs = 0;
    return o;
}

namespace {

const char* const UsageText =
    "usage: chariot epd <suite.epd> [--movetime MS | --depth D | --nodes N] [--threads N] [--hash MB]\n"
    "  one line per position: id, found/missed, the move played and its score (side to move's view,\n"
    "  pawns; +M3: mates in 3), for a solved one the depth and time from which the search kept a\n"
    "  solving move; then 'solved N/M'. EPD: a FEN's first 2-4 fields, then operations\n"
    "  'bm <moves>;' 'am <moves>;' 'id \"name\";' (moves in ICCS, h2e2); others are ignored.\n"
    "  Default limit: --movetime 1000. Each position starts from a cleared hash table.\n"
    "  Malformed lines are reported on stderr and skipped. Exit status 0; 2: usage, unreadable file.\n";

void usage(std::ostream& out) { out << UsageText; }

std::string moveList(const std::vector<Move>& moves) {
    std::string s;
    for (Move m : moves) {
        if (!s.empty()) s += ' ';
        s += m.toString();
    }
    return s;
}

}  // namespace

int runEpdTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
               std::ostream& err) {
    SearchLimits limits;
    bool limitGiven = false;
    int threads = 1, hashMB = int(Engine::DefaultHashMB);
    std::string path;
    int64_t moveTimeMs = -1;
    const std::vector<tools::Flag> flags = {
        tools::numberFlag<int64_t>("--movetime", moveTimeMs, 1, int64_t(1) << 40, &limitGiven),
        tools::numberFlag("--depth", limits.depth, 1, MaxSearchDepth, &limitGiven),
        tools::numberFlag<uint64_t>("--nodes", limits.nodes, 1, ~uint64_t(0), &limitGiven),
        tools::numberFlag("--threads", threads, 1, 256),
        tools::numberFlag("--hash", hashMB, 1, 65536),
    };
    const int argStatus = tools::readArgs(
        "epd", args, flags,
        [&](const std::string& file) {
            if (!path.empty()) return err << "epd: one suite at a time\n", false;
            path = file;
            return true;
        },
        print, err, UsageText);
    if (argStatus >= 0) return argStatus;
    limits.time.moveTime = moveTimeMs;
    if (path.empty()) {
        usage(err);
        return 2;
    }
    if (!limitGiven) limits.time.moveTime = 1000;
    std::ifstream in(path);
    if (!in) {
        err << fmt::format("epd: cannot read {}\n", path);
        return 2;
    }
    std::vector<EpdEntry> entries;
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        std::string error;
        if (auto e = parseLine(line, lineNo, &error))
            entries.push_back(std::move(*e));
        else if (!error.empty())
            err << fmt::format("epd: {}: {} (skipped)\n", path, error);
    }

    Engine engine;
    tools::configureEngine(engine, hashMB, threads, err, "epd");
    size_t idWidth = 8;
    for (const EpdEntry& e : entries) idWidth = std::max(idWidth, std::min<size_t>(e.id.size(), 32));
    int solved = 0;
    for (const EpdEntry& e : entries) {
        const Outcome o = solve(engine, e, limits);
        solved += o.solved;
        std::string text = fmt::format("{:<{}}  {}  {:<4}  {:<6}", e.id, idWidth, o.solved ? "found " : "missed",
                                       o.played ? o.played.toString() : "none", analyze::formatScore(o.score));
        if (o.solved) {
            text += fmt::format("  depth {} time {} ms", o.solvedDepth, o.solvedTimeMs);
        } else {
            if (!e.bm.empty()) text += fmt::format("  bm {}", moveList(e.bm));
            if (!e.am.empty()) text += fmt::format("  am {}", moveList(e.am));
        }
        print(text);
    }
    print(fmt::format("solved {}/{}", solved, entries.size()));
    return 0;
}

}  // namespace chariot::epd
