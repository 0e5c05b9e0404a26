// Fuzzes the move parser and move making. Input: a first line that is used as
// a FEN if it parses (else the start position), then whitespace-separated
// tokens. A token is parsed as an ICCS move (Move::parse, parseLegalMove),
// whose verdict must agree with the move generator; a legal one is played.
// Any other token plays the legal move its bytes select, so that short inputs
// reach deep games. Every step checks the incremental state, and unmaking
// everything must restore the starting position.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "chariot/movegen.h"
#include "chariot/position.h"
#include "chariot/rules.h"
#include "fuzz_check.h"

using namespace chariot;
using chariot::fuzz::check;

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view text(reinterpret_cast<const char*>(data), size);
    Position pos;
    const size_t eol = text.find('\n');
    if (eol != std::string_view::npos) {
        (void)pos.setFen(text.substr(0, eol));  // a bad FEN keeps the start position
        text.remove_prefix(eol + 1);
    }
    const std::string startFen = pos.fen();
    const uint64_t startKey = pos.key();
    int made = 0;
    const auto fenNow = [&pos] { return pos.fen(); };  // failure details, built only on failure

    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i])) ++i;
        const size_t start = i;
        while (i < text.size() && !isSpace(text[i])) ++i;
        if (i == start) break;
        const std::string_view token = text.substr(start, i - start);
        const auto tokenText = [token] { return std::string(token); };

        MoveList legal;
        generateLegal(pos, legal);
        const Move parsed = Move::parse(token);
        Move toPlay = Move::none();
        if (parsed) {
            std::string lowered(token);
            for (char& c : lowered) c = char(std::tolower(static_cast<unsigned char>(c)));
            check(parsed.toString() == lowered, "Move::parse does not round-trip", tokenText);
            const Move legalMove = pos.parseLegalMove(token);
            check(bool(legalMove) == legal.contains(parsed), "parseLegalMove disagrees with the generator",
                  [&] { return fenNow() + " " + tokenText(); });
            check(!legalMove || legalMove == parsed, "parseLegalMove returned another move", tokenText);
            toPlay = legalMove;
        } else {
            check(!pos.parseLegalMove(token), "parseLegalMove accepts what Move::parse rejects", tokenText);
            if (legal.size > 0) {
                uint32_t h = 0;
                for (char c : token) h = h * 31 + uint8_t(c);
                toPlay = legal.moves[h % uint32_t(legal.size)];
            }
        }
        if (!toPlay) continue;

        const bool gives = pos.givesCheck(toPlay);
        pos.makeMove(toPlay);
        ++made;
        check(pos.isConsistent(), "inconsistent after a move", fenNow);
        check(pos.inCheck() == gives, "givesCheck disagrees with makeMove", fenNow);
        check(!pos.kingAttacked(~pos.sideToMove()), "a legal move left its own king attacked", fenNow);
        (void)rules::judge(pos, 0);
        (void)rules::judge(pos, made);
    }

    // The position reached must still be expressible as FEN.
    Position reached;
    auto error = reached.setFen(pos.fen());
    check(!error, "setFen rejects a position reached by legal moves", pos.fen() + " : " + error.value_or(""));

    for (int n = 0; n < made; ++n) pos.unmakeMove();
    check(pos.fen() == startFen && pos.key() == startKey && pos.isConsistent(),
          "unmaking every move did not restore the start", pos.fen());
    return 0;
}
