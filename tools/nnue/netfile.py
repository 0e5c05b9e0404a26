"""The Chariot NNUE net file (CHRTNNUE versions 1, 2 and 3): quantisation, writing, reading.

Layout (little-endian): "CHRTNNUE", u32 version = 1, u32 features = 1260,
u32 hidden H, u32 output buckets = 8, u32 QA = 255, u32 QB (256 for the nets
written here; readers take it from the header), u32 SCALE = 400,
u32 reserved = 0 (40 bytes); int16 ftWeight[1260][H]
(feature-major), int16 ftBias[H], int16 outWeight[8][2H] (per bucket: the side
to move's half, then the other side's), int32 outBias[8]; u32 CRC-32 (zlib) of
every preceding byte.

Version 2 (king buckets) is the same layout with features = 6 * 1260 = 7560:
ftWeight[b * 1260 + f] is feature f of a perspective whose own king is in
bucket b (data.king_view_rows says which bucket, and when the board is mirrored).

Version 3 (a hidden-layer head) has version 2's features and feature
transformer, and the header's reserved u32 holds the head's width L (8..32, a
multiple of 8). In place of outWeight and outBias come, per output bucket b:
int8 l1Weight[8][L][2H] (output unit k's row over the 2H inputs: the side to
move's H, then the other side's), int32 l1Bias[8][L], int16 l2Weight[8][L],
int32 l2Bias[8]; then the CRC. Its integer evaluation (nnue_ref.py; scales in
HEAD_QX, HEAD_QW and QB):
    x_j = clamp(acc_j, 0, 255)^2 >> 9                    0..127 (~127 * clamp(a, 0, 1)^2)
    y_k = l1Bias[b][k] + sum_j x_j * l1Weight[b][k][j]   int32; weights -127..127
    z_k = clamp(y_k >> 6, 0, 127)                        arithmetic shift (floor)
    s = l2Bias[b] + sum_k z_k * l2Weight[b][k]           int32
    eval = trunc(s * SCALE / (127 * QB))
Float to integer: l1Weight = round(w * 64), l1Bias = round(b * 127 * 64) +
32, l2Weight = round(w * QB), l2Bias = round(b * 127 * QB): a float
activation of 1.0 is 127, and y >> 6 divides out the 64 of the L1 weights;
the 32 added to l1Bias makes that floor a rounding to nearest (otherwise z
would be half a unit low on average, a bias the L2 weights would add up).
The biases stay within +-2^30, so that no int32 sum can overflow.

Only numpy here, so that the reference evaluation runs without torch.
"""

import dataclasses
import hashlib
import os
import struct
import zlib

import numpy as np

NET_MAGIC = b"CHRTNNUE"
NET_VERSION = 1  # a net without king buckets
NET_VERSION_KING_BUCKETS = 2
NET_VERSION_HEAD = 3
NET_HEADER_BYTES = 40
FEATURES = 1260  # a king bucket
KING_BUCKETS = 6  # in a version 2 net
BUCKETS = 8
MAX_HIDDEN = 1024  # the engine's limit
QA = 255
# QB 256 rather than 64: with 64 the output weights' rounding moved evals by
# about 10 internal units (hidden 256); with 256 by a few.
QB = 256
SCALE = 400
# Every |output weight| is at most OUT_MAX, so that v * w (v <= QA) fits int16:
# the engine's SIMD product multiplies v by v * w in 16-bit lanes.
OUT_MAX = 128
# Float weight limits kept during training so that the integers fit: 33 terms
# of |w * QA| <= 505 stay far inside int16, and round(OUT_LIMIT * QB) = OUT_MAX.
FT_LIMIT = 1.98
OUT_LIMIT = OUT_MAX / QB
# The head of a version 3 net (see the docstring). 8 <= L <= 32: the engine's
# buffers; a multiple of 8: its SIMD kernel takes outputs four at a time.
HEAD_QX = 127  # an activation of 1.0 (x and z)
HEAD_QW = 64  # the L1 weights' scale; y >> 6 divides it out
HEAD_SHIFT = 6
HEAD_L1_BIAS_ROUND = 1 << (HEAD_SHIFT - 1)  # added to l1Bias: y >> 6 rounds to nearest
# The float model's L1 input is max(a^2 - HEAD_X_OFFSET, 0): the integer x, a floor, is half a
# unit (of 127) below 127 * a^2 on average, and a bias the L1 weights would add up.
HEAD_X_OFFSET = 0.5 / HEAD_QX
HEAD_MIN, HEAD_MAX = 8, 32
# |l1Weight| <= 127 with x <= 127: a pair x0 * w0 + x1 * w1 fits int16, so
# the engine's u8 x i8 pair products (AVX2 maddubs) never saturate.
L1_MAX = 127
L1_LIMIT = L1_MAX / HEAD_QW
L2_LIMIT = 127.0  # |l2Weight| <= 127 * QB fits int16
HEAD_BIAS_MAX = 1 << 30


