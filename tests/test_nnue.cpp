// The NNUE inference: the kernels (scalar against the compiled SIMD form),
// the net file's checks, exact agreement with the Python integer reference
// (tools/nnue/nnue_ref.py), the incremental accumulators against full
// refreshes, colour-flip symmetry, and the engine's options and bench.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "chariot/bench.h"
#include "chariot/checksum.h"
#include "chariot/engine.h"
#include "chariot/movegen.h"
#include "chariot/nnue.h"
#include "chariot/tables.h"
#include "test_util.h"

using namespace chariot;

namespace {

const std::string SourceDir = std::string(CHARIOT_TEST_DATA) + "/../..";
const std::string EmbeddedNetFile = CHARIOT_EMBEDDED_NET_FILE;  // empty: the build embeds none

std::vector<uint8_t> readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE(in);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// The reference samples: "# net <file in nets/>", then "<eval>\t<FEN>" lines.
// nnue_head_samples.txt names the sample net too, and holds the evaluations of
// its format 3 derivative (headNet()).
struct Samples {
    std::string netFile;
    std::vector<std::pair<Value, std::string>> lines;
};

Samples readSamples(const std::string& file = "nnue_samples.txt") {
    std::ifstream in(std::string(CHARIOT_TEST_DATA) + "/" + file);
    REQUIRE(in);
    Samples s;
    std::string line;
    REQUIRE(std::getline(in, line));
    REQUIRE(line.rfind("# net ", 0) == 0);
    s.netFile = SourceDir + "/nets/" + line.substr(6);
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const size_t tab = line.find('\t');
        REQUIRE(tab != std::string::npos);
        s.lines.emplace_back(std::stoi(line.substr(0, tab)), line.substr(tab + 1));
    }
    return s;
}

std::shared_ptr<const nnue::Network> loadNet(const std::string& path) {
    std::string error;
    auto net = nnue::Network::load(path, error);
    INFO(error);
    REQUIRE(net);
    return net;
}

// The sample net (the one tests/data/nnue_samples.txt was written for).
std::shared_ptr<const nnue::Network> sampleNet() {
    static const auto net = loadNet(readSamples().netFile);
    return net;
}

// The colours swapped: red's pieces become black's on the rank seen from
// black (r -> 9 - r), and the other side is to move.
std::string flipColors(const Position& pos) {
    std::string fen;
    for (int rank = 0; rank < RankCount; ++rank) {  // FEN row i is red's rank 9 - i; flipped, it is rank i
        int empty = 0;
        for (int file = 0; file < FileCount; ++file) {
            const Piece p = pos.pieceOn(makeSquare(file, rank));
            if (!isPiece(p)) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty), empty = 0;
            const char c = pieceToChar(p);
            fen += char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c));
        }
        if (empty) fen += char('0' + empty);
        if (rank < RankCount - 1) fen += '/';
    }
    fen += pos.sideToMove() == Color::Red ? " b - - 0 1" : " w - - 0 1";
    return fen;
}

void appendLe(std::vector<uint8_t>& out, uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

void setU32(std::vector<uint8_t>& bytes, size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + size_t(i)] = uint8_t(v >> (8 * i));
}

// The bytes with their last four the CRC-32 of the others.
std::vector<uint8_t> withCrc(std::vector<uint8_t> bytes) {
    setU32(bytes, bytes.size() - 4, crc32(bytes.data(), bytes.size() - 4));
    return bytes;
}

// `bytes` with the u32 at `at` set to `v` and the checksum made good again.
std::vector<uint8_t> withU32(std::vector<uint8_t> bytes, size_t at, uint32_t v) {
    setU32(bytes, at, v);
    return withCrc(std::move(bytes));
}

// Parsing `bytes` fails with a message that names the file and says `why`.
void checkRefused(const std::vector<uint8_t>& bytes, const std::string& why) {
    std::string error;
    auto net = nnue::Network::parse(bytes.data(), bytes.size(), "bad.nnue", error);
    INFO(error);
    CHECK_FALSE(net);
    CHECK(error.rfind("bad.nnue: ", 0) == 0);
    CHECK(error.find(why) != std::string::npos);
}

std::shared_ptr<const nnue::Network> parseNet(const std::vector<uint8_t>& bytes, std::string_view name) {
    std::string error;
    auto net = nnue::Network::parse(bytes.data(), bytes.size(), name, error);
    INFO(error);
    REQUIRE(net);
    return net;
}

