// The shipped evaluation weights. Written by `chariot tune` (src/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(162, 91), Score(163, 72), Score(441, 475), Score(982, 1062), Score(476, 414), Score(122, 169)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-32, -24), Score(-29, -25)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-33, -12), Score(-15, -3)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-13, 0), Score(49, -9)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-33, -50), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(38, -33)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-27, -30), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-60, -27), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-37, -35), Score(0, 0), Score(0, 0), Score(0, 0), Score(48, -42)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(22, -26), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(5, 5), Score(8, 13), Score(16, 18), Score(13, 13), Score(4, 4)},
            {Score(5, 6), Score(5, 9), Score(39, 36), Score(17, 19), Score(8, 9)},
            {Score(18, 20), Score(13, 9), Score(18, 13), Score(23, 22), Score(20, 20)},
            {Score(4, 11), Score(36, 32), Score(25, 29), Score(42, 36), Score(23, 25)},
            {Score(7, 6), Score(16, 12), Score(16, 14), Score(49, 27), Score(20, 27)},
            {Score(4, 4), Score(28, 17), Score(26, 23), Score(36, 11), Score(15, 13)},
            {Score(2, 3), Score(0, -3), Score(14, 1), Score(2, 9), Score(31, 16)},
            {Score(-14, -7), Score(-2, 6), Score(1, -4), Score(19, 13), Score(1, 2)},
            {Score(-19, -12), Score(0, -5), Score(-5, -1), Score(4, 5), Score(-37, -25)},
            {Score(-1, -1), Score(-53, -5), Score(-6, -3), Score(-9, -6), Score(-1, -1)},
        },
        {  // rook
            {Score(9, 11), Score(14, 15), Score(5, 11), Score(22, 20), Score(17, 18)},
            {Score(12, 14), Score(16, 16), Score(18, 16), Score(29, 25), Score(29, 28)},
            {Score(17, 16), Score(-9, 5), Score(17, 15), Score(21, 20), Score(19, 21)},
            {Score(4, 9), Score(5, 5), Score(37, 20), Score(10, 22), Score(27, 28)},
            {Score(6, 9), Score(14, 9), Score(18, 15), Score(24, 23), Score(21, 18)},
            {Score(9, 11), Score(20, 18), Score(42, 22), Score(27, 24), Score(22, 26)},
            {Score(9, 10), Score(8, 8), Score(20, 14), Score(21, 20), Score(13, 11)},
            {Score(-14, 1), Score(-2, 8), Score(5, 9), Score(21, 18), Score(13, 13)},
            {Score(21, 5), Score(-7, 4), Score(11, 6), Score(-10, 10), Score(9, 7)},
            {Score(-14, -1), Score(37, 11), Score(6, 1), Score(21, 16), Score(12, 12)},
        },
        {  // cannon
            {Score(23, 4), Score(4, 2), Score(-3, -1), Score(-14, -12), Score(-12, -13)},
            {Score(0, -4), Score(-26, -4), Score(-1, -3), Score(-6, -6), Score(-14, -14)},
            {Score(-3, -4), Score(-2, -3), Score(-3, -6), Score(-11, -11), Score(-12, -12)},
            {Score(2, -3), Score(-7, -1), Score(6, -9), Score(4, 0), Score(18, 12)},
            {Score(-4, -6), Score(16, 4), Score(-3, -4), Score(0, 2), Score(11, 5)},
            {Score(-3, 0), Score(10, -2), Score(10, 11), Score(-1, 6), Score(25, 19)},
            {Score(1, 1), Score(-8, -3), Score(-2, 3), Score(5, 4), Score(9, 9)},
            {Score(2, 7), Score(-7, 6), Score(25, 11), Score(3, 9), Score(13, 20)},
            {Score(-1, 0), Score(1, 2), Score(-3, 0), Score(11, 9), Score(8, 6)},
            {Score(-5, -2), Score(-6, -4), Score(5, 5), Score(3, 3), Score(6, 10)},
        },
        {  // pawn
            {Score(0, -2), Score(2, 11), Score(7, 24), Score(8, 28), Score(9, 35)},
            {Score(19, 42), Score(35, 58), Score(54, 68), Score(82, 67), Score(120, 104)},
            {Score(9, 33), Score(26, 60), Score(39, 76), Score(66, 114), Score(83, 119)},
            {Score(13, 44), Score(18, 63), Score(40, 81), Score(47, 93), Score(48, 95)},
            {Score(15, 51), Score(15, 60), Score(41, 68), Score(29, 87), Score(29, 89)},
            {Score(-16, 11), Score(0, 0), Score(0, 11), Score(0, 0), Score(14, 35)},
            {Score(-12, 5), Score(0, 0), Score(-35, -4), Score(0, 0), Score(34, 16)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-67, -66), Score(-39, -41), Score(-52, -29), Score(-18, -6), Score(-1, 14), Score(37, 25), Score(52, 32), Score(42, 38), Score(50, 41)},
    .rookMobilityBase = Score(-6, -13),
    .rookMobilityPerSquare = Score(6, 6),
    .cannonMobilityPerSquare = Score(7, -5),
    .rookOpenFile = Score(37, 24),
    .connectedPawns = Score(9, 15),
    .hollowCannon = Score(110, 15),
    .cannonTwoScreens = Score(33, 22),
    .rookPinOnKingFile = Score(21, 20),
    .missingAdvisor = Score(38, -11),
    .missingElephant = Score(60, -6),
    .kingDanger = {Score(1, 27), Score(1, 15), Score(-15, -13), Score(-7, -41), Score(4, -28), Score(16, -6), Score(15, 42), Score(64, 44), Score(67, 39), Score(85, 40), Score(98, 46), Score(113, 55), Score(131, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(-11, 3), Score(1, 8), Score(5, -10), Score(-28, -28), Score(11, 15)},  // advisor
        {Score(11, -3), Score(0, 0), Score(-7, -1), Score(-12, -6), Score(7, -1), Score(-4, 4)},  // elephant
        {Score(-1, -8), Score(7, 1), Score(0, 0), Score(-9, -9), Score(7, -3), Score(-8, 8)},  // horse
        {Score(-5, 10), Score(12, 6), Score(9, 9), Score(0, 0), Score(15, 26), Score(0, 10)},  // rook
        {Score(28, 28), Score(-7, 1), Score(-7, 3), Score(-15, -26), Score(0, 0), Score(4, -23)},  // cannon
        {Score(-11, -15), Score(4, -4), Score(8, -8), Score(0, -10), Score(-4, 23), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(14, 20), Score(7, 10), Score(25, -13)},
    .exposedKingFile = Score(-37, -8),
    .palaceCentreHorse = Score(5, -5),
    .bottomCannon = Score(9, 0),
};

}  // namespace chariot