class NetError(Exception):
    """A net file that is damaged or not one this code reads."""


@dataclasses.dataclass
class Head:
    """A version 3 net's head: per output bucket 2H -> L -> 1."""
    l1_weight: np.ndarray  # [8, L, 2H] int8
    l1_bias: np.ndarray  # [8, L] int32
    l2_weight: np.ndarray  # [8, L] int16
    l2_bias: np.ndarray  # [8] int32

    @property
    def size(self):
        return self.l1_weight.shape[1]


@dataclasses.dataclass
class QuantisedNet:
    hidden: int
    ft_weight: np.ndarray  # [king_buckets * 1260, H] int16
    ft_bias: np.ndarray  # [H] int16
    out_weight: np.ndarray  # [8, 2H] int16 (None in a version 3 net)
    out_bias: np.ndarray  # [8] int32 (None in a version 3 net)
    qb: int = QB  # the output layer's scale, as the header says
    scale: int = SCALE
    head: Head = None  # a version 3 net's head

    @property
    def king_buckets(self):
        return self.ft_weight.shape[0] // FEATURES

    @property
    def version(self):
        if self.head is not None:
            return NET_VERSION_HEAD
        return NET_VERSION if self.king_buckets == 1 else NET_VERSION_KING_BUCKETS


def _to_int(x, scale, dtype, limit=None):
    q = np.round(np.asarray(x, dtype=np.float64) * scale)
    info = np.iinfo(dtype)
    lo, hi = (info.min, info.max) if limit is None else (-limit, limit)
    if q.size and (q.min() < lo or q.max() > hi):
        raise NetError(f"a weight does not fit {lo}..{hi} ({np.dtype(dtype).name}) after scaling by {scale}: "
                       f"range {q.min()}..{q.max()}")
    return q.astype(dtype)


def quantise_head(l1_weight, l1_bias, l2_weight, l2_bias, hidden, qb=QB):
    """Float head weights ([8, L, 2H], [8, L], [8, L], [8]) -> Head, at the scales of the docstring."""
    l1_weight = np.asarray(l1_weight, dtype=np.float64)
    size = l1_weight.shape[1] if l1_weight.ndim == 3 else 0
    if (l1_weight.shape != (BUCKETS, size, 2 * hidden) or np.shape(l1_bias) != (BUCKETS, size)
            or np.shape(l2_weight) != (BUCKETS, size) or np.shape(l2_bias) != (BUCKETS,)):
        raise NetError(f"unexpected head shapes {l1_weight.shape} {np.shape(l1_bias)} {np.shape(l2_weight)} "
                       f"{np.shape(l2_bias)}")
    if not (HEAD_MIN <= size <= HEAD_MAX and size % 8 == 0):
        raise NetError(f"head size {size} is not a multiple of 8 within {HEAD_MIN}..{HEAD_MAX}")
    return Head(_to_int(l1_weight, HEAD_QW, np.int8, L1_MAX),
                _to_int(np.asarray(l1_bias, dtype=np.float64) + HEAD_L1_BIAS_ROUND / (HEAD_QX * HEAD_QW),
                        HEAD_QX * HEAD_QW, np.int32, HEAD_BIAS_MAX),
                _to_int(l2_weight, qb, np.int16),
                _to_int(l2_bias, HEAD_QX * qb, np.int32, HEAD_BIAS_MAX))


