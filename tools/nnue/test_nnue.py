#!/usr/bin/python3
"""Tests of the NNUE training tools (unittest; a few seconds, up to half a minute on a busy 2-core machine).

    /usr/bin/python3 tools/nnue/test_nnue.py        (or: cd tools/nnue && /usr/bin/python3 -m unittest test_nnue)

Tolerance of the integer reference against the float model it was quantised
from, on 200 positions of a tiny trained net: mean |diff| <= 6 and max <= 25
internal units.
"""

import contextlib
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import data as D  # noqa: E402
import netfile as N  # noqa: E402
import nnue_ref as R  # noqa: E402

SAMPLE = os.path.join(HERE, "testdata", "sample-s7-12games.data")
# What `chariot datagen check` says of the sample.
SAMPLE_GAMES, SAMPLE_PLIES, SAMPLE_QUIET = 12, 1227, 748
MEAN_TOLERANCE, MAX_TOLERANCE = 6.0, 25.0


def tiny_training_args(cache):
    """train.py arguments of the tests' tiny nets on the sample (add --out-dir and --epochs)."""
    return ["--data", SAMPLE, "--hidden", "32", "--batch", "128", "--lr", "3e-3", "--val-fraction", "0.2",
            "--threads", "1", "--seed", "5", "--cache", cache, "--progress", "0"]


