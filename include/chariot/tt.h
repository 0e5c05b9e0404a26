// Transposition table: 64-byte buckets of four lock-free entries. Each entry
// is two 64-bit words, the second being key ^ data, so a torn or stale read
// simply fails verification (safe for several search threads).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "chariot/platform.h"
#include "chariot/types.h"

#if !CHARIOT_NO_THREADS
#include <thread>
#endif

namespace chariot {

enum class Bound : uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// Stored as an entry's static evaluation when none was computed (a lazy one).
constexpr Value EvalUnknown = -ValueInfinite;

struct TTHit {
    Move move;
    Value value = 0;  // already adjusted to the probing ply
    Value eval = 0;   // static evaluation stored with the entry
    Depth depth = 0;
    Bound bound = Bound::None;  // None: the value must not be used (e.g. it came from a repetition verdict)
    bool isPv = false;          // the node was on a principal variation when stored
};

class TranspositionTable {
public:
    static constexpr size_t MinMB = 1;
    static constexpr size_t MaxMB = 65536;

    explicit TranspositionTable(size_t megabytes = 16);
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;
    // Re-allocates (and clears). Returns the size actually obtained: the
    // request is clamped to [MinMB, min(MaxMB, half the physical memory,
    // three quarters of the available memory)], rounded down to a power of
    // two and halved until the allocation succeeds; the old table is freed
    // first. No page is touched: the kernel backs them as the search writes.
    size_t resize(size_t megabytes);
    size_t sizeMB() const { return bucketCount_ * sizeof(Bucket) >> 20; }
    // Empties the table; a large one gives its pages back to the kernel
    // (they read as zeros), so clearing takes milliseconds at any size.
    void clear();
    // Called at the start of every search: ages old entries. The generation
    // is 5 bits, so it wraps every 32 searches.
    void newSearch() { generation_ = uint8_t((generation_ + GenerationStep) & GenerationMask); }

    bool probe(uint64_t key, int ply, TTHit& hit) const;
    void store(uint64_t key, int ply, Move move, Value value, Value eval, Depth depth, Bound bound, bool isPv);
    // Per-mille of sampled entries written in this search (UCI hashfull).
    int hashfull() const;
    // Until the background fill of a new or cleared table is done.
    void waitPopulated() { stopPopulating(false); }
    void prefetch(uint64_t key) const { __builtin_prefetch(&buckets_[key & (bucketCount_ - 1)]); }

private:
    // An entry's last byte: generation in bits 3-7, isPv in bit 2, bound in bits 0-1.
    static constexpr uint8_t GenerationStep = 8;
    static constexpr uint8_t GenerationMask = 0xF8;
    static constexpr uint8_t PvFlag = 4;
    static constexpr uint8_t BoundMask = 3;

    // Plain words accessed through std::atomic_ref, so that a freshly
    // mapped (lazily zeroed) block is a valid empty table.
    struct Entry {
        uint64_t check;  // key ^ data
        uint64_t data;
    };
    struct alignas(64) Bucket {
        Entry entries[4];
    };
    bool allocate(size_t megabytes);
    void release();
    // Backs the table's pages on a thread of its own, in the background, so
    // that neither `isready` nor the first search waits for the page faults.
    // It changes no entry (an atomic or-with-zero per page), so searches may
    // run meanwhile.
    void startPopulating();
    // Joins the filler; `abandon`: tell it to stop first.
    void stopPopulating(bool abandon = true);

#if !CHARIOT_NO_THREADS  // without threads the search backs the pages as it writes them
    std::thread populator_;
#endif
    std::atomic<bool> populateStop_{false};

    platform::LargeBlock memory_;  // buckets_ is its aligned start
    Bucket* buckets_ = nullptr;
    size_t bucketCount_ = 0;
    uint8_t generation_ = 0;  // multiple of GenerationStep: the low three bits hold isPv and the bound
    // False while the table is as allocated or cleared: clearing it again is
    // skipped (a fresh bench engine, repeated ucinewgame).
    std::atomic<bool> written_{false};
};

}  // namespace chariot
