#include "chariot/ucci.h"

#include <algorithm>
#include <cctype>
#include <chrono>

#include <fmt/format.h>

#include "chariot/bench.h"
#include "chariot/platform.h"
#include "chariot/version.h"
#include "chariot/wdl.h"
#include "chariot/xboard.h"

namespace chariot {

namespace {

constexpr std::string_view EngineName = "Chariot";
const std::string_view EngineVersion = version::number();
constexpr std::string_view EngineAuthor = "the Chariot developers";

std::string joinTokens(const std::vector<std::string>& tokens, size_t from, size_t to) {
    std::string out;
    for (size_t i = from; i < to && i < tokens.size(); ++i) {
        if (!out.empty()) out += ' ';
        out += tokens[i];
    }
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------

int toUcciScore(Value v) {
    if (v >= ValueBanInMaxPly) return 9900 - (ValueBan - v);  // won by the repetition rules
    if (v <= -ValueBanInMaxPly) return -9900 + (ValueBan + v);
    if (v >= ValueMateInMaxPly) return 10000 - (ValueMate - v);
    if (v <= -ValueMateInMaxPly) return -10000 + (ValueMate + v);
    return std::clamp(v / 4, -9000, 9000);
}

int toCentipawns(Value v) {
    if (v >= ValueBanInMaxPly) return 20000 - (ValueBan - v);
    if (v <= -ValueBanInMaxPly) return -20000 + (ValueBan + v);
    return v;
}

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

Protocol::Protocol(std::function<void(const std::string&)> write, const WorkCaps& caps)
    : write_(std::move(write)), engine_(caps) {
    declareOptions();
}

Protocol::~Protocol() {
    engine_.stop();
    engine_.wait();
}

void Protocol::declareOptions() {
    OptionRegistry& options = engine_.options();
    options.add(checkOption("usemillisec", "", false, "times in `go` are in milliseconds (else seconds, per UCCI)",
                            [this](const OptionValue& v) {
                                useMillisec_ = v.check;
                                return std::vector<std::string>{};
                            }));
    options.add(checkOption("batch", "", false,
                            "scripts: every `go` runs to its own limit before the next command (`quit` too) is obeyed",
                            [this](const OptionValue& v) {
                                batch_ = v.check;
                                return std::vector<std::string>{};
                            }));
    options.add(checkOption("showwdl", "UCI_ShowWDL", false,
                            "add `wdl W D L` after the score of `info` lines: win, draw and loss per mille for the "
                            "side to move, from a model of Chariot's self-play games",
                            [this](const OptionValue& v) {
                                showWdl_ = v.check;
                                return std::vector<std::string>{};
                            }));
    options.add(checkOption("debug", "Debug", false, "accepted (UCCI standard option)", [this](const OptionValue& v) {
        debug_ = v.check;
        return std::vector<std::string>{};
    }));
}

void Protocol::resetSession() {
    engine_.stop();
    engine_.wait();
    engine_.options().resetToDefaults();
    (void)engine_.setPosition("startpos", {});
    engine_.newGame();
    xboard_.reset();
    sawCommand_ = false;
    dialect_ = Dialect::Ucci;
    state_ = SearchState::Idle;
    quitting_ = inputClosed_ = stoppedByCommand_ = answeredOnItsOwn_ = false;
    deferred_.clear();
    std::lock_guard lock(queueMutex_);
    queue_.clear();
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
#if CHARIOT_NO_THREADS
    // No reader thread: the loop reads stdin when it has nothing else to do,
    // and a search reads it when it polls (pollDuringSearch).
    readingStdin_ = true;
    stdinEnded_ = false;
    stdinLines_ = {};
    const int code = loop();
    readingStdin_ = false;
    return code;
#else
    // The reader may outlive the loop (it stays blocked in read() after quit;
    // process exit ends it): once the loop is over it posts nothing more, so
    // that input arriving then (or the end of input: a GUI closes the pipe
    // after quit) never reaches a Protocol that is being destroyed.
    struct Gate {
        std::mutex mutex;
        bool open = true;
    };
    auto gate = std::make_shared<Gate>();
    std::thread reader([this, gate] {
        auto send = [&](Message m) {
            std::lock_guard lock(gate->mutex);
            if (gate->open) post(std::move(m));
            return gate->open;
        };
        LineSplitter splitter;
        std::vector<LineSplitter::Line> lines;
        char buffer[65536];
        while (true) {
            const size_t n = platform::readStdin(buffer, sizeof buffer);
            if (n == 0) break;
            lines.clear();
            splitter.feed(buffer, n, lines);
            for (auto& l : lines)
                if (!send({Event::Line, std::move(l.text), l.truncated})) return;
        }
        if (auto last = splitter.finish()) send({Event::Line, std::move(last->text), last->truncated});
        send({Event::EndOfInput, {}, false});
    });
    reader.detach();
    const int code = loop();
    std::lock_guard lock(gate->mutex);
    gate->open = false;
    return code;
#endif
}

#if CHARIOT_NO_THREADS
bool Protocol::pumpStdin(int64_t waitMs) {
    if (!readingStdin_ || stdinEnded_) return false;
    char buffer[65536];
    bool ended = false;
    const size_t n = platform::pollStdin(buffer, sizeof buffer, waitMs, ended);
    std::vector<LineSplitter::Line> lines;
    stdinLines_.feed(buffer, n, lines);
    for (auto& l : lines) post({Event::Line, std::move(l.text), l.truncated});
    if (ended) {
        if (auto last = stdinLines_.finish()) post({Event::Line, std::move(last->text), last->truncated});
        post({Event::EndOfInput, {}, false});
        stdinEnded_ = true;
    }
    return true;
}

void Protocol::pollDuringSearch(int64_t waitMs) {
    // A search started by a queued go runs to its end inside drainDeferred():
    // the commands queued after that go that act on it (its stop, its
    // ponderhit) act now, as drainDeferred() takes them once a threaded
    // search has started.
    bool acted = false;
    if (xboard_) {
        acted = xboard_->actOnQueued();
    } else {
        while (state_ != SearchState::Idle && !deferred_.empty() && actOnSearch(deferred_.front(), true)) {
            deferred_.pop_front();
            acted = true;
        }
    }
    // A wait for stop or ponderhit ends as soon as anything is queued: the
    // search then asks its time manager again.
    if (queue_.empty() || waitMs == 0) pumpStdin(acted ? 0 : waitMs);
    while (!queue_.empty() && queue_.front().event != Event::SearchDone) {
        // `bench` searches while the loop is in handle(): the input waits
        // for the loop, as it waits in the queue for a threaded one.
        if (!xboard_ && state_ == SearchState::Idle) return;
        Message m = std::move(queue_.front());
        queue_.pop_front();
        if (xboard_) {
            // The session is searching: it acts on the line or keeps it for later.
            (void)toXboard(m);
        } else if (m.event == Event::EndOfInput) {
            // As loop() takes it during a search.
            inputClosed_ = true;
            deferred_.push_back(m);
            if (currentLimits_.infinite || currentLimits_.ponder) stopSearch();
        } else if (!actOnSearch(m, false)) {
            deferred_.push_back(m);
        }
    }
}
#endif

int Protocol::runLines(const std::vector<std::string>& lines) {
    resetSession();
    for (const auto& l : lines) post({Event::Line, l, false});
    post({Event::EndOfInput, {}, false});
    return loop();
}

int Protocol::loop() {
    while (true) {
        Message m;
        {
#if CHARIOT_NO_THREADS
            while (queue_.empty())
                if (!pumpStdin(-1)) return 0;  // nothing more can come
#endif
            std::unique_lock lock(queueMutex_);
            queueCv_.wait(lock, [this] { return !queue_.empty(); });
            m = std::move(queue_.front());
            queue_.pop_front();
        }
        if (xboard_) {
            if (!toXboard(m)) return 0;
            continue;
        }
        switch (m.event) {
            case Event::SearchDone:
                finishSearch();
                if (!drainDeferred()) return 0;
                break;
            case Event::EndOfInput:
                inputClosed_ = true;
                if (state_ == SearchState::Idle) return 0;
                // A finite search may finish and answer; one that would never
                // end by itself (infinite, ponder) is stopped. What is queued
                // still runs, in order, before the engine exits.
                deferred_.push_back(m);
                if (currentLimits_.infinite || currentLimits_.ponder) stopSearch();
                break;
            case Event::Line:
                if (state_ == SearchState::Idle) {
                    if (!handle(m.text, m.truncated)) return 0;
                } else if (!actOnSearch(m, false)) {
                    deferred_.push_back(m);
                }
                break;
        }
    }
}

bool Protocol::drainDeferred() {
    while (!deferred_.empty()) {
        if (state_ != SearchState::Idle) {
            // A queued go has just started a search: the commands queued
            // after it that act on it (its stop, its ponderhit) go now; the
            // rest keep waiting, in order.
            if (!actOnSearch(deferred_.front(), true)) return true;
            deferred_.pop_front();
            continue;
        }
        Message d = std::move(deferred_.front());
        deferred_.pop_front();
        if (d.event == Event::EndOfInput) return false;
        if (!handle(d.text, d.truncated)) return false;
    }
    return true;
}

bool Protocol::toXboard(const Message& m) {
    switch (m.event) {
        case Event::Line: return xboard_->onLine(m.text, m.truncated);
        case Event::SearchDone: return xboard_->onSearchDone();
        default: inputClosed_ = true; return xboard_->onEndOfInput();
    }
}

bool Protocol::goQueued() const {
    return std::any_of(deferred_.begin(), deferred_.end(), [](const Message& m) {
        const auto words = splitWords(m.text);
        return m.event == Event::Line && !words.empty() && asciiLower(words[0]) == "go";
    });
}

void Protocol::stopSearch() {
    if (state_ == SearchState::Searching || state_ == SearchState::Pondering) {
        engine_.stop();
        state_ = SearchState::Stopping;
        stoppedByCommand_ = true;
    }
}

bool Protocol::actOnSearch(const Message& m, bool queued) {
    if (m.event != Event::Line || m.truncated) return false;
    const std::vector<std::string> tokens = splitWords(m.text);
    const std::string cmd = tokens.empty() ? "" : asciiLower(tokens[0]);
    if (cmd == "isready") {
        say("readyok");
        return true;
    }
    // In batch mode a search runs to its own limit: the commands after it,
    // quit and stop included, wait. A search without a limit of its own
    // (infinite, ponder) still obeys stop, ponderhit and quit.
    const bool unlimited = currentLimits_.infinite || currentLimits_.ponder;
    if (batch_ && !unlimited) return false;
    if (cmd == "quit") {
        // Stop now, whatever is queued; what came before the quit is still
        // carried out (but no new search), then the engine says bye.
        quitting_ = true;
        stopSearch();
        return false;
    }
    // A stop or ponderhit belongs to the go it follows. With no go queued
    // that is the running search's (a stop for a search already stopping,
    // or a ponderhit for one not pondering, is its duplicate and is
    // dropped). With a go queued it waits for that go, unless it can only
    // be meant for the running search: a stop for a search that would never
    // end by itself (infinite, pondering), a ponderhit for one pondering.
    if (cmd == "stop" || cmd == "ponderhit") {
        const bool stop = cmd == "stop";
        const bool pondering = state_ == SearchState::Pondering;
        const bool unending = pondering || (state_ == SearchState::Searching && currentLimits_.infinite);
        const bool applies = stop ? state_ == SearchState::Searching || pondering : pondering;
        if (!queued && goQueued() && !(stop ? unending : pondering)) return false;  // waits for its go
        if (stop)
            stopSearch();
        else if (applies) {
            engine_.ponderhit(tokens.size() > 1 && asciiLower(tokens[1]) == "draw");
            state_ = SearchState::Searching;
        }
        return true;
    }
    if (cmd == "probe" && !queued && deferred_.empty()) {
        cmdProbe(tokens);
        return true;
    }
    return false;
}

bool Protocol::handle(const std::string& line, bool truncated) {
    if (truncated) {
        info(fmt::format("input line longer than {} bytes ignored", LineSplitter::MaxLine));
        return true;
    }
    // A UTF-8 byte-order mark (some GUIs and editors write one) is not part of the command.
    constexpr std::string_view Bom = "\xEF\xBB\xBF";
    auto tokens = splitWords(line.compare(0, Bom.size(), Bom) == 0 ? std::string_view(line).substr(Bom.size())
                                                                   : std::string_view(line));
    if (tokens.empty()) return true;
    const std::string cmd = asciiLower(tokens[0]);
    const bool firstCommand = !sawCommand_;
    sawCommand_ = true;
    if (cmd == "xboard" && firstCommand) {
        // CECP from now on: the session parses, formats and keeps the game.
        dialect_ = Dialect::Xboard;
        xboard_ = std::make_unique<XboardSession>(
            engine_, [this](const std::string& text) { say(text); },
            [this] {
                post({Event::SearchDone, {}, false});
            },
            fmt::format("{} {}", EngineName, EngineVersion));
#if CHARIOT_NO_THREADS
        xboard_->setSearchPoll([this](int64_t waitMs) { pollDuringSearch(waitMs); });
#endif
        return true;
    }
    // A stop that crossed the answer of a search that ended by itself
    // belongs to that search: it gets no second answer.
    const bool crossingStop = cmd == "stop" && answeredOnItsOwn_;
    if (cmd != "isready") answeredOnItsOwn_ = false;

    if (cmd == "ucci") {
        cmdHandshake(Dialect::Ucci);
    } else if (cmd == "uci") {
        cmdHandshake(Dialect::Uci);
    } else if (cmd == "isready") {
        engine_.waitUntilReady();  // a new hash table is in memory before readyok
        say("readyok");
    } else if (cmd == "quit") {
        say("bye");
        return false;
    } else if (cmd == "setoption") {
        cmdSetOption(tokens);
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
        if (dialect_ == Dialect::Ucci && !crossingStop) say("nobestmove");
    } else if (cmd == "ponderhit") {
        // Not searching: nothing to convert.
    } else if (cmd == "probe") {
        cmdProbe(tokens);
    } else if (cmd == "ucinewgame" || cmd == "uccinewgame") {
        engine_.newGame();
    } else if (cmd == "d" || cmd == "display") {
        cmdDisplay();
    } else if (cmd == "eval") {
        std::string report = engine_.evalReport();
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
    } else if (cmd == "xboard") {
        info("xboard selects the XBoard protocol only as the first command; ignored");
    } else {
        std::string shown = tokens[0].substr(0, 32);
        info(fmt::format("unknown command '{}' (try 'help')", shown));
    }
    return true;
}

void Protocol::cmdHandshake(Dialect d) {
    dialect_ = d;
    say(fmt::format("id name {} {}", EngineName, EngineVersion));
    if (d == Dialect::Ucci) {
        say(fmt::format("id version {}", EngineVersion));
        say("id copyright 2026 the Chariot developers, MIT licence");
        say(fmt::format("id author {}", EngineAuthor));
        for (const auto& line : engine_.options().ucciLines()) say(line);
        say("ucciok");
    } else {
        say(fmt::format("id author {}", EngineAuthor));
        for (const auto& line : engine_.options().uciLines()) say(line);
        say("uciok");
    }
}

void Protocol::cmdSetOption(const std::vector<std::string>& tokens) {
    std::string name, value;
    // UCI: setoption name <id words> [value <x words>]; UCCI: setoption <name> [<value words>].
    if (tokens.size() >= 2 && asciiLower(tokens[1]) == "name") {
        size_t valueAt = tokens.size();
        for (size_t i = 2; i < tokens.size(); ++i)
            if (asciiLower(tokens[i]) == "value") {
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
    // `setoption ucinewgame` and `clearhash`: old spellings of newgame.
    const std::string l = asciiLower(name);
    if (l == "ucinewgame" || l == "clearhash") name = "newgame";
    for (const auto& message : engine_.setOption(name, value).messages) info(message);
}

void Protocol::cmdPosition(const std::vector<std::string>& tokens, size_t first) {
    PositionText text;
    if (auto error = parsePositionText(tokens, first, false, text)) {
        info(fmt::format("position: {}; position unchanged", *error));
        return;
    }
    if (text.extraFenFields)
        info(fmt::format("position fen: {} extra field(s) after the move number ignored", text.extraFenFields));
    if (auto error = engine_.setPosition(text.fen, text.moves)) info(*error + "; position unchanged");
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
        const std::string key = asciiLower(tokens[i]);
        auto number = [&](int64_t lo, int64_t hi) -> std::optional<int64_t> {
            if (i + 1 >= tokens.size()) {
                info(fmt::format("go: '{}' needs a number", key));
                malformed = true;
                return std::nullopt;
            }
            const std::string& arg = tokens[i + 1];
            auto n = parseInteger(arg, lo, hi);
            if (!n) {
                std::string a = asciiLower(arg);
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
            if (n && (key == "wtime") == (us == Color::Red))
                limits.time.time = std::max<int64_t>(*n, 0), haveTime = true;
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
    // A bare `go` searches until stop, as `go infinite` does.
    if (!limited) limits.infinite = true;
    startSearch({limits, draw});
}

void Protocol::startSearch(GoRequest request) {
    // Nobody can send stop or ponderhit any more: the time manager then
    // searches what the other limits allow, or answers after one iteration.
    request.inputClosed = inputClosed_;
    currentLimits_ = request.limits;
    state_ = request.limits.ponder ? SearchState::Pondering : SearchState::Searching;
    stoppedByCommand_ = false;
    lastInfo_ = {};
    wdlPhase_ = wdl::phase(engine_.position());
    EngineCallbacks callbacks;
    callbacks.onIteration = [this](const SearchInfo& i) { printInfo(i); };
    callbacks.onCurrentMove = [this](const CurrentMove& c) { printCurrentMove(c); };
    callbacks.onProgress = [this](const SearchProgress& p) { printProgress(p); };
    callbacks.onBestMove = [this](const BestMove& answer) {
        {
            std::lock_guard lock(answerMutex_);
            answer_ = answer;
        }
        post({Event::SearchDone, {}, false});
    };
#if CHARIOT_NO_THREADS
    callbacks.onPoll = [this](int64_t waitMs) { pollDuringSearch(waitMs); };
#endif
    engine_.go(std::move(request), std::move(callbacks));
}

void Protocol::finishSearch() {
    engine_.wait();
    state_ = SearchState::Idle;
    answeredOnItsOwn_ = !stoppedByCommand_;
    BestMove answer;
    {
        std::lock_guard lock(answerMutex_);
        answer = answer_;
    }
    // Answered here, not on the search thread: a command the GUI sends once it
    // has seen bestmove must find the search over (else a setoption would wait
    // in deferred_ while isready got its readyok at once).
    printBestMove(answer);
}

void Protocol::printInfo(const SearchInfo& i) {
    if (i.multiPV == 1) lastInfo_ = i;
    const int64_t nps = i.timeMs > 0 ? int64_t(i.nodes * 1000 / uint64_t(i.timeMs)) : int64_t(i.nodes) * 1000;
    std::string pv;
    for (Move m : i.pv) {
        pv += ' ';
        pv += m.toString();
    }
    std::string bound = i.bound == Bound::Lower ? " lowerbound" : i.bound == Bound::Upper ? " upperbound" : "";
    // After the score, before a bound word, as Stockfish prints it.
    std::string odds;
    if (showWdl_) {
        const wdl::Wdl w = wdl::fromValue(i.score, wdlPhase_);
        odds = fmt::format(" wdl {} {} {}", w.win, w.draw, w.loss);
    }
    if (dialect_ == Dialect::Ucci) {
        say(fmt::format(
            "info depth {} seldepth {}{} score {}{}{} time {} nodes {} nps {} hashfull {} pv{}", i.depth, i.selDepth,
            i.multiPV > 1 || engine_.searchOptions().multiPV > 1 ? fmt::format(" multipv {}", i.multiPV) : "",
            toUcciScore(i.score), odds, bound, i.timeMs, i.nodes, nps, i.hashfull, pv));
    } else {
        std::string score = isMateScore(i.score) ? fmt::format("mate {}", mateInMoves(i.score))
                                                 : fmt::format("cp {}", toCentipawns(i.score));
        say(fmt::format(
            "info depth {} seldepth {} multipv {} score {}{}{} nodes {} nps {} hashfull {} tbhits 0 time {} pv{}",
            i.depth, i.selDepth, i.multiPV, score, odds, bound, i.nodes, nps, i.hashfull, i.timeMs, pv));
    }
}

void Protocol::printCurrentMove(const CurrentMove& c) {
    if (dialect_ == Dialect::Ucci)
        say(fmt::format("info currmove {} currmovenumber {}", c.move.toString(), c.number));
    else
        say(fmt::format("info depth {} currmove {} currmovenumber {}", c.depth, c.move.toString(), c.number));
}

void Protocol::printProgress(const SearchProgress& p) {
    const int64_t nps = p.timeMs > 0 ? int64_t(p.nodes * 1000 / uint64_t(p.timeMs)) : 0;
    say(fmt::format("info time {} nodes {} nps {} hashfull {}", p.timeMs, p.nodes, nps, p.hashfull));
}

void Protocol::printBestMove(const BestMove& answer) {
    const SearchResult& r = answer.result;
    if (!r.best) {
        say(dialect_ == Dialect::Ucci ? "nobestmove" : "bestmove (none)");
        return;
    }
    if (answer.fromBook) {
        // Every candidate with its weight, in words: a GUI would show an
        // `info ... score` line as an evaluation (ElephantEye prints the
        // weights as depth-0 scores; no GUI needs that form).
        for (const BookMove& c : answer.bookMoves)
            info(fmt::format("book move {} weight {}", c.move.toString(), c.weight));
    } else if (r.depth >= 1 && !(r.depth == lastInfo_.depth && r.score == lastInfo_.score && r.pv == lastInfo_.pv) &&
               (r.bound == Bound::Exact || dialect_ == Dialect::Uci)) {
        // The line the answer comes from, last before bestmove, so that the
        // GUI's PV always starts with the move played (unless it just did).
        // From an iteration stopped part way it is a bound: UCI says so; UCCI
        // has no word for it, so its last line stays the last completed one.
        printInfo(answerLine(r));
    }
    std::string line = "bestmove " + r.best.toString();
    if (r.ponder) line += " ponder " + r.ponder.toString();
    // Draw offers and resignation are UCCI's; UCI has no word for them.
    if (dialect_ == Dialect::Ucci) {
        if (answer.offerDraw)
            line += " draw";
        else if (answer.resign)
            line += " resign";
    }
    say(line);
}

void Protocol::cmdProbe(const std::vector<std::string>& tokens) {
    Position pos = engine_.position();
    if (tokens.size() > 1) {
        PositionText text;
        std::optional<std::string> error = parsePositionText(tokens, 1, false, text);
        if (!error) error = setupPosition(pos, text.fen, text.moves);
        if (error) {
            info("probe: " + *error);
            say("pophash");
            return;
        }
    }
    if (const auto tb = engine_.probeTablebase(pos)) info("egtb " + describeTbResult(*tb));
    const ProbeResult hit = engine_.probe(pos);
    if (!hit.found) {
        say("pophash");
        return;
    }
    std::string line = "pophash";
    if (hit.move) line += " bestmove " + hit.move.toString();
    int v = toUcciScore(hit.value);
    if (hit.bound == Bound::Lower || hit.bound == Bound::Exact)
        line += fmt::format(" lowerbound {} depth {}", v, hit.depth);
    if (hit.bound == Bound::Upper || hit.bound == Bound::Exact)
        line += fmt::format(" upperbound {} depth {}", v, hit.depth);
    say(line);
}

void Protocol::cmdPerft(const std::vector<std::string>& tokens) {
    int depth = 1;
    const int maxDepth = std::min(12, engine_.caps().depth);
    if (tokens.size() > 1) {
        auto n = parseInteger(tokens[1], INT64_MIN, INT64_MAX);
        if (!n || *n < 0 || *n > maxDepth) {
            info(fmt::format("perft: the depth must be a number from 0 to {}", maxDepth));
            return;
        }
        depth = int(*n);
    }
    runPerft(engine_.position(), depth, [this](const std::string& line) { say(line); });
}

void Protocol::cmdBench(const std::vector<std::string>& tokens) {
    BenchConfig config;
    if (auto error = parseBenchArgs({tokens.begin() + 1, tokens.end()}, engine_.caps(), config)) return info(*error);
    const size_t maxHash = std::min<size_t>(65536, engine_.caps().hashMB);
    if (!benchEngine_) {
        WorkCaps caps;
        caps.hashMB = maxHash;
        benchEngine_ = std::make_unique<Engine>(caps);
    }
    // `bench ... nnue` benches the session's net (`evalfile`).
    benchEngine_->setNetwork(engine_.network());
    runBench(*benchEngine_, config, [this](const std::string& line) { say(line); });
    // A big table is not kept between benches (1 MB: the smallest): the session's memory is the game's.
    if (benchEngine_->hashMB() > BenchConfig{}.hashMB) benchEngine_->setHashMB(1);
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
        "Chariot speaks UCCI (start with 'ucci'), UCI (start with 'uci') or XBoard's CECP (start with 'xboard').",
        "  ucci | uci                      handshake: id, options, ucciok/uciok",
        "  isready                         answered with readyok, also while searching",
        "  setoption <name> [<value>]      UCCI spelling; UCI: setoption name <n> value <v>",
        "  position startpos|fen <FEN> [moves <m>...]   also accepted without 'position'",
        "  banmoves <m>...                 exclude root moves until the next position",
        "  go [ponder|draw] [depth d|nodes n|time t [movestogo n|increment i]|movetime ms|mate n|infinite]",
        "  ponderhit [draw] | stop | quit",
        "  probe [startpos|fen <FEN> [moves ...]]   show the hash entry (pophash) and the endgame tables' verdict",
        "  d                               show the board, FEN and hash key",
        "  eval                            show the static evaluation by term",
        "  perft <depth>                   count leaf nodes, per root move",
        "  bench [depth] [hashMB] [threads] [nnue|hce]   fixed search benchmark (node signature);",
        "                                  nnue / hce: the net of evalfile / the handcrafted evaluation",
    };
    for (const char* l : lines) info(l);
}

}  // namespace chariot
