// The repetition rules (rules.h): chase sets, verdicts on cycles, the
// two-fold/three-fold treatment around the search root, and the search
// and protocol behaviour they lead to.
//
// Rulings follow the rule as shared/tools/README.md ("Referee") states it;
// the reason for each is in its comment. "R", "N", "C", "A", "B", "P" are red
// pieces, lower case black ones. Several cases come from the referee's tests
// (shared/tools/test_chase.py) and from Fairy-Stockfish's repetition tests
// (shared/docs/rules.md 3.5).
#include <catch2/catch.hpp>

#include "test_util.h"

#include <sstream>
#include <string>
#include <vector>

#include "chariot/engine.h"
#include "chariot/rules.h"
#include "chariot/ucci.h"
#include "engine_process.h"

using namespace chariot;
using test::fromFen;
using test::play;
using namespace std::chrono_literals;
using rules::Verdict;

namespace {

std::vector<std::string> split(std::string_view moves) {
    std::istringstream in{std::string(moves)};
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// Squares named in ICCS, as a set.
rules::SquareSet squares(std::initializer_list<const char*> names) {
    rules::SquareSet s;
    for (const char* n : names) s.set(index(makeSquare(n[0] - 'a', n[1] - '0')));
    return s;
}

std::string names(const rules::SquareSet& s) {
    std::string out;
    for (int sq = 0; sq < BoardSize; ++sq)
        if (s.test(size_t(sq))) {
            if (!out.empty()) out += ' ';
            out += squareName(Square(sq));
        }
    return out;
}

struct Ruled {
    const char* fen;
    const char* prefix;  // moves before the cycle
    const char* cycle;   // one pass; played twice, the start occurs a third time
    Verdict verdict;
    Color offender;       // for PerpetualCheck / PerpetualChase
    const char* chased;   // PerpetualChase: the piece named, on its square at the end ("" = not checked)
    bool mutual = false;  // Draw: both sides chased
};

constexpr Color Red = Color::Red, Black = Color::Black;

// clang-format off
const Ruled Rulings[] = {
    // --- horse or cannon on a rook: a chase, protected or not -------------
    // 1. N e5<->c4 attacks r d6, then d7 (the rook flees along the file, the
    //    horse follows): every red move attacks the rook anew.
    {"5k3/9/9/3r5/4N4/9/9/9/9/4K4 w - - 0 1", "", "e5c4 d6d7 c4e5 d7d6", Verdict::PerpetualChase, Red, "d6"},
    // 2. The same with colours swapped: black chases, black loses.
    {"4k4/9/9/9/9/4n4/3R5/9/9/5K3 b - - 0 1", "", "e4c5 d3d2 c5e4 d2d3", Verdict::PerpetualChase, Black, "d3"},
    // 3. C c2<->a2 attacks the unprotected r a7/c7 over the pawns a3/c3.
    {"3k5/9/r8/9/9/9/P1P6/2C6/9/4K4 w - - 0 1", "", "c2a2 a7c7 a2c2 c7a7", Verdict::PerpetualChase, Red, "a7"},
    // 4. As 3 with n b9 protecting a7 and c7: a cannon on a rook chases all the same.
    {"1n1k5/9/r8/9/9/9/P1P6/2C6/9/4K4 w - - 0 1", "", "c2a2 a7c7 a2c2 c7a7", Verdict::PerpetualChase, Red, "a7"},
    // 5. Fairy-Stockfish "direct chase by cannon" (issue 13's first example):
    //    C b2/a2 attacks r b7/a7 over the crossed pawns b5/a5; the rook's
    //    attacks on those pawns are no chase (each protects the other).
    {"2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1", "c2a2", "a7b7 a2b2 b7a7 b2a2",
     Verdict::PerpetualChase, Red, "a7"},
    // 6. Fairy-Stockfish "discovered chase by cannon": P a5<->b5 makes itself
    //    the screen of C b0 / C a0 against the fleeing r b6/a6. (The prefix
    //    captures a pawn; the cycle has none.) The rook's attacks on the pawn
    //    are on a piece R i5 protects.
    {"2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1", "a4a5", "a6b6 a5b5 b6a6 b5a5",
     Verdict::PerpetualChase, Red, "a6"},
    // 7. Fairy-Stockfish "chase by soldier": without C a0 the move b5a5 only
    //    lets the pawn attack the rook (a pawn may chase): red chases on every
    //    other move only, a draw.
    {"2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1", "a4a5", "a6b6 a5b5 b6a6 b5a5", Verdict::Draw, Red, ""},

    // --- rook on horse or cannon: a chase only when unprotected -----------
    // 8. R a7<->a8 attacks the unprotected n d8 (rank 8), then f7 (rank 7).
    {"5k3/3n5/R8/9/9/9/9/9/9/4K4 w - - 0 1", "", "a7a8 d8f7 a8a7 f7d8", Verdict::PerpetualChase, Red, "d8"},
    // 9. As 8 with r f8 protecting d8 and f7: no chase; a draw.
    {"5k3/3n1r3/R8/9/9/9/9/9/9/4K4 w - - 0 1", "", "a7a8 d8f7 a8a7 f7d8", Verdict::Draw, Red, ""},
    // 10. R a7<->a8 attacks the unprotected c d8, then d7.
    {"5k3/3c5/R8/9/9/9/9/9/9/4K4 w - - 0 1", "", "a7a8 d8d7 a8a7 d7d8", Verdict::PerpetualChase, Red, "d8"},
    // 11. As 10 with r d9 protecting the cannon on d8 and on d7: a draw.
    {"3r1k3/3c5/R8/9/9/9/9/9/9/4K4 w - - 0 1", "", "a7a8 d8d7 a8a7 d7d8", Verdict::Draw, Red, ""},
    // 12. Fairy-Stockfish "fake protection by cannon": r b3/c3 follows C b4/c4.
    //     C b1 "protects" b4 only through the rook, its screen, which is the
    //     capturer: unprotected, so black chases and loses.
    {"5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1", "", "b4c4 b3c3 c4b4 c3b3", Verdict::PerpetualChase, Black, "b4"},
    // 13. Fairy-Stockfish "no overprotection by king": r d3/c3 attacks N c2 /
    //     d0; K e0 protects d0 (taking back leaves the d file closed by n d6),
    //     so only every other black move chases: a draw.
    {"3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1", "", "d0c2 d3c3 c2d0 c3d3", Verdict::Draw, Red, ""},
    // 14. Without n d6 the king's recapture on d0 would face k d9: the horse
    //     is unprotected there too, and black chases on every move.
    {"3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1", "", "d0c2 d3c3 c2d0 c3d3", Verdict::PerpetualChase, Black, "d0"},
    // 15. Fairy-Stockfish "x-ray protected": r h2 attacks N c2; r h0 behind
    //     c g0 makes the king's recapture on d0 (after cxd0 over K e0) illegal,
    //     so c g0's standing attack on d0 becomes a chase: protection removed.
    {"5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1", "", "d0c2 h0h2 c2d0 h2h0", Verdict::PerpetualChase, Black, "d0"},
    // 16. Fairy-Stockfish "creating pins to undermine root": n e3->g4 opens
    //     c e8 (screen p e6) on R e2, which pins it, so r d3's attack on N d2
    //     becomes a chase; n g4->e3 pins R e2 again, now by the horse's check
    //     on K f1 through the leg e2. N d2 is chased by every black move.
    {"4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1", "", "e3g4 e1f1 g4e3 f1e1", Verdict::PerpetualChase, Black, "d2"},

    // --- discovered chases, pawns -------------------------------------------
    // 17. N c3<->e2 and n c4<->b6 take turns on the c file; each red move
    //     leaves exactly one screen between C c1 and n c6 (unprotected).
    {"5k3/9/9/2n6/9/2n6/2N6/9/2C6/4K4 w - - 0 1", "", "c3e2 c4b6 e2c3 b6c4", Verdict::PerpetualChase, Red, "c6"},
    // 18. As 17 with a black pawn on c6, on its own side of the river: not a
    //     target, a draw.
    {"5k3/9/9/2p6/9/2n6/2N6/9/2C6/4K4 w - - 0 1", "", "c3e2 c4b6 e2c3 b6c4", Verdict::Draw, Red, ""},
    // 19. The red cannon c2<->d2 steps aside, uncovering R c0, then R d0, on
    //     the crossed pawn c4/d4: a discovered chase of a crossed pawn.
    {"5k3/9/9/9/9/2p6/9/2C6/9/2RRK4 w - - 0 1", "", "c2d2 c4d4 d2c2 d4c4", Verdict::PerpetualChase, Red, "c4"},
    // 20. A crossed P e6<->d6 attacks r d7/e7: pawns may chase, a draw.
    {"4k4/9/3r5/4P4/9/9/9/9/9/5K3 w - - 0 1", "", "e6d6 d7e7 d6e6 e7d7", Verdict::Draw, Red, ""},
    // 21. K e0<->d0 attacks c d1/e1: kings may chase, a draw.
    {"5k3/9/9/9/9/9/9/9/3c5/4K4 w - - 0 1", "", "e0d0 d1e1 d0e0 e1d1", Verdict::Draw, Red, ""},

    // --- pins and same-type attacks ------------------------------------------
    // 22. As 17 with C c1 pinned by r a1 against K e1: its capture would be
    //     illegal, so it attacks nothing; a draw.
    {"5k3/9/9/2n6/9/2n6/2N6/9/r1C1K4/9 w - - 0 1", "", "c3e2 c4b6 e2c3 b6c4", Verdict::Draw, Red, ""},
    // 23. R e2<->c2 attacks r c7/e7, which can take back: an exchange offer.
    {"5k3/9/2r6/9/9/9/9/4R4/9/3K5 w - - 0 1", "", "e2c2 c7e7 c2e2 e7c7", Verdict::Draw, Red, ""},
    // 24. As 23 with r pinned along rank 7 (R a7, k f7): it cannot take back,
    //     so the attack is a chase.
    {"9/9/R1r2k3/9/9/9/9/4R4/9/3K5 w - - 0 1", "", "e2c2 c7e7 c2e2 e7c7", Verdict::PerpetualChase, Red, "c7"},

    // --- advisors and elephants -----------------------------------------------
    // 25. Fairy-Stockfish: n f6->g8 unblocks the eye of b e7, which attacks
    //     R g5 (an elephant on a rook: a chase); n g8->f6 becomes the screen of
    //     c c6 on R g6. R g5->g6 attacks c c6, but R g6->g5 nothing: only black
    //     chases on every move.
    {"4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1", "", "g6g5 f6g8 g5g6 g8f6", Verdict::PerpetualChase, Black, "g6"},
    // 26. Fairy-Stockfish "pin + discovered check threat by horse": n d3
    //     attacks A f2, which A e1 protects. c e4->d4 (K d0) makes n d3 the
    //     screen of a check on the d file, so after nxf2 red is in check and
    //     Axf2 is illegal; c d4->e4 (K e0) pins A e1 over B e2. Each black move
    //     removes f2's protection anew: black chases perpetually.
    {"5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1", "", "e0d0 e4d4 d0e0 d4e4", Verdict::PerpetualChase, Black, "f2"},

    // --- both sides, alternating targets, long cycles --------------------------
    // 27. R and n circle round each other (4 moves each): every rook move
    //     attacks the unprotected horse anew, every horse move the rook.
    //     Both chase perpetually: a draw.
    {"3k5/9/9/9/9/9/2n6/9/1R7/4K4 w - - 0 1", "", "b1c1 c3a2 c1c2 a2b0 c2b2 b0d1 b2b1 d1c3", Verdict::Draw, Red, "",
     true},
    // 28. Fairy-Stockfish "mutual chase" (8 plies per cycle): R and n, the
    //     same dance round p e6.
    {"4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1", "f6h6", "h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6", Verdict::Draw, Red,
     "", true},
    // 29. Fairy-Stockfish "fake protection by cannon + mutual chase": R f8->f6
    //     stops being the screen through which c i8 guards a8 (and opens R d8's
    //     line to i8); R f6->f8 blocks c i8's recapture on a8 again (two pieces
    //     between): c a8 is chased by every red move. a f9->e8 becomes the
    //     screen of c i8 on R d8, a e8->f9 leaves R f8 as that screen: R d8 is
    //     chased by every black move. Both chase: a draw.
    {"4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1", "", "f8f6 f9e8 f6f8 e8f9", Verdict::Draw, Red, "", true},
    // 30. R c2<->a2 attacks c a8 and n c6 in turn: no one piece is chased by
    //     every move, a draw.
    {"5k3/c8/9/2n6/9/9/9/2R6/9/4K4 w - - 0 1", "", "c2a2 f9f8 a2c2 f8f9", Verdict::Draw, Red, ""},
    // 31. Four moves a side: C visits c1, b1, d1, a1 and each time attacks a
    //     rook on its new file over the pawn wall a5-d5, while r a7/b7 and r
    //     c7/d7 take turns: two rooks, chased alternately, so no one piece is
    //     chased by every move: a draw.
    {"4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1", "b1a1", "a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1", Verdict::Draw,
     Red, ""},
    // 32. N e5->c4 attacks r d6, but from c4 back to e5 the leg e6 is blocked
    //     by p e6, so the rook on d7 is not attacked: chase and idle, a draw.
    {"5k3/9/9/3rp4/4N4/9/9/9/9/4K4 w - - 0 1", "", "e5c4 d6d7 c4e5 d7d6", Verdict::Draw, Red, ""},
    // 33. Fairy-Stockfish D106: R h0<->h1 and c h4<->h3 keep facing each other
    //     on the h file; no attack changes, a draw.
    {"3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1", "", "h0h1 h4h3 h1h0 h3h4", Verdict::Draw, Red, ""},

    // --- checks ------------------------------------------------------------------
    // 34. R a8<->a9 checks on every move: perpetual check, red loses.
    {"4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "a8a9 e9e8 a9a8 e8e9", Verdict::PerpetualCheck, Red, ""},
    // 35. Red checks on every move; each king step uncovers a black cannon
    //     on the rook (c g9 over a f9, c g8 over n f8): black chases on every
    //     move. Check is judged first: red loses.
    {"4kac2/R4nc2/9/9/9/9/9/9/9/3K5 w - - 0 1", "", "a8a9 e9e8 a9a8 e8e9", Verdict::PerpetualCheck, Red, ""},
    // 36. Fairy-Stockfish "perpetual check by soldier": p f2<->e2 checks K
    //     f1/e1 on every move; each king step uncovers C f0 on the crossed,
    //     unprotected p f4 (over p f2 / ...), so red chases on every move, but
    //     one side checking while the other chases: the checker loses.
    {"3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1", "", "f1e1 f2e2 e1f1 e2f2", Verdict::PerpetualCheck, Black, ""},
    // 37. Fairy-Stockfish "perpetual check vs intermittent checks": each move
    //     of p e4<->d4 uncovers or screens c e8 into a check on K e2; red's
    //     P d6->e6 uncovers C d0's check, P e6->d6 gives none: black loses.
    {"9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1", "", "d6e6 e4d4 e6d6 d4e4", Verdict::PerpetualCheck, Black, ""},
    // 38. Mutual perpetual check: both check on every move, a draw.
    {"9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1", "", "e3d3 d6e6 d3e3 e6d6", Verdict::Draw, Red, ""},
    // 39. Fairy-Stockfish "discovered and anti-discovered chase": red chases
    //     the pawn f1 on every move and checks on one of two. A side that gave
    //     any check is not judged for chasing here (AXF would call it a loss):
    //     a draw.
    {"5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1", "", "f4d4 f5d5 d4f4 d5f5", Verdict::Draw, Red, ""},
    // 40. Fairy-Stockfish: r b1->b3 uncovers c a1's check (over A e1) and
    //     attacks the unprotected C d3; r b3->b1 attacks C d1, no check. Black
    //     chases on every move and checks on one of two: a draw here (the AXF
    //     rules would call it a loss).
    {"3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1", "", "d1d3 b1b3 d3d1 b3b1", Verdict::Draw, Red, ""},
    // 41. An idle shuffle: a draw.
    {"4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1", "", "a0a1 e9e8 a1a0 e8e9", Verdict::Draw, Red, ""},
};
// clang-format on

}  // namespace

TEST_CASE("repetition rulings at the third occurrence", "[rules]") {
    int index = 0;
    for (const Ruled& c : Rulings) {
        ++index;
        INFO("ruling " << index << ": " << c.fen << " moves " << c.prefix << " | " << c.cycle);
        Position p = fromFen(c.fen);
        play(p, c.prefix);
        const int plies = play(p, c.cycle);
        // Two occurrences: not yet a game verdict.
        CHECK(rules::judge(p, 0).verdict == Verdict::None);
        play(p, c.cycle);
        const rules::Ruling r = rules::judge(p, 0);
        CHECK(rules::describe(r, p) != "");
        CHECK(r.verdict == c.verdict);
        CHECK(r.plies == 2 * plies);
        if (r.decided()) CHECK(r.offender == c.offender);
        if (c.verdict == Verdict::PerpetualChase && *c.chased) CHECK(squareName(r.chased) == c.chased);
        if (c.verdict == Verdict::Draw) CHECK(r.mutualChase == c.mutual);
    }
}

TEST_CASE("one cycle inside the search is judged like the game's three occurrences", "[rules]") {
    int index = 0;
    for (const Ruled& c : Rulings) {
        ++index;
        INFO("ruling " << index << ": " << c.fen << " moves " << c.prefix << " | " << c.cycle);
        Position p = fromFen(c.fen);
        play(p, c.prefix);
        const int plies = play(p, c.cycle);
        const rules::Ruling inSearch = rules::judge(p, plies);  // the earlier occurrence is the root
        CHECK(inSearch.verdict == c.verdict);
        CHECK(inSearch.plies == plies);
        if (inSearch.decided()) CHECK(inSearch.offender == c.offender);
        CHECK(rules::judgeCycle(p, plies).verdict == c.verdict);
        // The cycle crosses the root (1 or 2 plies after it): only a verdict
        // against the root side counts before the third occurrence.
        for (int ply : {1, 2, 3}) {
            const Color rootSide = ply % 2 == 0 ? p.sideToMove() : ~p.sideToMove();
            const bool againstRoot = c.verdict != Verdict::Draw && c.offender == rootSide;
            INFO("ply " << ply);
            CHECK(rules::judge(p, ply).verdict == (againstRoot ? c.verdict : Verdict::None));
        }
    }
}

TEST_CASE("a cycle begun before the root: two-fold against the root side, three-fold otherwise", "[rules]") {
    // Ruling 1: red's horse chases the rook. Root after one pass, red to move.
    Position p = fromFen("5k3/9/9/3r5/4N4/9/9/9/9/4K4 w - - 0 1");
    play(p, "e5c4 d6d7 c4e5 d7d6");
    REQUIRE(p.sideToMove() == Color::Red);
    // Red is the root side at even plies: red's chase is judged at once...
    Position q = p;
    play(q, "e5c4 d6d7 c4e5 d7d6");
    CHECK(rules::judge(q, 4).verdict == Verdict::PerpetualChase);  // inside the search
    // ...and a red move that repeats a game position for the second time is
    // a loss for red when red is the root side (red moved from the root)...
    Position r = fromFen("5k3/9/9/3r5/4N4/9/9/9/9/4K4 w - - 0 1");
    play(r, "e5c4 d6d7 c4e5 d7d6 e5c4 d6d7");                      // root: red to move
    play(r, "c4e5");                                               // the second occurrence of the position after c4e5
    CHECK(rules::judge(r, 1).verdict == Verdict::PerpetualChase);  // ply 1: red is the root side
    // ...but not when black is (the same position two plies after a black
    // root): red could still leave the cycle.
    CHECK(rules::judge(r, 2).verdict == Verdict::None);
    // Three occurrences: final whoever offends.
    play(r, "d7d6");
    CHECK(rules::judge(r, 1).verdict == Verdict::PerpetualChase);
    CHECK(rules::judge(r, 0).verdict == Verdict::PerpetualChase);
    // A draw crossing the root waits for the third occurrence.
    Position d = fromFen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    play(d, "a0a1 e9e8 a1a0 e8e9");
    CHECK(rules::judge(d, 1).verdict == Verdict::None);
    CHECK(rules::judge(d, 2).verdict == Verdict::None);
    CHECK(rules::judge(d, 4).verdict == Verdict::Draw);
    CHECK(rules::judge(d, 3).verdict == Verdict::None);
}

TEST_CASE("the chase rule can be switched off; perpetual check stays", "[rules]") {
    const rules::Settings off{false};
    Position chase = fromFen("5k3/9/9/3r5/4N4/9/9/9/9/4K4 w - - 0 1");
    play(chase, "e5c4 d6d7 c4e5 d7d6 e5c4 d6d7 c4e5 d7d6");
    CHECK(rules::judge(chase, 0, off).verdict == Verdict::Draw);
    Position check = fromFen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1");
    play(check, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9");
    CHECK(rules::judge(check, 0, off).verdict == Verdict::PerpetualCheck);
}

TEST_CASE("repetitions are looked for only since the last capture or null move", "[rules]") {
    Position p;
    play(p, "h0g2 h9g7 g2h0 g7h9");
    CHECK(rules::judge(p, 4).verdict == Verdict::Draw);
    CHECK(rules::judge(p, 3).verdict == Verdict::None);  // the earlier occurrence precedes the root
    p.makeNullMove();
    p.makeNullMove();
    CHECK(rules::judge(p, 6).verdict == Verdict::None);  // a null move hides the history
}

TEST_CASE("chase sets", "[rules]") {
    SECTION("a cannon on a protected rook, a rook on a protected horse") {
        // C a2 over P a3 on r a7 (n b9 protects it): chased. From c2 nothing.
        CHECK(names(rules::chaseSet(fromFen("1n1k5/9/r8/9/9/9/P1P6/C8/9/4K4 b - - 0 1"), Color::Red)) == "a7");
        CHECK(rules::chaseSet(fromFen("1n1k5/9/r8/9/9/9/P1P6/2C6/9/4K4 w - - 0 1"), Color::Red).none());
        // R a8 on n d8 protected by r f8: not chased.
        CHECK(rules::chaseSet(fromFen("5k3/R2n1r3/9/9/9/9/9/9/9/4K4 b - - 0 1"), Color::Red).none());
    }
    SECTION("a pinned protector does not protect") {
        // r e7 guards n c7 along rank 7, but R e2 pins it to k e9.
        CHECK(rules::chaseSet(fromFen("4k4/9/2n1r4/9/9/9/9/2R1R4/9/3K5 w - - 0 1"), Color::Red) == squares({"c7"}));
        CHECK(rules::chaseSet(fromFen("4k4/9/2n1r4/9/9/9/9/2R6/9/3K5 w - - 0 1"), Color::Red).none());
    }
    SECTION("a king cannot protect into the flying general") {
        // Only k e9 guards a e8; taking back would face K e0.
        CHECK(rules::chaseSet(fromFen("4k4/R3a4/9/9/9/9/9/9/9/4K4 w - - 0 1"), Color::Red) == squares({"e8"}));
        CHECK(rules::chaseSet(fromFen("4k4/R3a4/9/9/9/9/9/9/9/3K5 w - - 0 1"), Color::Red).none());
    }
    SECTION("a cannon behind its own screen is no protection") {
        // r b3 attacks C b4, which C b1 'guards' only over the rook itself,
        // and C b1 (unprotected) below it.
        CHECK(rules::chaseSet(fromFen("5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1"), Color::Black) ==
              squares({"b4", "b1"}));
    }
    SECTION("a pinned attacker chases only its pinner") {
        // R f1 stands on the leg of n f2's jump to K e0: it may take the
        // horse (unprotected) but not c a1.
        CHECK(rules::chaseSet(fromFen("3k5/9/9/9/9/9/9/5n3/c4R3/4K4 w - - 0 1"), Color::Red) == squares({"f2"}));
    }
    SECTION("same type: an exchange offer unless the target cannot take back") {
        // N e4 on n f6: the horse can take back (leg f5 free)...
        CHECK(rules::chaseSet(fromFen("5k3/9/9/5n3/9/4N4/9/9/9/3K5 w - - 0 1"), Color::Red).none());
        // ...but not with P f5 on its leg: chased.
        CHECK(rules::chaseSet(fromFen("5k3/9/9/5n3/5P3/4N4/9/9/9/3K5 w - - 0 1"), Color::Red) == squares({"f6"}));
    }
    SECTION("advisors and elephants") {
        // A e1 on c d2 (r d9 protects it): chased; on the crossed p f2,
        // protected by p g2: not chased; without p g2: chased.
        CHECK(rules::chaseSet(fromFen("3r1k3/9/9/9/9/9/9/3c1pp2/4A4/4K4 w - - 0 1"), Color::Red) == squares({"d2"}));
        CHECK(rules::chaseSet(fromFen("3r1k3/9/9/9/9/9/9/3c1p3/4A4/4K4 w - - 0 1"), Color::Red) ==
              squares({"d2", "f2"}));
        // B e2 on the protected r g4 (r g9 behind it): chased.
        CHECK(rules::chaseSet(fromFen("4k1r2/9/9/9/9/6r2/9/4B4/9/3K5 w - - 0 1"), Color::Red) == squares({"g4"}));
    }
    SECTION("kings and pawns attack but do not chase; kings and uncrossed pawns are not chased") {
        // P e6 attacks r e7 and K e0 attacks c e1: neither chases. R a6
        // attacks the pawn c6, which has not crossed the river: no target.
        CHECK(rules::chaseSet(fromFen("3k5/9/4r4/4P4/9/9/9/9/4c4/4K4 w - - 0 1"), Color::Red).none());
        CHECK(rules::chaseSet(fromFen("3k5/9/9/R1p6/9/9/9/9/9/4K4 w - - 0 1"), Color::Red).none());
        // Across the river the same pawn is a target.
        CHECK(rules::chaseSet(fromFen("3k5/9/9/9/9/R1p6/9/9/9/4K4 w - - 0 1"), Color::Red) == squares({"c4"}));
    }
    SECTION("a check standing on the chaser's king is ignored") {
        // Red is in check from r e5; N c2's attack on r d4 does not answer
        // it, but it still counts (a horse on a rook).
        CHECK(rules::chaseSet(fromFen("3k5/9/9/9/4r4/3r5/9/2N6/9/4K4 w - - 0 1"), Color::Red) == squares({"d4"}));
    }
}

TEST_CASE("the verdict names the offender and the chased piece", "[rules]") {
    Position p = fromFen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1");
    play(p, "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2");
    CHECK(rules::describe(rules::judge(p, 0), p) == "perpetual-chase red (black rook on a7)");
    Position q = fromFen("3k5/9/9/9/9/9/2n6/9/1R7/4K4 w - - 0 1");
    play(q, "b1c1 c3a2 c1c2 a2b0 c2b2 b0d1 b2b1 d1c3 b1c1 c3a2 c1c2 a2b0 c2b2 b0d1 b2b1 d1c3");
    CHECK(rules::describe(rules::judge(q, 0), q) == "draw (both chased)");
    Position r = fromFen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1");
    play(r, "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9");
    CHECK(rules::describe(rules::judge(r, 0), r) == "perpetual-check red");
    CHECK(rules::describe(rules::judge(fromFen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1"), 0), r) == "none");
}

// ---------------------------------------------------------------------------
// The search

namespace {

SearchResult searchFrom(Engine& engine, const char* fen, const char* moves, int depth,
                        std::vector<std::string> only = {}) {
    REQUIRE_FALSE(engine.setPosition(fen, split(moves)));
    SearchLimits limits;
    limits.depth = depth;
    for (const auto& m : only) limits.searchMoves.push_back(Move::parse(m));
    return engine.search(limits, nullptr);
}

constexpr const char* CannonChase = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
constexpr const char* RookChecks = "3k1a3/r7r/1c5c1/p1p3p1p/4R4/9/P1P3P1P/9/4A4/2BAK1B2 w - - 0 1";
constexpr const char* HorseChase = "5k3/9/9/3r5/4N4/9/9/9/9/4K4 w - - 0 1";

}  // namespace

TEST_CASE("issue 13: the cannon does not complete its third chase of the rook", "[rules][search]") {
    Engine engine;
    const char* moves = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7";
    SearchResult r = searchFrom(engine, CannonChase, moves, 8);
    REQUIRE(r.best);
    CHECK(r.best.toString() != "b2a2");
    CHECK(!isBanScore(r.score));
    // b2a2 itself is a loss by the rules, and a draw with the chase rule off.
    CHECK(searchFrom(engine, CannonChase, moves, 4, {"b2a2"}).score <= -ValueBanInMaxPly);
    engine.searchOptions().judgeChase = false;
    CHECK(searchFrom(engine, CannonChase, moves, 4, {"b2a2"}).score == ValueDraw);
}

TEST_CASE("issue 13: no rule win for a perpetual check the opponent can still leave", "[rules][search]") {
    // Red's rook has checked twice; the position after e9d9 would be only its
    // second occurrence, and red may stop checking.
    Engine engine;
    for (int depth : {1, 2, 5, 8}) {
        INFO("depth " << depth);
        std::vector<SearchInfo> infos;
        REQUIRE_FALSE(engine.setPosition(RookChecks, split("e5d5 d9e9 d5e5")));
        SearchLimits limits;
        limits.depth = depth;
        SearchResult r = engine.search(limits, [&](const SearchInfo& i) { infos.push_back(i); });
        REQUIRE(r.best);
        CHECK(!isBanScore(r.score));
        for (const SearchInfo& i : infos) CHECK(std::abs(toUcciScore(i.score)) < 9800);
    }
}

TEST_CASE("the chaser steers out at the first repetition; the victim repeats to win", "[rules][search]") {
    Engine engine;
    // Red's horse has chased the rook through one cycle; e5c4 would repeat
    // the position after red's first move (its second occurrence): a red
    // offence is judged at once. Other horse moves lose nothing more.
    SearchResult r = searchFrom(engine, HorseChase, "e5c4 d6d7 c4e5 d7d6", 6);
    REQUIRE(r.best);
    CHECK(r.best.toString() != "e5c4");
    CHECK(!isBanScore(r.score));
    // Third occurrence ahead: black (the victim) completes the cycle, and
    // red, the chaser, loses by the rules (checked by the rules module, not
    // by the search).
    Position p = fromFen(HorseChase);
    play(p, "e5c4 d6d7 c4e5 d7d6 e5c4 d6d7 c4e5 d7d6");
    const rules::Ruling verdict = rules::judge(p, 0);
    REQUIRE(verdict.verdict == Verdict::PerpetualChase);
    REQUIRE(verdict.offender == Color::Red);
    r = searchFrom(engine, HorseChase, "e5c4 d6d7 c4e5 d7d6 e5c4 d6d7 c4e5", 6);
    CHECK(r.best.toString() == "d7d6");
    CHECK(r.score >= ValueBanInMaxPly);
    CHECK(isBanScore(r.score));
    // The game ends with d7d6: the line and the expected reply stop there.
    CHECK(r.pv.size() == 1);
    CHECK_FALSE(r.ponder);
}

// ---------------------------------------------------------------------------
// The protocol and the command line

TEST_CASE("the chase rule is an option of both dialects", "[rules][protocol][process]") {
    using chariot::test::EngineProcess;
    {
        EngineProcess e;
        e.send("ucci");
        std::vector<std::string> lines;
        REQUIRE(e.waitFor("ucciok", 2000ms, &lines));
        bool listed = false;
        for (const auto& l : lines) listed |= l == "option chaserule type check default true";
        CHECK(listed);
        e.send("setoption usebook false");
        e.send(std::string("position fen ") + CannonChase + " moves c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7");
        e.send("go depth 6");
        auto best = e.waitFor("bestmove", 20000ms);
        REQUIRE(best);
        CHECK(best->find("b2a2") == std::string::npos);
        e.send("setoption chaserule maybe");
        auto error = e.waitFor("info string option chaserule", 2000ms);
        CHECK(error);
    }
    {
        EngineProcess e;
        e.send("uci");
        std::vector<std::string> lines;
        REQUIRE(e.waitFor("uciok", 2000ms, &lines));
        bool listed = false;
        for (const auto& l : lines) listed |= l == "option name ChaseRule type check default true";
        CHECK(listed);
        // b2a2 alone: a loss by the rules with the option on, a draw with it off.
        e.send("setoption name OwnBook value false");
        for (const char* value : {"true", "false"}) {
            e.send(std::string("setoption name ChaseRule value ") + value);
            e.send(std::string("position fen ") + CannonChase + " moves c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7");
            e.send("go depth 3 searchmoves b2a2");
            lines.clear();
            REQUIRE(e.waitFor("bestmove b2a2", 10000ms, &lines));
            bool lost = false, drawn = false;
            for (const auto& l : lines) {
                lost |= l.find(" score cp -1999") != std::string::npos;
                drawn |= l.find(" score cp 0 ") != std::string::npos;
            }
            INFO("ChaseRule " << value);
            CHECK(lost == (std::string(value) == "true"));
            CHECK(drawn == (std::string(value) == "false"));
        }
    }
}

TEST_CASE("chariot rules prints the verdict", "[rules][cli][process]") {
    using chariot::test::EngineProcess;
    std::vector<std::string> args = {"rules"};
    for (const auto& w : split(CannonChase)) args.push_back(w);
    args.push_back("moves");
    for (const auto& m : split("c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2")) args.push_back(m);
    EngineProcess e(args);
    auto line = e.readLine(2000ms);
    REQUIRE(line);
    CHECK(*line == "verdict: perpetual-chase red (black rook on a7)");
    CHECK(e.waitExit(2000ms) == 0);
    EngineProcess none({"rules", "startpos", "moves", "h0g2", "h9g7", "g2h0", "g7h9"});
    line = none.readLine(2000ms);
    REQUIRE(line);
    CHECK(*line == "verdict: none");
}

TEST_CASE("a certain rule loss is worse than a mate the opponent still has to find", "[rules][search]") {
    // ElephantEye match 2026-11-24, game 17 (Chariot red), before red's 59th
    // move: d8d9 would complete red's perpetual check (a forfeit); every other
    // move is mated within a few moves. Red must play on and let black find it.
    const char* moves =
        "h2e2 h9g7 h0g2 b7e7 i0h0 b9c7 h0h6 a9b9 b2c2 i9i7 g3g4 b9b1 c2c6 c7e8 g2f4 e7e3 "
        "f0e1 e3e5 f4g6 e5a5 e2a2 h7h9 a2a5 a6a5 h6h5 i7i8 c3c4 g9e7 h5a5 e8c7 a5d5 h9h8 "
        "a0a2 h8h0 g0i2 b1b0 d5d7 c7a6 g6e7 a6b8 c6c8 d9e8 c8i8 b8d7 i8i9 h0h9 e7g8 e9d9 "
        "a2h2 h9g9 i9i7 g7f5 h2h9 c9e7 g8e7 f5e7 h9g9 d7e5 i7i9 d9d8 i9i8 e8f7 g9g8 d8d9 "
        "i8i7 e5f3 i7e7 b0b7 g8g9 d9e9 g9g6 b7e7 g6i6 f3g1 e0f0 f7e8 e1f2 e7h7 i6e6 g1i2 "
        "c0a2 h7h0 f0f1 h0d0 f1e1 d0a0 e6b6 a0a1 e1e0 i2g1 e0d0 g1e2 d0e0 e2c1 e0d0 c1d3 "
        "a2c0 a1a0 f2e1 a0c0 d0d1 c0c1 d1d2 c1e1 g4g5 d3f2 b6b9 e8d9 b9d9 e9e8 d9d8 e8e9 "
        "d8d9 e9e8 d9d8 e8e9 ";
    Engine engine;
    const char* start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    SearchResult r = searchFrom(engine, start, moves, 10);
    REQUIRE(r.best);
    CHECK(r.best.toString() != "d8d9");
    CHECK(isMateScore(r.score));
    CHECK(r.score < 0);
    const SearchResult forfeit = searchFrom(engine, start, moves, 10, {"d8d9"});
    CHECK(isBanScore(forfeit.score));
    CHECK(forfeit.score < r.score);
    CHECK(forfeit.score < matedIn(1));  // worse than any mate
}
