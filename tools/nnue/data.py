#!/usr/bin/python3
"""Chariot training data: reader, FEN parser, replay, features, cached datasets.

The data format (version 1) is written by `chariot datagen`; see
include/chariot/datagen.h. A file is a 32-byte header followed by one
checksummed record per game; a reader stops at the first record that is short
or fails its check (the generator may still be appending to the file).

Features (the network spec, shared with the C++ inference): for perspective p
(0 red, 1 black) a piece of colour c and type t (K A B N R C P = 0..6) on
(file, rank) is feature (rel * 7 + t) * 90 + sq, rel = 0 if c == p else 1,
sq = rank * 9 + file for red and (9 - rank) * 9 + file for black. 1260 features
a perspective; PAD (1260) fills the 32 slots a position does not use.

Run as a script to convert files into the cache and print what they hold:
    /usr/bin/python3 tools/nnue/data.py FILE.data... [--cache DIR] [--check]
"""

import argparse
import dataclasses
import hashlib
import json
import os
import shutil
import struct
import sys
import time
import zlib

import numpy as np

FILE_MAGIC = b"CHRTDATA"
FORMAT_VERSION = 1
HEADER_BYTES = 32
RECORD_MAGIC = 0x454D4147
MAX_RECORD_BYTES = 1 << 24
PLY_DTYPE = np.dtype([("move", "<u2"), ("score", "<i2"), ("flags", "u1")])
assert PLY_DTYPE.itemsize == 5

FLAG_QUIET, FLAG_IN_CHECK, FLAG_CAPTURE_BEST, FLAG_OPENING = 1, 2, 4, 8
# Searched only at the file's play nodes (datagen --play-nodes) to choose the
# move: never quiet, so never a training position.
FLAG_UNLABELLED = 16
RESULT_BLACK_WIN, RESULT_DRAW, RESULT_RED_WIN = 0, 1, 2

RED, BLACK = 0, 1
PIECE_LETTERS = "KABNRCP"  # piece type t is the index
LETTER_ALIASES = {"E": "B", "H": "N"}
KING = 0
FEATURES = 1260  # 2 * 7 * 90 a perspective
PAD = FEATURES  # the padding index (an all-zero embedding row)
MAX_PIECES = 32
BUCKETS = 8
START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# Board: 90 bytes, square rank * 9 + file (rank 0 is red's back rank). A
# square holds 0 (empty), 1 + t (red piece of type t) or 8 + t (black).
EMPTY = 0


def piece_code(color, ptype):
    return 1 + 7 * color + ptype


def color_of(code):
    return 0 if code <= 7 else 1


def type_of(code):
    return (code - 1) % 7


class DataError(Exception):
    """A file that is not Chariot data, or a game that does not replay."""


# ---------------------------------------------------------------------------
# FEN


def parse_fen(fen):
    """(board bytearray(90), side to move) from a xiangqi FEN."""
    fields = fen.split()
    if len(fields) < 2:
        raise DataError(f"FEN {fen!r}: needs a board and a side to move")
    ranks = fields[0].split("/")
    if len(ranks) != 10:
        raise DataError(f"FEN {fen!r}: {len(ranks)} ranks, expected 10")
    board = bytearray(90)
    for i, text in enumerate(ranks):
        rank = 9 - i
        file = 0
        for ch in text:
            if ch.isdigit():
                file += int(ch)
                continue
            if file >= 9:
                raise DataError(f"FEN {fen!r}: rank {rank} has more than 9 files")
            upper = ch.upper()
            upper = LETTER_ALIASES.get(upper, upper)
            if upper not in PIECE_LETTERS:
                raise DataError(f"FEN {fen!r}: unknown piece letter {ch!r}")
            board[rank * 9 + file] = piece_code(RED if ch.isupper() else BLACK, PIECE_LETTERS.index(upper))
            file += 1
        if file != 9:
            raise DataError(f"FEN {fen!r}: rank {rank} has {file} files, expected 9")
    side = fields[1].lower()
    if side not in ("w", "r", "b"):
        raise DataError(f"FEN {fen!r}: side to move {fields[1]!r} is not w, r or b")
    for color in (RED, BLACK):
        kings = board.count(piece_code(color, KING))
        if kings != 1:
            raise DataError(f"FEN {fen!r}: {('red', 'black')[color]} has {kings} kings")
    if sum(1 for v in board if v) > MAX_PIECES:
        raise DataError(f"FEN {fen!r}: more than {MAX_PIECES} pieces")
    return board, (BLACK if side == "b" else RED)


