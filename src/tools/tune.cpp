#include "chariot/tune.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "chariot/eval_weights.h"
#include "chariot/movegen.h"
#include "chariot/notation.h"
#include "chariot/pgn.h"

namespace chariot::tune {

// ---------------------------------------------------------------------------
// PGN

namespace {

std::optional<double> parseResult(std::string_view s) {
    if (s == "1-0") return 1.0;
    if (s == "0-1") return 0.0;
    if (s == "1/2-1/2") return 0.5;
    return std::nullopt;
}

}  // namespace

std::vector<PgnGame> readPgn(std::istream& in) {
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::vector<PgnGame> games;
    for (const pgn::PgnGame& g : pgn::parsePgn(bytes).games) {
        PgnGame game;
        game.fen = g.fen();
        const std::string* tagResult = g.tag("Result");
        game.result = tagResult ? parseResult(*tagResult) : std::nullopt;
        if (!game.result) game.result = parseResult(g.result);
        // Moves in any notation, resolved to ICCS along the game; from the
        // first one that does not resolve on, the text as written (so that
        // extractSamples counts it and stops there).
        Position pos;
        bool replaying = !pos.setFen(game.fen);
        for (const pgn::PgnMove& m : g.moves) {
            const Move move = replaying ? notation::parseMove(pos, m.text) : Move::none();
            if (move) {
                game.moves.push_back(move.toString());
                pos.makeMove(move);
            } else {
                game.moves.push_back(m.text);
                replaying = false;
            }
        }
        if (g.unreadable) game.moves.push_back(g.unreadable->text);
        games.push_back(std::move(game));
    }
    return games;
}

// ---------------------------------------------------------------------------
// Positions

namespace {

constexpr int QsMaxPly = 16;

// Capture-only alpha-beta (stand pat on the static evaluation), with its PV.
int qsearch(Position& pos, int alpha, int beta, int ply, std::vector<Move>& pv) {
    pv.clear();
    const int standPat = evaluate(pos);
    if (standPat >= beta || ply >= QsMaxPly) return standPat;
    alpha = std::max(alpha, standPat);
    MoveList list;
    generate<GenType::Captures>(pos, list);
    // Most valuable victim first, least valuable attacker next.
    auto key = [&](Move m) {
        return Position::SeeValue[int(typeOf(pos.pieceOn(m.to())))] * 16 -
               Position::SeeValue[int(typeOf(pos.pieceOn(m.from())))] / 100;
    };
    std::sort(list.moves, list.moves + list.size, [&](Move a, Move b) { return key(a) > key(b); });
    std::vector<Move> childPv;
    for (Move m : list) {
        if (typeOf(pos.pieceOn(m.to())) == PieceType::King || !pos.isLegal(m)) continue;
        pos.makeMove(m);
        const int v = -qsearch(pos, -beta, -alpha, ply + 1, childPv);
        pos.unmakeMove();
        if (v > alpha) {
            alpha = v;
            pv.assign(1, m);
            pv.insert(pv.end(), childPv.begin(), childPv.end());
            if (v >= beta) break;
        }
    }
    return alpha;
}

}  // namespace

Position quietLeaf(const Position& pos) {
    Position p = pos;
    std::vector<Move> pv;
    qsearch(p, -ValueInfinite, ValueInfinite, 0, pv);
    for (Move m : pv) p.makeMove(m);
    return p;
}

Sample makeSample(const Position& pos, double result, int game) {
    const EvalLinear lin = linearize(pos);
    Sample s;
    for (int i = 0; i < EvalParamCount; ++i)
        if (lin.coef[i] != 0) s.coef.emplace_back(uint16_t(i), lin.coef[i]);
    s.phase = int8_t(lin.phase);
    s.scaleRed = int8_t(lin.scaleRed);
    s.scaleBlack = int8_t(lin.scaleBlack);
    s.tempo = int8_t(lin.sideToMove == Color::Red ? EvalTempo : -EvalTempo);
    s.result = float(result);
    s.game = game;
    return s;
}

int sampleEval(const Sample& s, const EvalParams& params) {
    const Score* w = paramData(params);
    int mg = 0, eg = 0;
    for (auto [i, c] : s.coef) {
        mg += c * w[i].mg();
        eg += c * w[i].eg();
    }
    int value = (mg * s.phase + eg * (PhaseMax - s.phase)) / PhaseMax;
    value = value * (value > 0 ? s.scaleRed : value < 0 ? s.scaleBlack : 64) / 64;
    return value + s.tempo;
}

void extractSamples(const std::vector<PgnGame>& games, int firstGame, const ExtractOptions& options,
                    std::vector<Sample>& out, ExtractStats& stats, std::vector<std::string>* leaves) {
    for (size_t g = 0; g < games.size(); ++g) {
        const PgnGame& game = games[g];
        ++stats.games;
        if (!game.result) continue;
        Position pos;
        if (pos.setFen(game.fen)) continue;
        ++stats.gamesUsed;
        for (size_t ply = 0; ply <= game.moves.size(); ++ply) {
            if (int(ply) >= options.skipPlies) {
                if (pos.inCheck()) {
                    ++stats.inCheck;
                } else {
                    const Position leaf = quietLeaf(pos);
                    if (leaf.inCheck()) {
                        ++stats.leafInCheck;
                    } else {
                        stats.moved += leaf.historyLength() > pos.historyLength();
                        out.push_back(makeSample(leaf, *game.result, firstGame + int(g)));
                        if (leaves) leaves->push_back(leaf.fen());
                        ++stats.positions;
                    }
                }
            }
            if (ply == game.moves.size()) break;
            const Move m = pos.parseLegalMove(game.moves[ply]);
            if (m.isNone()) {
                ++stats.badMoves;  // the rest of the game is not replayed
                break;
            }
            pos.makeMove(m);
        }
    }
}

namespace {

template <typename T>
bool parseField(const std::string& s, T& out) {
    if constexpr (std::is_floating_point_v<T>) {
        try {
            size_t used = 0;
            out = T(std::stod(s, &used));
            return used == s.size();
        } catch (...) {
            return false;
        }
    } else {
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size();
    }
}

}  // namespace

void readLabelled(std::istream& in, std::vector<Sample>& out, int& bad) {
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();  // files written on Windows
        if (line.empty() || line[0] == '#') continue;
        const size_t t1 = line.find('\t');
        const size_t t2 = t1 == std::string::npos ? t1 : line.find('\t', t1 + 1);
        int game = 0;
        double label = 0;
        Position pos;
        if (t2 == std::string::npos || !parseField(line.substr(0, t1), game) || game < 0 ||
            !parseField(line.substr(t1 + 1, t2 - t1 - 1), label) || !(label >= 0 && label <= 1) ||
            pos.setFen(line.substr(t2 + 1))) {
            ++bad;
            continue;
        }
        out.push_back(makeSample(pos, label, game));
    }
}

