#include "chariot/tt.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <cstdlib>
#include <new>
#include <optional>

#include "chariot/platform.h"

namespace chariot {

namespace {

// Tables up to this size are cleared by zero-filling (a few milliseconds).
constexpr size_t SmallTableBytes = size_t(64) << 20;

// data layout: move 16 | value 16 | eval 16 | depth 8 | generation 5 + isPv 1 + bound 2
constexpr int DepthOffset = 8;  // quiescence stores depth 0 or below

uint64_t pack(Move move, Value value, Value eval, Depth depth, uint8_t genBound) {
    return uint64_t(move.raw()) | uint64_t(uint16_t(int16_t(value))) << 16 | uint64_t(uint16_t(int16_t(eval))) << 32 |
           uint64_t(uint8_t(std::clamp(depth + DepthOffset, 0, 255))) << 48 | uint64_t(genBound) << 56;
}
Move moveOf(uint64_t d) { return Move::fromRaw(uint16_t(d)); }
Value valueOf(uint64_t d) { return int16_t(uint16_t(d >> 16)); }
Value evalOf(uint64_t d) { return int16_t(uint16_t(d >> 32)); }
int depth8Of(uint64_t d) { return int(uint8_t(d >> 48)); }
uint8_t genBoundOf(uint64_t d) { return uint8_t(d >> 56); }

// Mate scores are stored relative to the entry's position, not the root.
Value toTT(Value v, int ply) {
    if (v >= ValueMateInMaxPly) return v + ply;
    if (v <= -ValueMateInMaxPly) return v - ply;
    return v;
}
#if defined(__cpp_lib_atomic_ref)
uint64_t loadWord(const uint64_t& word) {
    return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(word)).load(std::memory_order_relaxed);
}
void storeWord(uint64_t& word, uint64_t value) {
    std::atomic_ref<uint64_t>(word).store(value, std::memory_order_relaxed);
}
[[maybe_unused]] void touchWord(uint64_t& word) {
    std::atomic_ref<uint64_t>(word).fetch_or(0, std::memory_order_relaxed);
}
#else
// A standard library without std::atomic_ref (libc++ before 19, which the
// WebAssembly build uses): the same relaxed accesses by the compiler's builtins.
uint64_t loadWord(const uint64_t& word) { return __atomic_load_n(&word, __ATOMIC_RELAXED); }
void storeWord(uint64_t& word, uint64_t value) { __atomic_store_n(&word, value, __ATOMIC_RELAXED); }
[[maybe_unused]] void touchWord(uint64_t& word) { __atomic_fetch_or(&word, uint64_t(0), __ATOMIC_RELAXED); }
#endif

Value fromTT(Value v, int ply) {
    if (v >= ValueMateInMaxPly) return v - ply;
    if (v <= -ValueMateInMaxPly) return v + ply;
    return v;
}

// The most megabytes a table may take. The kernel backs the pages only when
// the search first writes them, so a table larger than the machine can back
// would not fail to allocate: it would get the process killed in the middle
// of a game. Hence at most half the physical memory, and at most three
// quarters of the memory available now (the kernel's MemAvailable, and the
// headroom under a cgroup memory limit). Read after the old table is freed.
size_t memoryLimitMB() {
    size_t limit = TranspositionTable::MaxMB;
    if (auto physical = platform::physicalMemoryBytes()) limit = std::min(limit, size_t(*physical >> 20) / 2);
    if (auto available = platform::availableMemoryBytes())
        limit = std::min<uint64_t>(limit, (*available >> 20) / 4 * 3);
    return std::max(limit, TranspositionTable::MinMB);
}

}  // namespace

TranspositionTable::TranspositionTable(size_t megabytes) { resize(megabytes); }

TranspositionTable::~TranspositionTable() { release(); }

void TranspositionTable::startPopulating() {
#if CHARIOT_NO_THREADS
    // No thread to do it in the background: the search faults the pages in.
#else
    constexpr size_t PopulateMaxBytes = size_t(1) << 30;
    stopPopulating();
    // Up to a gigabyte: the pages the default and usual sizes need. A larger
    // table is backed by the search as it writes (a huge request should not
    // take that much memory before it is used).
    if (bucketCount_ * sizeof(Bucket) > PopulateMaxBytes) return;
    populateStop_ = false;
    populator_ = std::thread([this, begin = reinterpret_cast<char*>(buckets_), bytes = bucketCount_ * sizeof(Bucket)] {
        constexpr size_t Page = 4096;
        for (size_t offset = 0; offset < bytes; offset += Page) {
            if ((offset & ((size_t(1) << 21) - 1)) == 0 && populateStop_.load(std::memory_order_relaxed)) return;
            touchWord(*reinterpret_cast<uint64_t*>(begin + offset));
        }
    });
#endif
}

void TranspositionTable::stopPopulating([[maybe_unused]] bool abandon) {
#if !CHARIOT_NO_THREADS
    if (!populator_.joinable()) return;
    if (abandon) populateStop_ = true;
    populator_.join();
#endif
}

void TranspositionTable::release() {
    stopPopulating();
    platform::freeLarge(memory_);
    buckets_ = nullptr;
    bucketCount_ = 0;
}