def quiet(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        result = fn(*args, **kwargs)
    return result, out.getvalue()


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def record_offsets(blob):
    """Byte offsets of the records of a data file's bytes."""
    offsets, at = [], D.HEADER_BYTES
    while at < len(blob):
        offsets.append(at)
        (size,) = struct.unpack_from("<I", blob, at + 4)
        at += 8 + size + 4
    return offsets


def slow_features(board, perspective):
    """The spec's features, written out plainly (an independent check of data.features_of_boards)."""
    out = []
    for sq, v in enumerate(board):
        if not v:
            continue
        rank, file = divmod(sq, 9)
        color, t = (0 if v <= 7 else 1), (v - 1) % 7
        rel = 0 if color == perspective else 1
        psq = rank * 9 + file if perspective == 0 else (9 - rank) * 9 + file
        out.append((rel * 7 + t) * 90 + psq)
    return sorted(out)


def slow_int_eval(net, board, stm):
    """The spec's integer evaluation with Python integers, one position."""
    feats = [slow_features(board, p) for p in (0, 1)]
    count = sum(1 for v in board if v) - 2
    b = min(7, count // 4)
    h = net.hidden
    acc = []
    for p in (0, 1):
        a = [int(x) for x in net.ft_bias]
        for f in feats[p]:
            row = net.ft_weight[f]
            for j in range(h):
                a[j] += int(row[j])
        acc.append([min(max(x, 0), N.QA) for x in a])
    us, them = acc[stm], acc[1 - stm]
    w = [int(x) for x in net.out_weight[b]]
    s = sum(us[j] * us[j] * w[j] for j in range(h)) + sum(them[j] * them[j] * w[h + j] for j in range(h))
    assert -(1 << 31) <= s < (1 << 31)
    s = int(s / N.QA) if s >= 0 else -((-s) // N.QA)  # truncation toward zero
    s += int(net.out_bias[b])
    t = s * net.scale
    return t // (N.QA * net.qb) if t >= 0 else -((-t) // (N.QA * net.qb))


def sample_boards(limit=None, every=1):
    """(board, stm) of positions from the sample, every `every`-th ply."""
    out = []
    for game in D.read_games(SAMPLE):
        for i, board, stm, _, _ in D.replay(game):
            if i % every == 0:
                out.append((board, stm))
    return out[:limit]


HEAD_SAMPLES = os.path.join(HERE, "..", "..", "tests", "data", "nnue_head_samples.txt")


def head_test_net(plain):
    """The format 3 test net of tests/test_nnue.cpp (headNet()), made from the plain net of
    tests/data/nnue_samples.txt: king bucket b's feature weights are the plain ones plus
    (b * 131 + f * 7 + j * 3) % 11 - 5 (bucketedNet() there), and a 16-unit head whose weights
    follow simple patterns, so that C++ and Python build the same net without a fixture file."""
    h, size = plain.hidden, 16
    b, f, j = np.ogrid[: D.KING_BUCKETS, : D.FEATURES, :h]
    ft = plain.ft_weight.astype(np.int64)[None] + (b * 131 + f * 7 + j * 3) % 11 - 5
    b, k, j = np.ogrid[: D.BUCKETS, :size, : 2 * h]
    l1_weight = (b * 37 + k * 101 + j * 53) % 15 - 7
    b, k = np.ogrid[: D.BUCKETS, :size]
    l1_bias = (b * 7 + k * 13) % 41 * 100 - 1000
    l2_weight = (b * 11 + k * 29) % 201 - 100
    l2_bias = np.arange(D.BUCKETS) * 1000 - 3000
    head = N.Head(l1_weight.astype(np.int8), l1_bias.astype(np.int32), l2_weight.astype(np.int16),
                  l2_bias.astype(np.int32))
    return N.QuantisedNet(h, ft.reshape(-1, h).astype(np.int16), plain.ft_bias.copy(), None, None, plain.qb,
                          plain.scale, head)


def head_samples(fens):
    """"<eval>\\t<FEN>" lines of the format 3 test net on the FENs, after the header lines."""
    plain_name = "chariot-86f46074b5ce.nnue"
    net = head_test_net(N.read_net(os.path.join(HERE, "..", "..", "nets", plain_name)))
    lines = [f"# net {plain_name}",
             "# evaluated by its format 3 derivative (tools/nnue/test_nnue.py head_test_net; tests/test_nnue.cpp "
             "headNet); regenerate: /usr/bin/python3 tools/nnue/test_nnue.py --write-head-samples"]
    for fen in fens:
        lines.append(f"{R.int_eval_fen(net, fen)}\t{fen}")
    return "\n".join(lines) + "\n"


def sample_fens(path):
    with open(path) as f:
        return [line.rstrip("\n").split("\t")[1] for line in f if line.strip() and not line.startswith("#")]


def slow_head_eval(net, board, stm):
    """A version 3 net's evaluation with Python integers, one position (the spec written out)."""
    h, head = net.hidden, net.head
    rows = D.features_of_boards(np.frombuffer(bytes(board), np.uint8))
    acc = []
    for p in (0, 1):
        view = D.king_view_rows(rows[p])[0][0]
        a = [int(x) for x in net.ft_bias]
        for f in view:
            if f != D.KB_FEATURES:
                for j in range(h):
                    a[j] += int(net.ft_weight[f][j])
        acc.append([min(max(v, 0), N.QA) ** 2 >> 9 for v in a])
    x = acc[stm] + acc[1 - stm]
    b = int(rows[2][0])
    s = int(head.l2_bias[b])
    for k in range(head.size):
        y = int(head.l1_bias[b][k]) + sum(x[j] * int(head.l1_weight[b][k][j]) for j in range(2 * h))
        s += min(max(y >> 6, 0), 127) * int(head.l2_weight[b][k])
    t = s * net.scale
    return t // (127 * net.qb) if t >= 0 else -((-t) // (127 * net.qb))


def random_head_net(rng, hidden=32, size=16, bias_max=5000):
    """A version 3 net with random integers: weights over their whole ranges, the biases within
    +-bias_max (larger ones clip every unit)."""
    return N.QuantisedNet(
        hidden, rng.integers(-8, 9, (D.KB_FEATURES, hidden)).astype(np.int16),
        rng.integers(-30, 60, hidden).astype(np.int16), None, None,
        head=N.Head(rng.integers(-127, 128, (D.BUCKETS, size, 2 * hidden)).astype(np.int8),
                    rng.integers(-bias_max, bias_max + 1, (D.BUCKETS, size)).astype(np.int32),
                    rng.integers(-32768, 32768, (D.BUCKETS, size)).astype(np.int16),
                    rng.integers(-bias_max, bias_max + 1, D.BUCKETS).astype(np.int32)))


class ReaderTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="nnue-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_counts_match_chariot_check(self):
        games = plies = quiet_ = 0
        with D.Reader(SAMPLE) as reader:
            self.assertEqual((reader.seed, reader.nodes), (7, 1000))
            for g in reader:
                games += 1
                plies += len(g.plies)
                quiet_ += int(np.count_nonzero(g.plies["flags"] & D.FLAG_QUIET))
                self.assertEqual(g.start_fen, D.START_FEN)
            self.assertIsNone(reader.damage)
            self.assertEqual(reader.good_bytes, os.path.getsize(SAMPLE))
        self.assertEqual((games, plies, quiet_), (SAMPLE_GAMES, SAMPLE_PLIES, SAMPLE_QUIET))

    def test_python_writer_reproduces_the_file(self):
        with D.Reader(SAMPLE) as reader:
            blob = D.encode_header(reader.seed, reader.nodes)
            for g in reader:
                blob += D.encode_record(g.seed, g.index, g.result, g.termination, g.start_fen, g.plies.tolist())
        self.assertEqual(blob, read_bytes(SAMPLE))

    def damaged_copy(self, blob):
        path = os.path.join(self.tmp, "damaged.data")
        with open(path, "wb") as f:
            f.write(blob)
        reports = []
        games = list(D.read_games(path, report=reports.append))
        return games, reports

    def test_truncated_tail(self):
        blob = read_bytes(SAMPLE)
        last = record_offsets(blob)[-1]
        for cut in (last + 3, last + 8, last + 40, len(blob) - 1):
            games, reports = self.damaged_copy(blob[:cut])
            self.assertEqual(len(games), SAMPLE_GAMES - 1)
            self.assertEqual(len(reports), 1)
            self.assertIn("truncated", reports[0])

    def test_checksum_mismatch_stops_reading(self):
        blob = bytearray(read_bytes(SAMPLE))
        at = record_offsets(blob)[5]
        blob[at + 8 + 30] ^= 0x01  # a byte of game 5's payload
        games, reports = self.damaged_copy(bytes(blob))
        self.assertEqual([g.index for g in games], list(range(5)))
        self.assertIn("checksum", reports[0])
        self.assertIn(f"byte {at}", reports[0])

    def test_not_a_data_file(self):
        path = os.path.join(self.tmp, "junk.data")
        with open(path, "wb") as f:
            f.write(b"CHRTNNUE" + bytes(40))
        with self.assertRaisesRegex(D.DataError, "not a Chariot data file"):
            D.Reader(path)

    def test_game_that_does_not_replay_is_skipped(self):
        e0, e1 = 4, 13  # red king e0 -> e1 is fine; then black "moves" from the empty square a4
        good = [(D.encode_move(e0, e1), 0, D.FLAG_OPENING), (D.encode_move(40, 49), 10, D.FLAG_QUIET)]
        blob = D.encode_header(1, 100) + D.encode_record(1, 0, 1, 0, D.START_FEN, good)
        blob += D.encode_record(1, 1, 2, 0, D.START_FEN, [(D.encode_move(e0, e1), 25, D.FLAG_QUIET)])
        path = os.path.join(self.tmp, "bad.data")
        with open(path, "wb") as f:
            f.write(blob)
        logs = []
        ds, info = D.convert_file(path, log=logs.append)
        self.assertEqual(info["games_skipped"], 1)
        self.assertEqual(len(ds), 1)
        self.assertEqual(int(ds.score[0]), 25)
        self.assertEqual(int(ds.result[0]), 2)  # red won, red to move
        self.assertTrue(any("does not replay" in m for m in logs))

    def test_cache(self):
        cache = os.path.join(self.tmp, "cache")
        logs = []
        first, _ = D.load_file(SAMPLE, cache, log=logs.append)
        second, info = D.load_file(SAMPLE, cache, log=logs.append)
        self.assertIn("from the cache", logs[-1])
        self.assertEqual(info["quiet_positions"], SAMPLE_QUIET)
        for name in D.ARRAYS:
            np.testing.assert_array_equal(getattr(first, name), getattr(second, name))
        # A file that grows is converted again and its old cache removed.
        path = os.path.join(self.tmp, "growing.data")
        blob = read_bytes(SAMPLE)
        with open(path, "wb") as f:
            f.write(blob[: record_offsets(blob)[6]])
        self.assertEqual(len(D.load_file(path, cache, log=logs.append)[0].score) > 0, True)
        with open(path, "ab") as f:
            f.write(blob[record_offsets(blob)[6]:])
        grown, _ = D.load_file(path, cache, log=logs.append)
        self.assertEqual(len(grown), SAMPLE_QUIET)
        self.assertTrue(any("removed the stale cache" in m for m in logs))
        self.assertEqual(len([n for n in os.listdir(cache) if n.startswith("growing.data.")]), 1)


class FeatureTest(unittest.TestCase):
    def test_fen_round_trip_and_aliases(self):
        board, stm = D.parse_fen(D.START_FEN)
        self.assertEqual(D.board_to_fen(board, stm), D.START_FEN)
        alias = "rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1"
        self.assertEqual(D.parse_fen(alias), (board, D.RED))
        self.assertEqual(D.parse_fen("4k4/9/9/9/9/9/9/9/9/3K5 b")[1], D.BLACK)
        for bad in ("rnbakabnr/9 w", "4k4/9/9/9/9/9/9/9/9/3K4 w", "4k4/9/9/9/9/9/9/9/9/3X5 w",
                    "9/9/9/9/9/9/9/9/9/3K5 w", "4k4/9/9/9/9/9/9/9/9/3K5 x"):
            with self.assertRaises(D.DataError, msg=bad):
                D.parse_fen(bad)

    def test_start_position_features(self):
        board, _ = D.parse_fen(D.START_FEN)
        red, black, bucket = D.features_of_board(board)
        self.assertEqual(bucket, 7)
        self.assertEqual(len(red), 32)
        self.assertIn(4, red)  # red king on e0, own piece: (0 * 7 + 0) * 90 + 4
        self.assertIn(7 * 90 + 85, red)  # black king on e9: (1 * 7 + 0) * 90 + 9 * 9 + 4
        self.assertIn(6 * 90 + 27, red)  # red pawn a3: (0 * 7 + 6) * 90 + 3 * 9 + 0
        self.assertEqual(red, black)  # the start position is colour-symmetric

    def test_features_match_the_spec(self):
        boards = sample_boards(every=7)
        arr = np.frombuffer(b"".join(b for b, _ in boards), np.uint8)
        red, black, bucket = D.features_of_boards(arr)
        for i, (board, _) in enumerate(boards):
            for p, rows in ((0, red), (1, black)):
                want = slow_features(board, p)
                self.assertEqual(rows[i].tolist(), want + [D.PAD] * (32 - len(want)))
            self.assertEqual(bucket[i], min(7, (sum(1 for v in board if v) - 2) // 4))

    def test_mirror_table(self):
        for board, _ in sample_boards(every=40):
            mirrored = D.mirror_files(board)
            for p in (0, 1):
                self.assertEqual(sorted(int(D.MIRROR_TABLE[f]) for f in slow_features(board, p)),
                                 slow_features(mirrored, p))
        self.assertEqual(int(D.MIRROR_TABLE[D.PAD]), D.PAD)

    def test_results_from_side_to_move(self):
        ds, _ = D.convert_file(SAMPLE, log=lambda m: None)
        self.assertEqual(len(ds), SAMPLE_QUIET)
        results = {}
        for game in D.read_games(SAMPLE):
            results[int(D.game_keys([game.seed], [game.index])[0])] = game.result
        for i in range(0, len(ds), 17):
            red_view = results[int(ds.game[i])]
            self.assertEqual(int(ds.result[i]), red_view if ds.stm[i] == D.RED else 2 - red_view)


class IntegerArithmeticTest(unittest.TestCase):
    def hand_net(self, out_w):
        h = 32
        net = N.QuantisedNet(h, np.zeros((D.FEATURES, h), np.int16), np.zeros(h, np.int16),
                             np.zeros((D.BUCKETS, 2 * h), np.int16), np.zeros(D.BUCKETS, np.int32))
        net.ft_bias[0] = 100
        net.out_weight[:, 0] = out_w
        return N.parse_net(N.net_bytes(net))  # through the file format

    def test_truncation_toward_zero(self):
        # s = 100^2 * -127 = -1270000; / 255 -> -4980 (floor: -4981); * 400 / 65280 -> -30 (floor: -31)
        self.assertEqual(R.int_eval_fen(self.hand_net(-127), D.START_FEN), -30)
        self.assertEqual(R.int_eval_fen(self.hand_net(127), D.START_FEN), 30)
        # QB and SCALE come from the header: an older QB = 64 net: * 400 / 16320 -> -122 (floor: -123)
        old = self.hand_net(-127)
        old.qb = 64
        self.assertEqual(R.int_eval_fen(N.parse_net(N.net_bytes(old)), D.START_FEN), -122)
        self.assertEqual(R.trunc_div(-7, 2), -3)
        self.assertEqual(R.trunc_div(7, 2), 3)

    def test_quantise_rounds_and_refuses_overflow(self):
        h = 32
        ft = np.zeros((D.FEATURES, h))
        ft[0, 0], ft[0, 1] = 0.5 / 255 * 3, -1.98
        q = N.quantise(ft, np.zeros(h), np.full((8, 2 * h), N.OUT_LIMIT), np.full(8, -0.25))
        self.assertEqual((int(q.ft_weight[0, 0]), int(q.ft_weight[0, 1])), (2, -505))  # 1.5 -> 2 (to even)
        self.assertEqual(int(q.out_weight[0, 0]), 128)
        self.assertEqual(int(q.out_bias[0]), -16320)
        with self.assertRaises(N.NetError):
            N.quantise(np.full((D.FEATURES, h), 200.0), np.zeros(h), np.zeros((8, 2 * h)), np.zeros(8))
        with self.assertRaisesRegex(N.NetError, "beyond"):  # fits int16, not the engine's +-128
            N.quantise(ft, np.zeros(h), np.full((8, 2 * h), 0.51), np.zeros(8))


class TrainedNetTest(unittest.TestCase):
    """Trains a tiny net on the sample once, then checks the export and the reference."""

    @classmethod
    def setUpClass(cls):
        import train

        cls.train = train
        cls.tmp = tempfile.mkdtemp(prefix="nnue-train-test-")
        cls.cache = os.path.join(cls.tmp, "cache")
        cls.args = tiny_training_args(cls.cache)
        rc, cls.log = quiet(train.main, cls.args + ["--out-dir", os.path.join(cls.tmp, "a"), "--epochs", "3"])
        assert rc == 0, cls.log
        cls.net_path = cls.only_net(os.path.join(cls.tmp, "a"))
        cls.net = N.read_net(cls.net_path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    @staticmethod
    def only_net(directory):
        nets = [f for f in os.listdir(directory) if f.endswith(".nnue")]
        assert len(nets) == 1, nets
        return os.path.join(directory, nets[0])

    def test_training_logged_and_improved(self):
        self.assertRegex(self.log, r"K = [0-9.]+ \(fitted")
        losses = [float(x) for x in re.findall(r"train loss ([0-9.]+)", self.log)]
        self.assertEqual(len(losses), 3)
        self.assertLess(losses[-1], losses[0])

    def test_header_crc_and_name(self):
        blob = read_bytes(self.net_path)
        self.assertEqual(blob[:8], b"CHRTNNUE")
        self.assertEqual(struct.unpack_from("<8I", blob, 8), (1, 1260, 32, 8, 255, 256, 400, 0))
        self.assertEqual(len(blob), 40 + 2 * 1260 * 32 + 2 * 32 + 2 * 8 * 64 + 4 * 8 + 4)
        self.assertEqual(struct.unpack_from("<I", blob, len(blob) - 4)[0], zlib.crc32(blob[:-4]))
        import hashlib

        self.assertEqual(os.path.basename(self.net_path), f"chariot-{hashlib.sha256(blob).hexdigest()[:12]}.nnue")
        import json

        with open(os.path.splitext(self.net_path)[0] + ".json") as f:
            prov = json.load(f)
        self.assertEqual(prov["hidden"], 32)
        self.assertEqual(prov["epochs"], 3)
        self.assertEqual(prov["data"][0]["sha256"], hashlib.sha256(read_bytes(SAMPLE)).hexdigest())
        self.assertIn("final_val_loss", prov)

    def test_integer_reference_close_to_float(self):
        import model as M

        float_model, _ = M.load_checkpoint(os.path.join(self.tmp, "a", "checkpoints", "epoch-0003.pt"))
        self.assertEqual(N.net_bytes(float_model.quantised()), read_bytes(self.net_path))
        ds, _ = D.load_file(SAMPLE, self.cache, log=lambda m: None)
        ds = ds.subset(slice(0, 200))
        f = M.evaluate(float_model, ds)
        q, overflows = R.int_eval_dataset(self.net, ds)
        self.assertEqual(overflows, 0)
        diff = np.abs(q - f)
        self.assertLessEqual(diff.mean(), MEAN_TOLERANCE)
        self.assertLessEqual(diff.max(), MAX_TOLERANCE)
        self.assertGreater(np.std(f), 1.0)  # the net says something
        # The float path of nnue_ref agrees with the torch model.
        w = float_model.float_weights()
        f2 = R.float_eval_features(w, ds.red, ds.black, ds.stm, ds.bucket)
        np.testing.assert_allclose(f2, f, atol=1e-3)

    def test_vectorised_reference_matches_plain_integers(self):
        boards = sample_boards(every=60)
        got, _ = R.int_eval_boards(self.net, [b for b, _ in boards], [s for _, s in boards])
        self.assertEqual(got.tolist(), [slow_int_eval(self.net, b, s) for b, s in boards])

    def test_colour_flip_symmetry(self):
        import model as M

        weights = M.load_checkpoint(os.path.join(self.tmp, "a", "checkpoints", "epoch-0003.pt"))[0].float_weights()
        boards = sample_boards(every=25)
        flipped = [D.flip_colors(b, s) for b, s in boards]
        a, _ = R.int_eval_boards(self.net, [b for b, _ in boards], [s for _, s in boards])
        b, _ = R.int_eval_boards(self.net, [b for b, _ in flipped], [s for _, s in flipped])
        np.testing.assert_array_equal(a, b)
        fa = R.float_eval_fens(weights, [D.board_to_fen(b, s) for b, s in boards])
        fb = R.float_eval_fens(weights, [D.board_to_fen(b, s) for b, s in flipped])
        np.testing.assert_allclose(fa, fb, atol=1e-9)

    def test_corrupted_net_refused(self):
        blob = read_bytes(self.net_path)
        cases = {
            "checksum mismatch": blob[:1000] + bytes([blob[1000] ^ 4]) + blob[1001:],
            "bytes; a net with hidden size": blob[:-10],
            "not a Chariot net file": b"CHRTDATA" + blob[8:],
            "version 4": blob[:8] + struct.pack("<I", 4) + blob[12:],
            r"\(1260, 8, 255\), expected \(7560": blob[:8] + struct.pack("<I", 2) + blob[12:],
            r"\(1260, 8, 255\), expected \(7560, 8, 255\)": blob[:8] + struct.pack("<I", 3) + blob[12:],
            "hidden size 33": blob[:16] + struct.pack("<I", 33) + blob[20:],
            "hidden size 2048": blob[:16] + struct.pack("<I", 2048) + blob[20:],
            "QA are": blob[:24] + struct.pack("<I", 256) + blob[28:],
        }
        # An output weight beyond +-128 (with a correct checksum).
        body = bytearray(blob[:-4])
        at = 40 + 2 * 1260 * 32 + 2 * 32
        body[at:at + 2] = struct.pack("<h", 129)
        cases["beyond"] = bytes(body) + struct.pack("<I", zlib.crc32(bytes(body)))
        for why, bad in cases.items():
            with self.assertRaisesRegex(N.NetError, why):
                N.parse_net(bad, "bad.nnue")
        path = os.path.join(self.tmp, "bad.nnue")
        with open(path, "wb") as f:
            f.write(cases["checksum mismatch"])
        rc, out = quiet(R.main, [path, D.START_FEN])
        self.assertEqual(rc, 1)
        self.assertIn("checksum mismatch", out)

    def test_cli_and_samples(self):
        fens = [D.START_FEN, "3k5/4a4/9/9/9/9/9/9/4A4/3K5 b - - 0 1"]
        rc, out = quiet(R.main, [self.net_path] + fens)
        self.assertEqual(rc, 0)
        self.assertEqual([int(x) for x in out.split()], [R.int_eval_fen(self.net, f) for f in fens])
        samples = os.path.join(self.tmp, "samples.txt")
        rc, out = quiet(R.main, ["--samples", self.net_path, samples, "--data", SAMPLE])
        self.assertEqual(rc, 0, out)
        with open(samples) as f:
            self.assertEqual(f.readline(), f"# net {os.path.basename(self.net_path)}\n")
            lines = [line.rstrip("\n").split("\t") for line in f]
        self.assertGreaterEqual(len(lines), 45)
        buckets, sides = set(), set()
        for value, fen in lines:
            board, stm = D.parse_fen(fen)
            self.assertTrue(R.acceptable(board, stm), fen)
            self.assertEqual(int(value), R.int_eval_fen(self.net, fen))
            buckets.add(D.features_of_board(board)[2])
            sides.add(stm)
        self.assertIn(0, buckets)
        self.assertEqual(sides, {0, 1})

    def test_same_seed_same_net_and_resume(self):
        rc, log = quiet(self.train.main, self.args + ["--out-dir", os.path.join(self.tmp, "b"), "--epochs", "3"])
        self.assertEqual(rc, 0, log)
        self.assertEqual(read_bytes(self.only_net(os.path.join(self.tmp, "b"))), read_bytes(self.net_path))
        # Resuming the 3-epoch run from its epoch-2 checkpoint gives the same net.
        c = os.path.join(self.tmp, "c")
        ckpt = os.path.join(self.tmp, "a", "checkpoints", "epoch-0002.pt")
        rc, log = quiet(self.train.main, self.args + ["--out-dir", c, "--epochs", "3", "--resume", ckpt])
        self.assertEqual(rc, 0, log)
        self.assertNotIn("epoch 1/3", log)
        self.assertEqual(read_bytes(self.only_net(c)), read_bytes(self.net_path))

    def test_init_from_a_net(self):
        import model as M

        # A net read back into a float model quantises to the same bytes.
        self.assertEqual(N.net_bytes(M.from_net(self.net).quantised()), read_bytes(self.net_path))
        d = os.path.join(self.tmp, "init")
        rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "1", "--init", self.net_path,
                                                      "--hidden", "64"])
        self.assertEqual(rc, 0, log)
        # A larger --hidden widens the net (32 -> 64) without changing what it evaluates at the start.
        self.assertIn("widening", log)
        net, ckpt = M.load_checkpoint(os.path.join(d, "checkpoints", "epoch-0001.pt"))
        self.assertEqual(net.hidden, 64)
        self.assertEqual(ckpt["provenance"]["init"]["path"], os.path.abspath(self.net_path))
        start = float(re.search(r"the --init net's validation loss: ([0-9.]+)", log).group(1))
        self.assertAlmostEqual(start, ckpt["provenance"]["init"]["val_loss"], places=6)
        # One more epoch from the trained net starts where it ended: the loss is already low, not
        # the random start's (the first epoch of the run from scratch).
        first = [float(x) for x in re.findall(r"train loss ([0-9.]+)", self.log)][0]
        again = float(re.search(r"train loss ([0-9.]+)", log).group(1))
        self.assertLess(again, first)
        rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "1", "--init",
                                                      os.path.join(self.tmp, "missing.nnue")])
        self.assertEqual(rc, 1)
        self.assertIn("error: --init", log)

    def test_widening_keeps_the_evaluation(self):
        import model as M

        ds, _ = D.load_file(SAMPLE, self.cache, log=lambda m: None)
        ds = ds.subset(slice(0, 300))
        wide = M.from_net(self.net, hidden=96)
        self.assertEqual(wide.hidden, 96)
        want, _ = R.int_eval_dataset(self.net, ds)
        got, overflows = R.int_eval_dataset(wide.quantised(), ds)
        self.assertEqual(overflows, 0)
        self.assertEqual(got.tolist(), want.tolist())
        np.testing.assert_allclose(M.evaluate(wide, ds), M.evaluate(M.from_net(self.net), ds), atol=1e-3)
        self.assertGreater(float(np.abs(wide.ft.weight.detach()[:, 32:]).sum()), 0.0)  # new units can learn
        with self.assertRaises(ValueError):
            M.from_net(wide.quantised(), hidden=64)

    def test_measure_only(self):
        # --epochs 0 --init NET: the net's validation loss on the data, nothing trained or written;
        # the same figure as a training run from that net logs before its first epoch.
        d = os.path.join(self.tmp, "measure")
        rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "0", "--init", self.net_path])
        self.assertEqual(rc, 0, log)
        self.assertIn("measured only", log)
        self.assertEqual(os.listdir(os.path.join(d, "checkpoints")), [])
        rc, again = quiet(self.train.main, self.args + ["--out-dir", os.path.join(self.tmp, "measure2"),
                                                        "--epochs", "1", "--init", self.net_path])
        self.assertEqual(rc, 0, again)
        pattern = r"the --init net's validation loss: ([0-9.]+)"
        self.assertEqual(re.search(pattern, log).group(1),
                         re.search(pattern, again).group(1))
        with self.assertRaises(SystemExit):
            quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "0"])

    def test_every_kth_position(self):
        # --every K keeps every K-th quiet position in file order: 1/K of the sample, rounded up.
        counts = []
        for every in (1, 2, 3):
            d = os.path.join(self.tmp, f"every{every}")
            rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "0", "--init", self.net_path,
                                                          "--every", str(every)])
            self.assertEqual(rc, 0, log)
            counts.append(int(re.search(r"^data: (\d+) quiet positions \(", log, re.M).group(1)))
        self.assertEqual(counts, [SAMPLE_QUIET, (SAMPLE_QUIET + 1) // 2, (SAMPLE_QUIET + 2) // 3])
        with self.assertRaises(SystemExit):
            quiet(self.train.main, self.args + ["--out-dir", os.path.join(self.tmp, "every0"), "--every", "0"])

    def test_unknown_device_refused(self):
        rc, log = quiet(self.train.main, self.args + ["--out-dir", os.path.join(self.tmp, "dev"), "--epochs", "1",
                                                      "--device", "no-such-device"])
        self.assertEqual(rc, 1)
        self.assertIn("error: --device no-such-device", log)

    def test_quantisation_aware_training(self):
        import model as M

        d = os.path.join(self.tmp, "qat")
        rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "1", "--qat"])
        self.assertEqual(rc, 0, log)
        net, ckpt = M.load_checkpoint(os.path.join(d, "checkpoints", "epoch-0001.pt"))
        self.assertTrue(net.qat)
        ds, _ = D.load_file(SAMPLE, self.cache, log=lambda m: None)
        ds = ds.subset(slice(0, 100))
        w = net.float_weights()
        w["out_weight"] = np.round(w["out_weight"] * N.QB) / N.QB
        np.testing.assert_allclose(M.evaluate(net, ds), R.float_eval_features(w, ds.red, ds.black, ds.stm,
                                                                               ds.bucket), atol=1e-3)

    def test_king_attacked(self):
        self.assertFalse(R.king_attacked(D.parse_fen(D.START_FEN)[0], D.RED))
        cases = [("4k4/9/9/9/9/9/9/9/9/4K4 w", True),  # kings face each other
                 ("4k4/9/9/9/9/9/9/9/4A4/4K4 w", False),
                 ("4k4/9/9/9/4r4/9/9/9/9/3K5 w", False),
                 ("3k5/9/9/9/9/9/9/9/9/3RK4 b", True),  # rook on the king's file
                 ("3k5/9/9/9/3P5/9/9/9/9/3CK4 b", True),  # cannon over a screen
                 ("3k5/9/9/9/9/9/9/9/9/3CK4 b", False),  # cannon without a screen
                 ("3k5/9/2N6/9/9/9/9/9/9/4K4 b", True),  # horse c7 attacks d9
                 ("3k5/3a5/2N6/9/9/9/9/9/9/4K4 b", True),  # leg c8 is empty
                 ("3k5/2P6/2N6/9/9/9/9/9/9/4K4 b", False),  # leg c8 blocked
                 ("3k5/3P5/9/9/9/9/9/9/9/4K4 b", True),  # pawn in front
                 ("3kP4/9/9/9/9/9/9/9/9/4K4 b", True),  # pawn beside
                 ("4k4/9/9/9/9/9/9/9/9/3Kp4 w", True)]  # black pawn beside the red king
        for fen, attacked in cases:
            board, stm = D.parse_fen(fen)
            self.assertEqual(R.king_attacked(board, stm), attacked, fen)

    def result_positions(self):
        """The sample's quiet positions as game<TAB>red's result<TAB>FEN lines, and the same
        positions as (FEN, result from the side to move's view)."""
        lines, positions = [], []
        for number, g in enumerate(D.read_games(SAMPLE)):
            red_result = {0: 0.0, 1: 0.5, 2: 1.0}[g.result]
            for _, board, stm, _, flags in D.replay(g):
                if flags & D.FLAG_QUIET:
                    fen = D.board_to_fen(board, stm)
                    lines.append(f"{number}\t{red_result:g}\t{fen}\n")
                    positions.append((fen, red_result if stm == D.RED else 1.0 - red_result))
        path = os.path.join(self.tmp, "results.tsv")
        with open(path, "w") as f:
            f.writelines(lines)
        return path, positions

    def test_predict_results(self):
        import predict_results as P

        path, positions = self.result_positions()
        rc, out = quiet(P.main, [path, self.net_path, self.net_path, "--k", "300", "--bootstrap", "50"])
        self.assertEqual(rc, 0, out)
        self.assertIn(f"{SAMPLE_QUIET} positions of {SAMPLE_GAMES} games; K 300", out)
        rows = [line.split() for line in out.splitlines() if line.startswith(os.path.basename(self.net_path))]
        self.assertEqual(len(rows), 2)
        # The error at K, by the engine's own integer evaluation of each position.
        want = np.mean([(1 / (1 + np.exp(-R.int_eval_fen(self.net, fen) / 300.0)) - result) ** 2
                        for fen, result in positions])
        self.assertAlmostEqual(float(rows[0][1]), want, places=6)
        # The best K fits at least as well as the fixed one.
        self.assertLessEqual(float(rows[0][3]), float(rows[0][1]))
        # A net against itself differs by nothing, in every bootstrap sample.
        self.assertEqual(rows[1][4:], ["+0.000000", "[+0.000000,", "+0.000000]"])

    def test_predict_results_scores(self):
        import predict_results as P

        path, positions = self.result_positions()
        # An engine's scores of every other position, from red's view: the net's own evaluations,
        # so that the file and the net agree exactly where both count.
        scores = os.path.join(self.tmp, "scores.tsv")
        with open(path) as f, open(scores, "w") as out:
            for number, line in enumerate(f):
                game, result, fen = line.rstrip("\n").split("\t")
                if number % 2 == 0:
                    v = R.int_eval_fen(self.net, fen)
                    out.write(f"{game}\t{result}\t{v if fen.split()[1] == 'w' else -v}\t{fen}\n")
        scored = (len(positions) + 1) // 2
        rc, out = quiet(P.main, [path, self.net_path, scores, "--k", "300", "--bootstrap", "20", "--by-ply"])
        self.assertEqual(rc, 0, out)
        self.assertIn(f"{scored} of {len(positions)} positions are scored by every score file", out)
        rows = {line.split()[0]: line.split() for line in out.splitlines()
                if line.startswith((os.path.basename(self.net_path), "scores.tsv"))}
        want = np.mean([(1 / (1 + np.exp(-R.int_eval_fen(self.net, fen) / 300.0)) - result) ** 2
                        for fen, result in positions[::2]])
        self.assertAlmostEqual(float(rows[os.path.basename(self.net_path)][1]), want, places=6)
        self.assertEqual(rows["scores.tsv"][1:4], rows[os.path.basename(self.net_path)][1:4])
        self.assertEqual(rows["scores.tsv"][4:], ["+0.000000", "[+0.000000,", "+0.000000]"])
        # The stages of the game share out every counted position.
        table = out.split("error at each input's best K by ply")[1].splitlines()[2:]
        self.assertEqual(len(table), len(P.PlyBands))
        self.assertEqual(sum(int(row.split()[1]) for row in table), scored)
        # --own-k compares at each input's best K: still no difference between equal evaluations.
        rc, out = quiet(P.main, [path, self.net_path, scores, "--own-k", "--bootstrap", "0"])
        self.assertEqual(rc, 0, out)
        self.assertIn("+0.000000", out)
        self.assertEqual(P.ply_of_fen(D.START_FEN), 0)
        self.assertEqual(P.ply_of_fen("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 7"), 13)

    def test_predict_results_bad_input(self):
        import predict_results as P

        path = os.path.join(self.tmp, "bad.tsv")
        for text, message in [("0\t2\t" + D.START_FEN + "\n", "bad.tsv:1: result '2'"),
                              ("0\t1\tnot a fen\n", "bad.tsv:1:"),
                              ("0\t1\n", "bad.tsv:1: expected game<TAB>result<TAB>FEN"),
                              ("", "bad.tsv: no positions")]:
            with open(path, "w") as f:
                f.write(text)
            rc, out = quiet(P.main, [path, self.net_path])
            self.assertEqual(rc, 2, text)
            self.assertIn(message, out)
        good, _ = self.result_positions()
        rc, out = quiet(P.main, [good, os.path.join(self.tmp, "missing.nnue")])
        self.assertEqual(rc, 2)
        self.assertIn("missing.nnue", out)
        scores = os.path.join(self.tmp, "badscores.tsv")
        for text, message in [("0\t1\t" + D.START_FEN + "\n", "badscores.tsv:1: expected game<TAB>result<TAB>score"),
                              ("0\t1\tlots\t" + D.START_FEN + "\n", "badscores.tsv:1:"),
                              ("", "badscores.tsv: no scores"),
                              ("9999\t1\t10\t" + D.START_FEN + "\n", "no position is scored by every score file")]:
            with open(scores, "w") as f:
                f.write(text)
            rc, out = quiet(P.main, [good, self.net_path, scores])
            self.assertEqual(rc, 2, text)
            self.assertIn(message, out)