// ---------------------------------------------------------------------------
// Fitting

namespace {

double sigmoid(double e, double k) { return 1.0 / (1.0 + std::pow(10.0, -k * e / 400.0)); }

// Weights [2i] middlegame, [2i + 1] endgame, rounded back into EvalParams.
// (Weights no position uses never move, so they come back exactly.)
EvalParams rounded(const std::vector<double>& w) {
    EvalParams out{};
    for (int i = 0; i < EvalParamCount; ++i) {
        const int mg = std::clamp(int(std::lround(w[2 * i])), -30000, 30000);
        const int eg = std::clamp(int(std::lround(w[2 * i + 1])), -30000, 30000);
        paramData(out)[i] = Score(mg, eg);
    }
    return out;
}

}  // namespace

double meanError(const std::vector<Sample>& samples, const EvalParams& params, double k) {
    if (samples.empty()) return 0;
    double sum = 0;
    for (const Sample& s : samples) {
        const double d = s.result - sigmoid(sampleEval(s, params), k);
        sum += d * d;
    }
    return sum / double(samples.size());
}

double fitK(const std::vector<Sample>& samples, const EvalParams& params) {
    // The error is unimodal in K: golden-section search on a wide bracket.
    double lo = 0.05, hi = 5.0;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double fa = meanError(samples, params, a), fb = meanError(samples, params, b);
    for (int i = 0; i < 40; ++i) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - phi * (hi - lo);
            fa = meanError(samples, params, a);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + phi * (hi - lo);
            fb = meanError(samples, params, b);
        }
    }
    return (lo + hi) / 2;
}

