// Perft counts from tests/data/perft.epd. The counts there come from other
// engines (see the file's header), never from Chariot itself.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "chariot/movegen.h"

using namespace chariot;

namespace {

struct PerftRecord {
    std::string fen;
    int depth;
    uint64_t nodes;
    std::string tag;
    int line;
};

std::vector<PerftRecord> loadPerftData() {
    std::ifstream in(std::string(CHARIOT_TEST_DATA) + "/perft.epd");
    REQUIRE(in);
    std::vector<PerftRecord> records;
    std::string text;
    int lineNo = 0;
    while (std::getline(in, text)) {
        ++lineNo;
        if (text.empty() || text[0] == '#') continue;
        std::vector<std::string> fields;
        std::stringstream ss(text);
        std::string field;
        while (std::getline(ss, field, ';')) fields.push_back(field);
        INFO("perft.epd line " << lineNo << ": " << text);
        REQUIRE(fields.size() == 4);
        records.push_back({fields[0], std::stoi(fields[1]), std::stoull(fields[2]), fields[3], lineNo});
    }
    return records;
}

size_t runRecords(const std::string& tag) {
    size_t checked = 0;
    for (const PerftRecord& r : loadPerftData()) {
        if (r.tag != tag) continue;
        Position p;
        auto error = p.setFen(r.fen);
        INFO("line " << r.line << ": " << r.fen << " depth " << r.depth);
        REQUIRE_FALSE(error);
        CHECK(perft(p, r.depth) == r.nodes);
        ++checked;
    }
    return checked;
}

}  // namespace

TEST_CASE("start position perft 1-4", "[perft]") {
    Position p;
    CHECK(perft(p, 1) == 44);
    CHECK(perft(p, 2) == 1920);
    CHECK(perft(p, 3) == 79666);
    CHECK(perft(p, 4) == 3290240);
}

TEST_CASE("perft suite, quick depths", "[perft]") {
    size_t checked = runRecords("quick");
    // The file holds the start position plus at least 25 others at several depths.
    CHECK(checked >= 80);
}

// Deep counts: hidden from the default run, registered as their own CTest test.
TEST_CASE("perft suite, deep depths", "[.][perft-deep]") {
    size_t checked = runRecords("deep");
    CHECK(checked >= 20);
}

TEST_CASE("perft divide sums to the total", "[perft]") {
    Position p;
    uint64_t sum = 0;
    int moves = 0;
    uint64_t total = perftDivide(p, 3, [&](Move, uint64_t n) {
        sum += n;
        ++moves;
    });
    CHECK(moves == 44);
    CHECK(sum == total);
    CHECK(total == 79666);
}
