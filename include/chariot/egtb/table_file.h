// Table files: one file per material, `<NAME>.xtb` (e.g. KRKAABB.xtb), in a
// folder the user chooses. Little-endian:
//
//   header   magic "CHRTEGTB", format version, generator version, material
//            name, indices per side to move, the counts (legal, won, lost,
//            drawn per side to move), the longest mate, indices per block,
//            blocks per stream
//   offsets  for 4 streams (WDL and DTM, each for both sides to move) the
//            byte offset of every block and of the stream's end
//   blocks   each stream in blocks of BlockIndices indices, each compressed
//            alone with zstd: WDL 2 bits an index (0 draw, 1 win, 2 loss, 3
//            no legal position), DTM the generator's uint16 values
//   CRC-32   of everything before it
//
// A file is written under a temporary name and renamed when complete, so a
// build interrupted leaves no half table under the real name.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chariot/egtb/generator.h"

namespace chariot::egtb {

constexpr uint32_t FormatVersion = 1;
// Raised whenever the generator's results could change (a rule, the index).
constexpr uint32_t GeneratorVersion = 1;
constexpr uint32_t BlockIndices = 1u << 15;

std::string tableFileName(const Material& m);  // "KRK.xtb"

struct TableInfo {
    Material material;
    uint64_t size = 0;  // indices per side to move
    TableCounts counts;
    uint64_t fileBytes = 0;
};

// Writes t to path (via path + ".tmp"); false with `error` on failure.
bool writeTable(const Table& t, const std::string& path, std::string& error);
// The header of a complete, intact file of this format and generator version.
std::optional<TableInfo> inspectTable(const std::string& path, std::string& error);
// The whole table, decompressed.
std::unique_ptr<Table> readTable(const std::string& path, std::string& error);

// A table file opened for probing: the compressed file in memory, WDL
// decompressed in full on the first WDL probe, DTM blocks on demand.
class TableFile {
public:
    static std::unique_ptr<TableFile> open(const std::string& path, std::string& error);
    const TableInfo& info() const { return info_; }
    const Indexer& indexer() const { return indexer_; }
    // 0 draw, 1 win, 2 loss, 3 broken (the side to move's view).
    int wdl(int stm, uint64_t idx) const;
    // The generator's value (tb draw, or dtm + 1); thread-safe.
    uint16_t value(int stm, uint64_t idx) const;

private:
    explicit TableFile(const Material& m) : indexer_(m) {}
    TableInfo info_;
    Indexer indexer_;
    std::vector<uint8_t> bytes_;
    std::array<std::vector<uint64_t>, 4> offsets_;
    mutable std::once_flag wdlOnce_;
    mutable std::array<std::vector<uint8_t>, 2> wdl_;
    mutable std::mutex cacheMutex_;
    mutable std::array<std::pair<uint64_t, std::vector<uint16_t>>, 8> cache_;  // (stream * 2^32 + block + 1, values)
    mutable size_t cacheNext_ = 0;
};

}  // namespace chariot::egtb
