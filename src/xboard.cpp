#include "chariot/xboard.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "chariot/movegen.h"
#include "chariot/rules.h"
#include "chariot/text.h"
#include "chariot/ucci.h"

namespace chariot {

namespace {

using Clock = std::chrono::steady_clock;

const char* colorWord(Color c) { return c == Color::Red ? "Red" : "Black"; }
const char* winFor(Color c) { return c == Color::Red ? "1-0" : "0-1"; }

bool allDigits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The options a CECP GUI gets as `feature option=...`: those of the
// registry with a UCI name (the UCCI-only ones, like usemillisec, batch and
// idle, mean nothing here), less those that CECP commands set: hashsize
// (memory), threads (cores), ponder (hard/easy) and the protocol's debug.
bool offered(const Option& o) {
    if (o.uciName.empty()) return false;
    for (const char* covered : {"hashsize", "threads", "ponder", "debug"})
        if (o.ucciName == covered) return false;
    return true;
}

std::string optionFeature(const Option& o) {
    const std::string& name = o.uciName;
    switch (o.type) {
        case OptionType::Check: return fmt::format("{} -check {}", name, o.current == "true" ? 1 : 0);
        case OptionType::Spin: return fmt::format("{} -spin {} {} {}", name, o.current, o.min, o.max);
        case OptionType::Combo: {
            std::string line = name + " -combo";
            for (size_t i = 0; i < o.vars.size(); ++i)
                line += fmt::format("{} {}{}", i ? " ///" : "", o.vars[i] == o.current ? "*" : "", o.vars[i]);
            return line;
        }
        case OptionType::String: return fmt::format("{} -string {}", name, o.current.empty() ? "<empty>" : o.current);
        default: return name + " -button";
    }
}

// `level`'s BASE: minutes, or minutes:seconds; what follows is ignored (the
// protocol reserves it for announcing the next session, e.g. "25+5").
std::optional<int64_t> parseBaseMs(std::string_view s) {
    size_t i = 0;
    int64_t minutes = 0, seconds = 0;
    if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && minutes < 1000000; ++i)
        minutes = minutes * 10 + (s[i] - '0');
    if (i < s.size() && s[i] == ':') {
        ++i;
        if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
        for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && seconds < 1000000; ++i)
            seconds = seconds * 10 + (s[i] - '0');
    }
    return (minutes * 60 + seconds) * 1000;
}

// Seconds, maybe with a fraction ("0.1"), as milliseconds.
std::optional<int64_t> parseSecondsMs(const std::string& s) {
    if (s.empty() || s.size() > 32) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(v) || v < 0 || v > 1e9) return std::nullopt;
    return int64_t(std::llround(v * 1000));
}

}  // namespace

int toXboardScore(Value v) {
    if (isMateScore(v)) {
        const int moves = mateInMoves(v);
        return moves > 0 ? 100000 + moves : -100000 + moves;
    }
    return toCentipawns(v);
}

std::string fromXboardFen(const std::vector<std::string>& fields) {
    std::vector<std::string> f(fields.begin(), fields.begin() + long(std::min<size_t>(fields.size(), 6)));
    // "board side halfmove fullmove": no castling or en-passant field.
    if (f.size() >= 3 && f.size() <= 4 && allDigits(f[2])) f.insert(f.begin() + 2, {"-", "-"});
    std::string fen;
    for (const auto& w : f) {
        if (!fen.empty()) fen += ' ';
        fen += w;
    }
    return fen;
}

// ---------------------------------------------------------------------------

XboardSession::XboardSession(Engine& engine, Writer say, std::function<void()> searchDone, std::string myName)
    : engine_(engine), say_(std::move(say)), searchDone_(std::move(searchDone)), myName_(std::move(myName)) {
    setGame(std::string(StartFen), {});
}

XboardSession::~XboardSession() {
    engine_.stop();
    engine_.wait();
}

bool XboardSession::onLine(const std::string& line, bool truncated) { return feed({line, truncated, false}); }

bool XboardSession::onEndOfInput() {
    inputClosed_ = true;
    return feed({{}, false, true});
}

bool XboardSession::onSearchDone() {
    finishSearch();
    return drain();
}

