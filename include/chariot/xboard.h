// The XBoard front-end: the Chess Engine Communication Protocol (CECP v2)
// as XBoard and WinBoard speak it for xiangqi. Protocol hands a session
// every event once `xboard` was the first command (it keeps reading the
// input and splitting it into lines); the session parses and formats, and
// plays through the same Engine API as the UCCI and UCI front-ends.
//
// CECP, unlike UCCI, lets the GUI send commands at any time and expects the
// engine to act on some of them while it thinks: a session keeps the game
// (the position set and the moves since), the mode (force, playing one
// colour, analysing), the clocks, and one search at a time (thinking on its
// move, pondering on the expected reply, analysing). While a search runs,
// commands that only set something (`post`, `time`, `level`...) act at
// once, `?` makes it move now, a move that the ponder search expected turns
// it into the real search, and commands that change the game or the mode
// stop it without a move and run once it has ended; `ping` and what comes
// after it wait for the engine's move. Everything else waits in order.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chariot/engine.h"

namespace chariot {

// Score as XBoard's thinking output reads it: centipawns (Chariot's internal
// units, as UCI's `score cp`), a mate in N moves as 100000 + N, being mated
// in N as -100000 - N.
int toXboardScore(Value v);

// XBoard's xiangqi FEN leaves out the castling and en-passant fields
// ("... w 0 1"); this puts `- -` back so that the counters are read as such.
// Other FENs are returned as they are.
std::string fromXboardFen(const std::vector<std::string>& fields);

class XboardSession {
public:
    using Writer = std::function<void(const std::string&)>;
    // `say` writes one complete line (thread-safe: the search thread prints
    // thinking output through it). `searchDone` is called on the search
    // thread when a search the session started has answered: the owner's
    // loop then calls onSearchDone(). `myName` is the feature myname.
    XboardSession(Engine& engine, Writer say, std::function<void()> searchDone, std::string myName);
    ~XboardSession();
    XboardSession(const XboardSession&) = delete;
    XboardSession& operator=(const XboardSession&) = delete;

    // The loop's events, in the order they happen; each returns false when
    // the session is over (quit, or the end of the input once every queued
    // command has run).
    bool onLine(const std::string& line, bool truncated);
    bool onSearchDone();
    bool onEndOfInput();
    // Built without threads: the owner's poll for input during the
    // session's searches (SearchCallbacks::onPoll), which hands the lines
    // that have arrived to onLine and onEndOfInput.
    void setSearchPoll(std::function<void(int64_t)> poll) { searchPoll_ = std::move(poll); }
    // Built without threads, from that poll: a search started by a waiting
    // command runs to its end inside drain(), so the commands that waited
    // after it act on it here, as drain() takes them once a threaded search
    // has started. True if one did.
    bool actOnQueued();

private:
    enum class Mode : uint8_t { Force, Playing, Analyzing };
    enum class Search : uint8_t { Idle, Thinking, Pondering, Analyzing, Stopping };
    enum class Kind : uint8_t { Think, Ponder, Analyze };
    // What duringSearch did with a command: dealt with, or it waits for the
    // search to end (which the command may have asked for).
    enum class Action : uint8_t { Done, Wait };
    struct Pending {
        std::string text;
        bool truncated = false;
        bool endOfInput = false;
    };

    bool feed(Pending p);
    // Runs the waiting commands as far as the search state allows; starts
    // the ponder search or the analysis when idle at the end.
    bool drain();
    Action duringSearch(const Pending& p);
    // An idle command; false ends the session.
    bool execute(const Pending& p);

    void cmdProtover();
    void cmdUserMove(const std::string& text);
    void cmdSetBoard(const std::vector<std::string>& tokens, const std::string& line);
    void cmdTakeBack(int plies, const std::string& line);
    void cmdLevel(const std::vector<std::string>& tokens, const std::string& line);
    void cmdOption(const std::string& line);
    void cmdBook();
    void setEngineOption(const std::string& name, const std::string& value);
    void error(const std::string& reason, const std::string& line);

