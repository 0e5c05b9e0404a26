#include "chariot/egtb/table_file.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <zstd.h>

#include "chariot/checksum.h"

namespace chariot::egtb {

namespace {

constexpr char Magic[8] = {'C', 'H', 'R', 'T', 'E', 'G', 'T', 'B'};
constexpr int NameBytes = 24;
constexpr int Streams = 4;  // WDL red, WDL black, DTM red, DTM black
constexpr int ZstdLevel = 9;

struct Writer {
    std::vector<uint8_t> out;
    void raw(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        out.insert(out.end(), b, b + n);
    }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
    }
};

struct Reader {
    const uint8_t* p;
    size_t size, at = 0;
    bool ok = true;
    bool need(size_t n) {
        if (at + n > size) ok = false;
        return ok;
    }
    uint32_t u32() {
        if (!need(4)) return 0;
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(p[at++]) << (8 * i);
        return v;
    }
    uint64_t u64() {
        if (!need(8)) return 0;
        uint64_t v = 0;
        for (int i = 0; i < 8; ++i) v |= uint64_t(p[at++]) << (8 * i);
        return v;
    }
};

int wdlCode(uint16_t v) { return v == TbDraw ? 0 : v == TbBroken ? 3 : isWinValue(v) ? 1 : 2; }

uint64_t blocksFor(uint64_t size) { return (size + BlockIndices - 1) / BlockIndices; }

bool readAll(const std::string& path, std::vector<uint8_t>& bytes, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!in || ec) {
        error = "cannot open " + path;
        return false;
    }
    // One read of the whole file (a byte iterator is several times slower).
    bytes.resize(size_t(size));
    in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(size));
    if (in.gcount() != std::streamsize(size)) {
        error = "cannot read " + path;
        return false;
    }
    return true;
}

// Parses and checks the header, offsets and CRC of a whole file.
bool parse(const std::vector<uint8_t>& bytes, const std::string& path, TableInfo& info,
           std::array<std::vector<uint64_t>, Streams>& offsets, std::string& error) {
    auto fail = [&](const std::string& why) {
        error = path + ": " + why;
        return false;
    };
    if (bytes.size() < sizeof Magic + 4 || std::memcmp(bytes.data(), Magic, sizeof Magic) != 0)
        return fail("not a Chariot tablebase file");
    uint32_t stored = 0;
    for (int i = 0; i < 4; ++i) stored |= uint32_t(bytes[bytes.size() - 4 + size_t(i)]) << (8 * i);
    if (crc32(bytes.data(), bytes.size() - 4) != stored) return fail("checksum mismatch (damaged or incomplete file)");
    Reader r{bytes.data(), bytes.size() - 4};
    r.at = sizeof Magic;
    const uint32_t format = r.u32(), generator = r.u32();
    if (format != FormatVersion)
        return fail("format version " + std::to_string(format) + ", this build reads " + std::to_string(FormatVersion));
    if (generator != GeneratorVersion)
        return fail("made by generator version " + std::to_string(generator) + ", this build's is " +
                    std::to_string(GeneratorVersion) + ": rebuild it");
    if (!r.need(NameBytes)) return fail("truncated header");
    std::string name(reinterpret_cast<const char*>(bytes.data() + r.at), NameBytes);
    name.resize(std::strlen(name.c_str()));
    r.at += NameBytes;
    std::string why;
    auto m = Material::parse(name, why);
    if (!m) return fail("bad material '" + name + "': " + why);
    info.material = *m;
    info.size = r.u64();
    for (int s = 0; s < 2; ++s) {
        info.counts.legal[size_t(s)] = r.u64();
        info.counts.wins[size_t(s)] = r.u64();
        info.counts.losses[size_t(s)] = r.u64();
        info.counts.draws[size_t(s)] = r.u64();
    }
    info.counts.maxDtm = int(r.u32());
    const uint32_t blockIndices = r.u32();
    const uint64_t blocks = r.u64();
    if (!r.ok) return fail("truncated header");
    if (info.size != Indexer(*m).size() || blockIndices != BlockIndices || blocks != blocksFor(info.size))
        return fail("header does not match its material");
    for (auto& o : offsets) {
        o.resize(blocks + 1);
        for (auto& x : o) x = r.u64();
    }
    if (!r.ok) return fail("truncated offset table");
    for (auto& o : offsets)
        for (size_t i = 0; i < o.size(); ++i)
            if (o[i] < r.at || o[i] > bytes.size() - 4 || (i && o[i] < o[i - 1])) return fail("bad offset table");
    info.fileBytes = bytes.size();
    return true;
}

