// A middlegame/endgame pair of evaluation values.
#pragma once

#include <cstdint>

namespace chariot {

// A middlegame/endgame pair packed in one int, so the incremental sum is one add.
class Score {
public:
    constexpr Score() = default;
    constexpr Score(int mg, int eg) : value_(int32_t(uint32_t(eg) << 16) + mg) {}
    constexpr int mg() const { return int16_t(uint16_t(uint32_t(value_))); }
    constexpr int eg() const { return int16_t(uint16_t(uint32_t(value_ + 0x8000) >> 16)); }
    constexpr Score operator+(Score o) const { return fromRaw(value_ + o.value_); }
    constexpr Score operator-(Score o) const { return fromRaw(value_ - o.value_); }
    constexpr Score operator-() const { return fromRaw(-value_); }
    constexpr Score& operator+=(Score o) {
        value_ += o.value_;
        return *this;
    }
    constexpr Score& operator-=(Score o) {
        value_ -= o.value_;
        return *this;
    }
    constexpr Score operator*(int k) const { return fromRaw(value_ * k); }
    constexpr bool operator==(const Score&) const = default;

private:
    constexpr static Score fromRaw(int32_t v) {
        Score s;
        s.value_ = v;
        return s;
    }
    int32_t value_ = 0;
};

}  // namespace chariot
