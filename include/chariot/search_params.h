// The search's tunable constants as one structure. Every field starts at the
// shipped value; the searcher reads them from its SearchOptions. Builds
// configured with -DCHARIOT_TUNABLE=ON expose each entry of SearchParamTable
// as a spin option (engine.cpp), so that an SPSA tuner can set them; default
// builds have no such options and always search with these defaults.
#pragma once

namespace chariot {

// Internal units: a pawn before the river is about 100. Depths in plies.
struct SearchParams {
    int aspirationDelta = 31;        // first half-width of the root window
    int reverseFutilityMargin = 99;  // per ply of depth
    int reverseFutilityDepth = 8;    // at most this depth
    int nullMoveBase = 3;            // null-move reduction R = base...
    int nullMoveDepthDivisor = 3;    // ...+ depth / divisor...
    int nullMoveEvalDivisor = 200;   // ...+ min((eval - beta) / divisor, nullMoveEvalMax)
    int nullMoveEvalMax = 3;         // (the margin adds at most this)
    int nullMoveVerifyDepth = 14;    // a null-move cutoff is verified from this depth on
    int deltaMargin = 185;           // quiescence delta pruning
    int lmpMaxDepth = 8;             // late-move (move-count) pruning up to this depth,
    int lmpBase = 2;                 // after (lmpBase + depth^2) / (2 - improving) moves
    int futilityMaxDepth = 6;
    int futilityBase = 121;  // futility margin: base + perDepth * depth
    int futilityPerDepth = 91;
    int seePruneMaxDepth = 7;
    int seeQuietMargin = 42;      // per ply of depth
    int seeCaptureMargin = 25;    // per ply of depth, squared
    int pvPruneMinRootDepth = 8;  // PV nodes prune like the others from this iteration on
    int singularMinDepth = 6;
    int singularMarginPerDepth = 4;
    int lmrBase = 67;  // LMR: base/100 + ln(depth) ln(moveCount) / (divisor/100)
    int lmrDivisor = 154;
    int historyBonusPerDepth = 151;  // history bonus: min(depth * perDepth, max)
    int historyBonusMax = 1621;
    int iirMinDepth = 4;  // internal iterative reduction from this depth on
    // Late-move reduction adjustments, in 1024ths of a ply:
    int lmrPv = 876;                // less at PV nodes,
    int lmrTtPv = 1040;             // at nodes once on a PV,
    int lmrKiller = 1189;           // for killers,
    int lmrCheck = 977;             // for checks;
    int lmrCutNode = 1015;          // more at expected cut nodes,
    int lmrNotImproving = -20;      // when the static eval is not improving;
    int lmrHistory = 265;           // less per 8192 of the move's history (2 main + 2 continuation)
    int researchDeeperMargin = 25;  // a reduced search beating alpha by margin + perR * r...
    int researchDeeperPerR = 4;     // ...is searched again one ply deeper
    int razorMaxDepth = 4;          // razoring up to this depth,
    int razorBase = 230;            // when eval + base + perDepth * depth^2 < alpha
    int razorPerDepth = 150;
    int probCutMinDepth = 5;  // ProbCut from this depth on,
    int probCutMargin = 100;  // against beta + margin
};

// One tunable: its spin option's name (the UCI spelling; the UCCI name is the
// same in lower case), the field, and the range the option accepts.
struct SearchParamInfo {
    const char* name;
    int SearchParams::*member;
    int min, max;
};

inline constexpr SearchParamInfo SearchParamTable[] = {
    {"AspirationDelta", &SearchParams::aspirationDelta, 5, 200},
    {"ReverseFutilityMargin", &SearchParams::reverseFutilityMargin, 0, 400},
    {"ReverseFutilityDepth", &SearchParams::reverseFutilityDepth, 0, 16},
    {"NullMoveBase", &SearchParams::nullMoveBase, 1, 6},
    {"NullMoveDepthDivisor", &SearchParams::nullMoveDepthDivisor, 1, 30},
    {"NullMoveEvalDivisor", &SearchParams::nullMoveEvalDivisor, 20, 2000},
    {"NullMoveEvalMax", &SearchParams::nullMoveEvalMax, 0, 8},
    {"NullMoveVerifyDepth", &SearchParams::nullMoveVerifyDepth, 2, 40},
    {"DeltaMargin", &SearchParams::deltaMargin, 0, 1000},
    {"LmpMaxDepth", &SearchParams::lmpMaxDepth, 0, 20},
    {"LmpBase", &SearchParams::lmpBase, 0, 30},
    {"FutilityMaxDepth", &SearchParams::futilityMaxDepth, 0, 16},
    {"FutilityBase", &SearchParams::futilityBase, 0, 500},
    {"FutilityPerDepth", &SearchParams::futilityPerDepth, 0, 400},
    {"SeePruneMaxDepth", &SearchParams::seePruneMaxDepth, 0, 16},
    {"SeeQuietMargin", &SearchParams::seeQuietMargin, 0, 300},
    {"SeeCaptureMargin", &SearchParams::seeCaptureMargin, 0, 200},
    {"PvPruneMinRootDepth", &SearchParams::pvPruneMinRootDepth, 1, 64},
    {"SingularMinDepth", &SearchParams::singularMinDepth, 4, 30},
    {"SingularMarginPerDepth", &SearchParams::singularMarginPerDepth, 0, 50},
    {"LmrBase", &SearchParams::lmrBase, 0, 300},
    {"LmrDivisor", &SearchParams::lmrDivisor, 50, 600},
    {"HistoryBonusPerDepth", &SearchParams::historyBonusPerDepth, 1, 1000},
    {"HistoryBonusMax", &SearchParams::historyBonusMax, 100, 8000},
    {"IirMinDepth", &SearchParams::iirMinDepth, 2, 30},
    {"LmrPv", &SearchParams::lmrPv, -2048, 4096},
    {"LmrTtPv", &SearchParams::lmrTtPv, -2048, 4096},
    {"LmrKiller", &SearchParams::lmrKiller, -2048, 4096},
    {"LmrCheck", &SearchParams::lmrCheck, -2048, 4096},
    {"LmrCutNode", &SearchParams::lmrCutNode, -2048, 4096},
    {"LmrNotImproving", &SearchParams::lmrNotImproving, -2048, 4096},
    {"LmrHistory", &SearchParams::lmrHistory, -4096, 8192},
    {"ResearchDeeperMargin", &SearchParams::researchDeeperMargin, 0, 300},
    {"ResearchDeeperPerR", &SearchParams::researchDeeperPerR, 0, 50},
    {"RazorMaxDepth", &SearchParams::razorMaxDepth, 0, 10},
    {"RazorBase", &SearchParams::razorBase, 0, 1000},
    {"RazorPerDepth", &SearchParams::razorPerDepth, 0, 1000},
    {"ProbCutMinDepth", &SearchParams::probCutMinDepth, 3, 64},
    {"ProbCutMargin", &SearchParams::probCutMargin, 0, 1000},
};

// Every field has exactly one entry, and every default lies in its range.
constexpr bool searchParamTableValid() {
    const SearchParams defaults;
    constexpr int count = int(sizeof(SearchParamTable) / sizeof(SearchParamInfo));
    if (sizeof(SearchParams) != count * sizeof(int)) return false;
    for (int i = 0; i < count; ++i) {
        const SearchParamInfo& p = SearchParamTable[i];
        if (p.min > p.max || defaults.*(p.member) < p.min || defaults.*(p.member) > p.max) return false;
        for (int j = 0; j < i; ++j)
            if (SearchParamTable[j].member == p.member) return false;
    }
    return true;
}
static_assert(searchParamTableValid(), "SearchParamTable: one entry per field, each default within its range");

}  // namespace chariot
