// The shipped evaluation weights. Written by `chariot tune` (src/tune.cpp);
// the layout is EvalParams in eval_params.h. Hand edits are fine: the tuner
// starts from whatever is compiled in.
#pragma once

#include "chariot/eval_params.h"

namespace chariot {

inline constexpr EvalParams DefaultEvalParams = {
    .pieceValue = {Score(0, 0), Score(162, 123), Score(163, 127), Score(434, 480), Score(973, 1055), Score(477, 427), Score(100, 135)},
    .psqt = {
        {  // king
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-30, -30), Score(-30, -29)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-16, -8), Score(-8, 3)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-9, -2), Score(20, -6)},
        },
        {  // advisor
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-9, -18), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(12, -33)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(-25, -30), Score(0, 0)},
        },
        {  // elephant
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-14, -7), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(-8, -10), Score(0, 0), Score(0, 0), Score(0, 0), Score(32, -18)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(-37, -40), Score(0, 0), Score(0, 0)},
        },
        {  // horse
            {Score(6, 6), Score(8, 8), Score(16, 17), Score(12, 12), Score(4, 4)},
            {Score(4, 6), Score(8, 10), Score(34, 28), Score(16, 16), Score(8, 8)},
            {Score(14, 13), Score(13, 11), Score(18, 16), Score(22, 20), Score(18, 17)},
            {Score(10, 8), Score(28, 30), Score(20, 22), Score(33, 31), Score(20, 20)},
            {Score(6, 6), Score(19, 18), Score(14, 14), Score(33, 21), Score(18, 18)},
            {Score(4, 4), Score(17, 17), Score(20, 20), Score(22, 17), Score(13, 12)},
            {Score(1, 2), Score(4, 5), Score(14, 10), Score(4, 8), Score(14, 13)},
            {Score(4, 2), Score(2, 3), Score(-3, 2), Score(13, 12), Score(2, 4)},
            {Score(-5, -3), Score(2, 2), Score(2, 2), Score(17, 8), Score(-42, -20)},
            {Score(0, -1), Score(-23, -8), Score(-3, -2), Score(-4, -4), Score(0, 0)},
        },
        {  // rook
            {Score(11, 12), Score(13, 11), Score(11, 12), Score(20, 19), Score(16, 16)},
            {Score(14, 15), Score(9, 13), Score(19, 16), Score(30, 26), Score(27, 26)},
            {Score(12, 12), Score(8, 9), Score(12, 12), Score(19, 21), Score(18, 18)},
            {Score(6, 9), Score(13, 14), Score(28, 19), Score(18, 29), Score(28, 28)},
            {Score(11, 12), Score(15, 11), Score(15, 13), Score(16, 23), Score(21, 18)},
            {Score(10, 10), Score(15, 15), Score(20, 16), Score(21, 22), Score(21, 22)},
            {Score(7, 7), Score(14, 10), Score(13, 10), Score(22, 18), Score(16, 14)},
            {Score(3, 4), Score(1, 7), Score(4, 4), Score(17, 17), Score(12, 12)},
            {Score(16, 8), Score(7, 5), Score(10, 8), Score(17, 15), Score(8, 8)},
            {Score(-23, -3), Score(18, 11), Score(9, 7), Score(12, 14), Score(12, 12)},
        },
        {  // cannon
            {Score(10, 7), Score(9, 8), Score(-1, 0), Score(-12, -10), Score(-12, -12)},
            {Score(-2, 0), Score(-11, -2), Score(-1, -1), Score(-8, -7), Score(-14, -14)},
            {Score(0, 0), Score(-1, 1), Score(-2, -2), Score(-8, -9), Score(-8, -8)},
            {Score(0, 2), Score(-3, 0), Score(7, -6), Score(3, 2), Score(20, 15)},
            {Score(0, 0), Score(5, 1), Score(-2, -2), Score(1, 3), Score(8, 6)},
            {Score(-3, -2), Score(-5, 0), Score(11, 6), Score(1, 2), Score(17, 12)},
            {Score(0, 0), Score(1, 0), Score(0, 1), Score(4, 4), Score(6, 5)},
            {Score(2, 4), Score(3, 3), Score(14, 10), Score(9, 5), Score(12, 10)},
            {Score(-2, 0), Score(-2, 2), Score(-3, 0), Score(8, 9), Score(8, 5)},
            {Score(-3, -2), Score(-4, -2), Score(3, 1), Score(3, 4), Score(6, 6)},
        },
        {  // pawn
            {Score(0, 0), Score(3, 12), Score(6, 20), Score(8, 27), Score(10, 38)},
            {Score(19, 41), Score(36, 60), Score(56, 78), Score(82, 95), Score(120, 110)},
            {Score(14, 40), Score(26, 60), Score(43, 80), Score(62, 106), Score(80, 109)},
            {Score(14, 43), Score(19, 57), Score(32, 78), Score(38, 86), Score(42, 86)},
            {Score(7, 33), Score(13, 50), Score(31, 72), Score(21, 83), Score(28, 87)},
            {Score(-5, 2), Score(0, 0), Score(41, 26), Score(0, 0), Score(13, 24)},
            {Score(-11, 2), Score(0, 0), Score(-37, -5), Score(0, 0), Score(6, 7)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
            {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},
        },
    },
    .horseMobility = {Score(-56, -70), Score(-34, -36), Score(-43, -26), Score(-16, -4), Score(12, 16), Score(35, 29), Score(33, 34), Score(35, 35), Score(33, 35)},
    .rookMobilityBase = Score(-15, -20),
    .rookMobilityPerSquare = Score(11, 10),
    .cannonMobilityPerSquare = Score(2, 0),
    .rookOpenFile = Score(36, 18),
    .connectedPawns = Score(10, 21),
    .hollowCannon = Score(98, 18),
    .cannonTwoScreens = Score(43, 17),
    .rookPinOnKingFile = Score(27, 18),
    .missingAdvisor = Score(13, -24),
    .missingElephant = Score(28, -11),
    .kingDanger = {Score(1, 13), Score(-2, 8), Score(-3, -3), Score(-3, -34), Score(3, -14), Score(19, 16), Score(25, 32), Score(57, 31), Score(60, 33), Score(80, 38), Score(93, 45), Score(112, 55), Score(130, 65), Score(150, 75), Score(170, 85), Score(190, 95)},
    .imbalance = {  // [ours][theirs]: advisor, elephant, horse, rook, cannon, pawn
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // advisor
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // elephant
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // horse
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // rook
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // cannon
        {Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0), Score(0, 0)},  // pawn
    },
    .crossedPawnVsAdvisors = {Score(0, 0), Score(0, 0), Score(0, 0)},
    .exposedKingFile = Score(0, 0),
    .palaceCentreHorse = Score(0, 0),
    .bottomCannon = Score(0, 0),
};

}  // namespace chariot