def board_to_fen(board, stm):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            v = board[rank * 9 + file]
            if v == EMPTY:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = PIECE_LETTERS[type_of(v)]
            row += letter if color_of(v) == RED else letter.lower()
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows) + (" w" if stm == RED else " b") + " - - 0 1"


def flip_colors(board, stm):
    """The colour-flipped position: ranks reversed, colours swapped, the other side to move."""
    out = bytearray(90)
    for sq, v in enumerate(board):
        if v:
            rank, file = divmod(sq, 9)
            out[(9 - rank) * 9 + file] = piece_code(1 - color_of(v), type_of(v))
    return out, 1 - stm


def mirror_files(board):
    """The left-right mirror (file -> 8 - file)."""
    out = bytearray(90)
    for sq, v in enumerate(board):
        rank, file = divmod(sq, 9)
        out[rank * 9 + 8 - file] = v
    return out


# ---------------------------------------------------------------------------
# Features


def _feature_tables():
    """table[p][code][sq]: the feature of a piece `code` on `sq` for perspective p (PAD if empty)."""
    table = np.full((2, 15, 90), PAD, dtype=np.int16)
    for p in (RED, BLACK):
        for color in (RED, BLACK):
            for t in range(7):
                rel = 0 if color == p else 1
                for sq in range(90):
                    rank, file = divmod(sq, 9)
                    psq = sq if p == RED else (9 - rank) * 9 + file
                    table[p, piece_code(color, t), sq] = (rel * 7 + t) * 90 + psq
    return table


FEATURE_TABLE = _feature_tables()
_SQUARES = np.arange(90)


def _mirror_table():
    table = np.arange(FEATURES + 1, dtype=np.int16)
    for f in range(FEATURES):
        block, sq = divmod(f, 90)
        rank, file = divmod(sq, 9)
        table[f] = block * 90 + rank * 9 + (8 - file)
    return table


# The same feature after the left-right mirror, for either perspective (PAD -> PAD).
MIRROR_TABLE = _mirror_table()


