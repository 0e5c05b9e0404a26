// NNUE evaluation: the CHRTNNUE net file (tools/nnue/netfile.py), its
// integer inference (bit for bit the reference of tools/nnue/nnue_ref.py),
// and the per-thread evaluator that keeps the feature transformer's
// accumulators up to date along the search.
//
// The net: 1260 features per perspective (a piece's relation to the
// perspective, its type and its square seen from that side) into H hidden
// units (int16 accumulators), SCReLU, then one of 8 output buckets (by the
// number of pieces besides the kings) over both perspectives, the side to
// move's first.
//
// Format version 2 adds king buckets: each perspective's own king picks one
// of 6 copies of the 1260 feature weights (its rank in the palace seen from
// its side, times on the centre file or beside it), and a king right of the
// centre file mirrors that perspective's board left-right, so that the king
// is always on file d or e (HalfKA-style with horizontal mirroring). Version
// 1 nets are the one-bucket case.
//
// Format version 3 keeps version 2's feature transformer and replaces the
// linear output with a small head per output bucket: the 2H SCReLU values
// squeezed to 0..127 (clamp(acc, 0, 255)^2 >> 9), an int8 layer to L units
// (8..32), a clipped ReLU to 0..127, and an int16 layer to the output
// (tools/nnue/netfile.py documents the layout and the scales).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/position.h"
#include "chariot/types.h"

namespace chariot::nnue {

constexpr int FeatureCount = 2 * PieceTypeCount * 90;  // 1260 a king bucket
constexpr int KingBucketCount = 6;                     // format version 2
constexpr int BucketCount = 8;
constexpr int MaxHidden = 1024;
constexpr int QA = 255;               // the only one the kernels take: v = clamp(acc, 0, 255)
constexpr int MaxOutputWeight = 128;  // |outWeight| at most this, so that v * w fits int16
constexpr size_t HeaderBytes = 40;
constexpr uint32_t FormatVersionPlain = 1;        // 1260 features
constexpr uint32_t FormatVersionKingBuckets = 2;  // 6 x 1260 features
constexpr uint32_t FormatVersionHead = 3;         // 6 x 1260 features and a hidden-layer head
// The head (format 3). Activations 0..HeadScale stand for 0..1; the L1
// weights are scaled by 2^HeadShift, which y >> HeadShift divides out.
constexpr int MinHead = 8, MaxHead = 32;  // L, a multiple of 8
constexpr int HeadScale = 127;
constexpr int HeadShift = 6;
// |L1 weight| <= 127 and x <= 127: a u8 x i8 pair sum fits int16, so the
// AVX2 product (maddubs) never saturates.
constexpr int MaxL1Weight = 127;
// |bias| <= 2^30: no int32 sum of the head can overflow (|x . w| < 2^25 and
// |z . w2| < 2^27 within the limits above).
constexpr int32_t MaxHeadBias = int32_t(1) << 30;

// How a perspective sees the board in a king-bucketed net: the first
// feature of its king's bucket and whether files are mirrored (f -> 8 - f).
struct KingView {
    int base = 0;
    bool mirror = false;
    constexpr bool operator==(const KingView&) const = default;
};

// The view of a king-bucketed net for `perspective`, whose king is on `king`:
// bucket = rank in the palace (from its side) * 2 + (on the centre file),
// mirrored when the king is right of the centre file.
constexpr KingView kingBucketView(Color perspective, Square king) {
    const int rank = perspective == Color::Red ? rankOf(king) : 9 - rankOf(king);
    const int file = fileOf(king);
    return {(rank * 2 + (file == 4 ? 1 : 0)) * FeatureCount, file > 4};
}
static_assert(kingBucketView(Color::Red, makeSquare(4, 0)) == KingView{FeatureCount, false});
static_assert(kingBucketView(Color::Red, makeSquare(5, 2)) == KingView{4 * FeatureCount, true});
static_assert(kingBucketView(Color::Black, makeSquare(3, 8)) == KingView{2 * FeatureCount, false});

// The feature of piece pc on square s seen from `perspective`:
// (rel * 7 + type) * 90 + sq, rel 0 for the perspective's own pieces, sq =
// rank * 9 + file for red, (9 - rank) * 9 + file for black.
constexpr int featureIndex(Color perspective, Piece pc, Square s) {
    const int rel = colorOf(pc) == perspective ? 0 : 1;
    const int rank = perspective == Color::Red ? rankOf(s) : 9 - rankOf(s);
    return (rel * PieceTypeCount + int(typeOf(pc))) * 90 + rank * 9 + fileOf(s);
}
static_assert(featureIndex(Color::Red, Piece::RedKing, makeSquare(4, 0)) == 4);
static_assert(featureIndex(Color::Red, Piece::BlackKing, makeSquare(4, 9)) == 7 * 90 + 85);
static_assert(featureIndex(Color::Black, Piece::BlackKing, makeSquare(4, 9)) == 4);

// The same in a view: the bucket's block, files mirrored if the view says so.
constexpr int featureIndex(Color perspective, KingView view, Piece pc, Square s) {
    const Square seen = view.mirror ? makeSquare(8 - fileOf(s), rankOf(s)) : s;
    return view.base + featureIndex(perspective, pc, seen);
}
static_assert(featureIndex(Color::Red, KingView{FeatureCount, true}, Piece::RedKing, makeSquare(5, 0)) ==
              FeatureCount + 3);

// min(7, (pieces on the board besides the two kings) / 4).
int outputBucket(const Position& pos);

// Storage aligned to 64 bytes (a cache line, and any SIMD load).
template <typename T>
class AlignedArray {
public:
    AlignedArray() = default;
    explicit AlignedArray(size_t count) : size_(count) {
        const size_t bytes = (count * sizeof(T) + 63) / 64 * 64;
        // Aligned operator new (C++17): std::aligned_alloc is missing on Windows.
        data_.reset(static_cast<T*>(::operator new (bytes ? bytes : 64, std::align_val_t{64})));
    }
    T* data() { return data_.get(); }
    const T* data() const { return data_.get(); }
    size_t size() const { return size_; }
    T& operator[](size_t i) { return data_.get()[i]; }
    const T& operator[](size_t i) const { return data_.get()[i]; }

private:
    struct Free {
        void operator()(T* p) const { ::operator delete (p, std::align_val_t{64}); }
    };
    std::unique_ptr<T, Free> data_;
    size_t size_ = 0;
};

class Network {
public:
    // The net in a file's bytes; nullptr with the reason in `error` (naming
    // `name`) for anything but a complete, undamaged CHRTNNUE v1 or v2 net
    // whose QA is 255 and whose output weights are within +-128, or a v3
    // net whose L1 weights are within +-127 and head biases within +-2^30.
    static std::shared_ptr<const Network> parse(const uint8_t* data, size_t size, std::string_view name,
                                                std::string& error);
    static std::shared_ptr<const Network> load(const std::string& path, std::string& error);

