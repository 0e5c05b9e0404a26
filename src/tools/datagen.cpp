#include "chariot/datagen.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <iterator>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <fmt/format.h>

#include "chariot/book.h"
#include "chariot/checksum.h"
#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "chariot/nnue.h"
#include "chariot/notation.h"
#include "chariot/pgn.h"
#include "chariot/rules.h"
#include "chariot/thread.h"
#include "chariot/tool_args.h"

namespace chariot::datagen {

const char* terminationName(Termination t) {
    static constexpr const char* names[] = {"mate",       "perpetual check", "perpetual chase",
                                            "repetition", "no-capture rule", "dead draw",
                                            "max plies",  "adjudicated win", "adjudicated draw"};
    const size_t i = size_t(t);
    return i < std::size(names) ? names[i] : "unknown";
}

// ---------------------------------------------------------------------------
// Encoding

namespace {

void put(std::vector<uint8_t>& out, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}
uint64_t get(const uint8_t* p, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(p[i]) << (8 * i);
    return v;
}

uint16_t encodeMove(Move m) { return uint16_t(square90(m.from()) + 90 * square90(m.to())); }
std::optional<Move> decodeMove(uint16_t raw) {
    const int from = raw % 90, to = raw / 90;
    if (to >= 90 || from == to) return std::nullopt;
    return Move(fromSquare90(from), fromSquare90(to));
}

}  // namespace


std::vector<uint8_t> encodeHeader(uint64_t seed, uint32_t nodes, uint32_t playNodes) {
    std::vector<uint8_t> out(FileMagic, FileMagic + 8);
    put(out, FormatVersion, 4);
    put(out, HeaderBytes, 4);
    put(out, seed, 8);
    put(out, nodes, 4);
    put(out, playNodes, 4);
    return out;
}

std::vector<uint8_t> encodeRecord(const Game& game) {
    std::vector<uint8_t> payload;
    put(payload, game.seed, 8);
    put(payload, game.index, 8);
    put(payload, uint8_t(game.result), 1);
    put(payload, uint8_t(game.termination), 1);
    put(payload, std::min<size_t>(game.plies.size(), 0xFFFF), 2);
    const size_t fenLength = std::min<size_t>(game.startFen.size(), 255);
    put(payload, fenLength, 1);
    payload.insert(payload.end(), game.startFen.begin(), game.startFen.begin() + long(fenLength));
    for (size_t i = 0; i < game.plies.size() && i < 0xFFFF; ++i) {
        put(payload, encodeMove(game.plies[i].move), 2);
        put(payload, uint16_t(game.plies[i].score), 2);
        put(payload, game.plies[i].flags, 1);
    }
    std::vector<uint8_t> out;
    put(out, RecordMagic, 4);
    put(out, payload.size(), 4);
    out.insert(out.end(), payload.begin(), payload.end());
    put(out, crc32(payload.data(), payload.size()), 4);
    return out;
}

std::optional<Game> decodePayload(const uint8_t* data, size_t size) {
    if (size < 21) return std::nullopt;
    Game g;
    g.seed = get(data, 8);
    g.index = get(data + 8, 8);
    const uint8_t result = data[16], termination = data[17];
    if (result > 2 || termination > uint8_t(Termination::AdjudicatedDraw)) return std::nullopt;
    g.result = Result(result);
    g.termination = Termination(termination);
    const size_t plies = get(data + 18, 2), fenLength = data[20];
    if (size != 21 + fenLength + plies * PlyBytes) return std::nullopt;
    g.startFen.assign(reinterpret_cast<const char*>(data + 21), fenLength);
    const uint8_t* p = data + 21 + fenLength;
    g.plies.reserve(plies);
    for (size_t i = 0; i < plies; ++i, p += PlyBytes) {
        auto m = decodeMove(uint16_t(get(p, 2)));
        if (!m) return std::nullopt;
        g.plies.push_back({*m, int16_t(uint16_t(get(p + 2, 2))), p[4]});
    }
    return g;
}

bool Reader::open(const std::string& path, std::string& error) {
    in_.open(path, std::ios::binary);
    if (!in_) {
        error = fmt::format("cannot open '{}'", path);
        return false;
    }
    uint8_t h[HeaderBytes];
    if (!in_.read(reinterpret_cast<char*>(h), HeaderBytes)) {
        error = fmt::format("'{}' is too short for a Chariot data file", path);
        return false;
    }
    if (std::memcmp(h, FileMagic, 8) != 0) {
        error = fmt::format("'{}' is not a Chariot data file (no CHRTDATA header)", path);
        return false;
    }
    if (get(h + 8, 4) != FormatVersion || get(h + 12, 4) != HeaderBytes) {
        error = fmt::format("'{}' is data format version {}; this build reads version {}", path, get(h + 8, 4),
                            FormatVersion);
        return false;
    }
    header_.seed = get(h + 16, 8);
    header_.nodes = uint32_t(get(h + 24, 4));
    header_.playNodes = uint32_t(get(h + 28, 4));
    goodBytes_ = HeaderBytes;
    return true;
}

std::optional<Game> Reader::next() {
    if (damaged_ || !in_) return std::nullopt;
    uint8_t head[8];
    in_.read(reinterpret_cast<char*>(head), 8);
    if (in_.gcount() == 0) return std::nullopt;  // a clean end
    auto fail = [&](std::string why) -> std::optional<Game> {
        damaged_ = true;
        damage_ = fmt::format("damaged record at byte {}: {}", goodBytes_, why);
        return std::nullopt;
    };
    if (in_.gcount() < 8) return fail("truncated record header");
    if (get(head, 4) != RecordMagic) return fail("no record marker");
    const size_t size = get(head + 4, 4);
    if (size > (size_t(1) << 24)) return fail("implausible record length");
    std::vector<uint8_t> payload(size + 4);
    in_.read(reinterpret_cast<char*>(payload.data()), std::streamsize(size + 4));
    if (size_t(in_.gcount()) < size + 4) return fail("truncated record");
    if (crc32(payload.data(), size) != get(payload.data() + size, 4)) return fail("checksum mismatch");
    auto game = decodePayload(payload.data(), size);
    if (!game) return fail("malformed payload");
    goodBytes_ += 8 + size + 4;
    return game;
}

// ---------------------------------------------------------------------------
// Generation

namespace {

struct Settings {
    std::string out;
    uint64_t seed = 1;
    uint32_t nodes = 5000;
    // --play-nodes: a searched ply is a label (searched at `nodes`) with a
    // chance of 1 in labelEvery; the others are searched at playNodes only to
    // choose the move. 0: every ply is a label.
    uint32_t playNodes = 0;
    int labelEvery = 4;
    bool labelEveryGiven = false;
    int threads = 1;
    uint64_t games = 0;                // 0: until interrupted
    int bookPlies = 12;                // at most this many book plies (a random count)
    int randomMin = 2, randomMax = 8;  // then this many uniformly random legal plies
    Value openingLimit = 400;          // an opening whose quick search scores beyond this is drawn again
    int maxPlies = 400;
    int hashMB = 16;
    Value winScore = 2500;            // a win is adjudicated after 8 searched plies beyond this score
    bool randomGiven = false;         // --random-plies given (else the default of the opening kind)
    std::string book;                 // default: the engine's
    std::vector<std::string> starts;  // master games' PGN files: start from their positions instead of the book
    int startMin = 8, startMax = 80;  // the master game's position after this many plies (clipped to its length)
    std::string net;                  // empty: the handcrafted evaluation; "embedded" or a net file
    std::shared_ptr<const nnue::Network> network;
    int progressSeconds = 10;
};

constexpr int RuleNoCapturePlies = 120;
constexpr int AdjudicateWinPlies = 8;  // beyond Settings::winScore (by default two and a half rooks, or a mate)
constexpr int AdjudicateDrawFromPly = 160;
constexpr Value AdjudicateDrawScore = 15;
constexpr int AdjudicateDrawPlies = 24;

// The games of the --starts files, read once at start-up: each game's start
// position and its moves up to the end or to the first move that does not
// read, in a few flat arrays (two bytes a move).
struct StartGames {
    struct Line {
        uint32_t fen = 0;               // index in `fens`
        uint32_t first = 0, count = 0;  // its moves: moves[first, first + count)
    };
    std::vector<std::string> fens;  // distinct start FENs
    std::vector<Move> moves;
    std::vector<Line> lines;
};

// A game while the files are read.
struct StartLine {
    std::string fen;
    std::vector<Move> moves;
};

// Reads the --starts files; nullopt (after a message) when a file cannot be
// read, is not PGN or holds no game with a legal move.
std::optional<StartGames> loadStarts(const std::vector<std::string>& paths, std::ostream& err) {
    std::vector<StartLine> lines;
    for (const std::string& path : paths) {
        std::ifstream f(path, std::ios::binary);
        if (!f) return err << fmt::format("datagen: --starts {}: cannot read the file\n", path), std::nullopt;
        const std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
        if (f.bad()) return err << fmt::format("datagen: --starts {}: read error\n", path), std::nullopt;
        if (bytes.empty()) return err << fmt::format("datagen: --starts {}: the file is empty\n", path), std::nullopt;
        const pgn::PgnFile file = pgn::parsePgn(bytes);
        if (file.error) return err << fmt::format("datagen: --starts {}: {}\n", path, *file.error), std::nullopt;
        size_t used = 0, stopped = 0, positions = 0;
        for (const pgn::PgnGame& game : file.games) {
            StartLine line;
            line.fen = game.fen();
            Position pos;
            if (pos.setFen(line.fen)) continue;  // a bad FEN tag: the game is left out
            bool complete = !game.unreadable;
            for (const pgn::PgnMove& m : game.moves) {
                const Move move = notation::parseMove(pos, m.text);
                if (!move) {
                    complete = false;  // a bad record: its valid prefix is kept
                    break;
                }
                line.moves.push_back(move);
                pos.makeMove(move);
            }
            stopped += !complete;
            if (line.moves.empty()) continue;
            positions += line.moves.size() + 1;
            ++used;
            lines.push_back(std::move(line));
        }
        if (!used)
            return err << fmt::format("datagen: --starts {}: no game with a legal move ({} game(s) read)\n", path,
                                      file.games.size()),
                   std::nullopt;
        err << fmt::format(
            "datagen: starts {}: {}, {} game(s), {} used, {} stopped early (kept up to the bad move), "
            "{} positions\n",
            path, file.encoding, file.games.size(), used, stopped, positions);
    }
    // Copied into arrays allocated after the parsed files are freed, so that
    // the memory the parser used goes back to the system.
    StartGames games;
    size_t moves = 0;
    for (const StartLine& line : lines) moves += line.moves.size();
    games.moves.reserve(moves);
    games.lines.reserve(lines.size());
    std::map<std::string, uint32_t> fenIndex;
    for (StartLine& line : lines) {
        const auto [it, added] = fenIndex.try_emplace(line.fen, uint32_t(games.fens.size()));
        if (added) games.fens.push_back(line.fen);
        games.lines.push_back({it->second, uint32_t(games.moves.size()), uint32_t(line.moves.size())});
        games.moves.insert(games.moves.end(), line.moves.begin(), line.moves.end());
        std::vector<Move>().swap(line.moves);
    }
    lines = {};
#if defined(__GLIBC__)
    // The parser's many small blocks stay with glibc's allocator once freed
    // (a quarter of a gigabyte for 27,000 games); hand them back.
    malloc_trim(0);
#endif
    return games;
}

// A searched position's stored score and flags (shared by the generator and
// the relabeller, so that both mean the same by them).
int16_t storedScore(Value score) { return int16_t(std::clamp(score, -32000, 32000)); }
uint8_t searchFlags(const Position& pos, const SearchResult& r) {
    const bool inCheck = pos.inCheck(), capture = !pos.isEmpty(r.best.to());
    return uint8_t((inCheck ? PlyFlag::InCheck : 0) | (capture ? PlyFlag::CaptureBest : 0) |
                   (!inCheck && !capture && !isDecisive(r.score) ? PlyFlag::Quiet : 0));
}

// The node limit of the search that checks an opening before the game is
// played; the relabeller repeats it so that the hash table and history hold
// what they held when each position was first searched.
uint64_t openingCheckNodes(uint32_t nodes) { return std::max<uint32_t>(nodes / 2, 500); }

class Generator {
public:
    Generator(const Settings& s, const Book* book, const StartGames* starts)
        : settings_(s), book_(book), starts_(starts && !starts->lines.empty() ? starts : nullptr) {}

