#include "chariot/ucci.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>

#include <fmt/format.h>

#include "chariot/bench.h"
#include "chariot/eval.h"
#include "chariot/movegen.h"

namespace chariot {

namespace {

constexpr std::string_view EngineName = "Chariot";
constexpr std::string_view EngineVersion = "0.1";
constexpr std::string_view EngineAuthor = "the Chariot developers";

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> tokenize(const std::string& line) {
    std::vector<std::string> tokens;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i > start) tokens.push_back(line.substr(start, i - start));
    }
    return tokens;
}

std::string joinTokens(const std::vector<std::string>& tokens, size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to && i < tokens.size(); ++i) {
        if (!out.empty()) out += ' ';
        out += tokens[i];
    }
    return out;
}

// Integer argument: clamps to [lo, hi]; nullopt if it is not a number.
std::optional<int64_t> parseInt(const std::string& text, int64_t lo, int64_t hi) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range) {
        // Too many digits: saturate in the direction of the sign.
        value = (begin != end && *begin == '-') ? lo : hi;
    } else if (ec != std::errc() || ptr != end) {
        // Accept a fractional part ("1.5") by truncating it.
        if (ec == std::errc() && ptr != end && *ptr == '.' &&
            std::all_of(ptr + 1, end, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::clamp(value, lo, hi);
        return std::nullopt;
    }
    return std::clamp(value, lo, hi);
}

std::optional<bool> parseBool(const std::string& text) {
    std::string v = lower(text);
    if (v == "true" || v == "on" || v == "1" || v == "yes") return true;
    if (v == "false" || v == "off" || v == "0" || v == "no") return false;
    return std::nullopt;
}

const char* const LevelNames[] = {"none", "small", "medium", "large"};
const char* const RandomnessNames[] = {"none", "tiny", "small", "medium", "large", "huge"};

}  // namespace

// ---------------------------------------------------------------------------

void LineSplitter::feed(const char* data, size_t size, std::vector<Line>& out) {
    for (size_t i = 0; i < size; ++i) {
        char c = data[i];
        if (c == '\n') {
            out.push_back({std::move(current_), truncated_});
            current_.clear();
            truncated_ = false;
        } else if (current_.size() >= MaxLine) {
            truncated_ = true;
        } else {
            // CR (of CRLF), NUL, tabs and other control bytes act as spaces.
            current_ += static_cast<unsigned char>(c) < 32 ? ' ' : c;
        }
    }
}

std::optional<LineSplitter::Line> LineSplitter::finish() {
    if (current_.empty() && !truncated_) return std::nullopt;
    Line line{std::move(current_), truncated_};
    current_.clear();
    truncated_ = false;
    return line;
}

// ---------------------------------------------------------------------------

struct Protocol::OptionSpec {
    std::string ucciName;   // one lower-case word
    std::string uciName;    // the UCI spelling
    std::string type;       // check, spin, combo, string, button
    std::string defaultValue;
    int64_t min = 0, max = 0;
    std::vector<std::string> vars;
};

namespace {

// The directory of the running executable: the default book lives beside it.
}  // namespace

Protocol::Protocol(std::function<void(const std::string&)> write, const WorkCaps& caps)
    : write_(std::move(write)),
      caps_(caps),
      engine_(std::min(Engine::DefaultHashMB, caps_.hashMB)),
      defaultBookFiles_(defaultBookPath()) {
    // A missing default book is not an error: the engine just plays without one.
    engine_.setBookFiles(defaultBookFiles_);
}

Protocol::~Protocol() {
    if (searchThread_.joinable()) {
        engine_.stop();
        searchThread_.join();
    }
}

