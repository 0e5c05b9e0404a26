"""The float NNUE model (PyTorch), its weight limits, checkpoints and export.

eval = (outWeight[b] . SCReLU(concat(acc_stm, acc_other)) + outBias[b]) * SCALE
acc_p = ftBias + sum of ftWeight[f] over perspective p's features,
SCReLU(x) = clamp(x, 0, 1)^2, b = the output bucket (piece count).

With king buckets (net format 2) a perspective's features are indexed by its
king's bucket (data.king_view_rows), and a factoriser trains beside them: one
more block of 1260 rows, shared by all buckets, which every position also sums.
What one bucket learns about a piece on a square then helps the other five,
which see the same piece far less often; the export folds the shared block
into each bucket's (ftWeight[b * 1260 + f] = bucketed + shared), so the
engine never sees it.

With a head (net format 3, --head L) the two perspectives' SCReLU outputs x
(2H of them, side to move's first) go through a small hidden layer chosen by
the output bucket: y = l1Weight[b] x + l1Bias[b] (L units), z = clamp(y, 0,
1) (clipped ReLU), eval = (l2Weight[b] . z + l2Bias[b]) * SCALE. The float
activations x and z in 0..1 are the integers 0..127 of the engine
(netfile.py's docstring has the scales). A fresh head starts almost linear:
l1Weight uniform in +-1 / sqrt(2H), l1Bias 0.5, so that the units sit inside
the clipped ReLU's live range, and l2Weight small (uniform in +-0.05, l2Bias
0), so that the first evaluations are near zero rather than large and random.
"""

import datetime
import hashlib
import json
import os
import sys

import numpy as np
import torch
from torch import nn

import data as D
import netfile as N

CHECKPOINT_VERSION = 1
HEAD_PARAMETERS = ("l1_weight", "l1_bias", "l2_weight", "l2_bias")


