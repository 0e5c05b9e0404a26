// The shipped evaluation weights. Written by `chariot tune` (src/tools/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(147, 63), Score(119, 41), Score(489, 471), Score(945, 1043), Score(448, 412), Score(228, 167)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-93, -46), Score(-53, -24)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-74, 4), Score(-4, 11)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(42, -2), Score(110, -14)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-54, -40), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(33, -46)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-15, -56), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-80, -30), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-57, -40), Score(0, 0), Score(0, 0), Score(0, 0), Score(62, -49)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(3, -43), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(18, 24), Score(8, 31), Score(28, 36), Score(18, 23), Score(7, 9)},
            {Score(7, 21), Score(21, 43), Score(107, 40), Score(34, 35), Score(8, 6)},
            {Score(59, 63), Score(15, 26), Score(-3, 34), Score(54, 48), Score(67, 48)},
            {Score(-49, 10), Score(126, 39), Score(-15, 47), Score(128, 33), Score(-31, 33)},
            {Score(3, 23), Score(6, 25), Score(3, 22), Score(72, 34), Score(44, 53)},
            {Score(10, 11), Score(17, 11), Score(103, 0), Score(12, 14), Score(43, 8)},
            {Score(-4, 2), Score(-32, -14), Score(-21, 3), Score(-14, 3), Score(56, 3)},
            {Score(-31, -34), Score(-14, -7), Score(-24, -35), Score(55, -6), Score(-24, -11)},
            {Score(-55, -66), Score(-17, -28), Score(-45, -33), Score(-36, -31), Score(-36, -70)},
            {Score(-10, -12), Score(-97, 6), Score(-7, -18), Score(-30, -24), Score(-5, -4)},
        },
        {  // rook
            {Score(-9, 3), Score(-2, 4), Score(-31, -12), Score(12, -3), Score(31, 33)},
            {Score(-12, 7), Score(40, 11), Score(14, 13), Score(49, 21), Score(44, 43)},
            {Score(13, 8), Score(-14, 14), Score(-3, 29), Score(33, 14), Score(13, 24)},
            {Score(-26, 18), Score(26, 14), Score(59, 15), Score(45, 14), Score(8, 38)},
            {Score(-29, 14), Score(-1, 7), Score(16, 20), Score(24, 20), Score(20, 36)},
            {Score(16, 24), Score(40, 25), Score(56, 39), Score(54, 27), Score(43, 46)},
            {Score(12, 27), Score(37, 25), Score(69, 32), Score(75, 28), Score(40, 36)},
            {Score(-50, -1), Score(-8, 11), Score(9, 24), Score(20, 17), Score(10, 20)},
            {Score(-49, -23), Score(-20, 1), Score(-13, -15), Score(-17, 6), Score(5, -2)},
            {Score(-54, -40), Score(22, -33), Score(9, -16), Score(36, 3), Score(9, 7)},
        },
        {  // cannon
            {Score(74, -29), Score(24, -6), Score(-39, -13), Score(-58, -39), Score(-16, -19)},
            {Score(23, 15), Score(-46, 14), Score(-9, -3), Score(-45, -22), Score(-22, -17)},
            {Score(-12, -7), Score(-52, -7), Score(-26, -16), Score(-34, -22), Score(-45, -34)},
            {Score(-28, -5), Score(-7, 7), Score(12, -9), Score(-31, -4), Score(34, 8)},
            {Score(-7, -10), Score(-16, -7), Score(-28, -15), Score(-32, 6), Score(69, -11)},
            {Score(4, 8), Score(3, 2), Score(11, 15), Score(-18, 25), Score(66, 18)},
            {Score(9, 0), Score(-19, 0), Score(12, 8), Score(3, 12), Score(23, 13)},
            {Score(10, 4), Score(6, 9), Score(47, 2), Score(37, 26), Score(43, 34)},
            {Score(6, 4), Score(4, 2), Score(37, 0), Score(21, 30), Score(30, 24)},
            {Score(-27, 3), Score(-18, -11), Score(7, -4), Score(31, 29), Score(25, 30)},
        },
        {  // pawn
            {Score(-3, -13), Score(-2, -10), Score(2, 10), Score(3, 1), Score(2, 1)},
            {Score(17, 16), Score(42, 15), Score(92, 54), Score(156, 84), Score(136, 101)},
            {Score(-6, 17), Score(38, 37), Score(56, 73), Score(104, 127), Score(94, 113)},
            {Score(-5, 50), Score(39, 62), Score(58, 91), Score(75, 92), Score(48, 94)},
            {Score(-16, 60), Score(16, 65), Score(13, 82), Score(33, 111), Score(16, 110)},
            {Score(-43, 31), Score(0, 0), Score(6, 22), Score(0, 0), Score(23, 56)},
            {Score(-36, 26), Score(0, 0), Score(-53, 16), Score(0, 0), Score(45, 46)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-90, -73), Score(-36, -56), Score(-28, -24), Score(-8, 1), Score(4, 24), Score(22, 37), Score(41, 32), Score(76, 29), Score(70, 36)},
    .rookMobility = {Score(-4, -18), Score(8, -29), Score(23, -49), Score(30, -51), Score(50, -26), Score(72, -8), Score(82, -4), Score(79, -2), Score(84, 18), Score(96, 10), Score(95, 17), Score(110, 11), Score(123, 3), Score(115, 17), Score(144, 17), Score(150, 19), Score(150, 18), Score(163, 11)},
    .cannonMobility = {Score(-18, -13), Score(-4, -29), Score(-1, -28), Score(1, -37), Score(6, -28), Score(12, -25), Score(11, -30), Score(30, -30), Score(29, -26), Score(25, -24), Score(17, -24), Score(33, -28), Score(38, -23), Score(41, -18), Score(33, -21), Score(48, -35), Score(69, -29), Score(58, -23)},
    .rookOpenFile = Score(11, 18),
    .connectedPawns = Score(11, -3),
    .hollowCannon = Score(145, -14),
    .cannonTwoScreens = Score(40, 38),
    .rookPinOnKingFile = Score(17, 11),
    .missingAdvisor = Score(42, 6),
    .missingElephant = Score(13, 7),
    .kingDanger = {Score(-13, 36), Score(-15, -2), Score(-18, -36), Score(23, -62), Score(20, -64), Score(12, -36), Score(7, 33), Score(20, 87), Score(52, 83), Score(84, 62), Score(126, 58), Score(137, 59), Score(138, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(3, -2), Score(-5, 10), Score(26, 0), Score(-54, -3), Score(-6, 14)},  // advisor
        {Score(-3, 2), Score(0, 0), Score(-1, 11), Score(6, 14), Score(11, 1), Score(1, 9)},  // elephant
        {Score(5, -10), Score(1, -11), Score(0, 0), Score(-21, -29), Score(12, -3), Score(8, 14)},  // horse
        {Score(-26, 0), Score(-6, -14), Score(21, 29), Score(0, 0), Score(23, 48), Score(20, 31)},  // rook
        {Score(54, 3), Score(-11, -1), Score(-12, 3), Score(-23, -48), Score(0, 0), Score(8, 9)},  // cannon
        {Score(6, -14), Score(-1, -9), Score(-8, -14), Score(-20, -31), Score(-8, -9), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(83, 41), Score(68, -13), Score(73, -29)},
    .exposedKingFile = Score(-30, 0),
    .palaceCentreHorse = Score(6, -50),
    .bottomCannon = Score(36, -19),
};

}  // namespace chariot