    int hidden() const { return hidden_; }
    int kingBuckets() const { return kingBuckets_; }  // 1 (format 1) or 6 (formats 2 and 3)
    int headSize() const { return headSize_; }        // L of a format 3 net; 0 for formats 1 and 2
    // How `perspective` sees the board with its king on `king` (the plain
    // view for a net without king buckets).
    KingView view(Color perspective, Square king) const {
        return kingBuckets_ > 1 ? kingBucketView(perspective, king) : KingView{};
    }
    int qb() const { return qb_; }
    int scale() const { return scale_; }
    const std::string& name() const { return name_; }  // the file's name, or what parse was given
    const int16_t* featureWeights(int feature) const { return ftWeight_.data() + size_t(feature) * size_t(hidden_); }
    const int16_t* featureBias() const { return ftBias_.data(); }
    // Bucket b's 2H output weights: the side to move's H, then the other side's.
    const int16_t* outputWeights(int bucket) const { return outWeight_.data() + size_t(bucket) * 2 * size_t(hidden_); }
    int32_t outputBias(int bucket) const { return outBias_[size_t(bucket)]; }
    // A format 3 net's head for bucket b: L rows of 2H L1 weights (the side
    // to move's H, then the other side's), L L1 biases, L L2 weights.
    const int8_t* l1Weights(int bucket) const {
        return l1Weight_.data() + size_t(bucket) * size_t(headSize_) * 2 * size_t(hidden_);
    }
    const int32_t* l1Bias(int bucket) const { return l1Bias_.data() + size_t(bucket) * size_t(headSize_); }
    const int16_t* l2Weights(int bucket) const { return l2Weight_.data() + size_t(bucket) * size_t(headSize_); }
    int32_t l2Bias(int bucket) const { return l2Bias_[size_t(bucket)]; }