std::vector<Protocol::OptionSpec> Protocol::optionTable() {
    std::vector<OptionSpec> t;
    auto levels = std::vector<std::string>(std::begin(LevelNames), std::end(LevelNames));
    t.push_back({"usemillisec", "", "check", useMillisec_ ? "true" : "false", 0, 0, {}});
    t.push_back({"batch", "", "check", "false", 0, 0, {}});
    t.push_back({"debug", "Debug", "check", "false", 0, 0, {}});
    t.push_back({"ponder", "Ponder", "check", "false", 0, 0, {}});
    t.push_back({"usebook", "OwnBook", "check", engine_.useBook ? "true" : "false", 0, 0, {}});
    t.push_back({"bookfiles", "BookFiles", "string", engine_.bookFiles(), 0, 0, {}});
    t.push_back({"hashsize", "Hash", "spin", std::to_string(Engine::DefaultHashMB), int64_t(TranspositionTable::MinMB),
                 int64_t(TranspositionTable::MaxMB), {}});
    t.push_back({"threads", "Threads", "spin", "1", 1, 256, {}});
    t.push_back({"multipv", "MultiPV", "spin", "1", 1, 128, {}});
    t.push_back({"moveoverhead", "Move Overhead", "spin", "30", 0, 5000, {}});
    t.push_back({"pruning", "Pruning", "combo", "large", 0, 0, levels});
    t.push_back({"knowledge", "Knowledge", "combo", "large", 0, 0, levels});
    t.push_back({"chaserule", "ChaseRule", "check", "true", 0, 0, {}});
    t.push_back({"randomness", "Randomness", "combo", "none", 0, 0,
                 std::vector<std::string>(std::begin(RandomnessNames), std::end(RandomnessNames))});
    t.push_back({"newgame", "Clear Hash", "button", "", 0, 0, {}});
    return t;
}

void Protocol::say(const std::string& line) {
    std::lock_guard lock(writeMutex_);
    write_(line);
}

void Protocol::info(const std::string& message) { say("info string " + message); }

void Protocol::post(Message m) {
    {
        std::lock_guard lock(queueMutex_);
        queue_.push_back(std::move(m));
    }
    queueCv_.notify_one();
}

int Protocol::runStdin() {
    std::thread reader([this] {
        LineSplitter splitter;
        std::vector<LineSplitter::Line> lines;
        char buffer[65536];
        while (true) {
            ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            lines.clear();
            splitter.feed(buffer, size_t(n), lines);
            for (auto& l : lines) post({Event::Line, std::move(l.text), l.truncated});
        }
        if (auto last = splitter.finish()) post({Event::Line, std::move(last->text), last->truncated});
        post({Event::EndOfInput, {}, false});
    });
    reader.detach();  // may stay blocked in read() after quit; process exit ends it
    return loop();
}

int Protocol::runLines(const std::vector<std::string>& lines) {
    for (const auto& l : lines) post({Event::Line, l, false});
    post({Event::EndOfInput, {}, false});
    return loop();
}

int Protocol::loop() {
    while (true) {
        Message m;
        {
            std::unique_lock lock(queueMutex_);
            queueCv_.wait(lock, [this] { return !queue_.empty(); });
            m = std::move(queue_.front());
            queue_.pop_front();
        }
        switch (m.event) {
            case Event::SearchDone:
                finishSearch();
                if (!drainDeferred()) return 0;
                break;
            case Event::EndOfInput:
                inputClosed_ = true;
                if (!searching_) return 0;
                // A finite search may finish and answer; one that would never
                // end by itself (infinite, ponder) is stopped.
                deferred_.push_back(m);
                if (currentLimits_.infinite || currentLimits_.ponder) engine_.stop();
                break;
            case Event::Line:
                if (searching_)
                    handleWhileSearching(tokenize(m.text), m.text, m.truncated);
                else if (!handle(m.text, m.truncated))
                    return 0;
                break;
        }
    }
}

bool Protocol::drainDeferred() {
    while (!searching_ && !deferred_.empty()) {
        Message d = std::move(deferred_.front());
        deferred_.pop_front();
        if (d.event == Event::EndOfInput) return false;
        if (!handle(d.text, d.truncated)) return false;
    }
    return true;
}

void Protocol::handleWhileSearching(const std::vector<std::string>& tokens, const std::string& line, bool truncated) {
    const std::string cmd = tokens.empty() ? "" : lower(tokens[0]);
    if (cmd == "isready") {
        say("readyok");
        return;
    }
    if (cmd == "quit") {
        // Stop now; what came before the quit is still carried out (but no
        // new search), then the engine says bye.
        quitting_ = true;
        engine_.stop();
    } else if (!batch_) {
        if (cmd == "stop") {
            engine_.stop();
            return;
        }
        if (cmd == "ponderhit") {
            if (tokens.size() > 1 && lower(tokens[1]) == "draw") drawOffered_ = true;
            engine_.ponderhit();
            return;
        }
        if (cmd == "probe") {
            cmdProbe(tokens);
            return;
        }
    }
    // Everything else waits until the search has answered.
    deferred_.push_back({Event::Line, line, truncated});
}

