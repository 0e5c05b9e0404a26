#include "chariot/nnue.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "chariot/checksum.h"

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace chariot::nnue {

// The nets built in by CMake (src/embed_net.cmake writes them; Size 0: none).
namespace embedded {
extern const unsigned char Data[];
extern const size_t Size;
extern const char Name[];
}  // namespace embedded
namespace calibration {
extern const unsigned char Data[];
extern const size_t Size;
extern const char Name[];
}  // namespace calibration

// ---------------------------------------------------------------------------
// Kernels

namespace kernels {

namespace scalar {

// The sums are made in int and converted back: C++20 defines the conversion
// as modular, which is what the SIMD lanes do.
void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n) {
    if (sub2) {
        for (int j = 0; j < n; ++j) out[j] = int16_t(in[j] + add[j] - sub[j] - sub2[j]);
    } else {
        for (int j = 0; j < n; ++j) out[j] = int16_t(in[j] + add[j] - sub[j]);
    }
}

void addRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; ++j) acc[j] = int16_t(acc[j] + row[j]);
}

void subRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; ++j) acc[j] = int16_t(acc[j] - row[j]);
}

int32_t screluDot(const int16_t* acc, const int16_t* w, int n) {
    // Each term fits int32 (255^2 * 128); the sum wraps, as the SIMD one does.
    uint32_t sum = 0;
    for (int j = 0; j < n; ++j) {
        const int v = std::clamp(int(acc[j]), 0, QA);
        sum += uint32_t(v * v * w[j]);
    }
    return int32_t(sum);
}

void screluPack(const int16_t* acc, uint8_t* x, int n) {
    for (int j = 0; j < n; ++j) {
        const int v = std::clamp(int(acc[j]), 0, QA);
        x[j] = uint8_t((v * v) >> 9);
    }
}

void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs) {
    for (int k = 0; k < outputs; ++k) {
        const int8_t* row = w + size_t(k) * size_t(n);
        int32_t sum = bias[k];
        for (int j = 0; j < n; ++j) sum += int32_t(x[j]) * row[j];
        y[k] = sum;
    }
}

}  // namespace scalar

#if defined(__AVX2__)

namespace {
inline __m256i load(const int16_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline void store(int16_t* p, __m256i v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
inline __m256i load(const int8_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
inline __m256i loadu(const uint8_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
}  // namespace

void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n) {
    if (sub2) {
        for (int j = 0; j < n; j += 16)
            store(out + j,
                  _mm256_sub_epi16(_mm256_sub_epi16(_mm256_add_epi16(load(in + j), load(add + j)), load(sub + j)),
                                   load(sub2 + j)));
    } else {
        for (int j = 0; j < n; j += 16)
            store(out + j, _mm256_sub_epi16(_mm256_add_epi16(load(in + j), load(add + j)), load(sub + j)));
    }
}

void addRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; j += 16) store(acc + j, _mm256_add_epi16(load(acc + j), load(row + j)));
}

void subRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; j += 16) store(acc + j, _mm256_sub_epi16(load(acc + j), load(row + j)));
}

int32_t screluDot(const int16_t* acc, const int16_t* w, int n) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
    __m256i sum0 = zero, sum1 = zero;
    // v * w fits int16 (|w| <= 128), so mullo is exact; madd then sums
    // v * (v * w) in pairs into int32 lanes, and the lanes wrap as int32.
    for (int j = 0; j < n; j += 32) {
        const __m256i v0 = _mm256_min_epi16(_mm256_max_epi16(load(acc + j), zero), qa);
        const __m256i v1 = _mm256_min_epi16(_mm256_max_epi16(load(acc + j + 16), zero), qa);
        sum0 = _mm256_add_epi32(sum0, _mm256_madd_epi16(v0, _mm256_mullo_epi16(v0, load(w + j))));
        sum1 = _mm256_add_epi32(sum1, _mm256_madd_epi16(v1, _mm256_mullo_epi16(v1, load(w + j + 16))));
    }
    const __m256i sum = _mm256_add_epi32(sum0, sum1);
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