    // The game: the position set (start or setboard) and the moves since.
    void setGame(std::string base, std::vector<std::string> moves);
    void syncEngine();  // the engine's position = the game's
    // The rules' verdict on a position: mate or stalemate (which loses), a
    // repetition (a draw, or perpetual check or chase, which loses) at its
    // third occurrence, the no-capture rule; with the words for XBoard
    // ("1-0 {Red mates}", "0-1 {Red: perpetual check}").
    struct GameEnd {
        enum class Kind : uint8_t { None, Mate, Repetition, Perpetual, NoCapture };
        Kind kind = Kind::None;
        Color loser = Color::Red;  // Mate, Perpetual
        std::string text;
    };
    GameEnd judgeGame(const Position& pos) const;
    // Tells XBoard what the rules say on the engine's turn or after its
    // move; true when the game is over for the engine. Claims go out where
    // XBoard checks them and agrees: mate and stalemate, a repetition draw,
    // a perpetual the engine itself committed. XBoard, testing claims (as
    // Debian's XBoard does by default), calls any other win claim false and
    // forfeits the claimer: a perpetual by the opponent is left to XBoard's
    // own repetition rules (a `#` line says it); the no-capture rule, which
    // XBoard counts its own way, is claimed with `offer draw` before the
    // engine's move (granted where XBoard agrees, else an offer).
    bool announce(const GameEnd& end);
    // The engine's limits for its move at game ply `ply`.
    SearchLimits clockLimits(int ply) const;

    void think();
    void startPonder();
    void startAnalysis();
    void startBackground();  // ponder or analysis, when there is one to run
    void start(Kind kind, GoRequest request);
    void abortSearch();  // stop without a move
    void finishSearch();
    void deliverMove(const BestMove& answer);
    std::string thinkingLine(const SearchInfo& info) const;
    void printStat();

    Engine& engine_;
    Writer say_;
    std::function<void()> searchDone_;
    std::function<void(int64_t)> searchPoll_;
    std::string myName_;

    // The game.
    std::string base_;
    std::vector<std::string> moves_;
    Position game_;
    Mode mode_ = Mode::Playing;
    Color engineColor_ = Color::Black;
    bool gameOver_ = false;     // the engine resigned or claimed the end
    bool drawOffered_ = false;  // the opponent's offer, for the engine's next move
    bool drawPassed_ = false;   // the running search was told of it
    Move ponderMove_;           // the reply the engine expects (its hint)

    // Time control (level / st / sd) and clocks (time / otim).
    int mps_ = 40;  // moves per session; 0: the whole game
    int64_t baseMs_ = 300000;
    int64_t incMs_ = 0;
    int levelPly_ = 0;        // the game ply when `level` came
    int64_t stMs_ = -1;       // exact time per move; -1: none
    int sd_ = 0;              // depth limit; 0: none
    int64_t ourTimeCs_ = -1;  // -1: not sent yet
    int64_t oppTimeCs_ = -1;
    std::atomic<bool> post_{false};
    bool ponder_ = false;  // hard / easy

    // The search.
    Search search_ = Search::Idle;
    Kind running_ = Kind::Think;
    bool discard_ = false;  // the running search ends without a move
    bool inputClosed_ = false;
    std::atomic<uint64_t> generation_{0};  // a stopped search's late output is dropped
    std::chrono::steady_clock::time_point searchStart_;
    std::mutex answerMutex_;
    BestMove answer_;
    SearchInfo lastInfo_;  // the last line printed (search thread, then after wait())
    struct Stat {
        uint64_t nodes = 0;
        int depth = 0;
        int moveNumber = 0;
        Move move;
    };
    std::mutex statMutex_;
    Stat stat_;  // for `.` in analysis
    std::deque<Pending> deferred_;
};

}  // namespace chariot
