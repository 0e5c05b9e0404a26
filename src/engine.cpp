#include "chariot/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <fmt/format.h>

#include "chariot/eval.h"
#include "chariot/movegen.h"
#include "chariot/rules.h"

namespace chariot {

namespace {

const std::vector<std::string> Levels = {"none", "small", "medium", "large"};
const std::vector<std::string> RandomnessLevels = {"none", "tiny", "small", "medium", "large", "huge"};

int levelIndex(const std::vector<std::string>& names, const std::string& v) {
    return int(std::find(names.begin(), names.end(), v) - names.begin());
}

// Draw offers: our last searches all scored within this band (internal
// units, a pawn is about 100) deep into the no-capture count.
constexpr Value LevelScore = 20;
constexpr int LevelSearches = 8;
constexpr int LevelRule60 = 80;

// The limiter searches more lines than the user asked for: report only those.
std::function<void(const SearchInfo&)> shownLines(std::function<void(const SearchInfo&)> onInfo, int shown) {
    if (!onInfo) return onInfo;
    return [onInfo = std::move(onInfo), shown](const SearchInfo& info) {
        if (info.multiPV <= shown) onInfo(info);
    };
}

// The reports of a search whose root the tables know show the table's score.
std::function<void(const SearchInfo&)> withTableScore(std::function<void(const SearchInfo&)> onInfo, Value v) {
    if (!onInfo) return onInfo;
    return [onInfo = std::move(onInfo), v](const SearchInfo& info) {
        SearchInfo shown = info;
        shown.score = v;
        shown.bound = Bound::Exact;
        onInfo(shown);
    };
}

}  // namespace

int randomnessAmplitude(Randomness r) {
    constexpr int amplitude[] = {0, 4, 12, 28, 60, 120};
    return amplitude[int(r)];
}

Engine::Engine(const WorkCaps& caps)
    : caps_(caps),
      tt_(std::min(DefaultHashMB, caps.hashMB)),
      searcher_(tt_),
      net_(nnue::embeddedNetwork()),
      rngState_(uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) | 1) {
    declareOptions();
    // A missing default book is not an error: the engine just plays without one.
    setBookFiles(defaultBookPath());
}

Engine::~Engine() {
    searcher_.stop();
    searcher_.wait();
}