void screluPack(const int16_t* acc, uint8_t* x, int n) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
    for (int j = 0; j < n; j += 32) {
        // v^2 <= 65025 is exact in an unsigned 16-bit lane, hence the logical shift.
        const __m256i v0 = _mm256_min_epi16(_mm256_max_epi16(load(acc + j), zero), qa);
        const __m256i v1 = _mm256_min_epi16(_mm256_max_epi16(load(acc + j + 16), zero), qa);
        const __m256i packed = _mm256_packus_epi16(_mm256_srli_epi16(_mm256_mullo_epi16(v0, v0), 9),
                                                   _mm256_srli_epi16(_mm256_mullo_epi16(v1, v1), 9));
        // packus interleaves the 128-bit lanes' 8-byte halves (v0 lo, v1 lo, v0 hi, v1 hi): put them in order.
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(x + j), _mm256_permute4x64_epi64(packed, 0xD8));
    }
}

void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs) {
    const __m256i ones = _mm256_set1_epi16(1);
    // maddubs: u8 x i8 products summed in pairs into int16 lanes, exact as
    // x <= 127 and |w| <= 128; madd by 1 widens the pairs to int32.
    auto dot = [&](__m256i sum, __m256i xv, const int8_t* row) {
        return _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(xv, load(row)), ones));
    };
    for (int k = 0; k < outputs; k += 4) {
        const int8_t* w0 = w + size_t(k) * size_t(n);
        const int8_t *w1 = w0 + n, *w2 = w1 + n, *w3 = w2 + n;
        __m256i s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0;
        for (int j = 0; j < n; j += 32) {
            const __m256i xv = loadu(x + j);
            s0 = dot(s0, xv, w0 + j);
            s1 = dot(s1, xv, w1 + j);
            s2 = dot(s2, xv, w2 + j);
            s3 = dot(s3, xv, w3 + j);
        }
        // Each 128-bit lane ends with one partial sum per row; add the lanes.
        const __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(s0, s1), _mm256_hadd_epi32(s2, s3));
        const __m128i r = _mm_add_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + k),
                         _mm_add_epi32(r, _mm_loadu_si128(reinterpret_cast<const __m128i*>(bias + k))));
    }
}

const char* name() { return "avx2"; }

#elif defined(__SSE2__)

namespace {
inline __m128i load(const int16_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store(int16_t* p, __m128i v) { _mm_store_si128(reinterpret_cast<__m128i*>(p), v); }
inline __m128i load(const int8_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
inline __m128i loadu(const void* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
}  // namespace

void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n) {
    if (sub2) {
        for (int j = 0; j < n; j += 8)
            store(out + j, _mm_sub_epi16(_mm_sub_epi16(_mm_add_epi16(load(in + j), load(add + j)), load(sub + j)),
                                         load(sub2 + j)));
    } else {
        for (int j = 0; j < n; j += 8)
            store(out + j, _mm_sub_epi16(_mm_add_epi16(load(in + j), load(add + j)), load(sub + j)));
    }
}

void addRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; j += 8) store(acc + j, _mm_add_epi16(load(acc + j), load(row + j)));
}

void subRow(int16_t* acc, const int16_t* row, int n) {
    for (int j = 0; j < n; j += 8) store(acc + j, _mm_sub_epi16(load(acc + j), load(row + j)));
}

