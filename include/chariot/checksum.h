// CRC-32 (IEEE 802.3, the polynomial zlib's crc32 uses): the check on the
// engine's binary files (NNUE nets, datagen records).
#pragma once

#include <cstddef>
#include <cstdint>

namespace chariot {

uint32_t crc32(const uint8_t* data, size_t size);

}  // namespace chariot