bool XboardSession::feed(Pending p) {
    // Commands keep their order: once one waits, every later one waits too.
    if (!deferred_.empty()) {
        deferred_.push_back(std::move(p));
        return true;
    }
    if (search_ != Search::Idle) {
        if (duringSearch(p) == Action::Wait) deferred_.push_back(std::move(p));
        return true;
    }
    return execute(p) && drain();
}

bool XboardSession::drain() {
    while (!deferred_.empty()) {
        if (search_ != Search::Idle) {
            // A waiting command has started a search: the commands after it
            // act on that one as if they had just come.
            if (duringSearch(deferred_.front()) == Action::Wait) return true;
            deferred_.pop_front();
            continue;
        }
        Pending p = std::move(deferred_.front());
        deferred_.pop_front();
        if (!execute(p)) return false;
    }
    startBackground();
    return true;
}

bool XboardSession::actOnQueued() {
    bool acted = false;
    while (search_ != Search::Idle && !deferred_.empty() && duringSearch(deferred_.front()) == Action::Done) {
        deferred_.pop_front();
        acted = true;
    }
    return acted;
}

// ---------------------------------------------------------------------------

XboardSession::Action XboardSession::duringSearch(const Pending& p) {
    if (p.endOfInput) {
        // A search of the engine's own move ends by its clock; one that
        // would wait for the GUI forever is stopped.
        if (search_ == Search::Pondering || search_ == Search::Analyzing) abortSearch();
        return Action::Wait;
    }
    if (p.truncated) {
        execute(p);  // the error, now: a search that waits for the GUI must not hold it back
        return Action::Done;
    }
    const std::vector<std::string> tokens = splitWords(p.text);
    if (tokens.empty()) return Action::Done;
    const std::string cmd = asciiLower(tokens[0]);

    // Settings that touch no search act at once.
    static const char* const setters[] = {"post",   "nopost", "hard",     "time",     "otim",     "level",   "st",
                                          "sd",     "draw",   "accepted", "rejected", "computer", "name",    "rating",
                                          "random", "ics",    "white",    "black",    "xboard",   "protover"};
    if (std::find(std::begin(setters), std::end(setters), cmd) != std::end(setters)) {
        execute(p);
        return Action::Done;
    }
    if (cmd == "easy") {
        execute(p);
        if (search_ == Search::Pondering) abortSearch();
        return Action::Done;
    }
    if (cmd == "?") {
        if (search_ == Search::Thinking) {
            engine_.stop();
            search_ = Search::Stopping;
        }
        return Action::Done;
    }
    if (cmd == ".") {
        if (search_ == Search::Analyzing) printStat();
        return Action::Done;
    }
    if (cmd == "hint") {
        if (search_ == Search::Pondering && ponderMove_) say_("Hint: " + ponderMove_.toString());
        return Action::Done;
    }
    if (cmd == "ping" && (search_ == Search::Pondering || search_ == Search::Analyzing)) {
        execute(p);  // pondering and analysing do not count: pong now
        return Action::Done;
    }

    const bool isMove = cmd == "usermove" || (tokens.size() == 1 && Move::parse(tokens[0]));
    if (isMove && (search_ == Search::Pondering || search_ == Search::Analyzing)) {
        const std::string text = cmd == "usermove" ? (tokens.size() > 1 ? tokens[1] : "") : tokens[0];
        const Move m = game_.parseLegalMove(text);
        if (!m) {
            execute(p);  // the error; the search goes on
            return Action::Done;
        }
        if (search_ == Search::Pondering && m == ponderMove_ && mode_ == Mode::Playing) {
            Position after = game_;
            after.makeMove(m);
            if (judgeGame(after).kind == GameEnd::Kind::None && after.sideToMove() == engineColor_) {
                // Ponder hit: the search goes on as the real one, its clock from now.
                game_ = std::move(after);
                moves_.push_back(m.toString());
                ponderMove_ = Move::none();
                gameOver_ = false;
                running_ = Kind::Think;
                search_ = Search::Thinking;
                searchStart_ = Clock::now();
                drawPassed_ = drawOffered_;
                engine_.ponderhit(drawOffered_);
                return Action::Done;
            }
        }
        abortSearch();
        return Action::Wait;
    }

    // What changes the game or the mode stops the engine's thinking without
    // a move; the rest waits for its move (ping: the pong comes after it).
    static const char* const aborting[] = {"new",      "force", "result",    "quit",    "setboard", "undo",    "remove",
                                           "usermove", "go",    "playother", "analyze", "exit",     "variant", "edit"};
    const bool aborts = isMove || std::find(std::begin(aborting), std::end(aborting), cmd) != std::end(aborting);
    if (search_ == Search::Thinking || search_ == Search::Stopping) {
        if (aborts) abortSearch();
        return Action::Wait;
    }
    // Pondering or analysing: everything else needs the engine idle.
    abortSearch();
    return Action::Wait;
}