void Engine::declareOptions() {
    using Messages = std::vector<std::string>;
    auto say = [](bool when, std::string text) { return when ? Messages{std::move(text)} : Messages{}; };

    Option hash = spinOption(
        "hashsize", "Hash", int64_t(DefaultHashMB), int64_t(TranspositionTable::MinMB),
        int64_t(TranspositionTable::MaxMB),
        "transposition table in MB (UCCI 0: the default); a request the machine cannot hold is clamped, with a message",
        [this, say](const OptionValue& v) {
            searcher_.wait();
            const size_t got = setHashMB(size_t(v.spin));
            return say(got != size_t(v.spin), fmt::format("hash table is {} MB", got));
        });
    hash.zeroMeansDefault = true;
    options_.add(std::move(hash));
    Option threads = spinOption(
        "threads", "Threads", 1, 1, 256, "search threads (Lazy SMP; UCCI 0: 1)", [this](const OptionValue& v) {
            searcher_.wait();
            searchOptions_.threads = int(std::min<int64_t>(v.spin, caps_.threads));
            // Only a front-end with a lower cap than the option's range (the
            // WebAssembly builds: 32, or 1 without threads) clamps, and says so.
            if (v.spin <= caps_.threads) return Messages{};
            if (caps_.threads == 1 && !caps_.threadsNote.empty())
                return Messages{fmt::format("threads: one thread only ({}); using 1", caps_.threadsNote)};
            return Messages{fmt::format("threads: at most {} in this build", caps_.threads)};
        });
    threads.zeroMeansDefault = true;
    options_.add(std::move(threads));
    options_.add(
        spinOption("multipv", "MultiPV", 1, 1, 128, "number of best lines reported", [this](const OptionValue& v) {
            searchOptions_.multiPV = int(v.spin);
            return Messages{};
        }));
    options_.add(checkOption("ponder", "Ponder", false, "the GUI may ponder: plan a little more time per move",
                             [this](const OptionValue& v) {
                                 ponderOption_ = v.check;
                                 return Messages{};
                             }));
    options_.add(checkOption("usebook", "OwnBook", true, "play from the opening book", [this](const OptionValue& v) {
        useBook_ = v.check;
        return Messages{};
    }));
    Option books = stringOption("bookfiles", "BookFiles", defaultBookPath(),
                                "book file(s), `;`-separated: Chariot books or ElephantEye `BOOK.DAT`",
                                [this](const OptionValue& v) {
                                    auto errors = setBookFiles(v.text);
                                    Messages out;
                                    for (const auto& e : errors) out.push_back("bookfiles: " + e);
                                    if (!v.text.empty() && errors.empty())
                                        out.push_back(fmt::format("bookfiles: {} book(s) loaded", loadedBooks()));
                                    return out;
                                });
    books.docDefault = "`chariot.book` next to the binary";
    options_.add(std::move(books));
    options_.add(checkOption("bookrandom", "BookRandom", true,
                             "pick among the book moves at random, weighted by their weights (false: always the "
                             "best-weighted move)",
                             [this](const OptionValue& v) {
                                 bookRandom_ = v.check;
                                 return Messages{};
                             }));
    options_.add(buttonOption("loadbook", "", "reload the book files", [this](const OptionValue&) {
        Messages out;
        for (const auto& e : setBookFiles(bookFiles_)) out.push_back("loadbook: " + e);
        return out;
    }));
    options_.add(spinOption("moveoverhead", "Move Overhead", 30, 0, 5000,
                            "ms kept back per move for GUI and pipe latency", [this](const OptionValue& v) {
                                moveOverheadMs_ = v.spin;
                                return Messages{};
                            }));
    options_.add(
        comboOption("pruning", "Pruning", "large", Levels, "how aggressively to prune", [this](const OptionValue& v) {
            searchOptions_.pruning = Pruning(levelIndex(Levels, v.text));
            return Messages{};
        }));
    options_.add(comboOption("knowledge", "Knowledge", "large", Levels, "how much evaluation knowledge",
                             [this](const OptionValue& v) {
                                 searchOptions_.knowledge = Knowledge(levelIndex(Levels, v.text));
                                 return Messages{};
                             }));
    // The NNUE evaluation (nnue.h); the handcrafted one where no net is loaded.
    options_.add(checkOption("usennue", "Use NNUE", DefaultUseNnue,
                             "evaluate with the NNUE net of `evalfile` instead of the handcrafted evaluation (at "
                             "`knowledge` large only: the lower levels stay handcrafted)",
                             [this, say](const OptionValue& v) {
                                 useNnue_ = v.check;
                                 return say(v.check && !net_,
                                            "usennue: no net is loaded (set evalfile); the "
                                            "handcrafted evaluation stays in use");
                             }));
    options_.add(stringOption(
        "evalfile", "EvalFile", "<embedded>",
        "NNUE net file (CHRTNNUE) for `usennue`; `<embedded>`: the net built into the engine; a file that does not "
        "load is refused with a message and the previous net kept",
        [this](const OptionValue& v) {
            const std::string before = net_ ? net_->name() : std::string("no net");
            if (v.text.empty() || asciiLower(v.text) == "<embedded>") {
                net_ = nnue::embeddedNetwork();
                if (net_) return Messages{fmt::format("evalfile: the embedded net {}", net_->name())};
                const std::string error = nnue::embeddedNetworkError();
                return Messages{error.empty() ? std::string("evalfile: this build embeds no net; no net is loaded")
                                              : fmt::format("evalfile: the embedded net is refused: {}", error)};
            }
            std::string error;
            auto net = nnue::Network::load(v.text, error);
            if (!net) {
                v.rejected = true;
                return Messages{fmt::format("evalfile: {}; keeping {}", error, before)};
            }
            net_ = std::move(net);
            return Messages{fmt::format("evalfile: loaded {} (hidden {}{}){}", net_->name(), net_->hidden(),
                                        net_->headSize() ? fmt::format(", head {}", net_->headSize()) : "",
                                        useNnue_ ? "" : "; usennue is off")};
        }));
    options_.add(checkOption("chaserule", "ChaseRule", true,
                             "perpetual chase loses (Asian rules); false: a chasing repetition is a draw, perpetual "
                             "check still loses",
                             [this](const OptionValue& v) {
                                 searchOptions_.judgeChase = v.check;
                                 return Messages{};
                             }));
    Option randomness = comboOption("randomness", "Randomness", "none", RandomnessLevels,
                                    "small random variation of the search's move choice", [this](const OptionValue& v) {
                                        randomness_ = Randomness(levelIndex(RandomnessLevels, v.text));
                                        return Messages{};
                                    });
    randomness.aliases = {"selectivity"};  // its UCCI 2.x name
    options_.add(std::move(randomness));
    // The strength limiter (skill.h; README "Playing at a chosen strength").
    options_.add(spinOption("skilllevel", "Skill Level", skill::MaxLevel, 0, skill::MaxLevel,
                            "playing strength: 0 weakest, 20 full strength (capped search and a choice among the "
                            "best moves; see Playing at a chosen strength)",
                            [this](const OptionValue& v) {
                                skillLevel_ = int(v.spin);
                                return Messages{};
                            }));
    options_.add(checkOption("limitstrength", "UCI_LimitStrength", false,
                             "play at the rating of `elo` (the level it maps to) instead of `skilllevel`",
                             [this](const OptionValue& v) {
                                 limitStrength_ = v.check;
                                 return Messages{};
                             }));
    options_.add(spinOption("elo", "UCI_Elo", skill::minElo(), skill::minElo(), skill::maxElo(),
                            "the rating to play at with `limitstrength` on (scale: ElephantEye 3.31 = 2000; the "
                            "maximum is full strength; measured at 1 s + 0.02 s, see the README)",
                            [this](const OptionValue& v) {
                                elo_ = int(v.spin);
                                return Messages{};
                            }));
    options_.add(buttonOption("newgame", "Clear Hash", "forget the hash table, the histories and the draw-offer record",
                              [this](const OptionValue&) {
                                  newGame();
                                  return Messages{};
                              }));
    // Standard UCCI options a GUI may send (ElephantEye's league simulator
    // opens every game with `setoption promotion false`).
    options_.add(checkOption("promotion", "", false,
                             "UCCI's advisor/elephant promotion variant: not supported (false is the standard rules)",
                             [say](const OptionValue& v) {
                                 return say(v.check,
                                            "promotion: the promotion variant is not supported; playing "
                                            "the standard rules");
                             }));
    // Endgame tablebases (README "Endgame tablebases"): built by `chariot egtb build`.
    options_.add(stringOption("egtbpath", "EGTBPath", "",
                              "folder of endgame tablebases (`chariot egtb build`); empty: none; a folder without "
                              "tables is answered with a message and the engine plays on without",
                              [this](const OptionValue& v) {
                                  searcher_.wait();
                                  tablebase_.reset();
                                  if (v.text.empty()) return Messages{};
                                  if (!tbLoader_)
                                      return Messages{"egtbpath: this build has no endgame tablebase support"};
                                  std::string error;
                                  tablebase_ = tbLoader_(v.text, error);
                                  if (!tablebase_)
                                      return Messages{fmt::format("egtbpath: {}; playing without tables", error)};
                                  return Messages{fmt::format("egtbpath: {}{}", tablebase_->describe(),
                                                              useEgtb_ ? "" : " (useegtb is off)")};
                              }));
    options_.add(
        checkOption("useegtb", "", true, "probe the endgame tablebases of `egtbpath`", [this](const OptionValue& v) {
            searcher_.wait();
            useEgtb_ = v.check;
            return Messages{};
        }));
    options_.add(comboOption(
        "idle", "", "none", Levels, "CPU to leave free while thinking: not supported (always none)",
        [say](const OptionValue& v) {
            return say(v.text != "none", "idle: Chariot does not throttle itself; use fewer threads instead");
        }));
    options_.add(comboOption(
        "style", "", "normal", {"solid", "normal", "risky"}, "playing style: only normal",
        [say](const OptionValue& v) { return say(v.text != "normal", "style: only normal is supported; ignored"); }));
#if CHARIOT_TUNABLE
    // Tuning builds only: every search constant of SearchParamTable as a spin
    // option (UCI name as in the table, UCCI name in lower case) for SPSA.
    const SearchParams defaults;
    for (const SearchParamInfo& p : SearchParamTable) {
        options_.add(spinOption(asciiLower(p.name), p.name, defaults.*(p.member), p.min, p.max,
                                "search constant (tuning builds only; search_params.h)",
                                [this, member = p.member](const OptionValue& v) {
                                    searchOptions_.params.*member = int(v.spin);
                                    return Messages{};
                                }));
    }
#endif
}