// A king-bucketed (format 2) net made from the sample net: bucket b's
// weights are the sample's plus a small pattern that differs by bucket, so
// that a wrong bucket or a missed mirror changes the evaluation.
const std::vector<uint8_t>& bucketedNetBytes() {
    static const std::vector<uint8_t> bytes = [] {
        const std::vector<uint8_t> plain = readBytes(readSamples().netFile);
        const int h = sampleNet()->hidden();
        const size_t rowBytes = 2 * size_t(h), ftBytes = rowBytes * size_t(nnue::FeatureCount);
        std::vector<uint8_t> out(plain.begin(), plain.begin() + long(nnue::HeaderBytes));
        setU32(out, 8, nnue::FormatVersionKingBuckets);
        setU32(out, 12, uint32_t(nnue::KingBucketCount * nnue::FeatureCount));
        for (int b = 0; b < nnue::KingBucketCount; ++b)
            for (size_t i = 0; i < ftBytes; i += 2) {
                const size_t at = nnue::HeaderBytes + i;
                const int f = int(i / rowBytes), j = int(i % rowBytes) / 2;
                const int w = int16_t(uint16_t(plain[at] | plain[at + 1] << 8)) + (b * 131 + f * 7 + j * 3) % 11 - 5;
                out.push_back(uint8_t(uint16_t(w) & 0xFF));
                out.push_back(uint8_t(uint16_t(w) >> 8));
            }
        out.insert(out.end(), plain.begin() + long(nnue::HeaderBytes + ftBytes), plain.end() - 4);
        appendLe(out, crc32(out.data(), out.size()), 4);
        return out;
    }();
    return bytes;
}

std::shared_ptr<const nnue::Network> bucketedNet() {
    static const auto net = parseNet(bucketedNetBytes(), "bucketed.nnue");
    return net;
}

// A format 3 net: bucketedNet()'s feature transformer and a 16-unit head
// whose weights follow simple patterns. tools/nnue/test_nnue.py
// (head_test_net) builds the same net and wrote the reference's evaluations
// into tests/data/nnue_head_samples.txt.
constexpr int TestHead = 16;
const std::vector<uint8_t>& headNetBytes() {
    static const std::vector<uint8_t> bytes = [] {
        const std::vector<uint8_t>& v2 = bucketedNetBytes();
        const int h = sampleNet()->hidden();
        const size_t ftEnd = nnue::HeaderBytes + 2 * size_t(nnue::KingBucketCount * nnue::FeatureCount + 1) * size_t(h);
        std::vector<uint8_t> out(v2.begin(), v2.begin() + long(ftEnd));
        setU32(out, 8, nnue::FormatVersionHead);
        setU32(out, 36, TestHead);
        for (int b = 0; b < nnue::BucketCount; ++b)
            for (int k = 0; k < TestHead; ++k)
                for (int j = 0; j < 2 * h; ++j) out.push_back(uint8_t((b * 37 + k * 101 + j * 53) % 15 - 7));
        for (int b = 0; b < nnue::BucketCount; ++b)
            for (int k = 0; k < TestHead; ++k) appendLe(out, uint32_t((b * 7 + k * 13) % 41 * 100 - 1000), 4);
        for (int b = 0; b < nnue::BucketCount; ++b)
            for (int k = 0; k < TestHead; ++k) appendLe(out, uint32_t((b * 11 + k * 29) % 201 - 100), 2);
        for (int b = 0; b < nnue::BucketCount; ++b) appendLe(out, uint32_t(b * 1000 - 3000), 4);
        appendLe(out, 0, 4);
        return withCrc(out);
    }();
    return bytes;
}

std::shared_ptr<const nnue::Network> headNet() {
    static const auto net = parseNet(headNetBytes(), "head.nnue");
    return net;
}

std::shared_ptr<const nnue::Network> netOfFormat(int format) {
    return format == 1 ? sampleNet() : format == 2 ? bucketedNet() : headNet();
}

// The left-right mirror of a position (file f -> 8 - f).
Position mirrorFiles(const Position& pos) {
    std::string fen = pos.fen();
    const size_t space = fen.find(' ');
    std::string board = fen.substr(0, space), out;
    size_t start = 0;
    while (start <= board.size()) {
        const size_t slash = std::min(board.find('/', start), board.size());
        std::string row;
        for (size_t i = start; i < slash; ++i) row.insert(row.begin(), board[i]);
        out += row;
        if (slash < board.size()) out += '/';
        start = slash + 1;
    }
    return test::fromFen(out + fen.substr(space));
}

}  // namespace

