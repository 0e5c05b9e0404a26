#include "chariot/egtb/prober.h"

#include <filesystem>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "chariot/egtb/probe.h"
#include "chariot/egtb/table_file.h"

namespace chariot::egtb {

namespace {

class FolderProber final : public TablebaseProber {
public:
    // The entries are fixed here; only their files are opened later (once each).
    FolderProber(const std::vector<std::pair<std::string, std::string>>& tables, std::vector<std::string> refused)
        : refused_(std::move(refused)) {
        for (const auto& [name, path] : tables) entries_.emplace(name, std::make_unique<Entry>(path));
    }

    std::optional<TbWdl> probeWdl(const Position& pos) const override {
        const auto at = locate(pos);
        if (!at) return std::nullopt;
        switch (at->file->wdl(at->stm, at->index)) {
            case 0: return TbWdl::Draw;
            case 1: return TbWdl::Win;
            case 2: return TbWdl::Loss;
            default: return std::nullopt;
        }
    }

    std::optional<TbResult> probe(const Position& pos) const override {
        const auto at = locate(pos);
        if (!at) return std::nullopt;
        const uint16_t v = at->file->value(at->stm, at->index);
        if (v == TbBroken) return std::nullopt;
        TbResult r;
        r.table = at->file->info().material.name();
        if (isDecided(v)) {
            r.wdl = isWinValue(v) ? TbWdl::Win : TbWdl::Loss;
            r.dtm = dtmOf(v);
        }
        return r;
    }

    std::string describe() const override {
        std::string out = fmt::format("{} endgame table(s) found", entries_.size());
        if (!refused_.empty()) out += fmt::format("; {} refused (first: {})", refused_.size(), refused_.front());
        return out;
    }

private:
    struct Entry {
        explicit Entry(std::string p) : path(std::move(p)) {}
        std::string path;
        std::once_flag once;
        std::unique_ptr<TableFile> file;  // null when it did not open
    };
    struct Location {
        const TableFile* file;
        int stm;
        uint64_t index;
    };

    std::optional<Location> locate(const Position& pos) const {
        const auto key = tableKey(pos);
        if (!key) return std::nullopt;
        const auto it = entries_.find(key->material.name());
        if (it == entries_.end()) return std::nullopt;
        Entry& e = *it->second;
        std::call_once(e.once, [&e] {
            std::string error;
            e.file = TableFile::open(e.path, error);
        });
        if (!e.file) return std::nullopt;
        const int64_t idx = e.file->indexer().encode(key->placement);
        if (idx < 0) return std::nullopt;
        return Location{e.file.get(), key->stm, uint64_t(idx)};
    }

    std::map<std::string, std::unique_ptr<Entry>> entries_;
    std::vector<std::string> refused_;
};

}  // namespace

TablebaseLoader tablebaseLoader() {
    return [](const std::string& dir, std::string& error) -> std::shared_ptr<const TablebaseProber> {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) {
            error = "no folder " + dir;
            return nullptr;
        }
        // Every file is read and checked now (header, versions, CRC-32): a
        // damaged or outdated one is refused with a message, not met in a game.
        std::vector<std::pair<std::string, std::string>> tables;
        std::vector<std::string> refused;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            const auto p = entry.path();
            if (p.extension() != ".xtb") continue;
            std::string why;
            const auto m = Material::parse(p.stem().string(), why);
            if (!m || m->name() != p.stem().string()) continue;
            if (inspectTable(p.string(), why))
                tables.emplace_back(m->name(), p.string());
            else
                refused.push_back(why);
        }
        if (tables.empty()) {
            error = refused.empty() ? "no endgame tables (*.xtb) in " + dir
                                    : fmt::format("no usable endgame tables in {} ({})", dir, refused.front());
            return nullptr;
        }
        return std::make_shared<FolderProber>(tables, std::move(refused));
    };
}

}  // namespace chariot::egtb