class Net(nn.Module):
    def __init__(self, hidden, qat=False, king_buckets=1, head=0):
        super().__init__()
        # Quantisation-aware training: the output layer computes with its weights rounded to
        # the int16 grid (1/QB), the gradient passing straight through the rounding.
        self.qat = qat
        if hidden <= 0 or hidden % 32 or hidden > N.MAX_HIDDEN:
            raise ValueError(f"hidden size {hidden} is not a positive multiple of 32 up to {N.MAX_HIDDEN}")
        self.hidden = hidden
        if king_buckets not in (1, D.KING_BUCKETS):
            raise ValueError(f"king buckets {king_buckets}: 1 or {D.KING_BUCKETS}")
        self.king_buckets = king_buckets
        if head and (king_buckets == 1 or not (N.HEAD_MIN <= head <= N.HEAD_MAX and head % 8 == 0)):
            raise ValueError(f"head size {head}: a multiple of 8 within {N.HEAD_MIN}..{N.HEAD_MAX}, with king buckets")
        self.head = head
        # Rows: the features (1260, or 6 x 1260 king-bucketed ones and then the
        # 1260 shared ones of the factoriser), then the padding row: always
        # zero, never trained or exported.
        self.features = D.FEATURES if king_buckets == 1 else D.KB_FEATURES + D.FEATURES
        self.pad = self.features
        self.ft = nn.EmbeddingBag(self.features + 1, hidden, mode="sum", padding_idx=self.pad)
        self.ft_bias = nn.Parameter(torch.zeros(hidden))
        if head:
            self.l1_weight = nn.Parameter(torch.zeros(D.BUCKETS, head, 2 * hidden))
            self.l1_bias = nn.Parameter(torch.full((D.BUCKETS, head), 0.5))
            self.l2_weight = nn.Parameter(torch.zeros(D.BUCKETS, head))
            self.l2_bias = nn.Parameter(torch.zeros(D.BUCKETS))
        else:
            self.out_weight = nn.Parameter(torch.zeros(D.BUCKETS, 2 * hidden))
            self.out_bias = nn.Parameter(torch.zeros(D.BUCKETS))
        with torch.no_grad():
            # About 20-30 active features: accumulators start spread around
            # 0.25 +- 0.25, so that most units sit in SCReLU's live range.
            self.ft.weight.uniform_(-0.08, 0.08)
            if king_buckets > 1:
                # The shared block carries the start; the buckets learn what differs.
                self.ft.weight[: D.KB_FEATURES].zero_()
            self.ft.weight[self.pad].zero_()
            self.ft_bias.fill_(0.25)
            bound = 1.0 / (2 * hidden) ** 0.5
            if head:
                self.l1_weight.uniform_(-bound, bound)
                self.l2_weight.uniform_(-0.05, 0.05)
            else:
                self.out_weight.uniform_(-bound, bound)

    def forward(self, features, offsets, bucket):
        """features/offsets: one flat EmbeddingBag input of 2B bags, the B side-to-move
        perspectives then the B others (see perspective_batch); returns eval / SCALE."""
        n = bucket.shape[0]
        acc = self.ft(features, offsets) + self.ft_bias  # [2B, H]
        a = torch.clamp(acc, 0.0, 1.0)
        a = (a * a).view(2, n, self.hidden)
        h = self.hidden
        if self.head:
            # The engine's x = floor(127 * a^2) (a's square in 0..255^2, >> 9) is on average half a
            # unit below 127 * a^2 wherever it is not 0: the float input follows it.
            x = torch.clamp(torch.cat([a[0], a[1]], dim=1) - N.HEAD_X_OFFSET, min=0.0)
            return self._head(x, bucket)
        # All 8 buckets' outputs by two small matrix products, then each position's own bucket.
        w = self.out_weight
        if self.qat:
            w = w + (torch.round(w * N.QB) / N.QB - w).detach()
        y = a[0] @ w[:, :h].t() + a[1] @ w[:, h:].t()
        return y.gather(1, bucket[:, None]).squeeze(1) + self.out_bias[bucket]

    def _head(self, x, bucket):
        w1, w2 = self.l1_weight, self.l2_weight
        if self.qat:
            w1 = w1 + (torch.round(w1 * N.HEAD_QW) / N.HEAD_QW - w1).detach()
            w2 = w2 + (torch.round(w2 * N.QB) / N.QB - w2).detach()
        # Positions grouped by output bucket, each group through its own bucket's head: an eighth
        # of the work of running all 8 heads on every position and picking one.
        order = torch.argsort(bucket)
        counts = torch.bincount(bucket, minlength=D.BUCKETS).tolist()
        xs = x.index_select(0, order).split(counts)
        out = torch.cat([
            torch.clamp(xs[b] @ w1[b].t() + self.l1_bias[b], 0.0, 1.0) @ w2[b] + self.l2_bias[b]
            for b in range(D.BUCKETS)
        ])
        return torch.empty_like(out).index_copy(0, order, out)

    @torch.no_grad()
    def refactor_(self):
        """Moves what the six buckets share into the factoriser's block: shared += the buckets'
        mean, each bucket -= it. Every bucket's sum (what the engine sees) stays the same; a net
        read from a format 2 file starts with all of its weights in the buckets and none shared,
        and decay toward the shared block (decay_buckets_) needs the common part there."""
        if self.king_buckets == 1:
            return
        w = self.ft.weight
        bucketed = w[: D.KB_FEATURES].view(D.KING_BUCKETS, D.FEATURES, self.hidden)
        mean = bucketed.mean(dim=0)
        bucketed.sub_(mean)
        w[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES].add_(mean)

    @torch.no_grad()
    def decay_buckets_(self, factor):
        """Shrinks each bucket's own weights (its difference from the shared block) by `factor`:
        a decoupled weight decay that pulls the buckets toward what they share, so that a bucket
        seen in few positions keeps close to the shared block instead of fitting them."""
        if self.king_buckets > 1:
            self.ft.weight[: D.KB_FEATURES].mul_(factor)

    @torch.no_grad()
    def decay_features_(self, factor):
        """Shrinks every feature weight (buckets and shared block alike) by `factor`: a decoupled
        weight decay toward zero, as AdamW's, for a transformer with more weights than its data
        can pin down. The biases are left alone."""
        self.ft.weight.mul_(factor)

    @torch.no_grad()
    def clip_(self):
        """Keeps the float weights inside what the integer net can hold (with a factoriser:
        the shared weights, and each bucket's sum with them)."""
        w = self.ft.weight
        if self.king_buckets > 1:
            shared = w[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES]
            shared.clamp_(-N.FT_LIMIT, N.FT_LIMIT)
            bucketed = w[: D.KB_FEATURES].view(D.KING_BUCKETS, D.FEATURES, self.hidden)
            bucketed.copy_(torch.maximum(torch.minimum(bucketed, N.FT_LIMIT - shared), -N.FT_LIMIT - shared))
        else:
            w.clamp_(-N.FT_LIMIT, N.FT_LIMIT)
        w[self.pad].zero_()
        self.ft_bias.clamp_(-N.FT_LIMIT, N.FT_LIMIT)
        if self.head:
            self.l1_weight.clamp_(-N.L1_LIMIT, N.L1_LIMIT)
            self.l2_weight.clamp_(-N.L2_LIMIT, N.L2_LIMIT)
            l1_bias = N.HEAD_BIAS_MAX / (N.HEAD_QX * N.HEAD_QW)
            l2_bias = N.HEAD_BIAS_MAX / (N.HEAD_QX * N.QB)
            self.l1_bias.clamp_(-l1_bias, l1_bias)
            self.l2_bias.clamp_(-l2_bias, l2_bias)
        else:
            self.out_weight.clamp_(-N.OUT_LIMIT, N.OUT_LIMIT)

    def float_weights(self):
        """numpy float64 arrays in the net file's layout."""
        ft = self.ft.weight.detach().cpu().double()
        if self.king_buckets > 1:
            shared = ft[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES]
            ft = (ft[: D.KB_FEATURES].view(D.KING_BUCKETS, D.FEATURES, self.hidden) + shared).reshape(
                D.KB_FEATURES, self.hidden)
        else:
            ft = ft[: D.FEATURES]

        def arr(t):
            return t.detach().cpu().double().numpy().copy()

        out = {"ft_weight": ft.numpy().copy(), "ft_bias": arr(self.ft_bias)}
        for name in HEAD_PARAMETERS if self.head else ("out_weight", "out_bias"):
            out[name] = arr(getattr(self, name))
        return out

    def quantised(self):
        w = self.float_weights()
        if self.head:
            return N.quantise(w["ft_weight"], w["ft_bias"], None, None, head={k: w[k] for k in HEAD_PARAMETERS})
        return N.quantise(w["ft_weight"], w["ft_bias"], w["out_weight"], w["out_bias"])