    Game play(uint64_t index, TranspositionTable& tt, Searcher& searcher) const {
        uint64_t rng = settings_.seed * 0x9E3779B97F4A7C15ULL ^ (index + 1) * 0xD1B54A32D192ED03ULL;
        auto random = [&rng] { return tables::splitMix64(rng); };
        SearchOptions options;
        options.threads = 1;
        options.net = settings_.network;
        Game game;
        game.seed = settings_.seed;
        game.index = index;
        Position pos;
        // Openings: a walk through the book (or a master game's position),
        // then random plies; drawn again while the position is already lopsided.
        for (int attempt = 0;; ++attempt) {
            tt.clear();
            searcher.clearHistory();
            pos = Position();
            game.plies.clear();
            game.startFen = std::string(StartFen);
            if (starts_) {
                // The record starts at the chosen position: the master's moves
                // are neither the engine's nor searched, and the game may not
                // begin at the start position. Its FEN carries the no-capture
                // count; the game has no history before it, so the record
                // replays exactly as it was played.
                const StartGames::Line& line = starts_->lines[random() % uint64_t(starts_->lines.size())];
                const int length = int(line.count);
                const int lo = std::min(settings_.startMin, length), hi = std::min(settings_.startMax, length);
                const int ply = lo + int(random() % uint64_t(hi - lo + 1));
                Position walk;
                walk.setFen(starts_->fens[line.fen]);  // read back when the file was loaded
                for (int i = 0; i < ply; ++i) walk.makeMove(starts_->moves[line.first + size_t(i)]);
                game.startFen = walk.fen();
                pos.setFen(game.startFen);  // a FEN written by fen() reads back
            }
            const int bookPlies = book_ && !starts_ ? int(random() % uint64_t(settings_.bookPlies + 1)) : 0;
            for (int i = 0; i < bookPlies; ++i) {
                const Move m = pickBookMove(book_->probe(pos), random());
                if (!m) break;
                game.plies.push_back({m, 0, PlyFlag::Opening});
                pos.makeMove(m);
            }
            const int randomPlies =
                settings_.randomMin + int(random() % uint64_t(settings_.randomMax - settings_.randomMin + 1));
            bool dead = false;
            for (int i = 0; i < randomPlies; ++i) {
                MoveList legal;
                generateLegal(pos, legal);
                if (legal.size == 0) {
                    dead = true;
                    break;
                }
                const Move m = legal.moves[random() % uint64_t(legal.size)];
                game.plies.push_back({m, 0, PlyFlag::Opening});
                pos.makeMove(m);
            }
            if (dead) continue;
            MoveList legal;
            generateLegal(pos, legal);
            if (legal.size == 0) continue;
            SearchLimits quick;
            quick.nodes = openingCheckNodes(settings_.nodes);
            const SearchResult r = searcher.search(pos, quick, options);
            if (std::abs(r.score) <= settings_.openingLimit || attempt >= 50) break;
        }
        // The book and random plies are stored as moves from game.startFen,
        // flagged as opening plies.

        SearchLimits limits, playLimits;
        limits.nodes = settings_.nodes;
        playLimits.nodes = settings_.playNodes;
        int winRun = 0, drawRun = 0;
        Color winner = Color::Red;
        auto finish = [&](Result r, Termination t) {
            game.result = r;
            game.termination = t;
            return game;
        };
        auto lossFor = [](Color loser) { return loser == Color::Red ? Result::BlackWin : Result::RedWin; };
        while (true) {
            const Color us = pos.sideToMove();
            MoveList legal;
            generateLegal(pos, legal);
            if (legal.size == 0) return finish(lossFor(us), Termination::Mate);
            const rules::Ruling ruling = rules::judge(pos, 0);
            if (ruling.verdict == rules::Verdict::PerpetualCheck)
                return finish(lossFor(ruling.offender), Termination::PerpetualCheck);
            if (ruling.verdict == rules::Verdict::PerpetualChase)
                return finish(lossFor(ruling.offender), Termination::PerpetualChase);
            if (ruling.verdict == rules::Verdict::Draw) return finish(Result::Draw, Termination::Repetition);
            if (pos.rule60() >= RuleNoCapturePlies) return finish(Result::Draw, Termination::NoCapture);
            if (!hasAttackers(pos, Color::Red) && !hasAttackers(pos, Color::Black))
                return finish(Result::Draw, Termination::DeadDraw);
            if (int(game.plies.size()) >= settings_.maxPlies) return finish(Result::Draw, Termination::MaxPlies);

            // A label, or (with --play-nodes) a cheaper search that only picks
            // the move: more games an hour for the same number of labels.
            const bool label = !settings_.playNodes || random() % uint64_t(settings_.labelEvery) == 0;
            const SearchResult r = searcher.search(pos, label ? limits : playLimits, options);
            if (!r.best) return finish(lossFor(us), Termination::Mate);  // cannot happen: legal moves exist
            const uint8_t flags = searchFlags(pos, r);
            game.plies.push_back({r.best, storedScore(r.score),
                                  label ? flags : uint8_t((flags & ~PlyFlag::Quiet) | PlyFlag::Unlabelled)});

            // Adjudication on both sides' consecutive scores (red's view).
            const Value red = us == Color::Red ? r.score : -r.score;
            if (std::abs(red) >= settings_.winScore) {
                const Color side = red > 0 ? Color::Red : Color::Black;
                winRun = winRun > 0 && side == winner ? winRun + 1 : 1;
                winner = side;
            } else {
                winRun = 0;
            }
            drawRun = int(game.plies.size()) >= AdjudicateDrawFromPly && std::abs(red) <= AdjudicateDrawScore
                          ? drawRun + 1
                          : 0;
            pos.makeMove(r.best);
            if (winRun >= AdjudicateWinPlies)
                return finish(winner == Color::Red ? Result::RedWin : Result::BlackWin, Termination::AdjudicatedWin);
            if (drawRun >= AdjudicateDrawPlies) return finish(Result::Draw, Termination::AdjudicatedDraw);
        }
    }

private:
    const Settings& settings_;
    const Book* book_;
    const StartGames* starts_;  // nullptr: openings from the book
};

struct Tally {
    uint64_t games = 0, plies = 0, quiet = 0, unlabelled = 0;
    std::array<uint64_t, 3> results{};
    std::map<std::string, uint64_t> terminations;
    void add(const Game& g) {
        ++games;
        plies += g.plies.size();
        for (const Ply& p : g.plies) {
            quiet += (p.flags & PlyFlag::Quiet) != 0;
            unlabelled += (p.flags & PlyFlag::Unlabelled) != 0;
        }
        ++results[size_t(g.result)];
        ++terminations[terminationName(g.termination)];
    }
    std::string summary() const {
        std::string ends;
        for (const auto& [name, n] : terminations) ends += fmt::format("{}{} {}", ends.empty() ? "" : ", ", name, n);
        const std::string cheap = unlabelled ? fmt::format(", unlabelled {}", unlabelled) : std::string();
        return fmt::format("games {}, positions {} (quiet {}{}), red {} / draw {} / black {}; ends: {}", games, plies,
                           quiet, cheap, results[2], results[1], results[0], ends.empty() ? "none" : ends);
    }
};

constexpr const char* Usage =
    "usage: chariot datagen [options] <out.data>   self-play training data (resumable: rerun to continue)\n"
    "         --nodes N        nodes searched per move (default 5000)\n"
    "         --play-nodes N   search only some moves at --nodes, as training labels, and the others at\n"
    "                          N nodes (below --nodes) just to choose the move: more games an hour,\n"
    "                          fewer labels a game (default: every move at --nodes)\n"
    "         --label-every K  with --play-nodes, a move is a label with a chance of 1 in K (default 4)\n"
    "         --games N        stop after games 0..N-1 are written (default: until interrupted)\n"
    "         --threads N      games played at once (default 1)\n"
    "         --seed S         shard seed: shards with different seeds never repeat a game (default 1)\n"
    "         --book FILE      opening book walked at random first (default: chariot.book beside the binary;\n"
    "                          'none' for no book)\n"
    "         --book-plies N   at most N book plies, a random count from 0 (default 12)\n"
    "         --random-plies A-B  then A to B uniformly random legal plies (default 2-8; 0-2 with --starts)\n"
    "         --starts FILE    start from positions of the games of this PGN file instead of the book\n"
    "                          (repeat for more files; UTF-8, GBK or Big5; Chinese, WXF or ICCS moves)\n"
    "         --start-plies A-B  the position after A to B plies of a game drawn at random, clipped to\n"
    "                          its length (default 8-80)\n"
    "         --max-plies N    a game longer than N plies is a draw (default 400)\n"
    "         --win-score N    a win is adjudicated once both sides' searches have scored beyond N for\n"
    "                          8 plies in a row (default 2500: two and a half rooks)\n"
    "         --hash MB        hash table per game thread (default 16)\n"
    "         --net FILE       evaluate with this NNUE net ('embedded': the built-in one; default: the\n"
    "                          handcrafted evaluation)\n"
    "         --progress S     a progress line on stderr every S seconds (default 10)\n"
    "       chariot datagen merge <out.data> <in.data>...   concatenate shards (valid records, no duplicates)\n"
    "       chariot datagen check <file.data>...            count games, positions, results, damage\n"
    "       chariot datagen relabel [options] <in.data> <out.data>\n"
    "                          the same games with every searched position searched again: new scores\n"
    "                          and flags, the same moves and results (resumable: rerun to continue);\n"
    "                          --nodes N (default 5000), --threads N, --net FILE, --hash MB, --progress S\n"
    "                          as above; the generator's --nodes, --net and --hash give its own scores\n";

// " (12 s paused)" after a progress line's seconds, where the run stood still.
std::string pausedNote(const RunClock& clock) {
    return clock.pausedSeconds() >= 1 ? fmt::format(" ({:.0f} s paused)", clock.pausedSeconds()) : std::string();
}

int generateData(const Settings& s, std::ostream& err) {
    StartGames starts;
    if (!s.starts.empty()) {
        auto loaded = loadStarts(s.starts, err);
        if (!loaded) return 2;
        starts = std::move(*loaded);
    }
    std::unique_ptr<Book> book;
    if (s.book != "none" && s.starts.empty()) {
        std::string error;
        const std::string path = s.book.empty() ? defaultBookPath() : s.book;
        book = Book::load(path, error);
        if (!book) {
            err << "datagen: book " << path << ": " << error << (s.book.empty() ? " (continuing without)" : "") << '\n';
            if (!s.book.empty()) return 2;
        }
    }
    // Resume: keep the valid records, cut a damaged tail, skip the games done.
    std::set<uint64_t> done;
    Tally tally;
    uint64_t keepBytes = 0;
    if (std::filesystem::exists(s.out)) {
        Reader reader;
        std::string error;
        if (!reader.open(s.out, error)) return err << "datagen: " << error << '\n', 2;
        if (reader.header().seed != s.seed || reader.header().nodes != s.nodes ||
            reader.header().playNodes != s.playNodes)
            return err << fmt::format(
                       "datagen: {} holds seed {} at {} nodes (play nodes {}); continue it with the same --seed, "
                       "--nodes and --play-nodes, or write a new file\n",
                       s.out, reader.header().seed, reader.header().nodes, reader.header().playNodes),
                   2;
        while (auto g = reader.next()) {
            done.insert(g->index);
            tally.add(*g);
        }
        keepBytes = reader.goodBytes();
        if (reader.damaged()) err << "datagen: " << reader.damage() << "; the rest is cut and replayed\n";
        std::filesystem::resize_file(s.out, keepBytes);
        err << fmt::format("datagen: resuming {}: {}\n", s.out, tally.summary());
    }
    std::FILE* file = std::fopen(s.out.c_str(), keepBytes ? "ab" : "wb");
    if (!file) return err << "datagen: cannot write " << s.out << '\n', 2;
    if (!keepBytes) {
        const auto header = encodeHeader(s.seed, s.nodes, s.playNodes);
        std::fwrite(header.data(), 1, header.size(), file);
        std::fflush(file);
    }

    // Games not yet written, in order: the gaps first, then on from the end.
    std::vector<uint64_t> gaps;
    const uint64_t end = done.empty() ? 0 : *done.rbegin() + 1;
    for (uint64_t i = 0; i < end; ++i)
        if (!done.count(i)) gaps.push_back(i);
    std::atomic<uint64_t> cursor{0};
    auto nextIndex = [&]() -> std::optional<uint64_t> {
        const uint64_t k = cursor.fetch_add(1);
        const uint64_t index = k < gaps.size() ? gaps[k] : end + (k - gaps.size());
        if (s.games && index >= s.games) return std::nullopt;
        return index;
    };

    Generator generator(s, book.get(), &starts);
    std::mutex writeMutex;
    Tally session;
    std::atomic<int> running{s.threads};
    std::vector<std::thread> workers;
    for (int t = 0; t < s.threads; ++t)
        workers.emplace_back([&] {
            TranspositionTable tt(size_t(s.hashMB));
            Searcher searcher(tt);
            while (auto index = nextIndex()) {
                const Game game = generator.play(*index, tt, searcher);
                const auto bytes = encodeRecord(game);
                std::lock_guard lock(writeMutex);
                std::fwrite(bytes.data(), 1, bytes.size(), file);
                std::fflush(file);
                session.add(game);
            }
            --running;
        });
    const auto start = std::chrono::steady_clock::now();
    RunClock clock(start);
    auto report = [&](bool final) {
        std::lock_guard lock(writeMutex);
        clock.tick(std::chrono::steady_clock::now());
        const double seconds = clock.seconds();
        err << fmt::format(
            "datagen: {:.0f} s{}, this run {} games, {} positions ({:.0f}/s, quiet {:.0f}/s); "
            "file: {} games, {} positions\n",
            seconds, pausedNote(clock), session.games, session.plies, double(session.plies) / std::max(seconds, 1e-3),
            double(session.quiet) / std::max(seconds, 1e-3), tally.games + session.games, tally.plies + session.plies);
        if (final) err << "datagen: this run: " << session.summary() << '\n';
    };
    auto last = start;
    while (running.load() > 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        clock.tick(std::chrono::steady_clock::now());
        if (s.progressSeconds > 0 &&
            std::chrono::steady_clock::now() - last >= std::chrono::seconds(s.progressSeconds)) {
            last = std::chrono::steady_clock::now();
            report(false);
        }
    }
    for (auto& w : workers) w.join();
    std::fclose(file);
    report(true);
    return 0;
}

// ---------------------------------------------------------------------------
// Relabelling: the same games, every searched position searched again (with
// another net, or more nodes). Each game is replayed as the generator played
// it: a cleared hash table and history, the opening check's search at the
// position after the opening plies, then one search per position in turn,
// so a game's new labels depend on the game alone, not on the thread or the
// games before it, and the generator's own labels come back exactly given
// its nodes, net and hash size (unless it had --play-nodes: then every searched
// ply, its unlabelled ones too, is searched at --nodes and becomes a label).

struct RelabelSettings {
    std::string in, out;
    uint32_t nodes = 5000;
    int threads = 1;
    int hashMB = 16;
    std::string net;  // empty: the handcrafted evaluation
    std::shared_ptr<const nnue::Network> network;
    int progressSeconds = 10;
};

// The flags a relabelling rewrites: every searched ply becomes a label, the
// generator's unlabelled ones (--play-nodes) too.
constexpr uint8_t SearchFlagBits = PlyFlag::Quiet | PlyFlag::InCheck | PlyFlag::CaptureBest | PlyFlag::Unlabelled;

// One game relabelled; an error when its record does not replay (a start
// FEN that does not read or a move that is not legal where it stands).
struct Relabelled {
    Game game;
    std::string error;
    uint64_t searched = 0;
};

Relabelled relabelGame(Game game, const RelabelSettings& s, TranspositionTable& tt, Searcher& searcher) {
    Relabelled out;
    tt.clear();
    searcher.clearHistory();
    SearchOptions options;
    options.threads = 1;
    options.net = s.network;
    Position pos;
    if (auto error = pos.setFen(game.startFen)) {
        out.error = fmt::format("game {} (seed {}): start FEN does not read: {}", game.index, game.seed, *error);
        return out;
    }
    bool checked = false;  // the opening check's search has been repeated
    for (size_t i = 0; i < game.plies.size(); ++i) {
        Ply& ply = game.plies[i];
        MoveList legal;
        generateLegal(pos, legal);
        if (std::find(legal.moves, legal.moves + legal.size, ply.move) == legal.moves + legal.size) {
            out.error = fmt::format("game {} (seed {}): ply {} is not a legal move", game.index, game.seed, i + 1);
            return out;
        }
        if (!(ply.flags & PlyFlag::Opening)) {
            if (!checked) {
                SearchLimits quick;
                quick.nodes = openingCheckNodes(s.nodes);
                searcher.search(pos, quick, options);
                checked = true;
            }
            SearchLimits limits;
            limits.nodes = s.nodes;
            const SearchResult r = searcher.search(pos, limits, options);
            // The best move may differ from the move played: the flags say what
            // this search found (a capture best is no quiet position).
            ply.score = storedScore(r.score);
            ply.flags = uint8_t((ply.flags & ~SearchFlagBits) | searchFlags(pos, r));
            ++out.searched;
        }
        pos.makeMove(ply.move);
    }
    out.game = std::move(game);
    return out;
}

// Same game apart from the search's labels?
bool sameGame(const Game& a, const Game& b) {
    if (a.seed != b.seed || a.index != b.index || a.result != b.result || a.termination != b.termination ||
        a.startFen != b.startFen || a.plies.size() != b.plies.size())
        return false;
    for (size_t i = 0; i < a.plies.size(); ++i)
        if (a.plies[i].move != b.plies[i].move ||
            (a.plies[i].flags & ~SearchFlagBits) != (b.plies[i].flags & ~SearchFlagBits))
            return false;
    return true;
}

int relabelData(const RelabelSettings& s, std::ostream& err) {
    Reader reader;
    std::string error;
    if (!reader.open(s.in, error)) return err << "datagen relabel: " << error << '\n', 2;
    if (std::filesystem::exists(s.out) && std::filesystem::equivalent(s.in, s.out))
        return err << "datagen relabel: the output is the input\n", 2;
    const uint64_t seed = reader.header().seed;

    // Resume: OUT's valid games must be IN's first games, relabelled at the
    // same nodes; they are kept and the rest is appended.
    uint64_t keepBytes = 0, kept = 0, keptPositions = 0;
    std::error_code ec;
    if (std::filesystem::exists(s.out) && std::filesystem::file_size(s.out, ec) > 0) {
        Reader done;
        if (!done.open(s.out, error)) return err << "datagen relabel: " << error << "; give another output file\n", 2;
        if (done.header().seed != seed || done.header().nodes != s.nodes)
            return err << fmt::format(
                       "datagen relabel: {} holds seed {} at {} nodes, not seed {} at {} nodes; continue it with "
                       "its own input and --nodes, or write a new file\n",
                       s.out, done.header().seed, done.header().nodes, seed, s.nodes),
                   2;
        while (auto g = done.next()) {
            auto original = reader.next();
            if (!original || !sameGame(*original, *g))
                return err << fmt::format(
                           "datagen relabel: game {} of {} (index {}) is not game {} of {}: {} was not made from "
                           "this input; write a new file\n",
                           kept + 1, s.out, g->index, kept + 1, s.in, s.out),
                       2;
            ++kept;
            for (const Ply& p : g->plies) keptPositions += !(p.flags & PlyFlag::Opening);
        }
        keepBytes = done.goodBytes();
        if (done.damaged()) err << "datagen relabel: " << s.out << ": " << done.damage() << "; the rest is cut\n";
    }
    if (keepBytes) {
        std::filesystem::resize_file(s.out, keepBytes, ec);
        if (ec) return err << "datagen relabel: cannot write " << s.out << ": " << ec.message() << '\n', 2;
        err << fmt::format("datagen relabel: resuming {}: {} game(s) kept\n", s.out, kept);
    }
    std::FILE* file = std::fopen(s.out.c_str(), keepBytes ? "ab" : "wb");
    if (!file) return err << "datagen relabel: cannot write " << s.out << '\n', 2;
    if (!keepBytes) {
        const auto header = encodeHeader(seed, s.nodes);
        std::fwrite(header.data(), 1, header.size(), file);
    }

    // The main thread reads IN and writes OUT in input order; the workers
    // relabel the games of a window of at most a few per thread.
    struct Shared {
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<std::pair<uint64_t, Game>> todo;
        std::map<uint64_t, Relabelled> finished;
        bool closing = false;
    } shared;
    std::vector<std::thread> workers;
    for (int t = 0; t < s.threads; ++t)
        workers.emplace_back([&] {
            TranspositionTable tt(size_t(s.hashMB));
            Searcher searcher(tt);
            while (true) {
                std::pair<uint64_t, Game> job;
                {
                    std::unique_lock lock(shared.mutex);
                    shared.wake.wait(lock, [&] { return shared.closing || !shared.todo.empty(); });
                    if (shared.todo.empty()) return;
                    job = std::move(shared.todo.front());
                    shared.todo.pop_front();
                }
                Relabelled r = relabelGame(std::move(job.second), s, tt, searcher);
                std::lock_guard lock(shared.mutex);
                shared.finished.emplace(job.first, std::move(r));
                shared.wake.notify_all();
            }
        });

    const size_t window = size_t(s.threads) * 4;
    const uint64_t inBytes = std::filesystem::file_size(s.in, ec);
    const uint64_t startBytes = reader.goodBytes();
    uint64_t queued = 0, written = 0, doneBytes = startBytes, positions = 0;
    bool inputEnd = false;
    int status = 0;
    const auto start = std::chrono::steady_clock::now();
    RunClock clock(start);
    auto last = start;
    auto report = [&](bool final) {
        clock.tick(std::chrono::steady_clock::now());
        const double seconds = clock.seconds();
        const double rate = double(positions) / std::max(seconds, 1e-3);
        const uint64_t run = doneBytes - startBytes, left = inBytes > doneBytes ? inBytes - doneBytes : 0;
        const std::string eta = final ? std::string("done")
                                : run ? fmt::format("about {:.0f} s left", seconds * double(left) / double(run))
                                      : "time left unknown";
        err << fmt::format(
            "datagen relabel: {:.0f} s{}, games {} (this run {}), positions searched this run {} ({:.0f}/s), "
            "{:.0f}% of the input; {}\n",
            seconds, pausedNote(clock), kept + written, written, positions, rate,
            inBytes ? 100.0 * double(doneBytes) / double(inBytes) : 100.0, eta);
    };
    while (true) {
        // Fill the window.
        while (!inputEnd && queued - written < window) {
            auto g = reader.next();
            if (!g) {
                inputEnd = true;
                if (reader.damaged())
                    err << "datagen relabel: " << s.in << ": " << reader.damage()
                        << "; the games before it are relabelled\n";
                break;
            }
            std::lock_guard lock(shared.mutex);
            shared.todo.emplace_back(queued++, std::move(*g));
            shared.wake.notify_all();
        }
        if (inputEnd && written == queued) break;
        // Write what is ready, in order.
        std::unique_lock lock(shared.mutex);
        shared.wake.wait_for(lock, std::chrono::milliseconds(100), [&] { return shared.finished.count(written) > 0; });
        bool stop = false;
        while (shared.finished.count(written)) {
            Relabelled r = std::move(shared.finished.at(written));
            shared.finished.erase(written);
            if (!r.error.empty()) {
                err << "datagen relabel: " << s.in << ": " << r.error << "; stopping there\n";
                status = 1;
                stop = true;
                break;
            }
            const auto bytes = encodeRecord(r.game);
            std::fwrite(bytes.data(), 1, bytes.size(), file);
            ++written;
            doneBytes += bytes.size();  // the same size as the input record
            positions += r.searched;
        }
        if (stop) {
            shared.todo.clear();
            break;
        }
        lock.unlock();
        std::fflush(file);
        clock.tick(std::chrono::steady_clock::now());
        if (s.progressSeconds > 0 &&
            std::chrono::steady_clock::now() - last >= std::chrono::seconds(s.progressSeconds)) {
            last = std::chrono::steady_clock::now();
            report(false);
        }
    }
    {
        std::lock_guard lock(shared.mutex);
        shared.closing = true;
        shared.wake.notify_all();
    }
    for (auto& w : workers) w.join();
    const bool writeError = std::ferror(file) != 0;
    if (std::fclose(file) != 0 || writeError)
        return err << "datagen relabel: cannot write " << s.out << " (disk full?)\n", 2;
    report(true);
    err << fmt::format("datagen relabel: wrote {}: {} game(s), {} searched position(s) ({} kept from before)\n", s.out,
                       kept + written, keptPositions + positions, kept);
    return status;
}

int relabelCommand(const std::vector<std::string>& args, std::ostream& err) {
    RelabelSettings s;
    std::vector<std::string> files;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto number = [&](auto& out, auto lo, auto hi) {
            using T = std::remove_reference_t<decltype(out)>;
            if (i + 1 >= args.size() || !tools::parseNumber(args[++i], out, T(lo), T(hi))) {
                err << fmt::format("datagen relabel: {} needs a number from {} to {}\n", a, lo, hi);
                return false;
            }
            return true;
        };
        bool ok = true;
        if (a == "--nodes")
            ok = number(s.nodes, 1, 100000000);
        else if (a == "--threads")
            ok = number(s.threads, 1, 256);
        else if (a == "--hash")
            ok = number(s.hashMB, 1, 4096);
        else if (a == "--progress")
            ok = number(s.progressSeconds, 0, 86400);
        else if (a == "--net") {
            if (i + 1 >= args.size())
                ok = false, err << "datagen relabel: --net needs a file (or 'embedded')\n";
            else
                s.net = args[++i];
        } else if (!a.empty() && a[0] == '-') {
            err << "datagen relabel: unknown option " << a << '\n' << Usage;
            return 2;
        } else {
            files.push_back(a);
        }
        if (!ok) return 2;
    }
    if (files.size() != 2) return err << "datagen relabel: give an input and an output file\n" << Usage, 2;
    s.in = files[0];
    s.out = files[1];
    if (!s.net.empty()) {
        std::string error;
        s.network = s.net == "embedded" ? nnue::embeddedNetwork() : nnue::Network::load(s.net, error);
        if (!s.network) {
            err << "datagen relabel: --net " << s.net << ": "
                << (s.net == "embedded" ? nnue::embeddedNetworkError() : error) << '\n';
            return 2;
        }
        err << "datagen relabel: evaluating with the net " << s.network->name() << '\n';
    }
    return relabelData(s, err);
}

int mergeData(const std::vector<std::string>& args, std::ostream& err) {
    if (args.size() < 2) return err << Usage, 2;
    const std::string& out = args[0];
    for (size_t i = 1; i < args.size(); ++i)
        if (std::filesystem::exists(out) && std::filesystem::exists(args[i]) &&
            std::filesystem::equivalent(out, args[i]))
            return err << "datagen merge: the output is also an input\n", 2;
    std::FILE* file = std::fopen(out.c_str(), "wb");
    if (!file) return err << "datagen merge: cannot write " << out << '\n', 2;
    std::set<std::pair<uint64_t, uint64_t>> seen;
    Tally tally;
    uint64_t duplicates = 0;
    bool headerWritten = false;
    int status = 0;
    for (size_t i = 1; i < args.size(); ++i) {
        Reader reader;
        std::string error;
        if (!reader.open(args[i], error)) {
            err << "datagen merge: " << error << '\n';
            status = 1;
            continue;
        }
        if (!headerWritten) {
            const auto header = encodeHeader(reader.header().seed, reader.header().nodes, reader.header().playNodes);
            std::fwrite(header.data(), 1, header.size(), file);
            headerWritten = true;
        }
        while (auto g = reader.next()) {
            if (!seen.insert({g->seed, g->index}).second) {
                ++duplicates;
                continue;
            }
            const auto bytes = encodeRecord(*g);
            std::fwrite(bytes.data(), 1, bytes.size(), file);
            tally.add(*g);
        }
        if (reader.damaged()) err << "datagen merge: " << args[i] << ": " << reader.damage() << "; rest skipped\n";
    }
    if (!headerWritten) {
        const auto header = encodeHeader(0, 0);
        std::fwrite(header.data(), 1, header.size(), file);
    }
    std::fclose(file);
    err << fmt::format("datagen merge: wrote {}: {}; {} duplicate game(s) skipped\n", out, tally.summary(), duplicates);
    return status;
}

int checkData(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
              std::ostream& err) {
    if (args.empty()) return err << Usage, 2;
    int status = 0;
    for (const auto& path : args) {
        Reader reader;
        std::string error;
        if (!reader.open(path, error)) {
            err << "datagen check: " << error << '\n';
            status = 1;
            continue;
        }
        Tally tally;
        while (auto g = reader.next()) tally.add(*g);
        const uint32_t play = reader.header().playNodes;
        print(fmt::format("{}: seed {}, {} nodes/move{}; {}", path, reader.header().seed, reader.header().nodes,
                          play ? fmt::format(" (labels; other moves {} nodes)", play) : std::string(),
                          tally.summary()));
        if (reader.damaged()) {
            print(fmt::format("{}: {}", path, reader.damage()));
            status = 1;
        }
    }
    return status;
}

}  // namespace

int runDatagenTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                   std::ostream& err) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        tools::printLines(print, Usage);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "merge") return mergeData(std::vector<std::string>(args.begin() + 1, args.end()), err);
    if (args[0] == "relabel") return relabelCommand(std::vector<std::string>(args.begin() + 1, args.end()), err);
    if (args[0] == "check") return checkData(std::vector<std::string>(args.begin() + 1, args.end()), print, err);

    Settings s;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
        auto number = [&](auto& out, auto lo, auto hi) {
            const std::string* v = value();
            using T = std::remove_reference_t<decltype(out)>;
            if (!v || !tools::parseNumber(*v, out, T(lo), T(hi))) {
                err << fmt::format("datagen: {} needs a number from {} to {}\n", a, lo, hi);
                return false;
            }
            return true;
        };
        bool ok = true;
        if (a == "--nodes")
            ok = number(s.nodes, 1, 100000000);
        else if (a == "--play-nodes")
            ok = number(s.playNodes, 1, 100000000);
        else if (a == "--label-every")
            ok = number(s.labelEvery, 2, 1000), s.labelEveryGiven = true;
        else if (a == "--games")
            ok = number(s.games, 0, uint64_t(1) << 40);
        else if (a == "--threads")
            ok = number(s.threads, 1, 256);
        else if (a == "--seed")
            ok = number(s.seed, 0, UINT64_MAX);
        else if (a == "--book-plies")
            ok = number(s.bookPlies, 0, 100);
        else if (a == "--max-plies")
            ok = number(s.maxPlies, 10, 2000);
        else if (a == "--win-score")
            ok = number(s.winScore, 300, 30000);
        else if (a == "--hash")
            ok = number(s.hashMB, 1, 4096);
        else if (a == "--progress")
            ok = number(s.progressSeconds, 0, 86400);
        else if (a == "--book") {
            const std::string* v = value();
            if (!v)
                ok = false, err << "datagen: --book needs a file (or 'none')\n";
            else
                s.book = *v;
        } else if (a == "--net") {
            const std::string* v = value();
            if (!v)
                ok = false, err << "datagen: --net needs a file (or 'embedded')\n";
            else
                s.net = *v;
        } else if (a == "--starts") {
            const std::string* v = value();
            if (!v)
                ok = false, err << "datagen: --starts needs a PGN file\n";
            else
                s.starts.push_back(*v);
        } else if (a == "--random-plies" || a == "--start-plies") {
            const bool randomPlies = a == "--random-plies";
            int& lo = randomPlies ? s.randomMin : s.startMin;
            int& hi = randomPlies ? s.randomMax : s.startMax;
            const int most = randomPlies ? 100 : 1000;
            const std::string* v = value();
            const size_t dash = v ? v->find('-') : std::string::npos;
            ok = v && dash != std::string::npos && tools::parseNumber(v->substr(0, dash), lo, 0, most) &&
                 tools::parseNumber(v->substr(dash + 1), hi, lo, most);
            if (!ok) err << fmt::format("datagen: {} needs A-B with 0 <= A <= B <= {}\n", a, most);
            s.randomGiven = s.randomGiven || randomPlies;
        } else if (!a.empty() && a[0] == '-') {
            err << "datagen: unknown option " << a << '\n' << Usage;
            return 2;
        } else if (s.out.empty()) {
            s.out = a;
        } else {
            err << "datagen: one output file only\n" << Usage;
            return 2;
        }
        if (!ok) return 2;
    }
    if (s.out.empty()) return err << Usage, 2;
    if (s.labelEveryGiven && !s.playNodes) return err << "datagen: --label-every needs --play-nodes\n", 2;
    if (s.playNodes && s.playNodes >= s.nodes)
        return err << fmt::format("datagen: --play-nodes {} must be below --nodes {}\n", s.playNodes, s.nodes), 2;
    if (!s.starts.empty() && !s.book.empty() && s.book != "none")
        return err << "datagen: --starts and --book are two kinds of opening; give one\n", 2;
    if (!s.starts.empty() && !s.randomGiven) s.randomMin = 0, s.randomMax = 2;
    if (!s.net.empty()) {
        std::string error;
        s.network = s.net == "embedded" ? nnue::embeddedNetwork() : nnue::Network::load(s.net, error);
        if (!s.network) {
            err << "datagen: --net " << s.net << ": " << (s.net == "embedded" ? nnue::embeddedNetworkError() : error)
                << '\n';
            return 2;
        }
        err << "datagen: evaluating with the net " << s.network->name() << '\n';
    }
    return generateData(s, err);
}

}  // namespace chariot::datagen