def quantise(ft_weight, ft_bias, out_weight, out_bias, head=None):
    """Float weights (numpy) -> QuantisedNet: round to nearest (numpy rounds exact halves to
    even); refuses weights whose integers would not fit their type. With `head` (a dict of
    quantise_head's float arguments; king-bucketed features only) a version 3 net, whose
    out_weight and out_bias are None."""
    ft_weight = np.asarray(ft_weight, dtype=np.float64)
    ft_bias = np.asarray(ft_bias, dtype=np.float64)
    hidden = ft_bias.shape[0]
    if head is not None:
        if ft_weight.shape != (KING_BUCKETS * FEATURES, hidden) or out_weight is not None or out_bias is not None:
            raise NetError(f"a net with a head has king-bucketed features and no output layer: shapes "
                           f"{ft_weight.shape} {ft_bias.shape}")
        return QuantisedNet(hidden, _to_int(ft_weight, QA, np.int16), _to_int(ft_bias, QA, np.int16), None, None,
                            head=quantise_head(**head, hidden=hidden))
    out_weight = np.asarray(out_weight, dtype=np.float64)
    out_bias = np.asarray(out_bias, dtype=np.float64)
    if ft_weight.shape not in ((FEATURES, hidden), (KING_BUCKETS * FEATURES, hidden)) or out_weight.shape != (BUCKETS, 2 * hidden) or out_bias.shape != (
            BUCKETS,):
        raise NetError(f"unexpected shapes {ft_weight.shape} {ft_bias.shape} {out_weight.shape} {out_bias.shape}")

    out_q = _to_int(out_weight, QB, np.int16)
    if out_q.size and np.abs(out_q.astype(np.int32)).max() > OUT_MAX:
        raise NetError(f"an output weight is beyond +-{OUT_MAX} after scaling by {QB}: "
                       f"range {out_q.min()}..{out_q.max()}")
    return QuantisedNet(hidden, _to_int(ft_weight, QA, np.int16), _to_int(ft_bias, QA, np.int16),
                        out_q, _to_int(out_bias, QA * QB, np.int32))


def net_bytes(net):
    h = net.hidden
    features = net.ft_weight.shape[0]
    head = net.head
    header = NET_MAGIC + struct.pack("<8I", net.version, features, h, BUCKETS, QA, net.qb, net.scale,
                                     head.size if head is not None else 0)
    body = (header + net.ft_weight.astype("<i2").reshape(features, h).tobytes()
            + net.ft_bias.astype("<i2").reshape(h).tobytes())
    if head is None:
        body += (net.out_weight.astype("<i2").reshape(BUCKETS, 2 * h).tobytes()
                 + net.out_bias.astype("<i4").reshape(BUCKETS).tobytes())
    else:
        body += (head.l1_weight.astype("i1").reshape(BUCKETS, head.size, 2 * h).tobytes()
                 + head.l1_bias.astype("<i4").reshape(BUCKETS, head.size).tobytes()
                 + head.l2_weight.astype("<i2").reshape(BUCKETS, head.size).tobytes()
                 + head.l2_bias.astype("<i4").reshape(BUCKETS).tobytes())
    return body + struct.pack("<I", zlib.crc32(body))


def content_name(data):
    return f"chariot-{hashlib.sha256(data).hexdigest()[:12]}.nnue"


def write_net(net, out=None, out_dir=None):
    """Writes the net to `out`, or into `out_dir` named by its content hash; returns the path."""
    data = net_bytes(net)
    if out is None:
        if out_dir is None:
            raise ValueError("write_net needs out or out_dir")
        os.makedirs(out_dir, exist_ok=True)
        out = os.path.join(out_dir, content_name(data))
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, out)
    return out


def expected_size(hidden, features=FEATURES, head=0):
    """A net's size in bytes; `head` is a version 3 net's L (0: versions 1 and 2)."""
    ft = NET_HEADER_BYTES + 2 * features * hidden + 2 * hidden
    if head:
        return ft + BUCKETS * (head * 2 * hidden + 4 * head + 2 * head + 4) + 4
    return ft + 2 * BUCKETS * 2 * hidden + 4 * BUCKETS + 4