bool Protocol::handle(const std::string& line, bool truncated) {
    auto tokens = tokenize(line);
    if (truncated) {
        info(fmt::format("input line longer than {} bytes ignored", LineSplitter::MaxLine));
        return true;
    }
    if (tokens.empty()) return true;
    const std::string cmd = lower(tokens[0]);

    if (cmd == "ucci") {
        cmdHandshake(Dialect::Ucci);
    } else if (cmd == "uci") {
        cmdHandshake(Dialect::Uci);
    } else if (cmd == "isready") {
        say("readyok");
    } else if (cmd == "quit") {
        say("bye");
        return false;
    } else if (cmd == "setoption") {
        cmdSetOption(tokens, line);
    } else if (cmd == "position") {
        cmdPosition(tokens, 1);
    } else if (cmd == "fen" || cmd == "startpos") {
        cmdPosition(tokens, 0);  // UCI-Cyclone style: no "position" keyword
    } else if (cmd == "banmoves") {
        cmdBanMoves(tokens);
    } else if (cmd == "go") {
        if (quitting_)
            info("go ignored: quit is pending");
        else
            cmdGo(tokens);
    } else if (cmd == "stop") {
        // Not searching. The UCCI spec asks for nobestmove; UCI expects nothing.
        if (dialect_ == Dialect::Ucci) say("nobestmove");
    } else if (cmd == "ponderhit") {
        // Not searching: nothing to convert.
    } else if (cmd == "probe") {
        cmdProbe(tokens);
    } else if (cmd == "ucinewgame" || cmd == "uccinewgame") {
        engine_.newGame();
    } else if (cmd == "d" || cmd == "display") {
        cmdDisplay();
    } else if (cmd == "eval") {
        std::string report = evalReport(engine_.position());
        size_t start = 0;
        while (start < report.size()) {
            size_t end = report.find('\n', start);
            if (end == std::string::npos) end = report.size();
            say(report.substr(start, end - start));
            start = end + 1;
        }
    } else if (cmd == "perft") {
        cmdPerft(tokens);
    } else if (cmd == "bench") {
        cmdBench(tokens);
    } else if (cmd == "help") {
        cmdHelp();
    } else {
        std::string shown = tokens[0].substr(0, 32);
        info(fmt::format("unknown command '{}' (try 'help')", shown));
    }
    return true;
}

void Protocol::cmdHandshake(Dialect d) {
    dialect_ = d;
    handshakeDone_ = true;
    if (d == Dialect::Ucci) {
        say(fmt::format("id name {} {}", EngineName, EngineVersion));
        say(fmt::format("id version {}", EngineVersion));
        say("id copyright 2026 the Chariot developers, MIT licence");
        say(fmt::format("id author {}", EngineAuthor));
        for (const auto& o : optionTable()) {
            std::string line = fmt::format("option {} type {}", o.ucciName, o.type);
            if (o.type == "spin") line += fmt::format(" min {} max {}", o.min, o.max);
            if (o.type == "combo")
                for (const auto& v : o.vars) line += " var " + v;
            if (o.type != "button") line += " default " + (o.defaultValue.empty() ? "<empty>" : o.defaultValue);
            say(line);
        }
        say("ucciok");
    } else {
        say(fmt::format("id name {} {}", EngineName, EngineVersion));
        say(fmt::format("id author {}", EngineAuthor));
        for (const auto& o : optionTable()) {
            if (o.uciName.empty()) continue;
            std::string line = fmt::format("option name {} type {}", o.uciName, o.type);
            if (o.type != "button") line += " default " + (o.defaultValue.empty() ? "<empty>" : o.defaultValue);
            if (o.type == "spin") line += fmt::format(" min {} max {}", o.min, o.max);
            if (o.type == "combo")
                for (const auto& v : o.vars) line += " var " + v;
            say(line);
        }
        say("uciok");
    }
}

