// The shipped evaluation weights. Written by `chariot tune` (src/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(162, 63), Score(160, 53), Score(452, 470), Score(982, 1060), Score(474, 398), Score(139, 186)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-35, -25), Score(-29, -23)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-40, -13), Score(-17, -3)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-15, 3), Score(64, -12)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-37, -51), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(38, -44)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-23, -47), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-71, -31), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-41, -35), Score(0, 0), Score(0, 0), Score(0, 0), Score(59, -49)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(23, -34), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(6, 6), Score(8, 14), Score(17, 20), Score(13, 14), Score(4, 4)},
            {Score(5, 6), Score(5, 10), Score(49, 44), Score(19, 22), Score(8, 9)},
            {Score(21, 24), Score(13, 10), Score(16, 14), Score(25, 25), Score(23, 23)},
            {Score(4, 12), Score(45, 36), Score(22, 31), Score(56, 43), Score(22, 25)},
            {Score(8, 8), Score(16, 11), Score(16, 15), Score(55, 30), Score(24, 33)},
            {Score(4, 4), Score(32, 17), Score(33, 16), Score(39, 10), Score(18, 13)},
            {Score(3, 3), Score(-2, -5), Score(12, 0), Score(2, 9), Score(32, 10)},
            {Score(-19, -12), Score(-2, 5), Score(-6, -13), Score(23, 11), Score(-1, 1)},
            {Score(-29, -18), Score(-2, -7), Score(-7, -3), Score(-4, -1), Score(-37, -28)},
            {Score(-1, -1), Score(-72, -8), Score(-5, -4), Score(-12, -8), Score(-1, -1)},
        },
        {  // rook
            {Score(8, 10), Score(11, 13), Score(2, 9), Score(22, 19), Score(18, 19)},
            {Score(10, 13), Score(21, 17), Score(17, 15), Score(28, 23), Score(30, 29)},
            {Score(18, 16), Score(-14, 3), Score(16, 15), Score(22, 20), Score(19, 21)},
            {Score(1, 8), Score(7, 2), Score(38, 19), Score(11, 20), Score(27, 29)},
            {Score(2, 8), Score(7, 6), Score(19, 17), Score(24, 22), Score(23, 20)},
            {Score(11, 13), Score(28, 19), Score(50, 28), Score(33, 26), Score(26, 30)},
            {Score(10, 12), Score(12, 10), Score(27, 19), Score(28, 24), Score(15, 13)},
            {Score(-18, 1), Score(-4, 7), Score(6, 11), Score(21, 18), Score(14, 14)},
            {Score(16, 2), Score(-18, 2), Score(12, 5), Score(-18, 9), Score(10, 7)},
            {Score(-20, -4), Score(31, 6), Score(8, -1), Score(23, 15), Score(12, 12)},
        },
        {  // cannon
            {Score(28, -3), Score(6, 1), Score(-4, -2), Score(-15, -14), Score(-12, -13)},
            {Score(0, -5), Score(-32, -4), Score(-1, -4), Score(-11, -8), Score(-14, -14)},
            {Score(-5, -5), Score(-15, -7), Score(-6, -7), Score(-12, -12), Score(-14, -13)},
            {Score(3, -5), Score(-5, -1), Score(11, -8), Score(-2, -5), Score(17, 9)},
            {Score(-5, -7), Score(13, 2), Score(-2, -5), Score(-3, 0), Score(17, 4)},
            {Score(-3, 0), Score(6, -1), Score(11, 14), Score(-4, 8), Score(26, 19)},
            {Score(2, 2), Score(-9, -3), Score(0, 4), Score(4, 4), Score(10, 9)},
            {Score(2, 6), Score(-9, 8), Score(30, 10), Score(8, 16), Score(22, 27)},
            {Score(1, 0), Score(2, 1), Score(5, 1), Score(11, 10), Score(8, 7)},
            {Score(-7, -2), Score(-8, -6), Score(5, 4), Score(4, 4), Score(6, 11)},
        },
        {  // pawn
            {Score(0, -2), Score(1, 10), Score(7, 23), Score(7, 25), Score(8, 32)},
            {Score(19, 42), Score(34, 50), Score(57, 68), Score(87, 68), Score(120, 101)},
            {Score(8, 32), Score(26, 59), Score(44, 82), Score(70, 121), Score(85, 122)},
            {Score(14, 44), Score(20, 64), Score(49, 89), Score(53, 87), Score(50, 88)},
            {Score(11, 51), Score(17, 66), Score(42, 67), Score(32, 91), Score(28, 91)},
            {Score(-20, 12), Score(0, 0), Score(3, 12), Score(0, 0), Score(12, 37)},
            {Score(-22, 7), Score(0, 0), Score(-51, -5), Score(0, 0), Score(41, 25)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-71, -66), Score(-48, -43), Score(-48, -31), Score(-15, -5), Score(3, 18), Score(35, 26), Score(51, 30), Score(54, 37), Score(54, 37)},
    .rookMobilityBase = Score(-6, -15),
    .rookMobilityPerSquare = Score(11, 2),
    .cannonMobilityPerSquare = Score(3, -4),
    .rookOpenFile = Score(34, 23),
    .connectedPawns = Score(11, 14),
    .hollowCannon = Score(112, 10),
    .cannonTwoScreens = Score(39, 20),
    .rookPinOnKingFile = Score(21, 21),
    .missingAdvisor = Score(58, 1),
    .missingElephant = Score(62, -5),
    .kingDanger = {Score(1, 45), Score(3, 16), Score(-21, -20), Score(-5, -53), Score(5, -43), Score(9, -21), Score(7, 52), Score(61, 53), Score(74, 45), Score(90, 42), Score(103, 47), Score(116, 56), Score(132, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(0, 5), Score(-8, 8), Score(12, -5), Score(-42, -26), Score(9, 21)},  // advisor
        {Score(0, -5), Score(0, 0), Score(-9, 12), Score(-14, -4), Score(-2, 0), Score(-5, 14)},  // elephant
        {Score(8, -8), Score(9, -12), Score(0, 0), Score(-8, -4), Score(12, 3), Score(-2, 7)},  // horse
        {Score(-12, 5), Score(14, 4), Score(8, 4), Score(0, 0), Score(17, 44), Score(0, 8)},  // rook
        {Score(42, 26), Score(2, 0), Score(-12, -3), Score(-17, -44), Score(0, 0), Score(7, -16)},  // cannon
        {Score(-9, -21), Score(5, -14), Score(2, -7), Score(0, -8), Score(-7, 16), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(25, 39), Score(14, 6), Score(47, -18)},
    .exposedKingFile = Score(-44, -6),
    .palaceCentreHorse = Score(5, -8),
    .bottomCannon = Score(16, -5),
};

}  // namespace chariot
