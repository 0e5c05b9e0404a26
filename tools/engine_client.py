"""A UCCI or UCI engine driven over a pipe, for the tools that have an engine
score positions (tools/tuning/label_positions.py, tools/matches/review_games.py).

    with EngineClient("build/chariot", "ucci", [("Hash", "64")]) as engine:
        cp = engine.score(fen, ["h2e2", "h9g7"], depth=10)

score() returns the side to move's score of the deepest iteration that ended
with an exact score (bounds from a failed aspiration window are skipped), in
centipawns (on the protocol's scale: Chariot's UCI scores are normalised to
the pawn, its UCCI scores are its own units), a mate (and in UCCI any score beyond it) as +-MATE_SCORE; None when the engine sent no score.
"""
import subprocess

MATE_SCORE = 3000


class EngineError(RuntimeError):
    """The engine could not be started, or stopped answering."""


class EngineClient:
    def __init__(self, command, proto="ucci", options=()):
        if proto not in ("ucci", "uci"):
            raise ValueError(f"protocol '{proto}': ucci or uci")
        self.proto = proto
        try:
            self.process = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            text=True, bufsize=1)
        except OSError as error:
            raise EngineError(f"cannot start engine '{command}': {error.strerror}") from None
        try:
            self.send(proto)
            self.wait_for("uciok" if proto == "uci" else "ucciok")
            for name, value in options:
                self.send(f"setoption name {name} value {value}" if proto == "uci" else f"setoption {name} {value}")
            self.send("isready")
            self.wait_for("readyok")
        except EngineError:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
        except (BrokenPipeError, OSError):
            raise EngineError("the engine exited") from None

    def read_line(self):
        line = self.process.stdout.readline()
        if not line:
            raise EngineError("the engine exited")
        return line

    def wait_for(self, token):
        """Read lines up to the first that starts with TOKEN, and return it."""
        while True:
            line = self.read_line()
            if line.split()[:1] == [token]:
                return line

    def score(self, fen, moves=(), depth=8):
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go depth {depth}")
        best = None
        while True:
            words = self.read_line().split()
            if words[:1] in (["bestmove"], ["nobestmove"]):
                return best
            if words[:1] != ["info"] or "score" not in words or "lowerbound" in words or "upperbound" in words:
                continue
            i = words.index("score")
            if words[i + 1] == "cp":  # UCI
                best = int(words[i + 2])
            elif words[i + 1] == "mate":  # UCI: moves to mate, negative when mated
                best = MATE_SCORE if int(words[i + 2]) > 0 else -MATE_SCORE
            else:  # UCCI: "score N", a mate as 10000 less the plies to it
                best = max(-MATE_SCORE, min(MATE_SCORE, int(words[i + 1])))

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                pipe.close()
            except OSError:
                pass