EvalParams fit(const std::vector<Sample>& train, const EvalParams& start, double k, const FitOptions& options,
               const std::function<void(int, double, const EvalParams&)>& progress) {
    const int n = EvalParamCount;
    // Weights as doubles: [2i] middlegame, [2i + 1] endgame.
    std::vector<double> w0(2 * n), w(2 * n), grad(2 * n), m(2 * n, 0.0), v(2 * n, 0.0);
    for (int i = 0; i < n; ++i) {
        w0[2 * i] = paramData(start)[i].mg();
        w0[2 * i + 1] = paramData(start)[i].eg();
    }
    w = w0;
    const double kk = k * std::log(10.0) / 400.0;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    const double invN = train.empty() ? 0 : 1.0 / double(train.size());
    for (int it = 1; it <= options.iterations; ++it) {
        std::fill(grad.begin(), grad.end(), 0.0);
        double loss = 0;
        for (const Sample& s : train) {
            double mg = 0, eg = 0;
            for (auto [i, c] : s.coef) {
                mg += c * w[2 * i];
                eg += c * w[2 * i + 1];
            }
            const double fm = s.phase / double(PhaseMax), fe = 1.0 - fm;
            const double tapered = mg * fm + eg * fe;
            const double scale = (tapered > 0 ? s.scaleRed : tapered < 0 ? s.scaleBlack : 64) / 64.0;
            const double e = tapered * scale + s.tempo;
            const double p = 1.0 / (1.0 + std::exp(-kk * e));
            const double err = p - s.result;
            loss += err * err;
            const double de = 2.0 * err * p * (1 - p) * kk * scale * invN;
            for (auto [i, c] : s.coef) {
                grad[2 * i] += de * fm * c;
                grad[2 * i + 1] += de * fe * c;
            }
        }
        loss *= invN;
        for (int j = 0; j < 2 * n; ++j) {
            if (!options.tunable.empty() && !options.tunable[size_t(j / 2)]) continue;
            const double d = w[j] - w0[j];
            loss += options.lambda * d * d;
            const double g = grad[j] + 2 * options.lambda * d;
            m[j] = beta1 * m[j] + (1 - beta1) * g;
            v[j] = beta2 * v[j] + (1 - beta2) * g * g;
            const double mh = m[j] / (1 - std::pow(beta1, it)), vh = v[j] / (1 - std::pow(beta2, it));
            w[j] -= options.learningRate * mh / (std::sqrt(vh) + eps);
            w[j] = std::clamp(w[j], w0[j] - options.maxChange, w0[j] + options.maxChange);
        }
        if (progress && (it % 100 == 0 || it == options.iterations)) progress(it, loss, rounded(w));
    }
    return rounded(w);
}

// ---------------------------------------------------------------------------
// Writing the weights