def perspective_batch(red, black, stm, mirror=None, king_buckets=1):
    """The EmbeddingBag input (flat features, offsets) of a batch: the side to move's feature
    rows, then the other side's, without the padding. `mirror` is an optional bool array of rows
    to mirror left-right. With king buckets each bag holds a position's bucketed features and
    its shared (factoriser) ones, numbered as the model's rows."""
    if mirror is not None and mirror.any():
        red = np.where(mirror[:, None], D.MIRROR_TABLE[red], red)
        black = np.where(mirror[:, None], D.MIRROR_TABLE[black], black)
    black_to_move = (stm == D.BLACK)[:, None]
    rows = np.concatenate([np.where(black_to_move, black, red), np.where(black_to_move, red, black)])
    pad = D.PAD
    if king_buckets > 1:
        bucketed, plain = D.king_view_rows(rows)
        pad = D.KB_FEATURES + D.FEATURES
        rows = np.concatenate([bucketed, np.where(plain != D.PAD, plain + D.KB_FEATURES, pad)], axis=1)
        rows[rows == D.KB_FEATURES] = pad  # the bucketed rows' padding
    real = rows != pad
    features = rows[real].astype(np.int64)  # row-major: each bag's features in turn
    offsets = np.zeros(len(rows), dtype=np.int64)
    np.cumsum(np.count_nonzero(real, axis=1)[:-1], out=offsets[1:])
    return torch.from_numpy(features), torch.from_numpy(offsets)