int32_t screluDot(const int16_t* acc, const int16_t* w, int n) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(QA);
    __m128i sum0 = zero, sum1 = zero;
    for (int j = 0; j < n; j += 16) {
        const __m128i v0 = _mm_min_epi16(_mm_max_epi16(load(acc + j), zero), qa);
        const __m128i v1 = _mm_min_epi16(_mm_max_epi16(load(acc + j + 8), zero), qa);
        sum0 = _mm_add_epi32(sum0, _mm_madd_epi16(v0, _mm_mullo_epi16(v0, load(w + j))));
        sum1 = _mm_add_epi32(sum1, _mm_madd_epi16(v1, _mm_mullo_epi16(v1, load(w + j + 8))));
    }
    __m128i s = _mm_add_epi32(sum0, sum1);
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
    return _mm_cvtsi128_si32(s);
}

void screluPack(const int16_t* acc, uint8_t* x, int n) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(QA);
    for (int j = 0; j < n; j += 16) {
        // v^2 <= 65025 is exact in an unsigned 16-bit lane, hence the logical shift.
        const __m128i v0 = _mm_min_epi16(_mm_max_epi16(load(acc + j), zero), qa);
        const __m128i v1 = _mm_min_epi16(_mm_max_epi16(load(acc + j + 8), zero), qa);
        _mm_storeu_si128(
            reinterpret_cast<__m128i*>(x + j),
            _mm_packus_epi16(_mm_srli_epi16(_mm_mullo_epi16(v0, v0), 9), _mm_srli_epi16(_mm_mullo_epi16(v1, v1), 9)));
    }
}

void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs) {
    // SSE2 has no u8 x i8 product: widen x (zero-extend) and w (sign-extend:
    // each byte doubled into a 16-bit lane, shifted down arithmetically) to
    // int16 and let madd sum the pairs into int32.
    const __m128i zero = _mm_setzero_si128();
    auto dot = [](__m128i sum, __m128i xlo, __m128i xhi, const int8_t* row) {
        const __m128i wv = load(row);
        const __m128i wlo = _mm_srai_epi16(_mm_unpacklo_epi8(wv, wv), 8);
        const __m128i whi = _mm_srai_epi16(_mm_unpackhi_epi8(wv, wv), 8);
        return _mm_add_epi32(sum, _mm_add_epi32(_mm_madd_epi16(xlo, wlo), _mm_madd_epi16(xhi, whi)));
    };
    for (int k = 0; k < outputs; k += 4) {
        const int8_t* w0 = w + size_t(k) * size_t(n);
        const int8_t *w1 = w0 + n, *w2 = w1 + n, *w3 = w2 + n;
        __m128i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
        for (int j = 0; j < n; j += 16) {
            const __m128i xv = loadu(x + j);
            const __m128i xlo = _mm_unpacklo_epi8(xv, zero), xhi = _mm_unpackhi_epi8(xv, zero);
            s0 = dot(s0, xlo, xhi, w0 + j);
            s1 = dot(s1, xlo, xhi, w1 + j);
            s2 = dot(s2, xlo, xhi, w2 + j);
            s3 = dot(s3, xlo, xhi, w3 + j);
        }
        // Transpose-add: one lane per row, each the sum of its four.
        const __m128i t01 = _mm_add_epi32(_mm_unpacklo_epi32(s0, s1), _mm_unpackhi_epi32(s0, s1));
        const __m128i t23 = _mm_add_epi32(_mm_unpacklo_epi32(s2, s3), _mm_unpackhi_epi32(s2, s3));
        const __m128i r = _mm_add_epi32(_mm_unpacklo_epi64(t01, t23), _mm_unpackhi_epi64(t01, t23));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + k), _mm_add_epi32(r, loadu(bias + k)));
    }
}

const char* name() { return "sse2"; }

#else

void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n) {
    scalar::update(out, in, add, sub, sub2, n);
}
void addRow(int16_t* acc, const int16_t* row, int n) { scalar::addRow(acc, row, n); }
void subRow(int16_t* acc, const int16_t* row, int n) { scalar::subRow(acc, row, n); }
int32_t screluDot(const int16_t* acc, const int16_t* w, int n) { return scalar::screluDot(acc, w, n); }
void screluPack(const int16_t* acc, uint8_t* x, int n) { scalar::screluPack(acc, x, n); }
void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs) {
    scalar::l1Product(x, w, bias, y, n, outputs);
}
const char* name() { return "scalar"; }