void Protocol::cmdSetOption(const std::vector<std::string>& tokens, const std::string& line) {
    (void)line;
    std::string name, value;
    // UCI: setoption name <id words> [value <x words>]; UCCI: setoption <name> [<value words>].
    if (tokens.size() >= 2 && lower(tokens[1]) == "name") {
        size_t valueAt = tokens.size();
        for (size_t i = 2; i < tokens.size(); ++i)
            if (lower(tokens[i]) == "value") {
                valueAt = i;
                break;
            }
        name = joinTokens(tokens, 2, valueAt);
        value = joinTokens(tokens, valueAt + 1, tokens.size());
    } else if (tokens.size() >= 2) {
        name = tokens[1];
        value = joinTokens(tokens, 2, tokens.size());
    }
    if (name.empty()) {
        info("setoption needs an option name");
        return;
    }
    setOptionValue(name, value);
}

bool Protocol::setOptionValue(const std::string& rawName, const std::string& value) {
    // Match either spelling, case-insensitively; spaces and underscores alike.
    auto canon = [](std::string s) {
        s = lower(std::move(s));
        s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return c == ' ' || c == '_'; }), s.end());
        return s;
    };
    const std::string name = canon(rawName);
    std::string key;
    for (const auto& o : optionTable())
        if (canon(o.ucciName) == name || (!o.uciName.empty() && canon(o.uciName) == name)) key = o.ucciName;
    if (name == "clearhash" || name == "ucinewgame") key = "newgame";
    if (key.empty()) {
        info(fmt::format("unknown option '{}' ignored", rawName.substr(0, 40)));
        return false;
    }
    auto badValue = [&](std::string_view expected) {
        info(fmt::format("option {}: '{}' is not {}; unchanged", key, value.substr(0, 40), expected));
        return false;
    };
    auto boolValue = [&]() -> std::optional<bool> {
        auto b = parseBool(value);
        if (!b) badValue("true or false");
        return b;
    };
    auto levelValue = [&](const char* const* names, int count) -> std::optional<int> {
        std::string v = lower(value);
        for (int i = 0; i < count; ++i)
            if (v == names[i]) return i;
        std::string list;
        for (int i = 0; i < count; ++i) list += (i ? ", " : "") + std::string(names[i]);
        badValue("one of " + list);
        return std::nullopt;
    };
    auto spinValue = [&](int64_t lo, int64_t hi) -> std::optional<int64_t> {
        auto n = parseInt(value, INT64_MIN, INT64_MAX);
        if (!n) {
            badValue(fmt::format("a number from {} to {}", lo, hi));
            return std::nullopt;
        }
        if (*n < lo || *n > hi) {
            info(fmt::format("option {}: {} is out of range, using {}", key, *n, std::clamp(*n, lo, hi)));
            return std::clamp(*n, lo, hi);
        }
        return n;
    };

    if (key == "usemillisec") {
        if (auto b = boolValue()) useMillisec_ = *b;
    } else if (key == "batch") {
        if (auto b = boolValue()) batch_ = *b;
    } else if (key == "debug") {
        if (auto b = boolValue()) debug_ = *b;
    } else if (key == "ponder") {
        if (auto b = boolValue()) ponderOption_ = *b;
    } else if (key == "usebook") {
        if (auto b = boolValue()) engine_.useBook = *b;
    } else if (key == "bookfiles") {
        std::string files = value;
        if (lower(files) == "<empty>") files.clear();
        auto errors = engine_.setBookFiles(files);
        for (const auto& e : errors) info("bookfiles: " + e);
        if (!files.empty() && errors.empty()) info(fmt::format("bookfiles: {} book(s) loaded", engine_.loadedBooks()));
    } else if (key == "hashsize") {
        if (auto n = spinValue(int64_t(TranspositionTable::MinMB), int64_t(TranspositionTable::MaxMB))) {
            size_t got = engine_.setHashMB(std::min(size_t(*n), caps_.hashMB));
            if (got != size_t(*n)) info(fmt::format("hash table is {} MB", got));
        }
    } else if (key == "threads") {
        if (auto n = spinValue(1, 256)) engine_.searchOptions.threads = int(std::min<int64_t>(*n, caps_.threads));
    } else if (key == "multipv") {
        if (auto n = spinValue(1, 128)) engine_.searchOptions.multiPV = int(*n);
    } else if (key == "moveoverhead") {
        if (auto n = spinValue(0, 5000)) moveOverheadMs_ = *n;
    } else if (key == "pruning") {
        if (auto l = levelValue(LevelNames, 4)) engine_.searchOptions.pruning = Pruning(*l);
    } else if (key == "knowledge") {
        if (auto l = levelValue(LevelNames, 4)) engine_.searchOptions.knowledge = Knowledge(*l);
    } else if (key == "chaserule") {
        if (auto b = boolValue()) engine_.searchOptions.judgeChase = *b;
    } else if (key == "randomness") {
        if (auto l = levelValue(RandomnessNames, 6)) engine_.randomness = Randomness(*l);
    } else if (key == "newgame") {
        engine_.newGame();
    }
    return true;
}