bool decompress(const std::vector<uint8_t>& bytes, const std::array<std::vector<uint64_t>, Streams>& offsets,
                int stream, uint64_t block, void* out, size_t outBytes) {
    const uint64_t begin = offsets[size_t(stream)][block], end = offsets[size_t(stream)][block + 1];
    const size_t got = ZSTD_decompress(out, outBytes, bytes.data() + begin, end - begin);
    return !ZSTD_isError(got) && got == outBytes;
}

}  // namespace

std::string tableFileName(const Material& m) { return m.name() + ".xtb"; }

bool writeTable(const Table& t, const std::string& path, std::string& error) {
    const TableCounts counts = t.counts();
    const uint64_t size = t.indexer.size(), blocks = blocksFor(size);
    Writer w;
    w.raw(Magic, sizeof Magic);
    w.u32(FormatVersion);
    w.u32(GeneratorVersion);
    char name[NameBytes] = {};
    const std::string n = t.material().name();
    std::memcpy(name, n.data(), std::min<size_t>(n.size(), NameBytes - 1));
    w.raw(name, NameBytes);
    w.u64(size);
    for (int s = 0; s < 2; ++s) {
        w.u64(counts.legal[size_t(s)]);
        w.u64(counts.wins[size_t(s)]);
        w.u64(counts.losses[size_t(s)]);
        w.u64(counts.draws[size_t(s)]);
    }
    w.u32(uint32_t(counts.maxDtm));
    w.u32(BlockIndices);
    w.u64(blocks);
    const size_t offsetsAt = w.out.size();
    w.out.resize(offsetsAt + size_t(Streams) * (blocks + 1) * 8);
    std::array<std::vector<uint64_t>, Streams> offsets;
    std::vector<uint8_t> raw, packed;
    for (int stream = 0; stream < Streams; ++stream) {
        const auto& values = t.values[size_t(stream % 2)];
        for (uint64_t b = 0; b < blocks; ++b) {
            offsets[size_t(stream)].push_back(w.out.size());
            const uint64_t begin = b * BlockIndices, end = std::min(size, begin + BlockIndices);
            if (stream < 2) {
                raw.assign(size_t((BlockIndices + 3) / 4), 0);
                for (uint64_t i = begin; i < end; ++i)
                    raw[size_t((i - begin) / 4)] |= uint8_t(wdlCode(values[i]) << (2 * ((i - begin) % 4)));
            } else {
                raw.assign(size_t(BlockIndices) * 2, 0);
                for (uint64_t i = begin; i < end; ++i) {
                    raw[size_t(2 * (i - begin))] = uint8_t(values[i]);
                    raw[size_t(2 * (i - begin) + 1)] = uint8_t(values[i] >> 8);
                }
            }
            packed.resize(ZSTD_compressBound(raw.size()));
            const size_t got = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), ZstdLevel);
            if (ZSTD_isError(got)) {
                error = std::string("zstd: ") + ZSTD_getErrorName(got);
                return false;
            }
            w.raw(packed.data(), got);
        }
        offsets[size_t(stream)].push_back(w.out.size());
    }
    size_t at = offsetsAt;
    for (const auto& o : offsets)
        for (uint64_t x : o) {
            for (int i = 0; i < 8; ++i) w.out[at++] = uint8_t(x >> (8 * i));
        }
    w.u32(crc32(w.out.data(), w.out.size()));
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(w.out.data()), std::streamsize(w.out.size()));
        if (!out.good()) {
            error = "cannot write " + tmp;
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        error = "cannot rename " + tmp + ": " + ec.message();
        return false;
    }
    return true;
}