bool XboardSession::execute(const Pending& p) {
    if (p.endOfInput) return false;
    if (p.truncated) {
        say_(fmt::format("Error (command too long): {}", p.text.substr(0, 32)));
        return true;
    }
    const std::vector<std::string> tokens = splitWords(p.text);
    if (tokens.empty()) return true;
    const std::string cmd = asciiLower(tokens[0]);
    const std::string& line = p.text;
    auto argument = [&](size_t i) -> std::string { return i < tokens.size() ? tokens[i] : std::string(); };

    if (cmd == "xboard" || cmd == "accepted" || cmd == "rejected" || cmd == "computer" || cmd == "name" ||
        cmd == "rating" || cmd == "random" || cmd == "ics" || cmd == "white" || cmd == "black" || cmd == "?" ||
        cmd == ".") {
        // Nothing to do: the opponent's name and rating, GNU Chess's random
        // toggle, the obsolete colour commands (colors=0), move now or a
        // status update when nothing is searched.
    } else if (cmd == "protover") {
        cmdProtover();
    } else if (cmd == "quit") {
        return false;
    } else if (cmd == "ping") {
        say_("pong" + (tokens.size() > 1 ? " " + tokens[1] : std::string()));
    } else if (cmd == "post" || cmd == "nopost") {
        post_ = cmd == "post";
    } else if (cmd == "hard" || cmd == "easy") {
        ponder_ = cmd == "hard";
        setEngineOption("ponder", ponder_ ? "true" : "false");  // plan for the time pondering wins
    } else if (cmd == "time" || cmd == "otim") {
        // A clock may have run below zero (the flag fell): nothing left.
        auto n = parseInteger(argument(1), 0, int64_t(1) << 40);
        if (!n) {
            error("bad clock", line);
            return true;
        }
        (cmd == "time" ? ourTimeCs_ : oppTimeCs_) = *n;
    } else if (cmd == "level") {
        cmdLevel(tokens, line);
    } else if (cmd == "st") {
        auto ms = parseSecondsMs(argument(1));
        if (!ms) {
            error("bad seconds", line);
            return true;
        }
        stMs_ = *ms > 0 ? *ms : -1;
    } else if (cmd == "sd") {
        auto n = parseInteger(argument(1), 0, MaxSearchDepth);
        if (!n) {
            error("bad depth", line);
            return true;
        }
        sd_ = int(*n);
    } else if (cmd == "draw") {
        drawOffered_ = true;  // answered with the engine's next move
    } else if (cmd == "new") {
        if (mode_ != Mode::Analyzing) mode_ = Mode::Playing;  // analysis stays on a new game
        engineColor_ = Color::Black;
        sd_ = 0;
        gameOver_ = drawOffered_ = false;
        ponderMove_ = Move::none();
        ourTimeCs_ = oppTimeCs_ = -1;
        levelPly_ = 0;
        engine_.newGame();
        setGame(std::string(StartFen), {});
    } else if (cmd == "variant") {
        std::string v = asciiLower(argument(1));
        if (v.rfind("9x10+0_", 0) == 0) v.erase(0, 7);
        if (v != "xiangqi") error("unsupported variant", line);
    } else if (cmd == "force") {
        mode_ = Mode::Force;
    } else if (cmd == "go") {
        mode_ = Mode::Playing;
        engineColor_ = game_.sideToMove();
        think();
    } else if (cmd == "playother") {
        mode_ = Mode::Playing;
        engineColor_ = ~game_.sideToMove();
    } else if (cmd == "usermove") {
        if (tokens.size() < 2) {
            error("no move given", line);
            return true;
        }
        cmdUserMove(tokens[1]);
    } else if (cmd == "setboard") {
        cmdSetBoard(tokens, line);
    } else if (cmd == "undo") {
        cmdTakeBack(1, line);
    } else if (cmd == "remove") {
        cmdTakeBack(2, line);
    } else if (cmd == "result") {
        mode_ = Mode::Force;
        gameOver_ = true;
        ponderMove_ = Move::none();
    } else if (cmd == "analyze") {
        mode_ = Mode::Analyzing;  // drain() starts the search
    } else if (cmd == "exit") {
        if (mode_ == Mode::Analyzing) mode_ = Mode::Force;
    } else if (cmd == "memory" || cmd == "cores") {
        if (!parseInteger(argument(1), INT64_MIN, INT64_MAX)) {
            error("bad number", line);
            return true;
        }
        setEngineOption(cmd == "memory" ? "hashsize" : "threads", tokens[1]);
    } else if (cmd == "option") {
        cmdOption(line);
    } else if (cmd == "hint") {
        if (ponderMove_ && mode_ == Mode::Playing && game_.sideToMove() != engineColor_)
            say_("Hint: " + ponderMove_.toString());
    } else if (cmd == "bk") {
        cmdBook();
    } else if (tokens.size() == 1 && Move::parse(tokens[0])) {
        cmdUserMove(tokens[0]);  // a move without `usermove` (protocol 1)
    } else {
        error("unknown command", line);
    }
    return true;
}

