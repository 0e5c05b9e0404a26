// The shipped evaluation weights. Written by `chariot tune` (src/tools/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(207, 58), Score(144, 47), Score(497, 484), Score(923, 1046), Score(428, 394), Score(245, 218)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-94, -39), Score(-71, -27)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-74, 7), Score(0, -1)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(48, -1), Score(107, -11)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-30, -34), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(52, -49)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(2, -64), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-67, -19), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-45, -40), Score(0, 0), Score(0, 0), Score(0, 0), Score(60, -49)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(4, -48), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(19, 32), Score(7, 23), Score(29, 39), Score(20, 25), Score(9, 10)},
            {Score(8, 23), Score(17, 47), Score(129, 37), Score(37, 27), Score(11, 11)},
            {Score(57, 43), Score(24, 24), Score(3, 42), Score(70, 45), Score(60, 46)},
            {Score(-33, 26), Score(126, 32), Score(-13, 43), Score(129, 32), Score(-30, 31)},
            {Score(3, 32), Score(5, 35), Score(8, 34), Score(69, 34), Score(23, 57)},
            {Score(13, 1), Score(8, -3), Score(113, -7), Score(28, 7), Score(62, -4)},
            {Score(-14, -3), Score(-31, -14), Score(-12, -9), Score(-4, 5), Score(51, -2)},
            {Score(-35, -27), Score(-22, -5), Score(-27, -20), Score(45, -5), Score(-23, -13)},
            {Score(-75, -56), Score(-22, -24), Score(-56, -17), Score(-31, -26), Score(-44, -62)},
            {Score(-16, -10), Score(-100, -16), Score(-27, -16), Score(-21, -27), Score(-3, 11)},
        },
        {  // rook
            {Score(-13, 1), Score(0, -7), Score(-18, 4), Score(36, 1), Score(30, 27)},
            {Score(-5, 6), Score(41, 0), Score(18, 10), Score(33, 10), Score(35, 36)},
            {Score(-1, 15), Score(-8, 6), Score(-5, 23), Score(40, 17), Score(13, 22)},
            {Score(4, 11), Score(27, 8), Score(68, 7), Score(52, 9), Score(22, 29)},
            {Score(-21, 8), Score(-14, 10), Score(16, 15), Score(15, 12), Score(18, 24)},
            {Score(8, 22), Score(28, 17), Score(55, 31), Score(45, 30), Score(40, 34)},
            {Score(7, 36), Score(24, 29), Score(43, 41), Score(52, 37), Score(52, 38)},
            {Score(-34, 14), Score(-1, 6), Score(3, 23), Score(25, 19), Score(12, 35)},
            {Score(-46, -9), Score(-23, 2), Score(-13, 0), Score(-15, 7), Score(-9, 6)},
            {Score(-54, -20), Score(10, -30), Score(2, -9), Score(21, 5), Score(11, 10)},
        },
        {  // cannon
            {Score(84, -25), Score(-6, 3), Score(-35, -18), Score(-32, -26), Score(-18, -23)},
            {Score(16, 2), Score(-50, 6), Score(-22, -16), Score(-29, -14), Score(-24, -14)},
            {Score(-5, -5), Score(-54, -6), Score(-38, -15), Score(-29, -20), Score(-63, -32)},
            {Score(-8, 11), Score(-18, 5), Score(4, -10), Score(-26, 16), Score(3, 9)},
            {Score(3, 1), Score(-44, 12), Score(-34, -20), Score(-24, 20), Score(59, 1)},
            {Score(-12, 7), Score(-6, -2), Score(15, 1), Score(-6, 30), Score(66, 14)},
            {Score(11, 4), Score(-28, 5), Score(26, 4), Score(2, 12), Score(38, 17)},
            {Score(31, 2), Score(-11, 9), Score(44, 0), Score(33, 11), Score(55, 27)},
            {Score(17, 5), Score(-7, 6), Score(50, -15), Score(17, 14), Score(48, 15)},
            {Score(-24, 6), Score(-32, 1), Score(25, -1), Score(28, 0), Score(29, 11)},
        },
        {  // pawn
            {Score(0, 17), Score(2, 0), Score(8, 10), Score(5, 8), Score(5, 15)},
            {Score(18, 25), Score(71, 36), Score(110, 74), Score(163, 85), Score(132, 97)},
            {Score(-6, 26), Score(53, 50), Score(69, 98), Score(113, 136), Score(100, 123)},
            {Score(-20, 32), Score(40, 56), Score(57, 83), Score(88, 91), Score(67, 97)},
            {Score(-51, 52), Score(4, 70), Score(-28, 62), Score(28, 91), Score(26, 89)},
            {Score(-36, 7), Score(0, 0), Score(-3, 26), Score(0, 0), Score(11, 69)},
            {Score(-43, 0), Score(0, 0), Score(-53, 13), Score(0, 0), Score(29, 50)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-62, -79), Score(-35, -43), Score(-28, -5), Score(-11, 17), Score(6, 25), Score(21, 33), Score(38, 24), Score(68, 20), Score(62, 27)},
    .rookMobility = {Score(5, -17), Score(33, -31), Score(35, -63), Score(41, -46), Score(50, -14), Score(70, -7), Score(81, 1), Score(82, 7), Score(89, 11), Score(93, 14), Score(90, 24), Score(104, 15), Score(112, 9), Score(108, 18), Score(130, 13), Score(137, 11), Score(131, 11), Score(137, 1)},
    .cannonMobility = {Score(-25, -14), Score(-13, -19), Score(5, -24), Score(6, -36), Score(16, -30), Score(24, -29), Score(20, -29), Score(25, -32), Score(29, -29), Score(27, -30), Score(28, -26), Score(35, -28), Score(37, -23), Score(37, -26), Score(35, -30), Score(32, -29), Score(44, -29), Score(48, -26)},
    .rookOpenFile = Score(1, 18),
    .connectedPawns = Score(15, 15),
    .hollowCannon = Score(160, -28),
    .cannonTwoScreens = Score(11, 42),
    .rookPinOnKingFile = Score(28, 2),
    .missingAdvisor = Score(32, 6),
    .missingElephant = Score(6, 10),
    .kingDanger = {Score(-28, 74), Score(-14, 3), Score(-26, -49), Score(21, -79), Score(15, -78), Score(12, -44), Score(14, 20), Score(28, 92), Score(59, 87), Score(92, 73), Score(126, 60), Score(134, 58), Score(139, 66), Score(151, 75), Score(169, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(4, -1), Score(-7, 8), Score(36, -9), Score(-36, -22), Score(-9, 17)},  // advisor
        {Score(-4, 1), Score(0, 0), Score(-2, 9), Score(12, 1), Score(10, -1), Score(-1, 11)},  // elephant
        {Score(7, -8), Score(2, -9), Score(0, 0), Score(-24, -40), Score(4, -8), Score(7, 20)},  // horse
        {Score(-36, 9), Score(-12, -1), Score(24, 40), Score(0, 0), Score(12, 58), Score(29, 38)},  // rook
        {Score(36, 22), Score(-10, 1), Score(-4, 8), Score(-12, -58), Score(0, 0), Score(7, 14)},  // cannon
        {Score(9, -17), Score(1, -11), Score(-7, -20), Score(-29, -38), Score(-7, -14), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(102, 47), Score(87, -5), Score(84, -24)},
    .exposedKingFile = Score(-30, 14),
    .palaceCentreHorse = Score(-2, -42),
    .bottomCannon = Score(20, 0),
};

}  // namespace chariot