def features_of_boards(boards):
    """Features of an [N, 90] uint8 array of boards.

    Returns (red [N, 32] int16, black [N, 32] int16, bucket [N] uint8); each row
    lists the features of the pieces in ascending order, then PAD.
    """
    boards = np.asarray(boards, dtype=np.uint8).reshape(-1, 90)
    counts = np.count_nonzero(boards, axis=1)
    if counts.size and counts.max() > MAX_PIECES:
        raise DataError(f"a position with {counts.max()} pieces")
    out = []
    for p in (RED, BLACK):
        full = FEATURE_TABLE[p][boards, _SQUARES]  # [N, 90], PAD where empty
        full.sort(axis=1, kind="stable")  # a radix sort for 16-bit integers: PAD (1260) goes last
        out.append(np.ascontiguousarray(full[:, :MAX_PIECES]))
    bucket = np.minimum(BUCKETS - 1, np.maximum(counts - 2, 0) // 4).astype(np.uint8)
    return out[0], out[1], bucket


KING_BUCKETS = 6
KB_FEATURES = KING_BUCKETS * FEATURES  # a king-bucketed net's features (net format version 2)


def king_view_rows(rows):
    """A perspective's feature rows [N, 32] (sorted, so its own king's feature, its square seen
    from its side, comes first) as a king-bucketed net sees them: (bucketed [N, 32] int64 in
    0..KB_FEATURES-1 with KB_FEATURES as padding, plain [N, 32] the mirrored rows with PAD).
    The king's bucket is its rank in the palace * 2 + (on the centre file); a king right of the
    centre file mirrors the perspective's board left-right. The engine's nnue::kingBucketView."""
    rows = np.asarray(rows)
    king = rows[:, 0].astype(np.int64)
    if king.size and king.max() >= 90:
        raise DataError("a feature row without its own king first")
    rank, file = king // 9, king % 9
    plain = np.where((file > 4)[:, None], MIRROR_TABLE[rows], rows).astype(np.int64)
    base = (rank * 2 + (file == 4)) * FEATURES
    bucketed = np.where(plain != PAD, plain + base[:, None], KB_FEATURES)
    return bucketed, plain


def features_of_board(board):
    """Feature lists (without padding) of one board for each perspective, and its bucket."""
    red, black, bucket = features_of_boards(np.frombuffer(bytes(board), dtype=np.uint8))
    return [int(f) for f in red[0] if f != PAD], [int(f) for f in black[0] if f != PAD], int(bucket[0])


# ---------------------------------------------------------------------------
# Reading and writing data files


@dataclasses.dataclass
class Game:
    seed: int
    index: int
    result: int  # 0 black won, 1 draw, 2 red won
    termination: int
    start_fen: str
    plies: np.ndarray  # PLY_DTYPE: move, score, flags


def decode_payload(payload):
    """A Game from one record's payload; raises DataError if it is malformed."""
    if len(payload) < 21:
        raise DataError("payload shorter than 21 bytes")
    seed, index, result, termination, n, fen_length = struct.unpack_from("<QQBBHB", payload, 0)
    if result > 2:
        raise DataError(f"result byte {result}")
    if len(payload) != 21 + fen_length + 5 * n:
        raise DataError(f"payload of {len(payload)} bytes for {n} plies and a FEN of {fen_length}")
    try:
        fen = payload[21 : 21 + fen_length].decode("ascii")
    except UnicodeDecodeError:
        raise DataError("start FEN is not ASCII") from None
    plies = np.frombuffer(payload, dtype=PLY_DTYPE, count=n, offset=21 + fen_length)
    moves = plies["move"].astype(np.int32)
    if np.any(moves // 90 >= 90) or np.any(moves % 90 == moves // 90):
        raise DataError("a move outside the board or onto its own square")
    return Game(seed, index, result, termination, fen, plies)


class Reader:
    """Iterates over the games of one data file.

    Stops at the end of the file or at the first damaged record; afterwards
    `damage` says why (None for a clean end), `good_bytes` where the valid data
    ends, and `sha256` is the hash of those good bytes.
    """

    def __init__(self, path):
        self.path = path
        self.damage = None
        self.good_bytes = 0
        self.games = 0
        self._hash = hashlib.sha256()
        self._file = open(path, "rb")
        header = self._file.read(HEADER_BYTES)
        if len(header) < HEADER_BYTES:
            self._file.close()
            raise DataError(f"{path}: too short for a Chariot data file")
        if header[:8] != FILE_MAGIC:
            self._file.close()
            raise DataError(f"{path}: not a Chariot data file (no CHRTDATA header)")
        version, header_bytes, self.seed, self.nodes, self.play_nodes = struct.unpack_from("<IIQII", header, 8)
        if version != FORMAT_VERSION or header_bytes != HEADER_BYTES:
            self._file.close()
            raise DataError(f"{path}: data format version {version} (header {header_bytes} bytes); "
                            f"this reader knows version {FORMAT_VERSION}")
        self._hash.update(header)
        self.good_bytes = HEADER_BYTES

    @property
    def sha256(self):
        return self._hash.hexdigest()

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        f = self._file
        while True:
            head = f.read(8)
            if not head:
                return
            where = self.good_bytes
            if len(head) < 8:
                self.damage = f"truncated record header at byte {where}"
                return
            magic, size = struct.unpack("<II", head)
            if magic != RECORD_MAGIC:
                self.damage = f"no record marker at byte {where}"
                return
            if size > MAX_RECORD_BYTES:
                self.damage = f"implausible record length {size} at byte {where}"
                return
            body = f.read(size + 4)
            if len(body) < size + 4:
                self.damage = f"truncated record at byte {where} (the file may still be being written)"
                return
            payload = body[:size]
            (crc,) = struct.unpack_from("<I", body, size)
            if zlib.crc32(payload) != crc:
                self.damage = f"checksum mismatch in the record at byte {where}"
                return
            try:
                game = decode_payload(payload)
            except DataError as e:
                self.damage = f"malformed record at byte {where}: {e}"
                return
            self._hash.update(head)
            self._hash.update(body)
            self.good_bytes += 8 + size + 4
            self.games += 1
            yield game


def read_games(path, report=None):
    """Generator over the games of `path`; reports damage through `report` (default: stderr)."""
    with Reader(path) as reader:
        yield from reader
        if reader.damage:
            (report or _stderr)(f"{path}: {reader.damage}; read {reader.games} games before it")


def _stderr(message):
    print(message, file=sys.stderr, flush=True)


def encode_header(seed, nodes):
    return FILE_MAGIC + struct.pack("<IIQII", FORMAT_VERSION, HEADER_BYTES, seed, nodes, 0)


def encode_record(seed, index, result, termination, start_fen, plies):
    """One record; `plies` is a list of (move, score, flags) or a PLY_DTYPE array."""
    fen = start_fen.encode("ascii")
    plies = list(plies)
    payload = bytearray(struct.pack("<QQBBHB", seed, index, result, termination, len(plies), len(fen)))
    payload += fen
    for move, score, flags in plies:
        payload += struct.pack("<HhB", int(move), int(score), int(flags))
    return struct.pack("<II", RECORD_MAGIC, len(payload)) + bytes(payload) + struct.pack("<I", zlib.crc32(payload))


def encode_move(frm, to):
    return frm + 90 * to


# ---------------------------------------------------------------------------
# Replay


def replay(game):
    """Yields (ply index, board bytes, side to move, score, flags) for each ply's position.

    The board is the position before ply i's move. Raises DataError if a move
    does not fit the position (no piece of the side to move on its square, a
    capture of its own piece or of a king).
    """
    board, stm = parse_fen(game.start_fen)
    moves = game.plies["move"].tolist()
    scores = game.plies["score"].tolist()
    flags = game.plies["flags"].tolist()
    for i, move in enumerate(moves):
        yield i, bytes(board), stm, scores[i], flags[i]
        frm, to = move % 90, move // 90
        piece, target = board[frm], board[to]
        if piece == EMPTY or color_of(piece) != stm:
            raise DataError(f"game {game.seed}/{game.index}: ply {i} moves from square {frm}, "
                            f"which holds no piece of the side to move")
        if target != EMPTY and (color_of(target) == stm or type_of(target) == KING):
            raise DataError(f"game {game.seed}/{game.index}: ply {i} captures "
                            f"{'its own piece' if color_of(target) == stm else 'a king'} on square {to}")
        board[to] = piece
        board[frm] = EMPTY
        stm ^= 1


def _mix64(x):
    """splitmix64's finaliser on a uint64 numpy array (wrapping arithmetic)."""
    x = np.asarray(x, dtype=np.uint64).copy()
    with np.errstate(over="ignore"):
        x ^= x >> np.uint64(30)
        x *= np.uint64(0xBF58476D1CE4E5B9)
        x ^= x >> np.uint64(27)
        x *= np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(31)
    return x


def game_keys(seeds, indices):
    """A 64-bit identity of each game (its shard seed and index), stable across files and merges."""
    with np.errstate(over="ignore"):
        return _mix64(_mix64(np.asarray(seeds, dtype=np.uint64)) ^ np.asarray(indices, dtype=np.uint64))


# ---------------------------------------------------------------------------
# Conversion into a dataset

CONVERTER_VERSION = 1
ARRAYS = ("red", "black", "bucket", "stm", "score", "result", "game")


@dataclasses.dataclass
class Dataset:
    """Quiet training positions.

    red, black: [N, 32] int16 feature indices of each perspective, PAD-filled
    bucket: output bucket; stm: side to move (0 red, 1 black)
    score: search score, side to move's view (internal units)
    result: game result from the side to move's view in half points (0 loss, 1 draw, 2 win)
    game: a 64-bit key of the game (for splitting by game)
    """

    red: np.ndarray
    black: np.ndarray
    bucket: np.ndarray
    stm: np.ndarray
    score: np.ndarray
    result: np.ndarray
    game: np.ndarray

    def __len__(self):
        return len(self.score)

    def subset(self, index):
        return Dataset(*(getattr(self, name)[index] for name in ARRAYS))

    @staticmethod
    def concatenate(parts):
        if not parts:
            return empty_dataset()
        if len(parts) == 1:
            return parts[0]
        return Dataset(*(np.concatenate([getattr(p, name) for p in parts]) for name in ARRAYS))


def empty_dataset():
    return Dataset(np.zeros((0, MAX_PIECES), np.int16), np.zeros((0, MAX_PIECES), np.int16), np.zeros(0, np.uint8),
                   np.zeros(0, np.uint8), np.zeros(0, np.int16), np.zeros(0, np.uint8), np.zeros(0, np.uint64))


def convert_file(path, log=_stderr, chunk=1 << 16):
    """Reads all games of `path` and returns (Dataset of its Quiet positions, info dict)."""
    start = time.monotonic()
    boards, stms, scores, results, games = bytearray(), [], [], [], []
    parts = []
    plies_total = skipped = 0
    quiet_total = 0

    def flush():
        if not stms:
            return
        b = np.frombuffer(bytes(boards), dtype=np.uint8).reshape(-1, 90)
        red, black, bucket = features_of_boards(b)
        parts.append(Dataset(red, black, bucket, np.array(stms, np.uint8), np.array(scores, np.int16),
                             np.array(results, np.uint8), np.array(games, np.uint64)))
        boards.clear()
        stms.clear()
        scores.clear()
        results.clear()
        games.clear()

    with Reader(path) as reader:
        header = {"seed": reader.seed, "nodes": reader.nodes}
        for game in reader:
            plies_total += len(game.plies)
            key = int(game_keys([game.seed], [game.index])[0])
            quiet = []
            try:
                for _, board, stm, score, flags in replay(game):
                    if flags & FLAG_QUIET:
                        quiet.append((board, stm, score))
            except DataError as e:
                skipped += 1
                log(f"{path}: skipping a game that does not replay: {e}")
                continue
            for board, stm, score in quiet:
                boards.extend(board)
                stms.append(stm)
                scores.append(score)
                # Results in half points from the side to move's view.
                results.append(game.result if stm == RED else 2 - game.result)
                games.append(key)
            quiet_total += len(quiet)
            if len(stms) >= chunk:
                flush()
        flush()
        elapsed = time.monotonic() - start
        st = os.stat(path)
        info = {
            "path": os.path.abspath(path),
            "size": st.st_size,
            "mtime_ns": st.st_mtime_ns,
            "good_bytes": reader.good_bytes,
            "sha256": reader.sha256,
            "sha256_of": "the valid bytes read (header and whole records), good_bytes long",
            "damage": reader.damage,
            "header": header,
            "games": reader.games,
            "games_skipped": skipped,
            "plies": plies_total,
            "quiet_positions": quiet_total,
            "seconds": round(elapsed, 3),
        }
    if reader.damage:
        log(f"{path}: stopped early: {reader.damage}")
    rate = plies_total / elapsed if elapsed > 0 else float("inf")
    log(f"{path}: {reader.games} games, {plies_total} positions, {quiet_total} quiet, converted in "
        f"{elapsed:.1f} s ({rate:,.0f} positions/s, {quiet_total / max(elapsed, 1e-9):,.0f} quiet/s)")
    return Dataset.concatenate(parts), info


def _cache_key(path):
    st = os.stat(path)
    text = f"{os.path.realpath(path)}|{st.st_size}|{st.st_mtime_ns}|v{CONVERTER_VERSION}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_path(path, cache_dir):
    base = os.path.basename(path)
    return os.path.join(cache_dir, f"{base}.{_cache_key(path)}.cache")


def _save_cache(directory, dataset, info):
    tmp = directory + f".tmp{os.getpid()}"
    os.makedirs(tmp, exist_ok=True)
    for name in ARRAYS:
        np.save(os.path.join(tmp, name + ".npy"), getattr(dataset, name))
    with open(os.path.join(tmp, "info.json"), "w") as f:
        json.dump(info, f, indent=1)
    if os.path.isdir(directory):  # another run got there first
        shutil.rmtree(tmp)
        return
    os.rename(tmp, directory)


def _load_cache(directory):
    with open(os.path.join(directory, "info.json")) as f:
        info = json.load(f)
    arrays = [np.load(os.path.join(directory, name + ".npy"), mmap_mode="r") for name in ARRAYS]
    return Dataset(*arrays), info


def load_file(path, cache_dir=None, log=_stderr):
    """The Dataset of one file, from the cache when it is there (keyed by path, size and mtime)."""
    if cache_dir:
        directory = cache_path(path, cache_dir)
        if os.path.isdir(directory):
            try:
                dataset, info = _load_cache(directory)
                log(f"{path}: {len(dataset)} quiet positions from the cache {directory}")
                return dataset, info
            except (OSError, ValueError) as e:
                log(f"{path}: cache {directory} unreadable ({e}); converting again")
    dataset, info = convert_file(path, log=log)
    if cache_dir:
        os.makedirs(cache_dir, exist_ok=True)
        directory = cache_path(path, cache_dir)
        _save_cache(directory, dataset, info)
        _drop_stale_caches(cache_dir, directory, info["path"], log)
    return dataset, info


def _drop_stale_caches(cache_dir, keep, abspath, log):
    """Removes older caches of the same file (a file that grew or changed)."""

    prefix = os.path.basename(abspath) + "."
    for name in os.listdir(cache_dir):
        other = os.path.join(cache_dir, name)
        if other == keep or not name.startswith(prefix) or not name.endswith(".cache"):
            continue
        try:
            with open(os.path.join(other, "info.json")) as f:
                if json.load(f).get("path") != abspath:
                    continue
            shutil.rmtree(other)
            log(f"removed the stale cache {other}")
        except (OSError, ValueError):
            continue


def load_dataset(paths, cache_dir=None, max_positions=None, log=_stderr):
    """All Quiet positions of `paths` in file order (the first max_positions of them), and per-file info."""
    parts, infos, total = [], [], 0
    for path in paths:
        if max_positions is not None and total >= max_positions:
            break
        dataset, info = load_file(path, cache_dir, log)
        if max_positions is not None and total + len(dataset) > max_positions:
            dataset = dataset.subset(slice(0, max_positions - total))
        info = dict(info, positions_used=len(dataset))
        parts.append(dataset)
        infos.append(info)
        total += len(dataset)
    # Into memory (the cache is memory-mapped); the training loop gathers at random.
    merged = Dataset.concatenate([Dataset(*(np.array(getattr(p, n)) for n in ARRAYS)) for p in parts])
    return merged, infos


def main(argv=None):
    ap = argparse.ArgumentParser(description="Read Chariot training data; convert it into the feature cache.")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--cache", help="cache directory (default: none, convert only)")
    ap.add_argument("--check", action="store_true", help="only read the records and count")
    args = ap.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            if args.check:
                games = plies = quiet = 0
                results = [0, 0, 0]
                with Reader(path) as reader:
                    for g in reader:
                        games += 1
                        plies += len(g.plies)
                        quiet += int(np.count_nonzero(g.plies["flags"] & FLAG_QUIET))
                        results[g.result] += 1
                    play = f" (other moves {reader.play_nodes})" if reader.play_nodes else ""
                    print(f"{path}: seed {reader.seed}, {reader.nodes} nodes{play}; games {games}, positions {plies} "
                          f"(quiet {quiet}), red {results[2]} / draw {results[1]} / black {results[0]}"
                          + (f"; stopped: {reader.damage}" if reader.damage else ""))
            else:
                dataset, info = load_file(path, args.cache)
                hist = np.bincount(dataset.bucket, minlength=BUCKETS)
                print(f"{path}: {len(dataset)} quiet positions; buckets {hist.tolist()}; "
                      f"red to move {int(np.count_nonzero(dataset.stm == RED))}")
        except (OSError, DataError) as e:
            print(f"error: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