void XboardSession::error(const std::string& reason, const std::string& line) {
    say_(fmt::format("Error ({}): {}", reason, line.substr(0, 200)));
}

void XboardSession::cmdProtover() {
    say_(
        fmt::format("feature myname=\"{}\" variants=\"xiangqi\" setboard=1 usermove=1 ping=1 playother=1 "
                    "sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 san=0 time=1 draw=1 reuse=1 "
                    "nps=0 pause=0 debug=1",
                    myName_));
    for (const Option& o : engine_.options().all())
        if (offered(o)) say_("feature option=\"" + optionFeature(o) + "\"");
    say_("feature done=1");
}

void XboardSession::cmdUserMove(const std::string& text) {
    const Move m = game_.parseLegalMove(text);
    if (!m) {
        const Move parsed = Move::parse(text);
        const char* reason = !parsed                       ? "not a move like h2e2"
                             : game_.isPseudoLegal(parsed) ? "leaves the king attacked"
                                                           : "no such move here";
        say_(fmt::format("Illegal move ({}): {}", reason, text.substr(0, 16)));
        return;
    }
    moves_.push_back(m.toString());
    game_.makeMove(m);
    syncEngine();
    ponderMove_ = Move::none();
    gameOver_ = false;
    if (mode_ == Mode::Playing && game_.sideToMove() == engineColor_) think();
}

void XboardSession::cmdSetBoard(const std::vector<std::string>& tokens, const std::string& line) {
    if (tokens.size() < 2) return error("no FEN given", line);
    const std::string fen = fromXboardFen({tokens.begin() + 1, tokens.end()});
    Position check;
    if (auto bad = check.setFen(fen)) {
        // The old position stays; XBoard shows the reason to the user.
        error("bad FEN: " + *bad, line);
        say_("tellusererror Chariot cannot set up this position: " + *bad);
        return;
    }
    setGame(fen, {});
    ponderMove_ = Move::none();
    gameOver_ = false;
    levelPly_ = game_.gamePly();  // the time control's moves count from here
}

void XboardSession::cmdTakeBack(int plies, const std::string& line) {
    if (int(moves_.size()) < plies)
        return error(plies == 1 ? "no move to undo" : "fewer than two moves to remove", line);
    std::vector<std::string> moves(moves_.begin(), moves_.end() - plies);
    setGame(base_, std::move(moves));
    ponderMove_ = Move::none();
    gameOver_ = false;
}