std::string formatEvalWeights(const EvalParams& p) {
    auto S = [](Score s) { return fmt::format("Score({}, {})", s.mg(), s.eg()); };
    auto list = [&](const Score* first, int count) {
        std::string out;
        for (int i = 0; i < count; ++i) out += (i ? ", " : "") + S(first[i]);
        return out;
    };
    static constexpr const char* Pieces[PieceTypeCount] = {"king", "advisor", "elephant", "horse",
                                                           "rook", "cannon",  "pawn"};
    std::string out =
        "// The shipped evaluation weights. Written by `chariot tune` (src/tools/tune.cpp);\n"
        "// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner\n"
        "// starts from whatever is compiled in.\n"
        "#pragma once\n\n"
        "#include \"chariot/eval_params.h\"\n\n"
        "namespace chariot {\n\n"
        "inline constexpr EvalParams DefaultEvalParams = {\n";
    out += fmt::format("    .pieceValue = {{{}}},\n", list(p.pieceValue, PieceTypeCount));
    out += "    .psqt = {\n";
    for (int t = 0; t < PieceTypeCount; ++t) {
        out += fmt::format("        {{  // {}\n", Pieces[t]);
        for (int r = 0; r < RankCount; ++r) out += fmt::format("            {{{}}},\n", list(p.psqt[t][r], HalfFiles));
        out += "        },\n";
    }
    out += "    },\n";
    out += fmt::format("    .horseMobility = {{{}}},\n", list(p.horseMobility, HorseMobilitySize));
    out += fmt::format("    .rookMobility = {{{}}},\n", list(p.rookMobility, LineMobilitySize));
    out += fmt::format("    .cannonMobility = {{{}}},\n", list(p.cannonMobility, LineMobilitySize));
    for (const NamedScalar& w : LeadingScalars) out += fmt::format("    .{} = {},\n", w.name, S(p.*w.member));
    out += fmt::format("    .kingDanger = {{{}}},\n", list(p.kingDanger, KingDangerSize));
    out += "    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn\n";
    for (int t = 0; t < ImbalanceTypes; ++t)
        out += fmt::format("        {{{}}},  // {}\n", list(p.imbalance[t], ImbalanceTypes), Pieces[t + 1]);
    out += "    },\n";
    out += fmt::format("    .crossedPawnVsAdvisors = {{{}}},\n", list(p.crossedPawnVsAdvisors, AdvisorCounts));
    for (const NamedScalar& w : TrailingScalars) out += fmt::format("    .{} = {},\n", w.name, S(p.*w.member));
    out += "};\n\n}  // namespace chariot\n";
    return out;
}

// ---------------------------------------------------------------------------
// The command