#endif

}  // namespace kernels

// ---------------------------------------------------------------------------
// The file

namespace {

constexpr char Magic[8] = {'C', 'H', 'R', 'T', 'N', 'N', 'U', 'E'};


uint32_t readU32(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
int16_t readI16(const uint8_t* p) { return int16_t(uint16_t(p[0] | p[1] << 8)); }

// `head`: a format 3 net's L (0 for formats 1 and 2).
size_t expectedSize(size_t features, size_t hidden, size_t head) {
    const size_t ft = HeaderBytes + 2 * features * hidden + 2 * hidden;
    if (head) return ft + BucketCount * (head * 2 * hidden + 4 * head + 2 * head + 4) + 4;
    return ft + 2 * BucketCount * 2 * hidden + 4 * BucketCount + 4;
}

}  // namespace


std::shared_ptr<const Network> Network::parse(const uint8_t* data, size_t size, std::string_view name,
                                              std::string& error) {
    auto fail = [&](const std::string& why) {
        error = fmt::format("{}: {}", name, why);
        return std::shared_ptr<const Network>();
    };
    if (size < HeaderBytes + 4) return fail(fmt::format("{} bytes is too short for a Chariot net file", size));
    if (std::memcmp(data, Magic, sizeof Magic) != 0) return fail("not a Chariot net file (no CHRTNNUE header)");
    const uint32_t version = readU32(data + 8), features = readU32(data + 12), hidden = readU32(data + 16),
                   buckets = readU32(data + 20), qa = readU32(data + 24), qb = readU32(data + 28),
                   scale = readU32(data + 32), reserved = readU32(data + 36);
    if (version != FormatVersionPlain && version != FormatVersionKingBuckets && version != FormatVersionHead)
        return fail(fmt::format("net format version {}; this engine reads versions {}, {} and {}", version,
                                FormatVersionPlain, FormatVersionKingBuckets, FormatVersionHead));
    const int kingBuckets = version == FormatVersionPlain ? 1 : KingBucketCount;
    if (features != uint32_t(kingBuckets * FeatureCount) || buckets != uint32_t(BucketCount))
        return fail(fmt::format("{} features and {} output buckets; a version {} net has {} and {}", features, buckets,
                                version, kingBuckets * FeatureCount, BucketCount));
    if (hidden == 0 || hidden % 32 || hidden > uint32_t(MaxHidden))
        return fail(fmt::format("hidden size {} is not a positive multiple of 32 up to {}", hidden, MaxHidden));
    if (qa != uint32_t(QA)) return fail(fmt::format("QA is {}; this engine needs {}", qa, QA));
    if (qb == 0 || qb > 65536 || scale == 0 || scale > 65536)
        return fail(fmt::format("QB {} and SCALE {} must be within 1..65536", qb, scale));
    const uint32_t head = version == FormatVersionHead ? reserved : 0;
    if (version == FormatVersionHead && (head < uint32_t(MinHead) || head > uint32_t(MaxHead) || head % 8))
        return fail(fmt::format("head size {} is not a multiple of 8 within {}..{}", head, MinHead, MaxHead));
    const size_t want = expectedSize(features, hidden, head);
    if (size < want)
        return fail(fmt::format("truncated: {} bytes; a net with hidden size {} has {}", size, hidden, want));
    if (size > want) return fail(fmt::format("{} bytes; a net with hidden size {} has {}", size, hidden, want));
    if (crc32(data, size - 4) != readU32(data + size - 4)) return fail("checksum mismatch (the file is damaged)");

    std::shared_ptr<Network> net(new Network());
    const size_t h = hidden;
    net->hidden_ = int(hidden);
    net->kingBuckets_ = kingBuckets;
    net->qb_ = int(qb);
    net->scale_ = int(scale);
    net->name_ = std::string(name);
    net->ftWeight_ = AlignedArray<int16_t>(features * h);
    net->ftBias_ = AlignedArray<int16_t>(h);
    const uint8_t* at = data + HeaderBytes;
    for (size_t i = 0; i < features * h; ++i, at += 2) net->ftWeight_[i] = readI16(at);
    for (size_t i = 0; i < h; ++i, at += 2) net->ftBias_[i] = readI16(at);
    if (head) {
        const size_t l = head;
        net->headSize_ = int(head);
        net->l1Weight_ = AlignedArray<int8_t>(BucketCount * l * 2 * h);
        net->l1Bias_ = AlignedArray<int32_t>(BucketCount * l);
        net->l2Weight_ = AlignedArray<int16_t>(BucketCount * l);
        net->l2Bias_ = AlignedArray<int32_t>(BucketCount);
        for (size_t i = 0; i < BucketCount * l * 2 * h; ++i, ++at) {
            const int8_t w = int8_t(*at);
            if (w < -MaxL1Weight)
                return fail(fmt::format("L1 weight {} is beyond +-{} (bucket {}, unit {}, input {})", int(w),
                                        MaxL1Weight, i / (l * 2 * h), i / (2 * h) % l, i % (2 * h)));
            net->l1Weight_[i] = w;
        }
        for (size_t i = 0; i < BucketCount * l; ++i, at += 4) {
            const int32_t b = int32_t(readU32(at));
            if (b > MaxHeadBias || b < -MaxHeadBias)
                return fail(fmt::format("L1 bias {} is beyond +-2^30 (bucket {}, unit {})", b, i / l, i % l));
            net->l1Bias_[i] = b;
        }
        for (size_t i = 0; i < BucketCount * l; ++i, at += 2) net->l2Weight_[i] = readI16(at);
        for (size_t i = 0; i < BucketCount; ++i, at += 4) {
            const int32_t b = int32_t(readU32(at));
            if (b > MaxHeadBias || b < -MaxHeadBias)
                return fail(fmt::format("L2 bias {} is beyond +-2^30 (bucket {})", b, i));
            net->l2Bias_[i] = b;
        }
        assert(at == data + size - 4);
        error.clear();
        return net;
    }
    net->outWeight_ = AlignedArray<int16_t>(BucketCount * 2 * h);
    net->outBias_ = AlignedArray<int32_t>(BucketCount);
    for (size_t i = 0; i < BucketCount * 2 * h; ++i, at += 2) {
        const int16_t w = readI16(at);
        if (w > MaxOutputWeight || w < -MaxOutputWeight)
            return fail(fmt::format("output weight {} is beyond +-{} (bucket {}, unit {})", w, MaxOutputWeight,
                                    i / (2 * h), i % (2 * h)));
        net->outWeight_[i] = w;
    }
    for (size_t i = 0; i < BucketCount; ++i, at += 4) net->outBias_[i] = int32_t(readU32(at));
    assert(at == data + size - 4);
    error.clear();
    return net;
}

std::shared_ptr<const Network> Network::load(const std::string& path, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = fmt::format("{}: cannot open the file", path);
        return nullptr;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        error = fmt::format("{}: read error", path);
        return nullptr;
    }
    return parse(bytes.data(), bytes.size(), path, error);
}

