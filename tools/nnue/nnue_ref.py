#!/usr/bin/python3
"""Reference evaluation of a Chariot net: the exact integer arithmetic of the C++
inference (numpy), and the float model of a checkpoint.

    nnue_ref.py NET.nnue FEN...               one integer eval per FEN (side to move's view)
    nnue_ref.py NET.nnue < fens.txt           the same, one FEN per line
    nnue_ref.py --checkpoint CKPT FEN...      float evals of a training checkpoint
    nnue_ref.py --samples NET.nnue OUT.txt --data FILE.data
                                              ~50 varied positions as "<int eval>\\t<FEN>" lines
                                              after a line "# net <NET's file name>"

Integer evaluation (the spec; C++ uses int32 sums and truncating division):
    acc[j] = ftBias[j] + sum_f ftWeight[f][j]            (int16, no overflow with the weight limits)
    v = clamp(acc, 0, QA)
    s = sum_j v_stm[j]^2 * outW[b][j] + sum_j v_oth[j]^2 * outW[b][H + j]   (int32)
    s = trunc(s / QA) + outBias[b]
    eval = trunc(s * SCALE / (QA * QB))                   (int64, truncation toward zero)
QB and SCALE are the net file's (netfile.QB for the nets written now).

A version 3 net (a hidden-layer head of L units per output bucket b) instead:
    x = clamp(acc, 0, QA)^2 >> 9                          (0..127; the side to move's H, then the other's)
    y[k] = l1Bias[b][k] + sum_j x[j] * l1Weight[b][k][j]   (int32, never overflows)
    z[k] = clamp(y[k] >> 6, 0, 127)                       (arithmetic shift: floor)
    s = l2Bias[b] + sum_k z[k] * l2Weight[b][k]
    eval = trunc(s * SCALE / (127 * QB))
"""

import argparse
import os
import sys

import numpy as np