void XboardSession::cmdLevel(const std::vector<std::string>& tokens, const std::string& line) {
    if (tokens.size() < 4) return error("level needs MPS BASE INC", line);
    const auto mps = parseInteger(tokens[1], 0, 100000);
    const auto base = parseBaseMs(tokens[2]);
    const auto inc = parseSecondsMs(tokens[3]);
    if (!mps || !base || !inc) return error("bad time control", line);
    mps_ = int(*mps);
    baseMs_ = *base;
    incMs_ = *inc;
    stMs_ = -1;
    levelPly_ = game_.gamePly();
}

void XboardSession::cmdOption(const std::string& line) {
    // option NAME[=VALUE]; the name may hold spaces ("Skill Level=12").
    const size_t word = line.find_first_not_of(" \t");
    const size_t after = word == std::string::npos ? word : line.find_first_of(" \t", word);
    std::string rest = after == std::string::npos ? std::string() : line.substr(after + 1);
    const size_t eq = rest.find('=');
    std::string name = rest.substr(0, eq), value = eq == std::string::npos ? "" : rest.substr(eq + 1);
    auto trim = [](std::string& text) {
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.pop_back();
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.erase(text.begin());
    };
    trim(name);
    trim(value);
    if (name.empty()) return error("no option name", line);
    const auto result = engine_.setOption(name, value);
    if (!result.known) return error("unknown option", line);
    for (const auto& message : result.messages) say_("# " + message);
}

void XboardSession::setEngineOption(const std::string& name, const std::string& value) {
    for (const auto& message : engine_.setOption(name, value).messages) say_("# " + message);
}

void XboardSession::cmdBook() {
    // Lines that start with a blank, then an empty line (a dialog in XBoard).
    std::vector<BookMove> moves;
    engine_.bookMove(&moves);
    int total = 0;
    for (const BookMove& b : moves) total += b.weight;
    for (const BookMove& b : moves)
        say_(fmt::format(" {} {}%", b.move.toString(), total > 0 ? (100 * b.weight + total / 2) / total : 0));
    if (moves.empty()) say_(" no book move here");
    say_("");
}

// ---------------------------------------------------------------------------

void XboardSession::setGame(std::string base, std::vector<std::string> moves) {
    Position pos;
    if (auto bad = setupPosition(pos, base, moves)) {
        say_("# " + *bad);  // cannot happen: every move was checked when it came
        return;
    }
    base_ = std::move(base);
    moves_ = std::move(moves);
    game_ = std::move(pos);
    syncEngine();
}

void XboardSession::syncEngine() {
    if (auto bad = engine_.setPosition(base_, moves_)) say_("# " + *bad);
}

XboardSession::GameEnd XboardSession::judgeGame(const Position& pos) const {
    using End = GameEnd::Kind;
    const Color us = pos.sideToMove();
    MoveList legal;
    generateLegal(pos, legal);
    if (legal.size == 0) {
        if (pos.inCheck()) return {End::Mate, us, fmt::format("{} {{{} mates}}", winFor(~us), colorWord(~us))};
        return {End::Mate, us, fmt::format("{} {{{} is stalemated}}", winFor(~us), colorWord(us))};  // a loss
    }
    const rules::Ruling r = rules::judge(pos, 0, {engine_.searchOptions().judgeChase, 2});
    switch (r.verdict) {
        case rules::Verdict::PerpetualCheck:
            return {End::Perpetual, r.offender,
                    fmt::format("{} {{{}: perpetual check}}", winFor(~r.offender), colorWord(r.offender))};
        case rules::Verdict::PerpetualChase:
            return {End::Perpetual, r.offender,
                    fmt::format("{} {{{}: perpetual chase}}", winFor(~r.offender), colorWord(r.offender))};
        case rules::Verdict::Draw:
            // XBoard finds repetitions within 100 plies only: beyond, a claim
            // would be false to it (the search scores the position a draw anyway).
            if (r.plies > 100) break;
            return {End::Repetition, us,
                    r.mutualChase ? "1/2-1/2 {repetition: both sides chase}" : "1/2-1/2 {repetition}"};
        default: break;
    }
    if (pos.rule60() >= rules::NoCapturePlies) return {End::NoCapture, us, "1/2-1/2 {no capture in 60 moves}"};
    return {};
}

