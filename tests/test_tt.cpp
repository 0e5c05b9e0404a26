#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>
#include <vector>

#include "chariot/platform.h"
#include "chariot/tt.h"
#include "engine_process.h"

using namespace chariot;

TEST_CASE("TT stores and finds entries", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    CHECK_FALSE(tt.probe(0x123456789ULL, 0, hit));
    Move m = Move::parse("h2e2");
    tt.store(0x123456789ULL, 0, m, 57, 40, 7, Bound::Exact, false);
    REQUIRE(tt.probe(0x123456789ULL, 0, hit));
    CHECK(hit.move == m);
    CHECK(hit.value == 57);
    CHECK(hit.eval == 40);
    CHECK(hit.depth == 7);
    CHECK(hit.bound == Bound::Exact);
    CHECK_FALSE(tt.probe(0x123456789ULL ^ (1ULL << 40), 0, hit));  // same bucket, other key
}

TEST_CASE("TT adjusts mate scores by ply", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    // Mate in 5 plies seen from ply 3 is mate in 2 plies from the stored node.
    tt.store(42, 3, Move::none(), mateIn(5), 0, 4, Bound::Lower, false);
    REQUIRE(tt.probe(42, 1, hit));
    CHECK(hit.value == mateIn(3));
    tt.store(43, 2, Move::none(), matedIn(6), 0, 4, Bound::Upper, false);
    REQUIRE(tt.probe(43, 4, hit));
    CHECK(hit.value == matedIn(8));
}

TEST_CASE("TT keeps the move but never the score of a repetition verdict", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    Move m = Move::parse("b0c2");
    tt.store(99, 2, m, ValueBan - 5, 10, 6, Bound::Exact, false);
    REQUIRE(tt.probe(99, 2, hit));
    CHECK(hit.move == m);
    CHECK(hit.bound == Bound::None);
}

TEST_CASE("TT keeps a known move when a later store has none", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    Move m = Move::parse("c3c4");
    tt.store(7, 0, m, 10, 10, 5, Bound::Lower, false);
    tt.store(7, 0, Move::none(), -20, 10, 6, Bound::Upper, false);
    REQUIRE(tt.probe(7, 0, hit));
    CHECK(hit.move == m);
    CHECK(hit.value == -20);
}

TEST_CASE("TT replacement keeps deep entries and always stores the newest", "[tt]") {
    TranspositionTable tt(1);
    const size_t buckets = (size_t(1) << 20) / 64;
    TTHit hit;
    // Five keys in one bucket: three deep ones, then two shallow ones.
    for (uint64_t i = 1; i <= 3; ++i) tt.store(i * buckets, 0, Move::none(), 1, 1, 20, Bound::Exact, false);
    tt.store(4 * buckets, 0, Move::none(), 1, 1, 1, Bound::Exact, false);
    tt.store(5 * buckets, 0, Move::none(), 1, 1, 1, Bound::Exact, false);
    for (uint64_t i = 1; i <= 3; ++i) CHECK(tt.probe(i * buckets, 0, hit));
    CHECK(tt.probe(5 * buckets, 0, hit));
    CHECK_FALSE(tt.probe(4 * buckets, 0, hit));
}

TEST_CASE("TT keeps the PV flag of each entry", "[tt]") {
    TranspositionTable tt(1);
    TTHit hit;
    const Move m = Move::parse("h2e2");
    for (Bound bound : {Bound::Upper, Bound::Lower, Bound::Exact}) {
        INFO("bound " << int(bound));
        tt.store(11, 0, m, 30, 20, 6, bound, true);
        tt.store(12, 0, m, -30, 20, 6, bound, false);
        REQUIRE(tt.probe(11, 0, hit));
        CHECK(hit.isPv);
        CHECK(hit.bound == bound);  // the flag and the bound share a byte
        CHECK(hit.depth == 6);
        REQUIRE(tt.probe(12, 0, hit));
        CHECK_FALSE(hit.isPv);
        CHECK(hit.bound == bound);
        CHECK(hit.value == -30);
    }
    // The flag survives the next search (it does not count as generation).
    tt.newSearch();
    REQUIRE(tt.probe(11, 0, hit));
    CHECK(hit.isPv);
    // A newer store of the same position replaces it.
    tt.store(11, 0, m, 30, 20, 7, Bound::Exact, false);
    REQUIRE(tt.probe(11, 0, hit));
    CHECK_FALSE(hit.isPv);
}