// ---------------------------------------------------------------------------
// Evaluation

int outputBucket(const Position& pos) {
    int pieces = -2;
    for (int c = 0; c < 2; ++c)
        for (int t = 0; t < PieceTypeCount; ++t) pieces += pos.count(Color(c), PieceType(t));
    return std::min(BucketCount - 1, pieces / 4);
}

void Network::refresh(const Position& pos, Color perspective, int16_t* acc) const {
    const KingView v = view(perspective, pos.kingSquare(perspective));
    std::memcpy(acc, featureBias(), size_t(hidden_) * sizeof(int16_t));
    for (int c = 0; c < 2; ++c)
        for (int t = 0; t < PieceTypeCount; ++t) {
            const Piece pc = makePiece(Color(c), PieceType(t));
            const Square* squares = pos.squares(pc);
            for (int i = 0; i < pos.count(pc); ++i)
                kernels::addRow(acc, featureWeights(featureIndex(perspective, v, pc, squares[i])), hidden_);
        }
}

Value Network::output(const int16_t* us, const int16_t* them, int bucket) const {
    if (headSize_) return headOutput(us, them, bucket);
    const int16_t* w = outputWeights(bucket);
    const uint32_t sum =
        uint32_t(kernels::screluDot(us, w, hidden_)) + uint32_t(kernels::screluDot(them, w + hidden_, hidden_));
    const int64_t s = int64_t(int32_t(sum) / QA) + outputBias(bucket);
    const int64_t v = s * scale_ / (int64_t(QA) * qb_);  // truncation toward zero, as the reference
    // A net's value is never a mate score (only a broken net comes near).
    return Value(std::clamp<int64_t>(v, -ValueDecisive + 1, ValueDecisive - 1));
}