std::optional<std::string> Engine::setPosition(std::string_view base, const std::vector<std::string>& moves) {
    if (auto error = setupPosition(position_, base == "startpos" ? StartFen : base, moves)) return error;
    banned_.clear();
    return std::nullopt;
}

std::vector<std::string> Engine::setBannedMoves(const std::vector<std::string>& moves) {
    std::vector<std::string> rejected;
    banned_.clear();
    for (const auto& text : moves) {
        Move m = position_.parseLegalMove(text);
        if (m)
            banned_.push_back(m);
        else
            rejected.push_back(text.substr(0, 16));
    }
    return rejected;
}

SearchOptions Engine::preparedOptions(bool limited) {
    SearchOptions options = searchOptions_;
    options.randomness = randomnessAmplitude(randomness_);
    options.seed = tables::splitMix64(rngState_);  // a fresh jitter pattern every search
    // What the engine adds to every search: banned moves, the move overhead
    // and ponder option, the work caps.
    options.banned = banned_;
    options.time.overhead = moveOverheadMs_;
    options.time.ponderOption = ponderOption_;
    options.depthCap = caps_.depth;
    options.nodeCap = caps_.nodes;
    options.net = useNnue_ ? net_ : nullptr;
    // The limited levels play with the net their Elo table was measured with
    // (docs/skill.md), whatever net is loaded for full strength: a stronger
    // default net would otherwise move every rating up.
    if (limited && options.net)
        if (auto calibration = nnue::calibrationNetwork()) options.net = std::move(calibration);
    // Nor do they know the endgame tables: a weaker player's endgames.
    options.tablebase = limited ? nullptr : tablebase();
    // The hash table keeps static evaluations: when the evaluation changes
    // (another net, the handcrafted one, another knowledge level) they
    // would be another evaluation's, so the table starts afresh.
    const std::pair<const void*, Knowledge> evaluation{
        options.knowledge == Knowledge::Large ? options.net.get() : nullptr, options.knowledge};
    if (evaluation != lastEvaluation_) {
        if (lastEvaluation_.second != Knowledge(0xFF)) tt_.clear();
        lastEvaluation_ = evaluation;
    }
    return options;
}