def parse_net(data, name="net"):
    """QuantisedNet from the bytes of a net file; raises NetError with the reason if it is refused."""
    if len(data) < NET_HEADER_BYTES + 4:
        raise NetError(f"{name}: {len(data)} bytes is too short for a Chariot net file")
    if data[:8] != NET_MAGIC:
        raise NetError(f"{name}: not a Chariot net file (no CHRTNNUE header)")
    version, features, hidden, buckets, qa, qb, scale, reserved = struct.unpack_from("<8I", data, 8)
    if version not in (NET_VERSION, NET_VERSION_KING_BUCKETS, NET_VERSION_HEAD):
        raise NetError(f"{name}: net format version {version}; this code reads versions {NET_VERSION}, "
                       f"{NET_VERSION_KING_BUCKETS} and {NET_VERSION_HEAD}")
    got = (features, buckets, qa)
    want = (FEATURES if version == NET_VERSION else KING_BUCKETS * FEATURES, BUCKETS, QA)
    if got != want:
        raise NetError(f"{name}: features/buckets/QA are {got}, expected {want}")
    if qb == 0 or scale == 0:
        raise NetError(f"{name}: QB {qb} and SCALE {scale} must be positive")
    if hidden == 0 or hidden % 32 or hidden > MAX_HIDDEN:
        raise NetError(f"{name}: hidden size {hidden} is not a positive multiple of 32 up to {MAX_HIDDEN}")
    head_size = reserved if version == NET_VERSION_HEAD else 0
    if version == NET_VERSION_HEAD and not (HEAD_MIN <= head_size <= HEAD_MAX and head_size % 8 == 0):
        raise NetError(f"{name}: head size {head_size} is not a multiple of 8 within {HEAD_MIN}..{HEAD_MAX}")
    if len(data) != expected_size(hidden, features, head_size):
        raise NetError(f"{name}: {len(data)} bytes; a net with hidden size {hidden} has "
                       f"{expected_size(hidden, features, head_size)}")
    (crc,) = struct.unpack_from("<I", data, len(data) - 4)
    if zlib.crc32(data[:-4]) != crc:
        raise NetError(f"{name}: checksum mismatch (the file is damaged)")
    at = NET_HEADER_BYTES

    def take(dtype, count):
        nonlocal at
        arr = np.frombuffer(data, dtype=dtype, count=count, offset=at)
        at += arr.nbytes
        return arr

    ft_weight = take("<i2", features * hidden).reshape(features, hidden).astype(np.int16)
    ft_bias = take("<i2", hidden).astype(np.int16)
    if head_size:
        l1_weight = take("i1", BUCKETS * head_size * 2 * hidden).reshape(BUCKETS, head_size, 2 * hidden).astype(np.int8)
        l1_bias = take("<i4", BUCKETS * head_size).reshape(BUCKETS, head_size).astype(np.int32)
        l2_weight = take("<i2", BUCKETS * head_size).reshape(BUCKETS, head_size).astype(np.int16)
        l2_bias = take("<i4", BUCKETS).astype(np.int32)
        if np.abs(l1_weight.astype(np.int32)).max() > L1_MAX:
            raise NetError(f"{name}: an L1 weight is beyond +-{L1_MAX}")
        if max(np.abs(l1_bias.astype(np.int64)).max(), np.abs(l2_bias.astype(np.int64)).max()) > HEAD_BIAS_MAX:
            raise NetError(f"{name}: a head bias is beyond +-2^30")
        return QuantisedNet(hidden, ft_weight, ft_bias, None, None, qb, scale,
                            Head(l1_weight, l1_bias, l2_weight, l2_bias))
    out_weight = take("<i2", BUCKETS * 2 * hidden).reshape(BUCKETS, 2 * hidden).astype(np.int16)
    out_bias = take("<i4", BUCKETS).astype(np.int32)
    if np.abs(out_weight.astype(np.int32)).max() > OUT_MAX:
        raise NetError(f"{name}: an output weight is beyond +-{OUT_MAX}")
    return QuantisedNet(hidden, ft_weight, ft_bias, out_weight, out_bias, qb, scale)


def read_net(path):
    with open(path, "rb") as f:
        return parse_net(f.read(), path)