Value Network::headOutput(const int16_t* us, const int16_t* them, int bucket) const {
    // Not aligned: GCC on Win64 does not align the stack beyond 16 bytes;
    // the kernels load x and y unaligned.
    uint8_t x[2 * MaxHidden];
    int32_t y[MaxHead];
    kernels::screluPack(us, x, hidden_);
    kernels::screluPack(them, x + hidden_, hidden_);
    kernels::l1Product(x, l1Weights(bucket), l1Bias(bucket), y, 2 * hidden_, headSize_);
    // No int32 overflow: |l2Bias| <= 2^30 and |sum| <= 32 * 127 * 32768 < 2^27.
    const int16_t* w = l2Weights(bucket);
    int32_t s = l2Bias(bucket);
    for (int k = 0; k < headSize_; ++k) s += std::clamp(y[k] >> HeadShift, 0, HeadScale) * w[k];
    const int64_t v = int64_t(s) * scale_ / (int64_t(HeadScale) * qb_);  // truncation toward zero, as the reference
    return Value(std::clamp<int64_t>(v, -ValueDecisive + 1, ValueDecisive - 1));
}

Value Network::evaluate(const Position& pos) const {
    AlignedArray<int16_t> acc(2 * size_t(hidden_));
    int16_t* us = acc.data();
    int16_t* them = acc.data() + hidden_;
    refresh(pos, pos.sideToMove(), us);
    refresh(pos, ~pos.sideToMove(), them);
    return output(us, them, outputBucket(pos));
}

// ---------------------------------------------------------------------------
// The embedded nets

namespace {
struct Embedded {
    std::shared_ptr<const Network> net;
    std::string error;
};
Embedded parseEmbedded(const unsigned char* data, size_t size, const char* name) {
    Embedded out;
    if (size > 0) out.net = Network::parse(data, size, name, out.error);
    return out;
}
const Embedded& builtIn() {
    static const Embedded e = parseEmbedded(embedded::Data, embedded::Size, embedded::Name);
    return e;
}
const Embedded& calibrationNet() {
    static const Embedded e = parseEmbedded(calibration::Data, calibration::Size, calibration::Name);
    return e;
}
}  // namespace

std::shared_ptr<const Network> embeddedNetwork() { return builtIn().net; }
std::string embeddedNetworkError() { return builtIn().error; }
std::string_view embeddedNetworkName() { return embedded::Size > 0 ? embedded::Name : ""; }
std::shared_ptr<const Network> calibrationNetwork() {
    // The default net's file (the names are content hashes): share it, so
    // that the hash table does not take them for two evaluations.
    if (calibration::Size > 0 && std::string_view(calibration::Name) == embedded::Name) return builtIn().net;
    return calibrationNet().net;
}

