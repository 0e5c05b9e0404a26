// Move notations of xiangqi games: ICCS coordinates ("h2e2", PGN "H2-E2"),
// WXF ("C2.5", "H8+7", "+C.5") and Chinese ("炮二平五", "马８进７", "前车进一").
//
// WXF and Chinese name the piece by its file counted from the mover's right
// (red: file i = 1 ... file a = 9; black: file a = 1 ... file i = 9), then
// the direction (+ 进 forward, - 退 back, . 平 sideways) and either the
// destination file (sideways moves, and every move of advisors, elephants
// and horses) or the number of ranks. Two rooks, horses, cannons or pawns on
// one file are told apart by their order from the front: WXF "+C" / "-C",
// Chinese 前炮 / 后炮; three pawns 前 中 后, more 一 二 三 四 五 from the
// front (WXF "1P" ... "5P" for three or more); when two files both hold
// several pawns the file replaces the piece's name (前七, WXF "+7").
// Advisors and elephants keep the file form: the direction tells them apart.
//
// Parsing resolves a move by generating the legal moves of the position and
// matching them against the description, so a description that fits two
// legal moves is rejected as ambiguous and one that fits none as illegal.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "chariot/position.h"

namespace chariot::notation {

enum class Notation : uint8_t { Iccs, Wxf, Chinese };

std::optional<Notation> parseNotationName(std::string_view name);  // "iccs", "wxf", "chinese"
const char* notationName(Notation n);                              // "iccs", "wxf", "chinese"

// The notation a token is written in, judged by its form alone (no position):
// nullopt when it is not a move in any of them.
std::optional<Notation> classify(std::string_view token);

// The legal move of `pos` the token describes (any notation); none() when
// there is none or more than one, with the reason in *error.
Move parseMove(const Position& pos, std::string_view token, std::string* error = nullptr);

// Writers. The move must be legal in `pos`.
std::string toPgnIccs(Move m);  // "H2-E2"
std::string toWxf(const Position& pos, Move m);
std::string toChinese(const Position& pos, Move m);  // red files 一..九, black files １..９
std::string write(const Position& pos, Move m, Notation n);

}  // namespace chariot::notation
