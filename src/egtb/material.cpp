#include "chariot/egtb/material.h"

#include <algorithm>
#include <cctype>

namespace chariot::egtb {

namespace {

constexpr char AttackerLetters[AttackerKinds] = {'R', 'H', 'C', 'P'};

int pieceCount(const Material& m) {
    return m.attackerCount() + m.strongAdvisors + m.strongElephants + m.weakAdvisors + m.weakElephants;
}

}  // namespace

std::string Material::name() const {
    std::string out = "K";
    for (int k = 0; k < AttackerKinds; ++k) out.append(attackers[k], AttackerLetters[k]);
    out.append(strongAdvisors, 'A');
    out.append(strongElephants, 'B');
    out += 'K';
    out.append(weakAdvisors, 'A');
    out.append(weakElephants, 'B');
    return out;
}

std::optional<Material> Material::parse(std::string_view text, std::string& error) {
    // Two sides, each "K" followed by its pieces.
    std::array<std::string, 2> sides;
    int side = -1;
    for (char raw : text) {
        char c = char(std::toupper(static_cast<unsigned char>(raw)));
        if (c == 'N') c = 'H';
        if (c == 'E') c = 'B';
        if (c == 'K') {
            if (++side > 1) {
                error = "more than two kings";
                return std::nullopt;
            }
            continue;
        }
        if (side < 0) {
            error = "a material starts with K (the strong side's king)";
            return std::nullopt;
        }
        if (std::string_view("RHCPAB").find(c) == std::string_view::npos) {
            error = std::string("unknown piece letter '") + raw + "' (use R H C P A B)";
            return std::nullopt;
        }
        sides[size_t(side)] += c;
    }
    if (side != 1) {
        error = "a material names two sides, each starting with K (e.g. KRKAABB)";
        return std::nullopt;
    }
    Material m;
    auto count = [](const std::string& s, char c) { return int(std::count(s.begin(), s.end(), c)); };
    for (int k = 0; k < AttackerKinds; ++k) {
        if (count(sides[1], AttackerLetters[k]) > 0) {
            error = "the second side must be bare (only advisors and elephants): name the strong side first";
            return std::nullopt;
        }
        const int n = count(sides[0], AttackerLetters[k]);
        if (n > 2) {
            error = "at most two of a kind";
            return std::nullopt;
        }
        m.attackers[k] = uint8_t(n);
    }
    const int counts[4] = {count(sides[0], 'A'), count(sides[0], 'B'), count(sides[1], 'A'), count(sides[1], 'B')};
    for (int n : counts)
        if (n > 2) {
            error = "at most two advisors and two elephants a side";
            return std::nullopt;
        }
    m.strongAdvisors = uint8_t(counts[0]);
    m.strongElephants = uint8_t(counts[1]);
    m.weakAdvisors = uint8_t(counts[2]);
    m.weakElephants = uint8_t(counts[3]);
    if (m.attackerCount() == 0) {
        error = "no attacker (rook, horse, cannon or pawn): such an ending is a draw and needs no table";
        return std::nullopt;
    }
    if (m.attackerCount() > 2) {
        error = "at most two attackers";
        return std::nullopt;
    }
    return m;
}

std::vector<Material> standardMaterials() {
    std::vector<Material> out;
    for (int weakA = 0; weakA <= 2; ++weakA)
        for (int weakE = 0; weakE <= 2; ++weakE) {
            Material base;
            base.weakAdvisors = uint8_t(weakA);
            base.weakElephants = uint8_t(weakE);
            for (int a = 0; a < AttackerKinds; ++a) {
                // One attacker with any own defenders.
                for (int sa = 0; sa <= 2; ++sa)
                    for (int se = 0; se <= 2; ++se) {
                        Material m = base;
                        m.attackers[a] = 1;
                        m.strongAdvisors = uint8_t(sa);
                        m.strongElephants = uint8_t(se);
                        out.push_back(m);
                    }
                // Two attackers other than rooks, no own defenders.
                for (int b = a; b < AttackerKinds; ++b) {
                    if (a == int(Attacker::Rook) || b == int(Attacker::Rook)) continue;
                    Material m = base;
                    ++m.attackers[a];
                    ++m.attackers[b];
                    out.push_back(m);
                }
            }
        }
    std::stable_sort(out.begin(), out.end(), [](const Material& x, const Material& y) {
        return pieceCount(x) != pieceCount(y) ? pieceCount(x) < pieceCount(y) : x.name() < y.name();
    });
    return out;
}

std::vector<Material> subMaterials(const Material& m) {
    std::vector<Material> out;
    auto add = [&](Material s) {
        if (s.attackerCount() > 0 && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    };
    for (int k = 0; k < AttackerKinds; ++k)
        if (m.attackers[k]) {
            Material s = m;
            --s.attackers[k];
            add(s);
        }
    uint8_t Material::*defenders[] = {&Material::strongAdvisors, &Material::strongElephants, &Material::weakAdvisors,
                                      &Material::weakElephants};
    for (auto field : defenders)
        if (m.*field) {
            Material s = m;
            --(s.*field);
            add(s);
        }
    return out;
}

}  // namespace chariot::egtb