// ---------------------------------------------------------------------------
// Evaluator

void Evaluator::setNetwork(std::shared_ptr<const Network> net) {
    if (net == net_) return;
    net_ = std::move(net);
    stride_ = net_ ? 2 * size_t(net_->hidden()) : 0;
    acc_ = AlignedArray<int16_t>();
    keys_.clear();
    valid_.clear();
    cacheAcc_ = AlignedArray<int16_t>(net_ ? size_t(2 * ViewCount) * size_t(net_->hidden()) : 0);
    for (CachedView& c : cached_) c.valid = false;
}

void Evaluator::clear() {
    std::fill(valid_.begin(), valid_.end(), uint8_t(0));
    for (CachedView& c : cached_) c.valid = false;
}

void Evaluator::refresh(const Position& pos, Color perspective, KingView view, int16_t* out) {
    const Network& net = *net_;
    const int h = net.hidden();
    const size_t slot = size_t(index(perspective) * ViewCount + view.base / FeatureCount * 2 + int(view.mirror));
    assert(slot < cached_.size());
    CachedView& cached = cached_[slot];
    int16_t* acc = cacheAcc_.data() + slot * size_t(h);
    if (!cached.valid) {
        std::memcpy(acc, net.featureBias(), size_t(h) * sizeof(int16_t));
        cached.board = pos.board();  // the padding as it is, every square empty
        for (int rank = 0; rank < 10; ++rank)
            for (int file = 0; file < 9; ++file) cached.board[size_t(index(makeSquare(file, rank)))] = Piece::Empty;
        cached.valid = true;
    }
    // The rows to take out and put in; at most 32 pieces leave and 32 arrive.
    // The boards are compared eight squares at a time (the padding never
    // differs), and only the words that differ square by square.
    std::array<const int16_t*, 32> adds, subs;
    size_t nAdds = 0, nSubs = 0;
    const Piece* now = pos.board().data();
    Piece* was = cached.board.data();
    constexpr size_t First = size_t(index(makeSquare(0, 0))) / 8, Last = size_t(index(makeSquare(8, 9))) / 8;
    for (size_t word = First; word <= Last; ++word) {
        if (std::memcmp(now + word * 8, was + word * 8, 8) == 0) continue;
        for (size_t i = word * 8; i < word * 8 + 8; ++i) {
            if (now[i] == was[i]) continue;
            const Square s = static_cast<Square>(i);
            if (was[i] != Piece::Empty) subs[nSubs++] = net.featureWeights(featureIndex(perspective, view, was[i], s));
            if (now[i] != Piece::Empty) adds[nAdds++] = net.featureWeights(featureIndex(perspective, view, now[i], s));
            was[i] = now[i];
        }
    }
    size_t a = 0, b = 0;
    for (; a < nAdds && b + 1 < nSubs; ++a, b += 2) kernels::update(acc, acc, adds[a], subs[b], subs[b + 1], h);
    for (; a < nAdds && b < nSubs; ++a, ++b) kernels::update(acc, acc, adds[a], subs[b], nullptr, h);
    for (; a < nAdds; ++a) kernels::addRow(acc, adds[a], h);
    for (; b < nSubs; ++b) kernels::subRow(acc, subs[b], h);
    std::memcpy(out, acc, size_t(h) * sizeof(int16_t));
    ++stats_.cachedSums;
}

void Evaluator::reserve(int plies) {
    const size_t have = valid_.size();
    if (size_t(plies) <= have) return;
    const size_t capacity = std::max({size_t(plies), 2 * have, size_t(256)});
    AlignedArray<int16_t> bigger(capacity * stride_);
    if (have) std::memcpy(bigger.data(), acc_.data(), have * stride_ * sizeof(int16_t));
    acc_ = std::move(bigger);
    keys_.resize(capacity, 0);
    valid_.resize(capacity, 0);
}

