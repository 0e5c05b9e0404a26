// The protocol front-end: the only code that talks to stdin/stdout. It speaks
// UCCI, or UCI when the first command is `uci`; both dialects share one
// option table and one command set.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
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

// Upper bounds on the work one protocol command may start, whatever the
// input asks. For tests and fuzzing: the defaults bound nothing.
struct WorkCaps {
    int depth = MaxSearchDepth;                 // search, perft and bench depth
    uint64_t nodes = 0;                         // nodes per search; 0: no cap
    size_t hashMB = TranspositionTable::MaxMB;  // hashsize option and bench hash
    int threads = 256;                          // search threads
};

class Protocol {
public:
    enum class Dialect : uint8_t { Ucci, Uci };

    // `write` receives complete lines without the newline; it must flush.
    explicit Protocol(std::function<void(const std::string&)> write, const WorkCaps& caps = {});
    ~Protocol();

    // Reads stdin on its own thread until `quit` or end of input; returns
    // the process exit code.
    int runStdin();
    // Runs the loop over the given lines (then behaves as at end of input).
    int runLines(const std::vector<std::string>& lines);

    Dialect dialect() const { return dialect_; }

private:
    struct OptionSpec;
    enum class Event : uint8_t { Line, SearchDone, EndOfInput };
    struct Message {
        Event event;
        std::string text;
        bool truncated = false;
    };

    void post(Message m);
    int loop();
    // Returns false when the engine should exit.
    bool handle(const std::string& line, bool truncated);
    void handleWhileSearching(const std::vector<std::string>& tokens, const std::string& line, bool truncated);
    // Runs the commands that waited for a search; false when one ends the session.
    bool drainDeferred();

    void cmdHandshake(Dialect d);
    void cmdSetOption(const std::vector<std::string>& tokens, const std::string& line);
    void cmdPosition(const std::vector<std::string>& tokens, size_t first);
    void cmdBanMoves(const std::vector<std::string>& tokens);
    void cmdGo(const std::vector<std::string>& tokens);
    void cmdProbe(const std::vector<std::string>& tokens);
    void cmdPerft(const std::vector<std::string>& tokens);
    void cmdBench(const std::vector<std::string>& tokens);
    void cmdDisplay();
    void cmdHelp();
    void startSearch(SearchLimits limits, bool drawOffered);
    // Answers `go` from the opening book; false if the book has no move.
    bool playBookMove();
    void finishSearch();
    void printInfo(const SearchInfo& info);
    void printBestMove(const SearchResult& result);
    void say(const std::string& line);
    void info(const std::string& message);  // "info string ..." (UCCI: also readable by GUIs)
    bool setOptionValue(const std::string& name, const std::string& value);
    std::vector<OptionSpec> optionTable();

    std::function<void(const std::string&)> write_;
    std::mutex writeMutex_;
    const WorkCaps caps_;
    Engine engine_;
    Dialect dialect_ = Dialect::Ucci;
    bool handshakeDone_ = false;

    // Options that live in the front-end.
    bool useMillisec_ = false;
    bool batch_ = false;
    bool debug_ = false;
    bool ponderOption_ = false;
    int64_t moveOverheadMs_ = 30;
    std::string defaultBookFiles_;

    // Search state.
    std::thread searchThread_;
    SearchResult searchResult_;  // written by the search thread, read after joining it
    bool searching_ = false;
    bool drawOffered_ = false;
    bool quitting_ = false;      // quit arrived during a search
    bool inputClosed_ = false;   // end of input seen
    SearchLimits currentLimits_;
    std::deque<Message> deferred_;  // commands that wait for the search to end

    std::mutex queueMutex_;
    std::condition_variable queueCv_;
    std::deque<Message> queue_;
};

}  // namespace chariot
