// The shipped evaluation weights. Written by `chariot tune` (src/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(165, 25), Score(155, 16), Score(478, 457), Score(983, 1052), Score(475, 378), Score(185, 215)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-45, -26), Score(-31, -18)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-54, -7), Score(-19, -1)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-12, 1), Score(90, -21)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-43, -56), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(39, -57)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-14, -67), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-79, -37), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-47, -40), Score(0, 0), Score(0, 0), Score(0, 0), Score(68, -61)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(22, -49), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(10, 11), Score(8, 16), Score(20, 24), Score(15, 17), Score(5, 5)},
            {Score(5, 8), Score(7, 16), Score(69, 53), Score(26, 28), Score(8, 10)},
            {Score(30, 35), Score(14, 15), Score(10, 19), Score(32, 34), Score(31, 31)},
            {Score(-1, 15), Score(66, 43), Score(14, 40), Score(84, 49), Score(16, 27)},
            {Score(9, 16), Score(13, 10), Score(16, 19), Score(64, 39), Score(32, 45)},
            {Score(5, 5), Score(35, 12), Score(56, 1), Score(38, 7), Score(24, 10)},
            {Score(6, 3), Score(-7, -10), Score(4, -4), Score(1, 7), Score(38, -2)},
            {Score(-32, -22), Score(-5, 0), Score(-16, -29), Score(36, 5), Score(-6, -1)},
            {Score(-49, -34), Score(-7, -14), Score(-15, -8), Score(-21, -15), Score(-36, -38)},
            {Score(-3, -3), Score(-97, -7), Score(-5, -7), Score(-20, -15), Score(-2, -2)},
        },
        {  // rook
            {Score(3, 6), Score(2, 8), Score(-7, 4), Score(22, 15), Score(20, 22)},
            {Score(4, 10), Score(30, 16), Score(15, 12), Score(25, 17), Score(33, 33)},
            {Score(18, 14), Score(-24, 3), Score(12, 16), Score(25, 22), Score(19, 23)},
            {Score(-3, 9), Score(11, -5), Score(43, 16), Score(14, 12), Score(25, 29)},
            {Score(-7, 7), Score(-6, 3), Score(19, 20), Score(26, 19), Score(26, 25)},
            {Score(17, 19), Score(40, 20), Score(62, 38), Score(46, 29), Score(36, 37)},
            {Score(12, 18), Score(22, 15), Score(44, 29), Score(46, 32), Score(21, 18)},
            {Score(-31, 1), Score(-7, 6), Score(11, 17), Score(23, 18), Score(16, 16)},
            {Score(-7, -6), Score(-35, 1), Score(12, 2), Score(-31, 9), Score(11, 7)},
            {Score(-30, -12), Score(27, -6), Score(13, -6), Score(28, 14), Score(12, 12)},
        },
        {  // cannon
            {Score(44, -15), Score(11, -4), Score(-11, -5), Score(-19, -17), Score(-14, -15)},
            {Score(2, -5), Score(-50, -3), Score(1, -4), Score(-24, -14), Score(-14, -14)},
            {Score(-9, -10), Score(-46, -15), Score(-16, -12), Score(-15, -14), Score(-20, -17)},
            {Score(7, -8), Score(-4, -2), Score(25, -5), Score(-18, -14), Score(19, 7)},
            {Score(-5, -11), Score(2, -3), Score(-1, -9), Score(-11, -3), Score(35, 0)},
            {Score(-2, 3), Score(1, 1), Score(12, 20), Score(-10, 16), Score(33, 21)},
            {Score(6, 4), Score(-11, -2), Score(6, 9), Score(1, 6), Score(13, 13)},
            {Score(9, 7), Score(-10, 12), Score(39, 6), Score(19, 32), Score(24, 37)},
            {Score(4, -2), Score(6, 0), Score(27, 2), Score(18, 13), Score(12, 11)},
            {Score(-11, -2), Score(-12, -11), Score(4, -1), Score(10, 9), Score(8, 13)},
        },
        {  // pawn
            {Score(-1, -3), Score(0, 6), Score(6, 20), Score(5, 16), Score(6, 22)},
            {Score(19, 38), Score(34, 33), Score(66, 69), Score(103, 71), Score(122, 95)},
            {Score(4, 28), Score(28, 54), Score(58, 94), Score(80, 135), Score(91, 128)},
            {Score(17, 44), Score(26, 59), Score(60, 90), Score(69, 81), Score(55, 81)},
            {Score(2, 54), Score(18, 70), Score(32, 65), Score(39, 101), Score(24, 98)},
            {Score(-27, 21), Score(0, 0), Score(1, 9), Score(0, 0), Score(16, 44)},
            {Score(-31, 21), Score(0, 0), Score(-68, 1), Score(0, 0), Score(50, 41)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-84, -64), Score(-53, -47), Score(-37, -31), Score(-11, -2), Score(3, 21), Score(31, 29), Score(54, 26), Score(72, 29), Score(65, 30)},
    .rookMobility = {Score(-4, -18), Score(6, -20), Score(-7, -26), Score(27, -23), Score(45, -12), Score(65, -7), Score(84, -6), Score(71, -4), Score(91, 7), Score(98, 4), Score(98, 11), Score(115, 6), Score(136, 2), Score(130, 9), Score(153, 11), Score(162, 7), Score(157, 15), Score(180, 7)},
    .cannonMobility = {Score(-3, -1), Score(-1, -14), Score(1, -14), Score(15, -27), Score(7, -18), Score(23, -21), Score(18, -15), Score(32, -24), Score(31, -21), Score(29, -30), Score(20, -31), Score(38, -40), Score(31, -38), Score(32, -37), Score(35, -39), Score(43, -42), Score(55, -41), Score(50, -51)},
    .rookOpenFile = Score(28, 15),
    .connectedPawns = Score(15, 12),
    .hollowCannon = Score(121, -3),
    .cannonTwoScreens = Score(47, 20),
    .rookPinOnKingFile = Score(17, 17),
    .missingAdvisor = Score(81, 4),
    .missingElephant = Score(54, -6),
    .kingDanger = {Score(-3, 72), Score(2, 15), Score(-29, -31), Score(3, -72), Score(8, -67), Score(6, -44), Score(-4, 58), Score(45, 74), Score(78, 59), Score(96, 48), Score(115, 50), Score(122, 56), Score(134, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(9, -1), Score(-18, 19), Score(21, 8), Score(-71, -12), Score(-6, 25)},  // advisor
        {Score(-9, 1), Score(0, 0), Score(-9, 19), Score(-9, 11), Score(-3, 5), Score(-1, 18)},  // elephant
        {Score(18, -19), Score(9, -19), Score(0, 0), Score(-16, -7), Score(19, 0), Score(3, 12)},  // horse
        {Score(-21, -8), Score(9, -11), Score(16, 7), Score(0, 0), Score(22, 65), Score(15, 17)},  // rook
        {Score(71, 12), Score(3, -5), Score(-19, 0), Score(-22, -65), Score(0, 0), Score(8, -4)},  // cannon
        {Score(6, -25), Score(1, -18), Score(-3, -12), Score(-15, -17), Score(-8, 4), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(52, 73), Score(35, -1), Score(78, -39)},
    .exposedKingFile = Score(-53, -2),
    .palaceCentreHorse = Score(6, -18),
    .bottomCannon = Score(33, -11),
};

}  // namespace chariot