bool TranspositionTable::allocate(size_t megabytes) {
    // Aligned to 2 MB (on Linux marked for transparent huge pages): far fewer
    // TLB misses on the random accesses of the search.
    constexpr size_t HugePage = size_t(2) << 20;
    auto block = platform::allocateLarge(megabytes << 20, HugePage);
    if (!block) return false;
    // No page is touched here: fresh memory reads as zeros (an empty table)
    // and the system backs each page when the search first writes it.
    // Zero-filling up front kept `readyok` waiting 0.5 s to 27 s for 8 GB (on
    // a VM, longest when its host had not backed the memory yet); now the
    // first search pays those page faults instead.
    memory_ = *block;
    buckets_ = static_cast<Bucket*>(block->data);
    bucketCount_ = block->bytes / sizeof(Bucket);
    return true;
}

size_t TranspositionTable::resize(size_t megabytes) {
    release();
    megabytes = std::bit_floor(std::clamp(megabytes, MinMB, memoryLimitMB()));
    while (!allocate(megabytes) && megabytes > MinMB) megabytes /= 2;
    if (!buckets_ && !allocate(MinMB)) throw std::bad_alloc();
    generation_ = 0;
    written_.store(false, std::memory_order_relaxed);
    startPopulating();
    return sizeMB();
}

void TranspositionTable::clear() {
    const size_t bytes = bucketCount_ * sizeof(Bucket);
    // Zero-filling gigabytes takes seconds (ucinewgame must not keep isready
    // waiting). Pages given back to the system read back as zeros and are
    // backed afresh on the next write, like a new table. A small table is
    // just zero-filled: faster than faulting its pages in again.
    stopPopulating();
    if (!written_.load(std::memory_order_relaxed)) {
        generation_ = 0;
        return;
    }
    written_.store(false, std::memory_order_relaxed);
    if (bytes > SmallTableBytes && platform::discardPages(buckets_, bytes)) {
        generation_ = 0;
        startPopulating();
        return;
    }
    std::memset(static_cast<void*>(buckets_), 0, bytes);
    generation_ = 0;
}

bool TranspositionTable::probe(uint64_t key, int ply, TTHit& hit) const {
    const Bucket& bucket = buckets_[key & (bucketCount_ - 1)];
    for (const Entry& e : bucket.entries) {
        uint64_t data = loadWord(e.data);
        if ((loadWord(e.check) ^ data) != key || data == 0) continue;
        hit.move = moveOf(data);
        hit.bound = Bound(genBoundOf(data) & BoundMask);
        hit.isPv = genBoundOf(data) & PvFlag;
        hit.value = fromTT(valueOf(data), ply);
        hit.eval = evalOf(data);
        hit.depth = depth8Of(data) - DepthOffset;
        return true;
    }
    return false;
}

void TranspositionTable::store(uint64_t key, int ply, Move move, Value value, Value eval, Depth depth, Bound bound,
                               bool isPv) {
    // Read first: after the first store the line stays shared between threads.
    if (!written_.load(std::memory_order_relaxed)) written_.store(true, std::memory_order_relaxed);
    // Repetition verdicts depend on the path, not the position: keep the move,
    // never the score.
    if (isBanScore(value)) {
        bound = Bound::None;
        value = 0;
    }
    Bucket& bucket = buckets_[key & (bucketCount_ - 1)];
    Entry* slot = nullptr;
    for (Entry& e : bucket.entries) {
        uint64_t data = loadWord(e.data);
        if ((loadWord(e.check) ^ data) == key && data != 0) {
            slot = &e;
            // Same position: keep a known move, and keep a deeper result of
            // this search unless the new one is exact.
            if (move.isNone()) move = moveOf(data);
            if (bound != Bound::Exact && (genBoundOf(data) & GenerationMask) == generation_ &&
                depth + DepthOffset < depth8Of(data) - 2) {
                if (moveOf(data) != move) {
                    uint64_t updated = (data & ~uint64_t(0xFFFF)) | move.raw();
                    storeWord(e.data, updated);
                    storeWord(e.check, key ^ updated);
                }
                return;
            }
            break;
        }
    }
    if (!slot) {
        // Depth-preferred slots 0..2: replace the shallowest/oldest one if the
        // new result is at least as valuable; otherwise slot 3 always takes it.
        int worstWorth = 1 << 30;
        Entry* worst = nullptr;
        for (int i = 0; i < 3; ++i) {
            uint64_t data = loadWord(bucket.entries[i].data);
            // Searches since the entry was written, modulo 32: the masked
            // difference stays right when the generation has wrapped.
            const int age = ((generation_ - (genBoundOf(data) & GenerationMask)) & GenerationMask) / GenerationStep;
            int worth = data == 0 ? -1000 : depth8Of(data) - 8 * age;
            if (worth < worstWorth) {
                worstWorth = worth;
                worst = &bucket.entries[i];
            }
        }
        slot = depth + DepthOffset >= worstWorth ? worst : &bucket.entries[3];
    }
    const uint8_t genBound = uint8_t(generation_ | (isPv ? PvFlag : 0) | uint8_t(bound));
    uint64_t data = pack(move, toTT(value, ply), eval, depth, genBound);
    if (data == 0) data = pack(move, 0, 1, depth, genBound);  // 0 means empty
    storeWord(slot->data, data);
    storeWord(slot->check, key ^ data);
}

int TranspositionTable::hashfull() const {
    const size_t samples = std::min<size_t>(250, bucketCount_);
    int used = 0;
    for (size_t i = 0; i < samples; ++i)
        for (const Entry& e : buckets_[i].entries) {
            uint64_t data = loadWord(e.data);
            used += data != 0 && (genBoundOf(data) & GenerationMask) == generation_;
        }
    return int(used * 1000 / (samples * 4));
}

}  // namespace chariot