std::optional<TableInfo> inspectTable(const std::string& path, std::string& error) {
    std::vector<uint8_t> bytes;
    if (!readAll(path, bytes, error)) return std::nullopt;
    TableInfo info;
    std::array<std::vector<uint64_t>, Streams> offsets;
    if (!parse(bytes, path, info, offsets, error)) return std::nullopt;
    return info;
}

std::unique_ptr<Table> readTable(const std::string& path, std::string& error) {
    std::vector<uint8_t> bytes;
    if (!readAll(path, bytes, error)) return nullptr;
    TableInfo info;
    std::array<std::vector<uint64_t>, Streams> offsets;
    if (!parse(bytes, path, info, offsets, error)) return nullptr;
    auto t = std::make_unique<Table>(info.material);
    std::vector<uint8_t> raw(size_t(BlockIndices) * 2);
    for (int s = 0; s < 2; ++s) {
        auto& values = t->values[size_t(s)];
        values.resize(info.size);
        for (uint64_t b = 0; b < offsets[0].size() - 1; ++b) {
            if (!decompress(bytes, offsets, 2 + s, b, raw.data(), raw.size())) {
                error = path + ": a block does not decompress";
                return nullptr;
            }
            const uint64_t begin = b * BlockIndices, end = std::min(info.size, begin + BlockIndices);
            for (uint64_t i = begin; i < end; ++i)
                values[i] = uint16_t(raw[size_t(2 * (i - begin))] | raw[size_t(2 * (i - begin) + 1)] << 8);
        }
    }
    return t;
}

std::unique_ptr<TableFile> TableFile::open(const std::string& path, std::string& error) {
    std::vector<uint8_t> bytes;
    if (!readAll(path, bytes, error)) return nullptr;
    TableInfo info;
    std::array<std::vector<uint64_t>, Streams> offsets;
    if (!parse(bytes, path, info, offsets, error)) return nullptr;
    std::unique_ptr<TableFile> f(new TableFile(info.material));
    f->info_ = info;
    f->bytes_ = std::move(bytes);
    f->offsets_ = std::move(offsets);
    return f;
}

int TableFile::wdl(int stm, uint64_t idx) const {
    std::call_once(wdlOnce_, [this] {
        const uint64_t blocks = offsets_[0].size() - 1;
        for (int s = 0; s < 2; ++s) {
            auto& out = wdl_[size_t(s)];
            out.assign(size_t(blocks * BlockIndices / 4), 0xFF);  // broken where a block fails
            for (uint64_t b = 0; b < blocks; ++b)
                if (!decompress(bytes_, offsets_, s, b, out.data() + b * BlockIndices / 4, BlockIndices / 4))
                    std::fill_n(out.data() + b * BlockIndices / 4, BlockIndices / 4, uint8_t(0xFF));
        }
    });
    return (wdl_[size_t(stm)][size_t(idx / 4)] >> (2 * (idx % 4))) & 3;
}

uint16_t TableFile::value(int stm, uint64_t idx) const {
    const uint64_t block = idx / BlockIndices;
    const uint64_t key = (uint64_t(2 + stm) << 32) + block + 1;
    std::lock_guard lock(cacheMutex_);
    for (const auto& [k, values] : cache_)
        if (k == key) return values[size_t(idx % BlockIndices)];
    auto& slot = cache_[cacheNext_];
    cacheNext_ = (cacheNext_ + 1) % cache_.size();
    slot.first = key;
    std::vector<uint8_t> raw(size_t(BlockIndices) * 2);
    slot.second.assign(BlockIndices, TbBroken);
    if (decompress(bytes_, offsets_, 2 + stm, block, raw.data(), raw.size()))
        for (size_t i = 0; i < BlockIndices; ++i) slot.second[i] = uint16_t(raw[2 * i] | raw[2 * i + 1] << 8);
    return slot.second[size_t(idx % BlockIndices)];
}

}  // namespace chariot::egtb
