// The shipped evaluation weights. Written by `chariot tune` (src/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(164, 45), Score(159, 39), Score(468, 466), Score(984, 1057), Score(473, 384), Score(166, 207)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-41, -25), Score(-30, -19)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-49, -12), Score(-19, -4)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-14, 4), Score(81, -17)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-42, -52), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(42, -52)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-19, -56), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-78, -33), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-45, -36), Score(0, 0), Score(0, 0), Score(0, 0), Score(68, -56)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(24, -39), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(9, 9), Score(8, 15), Score(19, 22), Score(14, 15), Score(5, 5)},
            {Score(5, 7), Score(5, 13), Score(62, 52), Score(23, 26), Score(8, 10)},
            {Score(27, 31), Score(14, 13), Score(13, 17), Score(30, 31), Score(27, 27)},
            {Score(2, 14), Score(58, 42), Score(17, 36), Score(74, 49), Score(19, 26)},
            {Score(8, 12), Score(14, 10), Score(16, 17), Score(60, 35), Score(30, 41)},
            {Score(5, 5), Score(34, 15), Score(46, 6), Score(38, 8), Score(22, 12)},
            {Score(6, 4), Score(-6, -8), Score(8, -2), Score(1, 9), Score(36, 1)},
            {Score(-28, -19), Score(-2, 3), Score(-11, -21), Score(30, 7), Score(-5, 0)},
            {Score(-42, -28), Score(-5, -12), Score(-11, -6), Score(-14, -10), Score(-37, -34)},
            {Score(-2, -2), Score(-92, -9), Score(-4, -6), Score(-17, -13), Score(-2, -2)},
        },
        {  // rook
            {Score(5, 7), Score(6, 11), Score(-3, 6), Score(22, 17), Score(19, 21)},
            {Score(7, 11), Score(26, 17), Score(16, 13), Score(27, 20), Score(32, 31)},
            {Score(19, 15), Score(-21, 2), Score(15, 16), Score(24, 21), Score(19, 22)},
            {Score(-2, 9), Score(10, -3), Score(42, 16), Score(13, 16), Score(27, 30)},
            {Score(-4, 7), Score(-2, 4), Score(19, 19), Score(26, 22), Score(26, 24)},
            {Score(14, 16), Score(37, 18), Score(58, 35), Score(41, 29), Score(32, 35)},
            {Score(12, 16), Score(17, 13), Score(36, 24), Score(38, 30), Score(18, 16)},
            {Score(-25, 1), Score(-6, 6), Score(9, 15), Score(22, 18), Score(15, 15)},
            {Score(6, -2), Score(-29, 1), Score(13, 3), Score(-28, 9), Score(11, 7)},
            {Score(-29, -10), Score(26, -2), Score(11, -5), Score(27, 14), Score(12, 12)},
        },
        {  // cannon
            {Score(38, -12), Score(9, -2), Score(-7, -3), Score(-17, -16), Score(-13, -14)},
            {Score(1, -6), Score(-42, -3), Score(0, -4), Score(-18, -11), Score(-14, -14)},
            {Score(-7, -8), Score(-32, -12), Score(-10, -9), Score(-13, -13), Score(-17, -15)},
            {Score(6, -6), Score(-3, -2), Score(17, -7), Score(-11, -11), Score(16, 7)},
            {Score(-6, -10), Score(8, -1), Score(-1, -8), Score(-9, -2), Score(27, 2)},
            {Score(-3, 1), Score(2, 0), Score(12, 18), Score(-8, 13), Score(28, 20)},
            {Score(5, 4), Score(-9, -2), Score(3, 6), Score(2, 4), Score(12, 11)},
            {Score(4, 6), Score(-12, 11), Score(34, 8), Score(12, 25), Score(29, 36)},
            {Score(3, -1), Score(4, 0), Score(18, 1), Score(14, 12), Score(9, 9)},
            {Score(-10, -3), Score(-10, -9), Score(5, 1), Score(8, 7), Score(7, 13)},
        },
        {  // pawn
            {Score(-1, -3), Score(0, 7), Score(6, 21), Score(6, 20), Score(7, 26)},
            {Score(19, 40), Score(34, 39), Score(62, 67), Score(96, 68), Score(121, 96)},
            {Score(5, 29), Score(27, 56), Score(51, 89), Score(76, 131), Score(89, 127)},
            {Score(16, 43), Score(24, 64), Score(57, 94), Score(63, 84), Score(53, 83)},
            {Score(4, 53), Score(18, 73), Score(37, 65), Score(35, 95), Score(24, 94)},
            {Score(-23, 17), Score(0, 0), Score(4, 12), Score(0, 0), Score(13, 41)},
            {Score(-27, 14), Score(0, 0), Score(-60, -1), Score(0, 0), Score(46, 35)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-78, -65), Score(-52, -45), Score(-44, -32), Score(-12, -3), Score(3, 21), Score(35, 28), Score(51, 29), Score(66, 33), Score(61, 34)},
    .rookMobility = {Score(-4, -18), Score(8, -19), Score(-5, -23), Score(24, -20), Score(42, -12), Score(62, -7), Score(77, -7), Score(71, -5), Score(91, 4), Score(99, 3), Score(101, 7), Score(115, 5), Score(135, 4), Score(135, 9), Score(153, 12), Score(163, 9), Score(161, 15), Score(181, 10)},
    .cannonMobility = {Score(-2, 0), Score(1, -10), Score(3, -11), Score(15, -23), Score(7, -15), Score(20, -20), Score(18, -14), Score(26, -23), Score(28, -22), Score(27, -29), Score(23, -34), Score(37, -41), Score(32, -39), Score(34, -38), Score(37, -40), Score(43, -44), Score(53, -44), Score(49, -52)},
    .rookOpenFile = Score(32, 21),
    .connectedPawns = Score(14, 15),
    .hollowCannon = Score(117, 3),
    .cannonTwoScreens = Score(43, 18),
    .rookPinOnKingFile = Score(21, 20),
    .missingAdvisor = Score(71, 3),
    .missingElephant = Score(61, -6),
    .kingDanger = {Score(-1, 62), Score(2, 13), Score(-28, -27), Score(-1, -64), Score(7, -58), Score(7, -35), Score(-2, 59), Score(52, 65), Score(78, 53), Score(94, 46), Score(111, 49), Score(120, 56), Score(133, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(6, 3), Score(-14, 12), Score(17, 1), Score(-60, -21), Score(4, 22)},  // advisor
        {Score(-6, -3), Score(0, 0), Score(-7, 18), Score(-11, 2), Score(-3, 3), Score(-4, 16)},  // elephant
        {Score(14, -12), Score(7, -18), Score(0, 0), Score(-15, -5), Score(15, 5), Score(0, 11)},  // horse
        {Score(-17, -1), Score(11, -2), Score(15, 5), Score(0, 0), Score(23, 61), Score(6, 15)},  // rook
        {Score(60, 21), Score(3, -3), Score(-15, -5), Score(-23, -61), Score(0, 0), Score(7, -9)},  // cannon
        {Score(-4, -22), Score(4, -16), Score(0, -11), Score(-6, -15), Score(-7, 9), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(41, 58), Score(25, 4), Score(64, -27)},
    .exposedKingFile = Score(-47, -2),
    .palaceCentreHorse = Score(5, -14),
    .bottomCannon = Score(28, -10),
};

}  // namespace chariot