void Engine::go(GoRequest request, EngineCallbacks callbacks) {
    searcher_.wait();
    const SearchLimits& limits = request.limits;
    const skill::Params skill = skill::paramsFor(skillLevel());
    // A limited engine plays without the book (its moves would be a
    // master's), and analyses (go infinite) at full strength: nobody wants
    // a weakened analysis that stops thinking after a few thousand nodes.
    const bool limited = skill::limited(skill.level) && !limits.infinite;

    if (!skill::limited(skill.level) && !limits.ponder && !limits.infinite && limits.searchMoves.empty() &&
        limits.mate == 0) {
        BestMove answer;
        Move ponder;
        if (Move m = bookMove(&answer.bookMoves, &ponder)) {
            answer.fromBook = true;
            answer.result.best = m;
            answer.result.ponder = ponder;
            answer.result.pv = {m};
            if (ponder) answer.result.pv.push_back(ponder);
            if (callbacks.onBestMove) callbacks.onBestMove(answer);
            return;
        }
    }
    drawOffered_ = request.drawOffered;
    SearchOptions options = preparedOptions(limited);
    options.time.noMoreCommands = request.inputClosed;
    if (const auto tbScore = limited ? std::nullopt : tablebaseRoot(request.limits, options)) {
        // The reports show the table's score (the search sees only the moves that keep it).
        callbacks.onIteration = withTableScore(std::move(callbacks.onIteration), *tbScore);
        if (callbacks.onBestMove)
            callbacks.onBestMove = [f = std::move(callbacks.onBestMove), v = *tbScore](const BestMove& answer) {
                BestMove shown = answer;
                if (shown.result.best) shown.result.score = v;
                f(shown);
            };
    }
    if (limited) {
        limitStrength(options, skill);
        callbacks.onIteration = shownLines(std::move(callbacks.onIteration), searchOptions_.multiPV);
    }
    SearchCallbacks sc{
        std::move(callbacks.onIteration), std::move(callbacks.onCurrentMove), std::move(callbacks.onProgress),
        [this, onBest = std::move(callbacks.onBestMove), limited, skill, seed = options.seed](const SearchResult& r) {
            BestMove answer;
            answer.result = r;
            if (limited) chooseLimitedMove(answer.result, skill, seed);
            judgeOutcome(answer, drawOffered_.load(), !limited || skill.level >= skill::MinResignLevel);
            if (onBest) onBest(answer);
        },
        std::move(callbacks.onPoll)};
    searcher_.start(position_, request.limits, options, std::move(sc));
}