TEST_CASE("TT ages entries across generation wraparound", "[tt]") {
    const size_t buckets = (size_t(1) << 20) / 64;
    // The generation has 5 bits: after 33 or 40 more searches an entry is 1
    // or 8 searches old, whether or not the counter passed zero in between
    // (30 searches first: it wraps), and whatever its PV flag.
    for (int before : {0, 30}) {
        for (int searches : {33, 40}) {
            for (bool oldPv : {false, true}) {
                INFO("before " << before << ", searches " << searches << ", old entries PV " << oldPv);
                TranspositionTable tt(1);
                TTHit hit;
                for (int i = 0; i < before; ++i) tt.newSearch();
                // Two depth-10 entries from the old search in one bucket...
                tt.store(1 * buckets, 0, Move::none(), 1, 1, 10, Bound::Exact, oldPv);
                tt.store(2 * buckets, 0, Move::none(), 1, 1, 10, Bound::Exact, oldPv);
                for (int i = 0; i < searches; ++i) tt.newSearch();
                // ...one of the same depth from this search...
                tt.store(3 * buckets, 0, Move::none(), 1, 1, 10, Bound::Exact, false);
                // ...and a shallower one of this search, which is worth more
                // than an aged deep entry: it replaces the first old one
                // (unaged, that would stay, and slot 3 would take the new one).
                tt.store(4 * buckets, 0, Move::none(), 1, 1, 5, Bound::Exact, false);
                CHECK_FALSE(tt.probe(1 * buckets, 0, hit));
                CHECK(tt.probe(2 * buckets, 0, hit));
                CHECK(tt.probe(3 * buckets, 0, hit));
                CHECK(tt.probe(4 * buckets, 0, hit));
                // Only this search's two entries count as written now (each
                // of the 1000 sampled entries of a 1 MB table is one per mille).
                CHECK(tt.hashfull() == 2);
            }
        }
    }
}

TEST_CASE("TT resize clamps, rounds and clears", "[tt]") {
    TranspositionTable tt(1);
    tt.store(5, 0, Move::none(), 3, 3, 3, Bound::Exact, false);
    CHECK(tt.resize(3) == 2);
    TTHit hit;
    CHECK_FALSE(tt.probe(5, 0, hit));
    CHECK(tt.resize(0) == TranspositionTable::MinMB);
    tt.store(5, 0, Move::none(), 3, 3, 3, Bound::Exact, false);
    CHECK(tt.hashfull() >= 0);
    tt.clear();
    CHECK_FALSE(tt.probe(5, 0, hit));
}

