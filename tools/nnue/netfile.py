"""The Chariot NNUE net file (CHRTNNUE versions 1 and 2): quantisation, writing, reading.

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


class NetError(Exception):
    """A net file that is damaged or not one this code reads."""


@dataclasses.dataclass
class QuantisedNet:
    hidden: int
    ft_weight: np.ndarray  # [king_buckets * 1260, H] int16
    ft_bias: np.ndarray  # [H] int16
    out_weight: np.ndarray  # [8, 2H] int16
    out_bias: np.ndarray  # [8] int32
    qb: int = QB  # the output layer's scale, as the header says
    scale: int = SCALE

    @property
    def king_buckets(self):
        return self.ft_weight.shape[0] // FEATURES


def quantise(ft_weight, ft_bias, out_weight, out_bias):
    """Float weights (numpy) -> QuantisedNet: round to nearest (numpy rounds exact halves to
    even); refuses weights whose integers would not fit their type."""
    ft_weight = np.asarray(ft_weight, dtype=np.float64)
    ft_bias = np.asarray(ft_bias, dtype=np.float64)
    out_weight = np.asarray(out_weight, dtype=np.float64)
    out_bias = np.asarray(out_bias, dtype=np.float64)
    hidden = ft_bias.shape[0]
    if ft_weight.shape not in ((FEATURES, hidden), (KING_BUCKETS * FEATURES, hidden)) or out_weight.shape != (BUCKETS, 2 * hidden) or out_bias.shape != (
            BUCKETS,):
        raise NetError(f"unexpected shapes {ft_weight.shape} {ft_bias.shape} {out_weight.shape} {out_bias.shape}")

    def to_int(x, scale, dtype):
        q = np.round(x * scale)
        info = np.iinfo(dtype)
        if q.size and (q.min() < info.min or q.max() > info.max):
            raise NetError(f"a weight does not fit {np.dtype(dtype).name} after scaling by {scale}: "
                           f"range {q.min()}..{q.max()}")
        return q.astype(dtype)

    out_q = to_int(out_weight, QB, np.int16)
    if out_q.size and np.abs(out_q.astype(np.int32)).max() > OUT_MAX:
        raise NetError(f"an output weight is beyond +-{OUT_MAX} after scaling by {QB}: "
                       f"range {out_q.min()}..{out_q.max()}")
    return QuantisedNet(hidden, to_int(ft_weight, QA, np.int16), to_int(ft_bias, QA, np.int16),
                        out_q, to_int(out_bias, QA * QB, np.int32))


def net_bytes(net):
    h = net.hidden
    features = net.ft_weight.shape[0]
    version = NET_VERSION if features == FEATURES else NET_VERSION_KING_BUCKETS
    header = NET_MAGIC + struct.pack("<8I", version, features, h, BUCKETS, QA, net.qb, net.scale, 0)
    body = (header + net.ft_weight.astype("<i2").reshape(features, h).tobytes()
            + net.ft_bias.astype("<i2").reshape(h).tobytes()
            + net.out_weight.astype("<i2").reshape(BUCKETS, 2 * h).tobytes()
            + net.out_bias.astype("<i4").reshape(BUCKETS).tobytes())
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


def expected_size(hidden, features=FEATURES):
    return NET_HEADER_BYTES + 2 * features * hidden + 2 * hidden + 2 * BUCKETS * 2 * hidden + 4 * BUCKETS + 4


def parse_net(data, name="net"):
    """QuantisedNet from the bytes of a net file; raises NetError with the reason if it is refused."""
    if len(data) < NET_HEADER_BYTES + 4:
        raise NetError(f"{name}: {len(data)} bytes is too short for a Chariot net file")
    if data[:8] != NET_MAGIC:
        raise NetError(f"{name}: not a Chariot net file (no CHRTNNUE header)")
    version, features, hidden, buckets, qa, qb, scale, _ = struct.unpack_from("<8I", data, 8)
    if version not in (NET_VERSION, NET_VERSION_KING_BUCKETS):
        raise NetError(f"{name}: net format version {version}; this code reads versions {NET_VERSION} and "
                       f"{NET_VERSION_KING_BUCKETS}")
    got = (features, buckets, qa)
    want = (FEATURES if version == NET_VERSION else KING_BUCKETS * FEATURES, BUCKETS, QA)
    if got != want:
        raise NetError(f"{name}: features/buckets/QA are {got}, expected {want}")
    if qb == 0 or scale == 0:
        raise NetError(f"{name}: QB {qb} and SCALE {scale} must be positive")
    if hidden == 0 or hidden % 32 or hidden > MAX_HIDDEN:
        raise NetError(f"{name}: hidden size {hidden} is not a positive multiple of 32 up to {MAX_HIDDEN}")
    if len(data) != expected_size(hidden, features):
        raise NetError(f"{name}: {len(data)} bytes; a net with hidden size {hidden} has "
                       f"{expected_size(hidden, features)}")
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
    out_weight = take("<i2", BUCKETS * 2 * hidden).reshape(BUCKETS, 2 * hidden).astype(np.int16)
    out_bias = take("<i4", BUCKETS).astype(np.int32)
    if np.abs(out_weight.astype(np.int32)).max() > OUT_MAX:
        raise NetError(f"{name}: an output weight is beyond +-{OUT_MAX}")
    return QuantisedNet(hidden, ft_weight, ft_bias, out_weight, out_bias, qb, scale)


def read_net(path):
    with open(path, "rb") as f:
        return parse_net(f.read(), path)