void Protocol::cmdPosition(const std::vector<std::string>& tokens, size_t first) {
    if (tokens.size() <= first) {
        info("position needs 'startpos' or 'fen <FEN>'");
        return;
    }
    const std::string kind = lower(tokens[first]);
    size_t movesAt = tokens.size();
    for (size_t i = first + 1; i < tokens.size(); ++i)
        if (lower(tokens[i]) == "moves") {
            movesAt = i;
            break;
        }
    std::string base;
    if (kind == "startpos") {
        base = "startpos";
        if (movesAt != first + 1 && movesAt > first + 1) {
            info("position startpos: unexpected text before 'moves'; position unchanged");
            return;
        }
    } else if (kind == "fen") {
        // A FEN has at most six fields; anything more before 'moves' is ignored.
        constexpr size_t FenFields = 6;
        const size_t fields = movesAt - (first + 1);
        base = joinTokens(tokens, first + 1, first + 1 + std::min(fields, FenFields));
        if (base.empty()) {
            info("position fen: the FEN is missing; position unchanged");
            return;
        }
        if (fields > FenFields)
            info(fmt::format("position fen: {} extra field(s) after the move number ignored", fields - FenFields));
    } else {
        info(fmt::format("position: expected 'startpos' or 'fen', got '{}'; position unchanged",
                         tokens[first].substr(0, 32)));
        return;
    }
    std::vector<std::string> moves(tokens.begin() + long(std::min(movesAt + 1, tokens.size())), tokens.end());
    if (auto error = engine_.setPosition(base, moves)) info(*error + "; position unchanged");
}

void Protocol::cmdBanMoves(const std::vector<std::string>& tokens) {
    std::vector<std::string> moves(tokens.begin() + 1, tokens.end());
    for (const auto& bad : engine_.setBannedMoves(moves))
        info(fmt::format("banmoves: '{}' is not a legal move here; ignored", bad));
}