namespace {

// Keys spread over the whole table: bucket i * stride, with a high part so
// that no two keys are equal. Few of them: each first write to a page costs a
// page fault (a slow one in a VM whose host has not backed the memory yet).
std::vector<uint64_t> spreadKeys(size_t megabytes, size_t count) {
    const uint64_t buckets = (uint64_t(megabytes) << 20) / 64;
    std::vector<uint64_t> keys;
    for (uint64_t i = 0; i < count; ++i) keys.push_back((i * (buckets / count) + i % 7) | (i + 1) << 40);
    return keys;
}

double millis(std::chrono::steady_clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

TEST_CASE("a large table is empty at once and works", "[tt]") {
    TranspositionTable tt(1);
    tt.store(5, 0, Move::none(), 3, 3, 3, Bound::Exact, false);
    const auto t0 = std::chrono::steady_clock::now();
    const size_t mb = tt.resize(1024);  // less on a small machine (clamped)
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    INFO("resize to " << mb << " MB took " << millis(elapsed) << " ms");
    REQUIRE(mb >= 1);
    CHECK(mb <= 1024);
    CHECK(std::has_single_bit(mb));
    CHECK(tt.sizeMB() == mb);
    CHECK(elapsed < std::chrono::seconds(1));  // no page is touched (zero-filling 1 GB took up to 2 s)
    TTHit hit;
    CHECK_FALSE(tt.probe(5, 0, hit));
    CHECK(tt.hashfull() == 0);
    const auto keys = spreadKeys(mb, 128);
    size_t found = 0;
    for (uint64_t k : keys) found += tt.probe(k, 0, hit);
    CHECK(found == 0);
    Move m = Move::parse("h2e2");
    for (size_t i = 0; i < keys.size(); ++i) tt.store(keys[i], 0, m, Value(i % 1000), 7, 9, Bound::Lower, false);
    for (size_t i = 0; i < keys.size(); ++i) {
        INFO("key " << i);
        REQUIRE(tt.probe(keys[i], 0, hit));
        CHECK(hit.move == m);
        CHECK(hit.value == Value(i % 1000));
        CHECK(hit.depth == 9);
    }
}

TEST_CASE("clear empties a used table, small or large", "[tt]") {
    // 1 MB is zero-filled; 1024 MB (beyond 64 MB) gives its pages back.
    for (size_t request : {size_t(1), size_t(1024)}) {
        TranspositionTable tt(request);
        const size_t mb = tt.sizeMB();
        INFO(mb << " MB");
        const auto keys = spreadKeys(mb, 128);
        Move m = Move::parse("b0c2");
        tt.newSearch();
        for (uint64_t k : keys) tt.store(k, 0, m, 11, 11, 5, Bound::Exact, false);
        for (size_t i = 0; i < 250; ++i) tt.store(uint64_t(i) | uint64_t(1) << 50, 0, m, 1, 1, 1, Bound::Upper, false);
        TTHit hit;
        REQUIRE(tt.probe(keys.back(), 0, hit));
        REQUIRE(tt.hashfull() > 0);
        const auto t0 = std::chrono::steady_clock::now();
        tt.clear();
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
        CHECK(tt.hashfull() == 0);
        size_t found = 0;
        for (uint64_t k : keys) found += tt.probe(k, 0, hit);
        CHECK(found == 0);
        // And it is usable again.
        tt.store(keys[3], 0, m, -40, 2, 6, Bound::Upper, false);
        REQUIRE(tt.probe(keys[3], 0, hit));
        CHECK(hit.value == -40);
        CHECK(hit.bound == Bound::Upper);
    }
}

// Through the real binary: the protocol answers isready at once after a
// huge hash size. Zero-filling the table at allocation took 13 s for 4 GB.
TEST_CASE("a huge hash size never keeps isready waiting", "[tt][protocol][process]") {
    using namespace std::chrono_literals;
    chariot::test::EngineProcess e;
    chariot::test::ucciHandshake(e, 2000ms);
    e.send("isready");
    REQUIRE(e.waitFor("readyok", 2000ms));

    auto timeToReady = [&](const std::string& option, std::vector<std::string>& seen) {
        const auto t0 = std::chrono::steady_clock::now();
        e.send(option);
        e.send("isready");
        REQUIRE(e.waitFor("readyok", 30s, &seen));
        return std::chrono::steady_clock::now() - t0;
    };
    std::vector<std::string> seen;
    auto elapsed = timeToReady("setoption hashsize 4096", seen);
    INFO("hashsize 4096: readyok after " << millis(elapsed) << " ms");
    CHECK(elapsed < 3s);
#ifndef CHARIOT_TEST_ASAN  // ASan's shadow makes RSS meaningless
    // No page was touched: the engine holds nowhere near 4 GB yet.
    const long rss = chariot::test::residentKB(e.pid());
    INFO("VmRSS after hashsize 4096: " << rss << " kB");
    CHECK(rss > 0);
    CHECK(rss < 512 * 1024);
#endif
    // The table works: a search, then a new game clears it, at once too.
    e.send("position startpos");
    e.send("go depth 2");
    REQUIRE(e.waitFor("bestmove", 30s));
    elapsed = timeToReady("setoption newgame", seen);
    INFO("newgame: readyok after " << millis(elapsed) << " ms");
    CHECK(elapsed < 3s);

    // Beyond the option's range and what the machine can back: clamped twice,
    // and the size obtained is reported unless it is the whole 65536 MB.
    seen.clear();
    elapsed = timeToReady("setoption hashsize 999999999", seen);
    INFO("hashsize 999999999: readyok after " << millis(elapsed) << " ms");
    CHECK(elapsed < 3s);
    auto has = [&](const std::string& prefix) {
        return std::any_of(seen.begin(), seen.end(), [&](const std::string& l) { return l.rfind(prefix, 0) == 0; });
    };
    CHECK(has("info string option hashsize: 999999999 is out of range, using 65536"));
    const uint64_t physicalMB = platform::physicalMemoryBytes().value_or(0) >> 20;
    auto got = std::find_if(seen.begin(), seen.end(),
                            [](const std::string& l) { return l.rfind("info string hash table is ", 0) == 0; });
    if (physicalMB < 2 * TranspositionTable::MaxMB) {
        REQUIRE(got != seen.end());
        const size_t mb = std::stoul(chariot::test::words(*got)[5]);
        CHECK(mb >= 1);
        CHECK(mb <= physicalMB / 2);
        CHECK(std::has_single_bit(mb));
    }
    e.send("position startpos");
    e.send("go depth 2");
    REQUIRE(e.waitFor("bestmove", 30s));
    e.send("quit");
    CHECK(e.waitExit(5000ms) == 0);
}
