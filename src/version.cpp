#include "chariot/version.h"

#include <fmt/format.h>

#include "chariot/build_info.h"

namespace chariot::version {

std::string_view number() { return CHARIOT_VERSION; }
std::string_view commit() { return CHARIOT_GIT_COMMIT; }
std::string_view compiler() { return CHARIOT_COMPILER; }
std::string_view system() { return CHARIOT_SYSTEM; }

// What the compiler was allowed to use, as the predefined macros say (so it
// follows -march / -mavx2 whichever way they were given).
std::string_view instructionSet() {
#if defined(__x86_64__) || defined(_M_X64)
#if defined(__AVX512F__) && defined(__AVX512BW__)
    return "x86-64-avx512";
#elif defined(__AVX2__) && defined(__BMI2__)
    return "x86-64-avx2";
#elif defined(__AVX2__)
    return "x86-64-avx2-nobmi2";
#elif defined(__POPCNT__) && defined(__SSE4_2__)
    return "x86-64-v2";
#else
    return "x86-64";
#endif
#elif defined(__aarch64__)
    return "arm64";
#else
    return "unknown";
#endif
}

std::vector<std::string> describe() {
    return {fmt::format("Chariot {}", number()), fmt::format("commit    {}", commit()),
            fmt::format("compiler  {}", compiler()), fmt::format("built for {} {}", system(), instructionSet())};
}

}  // namespace chariot::version