import data as D
import netfile as N

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def trunc_div(a, b):
    """Integer division truncating toward zero (C semantics) for int64 arrays or ints, b > 0."""
    a = np.asarray(a, dtype=np.int64)
    return np.sign(a) * (np.abs(a) // b)


def _padded_ft(weights, dtype=np.int64):
    """The feature weights with an all-zero padding row last (D.PAD, or D.KB_FEATURES for a
    king-bucketed net)."""
    ft = np.zeros((weights.shape[0] + 1, weights.shape[1]), dtype=dtype)
    ft[:-1] = weights
    return ft


def _view_rows(rows, features):
    """A perspective's rows as the net with `features` feature weights indexes them."""
    return D.king_view_rows(rows)[0] if features == D.KB_FEATURES else np.asarray(rows, dtype=np.int64)


def int_eval_features(net, red, black, stm, bucket, chunk=2048):
    """Integer evals for arrays of positions: red/black [N, 32] feature rows (PAD-filled),
    stm [N], bucket [N]. Returns (int64 evals, number of positions whose int32 sum overflowed;
    for those the eval is computed as a wrapping int32 implementation would)."""
    ft = _padded_ft(net.ft_weight)
    evals, overflows = [], 0
    for lo in range(0, len(stm), chunk):
        sl = slice(lo, lo + chunk)
        e, o = _int_eval_chunk(net, ft, red[sl], black[sl], stm[sl], bucket[sl])
        evals.append(e)
        overflows += o
    return (np.concatenate(evals) if evals else np.zeros(0, np.int64)), overflows


def _int_eval_chunk(net, ft, red, black, stm, bucket):
    h = net.hidden
    stm = np.asarray(stm)
    bucket = np.asarray(bucket, dtype=np.int64)
    acc = []
    for rows in (np.asarray(red), np.asarray(black)):
        a = net.ft_bias.astype(np.int64) + ft[_view_rows(rows, len(ft) - 1)].sum(axis=1)
        if a.size and (a.min() < -32768 or a.max() > 32767):
            raise OverflowError("an accumulator left int16: the net breaks the weight limits")
        acc.append(np.clip(a, 0, N.QA))
    black_to_move = (stm == D.BLACK)[:, None]
    v_us = np.where(black_to_move, acc[1], acc[0])
    v_them = np.where(black_to_move, acc[0], acc[1])
    if net.head is not None:
        return _int_head(net, np.concatenate([v_us, v_them], axis=1), bucket), 0
    w = net.out_weight.astype(np.int64)[bucket]
    s = (v_us * v_us * w[:, :h]).sum(axis=1) + (v_them * v_them * w[:, h:]).sum(axis=1)
    overflow = (s < INT32_MIN) | (s > INT32_MAX)
    s = np.where(overflow, (s + (1 << 31)) % (1 << 32) - (1 << 31), s)
    s = trunc_div(s, N.QA) + net.out_bias.astype(np.int64)[bucket]
    return trunc_div(s * net.scale, N.QA * net.qb), int(np.count_nonzero(overflow))


def _int_head(net, v, bucket):
    """A version 3 net's head on the clamped accumulators v [N, 2H] (int64)."""
    head = net.head
    x = (v * v) >> 9
    s = np.zeros(len(v), dtype=np.int64)
    for b in np.unique(bucket):
        rows = bucket == b
        y = x[rows] @ head.l1_weight[b].astype(np.int64).T + head.l1_bias[b].astype(np.int64)
        z = np.clip(y >> N.HEAD_SHIFT, 0, N.HEAD_QX)
        s[rows] = z @ head.l2_weight[b].astype(np.int64) + np.int64(head.l2_bias[b])
    return trunc_div(s * net.scale, N.HEAD_QX * net.qb)


def int_eval_dataset(net, dataset):
    return int_eval_features(net, dataset.red, dataset.black, dataset.stm, dataset.bucket)


def int_eval_boards(net, boards, stms):
    red, black, bucket = D.features_of_boards(np.frombuffer(b"".join(bytes(b) for b in boards), np.uint8))
    stms = np.asarray(stms)
    return int_eval_features(net, red, black, np.asarray(stms), bucket)


def int_eval_fen(net, fen):
    board, stm = D.parse_fen(fen)
    evals, overflows = int_eval_boards(net, [board], [stm])
    if overflows:
        print(f"warning: the int32 sum overflows for {fen!r}", file=sys.stderr)
    return int(evals[0])


def float_eval_features(weights, red, black, stm, bucket):
    """Float evals (internal units, float64) from float weights in the net layout."""
    ft = _padded_ft(weights["ft_weight"], np.float64)
    h = ft.shape[1]
    acc = [np.clip(weights["ft_bias"] + ft[_view_rows(r, len(ft) - 1)].sum(axis=1), 0.0, 1.0) ** 2
           for r in (red, black)]
    black_to_move = (np.asarray(stm) == D.BLACK)[:, None]
    a_us = np.where(black_to_move, acc[1], acc[0])
    a_them = np.where(black_to_move, acc[0], acc[1])
    bucket = np.asarray(bucket, dtype=np.int64)
    if "l1_weight" in weights:  # a head: x = a^2, clipped ReLU of L1, then L2 (model.Net.forward)
        x = np.maximum(np.concatenate([a_us, a_them], axis=1) - N.HEAD_X_OFFSET, 0.0)
        y = np.einsum("nj,nkj->nk", x, weights["l1_weight"][bucket]) + weights["l1_bias"][bucket]
        z = np.clip(y, 0.0, 1.0)
        return ((z * weights["l2_weight"][bucket]).sum(axis=1) + weights["l2_bias"][bucket]) * N.SCALE
    w = weights["out_weight"][bucket]
    y = (a_us * w[:, :h]).sum(axis=1) + (a_them * w[:, h:]).sum(axis=1) + weights["out_bias"][bucket]
    return y * N.SCALE


def checkpoint_weights(path):
    import model as M

    net, _ = M.load_checkpoint(path)
    return net.float_weights()


def float_eval_fens(weights, fens):
    boards, stms = zip(*(D.parse_fen(f) for f in fens))
    red, black, bucket = D.features_of_boards(np.frombuffer(b"".join(bytes(b) for b in boards), np.uint8))
    return float_eval_features(weights, red, black, np.asarray(stms), bucket)


# ---------------------------------------------------------------------------
# Legality (enough to write sample FENs the engine accepts)


def _king_square(board, color):
    return bytes(board).index(D.piece_code(color, D.KING))


def king_attacked(board, color):
    """Whether `color`'s king is attacked (the kings facing each other counts)."""
    enemy = 1 - color
    k = _king_square(board, color)
    kr, kf = divmod(k, 9)

    def at(r, f):
        return board[r * 9 + f] if 0 <= r <= 9 and 0 <= f <= 8 else None

    rook, cannon, horse, pawn, king = (D.piece_code(enemy, t) for t in (4, 5, 3, 6, 0))
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f, screens = kr + dr, kf + df, 0
        while (v := at(r, f)) is not None:
            if v:
                if screens == 0 and (v == rook or (v == king and df == 0)):
                    return True
                if screens == 1 and v == cannon:
                    return True
                screens += 1
                if screens > 1:
                    break
            r, f = r + dr, f + df
    for dr, df in ((1, 2), (1, -2), (-1, 2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
        hr, hf = kr - dr, kf - df  # a horse there moving by (dr, df) lands on the king
        if at(hr, hf) == horse:
            leg = (hr + dr // 2, hf) if abs(dr) == 2 else (hr, hf + df // 2)
            if at(*leg) == D.EMPTY:
                return True
    forward = 1 if enemy == D.RED else -1  # the direction enemy pawns move
    if at(kr - forward, kf) == pawn or at(kr, kf - 1) == pawn or at(kr, kf + 1) == pawn:
        return True
    return False


def acceptable(board, stm):
    """The side not to move is not in check (nor are the kings facing)."""
    return not king_attacked(board, 1 - stm)


def sample_positions(paths, count=50, seed=1, max_games=400):
    """About `count` varied positions (board, stm) from data files: spread over the output
    buckets and both sides to move, plus a few with few pieces made by removing pieces."""
    rng = np.random.default_rng(seed)
    groups = {}
    games = 0
    for path in paths:
        for game in D.read_games(path):
            games += 1
            try:
                for i, board, stm, _, _ in D.replay(game):
                    if i < 2:
                        continue
                    count_ = sum(1 for v in board if v) - 2
                    key = (min(7, count_ // 4), stm)
                    groups.setdefault(key, []).append(board)
            except D.DataError:
                continue
            if games >= max_games:
                break
    if not groups:
        raise D.DataError("no positions in the data files")
    chosen = []
    seen = set()

    def add(board, stm):
        fen = D.board_to_fen(board, stm)
        if fen not in seen and acceptable(board, stm):
            seen.add(fen)
            chosen.append((bytes(board), stm))
            return True
        return False

    start, start_stm = D.parse_fen(D.START_FEN)
    add(start, start_stm)
    add(start, D.BLACK)
    per_group = max(1, (count * 3 // 4) // len(groups))
    for key in sorted(groups):
        boards = groups[key]
        for j in rng.permutation(len(boards))[: per_group * 3]:
            if sum(1 for b, s in chosen if (min(7, (sum(1 for v in b if v) - 2) // 4), s) == key) >= per_group:
                break
            add(boards[j], key[1])
    # Endings with few pieces (2 to 9 besides the kings), by removing pieces from game positions.
    pool = [b for boards in groups.values() for b in boards]
    tries = 0
    while len(chosen) < count and tries < 10000:
        tries += 1
        board = bytearray(pool[rng.integers(len(pool))])
        squares = [sq for sq, v in enumerate(board) if v and D.type_of(v) != D.KING]
        keep = int(rng.integers(2, 10))
        if len(squares) <= keep:
            continue
        for sq in rng.choice(squares, size=len(squares) - keep, replace=False):
            board[sq] = D.EMPTY
        add(board, int(rng.integers(2)))
    return chosen


def write_samples(net, out, data_paths, count=50, seed=1, net_name=None):
    """Writes "<int eval>\t<FEN>" lines, after a first line "# net <net_name>" when it is given."""
    positions = sample_positions(data_paths, count, seed)
    evals, overflows = int_eval_boards(net, [b for b, _ in positions], [s for _, s in positions])
    if overflows:
        raise OverflowError(f"{overflows} sample positions overflow the int32 sum; the net is not usable")
    with open(out, "w") as f:
        if net_name:
            f.write(f"# net {net_name}\n")
        for (board, stm), e in zip(positions, evals):
            f.write(f"{int(e)}\t{D.board_to_fen(board, stm)}\n")
    return len(positions)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Reference evaluation of a Chariot NNUE net.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("net", nargs="?", help="net file (CHRTNNUE)")
    ap.add_argument("fens", nargs="*", help="FENs (quote each); none: read FENs from stdin, one a line")
    ap.add_argument("--checkpoint", help="evaluate with the float model of this training checkpoint instead")
    ap.add_argument("--samples", nargs=2, metavar=("NET", "OUT"), help="write sample evals for the C++ tests")
    ap.add_argument("--data", nargs="+", default=[], help="data files to take the sample positions from")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        if args.samples:
            if not args.data:
                ap.error("--samples needs --data FILE")
            net = N.read_net(args.samples[0])
            n = write_samples(net, args.samples[1], args.data, args.count, args.seed,
                              os.path.basename(args.samples[0]))
            print(f"wrote {n} positions to {args.samples[1]}")
            return 0
        fens = list(args.fens)
        if args.checkpoint:
            if args.net:
                fens.insert(0, args.net)
        elif not args.net:
            ap.error("give a net file, --checkpoint or --samples")
        if not fens:
            fens = [line.strip() for line in sys.stdin if line.strip()]
        if args.checkpoint:
            weights = checkpoint_weights(args.checkpoint)
            for e in float_eval_fens(weights, fens):
                print(f"{e:.2f}")
        else:
            net = N.read_net(args.net)
            for fen in fens:
                print(int_eval_fen(net, fen))
        return 0
    except (OSError, N.NetError, D.DataError, OverflowError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
