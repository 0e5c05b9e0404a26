#include "chariot/egtb/index.h"

#include <utility>

namespace chariot::egtb {

namespace {

// The squares each kind may stand on (strong = red), in local order.
struct Domains {
    std::array<std::vector<uint8_t>, KindCount> squares;
    std::array<std::array<int16_t, SquareCount>, KindCount> local{};
    // Colex order of pairs i < j: j (j - 1) / 2 + i, the same for every domain size.
    std::vector<std::pair<uint8_t, uint8_t>> pairs;

    Domains() {
        for (int s = 0; s < SquareCount; ++s) {
            const int f = sqFile(s), r = sqRank(s);
            const bool palaceFile = f >= 3 && f <= 5;
            const int rr = r <= 4 ? r : 9 - r;  // rank from the owner's side
            const bool advisorPoint = ((rr == 0 || rr == 2) && (f == 3 || f == 5)) || (rr == 1 && f == 4);
            const bool elephantPoint =
                ((rr == 0 || rr == 4) && (f == 2 || f == 6)) || (rr == 2 && (f == 0 || f == 4 || f == 8));
            if ((f == 3 || f == 4) && r <= 2) squares[StrongKing].push_back(uint8_t(s));
            if (palaceFile && r >= 7) squares[WeakKing].push_back(uint8_t(s));
            if (advisorPoint && r <= 2) squares[StrongAdvisor].push_back(uint8_t(s));
            if (elephantPoint && r <= 4) squares[StrongElephant].push_back(uint8_t(s));
            if (advisorPoint && r >= 7) squares[WeakAdvisor].push_back(uint8_t(s));
            if (elephantPoint && r >= 5) squares[WeakElephant].push_back(uint8_t(s));
            for (int k = RookKind; k <= CannonKind; ++k) squares[size_t(k)].push_back(uint8_t(s));
            // A red pawn: on its five files from its starting rank, anywhere past the river.
            if ((r >= 3 && r <= 4 && f % 2 == 0) || r >= 5) squares[PawnKind].push_back(uint8_t(s));
        }
        for (int k = 0; k < KindCount; ++k) {
            local[size_t(k)].fill(-1);
            for (size_t i = 0; i < squares[size_t(k)].size(); ++i) local[size_t(k)][squares[size_t(k)][i]] = int16_t(i);
        }
        for (int j = 1; j < SquareCount; ++j)
            for (int i = 0; i < j; ++i) pairs.emplace_back(uint8_t(i), uint8_t(j));
    }
};

const Domains& domains() {
    static const Domains d;
    return d;
}

int groupCount(const Material& m, Kind k) {
    switch (k) {
        case StrongKing:
        case WeakKing: return 1;
        case StrongAdvisor: return m.strongAdvisors;
        case StrongElephant: return m.strongElephants;
        case WeakAdvisor: return m.weakAdvisors;
        case WeakElephant: return m.weakElephants;
        default: return m.attackers[size_t(k - RookKind)];
    }
}

}  // namespace

int kindDomain(Kind k) { return int(domains().squares[k].size()); }
int kindLocal(Kind k, int sq) { return domains().local[k][size_t(sq)]; }
int kindSquare(Kind k, int local) { return domains().squares[k][size_t(local)]; }

Indexer::Indexer(const Material& m) : material_(m) {
    for (int k = 0; k < KindCount; ++k) {
        const int n = groupCount(m, Kind(k));
        if (n == 0) continue;
        groups_.push_back({Kind(k), n, 0, kindDomain(Kind(k))});
    }
    // Strides from the least significant (last) group.
    for (size_t i = groups_.size(); i-- > 0;) {
        groups_[i].stride = size_;
        const uint64_t d = uint64_t(groups_[i].domain);
        size_ *= groups_[i].count == 1 ? d : d * (d - 1) / 2;
    }
}

int64_t Indexer::encode(const Placement& p) const {
    const bool mirror = p.count[StrongKing] == 1 && sqFile(p.sq[StrongKing][0]) > 4;
    int64_t idx = 0;
    for (const Group& g : groups_) {
        if (p.count[g.kind] != g.count) return -1;
        int a = p.sq[g.kind][0];
        if (mirror) a = mirrorSq(a);
        const int la = domains().local[g.kind][size_t(a)];
        if (la < 0) return -1;
        if (g.count == 1) {
            idx += int64_t(g.stride) * la;
            continue;
        }
        int b = p.sq[g.kind][1];
        if (mirror) b = mirrorSq(b);
        int lb = domains().local[g.kind][size_t(b)];
        if (lb < 0 || lb == la) return -1;
        const int lo = la < lb ? la : lb, hi = la < lb ? lb : la;
        idx += int64_t(g.stride) * (hi * (hi - 1) / 2 + lo);
    }
    // Every group of the material is covered; any other piece makes it another material.
    int pieces = 0, expected = 0;
    for (int k = 0; k < KindCount; ++k) pieces += p.count[size_t(k)];
    for (const Group& g : groups_) expected += g.count;
    return pieces == expected ? idx : -1;
}

bool Indexer::decode(uint64_t idx, Placement& p) const {
    p = Placement{};
    uint64_t occupied[2] = {0, 0};  // 90 bits
    auto place = [&](Kind k, int local) {
        const int s = domains().squares[k][size_t(local)];
        uint64_t& word = occupied[s >> 6];
        const uint64_t bit = uint64_t(1) << (s & 63);
        const bool clash = word & bit;
        word |= bit;
        p.add(k, s);
        return !clash;
    };
    bool ok = true;
    for (const Group& g : groups_) {
        const uint64_t digit = idx / g.stride;
        idx -= digit * g.stride;
        if (g.count == 1) {
            ok &= place(g.kind, int(digit));
        } else {
            const auto [lo, hi] = domains().pairs[size_t(digit)];
            ok &= place(g.kind, lo);
            ok &= place(g.kind, hi);
        }
    }
    return ok;
}

}  // namespace chariot::egtb