bool XboardSession::announce(const GameEnd& end) {
    using End = GameEnd::Kind;
    const bool claim = end.kind == End::Mate || end.kind == End::Repetition ||
                       (end.kind == End::Perpetual && end.loser == engineColor_);
    if (claim) {
        say_(end.text);
        gameOver_ = true;
        return true;
    }
    if (end.kind == End::Perpetual) say_("# the rules' verdict: " + end.text + "; XBoard judges repetitions itself");
    return false;
}

SearchLimits XboardSession::clockLimits(int ply) const {
    SearchLimits limits;
    if (sd_ > 0) limits.depth = sd_;
    if (stMs_ > 0) {
        limits.time.moveTime = stMs_;
        return limits;
    }
    limits.time.time = std::max<int64_t>(ourTimeCs_ >= 0 ? ourTimeCs_ * 10 : baseMs_, 0);
    limits.time.increment = incMs_;
    if (mps_ > 0) limits.time.movesToGo = mps_ - (std::max(0, ply - levelPly_) / 2) % mps_;
    return limits;
}

// ---------------------------------------------------------------------------

void XboardSession::think() {
    if (announce(judgeGame(game_))) return;
    GoRequest request;
    request.limits = clockLimits(game_.gamePly());
    request.drawOffered = drawOffered_;
    request.inputClosed = inputClosed_;
    start(Kind::Think, std::move(request));
}

void XboardSession::startPonder() {
    const Move m = ponderMove_;
    if (!game_.isPseudoLegal(m) || !game_.isLegal(m)) {
        ponderMove_ = Move::none();
        return;
    }
    Position after = game_;
    after.makeMove(m);
    if (judgeGame(after).kind != GameEnd::Kind::None) return;  // the expected reply ends the game or calls a rule
    std::vector<std::string> moves = moves_;
    moves.push_back(m.toString());
    if (engine_.setPosition(base_, moves)) return;
    // The PV of the ponder search starts after the expected reply: XBoard
    // shows it with this hint in front.
    say_("Hint: " + m.toString());
    GoRequest request;
    request.limits = clockLimits(after.gamePly());
    request.limits.ponder = true;
    request.inputClosed = inputClosed_;
    start(Kind::Ponder, std::move(request));
}

void XboardSession::startAnalysis() {
    syncEngine();
    GoRequest request;
    request.limits.infinite = true;
    request.inputClosed = inputClosed_;
    start(Kind::Analyze, std::move(request));
}

void XboardSession::startBackground() {
    if (search_ != Search::Idle || inputClosed_) return;
    if (mode_ == Mode::Analyzing)
        startAnalysis();
    else if (mode_ == Mode::Playing && ponder_ && !gameOver_ && ponderMove_ && game_.sideToMove() != engineColor_)
        startPonder();
}

void XboardSession::start(Kind kind, GoRequest request) {
    running_ = kind;
    search_ = kind == Kind::Think ? Search::Thinking : kind == Kind::Ponder ? Search::Pondering : Search::Analyzing;
    discard_ = false;
    drawPassed_ = kind == Kind::Think && request.drawOffered;
    const uint64_t generation = ++generation_;
    searchStart_ = Clock::now();
    lastInfo_ = {};
    {
        std::lock_guard lock(statMutex_);
        stat_ = {};
    }
    EngineCallbacks callbacks;
    callbacks.onIteration = [this, generation, kind](const SearchInfo& info) {
        if (generation_.load() != generation) return;  // stopped without a move: its late lines are dropped
        {
            std::lock_guard lock(statMutex_);
            stat_.nodes = info.nodes;
            stat_.depth = info.depth;
        }
        if (info.multiPV == 1) lastInfo_ = info;
        if (kind == Kind::Analyze || post_) say_(thinkingLine(info));
    };
    callbacks.onCurrentMove = [this](const CurrentMove& c) {
        std::lock_guard lock(statMutex_);
        stat_.moveNumber = c.number;
        stat_.move = c.move;
    };
    callbacks.onProgress = [this](const SearchProgress& p) {
        std::lock_guard lock(statMutex_);
        stat_.nodes = p.nodes;
    };
    callbacks.onBestMove = [this](const BestMove& answer) {
        {
            std::lock_guard lock(answerMutex_);
            answer_ = answer;
        }
        searchDone_();
    };
    callbacks.onPoll = searchPoll_;
    engine_.go(std::move(request), std::move(callbacks));
}