void Protocol::cmdGo(const std::vector<std::string>& tokens) {
    SearchLimits limits;
    bool draw = false;
    const Color us = engine_.position().sideToMove();
    // UCCI times are seconds unless usemillisec; UCI times are milliseconds.
    const bool seconds = dialect_ == Dialect::Ucci && !useMillisec_;
    auto toMs = [&](int64_t t) {
        if (!seconds) return t;
        // A "seconds" clock over a day long is surely milliseconds from a GUI
        // that did not set usemillisec.
        return t > 86400 ? t : t * 1000;
    };
    bool haveTime = false;
    bool malformed = false;  // a limit was given without a usable number
    constexpr int64_t Big = int64_t(1) << 40;
    for (size_t i = 1; i < tokens.size(); ++i) {
        const std::string key = lower(tokens[i]);
        auto number = [&](int64_t lo, int64_t hi) -> std::optional<int64_t> {
            if (i + 1 >= tokens.size()) {
                info(fmt::format("go: '{}' needs a number", key));
                malformed = true;
                return std::nullopt;
            }
            const std::string& arg = tokens[i + 1];
            auto n = parseInt(arg, lo, hi);
            if (!n) {
                std::string a = lower(arg);
                if (key == "depth" && a == "infinite") {
                    ++i;
                    limits.infinite = true;
                    return std::nullopt;
                }
                info(fmt::format("go: '{} {}' is not a number; ignored", key, arg.substr(0, 24)));
                malformed = true;
            }
            ++i;
            return n;
        };
        if (key == "ponder") {
            limits.ponder = true;
        } else if (key == "draw") {
            draw = true;
        } else if (key == "infinite") {
            limits.infinite = true;
        } else if (key == "depth") {
            if (auto n = number(-Big, Big)) limits.depth = int(std::clamp<int64_t>(*n, 1, MaxSearchDepth));
        } else if (key == "nodes") {
            if (auto n = number(-Big, Big)) limits.nodes = uint64_t(std::max<int64_t>(*n, 1));
        } else if (key == "mate") {
            if (auto n = number(-Big, Big)) limits.mate = int(std::clamp<int64_t>(*n, 1, MaxSearchDepth / 2));
        } else if (key == "movetime") {
            if (auto n = number(-Big, Big)) limits.time.moveTime = std::max<int64_t>(*n, 1);
        } else if (key == "time") {
            if (auto n = number(-Big, Big)) limits.time.time = std::max<int64_t>(toMs(*n), 0), haveTime = true;
        } else if (key == "increment") {
            if (auto n = number(-Big, Big)) limits.time.increment = std::max<int64_t>(toMs(*n), 0);
        } else if (key == "movestogo") {
            if (auto n = number(-Big, Big)) limits.time.movesToGo = int(std::clamp<int64_t>(*n, 0, 1000));
        } else if (key == "wtime" || key == "btime") {
            auto n = number(-Big, Big);
            if (n && (key == "wtime") == (us == Color::Red)) limits.time.time = std::max<int64_t>(*n, 0), haveTime = true;
        } else if (key == "winc" || key == "binc") {
            auto n = number(-Big, Big);
            if (n && (key == "winc") == (us == Color::Red)) limits.time.increment = std::max<int64_t>(*n, 0);
        } else if (key == "opptime" || key == "oppincrement" || key == "oppmovestogo") {
            number(-Big, Big);  // the opponent's clock: not used for our allocation
        } else if (key == "searchmoves") {
            for (size_t j = i + 1; j < tokens.size(); ++j) {
                Move m = engine_.position().parseLegalMove(tokens[j]);
                if (!m) break;
                limits.searchMoves.push_back(m);
                i = j;
            }
        } else {
            info(fmt::format("go: unknown parameter '{}' ignored", tokens[i].substr(0, 24)));
        }
    }
    // "go depth" with its number lost must not turn into an endless search that
    // nothing will stop: with no usable limit left, the command is refused.
    const bool limited = limits.depth != MaxSearchDepth || limits.nodes || limits.mate || haveTime ||
                         limits.time.moveTime >= 0 || limits.infinite || limits.ponder;
    if (malformed && !limited) {
        info("go: no usable limit left; not searching (send 'go infinite' to search until 'stop')");
        return;
    }
    limits.time.overhead = moveOverheadMs_;
    limits.time.ponderOption = ponderOption_;
    if (!limits.ponder && !limits.infinite && limits.searchMoves.empty() && limits.mate == 0 && playBookMove())
        return;
    startSearch(limits, draw);
}

bool Protocol::playBookMove() {
    std::vector<BookMove> candidates;
    Move ponder;
    const Move m = engine_.bookMove(&candidates, &ponder);
    if (!m) return false;
    // As ElephantEye does: every candidate with its weight, then the choice.
    for (const BookMove& c : candidates)
        say(fmt::format("info depth 0 score {} pv {}", c.weight, c.move.toString()));
    say("bestmove " + m.toString() + (ponder ? " ponder " + ponder.toString() : ""));
    return true;
}

void Protocol::startSearch(SearchLimits limits, bool drawOffered) {
    if (inputClosed_ && (limits.infinite || limits.ponder)) {
        // Nobody can send stop or ponderhit any more: search what the other
        // limits allow, or one ply.
        bool otherLimit = limits.depth < MaxSearchDepth || limits.nodes || limits.time.time >= 0 ||
                          limits.time.moveTime >= 0 || limits.mate;
        limits.infinite = limits.ponder = false;
        if (!otherLimit) limits.depth = 1;
    }
    limits.depth = std::min(limits.depth, caps_.depth);
    if (caps_.nodes) limits.nodes = limits.nodes ? std::min(limits.nodes, caps_.nodes) : caps_.nodes;
    drawOffered_ = drawOffered;
    currentLimits_ = limits;
    searching_ = true;
    engine_.arm(limits);
    searchThread_ = std::thread([this, limits] {
        searchResult_ = engine_.searchArmed(limits, [this](const SearchInfo& i) { printInfo(i); });
        post({Event::SearchDone, {}, false});
    });
}