void Engine::ponderhit(bool drawOffered) {
    // Read by the search thread only once the search is over (judgeOutcome
    // runs after the pool has stopped, ordered by the searcher's wait lock).
    if (drawOffered) drawOffered_ = true;
    searcher_.ponderhit();
}

SearchResult Engine::search(const SearchLimits& limits, const std::function<void(const SearchInfo&)>& onInfo) {
    searcher_.wait();
    SearchCallbacks callbacks;
    callbacks.onIteration = onInfo;
    const skill::Params skill = skill::paramsFor(skillLevel());
    SearchOptions options = preparedOptions(skill::limited(skill.level));
    if (!skill::limited(skill.level)) {
        SearchLimits tbLimits = limits;
        if (const auto tbScore = tablebaseRoot(tbLimits, options)) {
            callbacks.onIteration = withTableScore(std::move(callbacks.onIteration), *tbScore);
            SearchResult r = searcher_.search(position_, tbLimits, options, std::move(callbacks));
            if (r.best) r.score = *tbScore;
            return r;
        }
        return searcher_.search(position_, limits, options, std::move(callbacks));
    }
    limitStrength(options, skill);
    callbacks.onIteration = shownLines(std::move(callbacks.onIteration), searchOptions_.multiPV);
    SearchResult result = searcher_.search(position_, limits, options, std::move(callbacks));
    chooseLimitedMove(result, skill, options.seed);
    return result;
}

double Engine::skillLevel() const { return limitStrength_ ? skill::levelForElo(elo_) : double(skillLevel_); }

void Engine::limitStrength(SearchOptions& options, const skill::Params& params) const {
    // Another stream than the jitter's and the move choice's (same seed).
    options.depthCap = std::min(options.depthCap, skill::depthFor(params, options.seed ^ 0xBB67AE8584CAA73BULL));
    options.nodeCap = options.nodeCap ? std::min(options.nodeCap, params.nodes) : params.nodes;
    options.multiPV = std::max(options.multiPV, params.multiPV);
    options.threads = 1;  // exact node caps; a weaker player needs no second thread
    // With a clock: a share of the normal plan (a fixed movetime stays as
    // given). Not an instant answer when the caps end the search early: a
    // share of the plan, at most a few seconds (the time manager waits).
    options.time.timePercent = params.timePercent;
    options.time.minThinkPercent = params.minThinkPercent;
    options.time.minThinkCapMs = std::min(params.minThinkCapMs, caps_.minThinkMs);
}