class KingBucketTest(unittest.TestCase):
    """King-bucketed nets (format 2): the features, the factoriser, training and export, and,
    given the engine (CHARIOT_BIN), its evaluations against the integer reference."""

    @classmethod
    def setUpClass(cls):
        import train

        cls.tmp = tempfile.mkdtemp(prefix="nnue-kb-test-")
        cls.cache = os.path.join(cls.tmp, "cache")
        cls.ds, _ = D.load_file(SAMPLE, cls.cache, log=lambda m: None)
        args = tiny_training_args(cls.cache)
        rc, cls.plain_log = quiet(train.main, args + ["--out-dir", os.path.join(cls.tmp, "plain"), "--epochs", "1"])
        assert rc == 0, cls.plain_log
        cls.plain_path = TrainedNetTest.only_net(os.path.join(cls.tmp, "plain"))
        cls.plain = N.read_net(cls.plain_path)
        rc, cls.log = quiet(train.main, args + ["--out-dir", os.path.join(cls.tmp, "kb"), "--epochs", "2",
                                                "--init", cls.plain_path, "--king-buckets"])
        assert rc == 0, cls.log
        cls.net_path = TrainedNetTest.only_net(os.path.join(cls.tmp, "kb"))
        cls.net = N.read_net(cls.net_path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_king_view_rows_follow_the_spec(self):
        checked = set()
        for i in range(0, len(self.ds), 7):
            for rows in (self.ds.red[i : i + 1], self.ds.black[i : i + 1]):
                bucketed, plain = D.king_view_rows(rows)
                feats = [int(f) for f in rows[0] if f != D.PAD]
                king = feats[0]  # the own king: type 0 of the own block
                rank, file = divmod(king, 9)
                self.assertTrue(0 <= rank <= 2 and 3 <= file <= 5, king)
                mirror = file == 5
                want = sorted((f // 90) * 90 + (f % 90 // 9) * 9 + (8 - f % 9 if mirror else f % 9) for f in feats)
                self.assertEqual(sorted(int(f) for f in plain[0] if f != D.PAD), want)
                base = (rank * 2 + (file == 4)) * D.FEATURES
                self.assertEqual(sorted(int(f) for f in bucketed[0] if f != D.KB_FEATURES), [base + f for f in want])
                checked.add((rank, file))
        self.assertGreaterEqual(len(checked), 5)

    def test_factoriser_starts_as_the_plain_net(self):
        import model as M

        model = M.from_net(self.plain, king_buckets=D.KING_BUCKETS)
        self.assertEqual(model.king_buckets, D.KING_BUCKETS)
        q = model.quantised()
        self.assertEqual(q.king_buckets, D.KING_BUCKETS)
        self.assertEqual(q.ft_weight.shape, (D.KB_FEATURES, 32))
        for b in range(D.KING_BUCKETS):
            np.testing.assert_array_equal(q.ft_weight[b * D.FEATURES : (b + 1) * D.FEATURES], self.plain.ft_weight)
        # Wherever neither king stands right of the centre, no board is mirrored: the same evals.
        red_king = self.ds.red[:, 0] % 9
        black_king = self.ds.black[:, 0] % 9
        keep = np.nonzero((red_king <= 4) & (black_king <= 4))[0]
        self.assertGreater(len(keep), 100)
        sub = self.ds.subset(keep)
        np.testing.assert_array_equal(R.int_eval_dataset(q, sub)[0], R.int_eval_dataset(self.plain, sub)[0])
        with self.assertRaises(ValueError):
            M.from_net(q, king_buckets=1)

    def train_with_decay(self, option, log_words, json_key):
        """One epoch from the bucketed test net with `option` at 0 and at 200; checks that each run
        succeeds and names the value in its log line and its JSON record. Returns {value: net path}."""
        import json

        import train

        args = tiny_training_args(self.cache) + ["--epochs", "1", "--init", self.net_path, "--king-buckets"]
        paths = {}
        for wd in (0.0, 200.0):
            out = os.path.join(self.tmp, f"{option.strip('-')}{wd:g}")
            rc, log = quiet(train.main, args + ["--out-dir", out, option, str(wd)])
            self.assertEqual(rc, 0, log)
            self.assertIn(f"{log_words} {wd:g}", log)
            paths[wd] = TrainedNetTest.only_net(out)
            with open(paths[wd][: -len(".nnue")] + ".json") as f:
                self.assertEqual(json.load(f)[json_key], wd)
        return paths

    def test_refactor_and_bucket_decay(self):
        import model as M
        import train

        model = M.from_net(self.net)
        before = N.net_bytes(model.quantised())
        w = model.ft.weight.detach()
        self.assertEqual(float(w[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES].abs().sum()), 0.0)
        # The buckets' mean moves into the shared block: the same net, now with a shared part.
        model.refactor_()
        self.assertEqual(N.net_bytes(model.quantised()), before)
        shared = w[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES].clone()
        self.assertGreater(float(shared.abs().sum()), 0.0)
        bucketed = w[: D.KB_FEATURES].view(D.KING_BUCKETS, D.FEATURES, -1)
        self.assertLess(float(bucketed.mean(dim=0).abs().max()), 1e-6)
        # Full decay leaves every bucket equal to the shared block.
        model.decay_buckets_(0.0)
        q = model.quantised()
        rows = q.ft_weight.reshape(D.KING_BUCKETS, D.FEATURES, -1)
        for b in range(1, D.KING_BUCKETS):
            np.testing.assert_array_equal(rows[b], rows[0])
        self.assertNotEqual(N.net_bytes(q), before)
        # Training with it: runs, records it, and the buckets end closer together than without.
        spread = {}
        for wd, path in self.train_with_decay("--bucket-decay", "bucket decay", "bucket_decay").items():
            rows = N.read_net(path).ft_weight.reshape(D.KING_BUCKETS, D.FEATURES, -1).astype(np.int64)
            spread[wd] = int(np.abs(rows - rows.mean(axis=0)).sum())
        self.assertLess(spread[200.0], spread[0.0])
        with self.assertRaises(SystemExit):  # no king buckets to decay
            quiet(train.main, tiny_training_args(self.cache) + ["--out-dir", os.path.join(self.tmp, "bad"),
                                                                "--bucket-decay", "1"])

    def test_feature_decay(self):
        import model as M
        import train

        model = M.from_net(self.net)
        bias = model.ft_bias.detach().clone()
        model.decay_features_(0.5)
        np.testing.assert_array_equal(model.ft_bias.detach().numpy(), bias.numpy())  # biases kept
        model.decay_features_(0.0)
        self.assertEqual(float(model.ft.weight.detach().abs().sum()), 0.0)
        # Training with it: runs, records it, and ends with smaller feature weights than without.
        size = {wd: int(np.abs(N.read_net(path).ft_weight.astype(np.int64)).sum())
                for wd, path in self.train_with_decay("--ft-decay", "feature decay", "ft_decay").items()}
        self.assertLess(size[200.0], size[0.0])
        with self.assertRaises(SystemExit):
            quiet(train.main, tiny_training_args(self.cache) + ["--out-dir", os.path.join(self.tmp, "bad"),
                                                                "--ft-decay", "-1"])

    def test_trained_net_file_and_reference(self):
        import model as M

        blob = read_bytes(self.net_path)
        self.assertEqual(struct.unpack_from("<8I", blob, 8), (2, 7560, 32, 8, 255, 256, 400, 0))
        self.assertEqual(len(blob), N.expected_size(32, 7560))
        self.assertEqual(N.net_bytes(self.net), blob)
        self.assertIn("king buckets 6", self.log)
        # The buckets learnt apart from each other, and the shared block within the limits.
        w = self.net.ft_weight.reshape(D.KING_BUCKETS, D.FEATURES, 32).astype(np.int32)
        self.assertGreater(int(np.abs(w[0] - w[3]).sum()), 0)
        self.assertLessEqual(int(np.abs(w).max()), round(N.FT_LIMIT * N.QA))
        # The integer reference close to the float model it came from.
        model, _ = M.load_checkpoint(os.path.join(self.tmp, "kb", "checkpoints", "epoch-0002.pt"))
        sub = self.ds.subset(slice(0, 200))
        q, overflows = R.int_eval_dataset(self.net, sub)
        diff = np.abs(q - M.evaluate(model, sub))
        self.assertEqual(overflows, 0)
        self.assertLessEqual(diff.mean(), MEAN_TOLERANCE)
        self.assertLessEqual(diff.max(), MAX_TOLERANCE)
        np.testing.assert_allclose(R.float_eval_features(model.float_weights(), sub.red, sub.black, sub.stm,
                                                         sub.bucket), M.evaluate(model, sub), atol=1e-3)

    def test_engine_evaluates_as_the_reference(self):
        engine = os.environ.get("CHARIOT_BIN")
        if not engine:
            self.skipTest("CHARIOT_BIN (the engine to compare) not set")

        samples = os.path.join(self.tmp, "samples.txt")
        rc, out = quiet(R.main, ["--samples", self.net_path, samples, "--data", SAMPLE])
        self.assertEqual(rc, 0, out)
        with open(samples) as f:
            lines = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
        self.assertGreaterEqual(len(lines), 45)
        script = [f"uci", f"setoption name EvalFile value {self.net_path}"]
        for _, fen in lines:
            script += [f"position fen {fen}", "eval"]
        run = subprocess.run([engine], input="\n".join(script + ["quit"]) + "\n", capture_output=True, text=True,
                             timeout=120)
        got = [int(x) for x in re.findall(r"NNUE \S+: (-?[0-9]+) \(side to move", run.stdout)]
        self.assertEqual(got, [int(v) for v, _ in lines], run.stdout[-2000:])


class SelfplayScoresTest(unittest.TestCase):
    """tools/tuning/selfplay_scores.py: the tuner's scored positions from a data file."""

    SCRIPT = os.path.join(HERE, "..", "tuning", "selfplay_scores.py")

    def run_script(self, *args):
        done = subprocess.run([sys.executable, self.SCRIPT, *args, SAMPLE], capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        return [line.split("\t") for line in done.stdout.splitlines()]

    def expected(self, every, offset):
        """(game, result, red's score, board, side) of every chosen training position, by replay."""
        rows, game_number = [], 0
        for g in D.read_games(SAMPLE):
            game_number += 1
            taken = 0
            for _, board, stm, score, flags in D.replay(g):
                if not flags & D.FLAG_QUIET:
                    continue
                taken += 1
                if (taken - 1) % every == offset:
                    rows.append((game_number, {0: 0.0, 1: 0.5, 2: 1.0}[g.result], score if stm == D.RED else -score,
                                 bytes(board), stm))
        return rows

    def check(self, every, offset):
        got = self.run_script("--every", str(every), "--offset", str(offset))
        want = self.expected(every, offset)
        self.assertEqual(len(got), len(want))
        for fields, (game, result, score, board, stm) in zip(got, want):
            self.assertEqual(len(fields), 4)
            self.assertEqual((int(fields[0]), float(fields[1]), int(fields[2])), (game, result, score))
            parsed_board, parsed_stm = D.parse_fen(fields[3])
            self.assertEqual((bytes(parsed_board), parsed_stm), (board, stm))

    def test_every_training_position(self):
        self.check(1, 0)
        self.assertEqual(len(self.expected(1, 0)), SAMPLE_QUIET)

    def test_every_fourth_from_the_second(self):
        self.check(4, 1)

    def test_black_to_move_scores_are_turned_to_red(self):
        rows = self.expected(1, 0)
        self.assertTrue(any(stm == D.BLACK and score != 0 for _, _, score, _, stm in rows))

    def test_max_positions_and_bad_arguments(self):
        self.assertEqual(len(self.run_script("--max-positions", "10")), 10)
        bad = subprocess.run([sys.executable, self.SCRIPT, "--every", "2", "--offset", "2", SAMPLE],
                             capture_output=True, text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("--offset", bad.stderr)


class FitKTest(unittest.TestCase):
    def test_recovers_a_known_scale(self):
        import train

        rng = np.random.default_rng(3)
        score = rng.normal(0, 500, 200000)
        result = (rng.random(len(score)) < 1 / (1 + np.exp(-score / 400))).astype(float)
        self.assertAlmostEqual(train.fit_k(score, result) / 400, 1.0, delta=0.05)


class HeadFormatTest(unittest.TestCase):
    """Version 3 nets (a hidden-layer head): the file, quantisation and the integer reference."""

    def test_write_read_round_trip(self):
        net = random_head_net(np.random.default_rng(1), bias_max=1 << 30)
        blob = N.net_bytes(net)
        self.assertEqual(struct.unpack_from("<8I", blob, 8), (3, 7560, 32, 8, 255, 256, 400, 16))
        self.assertEqual(len(blob), N.expected_size(32, 7560, 16))
        self.assertEqual(len(blob), 40 + 2 * 7560 * 32 + 2 * 32 + 8 * (16 * 64 + 16 * 4 + 16 * 2 + 4) + 4)
        self.assertEqual(struct.unpack_from("<I", blob, len(blob) - 4)[0], zlib.crc32(blob[:-4]))
        back = N.parse_net(blob)
        self.assertEqual(back.version, 3)
        self.assertEqual(N.net_bytes(back), blob)
        for name in ("l1_weight", "l1_bias", "l2_weight", "l2_bias"):
            np.testing.assert_array_equal(getattr(back.head, name), getattr(net.head, name))
        # Versions 1 and 2 are still written byte for byte as they are read.
        for path in ("chariot-86f46074b5ce.nnue", "chariot-4c6fb7c89614.nnue"):
            plain = read_bytes(os.path.join(HERE, "..", "..", "nets", path))
            self.assertEqual(N.net_bytes(N.parse_net(plain)), plain)

    def test_damaged_or_out_of_range_refused(self):
        net = random_head_net(np.random.default_rng(2))
        blob = bytearray(N.net_bytes(net))

        def refused(data, why):
            data = bytearray(data)
            data[-4:] = struct.pack("<I", zlib.crc32(bytes(data[:-4])))
            with self.assertRaisesRegex(N.NetError, why):
                N.parse_net(bytes(data))

        for size in (0, 4, 12, 40):
            bad = bytearray(blob)
            struct.pack_into("<I", bad, 36, size)
            refused(bad, "head size")
        refused(blob[:-9] + blob[-4:], "bytes; a net with hidden size")
        l1_at = 40 + 2 * 7560 * 32 + 2 * 32
        bad = bytearray(blob)
        bad[l1_at + 100] = 0x80  # -128
        refused(bad, "L1 weight is beyond")
        bias_at = l1_at + 8 * 16 * 64
        bad = bytearray(blob)
        struct.pack_into("<i", bad, bias_at, (1 << 30) + 1)
        refused(bad, "head bias")
        bad = bytearray(blob)
        bad[1000] ^= 1
        with self.assertRaisesRegex(N.NetError, "checksum"):
            N.parse_net(bytes(bad))
        with self.assertRaisesRegex(N.NetError, "head size 12"):
            N.quantise_head(np.zeros((8, 12, 64)), np.zeros((8, 12)), np.zeros((8, 12)), np.zeros(8), 32)
        with self.assertRaisesRegex(N.NetError, "does not fit"):
            N.quantise_head(np.full((8, 16, 64), 2.0), np.zeros((8, 16)), np.zeros((8, 16)), np.zeros(8), 32)

    def test_reference_of_a_random_net(self):
        # Random weights over their whole ranges: negative L1 sums (floor shift), clipped units,
        # large L2 weights and biases.
        net = random_head_net(np.random.default_rng(3))
        boards = list({bytes(b): (b, s) for b, s in sample_boards(every=13)}.values())[:40]
        got, overflows = R.int_eval_boards(net, [b for b, _ in boards], [s for _, s in boards])
        self.assertEqual(overflows, 0)
        self.assertEqual(got.tolist(), [slow_head_eval(net, b, s) for b, s in boards])
        self.assertGreater(len(set(got.tolist())), 30)

    def test_quantised_close_to_float(self):
        import torch

        import model as M

        # A fresh head on a king-bucketed feature transformer, its weights then spread wider than
        # the init's so that the units' clipping matters, and put on the integer grid (as
        # quantisation-aware training would): what remains is the activations' rounding, x's to
        # 1/127 above all, which large random L2 weights magnify (trained nets: HeadTrainingTest).
        torch.manual_seed(4)
        model = M.Net(64, king_buckets=D.KING_BUCKETS, head=16)
        with torch.no_grad():
            model.l1_weight.uniform_(-0.25, 0.25)
            model.l1_weight.copy_(torch.round(model.l1_weight * N.HEAD_QW) / N.HEAD_QW)
            model.l1_bias.uniform_(0.0, 0.6)
            model.l2_weight.uniform_(-1.5, 1.5)
            model.l2_weight.copy_(torch.round(model.l2_weight * N.QB) / N.QB)
            model.l2_bias.uniform_(-0.5, 0.5)
        net = model.quantised()
        self.assertEqual(net.version, 3)
        ds, _ = D.load_file(SAMPLE, os.path.join(tempfile.gettempdir(), "nnue-head-test-cache"), log=lambda m: None)
        f = M.evaluate(model, ds)
        q, _ = R.int_eval_dataset(N.parse_net(N.net_bytes(net)), ds)
        diff = q - f
        self.assertGreater(f.std(), 300)
        self.assertLessEqual(np.abs(diff).mean(), 0.025 * f.std())
        self.assertLessEqual(np.abs(diff).max(), 0.1 * f.std())
        np.testing.assert_allclose(R.float_eval_features(model.float_weights(), ds.red, ds.black, ds.stm,
                                                         ds.bucket), f, atol=1e-3)
        # Read back into a float model, the net quantises to the same bytes.
        self.assertEqual(N.net_bytes(M.from_net(net).quantised()), N.net_bytes(net))

    def test_head_samples_file_is_current(self):
        # tests/test_nnue.cpp compares the engine with these values: they must be the reference's.
        with open(HEAD_SAMPLES) as f:
            self.assertEqual(head_samples(sample_fens(HEAD_SAMPLES)), f.read())


class HeadTrainingTest(unittest.TestCase):
    """train.py --head: from a plain net through --init, export, resume, and the engine."""

    @classmethod
    def setUpClass(cls):
        import train

        cls.train = train
        cls.tmp = tempfile.mkdtemp(prefix="nnue-head-test-")
        cls.cache = os.path.join(cls.tmp, "cache")
        cls.args = tiny_training_args(cls.cache)
        rc, log = quiet(train.main, cls.args + ["--out-dir", os.path.join(cls.tmp, "plain"), "--epochs", "1"])
        assert rc == 0, log
        cls.plain_path = TrainedNetTest.only_net(os.path.join(cls.tmp, "plain"))
        cls.head_args = cls.args + ["--king-buckets", "--head", "16", "--init", cls.plain_path]
        rc, cls.log = quiet(train.main, cls.head_args + ["--out-dir", os.path.join(cls.tmp, "head"), "--epochs", "2"])
        assert rc == 0, cls.log
        cls.net_path = TrainedNetTest.only_net(os.path.join(cls.tmp, "head"))
        cls.net = N.read_net(cls.net_path)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_trained_head_net(self):
        import model as M

        self.assertIn("head 16", self.log)
        self.assertEqual(self.net.version, 3)
        self.assertEqual(self.net.head.size, 16)
        # The feature transformer came from the plain net (then trained on); the head is new.
        model, ckpt = M.load_checkpoint(os.path.join(self.tmp, "head", "checkpoints", "epoch-0002.pt"))
        self.assertEqual((model.head, ckpt["head"]), (16, 16))
        ds, _ = D.load_file(SAMPLE, self.cache, log=lambda m: None)
        sub = ds.subset(slice(0, 200))
        q, overflows = R.int_eval_dataset(self.net, sub)
        diff = np.abs(q - M.evaluate(model, sub))
        self.assertEqual(overflows, 0)
        self.assertLessEqual(diff.mean(), MEAN_TOLERANCE)
        self.assertLessEqual(diff.max(), MAX_TOLERANCE)
        self.assertEqual(N.net_bytes(model.quantised()), read_bytes(self.net_path))

    def test_fresh_head_from_the_plain_net(self):
        import model as M

        plain = N.read_net(self.plain_path)
        model = M.from_net(plain, king_buckets=D.KING_BUCKETS, head=16)
        q = model.quantised()
        self.assertEqual(q.version, 3)
        for b in range(D.KING_BUCKETS):
            np.testing.assert_array_equal(q.ft_weight[b * D.FEATURES : (b + 1) * D.FEATURES], plain.ft_weight)
        # The documented start: L1 biases 0.5 (64 * 127 / 2 + 32 for the rounding), small L2 weights.
        self.assertTrue(np.all(q.head.l1_bias == 4096))
        self.assertLessEqual(int(np.abs(q.head.l2_weight.astype(np.int32)).max()), round(0.05 * N.QB))
        self.assertTrue(np.all(q.head.l2_bias == 0))
        with self.assertRaises(ValueError):
            M.from_net(plain, head=16)  # no king buckets

    def test_resume_gives_the_same_net(self):
        d = os.path.join(self.tmp, "resume")
        ckpt = os.path.join(self.tmp, "head", "checkpoints", "epoch-0001.pt")
        rc, log = quiet(self.train.main, self.args + ["--king-buckets", "--head", "16", "--out-dir", d,
                                                      "--epochs", "2", "--resume", ckpt])
        self.assertEqual(rc, 0, log)
        self.assertNotIn("epoch 1/2", log)
        self.assertEqual(read_bytes(TrainedNetTest.only_net(d)), read_bytes(self.net_path))

    def test_bad_head_arguments(self):
        d = os.path.join(self.tmp, "bad")
        for extra in (["--head", "16"], ["--king-buckets", "--head", "12"], ["--king-buckets", "--head", "40"]):
            with self.assertRaises(SystemExit):
                quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "1"] + extra)
        rc, log = quiet(self.train.main, self.args + ["--out-dir", d, "--epochs", "1", "--king-buckets",
                                                      "--head", "8", "--init", self.net_path])
        self.assertEqual(rc, 1)
        self.assertIn("has a head of size 16", log)

    def test_engine_evaluates_as_the_reference(self):
        engine = os.environ.get("CHARIOT_BIN")
        if not engine:
            self.skipTest("CHARIOT_BIN (the engine to compare) not set")
        samples = os.path.join(self.tmp, "samples.txt")
        rc, out = quiet(R.main, ["--samples", self.net_path, samples, "--data", SAMPLE])
        self.assertEqual(rc, 0, out)
        with open(samples) as f:
            lines = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
        self.assertGreaterEqual(len(lines), 45)
        script = ["uci", f"setoption name EvalFile value {self.net_path}"]
        for _, fen in lines:
            script += [f"position fen {fen}", "eval"]
        run = subprocess.run([engine], input="\n".join(script + ["quit"]) + "\n", capture_output=True, text=True,
                             timeout=120)
        self.assertIn("head 16", run.stdout)
        got = [int(x) for x in re.findall(r"NNUE \S+: (-?[0-9]+) \(side to move", run.stdout)]
        self.assertEqual(got, [int(v) for v, _ in lines], run.stdout[-2000:])


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-head-samples"]:
        # The positions of the plain net's samples (every output bucket, both sides to move).
        fens = sample_fens(os.path.join(HERE, "..", "..", "tests", "data", "nnue_samples.txt"))
        with open(HEAD_SAMPLES, "w") as f:
            f.write(head_samples(fens))
        sys.exit(0)
    unittest.main()
