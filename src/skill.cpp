#include "chariot/skill.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

#include "chariot/skill_elo_table.h"
#include "chariot/tables.h"

namespace chariot::skill {

namespace {

// One row per integer level. Internal units: a pawn before the river is
// about 100, a horse 430, a cannon 460, a rook 1000.
//  - depth, nodes: the search caps (whichever comes first); nodes grow by
//    about 1.5x a level, depth by half a ply a level up to 14 (x.5: one ply
//    more on half the moves, so that an odd level plays between the even
//    ones the calibration measured) and by one from there;
//  - multiPV: root lines searched to choose from;
//  - maxLoss: the hard bound on how much worse than the best line the move
//    played may score (below a horse even at level 0, so a piece that the
//    capped search sees hanging is never left hanging, nor a free one
//    ignored);
//  - temperature: how quickly the chance of a worse line falls off;
//  - timePercent: share of the normal planned time with a clock.
// Row 20 is only the end point for fractional levels between 19 and 20:
// level 20 itself is the unlimited engine.
struct Row {
    double depth;
    uint64_t nodes;
    int multiPV;
    Value maxLoss;
    Value temperature;
    int timePercent;
};
constexpr std::array<Row, MaxLevel + 1> Rows = {{
    {1, 1000, 6, 400, 160, 40},     // 0
    {1.5, 1500, 6, 370, 150, 43},   // 1
    {2, 2250, 6, 345, 140, 46},     // 2
    {2.5, 3400, 6, 320, 130, 49},   // 3
    {3, 5000, 6, 295, 120, 52},     // 4
    {3.5, 7600, 5, 270, 110, 55},   // 5
    {4, 11000, 5, 245, 100, 58},    // 6
    {4.5, 17000, 5, 225, 90, 61},   // 7
    {5, 26000, 5, 205, 82, 64},     // 8
    {5.5, 38000, 5, 185, 74, 67},   // 9
    {6, 58000, 4, 165, 66, 70},     // 10
    {6.5, 86000, 4, 145, 58, 73},   // 11
    {7, 130000, 4, 130, 50, 76},    // 12
    {7.5, 195000, 4, 115, 43, 79},  // 13
    {8, 290000, 4, 100, 36, 82},    // 14
    {9, 440000, 4, 85, 30, 85},     // 15
    {10, 660000, 4, 70, 24, 88},    // 16
    {11, 990000, 4, 60, 18, 91},    // 17
    {12, 1500000, 4, 50, 13, 94},   // 18
    {13, 2200000, 4, 40, 8, 97},    // 19
    {16, 3300000, 4, 0, 0, 100},    // 20: interpolation end point only
}};

// The minimum think time with a clock or movetime: this share of the
// (level-scaled) planned time, at most the cap.
constexpr int MinThinkPercent = 50;
constexpr int64_t MinThinkCapMs = 3000;

// The measured points come from include/chariot/skill_elo_table.h, generated
// by tools/matches/calibrate_skill.py from its games against ElephantEye 3.31
// = 2000 and weakened ElephantEyes (docs/skill-calibration.md has the games).
// UCI_Elo can map through them if they run from level 0 to 20 with both
// columns strictly increasing: checked when the generated header is compiled.
constexpr bool usable(const decltype(calibration::Levels)& levels) {
    if (levels.size() < 2 || levels.front().level != 0 || levels.back().level != MaxLevel) return false;
    for (size_t i = 1; i < levels.size(); ++i)
        if (levels[i].level <= levels[i - 1].level || levels[i].elo <= levels[i - 1].elo) return false;
    return true;
}
static_assert(usable(calibration::Levels), "skill_elo_table.h: levels 0..20, Elo strictly increasing");

const std::vector<EloPoint>& table() {
    static const std::vector<EloPoint> points = [] {
        std::vector<EloPoint> out;
        for (const calibration::MeasuredLevel& m : calibration::Levels) out.push_back({double(m.level), m.elo});
        return out;
    }();
    return points;
}

double lerp(double a, double b, double t) { return a + (b - a) * t; }

}  // namespace

Params paramsFor(double level) {
    Params p;
    if (!(level >= 0)) level = 0;  // also NaN
    if (level >= MaxLevel) return p;
    const int low = int(level);
    const double t = level - low;
    const Row& a = Rows[size_t(low)];
    const Row& b = Rows[size_t(low) + 1];
    p.level = level;
    const double depth = lerp(a.depth, b.depth, t);
    p.depth = int(std::floor(depth));
    p.deeperChance = depth - p.depth;
    p.nodes = uint64_t(std::llround(double(a.nodes) * std::pow(double(b.nodes) / double(a.nodes), t)));
    p.multiPV = int(std::lround(lerp(a.multiPV, b.multiPV, t)));
    p.maxLoss = Value(std::lround(lerp(a.maxLoss, b.maxLoss, t)));
    p.temperature = Value(std::lround(lerp(a.temperature, b.temperature, t)));
    p.timePercent = int(std::lround(lerp(a.timePercent, b.timePercent, t)));
    p.minThinkPercent = MinThinkPercent;
    p.minThinkCapMs = MinThinkCapMs;
    return p;
}

int depthFor(const Params& params, uint64_t seed) {
    if (params.deeperChance <= 0) return params.depth;
    const double u = double(tables::splitMix64(seed) >> 11) * 0x1.0p-53;  // in [0, 1)
    return params.depth + (u < params.deeperChance ? 1 : 0);
}

const std::vector<EloPoint>& eloTable() { return table(); }
int minElo() { return table().front().elo; }
int maxElo() { return table().back().elo; }

double levelForElo(int elo) {
    const std::vector<EloPoint>& Table = table();
    if (elo <= Table.front().elo) return Table.front().level;
    for (size_t i = 1; i < Table.size(); ++i)
        if (elo <= Table[i].elo) {
            const EloPoint& a = Table[i - 1];
            const EloPoint& b = Table[i];
            return lerp(a.level, b.level, double(elo - a.elo) / double(b.elo - a.elo));
        }
    return Table.back().level;
}

int eloForLevel(double level) {
    const std::vector<EloPoint>& Table = table();
    if (!(level > Table.front().level)) return Table.front().elo;
    for (size_t i = 1; i < Table.size(); ++i)
        if (level <= Table[i].level) {
            const EloPoint& a = Table[i - 1];
            const EloPoint& b = Table[i];
            return int(std::lround(lerp(a.elo, b.elo, (level - a.level) / (b.level - a.level))));
        }
    return Table.back().elo;
}

bool isLost(Value v) { return v <= LostAtOrBelow; }

size_t chooseLine(const std::vector<Line>& lines, const Params& params, uint64_t seed) {
    if (lines.empty()) return 0;
    Value best = lines[0].score;
    for (const Line& l : lines) best = std::max(best, l.score);
    const bool bestLost = isLost(best);
    uint64_t state = seed;
    size_t chosen = 0;
    double chosenKey = -INFINITY;
    for (size_t i = 0; i < lines.size(); ++i) {
        const Value s = lines[i].score;
        // A draw for the RNG per line whether or not it is eligible, so that
        // one line's eligibility does not change the others' draws.
        const double u = (double(tables::splitMix64(state) >> 11) + 0.5) * 0x1.0p-53;  // in (0, 1)
        const bool eligible = s >= best - params.maxLoss && (bestLost || !isLost(s));
        if (!eligible) continue;
        // Gumbel-max: the argmax of log-weight + Gumbel noise is a draw from
        // the softmax of the log-weights.
        double key = -double(best - s);
        if (params.temperature > 0) key = key / double(params.temperature) - std::log(-std::log(u));
        if (key > chosenKey) {
            chosenKey = key;
            chosen = i;
        }
    }
    return chosen;
}

}  // namespace chariot::skill