TEST_CASE("nnue: CRC-32 is zlib's", "[nnue]") {
    const char* text = "123456789";
    CHECK(crc32(reinterpret_cast<const uint8_t*>(text), 9) == 0xCBF43926u);
    CHECK(crc32(nullptr, 0) == 0u);
    // Every length and alignment against the bit-by-bit definition (the
    // sliced loop takes eight bytes at a time, the tail one by one).
    std::vector<uint8_t> bytes(300);
    uint64_t state = 7;
    for (auto& b : bytes) b = uint8_t(tables::splitMix64(state));
    auto bitwise = [](const uint8_t* data, size_t size) {
        uint32_t c = 0xFFFFFFFFu;
        for (size_t i = 0; i < size; ++i) {
            c ^= data[i];
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        return c ^ 0xFFFFFFFFu;
    };
    for (size_t offset = 0; offset < 9; ++offset)
        for (size_t size = 0; size + offset <= bytes.size(); size += 7)
            REQUIRE(crc32(bytes.data() + offset, size) == bitwise(bytes.data() + offset, size));
}

TEST_CASE("nnue: feature index and output bucket follow the spec", "[nnue]") {
    // (rel * 7 + type) * 90 + sq, black's squares seen from its side.
    CHECK(nnue::featureIndex(Color::Red, Piece::RedPawn, makeSquare(0, 3)) == 6 * 90 + 27);
    CHECK(nnue::featureIndex(Color::Black, Piece::RedPawn, makeSquare(0, 3)) == 13 * 90 + 6 * 9);
    CHECK(nnue::featureIndex(Color::Black, Piece::BlackRook, makeSquare(8, 9)) == 4 * 90 + 8);
    CHECK(nnue::featureIndex(Color::Red, Piece::BlackCannon, makeSquare(7, 7)) == 12 * 90 + 70);
    CHECK(nnue::outputBucket(Position()) == 7);
    CHECK(nnue::outputBucket(test::fromFen("4k4/9/9/9/9/9/9/9/9/3K5 w")) == 0);
    CHECK(nnue::outputBucket(test::fromFen("3k5/9/9/9/9/9/9/9/9/RRC1K2C1 w")) == 1);
    CHECK(nnue::outputBucket(test::fromFen("3k5/9/9/9/9/9/9/9/9/RRC1K4 w")) == 0);
}

TEST_CASE("nnue: the scalar kernels and the compiled SIMD ones agree bit for bit", "[nnue]") {
    INFO("compiled kernels: " << nnue::kernels::name());
    std::mt19937 rng(12345);
    for (int n : {32, 256, 1024}) {
        const size_t count = size_t(n);
        nnue::AlignedArray<int16_t> in{count}, add{count}, sub{count}, sub2{count}, w{count}, a{count}, b{count};
        for (int round = 0; round < 20; ++round) {
            // Full-range accumulators (the sums wrap) and weights within +-128;
            // some rounds near the clamp's ends and at the largest products.
            std::uniform_int_distribution<int> full(-32768, 32767), near(-40, 300), weight(-128, 128);
            for (int j = 0; j < n; ++j) {
                in[size_t(j)] = int16_t(round % 3 == 0 ? near(rng) : full(rng));
                add[size_t(j)] = int16_t(full(rng));
                sub[size_t(j)] = int16_t(full(rng));
                sub2[size_t(j)] = int16_t(full(rng));
                w[size_t(j)] = int16_t(round % 5 == 4 ? 128 : weight(rng));
            }
            if (round % 5 == 4)
                for (int j = 0; j < n; ++j) in[size_t(j)] = 255;  // the int32 sum wraps at n = 1024
            nnue::kernels::update(a.data(), in.data(), add.data(), sub.data(), nullptr, n);
            nnue::kernels::scalar::update(b.data(), in.data(), add.data(), sub.data(), nullptr, n);
            CHECK(std::memcmp(a.data(), b.data(), size_t(n) * 2) == 0);
            nnue::kernels::update(a.data(), in.data(), add.data(), sub.data(), sub2.data(), n);
            nnue::kernels::scalar::update(b.data(), in.data(), add.data(), sub.data(), sub2.data(), n);
            CHECK(std::memcmp(a.data(), b.data(), size_t(n) * 2) == 0);
            nnue::kernels::addRow(a.data(), add.data(), n);
            nnue::kernels::scalar::addRow(b.data(), add.data(), n);
            CHECK(std::memcmp(a.data(), b.data(), size_t(n) * 2) == 0);
            nnue::kernels::subRow(a.data(), sub.data(), n);
            nnue::kernels::scalar::subRow(b.data(), sub.data(), n);
            CHECK(std::memcmp(a.data(), b.data(), size_t(n) * 2) == 0);
            CHECK(nnue::kernels::screluDot(in.data(), w.data(), n) ==
                  nnue::kernels::scalar::screluDot(in.data(), w.data(), n));
        }
    }
    // The wrap itself: 1024 * 255^2 * 128 = 8,522,956,800 wraps to -66,977,792.
    nnue::AlignedArray<int16_t> v(1024), w(1024);
    for (size_t j = 0; j < 1024; ++j) v[j] = 300, w[j] = 128;
    const int64_t exact = int64_t(1024) * 255 * 255 * 128;
    CHECK(nnue::kernels::screluDot(v.data(), w.data(), 1024) == int32_t(uint32_t(uint64_t(exact))));
    CHECK(nnue::kernels::scalar::screluDot(v.data(), w.data(), 1024) == -66977792);
}

TEST_CASE("nnue: the head kernels: scalar and SIMD agree bit for bit", "[nnue]") {
    INFO("compiled kernels: " << nnue::kernels::name());
    // The pack against its definition at a few points.
    nnue::AlignedArray<int16_t> acc(32);
    const int16_t points[] = {-32768, -1, 0, 22, 23, 255, 256, 32767};
    const uint8_t packed[] = {0, 0, 0, 0, 1, 127, 127, 127};
    for (size_t j = 0; j < 32; ++j) acc[j] = points[j % 8];
    uint8_t x[32];
    nnue::kernels::screluPack(acc.data(), x, 32);
    for (size_t j = 0; j < 32; ++j) CHECK(int(x[j]) == int(packed[j % 8]));
    std::mt19937 rng(777);
    for (int n : {64, 256, 2048})
        for (int outputs : {8, 16, 32}) {
            const size_t count = size_t(n), m = size_t(outputs);
            nnue::AlignedArray<int16_t> a(count);
            nnue::AlignedArray<int8_t> w(count * m);
            // x and y off the 64-byte grid, as the stack may give them.
            std::vector<uint8_t> xa(count + 1), xb(count + 1);
            std::vector<int32_t> bias(m), ya(m + 1), yb(m + 1);
            for (int round = 0; round < 6; ++round) {
                std::uniform_int_distribution<int> full(-32768, 32767), near(-40, 300), weight(-128, 127),
                    b(-(1 << 30), 1 << 30);
                for (size_t j = 0; j < count; ++j) a[j] = int16_t(round % 2 ? near(rng) : full(rng));
                // The largest products: every x 127, every weight -128 or 127.
                const bool extreme = round == 5;
                for (size_t j = 0; j < w.size(); ++j) w[j] = int8_t(extreme ? (j % 3 ? 127 : -128) : weight(rng));
                if (extreme)
                    for (size_t j = 0; j < count; ++j) a[j] = 255;
                for (auto& v : bias) v = b(rng);
                nnue::kernels::screluPack(a.data(), xa.data() + 1, n);
                nnue::kernels::scalar::screluPack(a.data(), xb.data() + 1, n);
                REQUIRE(std::memcmp(xa.data() + 1, xb.data() + 1, count) == 0);
                CHECK(*std::max_element(xa.begin() + 1, xa.end()) <= 127);
                nnue::kernels::l1Product(xa.data() + 1, w.data(), bias.data(), ya.data() + 1, n, outputs);
                nnue::kernels::scalar::l1Product(xa.data() + 1, w.data(), bias.data(), yb.data() + 1, n, outputs);
                CHECK(std::memcmp(ya.data() + 1, yb.data() + 1, m * 4) == 0);
                // The scalar form against a plain 64-bit sum.
                for (int k = 0; k < outputs; k += 7) {
                    int64_t want = bias[size_t(k)];
                    for (size_t j = 0; j < count; ++j) want += int64_t(xa[j + 1]) * w[size_t(k) * count + j];
                    CHECK(yb[size_t(k) + 1] == want);
                }
            }
        }
}

// Every sample evaluates as the reference says, from scratch (`Network`) and
// through an `Evaluator`; returns the output buckets the samples reached (a bit each).
int checkSamples(const std::shared_ptr<const nnue::Network>& net, const Samples& samples) {
    nnue::Evaluator evaluator;
    evaluator.setNetwork(net);
    int buckets = 0;
    for (const auto& [want, fen] : samples.lines) {
        INFO(fen);
        const Position pos = test::fromFen(fen);
        CHECK(net->evaluate(pos) == want);
        CHECK(evaluator.evaluate(pos) == want);
        buckets |= 1 << nnue::outputBucket(pos);
    }
    return buckets;
}

TEST_CASE("nnue: evaluations equal the Python integer reference", "[nnue]") {
    const Samples samples = readSamples();
    REQUIRE(samples.lines.size() >= 45);
    CHECK(checkSamples(sampleNet(), samples) == 0xFF);  // every output bucket
    // So does the embedded net when it is the sample net (the default build's).
    const auto embedded = nnue::embeddedNetwork();
    if (embedded && embedded->name() == samples.netFile.substr(samples.netFile.rfind('/') + 1))
        for (const auto& [want, fen] : samples.lines) CHECK(embedded->evaluate(test::fromFen(fen)) == want);
}

TEST_CASE("nnue: a format 3 net (a hidden-layer head) evaluates as the Python reference", "[nnue]") {
    const Samples samples = readSamples("nnue_head_samples.txt");
    REQUIRE(samples.netFile == readSamples().netFile);  // headNet() is made from it
    REQUIRE(samples.lines.size() >= 45);
    auto net = headNet();
    CHECK(net->headSize() == TestHead);
    CHECK(net->kingBuckets() == nnue::KingBucketCount);
    CHECK(bucketedNet()->headSize() == 0);
    CHECK(reinterpret_cast<uintptr_t>(net->l1Weights(3)) % 64 == 0);
    CHECK(checkSamples(net, samples) == 0xFF);
    int differ = 0;
    for (const auto& [want, fen] : samples.lines) differ += want != bucketedNet()->evaluate(test::fromFen(fen));
    CHECK(differ > 40);  // the head, not the linear output
}

TEST_CASE("nnue: damaged or out-of-range format 3 nets are refused with the reason", "[nnue]") {
    const std::vector<uint8_t>& good = headNetBytes();
    for (uint32_t head : {0u, 4u, 12u, 40u, 0xFFFFFFFFu})
        checkRefused(withU32(good, 36, head), "head size " + std::to_string(head));
    checkRefused(withU32(good, 12, uint32_t(nnue::FeatureCount)), "a version 3 net has 7560 and 8");
    checkRefused(withU32(good, 36, 8), "a net with hidden size 128 has");  // a sound L, but not this file's
    checkRefused({good.begin(), good.end() - 1}, "truncated");
    std::vector<uint8_t> bad = good;
    bad[bad.size() / 2] ^= 0x40;
    checkRefused(bad, "checksum mismatch");
    // Values beyond what the kernels and the int32 sums take, the file otherwise sound.
    const int h = headNet()->hidden();
    const size_t l1At = nnue::HeaderBytes + 2 * size_t(nnue::KingBucketCount * nnue::FeatureCount + 1) * size_t(h);
    const size_t l1BiasAt = l1At + size_t(nnue::BucketCount * TestHead * 2 * h);
    const size_t l2BiasAt = l1BiasAt + size_t(nnue::BucketCount * TestHead * 6);
    bad = good;
    bad[l1At + size_t(TestHead * 2 * h) + 5] = 0x80;  // -128 in bucket 1
    checkRefused(withCrc(bad), "L1 weight -128 is beyond +-127 (bucket 1, unit 0, input 5)");
    checkRefused(withU32(good, l1BiasAt + 4 * 17, (1u << 30) + 1),
                 "L1 bias 1073741825 is beyond +-2^30 (bucket 1, unit 1)");
    checkRefused(withU32(good, l2BiasAt + 4 * 7, uint32_t(-(1 << 30) - 1)),
                 "L2 bias -1073741825 is beyond +-2^30 (bucket 7)");
    // The limits themselves are fine.
    bad = good;
    bad[l1At] = 0x81;  // -127
    setU32(bad, l1BiasAt, 1u << 30);
    setU32(bad, l2BiasAt, uint32_t(-(1 << 30)));
    CHECK(parseNet(withCrc(bad), "edge3.nnue"));
}

TEST_CASE("nnue: the embedded net is its file's", "[nnue]") {
    if (EmbeddedNetFile.empty()) {
        CHECK_FALSE(nnue::embeddedNetwork());
        CHECK(nnue::embeddedNetworkName().empty());
        return;
    }
    auto embedded = nnue::embeddedNetwork();
    INFO(nnue::embeddedNetworkError());
    REQUIRE(embedded);
    CHECK(embedded == nnue::embeddedNetwork());  // parsed once
    CHECK(EmbeddedNetFile.size() >= embedded->name().size());
    CHECK(EmbeddedNetFile.substr(EmbeddedNetFile.size() - embedded->name().size()) == embedded->name());
    auto file = loadNet(EmbeddedNetFile);
    CHECK(file->hidden() == embedded->hidden());
    CHECK(file->qb() == embedded->qb());
    const int h = file->hidden();
    CHECK(std::memcmp(file->featureWeights(0), embedded->featureWeights(0),
                      size_t(nnue::FeatureCount) * size_t(file->kingBuckets()) * size_t(h) * 2) == 0);
    CHECK(std::memcmp(file->outputWeights(0), embedded->outputWeights(0),
                      size_t(nnue::BucketCount) * 2 * size_t(h) * 2) == 0);
    for (int b = 0; b < nnue::BucketCount; ++b) CHECK(file->outputBias(b) == embedded->outputBias(b));
    // 64-byte aligned weights, for the SIMD loads.
    CHECK(reinterpret_cast<uintptr_t>(embedded->featureWeights(0)) % 64 == 0);
    CHECK(reinterpret_cast<uintptr_t>(embedded->featureBias()) % 64 == 0);
    CHECK(reinterpret_cast<uintptr_t>(embedded->outputWeights(1)) % 64 == 0);
}

TEST_CASE("nnue: damaged or foreign net files are refused with the reason", "[nnue]") {
    const std::vector<uint8_t> good = readBytes(readSamples().netFile);
    {
        std::string error;
        CHECK(nnue::Network::parse(good.data(), good.size(), "good.nnue", error));
        CHECK(error.empty());
    }
    std::vector<uint8_t> bad = good;
    bad[0] = 'X';
    checkRefused(bad, "not a Chariot net file");
    checkRefused({good.begin(), good.begin() + 20}, "too short");
    checkRefused({good.begin(), good.end() - 1}, "truncated");
    checkRefused({good.begin(), good.begin() + long(good.size()) / 2}, "truncated");
    bad = good;
    bad.push_back(0);
    checkRefused(bad, "a net with hidden size");
    bad = good;
    bad[5000] ^= 0x10;
    checkRefused(bad, "checksum mismatch");
    checkRefused(withU32(good, 8, 4), "version 4");
    checkRefused(withU32(good, 8, 2), "a version 2 net has 7560 and 8");
    checkRefused(withU32(good, 8, 3), "a version 3 net has 7560 and 8");
    checkRefused(withU32(good, 12, 1261), "1261 features");
    checkRefused(withU32(good, 16, 48), "hidden size 48");
    checkRefused(withU32(good, 16, 2048), "hidden size 2048");
    checkRefused(withU32(good, 20, 9), "9 output buckets");
    checkRefused(withU32(good, 24, 127), "QA is 127");
    checkRefused(withU32(good, 28, 0), "QB 0");
    // An output weight beyond +-128, the file otherwise sound.
    const int h = sampleNet()->hidden();
    const size_t outAt = nnue::HeaderBytes + 2 * size_t(nnue::FeatureCount) * size_t(h) + 2 * size_t(h);
    for (int16_t w : {int16_t(129), int16_t(-129), int16_t(32767)}) {
        bad = good;
        bad[outAt + 6] = uint8_t(uint16_t(w) & 0xFF);
        bad[outAt + 7] = uint8_t(uint16_t(w) >> 8);
        checkRefused(withCrc(bad), "beyond +-128");
    }
    bad = good;
    bad[outAt] = 128;  // +-128 itself is fine
    bad[outAt + 1] = 0;
    std::string error;
    CHECK(nnue::Network::parse(withCrc(bad).data(), bad.size(), "edge.nnue", error));
    // Another QB and SCALE are read from the header.
    auto other = nnue::Network::parse(withU32(good, 28, 64).data(), good.size(), "qb64.nnue", error);
    REQUIRE(other);
    CHECK(other->qb() == 64);
    CHECK(nnue::Network::load(SourceDir + "/no-such-net.nnue", error) == nullptr);
    CHECK(error.find("cannot open") != std::string::npos);
}

TEST_CASE("nnue: incremental accumulators equal full refreshes along random play", "[nnue]") {
    const int format = GENERATE(1, 2, 3);
    auto net = netOfFormat(format);
    INFO("net format " << format);
    nnue::Evaluator evaluator;
    evaluator.setNetwork(net);
    std::mt19937_64 rng(2024);
    int evaluated = 0, nullMoves = 0, captures = 0, checks = 0;
    for (std::string_view fen : benchPositions()) {
        Position pos = test::fromFen(fen);
        std::vector<bool> madeNull;  // per ply made: a null move?
        for (int step = 0; step < 160; ++step) {
            const int roll = int(rng() % 100);
            if (roll < 25 && !madeNull.empty()) {
                // Unmake a ply.
                if (madeNull.back())
                    pos.unmakeNullMove();
                else
                    pos.unmakeMove();
                madeNull.pop_back();
            } else if (roll < 32 && !pos.inCheck() && (madeNull.empty() || !madeNull.back())) {
                pos.makeNullMove();
                madeNull.push_back(true);
                ++nullMoves;
            } else {
                MoveList list;
                generateLegal(pos, list);
                if (list.size == 0) continue;
                // Captures more often than their share, so that pieces come off.
                Move m = list.moves[rng() % uint64_t(list.size)];
                for (int k = 0; k < list.size && rng() % 2; ++k)
                    if (!pos.isEmpty(list.moves[k].to())) {
                        m = list.moves[k];
                        break;
                    }
                captures += !pos.isEmpty(m.to());
                pos.makeMove(m);
                checks += pos.inCheck();
                madeNull.push_back(false);
            }
            // Evaluate only some positions: the evaluator walks back over
            // the plies it did not see (and refreshes beyond its walk).
            if (rng() % 3 == 0) {
                INFO(pos.fen() << " after " << madeNull.size() << " plies");
                REQUIRE(evaluator.evaluate(pos) == net->evaluate(pos));
                ++evaluated;
            }
        }
    }
    CHECK(evaluated > 1500);
    CHECK(nullMoves > 100);
    CHECK(captures > 300);
    CHECK(checks > 20);
    const auto& stats = evaluator.stats();
    CHECK(stats.reused > 50);
    CHECK(stats.updated > 500);
    CHECK(stats.refreshed >= 36);  // at least each game's first
    // Fresh sums start from the cached view of the last board (all but the
    // first in each view), and still equal the full refresh above.
    CHECK(stats.cachedSums >= 2 * stats.refreshed);
}

TEST_CASE("nnue: a king-bucketed net: buckets by the king's palace square, mirrored right of the centre", "[nnue]") {
    auto net = bucketedNet();
    CHECK(net->kingBuckets() == nnue::KingBucketCount);
    CHECK(sampleNet()->kingBuckets() == 1);
    // Six buckets: rank in the palace x centre file, from each side.
    std::vector<int> bases;
    for (int rank = 0; rank < 3; ++rank)
        for (int file = 3; file <= 5; ++file) {
            const auto red = net->view(Color::Red, makeSquare(file, rank));
            const auto black = net->view(Color::Black, makeSquare(file, 9 - rank));
            CHECK(red == black);
            CHECK(red.mirror == (file == 5));
            CHECK(red.base == (rank * 2 + (file == 4)) * nnue::FeatureCount);
            bases.push_back(red.base);
        }
    std::sort(bases.begin(), bases.end());
    CHECK(std::unique(bases.begin(), bases.end()) - bases.begin() == nnue::KingBucketCount);
    // With both kings off the centre file, a position and its left-right
    // mirror look the same to both perspectives; the plain net needs no such
    // thing and does not give it.
    int mirrored = 0, plainDiffers = 0;
    std::mt19937_64 rng(7);
    for (std::string_view fen : benchPositions()) {
        Position pos = test::fromFen(fen);
        for (int i = 0; i < 40; ++i) {
            MoveList list;
            generateLegal(pos, list);
            if (list.size == 0) break;
            pos.makeMove(list.moves[rng() % uint64_t(list.size)]);
            if (fileOf(pos.kingSquare(Color::Red)) == 4 || fileOf(pos.kingSquare(Color::Black)) == 4) continue;
            const Position other = mirrorFiles(pos);
            INFO(pos.fen() << " mirrored " << other.fen());
            CHECK(net->evaluate(pos) == net->evaluate(other));
            plainDiffers += sampleNet()->evaluate(pos) != sampleNet()->evaluate(other);
            ++mirrored;
        }
    }
    CHECK(mirrored > 30);
    CHECK(plainDiffers > 0);
    // The buckets matter: the same position evaluates otherwise than with bucket 0's weights alone.
    CHECK(net->evaluate(Position()) != sampleNet()->evaluate(Position()));
}

TEST_CASE("nnue: a position and its colour-flipped mirror evaluate the same for the side to move", "[nnue]") {
    const int format = GENERATE(1, 2, 3);
    auto net = netOfFormat(format);
    INFO("net format " << format);
    int compared = 0;
    auto check = [&](const Position& pos) {
        const Position flipped = test::fromFen(flipColors(pos));
        INFO(pos.fen() << " flipped " << flipped.fen());
        CHECK(net->evaluate(pos) == net->evaluate(flipped));
        CHECK(test::fromFen(flipColors(flipped)).key() == pos.key());
        ++compared;
    };
    for (const auto& [value, fen] : readSamples().lines) check(test::fromFen(fen));
    std::mt19937_64 rng(99);
    for (std::string_view fen : benchPositions()) {
        Position pos = test::fromFen(fen);
        for (int i = 0; i < 12; ++i) {
            MoveList list;
            generateLegal(pos, list);
            if (list.size == 0) break;
            pos.makeMove(list.moves[rng() % uint64_t(list.size)]);
            check(pos);
        }
    }
    CHECK(compared > 300);
}

TEST_CASE("nnue: evalfile refuses bad files and keeps the previous net", "[nnue][engine]") {
    test::TempDir dir;
    const std::string netFile = readSamples().netFile;
    const std::vector<uint8_t> good = readBytes(netFile);
    Engine engine;
    const auto before = engine.network();
    CHECK(before == nnue::embeddedNetwork());

    auto messages = [](const OptionRegistry::SetResult& r) {
        std::string all;
        for (const auto& m : r.messages) all += m + "\n";
        return all;
    };
    auto evalFileDefault = [&] {
        for (const Option& o : engine.options().all())
            if (o.ucciName == "evalfile") return o.current;
        return std::string("?");
    };

    const std::string loaded = dir.file("copy.nnue");
    writeBytes(loaded, good);
    auto r = engine.setOption("evalfile", loaded);
    INFO(messages(r));
    CHECK(r.applied);
    REQUIRE(engine.network());
    CHECK(engine.network() != before);
    CHECK(engine.network()->name() == loaded);
    const auto fromFile = engine.network();

    std::vector<uint8_t> truncated(good.begin(), good.end() - 100), corrupt = good, magic = good;
    corrupt[good.size() / 2] ^= 1;
    magic[3] = 'X';
    for (const auto& [name, bytes, why] :
         {std::tuple{"truncated.nnue", truncated, "truncated"}, std::tuple{"corrupt.nnue", corrupt, "checksum"},
          std::tuple{"magic.nnue", magic, "not a Chariot net file"}}) {
        const std::string path = dir.file(name);
        writeBytes(path, bytes);
        r = engine.setOption("evalfile", path);
        INFO(messages(r));
        CHECK_FALSE(r.applied);
        CHECK(messages(r).find(why) != std::string::npos);
        CHECK(messages(r).find("keeping " + loaded) != std::string::npos);
        CHECK(engine.network() == fromFile);
        CHECK(evalFileDefault() == loaded);  // the option keeps its value
    }
    r = engine.setOption("evalfile", dir.file("missing.nnue"));
    CHECK_FALSE(r.applied);
    CHECK(engine.network() == fromFile);

    r = engine.setOption("EvalFile", "<embedded>");
    CHECK(r.applied);
    CHECK(engine.network() == nnue::embeddedNetwork());
    CHECK(evalFileDefault() == "<embedded>");
}

TEST_CASE("nnue: eval shows the net's value", "[nnue][engine]") {
    Engine engine;
    if (!engine.network()) engine.setNetwork(sampleNet());
    REQUIRE_FALSE(engine.setPosition("startpos", {"h2e2"}));
    std::string report = engine.evalReport();
    CHECK(report.find("NNUE " + engine.network()->name() + ": " +
                      std::to_string(engine.network()->evaluate(engine.position()))) != std::string::npos);
    CHECK(report.find("the search uses it") != std::string::npos);  // the default
    engine.setOption("usennue", "false");
    report = engine.evalReport();
    CHECK(report.find("not in use") != std::string::npos);
    engine.setNetwork(nullptr);
    CHECK(engine.evalReport().find("NNUE") == std::string::npos);
}

TEST_CASE("nnue: bench with the net is deterministic, the same from the embedded net and its file", "[nnue][bench]") {
    auto quiet = [](const std::string&) {};
    BenchConfig config;
    config.depth = 5;
    config.positions = 12;
    config.eval = BenchEval::Nnue;

    Engine embedded;
    if (!embedded.network()) embedded.setNetwork(sampleNet());
    const std::string file = EmbeddedNetFile.empty() ? readSamples().netFile : EmbeddedNetFile;
    Engine fromFile;
    REQUIRE(fromFile.setOption("evalfile", file).applied);

    const BenchResult a = runBench(embedded, config, quiet);
    const BenchResult b = runBench(fromFile, config, quiet);
    const BenchResult again = runBench(embedded, config, quiet);
    REQUIRE(a.perPosition.size() == 12);
    CHECK(a.nodes > 0);
    CHECK(a.perPosition == b.perPosition);
    CHECK(a.bestMoves == b.bestMoves);
    CHECK(a.perPosition == again.perPosition);

    // The default is the net where one is loaded.
    config.eval = BenchEval::Default;
    CHECK(runBench(embedded, config, quiet).perPosition == a.perPosition);

    // The same engine without the net gives the handcrafted count of a fresh engine.
    config.eval = BenchEval::Handcrafted;
    const BenchResult handcrafted = runBench(embedded, config, quiet);
    CHECK(handcrafted.perPosition == runBench(config, quiet).perPosition);
    CHECK(handcrafted.perPosition != a.perPosition);

    // An engine with no net benches its handcrafted evaluation by default.
    Engine withoutNet;
    withoutNet.setNetwork(nullptr);
    config.eval = BenchEval::Default;
    CHECK(runBench(withoutNet, config, quiet).perPosition == handcrafted.perPosition);
    config.eval = BenchEval::Nnue;
    CHECK(runBench(withoutNet, config, quiet).perPosition.empty());

    // Below knowledge large the net is not used.
    embedded.setOption("knowledge", "medium");
    config.eval = BenchEval::Nnue;
    const BenchResult mediumNet = runBench(embedded, config, quiet);
    config.eval = BenchEval::Handcrafted;
    CHECK(mediumNet.perPosition == runBench(embedded, config, quiet).perPosition);
}

TEST_CASE("nnue: bench arguments take a last word nnue or hce", "[nnue][bench]") {
    BenchConfig config;
    CHECK(config.eval == BenchEval::Default);
    REQUIRE_FALSE(parseBenchArgs({"7", "32", "nnue"}, WorkCaps{}, config));
    CHECK(config.depth == 7);
    CHECK(config.hashMB == 32);
    CHECK(config.eval == BenchEval::Nnue);
    config = BenchConfig{};
    REQUIRE_FALSE(parseBenchArgs({"NNUE"}, WorkCaps{}, config));
    CHECK(config.eval == BenchEval::Nnue);
    CHECK(config.depth == BenchConfig{}.depth);
    config = BenchConfig{};
    REQUIRE_FALSE(parseBenchArgs({"9", "hce"}, WorkCaps{}, config));
    CHECK(config.eval == BenchEval::Handcrafted);
    CHECK(config.depth == 9);
    config = BenchConfig{};
    CHECK(parseBenchArgs({"nnue", "7"}, WorkCaps{}, config));
    CHECK(parseBenchArgs({"1", "2", "3", "4", "nnue"}, WorkCaps{}, config));
    CHECK(config.eval == BenchEval::Default);
}