def evaluate(model, dataset, batch=65536):
    """Float evals (internal units) of a Dataset, as float64 numpy."""
    out = []
    device = model.ft_bias.device
    model.eval()
    with torch.no_grad():
        for lo in range(0, len(dataset), batch):
            sl = slice(lo, lo + batch)
            features, offsets = perspective_batch(dataset.red[sl], dataset.black[sl], dataset.stm[sl],
                                                  king_buckets=model.king_buckets)
            bucket = torch.from_numpy(dataset.bucket[sl].astype(np.int64))
            y = model(features.to(device), offsets.to(device), bucket.to(device))
            out.append(y.cpu().double().numpy() * N.SCALE)
    return np.concatenate(out) if out else np.zeros(0)


def from_net(net, qat=False, hidden=None, king_buckets=None, head=None):
    """A float model holding a quantised net's weights (a QuantisedNet), to train further:
    quantising it again gives the same integers. With a larger `hidden` the net is widened:
    units beyond its own start with fresh feature weights and zero output weights, so the
    model evaluates exactly as the net until training gives them a say. A net without king
    buckets becomes a king-bucketed model (`king_buckets` 6) through the factoriser: its
    weights are the shared block, the buckets start at zero. A `head` size (king buckets
    only) gives a net without one a fresh head (Net's init) in place of its output layer; a
    version 3 net keeps its own head."""
    if net.scale != N.SCALE:
        raise N.NetError(f"the net's SCALE is {net.scale}; training uses {N.SCALE}")
    h0 = net.hidden
    hidden = h0 if hidden is None else hidden
    if hidden < h0:
        raise ValueError(f"cannot narrow a net of hidden size {h0} to {hidden}")
    king_buckets = net.king_buckets if king_buckets is None else king_buckets
    if king_buckets < net.king_buckets:
        raise ValueError(f"cannot take the king buckets out of a net that has {net.king_buckets}")
    if net.head is not None:
        if head not in (None, net.head.size):
            raise ValueError(f"the net has a head of size {net.head.size}, not {head}")
        head = net.head.size
    if head and king_buckets == 1:
        raise ValueError("a head needs king buckets")
    model = Net(hidden, qat=qat, king_buckets=king_buckets, head=head or 0)
    with torch.no_grad():
        weights = torch.from_numpy(net.ft_weight.astype(np.float64) / N.QA)
        if king_buckets > 1:
            model.ft.weight[: model.features, :h0] = 0.0
        if king_buckets > net.king_buckets:
            model.ft.weight[D.KB_FEATURES : D.KB_FEATURES + D.FEATURES, :h0] = weights
        else:
            model.ft.weight[: len(weights), :h0] = weights
        model.ft.weight[model.pad].zero_()
        model.ft_bias[:h0] = torch.from_numpy(net.ft_bias.astype(np.float64) / N.QA)
        if net.head is not None:
            q = net.head
            l1 = torch.from_numpy(q.l1_weight.astype(np.float64) / N.HEAD_QW)
            # As the output weights below: new units' L1 columns are zero.
            model.l1_weight.zero_()
            model.l1_weight[:, :, :h0] = l1[:, :, :h0]
            model.l1_weight[:, :, hidden : hidden + h0] = l1[:, :, h0:]
            model.l1_bias.copy_(torch.from_numpy((q.l1_bias.astype(np.float64) - N.HEAD_L1_BIAS_ROUND)
                                                 / (N.HEAD_QX * N.HEAD_QW)))
            model.l2_weight.copy_(torch.from_numpy(q.l2_weight.astype(np.float64) / net.qb))
            model.l2_bias.copy_(torch.from_numpy(q.l2_bias.astype(np.float64) / (N.HEAD_QX * net.qb)))
        elif not model.head:
            out = torch.from_numpy(net.out_weight.astype(np.float64) / net.qb)
            model.out_weight.zero_()
            # Output weights: the side to move's units, then the other side's, each block `hidden` wide.
            model.out_weight[:, :h0] = out[:, :h0]
            model.out_weight[:, hidden : hidden + h0] = out[:, h0:]
            model.out_bias.copy_(torch.from_numpy(net.out_bias.astype(np.float64) / (N.QA * net.qb)))
    return model