Value Evaluator::evaluate(const Position& pos) {
    assert(net_);
    const Network& net = *net_;
    const int h = net.hidden();
    const int len = pos.historyLength();
    reserve(len + 1);
    int16_t* acc = entry(len);
    if (valid_[size_t(len)] && keys_[size_t(len)] == pos.key()) {
        ++stats_.reused;
    } else {
        int back = 0;
        for (int n = 1, most = std::min(MaxWalk, len); n <= most; ++n)
            if (valid_[size_t(len - n)] && keys_[size_t(len - n)] == pos.keyBack(n)) {
                back = n;
                break;
            }
        // A king move that changes its side's view (king bucket or mirror)
        // makes that perspective a fresh sum. Only the last move's change can
        // be summed (the board after it is `pos`); an earlier one means a
        // full refresh. Within the walk the views are otherwise constant.
        KingView views[2] = {net.view(Color::Red, pos.kingSquare(Color::Red)),
                             net.view(Color::Black, pos.kingSquare(Color::Black))};
        bool freshLast[2] = {false, false};
        if (net.kingBuckets() > 1)
            for (int n = back - 1; n >= 0; --n) {
                const Piece moved = pos.movedBack(n);
                const Move m = pos.moveBack(n);
                if (m.isNull() || typeOf(moved) != PieceType::King) continue;
                const Color c = colorOf(moved);
                if (net.view(c, m.from()) == net.view(c, m.to())) continue;
                if (n > 0) {
                    back = 0;
                    break;
                }
                freshLast[index(c)] = true;
                views[index(c)] = net.view(c, m.from());
            }
        if (back) {
            // Forward from the ancestor: entry len - n from entry len - n - 1
            // by the move that led n plies back from now.
            for (int n = back - 1; n >= 0; --n) {
                const int16_t* from = entry(len - n - 1);
                int16_t* to = entry(len - n);
                const Move m = pos.moveBack(n);
                if (m.isNull()) {
                    std::memcpy(to, from, stride_ * sizeof(int16_t));
                } else {
                    const Piece moved = pos.movedBack(n), captured = pos.capturedBack(n);
                    for (Color p : {Color::Red, Color::Black}) {
                        const int offset = index(p) * h;
                        if (n == 0 && freshLast[index(p)]) {
                            refresh(pos, p, net.view(p, pos.kingSquare(p)), to + offset);
                            continue;
                        }
                        const KingView v = views[index(p)];
                        kernels::update(
                            to + offset, from + offset, net.featureWeights(featureIndex(p, v, moved, m.to())),
                            net.featureWeights(featureIndex(p, v, moved, m.from())),
                            captured == Piece::Empty ? nullptr
                                                     : net.featureWeights(featureIndex(p, v, captured, m.to())),
                            h);
                    }
                }
                keys_[size_t(len - n)] = pos.keyBack(n);
                valid_[size_t(len - n)] = 1;
            }
            ++stats_.updated;
        } else {
            refresh(pos, Color::Red, views[index(Color::Red)], acc);
            refresh(pos, Color::Black, views[index(Color::Black)], acc + h);
            keys_[size_t(len)] = pos.key();
            valid_[size_t(len)] = 1;
            ++stats_.refreshed;
        }
#ifndef NDEBUG
        // The accumulators brought forward equal the ones summed from the board.
        AlignedArray<int16_t> fresh(stride_);
        net.refresh(pos, Color::Red, fresh.data());
        net.refresh(pos, Color::Black, fresh.data() + h);
        assert(std::memcmp(fresh.data(), acc, stride_ * sizeof(int16_t)) == 0);
#endif
    }
    const int us = index(pos.sideToMove()) * h, them = index(~pos.sideToMove()) * h;
    return net.output(acc + us, acc + them, outputBucket(pos));
}

}  // namespace chariot::nnue