void Protocol::finishSearch() {
    if (searchThread_.joinable()) searchThread_.join();
    searching_ = false;
    // Answered here, not on the search thread: a command the GUI sends once it
    // has seen bestmove must find the search over (else a setoption would wait
    // in deferred_ while isready got its readyok at once).
    printBestMove(searchResult_);
}

void Protocol::printInfo(const SearchInfo& i) {
    const int64_t nps = i.timeMs > 0 ? int64_t(i.nodes * 1000 / uint64_t(i.timeMs)) : int64_t(i.nodes) * 1000;
    std::string pv;
    for (Move m : i.pv) {
        pv += ' ';
        pv += m.toString();
    }
    std::string bound = i.bound == Bound::Lower ? " lowerbound" : i.bound == Bound::Upper ? " upperbound" : "";
    if (dialect_ == Dialect::Ucci) {
        say(fmt::format("info depth {} seldepth {}{} score {}{} time {} nodes {} nps {} hashfull {} pv{}", i.depth,
                        i.selDepth, i.multiPV > 1 || engine_.searchOptions.multiPV > 1 ? fmt::format(" multipv {}", i.multiPV) : "",
                        toUcciScore(i.score), bound, i.timeMs, i.nodes, nps, i.hashfull, pv));
    } else {
        std::string score = isMateValue(i.score) ? fmt::format("mate {}", mateInMoves(i.score))
                                                 : fmt::format("cp {}", toCentipawns(i.score));
        say(fmt::format("info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} hashfull {} tbhits 0 time {} pv{}",
                        i.depth, i.selDepth, i.multiPV, score, bound, i.nodes, nps, i.hashfull, i.timeMs, pv));
    }
}

void Protocol::printBestMove(const SearchResult& r) {
    if (!r.best) {
        say(dialect_ == Dialect::Ucci ? "nobestmove" : "bestmove (none)");
        return;
    }
    std::string line = "bestmove " + r.best.toString();
    if (r.ponder) line += " ponder " + r.ponder.toString();
    if (dialect_ == Dialect::Ucci) {
        // Accept an offered draw when we are clearly worse; resign only
        // against a mate the search has proven to be short.
        if (drawOffered_ && r.score <= -150 && !isMateValue(r.score))
            line += " draw";
        else if (r.depth >= 1 && r.score <= -ValueMateInMaxPly && mateInMoves(r.score) >= -3)
            line += " resign";
    }
    say(line);
}

void Protocol::cmdProbe(const std::vector<std::string>& tokens) {
    Position pos = engine_.position();
    if (tokens.size() > 1) {
        size_t movesAt = tokens.size();
        for (size_t i = 1; i < tokens.size(); ++i)
            if (lower(tokens[i]) == "moves") {
                movesAt = i;
                break;
            }
        std::string kind = lower(tokens[1]);
        std::string base = kind == "startpos" ? "startpos" : joinTokens(tokens, 2, movesAt);
        std::vector<std::string> moves(tokens.begin() + long(std::min(movesAt + 1, tokens.size())), tokens.end());
        if (kind != "startpos" && kind != "fen") {
            info("probe: expected 'startpos' or 'fen <FEN>'");
            say("pophash");
            return;
        }
        Position p;
        if (base != "startpos")
            if (auto e = p.setFen(base)) {
                info("probe: " + *e);
                say("pophash");
                return;
            }
        for (const auto& t : moves) {
            Move m = p.parseLegalMove(t);
            if (!m) {
                info(fmt::format("probe: illegal move '{}'", t.substr(0, 16)));
                say("pophash");
                return;
            }
            p.makeMove(m);
        }
        pos = p;
    }
    TTHit hit;
    if (!engine_.tt().probe(pos.key(), 0, hit)) {
        say("pophash");
        return;
    }
    std::string line = "pophash";
    if (hit.move && pos.isPseudoLegal(hit.move) && pos.isLegal(hit.move)) line += " bestmove " + hit.move.toString();
    int v = toUcciScore(hit.value);
    if (hit.bound == Bound::Lower || hit.bound == Bound::Exact) line += fmt::format(" lowerbound {} depth {}", v, hit.depth);
    if (hit.bound == Bound::Upper || hit.bound == Bound::Exact) line += fmt::format(" upperbound {} depth {}", v, hit.depth);
    say(line);
}

