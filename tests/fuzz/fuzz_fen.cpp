// Fuzzes the FEN parser with arbitrary bytes. A rejected FEN must leave the
// position untouched; an accepted one must be consistent, survive a FEN round
// trip and its mirror image, and every legal move must make and unmake
// cleanly (perftChecked verifies generator, legality and check detection).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "chariot/movegen.h"
#include "chariot/position.h"
#include "chariot/rules.h"
#include "fuzz_check.h"

using namespace chariot;
using chariot::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    Position pos;
    const std::string startFen = pos.fen();
    const uint64_t startKey = pos.key();

    if (auto error = pos.setFen(text)) {
        check(!error->empty(), "setFen: empty error message");
        check(pos.fen() == startFen && pos.key() == startKey && pos.isConsistent(),
              "setFen: a rejected FEN changed the position", std::string(text));
        return 0;
    }

    const std::string fen = pos.fen();
    check(pos.isConsistent(), "setFen: the accepted position is inconsistent", fen);
    check(pos.inCheck() == pos.kingAttacked(pos.sideToMove()), "setFen: wrong check flag", fen);

    Position again;
    auto error = again.setFen(fen);
    check(!error, "setFen rejects the output of fen()", fen + " : " + error.value_or(""));
    check(again.fen() == fen && again.key() == pos.key(), "the FEN round trip changed the position", fen);

    const Position mirror = pos.mirrored();
    check(mirror.isConsistent(), "mirrored() is inconsistent", fen);
    check(mirror.mirrored().fen() == fen && mirror.mirrored().key() == pos.key(), "mirroring twice differs", fen);

    try {
        const uint64_t leaves = perftChecked(pos, 1);
        MoveList legal;
        generateLegal(pos, legal);
        check(leaves == uint64_t(legal.size), "perft 1 differs from the legal move count", fen);
        for (Move m : legal) {
            check(pos.parseLegalMove(m.toString()) == m, "parseLegalMove rejects a generated move",
                  fen + " " + m.toString());
            (void)pos.seeGe(m, 0);
            const uint64_t keyAfter = pos.keyAfter(m);
            pos.makeMove(m);
            check(pos.key() == keyAfter, "keyAfter differs from makeMove", fen + " " + m.toString());
            (void)rules::judge(pos, 1);
            // Every position a legal move reaches must be expressible as FEN.
            Position next;
            auto e = next.setFen(pos.fen());
            check(!e, "setFen rejects a position reached by a legal move",
                  fen + " " + m.toString() + " -> " + pos.fen() + " : " + e.value_or(""));
            pos.unmakeMove();
            check(pos.fen() == fen && pos.key() == again.key(), "unmakeMove did not restore the position",
                  fen + " " + m.toString());
        }
    } catch (const std::exception& e) {
        chariot::fuzz::fail("perftChecked", fen + " : " + e.what());
    }
    return 0;
}