void Engine::chooseLimitedMove(SearchResult& result, const skill::Params& params, uint64_t seed) const {
    if (!result.best || result.lines.empty()) return;
    const size_t count = std::min(result.lines.size(), size_t(std::max(1, params.multiPV)));
    std::vector<skill::Line> lines;
    for (size_t i = 0; i < count; ++i) lines.push_back({result.lines[i].move, result.lines[i].score});
    // Another stream than the root jitter's, which uses the same seed.
    const RootLine& line = result.lines[skill::chooseLine(lines, params, seed ^ 0x6A09E667F3BCC909ULL)];
    result.best = line.move;
    result.score = line.score;
    result.depth = line.depth;
    result.selDepth = line.selDepth;
    result.pv = line.pv;
    if (result.pv.empty() || result.pv[0] != result.best) result.pv.assign(1, result.best);
    result.ponder = result.pv.size() > 1 ? result.pv[1] : Move::none();
    if (!result.ponder) {
        // No reply in the line: the TT's, if it is legal.
        Position after = position_;
        after.makeMove(result.best);
        TTHit hit;
        if (tt_.probe(after.key(), 1, hit) && hit.move && after.isPseudoLegal(hit.move) && after.isLegal(hit.move)) {
            result.ponder = hit.move;
            result.pv.push_back(hit.move);
        }
    }
}

void Engine::judgeOutcome(BestMove& answer, bool drawOffered, bool mayResign) {
    const SearchResult& r = answer.result;
    if (!r.best) return;
    const int rule60 = position_.rule60();
    if (!recentScores_.empty() && rule60 < recentScores_.back().first) recentScores_.clear();  // a capture
    recentScores_.emplace_back(rule60, r.score);
    if (recentScores_.size() > size_t(LevelSearches)) recentScores_.erase(recentScores_.begin());
    // Neither side can ever mate: no rook, horse, cannon or pawn is left.
    const bool deadDraw = !hasAttackers(position_, Color::Red) && !hasAttackers(position_, Color::Black);
    const bool level = rule60 >= LevelRule60 && recentScores_.size() == size_t(LevelSearches) &&
                       std::all_of(recentScores_.begin(), recentScores_.end(),
                                   [](const auto& e) { return std::abs(e.second) <= LevelScore; });
    // An offered draw is accepted when we are clearly worse (not mated: then resign).
    const bool accept = drawOffered && r.score <= -150 && !isDecisive(r.score);
    answer.offerDraw = deadDraw || level || accept;
    answer.resign = mayResign && !answer.offerDraw && r.depth >= 1 && isMateScore(r.score) && r.score < 0 &&
                    mateInMoves(r.score) >= -3;
}

void Engine::newGame() {
    searcher_.wait();
    tt_.clear();
    searcher_.clearHistory();
    recentScores_.clear();
}

std::optional<TbResult> Engine::probeTablebase(const Position& pos) const {
    const auto tb = tablebase();
    return tb ? tb->probe(pos) : std::nullopt;
}

std::optional<Value> Engine::tablebaseRoot(SearchLimits& limits, const SearchOptions& options) const {
    if (!options.tablebase || !options.tablebase->probe(position_)) return std::nullopt;
    MoveList legal;
    generateLegal(position_, legal);
    // Each move's result for us: higher is better (a shorter win, a longer loss).
    std::vector<std::pair<Move, int>> ranked;
    int best = INT32_MIN;
    TbResult bestResult;
    for (Move m : legal) {
        if (std::find(options.banned.begin(), options.banned.end(), m) != options.banned.end()) continue;
        if (!limits.searchMoves.empty() &&
            std::find(limits.searchMoves.begin(), limits.searchMoves.end(), m) == limits.searchMoves.end())
            continue;
        Position after = position_;
        after.makeMove(m);
        TbResult child;  // the opponent's view; a draw where no side has an attacker
        if (hasAttackers(after, Color::Red) || hasAttackers(after, Color::Black)) {
            const auto r = options.tablebase->probe(after);
            if (!r) return std::nullopt;  // a table is missing: let the search decide
            child = *r;
        }
        const int rank = child.wdl == TbWdl::Loss  ? 1'000'000 - child.dtm
                         : child.wdl == TbWdl::Win ? -1'000'000 + child.dtm
                                                   : 0;
        ranked.emplace_back(m, rank);
        if (rank > best) {
            best = rank;
            bestResult.wdl = child.wdl == TbWdl::Loss  ? TbWdl::Win
                             : child.wdl == TbWdl::Win ? TbWdl::Loss
                                                       : TbWdl::Draw;
            bestResult.dtm = child.wdl == TbWdl::Draw ? 0 : child.dtm + 1;
        }
    }
    if (ranked.empty()) return std::nullopt;
    limits.searchMoves.clear();
    for (const auto& [m, rank] : ranked)
        if (rank == best) limits.searchMoves.push_back(m);
    return tbRootValue(bestResult);
}