# ---------------------------------------------------------------------------
# Checkpoints


def save_checkpoint(path, model, optimizer, state):
    tmp = path + ".tmp"
    torch.save({"version": CHECKPOINT_VERSION, "hidden": model.hidden, "qat": model.qat,
                "king_buckets": model.king_buckets, "head": model.head, "model": model.state_dict(),
                "optimizer": optimizer.state_dict() if optimizer else None, **state}, tmp)
    os.replace(tmp, path)


def load_checkpoint(path):
    ckpt = torch.load(path, map_location="cpu")
    if not isinstance(ckpt, dict) or ckpt.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: not a Chariot NNUE checkpoint (version {CHECKPOINT_VERSION})")
    model = Net(ckpt["hidden"], qat=ckpt.get("qat", False), king_buckets=ckpt.get("king_buckets", 1),
                head=ckpt.get("head", 0))
    model.load_state_dict(ckpt["model"])
    return model, ckpt


# ---------------------------------------------------------------------------
# Export


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def target_loss(evals, dataset, k, lam):
    """The training loss of given evals (internal units) on a Dataset, in numpy."""
    pred = 1 / (1 + np.exp(-np.asarray(evals, dtype=np.float64) / k))
    target = lam / (1 + np.exp(-dataset.score.astype(np.float64) / k)) + (1 - lam) * dataset.result * 0.5
    return float(np.mean((pred - target) ** 2))


def export(model, out_dir=None, out=None, provenance=None, check=None, k=None, lam=None):
    """Quantises and writes the net (named by content hash in out_dir unless `out` is given) and
    a JSON provenance file next to it. `check` is an optional Dataset on which the integer
    reference is compared with the float model (and, given k and lam, both losses computed).
    Returns (net path, provenance dict)."""
    import nnue_ref

    net = model.quantised()
    path = N.write_net(net, out=out, out_dir=out_dir)
    info = dict(provenance or {})
    info.update({
        "net": os.path.basename(path),
        "net_sha256": sha256_file(path),
        "format": {"features": D.FEATURES * model.king_buckets, "hidden": model.hidden, "buckets": D.BUCKETS, "QA": N.QA, "QB": N.QB,
                   "SCALE": N.SCALE},
        "exported": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    })
    if model.head:
        info["format"].update(version=net.version, head=model.head)
    if check is not None and len(check):
        f = evaluate(model, check)
        q, overflows = nnue_ref.int_eval_dataset(net, check)
        diff = np.abs(q - f)
        info["quantisation_check"] = {"positions": int(len(check)), "mean_abs_diff": round(float(diff.mean()), 3),
                                      "max_abs_diff": round(float(diff.max()), 3), "int32_overflows": int(overflows)}
        if k is not None and lam is not None:
            info["quantisation_check"]["float_loss"] = target_loss(f, check, k, lam)
            info["quantisation_check"]["integer_loss"] = target_loss(q, check, k, lam)
    with open(os.path.splitext(path)[0] + ".json", "w") as fh:
        json.dump(info, fh, indent=1)
        fh.write("\n")
    return path, info


def main(argv=None):
    import argparse

    ap = argparse.ArgumentParser(description="Export a checkpoint as a quantised Chariot net file.")
    ap.add_argument("checkpoint")
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--out-dir", help="write DIR/chariot-<sha256[:12]>.nnue (and .json)")
    g.add_argument("--out", help="write this file (and the .json beside it)")
    args = ap.parse_args(argv)
    model, ckpt = load_checkpoint(args.checkpoint)
    prov = dict(ckpt.get("provenance", {}))
    prov["checkpoint"] = os.path.abspath(args.checkpoint)
    prov["export_command"] = " ".join(sys.argv)
    path, _ = export(model, out_dir=args.out_dir, out=args.out, provenance=prov)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