void XboardSession::abortSearch() {
    if (search_ == Search::Idle) return;
    discard_ = true;
    ++generation_;
    if (search_ != Search::Stopping) engine_.stop();
    search_ = Search::Stopping;
}

void XboardSession::finishSearch() {
    engine_.wait();
    BestMove answer;
    {
        std::lock_guard lock(answerMutex_);
        answer = answer_;
    }
    const bool deliver = running_ == Kind::Think && !discard_;
    search_ = Search::Idle;
    if (running_ == Kind::Ponder) syncEngine();  // it searched a move ahead of the game
    if (deliver) deliverMove(answer);
}

void XboardSession::deliverMove(const BestMove& answer) {
    const SearchResult& r = answer.result;
    if (drawPassed_) drawOffered_ = false;  // answered: accepted with "offer draw", or declined by silence
    if (!r.best) {
        // No legal move: think() claims that before searching, so only a
        // position the rules end in a way the claim missed gets here.
        const GameEnd end = judgeGame(game_);
        say_(end.kind == GameEnd::Kind::Mate ? end.text : "resign");
        gameOver_ = true;
        return;
    }
    if (post_) {
        if (answer.fromBook) {
            std::string moves;
            for (const BookMove& b : answer.bookMoves) {
                if (!moves.empty()) moves += ' ';
                moves += b.move.toString();
            }
            say_(fmt::format("0 0 0 0 (book {})", moves));
        } else if (r.depth >= 1 &&
                   !(r.depth == lastInfo_.depth && r.score == lastInfo_.score && r.pv == lastInfo_.pv)) {
            // The line the move comes from, last, so that the GUI's PV starts with it.
            say_(thinkingLine(answerLine(r)));
        }
    }
    if (answer.resign) {  // before moving, as the protocol advises
        say_("resign");
        gameOver_ = true;
        return;
    }
    // A draw offer before the move: the engine's (a dead draw, a long level
    // run, accepting an offer), or the no-capture rule's claim as the
    // protocol has it for a draw the move reaches (XBoard grants it where its
    // own count agrees, else passes the offer on).
    Position after = game_;
    after.makeMove(r.best);
    if (answer.offerDraw || after.rule60() >= rules::NoCapturePlies) say_("offer draw");
    say_("move " + r.best.toString());
    // Our clock until XBoard sends it again (the ponder search plans with it).
    if (ourTimeCs_ >= 0) {
        const int64_t spentCs =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - searchStart_).count() / 10;
        ourTimeCs_ = std::max<int64_t>(0, ourTimeCs_ - spentCs) + incMs_ / 10;
    }
    moves_.push_back(r.best.toString());
    game_ = std::move(after);
    syncEngine();
    ponderMove_ = Move::none();
    if (announce(judgeGame(game_))) return;
    if (r.ponder && game_.isPseudoLegal(r.ponder) && game_.isLegal(r.ponder)) ponderMove_ = r.ponder;
}

std::string XboardSession::thinkingLine(const SearchInfo& info) const {
    std::string pv;
    for (Move m : info.pv) {
        if (!pv.empty()) pv += ' ';
        pv += m.toString();
    }
    // A bound is marked at the end of the PV: '?' failed low, '!' failed high.
    if (info.bound == Bound::Upper) pv += '?';
    if (info.bound == Bound::Lower) pv += '!';
    return fmt::format("{} {} {} {} {}", info.depth, toXboardScore(info.score), info.timeMs / 10, info.nodes, pv);
}

void XboardSession::printStat() {
    MoveList legal;
    generateLegal(game_, legal);
    const int64_t cs = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - searchStart_).count() / 10;
    std::lock_guard lock(statMutex_);
    const int left = stat_.moveNumber > 0 ? std::max(0, legal.size - stat_.moveNumber) : legal.size;
    std::string line = fmt::format("stat01: {} {} {} {} {}", cs, stat_.nodes, stat_.depth, left, legal.size);
    if (stat_.move) line += ' ' + stat_.move.toString();
    say_(line);
}

}  // namespace chariot