ProbeResult Engine::probe(const Position& pos) const {
    ProbeResult out;
    TTHit hit;
    if (!tt_.probe(pos.key(), 0, hit)) return out;
    out.found = true;
    if (hit.move && pos.isPseudoLegal(hit.move) && pos.isLegal(hit.move)) out.move = hit.move;
    out.value = hit.value;
    out.bound = hit.bound;
    out.depth = hit.depth;
    return out;
}

std::string Engine::evalReport() const {
    std::string out = chariot::evalReport(position_);
    if (net_) {
        const bool inUse = useNnue_ && searchOptions_.knowledge == Knowledge::Large;
        out += fmt::format("NNUE {}: {} (side to move's view), output bucket {}; {}\n", net_->name(),
                           net_->evaluate(position_), nnue::outputBucket(position_),
                           inUse ? "the search uses it" : "not in use (usennue false, or knowledge below large)");
    }
    return out;
}

std::vector<std::string> Engine::setBookFiles(const std::string& files) {
    std::vector<std::string> errors;
    books_.clear();
    bookFiles_ = files;
    size_t start = 0;
    while (start <= files.size()) {
        size_t end = files.find(';', start);
        if (end == std::string::npos) end = files.size();
        std::string path = files.substr(start, end - start);
        while (!path.empty() && path.back() == ' ') path.pop_back();
        while (!path.empty() && path.front() == ' ') path.erase(path.begin());
        if (!path.empty()) {
            std::string error;
            if (auto book = Book::load(path, error))
                books_.push_back(std::move(book));
            else
                errors.push_back(path + ": " + error);
        }
        start = end + 1;
    }
    return errors;
}

Move Engine::bookMove(std::vector<BookMove>* candidates, Move* ponder) {
    if (!useBook_ || books_.empty()) return Move::none();
    // The first book that knows the position decides.
    std::vector<BookMove> moves;
    for (const auto& book : books_) {
        moves = book->probe(position_);
        if (!moves.empty()) break;
    }
    // Drop banned moves and moves that would repeat a position of the game.
    std::vector<BookMove> usable;
    for (const BookMove& bm : moves) {
        if (std::find(banned_.begin(), banned_.end(), bm.move) != banned_.end()) continue;
        Position after = position_;
        after.makeMove(bm.move);
        if (rules::judge(after, 0, {searchOptions_.judgeChase, 1}).verdict != rules::Verdict::None) continue;
        usable.push_back(bm);
    }
    if (candidates) *candidates = usable;
    if (usable.empty()) return Move::none();
    Move chosen = usable.front().move;  // the best-weighted one
    if (bookRandom_) {
        chosen = pickBookMove(usable, tables::splitMix64(rngState_));
    }
    if (ponder) {
        // The ponder move: the best-weighted book reply, if any.
        *ponder = Move::none();
        Position after = position_;
        after.makeMove(chosen);
        for (const auto& book : books_) {
            auto replies = book->probe(after);
            if (!replies.empty()) {
                *ponder = replies.front().move;
                break;
            }
        }
    }
    return chosen;
}

}  // namespace chariot
