// The protocol front-end: the only code that talks to stdin/stdout. It speaks
// UCCI, or UCI when the first command is `uci`; both dialects share one
// option table and one command set. When the first command is `xboard`, it
// hands every line to an XboardSession (xboard.h), the CECP front-end.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chariot/engine.h"

namespace chariot {

// Splits a byte stream into lines: handles CR/LF, turns NUL and other control
// bytes into spaces, and cuts lines longer than MaxLine (the rest of such a
// line is dropped and the line is flagged).
class LineSplitter {
public:
    static constexpr size_t MaxLine = 1 << 20;
    struct Line {
        std::string text;
        bool truncated = false;
    };
    // Feeds bytes; complete lines are appended to `out`.
    void feed(const char* data, size_t size, std::vector<Line>& out);
    // End of input: the unterminated last line, if any.
    std::optional<Line> finish();

private:
    std::string current_;
    bool truncated_ = false;
};

// Score as UCCI GUIs read it: a bare number on ElephantEye's scale (internal
// units / 4), mate as +-(10000 - plies), a win by the repetition rules as
// +-(9900 - plies).
int toUcciScore(Value v);
// UCI `score cp`: internal units; a win by the repetition rules is
// +-(20000 - plies) (a mate is printed as `score mate N` instead).
int toCentipawns(Value v);

class XboardSession;

class Protocol {
public:
    enum class Dialect : uint8_t { Ucci, Uci, Xboard };

    // `write` receives complete lines without the newline; it must flush.
    explicit Protocol(std::function<void(const std::string&)> write, const WorkCaps& caps = {});
    ~Protocol();

    // Reads stdin on its own thread until `quit` or end of input; returns
    // the process exit code. (Built without threads: on this thread, which
    // the search polls for input; see platform::pollStdin.)
    int runStdin();
    // Runs the loop over the given lines (then behaves as at end of input).
    // May be called again (the fuzzer reuses one Protocol): each call is a
    // fresh session over the same engine, options back to their defaults.
    int runLines(const std::vector<std::string>& lines);

    Dialect dialect() const { return dialect_; }
    Engine& engine() { return engine_; }

private:
    enum class Event : uint8_t { Line, SearchDone, EndOfInput };
    struct Message {
        Event event;
        std::string text;
        bool truncated = false;
    };

    void declareOptions();
    void resetSession();
    void post(Message m);
    int loop();
    // Returns false when the engine should exit.
    bool handle(const std::string& line, bool truncated);
    // A command met while a search runs (`queued`: taken from the front of
    // deferred_ right after a queued go started it): true when it was dealt
    // with at once (stop, ponderhit, isready, probe); false: it waits in
    // deferred_ (quit stops the search first).
    bool actOnSearch(const Message& m, bool queued);
    bool goQueued() const;
    void stopSearch();
    // Runs the commands that waited for a search; false when one ends the session.
    bool drainDeferred();
    // With the CECP dialect: the session gets every event; false ends the loop.
    bool toXboard(const Message& m);
#if CHARIOT_NO_THREADS
    // Without threads: moves what stdin has into queue_, waiting at most
    // `waitMs` for input (negative: until some arrives); false when there is
    // nothing to wait for (not reading stdin, or its end already queued).
    bool pumpStdin(int64_t waitMs);
    // The search's poll (SearchCallbacks::onPoll): the input that has
    // arrived, taken as the loop takes it while a search runs.
    void pollDuringSearch(int64_t waitMs);
#endif

    void cmdHandshake(Dialect d);
    void cmdSetOption(const std::vector<std::string>& tokens);
    void cmdPosition(const std::vector<std::string>& tokens, size_t first);
    void cmdBanMoves(const std::vector<std::string>& tokens);
    void cmdGo(const std::vector<std::string>& tokens);
    void cmdProbe(const std::vector<std::string>& tokens);
    void cmdPerft(const std::vector<std::string>& tokens);
    void cmdBench(const std::vector<std::string>& tokens);
    void cmdDisplay();
    void cmdHelp();
    void startSearch(GoRequest request);
    void finishSearch();
    void printInfo(const SearchInfo& info);
    void printCurrentMove(const CurrentMove& c);
    void printProgress(const SearchProgress& p);
    void printBestMove(const BestMove& answer);
    void say(const std::string& line);
    void info(const std::string& message);  // "info string ..." (UCCI: also readable by GUIs)

    std::function<void(const std::string&)> write_;
    std::mutex writeMutex_;
    Engine engine_;
    // `bench` runs on an engine of its own (the game's position, table and
    // options stay as they were), kept for the next `bench`.
    std::unique_ptr<Engine> benchEngine_;
    Dialect dialect_ = Dialect::Ucci;
    bool sawCommand_ = false;                // a command came: `xboard` selects CECP only as the first
    std::unique_ptr<XboardSession> xboard_;  // after `xboard`: the CECP front-end

    // Options that live in the front-end (declared in the engine's registry).
    bool useMillisec_ = false;
    bool batch_ = false;
    bool debug_ = false;
    bool showWdl_ = false;

    // The phase of the position searched, for the wdl of its info lines
    // (set before the search thread starts, read by it).
    int wdlPhase_ = 0;

    // Search state.
    BestMove answer_;  // written by the search thread before SearchDone is posted
    std::mutex answerMutex_;
    // The search state machine: idle -> searching or pondering on go;
    // pondering -> searching on ponderhit; either -> stopping on stop;
    // back to idle when the answer is printed. While not idle, isready is
    // answered at once, and a stop or ponderhit acts on the running search
    // unless a go is queued after it (then it belongs to that go and
    // waits); everything else waits in deferred_ and runs in order once the
    // search has answered.
    enum class SearchState : uint8_t { Idle, Searching, Pondering, Stopping };
    SearchState state_ = SearchState::Idle;
    bool stoppedByCommand_ = false;  // the running search was stopped by stop or quit
    bool answeredOnItsOwn_ = false;  // the last search ended by itself, and no command came since
    bool quitting_ = false;          // quit arrived during a search
    bool inputClosed_ = false;       // end of input seen
    SearchLimits currentLimits_;
    SearchInfo lastInfo_;           // the last main line printed (search thread, then after wait())
    std::deque<Message> deferred_;  // commands that wait for the search to end

    std::mutex queueMutex_;
    std::condition_variable queueCv_;
    std::deque<Message> queue_;
#if CHARIOT_NO_THREADS
    bool readingStdin_ = false;  // runStdin: the loop reads stdin itself
    bool stdinEnded_ = false;    // its EndOfInput is queued
    LineSplitter stdinLines_;
#endif
};

}  // namespace chariot
