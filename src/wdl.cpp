#include "chariot/wdl.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "chariot/wdl_model.h"

namespace chariot::wdl {

namespace {

double polynomial(const double (&coeffs)[4], double t) {
    double sum = 0.0;
    for (int i = 3; i >= 0; --i) sum = sum * t + coeffs[i];
    return sum;
}

// 1000 / (1 + exp(-(v - a) / b)), rounded half up.
int perMille(double v, double a, double b) { return int(std::floor(1000.0 / (1.0 + std::exp(-(v - a) / b)) + 0.5)); }

}  // namespace

int phase(const Position& pos) {
    int n = 0;
    for (Color c : {Color::Red, Color::Black})
        for (PieceType t : {PieceType::Rook, PieceType::Horse, PieceType::Cannon, PieceType::Pawn})
            n += pos.count(c, t);
    return n;
}

Wdl fromValue(Value v, int phase) {
    if (isDecisive(v)) return v > 0 ? Wdl{1000, 0, 0} : Wdl{0, 0, 1000};
    static_assert(std::size(model::A) == 4 && std::size(model::B) == 4, "wdl.cpp evaluates cubic polynomials");
    const double t = double(std::clamp(phase, model::PhaseMin, model::PhaseMax)) / model::PhaseMax;
    const double a = polynomial(model::A, t), b = polynomial(model::B, t);
    const int win = perMille(v, a, b), loss = perMille(-v, a, b);
    // a > 0 makes P(win) + P(loss) < 1, and rounding half up then keeps the
    // sum at most 1000; the guard only protects against a bad model file.
    const int draw = std::max(0, 1000 - win - loss);
    if (win + loss > 1000) return win >= loss ? Wdl{1000 - loss, 0, loss} : Wdl{win, 0, 1000 - win};
    return {win, draw, loss};
}

}  // namespace chariot::wdl