    // The accumulator of one perspective, summed from the board.
    void refresh(const Position& pos, Color perspective, int16_t* acc) const;
    // The output layer on the two accumulators (side to move's first).
    Value output(const int16_t* us, const int16_t* them, int bucket) const;
    // The evaluation from scratch, side to move's view (the `eval` command, tests).
    Value evaluate(const Position& pos) const;

private:
    Network() = default;
    Value headOutput(const int16_t* us, const int16_t* them, int bucket) const;
    int hidden_ = 0, kingBuckets_ = 1, headSize_ = 0, qb_ = 0, scale_ = 0;
    std::string name_;
    AlignedArray<int16_t> ftWeight_, ftBias_, outWeight_, l2Weight_;
    AlignedArray<int32_t> outBias_, l1Bias_, l2Bias_;
    AlignedArray<int8_t> l1Weight_;
};

// The net built into the binary (CMake CHARIOT_EMBEDDED_NET), parsed on the
// first call; nullptr when the build has none (or it does not parse: then
// embeddedNetworkError() says why).
std::shared_ptr<const Network> embeddedNetwork();
std::string embeddedNetworkError();
// Its file name (nets/chariot-<hash>.nnue -> chariot-<hash>.nnue); empty without one.
std::string_view embeddedNetworkName();
// The strength limiter's net (CMake CHARIOT_CALIBRATION_NET): the one its Elo
// table was measured with; nullptr when the build has none.
std::shared_ptr<const Network> calibrationNetwork();

// One search thread's accumulators: a stack indexed by the position's
// history length, each entry tagged with the key of the position it was
// computed for. evaluate() reuses the entry of the current position, else
// brings the nearest ancestor's forward through the moves made since (at
// most MaxWalk plies), else sums the board afresh, starting from the sum it
// last made in the same king view.
class Evaluator {
public:
    static constexpr int MaxWalk = 8;

    // Entries computed with another net are forgotten.
    void setNetwork(std::shared_ptr<const Network> net);
    const Network* network() const { return net_.get(); }
    // Requires a network. Side to move's view.
    Value evaluate(const Position& pos);
    // How evaluate() found its accumulators (tests, tuning the walk):
    // `refreshed` counts evaluations that summed both perspectives afresh,
    // `cachedSums` the perspectives summed from a cached view (below).
    struct Stats {
        uint64_t reused = 0, updated = 0, refreshed = 0, cachedSums = 0;
    };
    const Stats& stats() const { return stats_; }
    // Forgets every entry.
    void clear();

private:
    static constexpr int ViewCount = 2 * KingBucketCount;  // bucket x mirrored
    // The last board summed in a view of a perspective (its sum is in cacheAcc_).
    struct CachedView {
        std::array<Piece, BoardSize> board{};  // Position::board()'s layout
        bool valid = false;
    };

    int16_t* entry(int ply) { return acc_.data() + size_t(ply) * stride_; }
    void reserve(int plies);
    // `perspective`'s accumulator summed afresh into `out`, from the cached
    // sum of the last board seen in the same view: only the squares whose
    // piece differs are subtracted and added ("Finny tables"), a few rows
    // instead of one per piece. The int16 sums wrap, so the order of the
    // rows does not change a bit of the result.
    void refresh(const Position& pos, Color perspective, KingView view, int16_t* out);

    std::shared_ptr<const Network> net_;
    size_t stride_ = 0;  // int16 per entry: both perspectives
    AlignedArray<int16_t> acc_;
    std::vector<uint64_t> keys_;
    std::vector<uint8_t> valid_;
    AlignedArray<int16_t> cacheAcc_;  // [perspective * ViewCount + view] x hidden
    std::array<CachedView, 2 * ViewCount> cached_{};
    Stats stats_;
};

// The kernels, each in a portable scalar form and the form compiled for this
// target (AVX2, SSE2 or the scalar one again); both give the same bits
// (int16 accumulators wrap, the int32 sum wraps). `n` is a multiple of 32,
// the pointers 64-byte aligned. Exposed for the tests.
namespace kernels {
// out = in + add - sub (- sub2 unless null)
void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n);
void addRow(int16_t* acc, const int16_t* row, int n);
void subRow(int16_t* acc, const int16_t* row, int n);
// sum_j clamp(acc[j], 0, 255)^2 * w[j], wrapping int32
int32_t screluDot(const int16_t* acc, const int16_t* w, int n);
// The format 3 head's input: x[j] = clamp(acc[j], 0, 255)^2 >> 9 (0..127).
// `x` need not be aligned.
void screluPack(const int16_t* acc, uint8_t* x, int n);
// y[k] = bias[k] + sum_j x[j] * w[k * n + j] for k < outputs (a multiple of
// 4), x[j] <= 127 and |w| <= 128, so that nothing saturates or overflows
// (|bias| <= 2^30). `w` is 64-byte aligned; x, bias and y need not be.
void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs);
const char* name();  // "avx2", "sse2" or "scalar"

namespace scalar {
void update(int16_t* out, const int16_t* in, const int16_t* add, const int16_t* sub, const int16_t* sub2, int n);
void addRow(int16_t* acc, const int16_t* row, int n);
void subRow(int16_t* acc, const int16_t* row, int n);
int32_t screluDot(const int16_t* acc, const int16_t* w, int n);
void screluPack(const int16_t* acc, uint8_t* x, int n);
void l1Product(const uint8_t* x, const int8_t* w, const int32_t* bias, int32_t* y, int n, int outputs);
}  // namespace scalar
}  // namespace kernels

}  // namespace chariot::nnue