void Protocol::cmdPerft(const std::vector<std::string>& tokens) {
    int depth = 1;
    const int maxDepth = std::min(12, caps_.depth);
    if (tokens.size() > 1) {
        auto n = parseInt(tokens[1], INT64_MIN, INT64_MAX);
        if (!n || *n < 0 || *n > maxDepth) {
            info(fmt::format("perft: the depth must be a number from 0 to {}", maxDepth));
            return;
        }
        depth = int(*n);
    }
    Position pos = engine_.position();
    auto start = std::chrono::steady_clock::now();
    uint64_t total = perftDivide(pos, depth, [&](Move m, uint64_t n) { say(fmt::format("{}: {}", m.toString(), n)); });
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    say(fmt::format("Nodes searched: {}", total));
    info(fmt::format("perft {} time {} ms nps {}", depth, int64_t(seconds * 1000),
                     seconds > 0 ? uint64_t(double(total) / seconds) : 0));
}

void Protocol::cmdBench(const std::vector<std::string>& tokens) {
    BenchConfig config;
    const int maxDepth = std::min(64, caps_.depth);
    const size_t maxHash = std::min<size_t>(65536, caps_.hashMB);
    config.depth = std::min(config.depth, maxDepth);
    config.hashMB = std::min(config.hashMB, maxHash);
    if (tokens.size() > 1) {
        auto n = parseInt(tokens[1], INT64_MIN, INT64_MAX);
        if (!n || *n < 1 || *n > maxDepth) return info(fmt::format("bench: the depth must be a number from 1 to {}", maxDepth));
        config.depth = int(*n);
    }
    if (tokens.size() > 2) {
        auto n = parseInt(tokens[2], INT64_MIN, INT64_MAX);
        if (!n || *n < 1 || uint64_t(*n) > maxHash) return info(fmt::format("bench: the hash size must be 1 to {} MB", maxHash));
        config.hashMB = size_t(*n);
    }
    if (tokens.size() > 3) {
        const int maxThreads = std::min(256, caps_.threads);
        auto n = parseInt(tokens[3], INT64_MIN, INT64_MAX);
        if (!n || *n < 1 || *n > maxThreads) return info(fmt::format("bench: threads must be 1 to {}", maxThreads));
        config.threads = int(*n);
    }
    runBench(config, [this](const std::string& line) { say(line); });
}

void Protocol::cmdDisplay() {
    const Position& pos = engine_.position();
    for (int rank = 9; rank >= 0; --rank) {
        std::string row = fmt::format("{} ", rank);
        for (int file = 0; file < FileCount; ++file) {
            Piece p = pos.pieceOn(makeSquare(file, rank));
            row += ' ';
            row += isPiece(p) ? pieceToChar(p) : (rank == 4 || rank == 5) ? '~' : '.';
        }
        say(row);
    }
    say("   a b c d e f g h i");
    say("fen " + pos.fen());
    say(fmt::format("key {:016x}", pos.key()));
    say(fmt::format("side to move {}, {}", pos.sideToMove() == Color::Red ? "red" : "black",
                    pos.inCheck() ? "in check" : "not in check"));
}

void Protocol::cmdHelp() {
    const char* lines[] = {
        "Chariot speaks UCCI (start with 'ucci') or UCI (start with 'uci').",
        "  ucci | uci                      handshake: id, options, ucciok/uciok",
        "  isready                         answered with readyok, also while searching",
        "  setoption <name> [<value>]      UCCI spelling; UCI: setoption name <n> value <v>",
        "  position startpos|fen <FEN> [moves <m>...]   also accepted without 'position'",
        "  banmoves <m>...                 exclude root moves from the next search",
        "  go [ponder|draw] [depth d|nodes n|time t [movestogo n|increment i]|movetime ms|mate n|infinite]",
        "  ponderhit [draw] | stop | quit",
        "  probe [startpos|fen <FEN> [moves ...]]   show the hash entry (pophash)",
        "  d                               show the board, FEN and hash key",
        "  eval                            show the static evaluation by term",
        "  perft <depth>                   count leaf nodes, per root move",
        "  bench [depth] [hashMB] [threads] fixed search benchmark (node signature)",
    };
    for (const char* l : lines) info(l);
}

}  // namespace chariot
