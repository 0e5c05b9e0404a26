#!/usr/bin/env python3
"""Tests of tools/engine_client.py and of the two tools built on it
(tools/tuning/label_positions.py, tools/matches/review_games.py), against the
real engine: CHARIOT_BIN, or the first argument (CTest's tools.engine_client).

    python3 tools/test_engine_client.py build/chariot
"""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from engine_client import MATE_SCORE, EngineClient, EngineError  # noqa: E402



def engine_path():
    """CHARIOT_BIN, else the first argument that is not an option (taken out of unittest's way)."""
    argument = next((i for i, arg in enumerate(sys.argv[1:], 1) if not arg.startswith("-")), None)
    given = sys.argv.pop(argument) if argument else "build/chariot"
    return os.environ.get("CHARIOT_BIN") or given


ENGINE = engine_path()
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# Black has no rooks: red, to move, is far ahead.
ROOKS_UP = "1nbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
MATE_IN_ONE = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"  # e1d1 mates
NO_MOVE = "3k5/4R4/4R4/9/9/9/9/9/9/5K3 b - - 0 1"  # black, to move, has no legal move
# A book move comes with no score: the book is off wherever a score is wanted.
BOOK_OFF = {"ucci": [("usebook", "false")], "uci": [("OwnBook", "false")]}


class EngineClientTest(unittest.TestCase):
    def test_both_protocols(self):
        for proto in ("ucci", "uci"):
            with EngineClient(ENGINE, proto, BOOK_OFF[proto]) as engine:
                start, rooks_up = (engine.score(fen, depth=5) for fen in (START, ROOKS_UP))
            self.assertLess(abs(start), 100, proto)
            self.assertGreater(rooks_up, 300, proto)

    def test_moves_and_side_to_move(self):
        with EngineClient(ENGINE, "ucci", BOOK_OFF["ucci"]) as engine:
            # After red's first move black is to move, two rooks down.
            self.assertLess(engine.score(ROOKS_UP, ["h2e2"], depth=4), -300)
        # The same position by moves and by FEN, each in a fresh engine (an empty hash).
        with EngineClient(ENGINE, "ucci", BOOK_OFF["ucci"]) as engine:
            by_moves = engine.score(START, ["h2e2", "h9g7"], depth=6)
        with EngineClient(ENGINE, "ucci", BOOK_OFF["ucci"]) as engine:
            by_fen = engine.score("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2", depth=6)
        self.assertEqual(by_moves, by_fen)

    def test_mates_on_one_scale(self):
        for proto in ("ucci", "uci"):
            with EngineClient(ENGINE, proto, BOOK_OFF[proto]) as engine:
                self.assertEqual(engine.score(MATE_IN_ONE, depth=4), MATE_SCORE, proto)
                self.assertIsNone(engine.score(NO_MOVE, depth=4), proto)

    def test_engine_that_cannot_start(self):
        with self.assertRaisesRegex(EngineError, "cannot start engine '/nonexistent/engine'"):
            EngineClient("/nonexistent/engine")

    def test_engine_that_exits(self):
        with self.assertRaisesRegex(EngineError, "exited"):
            EngineClient("true")

    def test_bad_protocol(self):
        with self.assertRaises(ValueError):
            EngineClient(ENGINE, "xboard")


class ToolsTest(unittest.TestCase):
    def run_tool(self, *args):
        done = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout

    def test_label_positions_score_and_blend(self):
        with tempfile.TemporaryDirectory() as tmp:
            dump = os.path.join(tmp, "dump.tsv")
            with open(dump, "w") as f:
                f.write(f"0\t1\t{ROOKS_UP}\n")
                f.write(f"0\t1\t{ROOKS_UP.replace(' w ', ' b ')}\n")
                f.write(f"1\t0.5\t{START}\n")
            scored, labels = os.path.join(tmp, "scored.tsv"), os.path.join(tmp, "labels.tsv")
            tool = os.path.join(HERE, "tuning", "label_positions.py")
            self.run_tool(tool, "score", "--engine", ENGINE, "--option", "usebook=false", "--depth", "3", "--jobs", "2",
                          dump, scored)
            with open(scored) as f:
                rows = [line.rstrip("\n").split("\t") for line in f]
            self.assertEqual([r[3] for r in rows], [ROOKS_UP, ROOKS_UP.replace(" w ", " b "), START])
            # Red's view whoever is to move: red is two rooks up in both.
            self.assertGreater(int(rows[0][2]), 300)
            self.assertGreater(int(rows[1][2]), 300)
            self.run_tool(tool, "blend", "--weight", "0.5", "--k", "1", scored, labels)
            with open(labels) as f:
                labels = [line.rstrip("\n").split("\t") for line in f]
            self.assertEqual(len(labels), 3)
            self.assertGreater(float(labels[0][1]), 0.9)  # half the result 1, half a sure engine score

    def test_review_games(self):
        pgn = os.path.join(HERE, "..", "tests", "data", "tune_games.pgn")
        out = self.run_tool(os.path.join(HERE, "matches", "review_games.py"), "--judge", ENGINE, "--proto", "ucci",
                            "--option", "usebook=false", "--depth", "2", "--player", "nmp", "--all", "--jobs", "2", pgn)
        self.assertIn("games reviewed: 4;", out)
        self.assertRegex(out, r"ply +20: +[+-]\d+\.\d over 4 games")


if __name__ == "__main__":
    unittest.main()