namespace {

void usage(const std::function<void(const std::string&)>& print) {
    print("usage: chariot tune [options] <games.pgn>...");
    print("  fits the evaluation weights to the results of the games (Texel's method)");
    print("  --out FILE        write the tuned weights there (the text of include/chariot/eval_weights.h)");
    print("  --iterations N    gradient-descent iterations (default 2000)");
    print("  --lr X            Adam step size, internal units (default 1.0)");
    print("  --lambda X        L2 pull towards the starting weights (default 1e-7)");
    print("  --max-change N    largest change of any weight (default 60)");
    print("  --only P[,P...]   tune only the weights whose names start with one of these prefixes");
    print("                    (names as the change list prints them: pieceValue, psqt.horse, kingDanger[3], ...)");
    print("  --skip-plies N    opening plies not used (default 10)");
    print("  --holdout N       every Nth game is held out for validation (default 10; 0: none)");
    print("  --k X             use this scaling constant instead of fitting it");
    print("  --labels FILE     also read labelled positions (lines game<TAB>label<TAB>FEN, label = red's");
    print("                    expected score in [0, 1]); may be repeated, and the PGN files may then be left out");
    print("  --dump FILE       write the quiet positions taken from the games as game<TAB>result<TAB>FEN");
    print("                    lines (for tools/tuning/label_positions.py) and stop without fitting");
    print("  --dump-every N    with --dump, write only every Nth position (default 1)");
}

// Per weight: whether its name starts with one of the comma-separated prefixes.
std::vector<bool> weightsNamed(std::string_view list) {
    std::vector<std::string_view> prefixes;
    while (!list.empty()) {
        const size_t comma = list.find(',');
        if (comma != 0) prefixes.push_back(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    }
    std::vector<bool> named(size_t(EvalParamCount), false);
    for (int w = 0; w < EvalParamCount; ++w) {
        const std::string name = paramName(w);
        named[size_t(w)] = std::any_of(prefixes.begin(), prefixes.end(),
                                       [&](std::string_view prefix) { return name.starts_with(prefix); });
    }
    return named;
}

}  // namespace

int runTuneTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print) {
    FitOptions fitOptions;
    ExtractOptions extract;
    std::string outPath;
    int holdout = 10;
    std::optional<double> fixedK;
    std::vector<std::string> files, labelFiles;
    std::string dumpPath;
    int dumpEvery = 1;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string* { return i + 1 < args.size() ? &args[++i] : nullptr; };
        bool ok = true;
        if (a == "--out") {
            const std::string* v = value();
            ok = v != nullptr;
            if (ok) outPath = *v;
        } else if (a == "--iterations") {
            const std::string* v = value();
            ok = v && parseField(*v, fitOptions.iterations) && fitOptions.iterations >= 0;
        } else if (a == "--lr") {
            const std::string* v = value();
            ok = v && parseField(*v, fitOptions.learningRate) && fitOptions.learningRate > 0;
        } else if (a == "--lambda") {
            const std::string* v = value();
            ok = v && parseField(*v, fitOptions.lambda) && fitOptions.lambda >= 0;
        } else if (a == "--max-change") {
            const std::string* v = value();
            ok = v && parseField(*v, fitOptions.maxChange) && fitOptions.maxChange >= 0;
        } else if (a == "--only") {
            const std::string* v = value();
            ok = v != nullptr && !v->empty();
            if (ok) {
                fitOptions.tunable = weightsNamed(*v);
                const auto selected = std::count(fitOptions.tunable.begin(), fitOptions.tunable.end(), true);
                if (selected == 0) {
                    print(fmt::format("tune: --only {} names no weight", *v));
                    return 2;
                }
                print(fmt::format("tuning {} of {} weights (--only {})", selected, EvalParamCount, *v));
            }
        } else if (a == "--skip-plies") {
            const std::string* v = value();
            ok = v && parseField(*v, extract.skipPlies) && extract.skipPlies >= 0;
        } else if (a == "--holdout") {
            const std::string* v = value();
            ok = v && parseField(*v, holdout) && holdout >= 0 && holdout != 1;
        } else if (a == "--k") {
            const std::string* v = value();
            double k = 0;
            ok = v && parseField(*v, k) && k > 0;
            if (ok) fixedK = k;
        } else if (a == "--labels") {
            const std::string* v = value();
            ok = v != nullptr;
            if (ok) labelFiles.push_back(*v);
        } else if (a == "--dump") {
            const std::string* v = value();
            ok = v != nullptr;
            if (ok) dumpPath = *v;
        } else if (a == "--dump-every") {
            const std::string* v = value();
            ok = v && parseField(*v, dumpEvery) && dumpEvery >= 1;
        } else if (a == "help" || a == "--help" || a == "-h") {
            usage(print);
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            print(fmt::format("tune: unknown option '{}'", a));
            return usage(print), 2;
        } else {
            files.push_back(a);
        }
        if (!ok) {
            print(fmt::format("tune: bad or missing value for {}", a));
            return 2;
        }
    }
    if (files.empty() && (labelFiles.empty() || !dumpPath.empty())) return usage(print), 2;

    std::vector<Sample> samples;
    ExtractStats stats;
    std::vector<std::string> leaves;
    for (const std::string& path : files) {
        std::ifstream in(path);
        if (!in) {
            print(fmt::format("tune: cannot read {}", path));
            return 1;
        }
        extractSamples(readPgn(in), stats.games, extract, samples, stats, dumpPath.empty() ? nullptr : &leaves);
    }
    if (!files.empty())
        print(
            fmt::format("games {} ({} with a result), positions {} (skipped: {} in check, {} ending in check "
                        "after the quiescence PV; {} replaced by their quiescence leaf), unreadable moves {}",
                        stats.games, stats.gamesUsed, stats.positions, stats.inCheck, stats.leafInCheck, stats.moved,
                        stats.badMoves));
    if (!dumpPath.empty()) {
        // Binary: the same bytes (LF line ends) on every system.
        std::ofstream out(dumpPath, std::ios::binary);
        size_t written = 0;
        for (size_t i = 0; i < samples.size(); i += size_t(dumpEvery), ++written)
            out << samples[i].game << '\t' << samples[i].result << '\t' << leaves[i] << '\n';
        if (!out) return print(fmt::format("tune: cannot write {}", dumpPath)), 1;
        print(fmt::format("wrote {} positions to {}", written, dumpPath));
        return 0;
    }
    for (const std::string& path : labelFiles) {
        std::ifstream in(path);
        if (!in) return print(fmt::format("tune: cannot read {}", path)), 1;
        const size_t before = samples.size();
        int bad = 0;
        readLabelled(in, samples, bad);
        print(fmt::format("{}: {} labelled positions{}", path, samples.size() - before,
                          bad ? fmt::format(", {} unreadable lines skipped", bad) : std::string{}));
    }
    std::vector<Sample> train, held;
    for (Sample& s : samples) (holdout && s.game % holdout == holdout - 1 ? held : train).push_back(std::move(s));
    print(fmt::format("training positions {}, held-out positions {} (every {}th game)", train.size(), held.size(),
                      holdout));
    if (train.empty()) return print("tune: no training positions"), 1;

    const EvalParams& start = DefaultEvalParams;
    const double k = fixedK ? *fixedK : fitK(train, start);
    print(fmt::format("K = {:.4f}{}", k, fixedK ? " (given)" : " (fitted to the training positions)"));
    const double trainBefore = meanError(train, start, k), heldBefore = meanError(held, start, k);
    print(fmt::format("error before: training {:.6f}, held-out {:.6f}", trainBefore, heldBefore));

    const EvalParams tuned = fit(train, start, k, fitOptions, [&](int it, double loss, const EvalParams& current) {
        if (it % 500 == 0 || it == fitOptions.iterations)
            print(fmt::format("  iteration {:>5}  training loss (with the L2 term) {:.6f}, held-out error {:.6f}", it,
                              loss, meanError(held, current, k)));
    });
    const double trainAfter = meanError(train, tuned, k), heldAfter = meanError(held, tuned, k);
    print(fmt::format("error after:  training {:.6f}, held-out {:.6f}", trainAfter, heldAfter));

    // The largest changes, for a quick look.
    std::vector<std::pair<int, int>> changes;  // (size, index)
    for (int i = 0; i < EvalParamCount; ++i) {
        const Score a = paramData(start)[i], b = paramData(tuned)[i];
        const int d = std::abs(a.mg() - b.mg()) + std::abs(a.eg() - b.eg());
        if (d) changes.emplace_back(d, i);
    }
    std::sort(changes.rbegin(), changes.rend());
    print(fmt::format("{} weights changed; the largest changes:", changes.size()));
    for (size_t j = 0; j < std::min<size_t>(changes.size(), 20); ++j) {
        const int i = changes[j].second;
        const Score a = paramData(start)[i], b = paramData(tuned)[i];
        print(fmt::format("  {:<28} ({}, {}) -> ({}, {})", paramName(i), a.mg(), a.eg(), b.mg(), b.eg()));
    }
    if (!outPath.empty()) {
        std::ofstream out(outPath);
        out << formatEvalWeights(tuned);
        if (!out) return print(fmt::format("tune: cannot write {}", outPath)), 1;
        print(fmt::format("wrote {}", outPath));
    }
    return 0;
}

}  // namespace chariot::tune
