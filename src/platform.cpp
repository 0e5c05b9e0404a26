#include "chariot/platform.h"

#include <algorithm>
#include <clocale>
#include <fstream>
#include <new>
#include <utility>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#else
#include <iconv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#endif

namespace chariot::platform {

namespace {

uintptr_t alignUp(uintptr_t p, size_t alignment) { return (p + alignment - 1) & ~uintptr_t(alignment - 1); }

std::string parentOf(const std::string& path) {
    const size_t slash = path.find_last_of("/\\");
    if (slash == std::string::npos) return ".";
    if (slash == 0) return path.substr(0, 1);
    return path.substr(0, slash);
}

#ifndef _WIN32
// The first number in a file (a /proc or cgroup value), after `key` if given.
std::optional<uint64_t> readNumber(const char* path, const char* key = nullptr) {
    std::ifstream in(path);
    std::string word;
    if (key) {
        while (in >> word && word != key) {}
        if (!in) return std::nullopt;
    }
    uint64_t value = 0;
    if (!(in >> value)) return std::nullopt;
    return value;
}
#endif

}  // namespace

#ifdef _WIN32

// ---------------------------------------------------------------- Windows

namespace {

// Narrow file names are in the ANSI code page: GetModuleFileNameA returns
// them so, the C runtime's fopen (std::ifstream) takes them so, but
// libstdc++'s std::filesystem::path converts narrow strings with the C
// locale, which is "C" (bytes widened one to one) until set. Without this a
// book in C:\Users\<a Chinese name>\ (code page 936) was opened by ifstream
// but not found by std::filesystem::is_regular_file. LC_CTYPE only: numbers
// keep their "C" formatting.
const bool fileNamesInAnsiCodePage = std::setlocale(LC_CTYPE, "") != nullptr;

}  // namespace

std::optional<LargeBlock> allocateLarge(size_t bytes, size_t alignment) {
    // VirtualAlloc returns 64 KB-aligned blocks; more alignment costs a
    // slightly larger reservation. Committed pages read as zeros and take
    // physical memory only when first written.
    constexpr size_t Granularity = size_t(64) << 10;
    const size_t reserved = alignment > Granularity ? bytes + alignment : bytes;
    void* raw = ::VirtualAlloc(nullptr, reserved, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!raw) return std::nullopt;
    LargeBlock block;
    block.base = raw;
    block.reserved = reserved;
    block.data = reinterpret_cast<void*>(alignUp(reinterpret_cast<uintptr_t>(raw), alignment));
    block.bytes = bytes;
    return block;
}

void freeLarge(LargeBlock& block) {
    if (block.base) ::VirtualFree(block.base, 0, MEM_RELEASE);
    block = LargeBlock{};
}

bool discardPages(void* data, size_t bytes) {
    // Decommitted pages go back to the system; committed again they read as
    // zeros. The commit charge was ours a moment ago, so committing again
    // fails only if another process took it in between: then there is no
    // table left to zero-fill.
    if (!::VirtualFree(data, bytes, MEM_DECOMMIT)) return false;
    for (int attempt = 0; attempt < 3; ++attempt)
        if (::VirtualAlloc(data, bytes, MEM_COMMIT, PAGE_READWRITE)) return true;
    throw std::bad_alloc();
}

std::optional<uint64_t> physicalMemoryBytes() {
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    if (!::GlobalMemoryStatusEx(&status) || status.ullTotalPhys == 0) return std::nullopt;
    return uint64_t(status.ullTotalPhys);
}

std::optional<uint64_t> availableMemoryBytes() {
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof status;
    if (!::GlobalMemoryStatusEx(&status)) return std::nullopt;
    return uint64_t(status.ullAvailPhys);
}

bool stderrIsTerminal() {
    // A console, not merely a character device (_isatty says yes to NUL).
    DWORD mode = 0;
    return ::GetConsoleMode(::GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

std::string executableDir() {
    std::string path(MAX_PATH, '\0');
    while (true) {
        const DWORD n = ::GetModuleFileNameA(nullptr, path.data(), DWORD(path.size()));
        if (n == 0) return ".";
        if (n < path.size()) {
            path.resize(n);
            return parentOf(path);
        }
        if (path.size() >= 32768) return ".";
        path.resize(path.size() * 2);
    }
}

size_t readStdin(char* buffer, size_t size) {
    // ReadFile, not the C runtime: no text-mode translation, and a closed
    // pipe (ERROR_BROKEN_PIPE) is simply the end of input.
    DWORD got = 0;
    const DWORD want = DWORD(std::min<size_t>(size, size_t(1) << 30));
    if (!::ReadFile(::GetStdHandle(STD_INPUT_HANDLE), buffer, want, &got, nullptr)) return 0;
    return size_t(got);
}

std::optional<std::string> systemToUtf8(std::string_view bytes, Charset charset) {
    if (bytes.empty()) return std::string();
    if (bytes.size() > size_t(1) << 30) return std::nullopt;
    const UINT codePage = charset == Charset::Gbk ? 936 : 950;
    const int wideCount =
        ::MultiByteToWideChar(codePage, MB_ERR_INVALID_CHARS, bytes.data(), int(bytes.size()), nullptr, 0);
    if (wideCount <= 0) return std::nullopt;
    std::wstring wide(size_t(wideCount), L'\0');
    if (::MultiByteToWideChar(codePage, MB_ERR_INVALID_CHARS, bytes.data(), int(bytes.size()), wide.data(),
                              wideCount) != wideCount)
        return std::nullopt;
    const int count = ::WideCharToMultiByte(CP_UTF8, 0, wide.data(), wideCount, nullptr, 0, nullptr, nullptr);
    if (count <= 0) return std::nullopt;
    std::string out(size_t(count), '\0');
    if (::WideCharToMultiByte(CP_UTF8, 0, wide.data(), wideCount, out.data(), count, nullptr, nullptr) != count)
        return std::nullopt;
    return out;
}

#else

// ---------------------------------------------------------------- Linux (POSIX)

std::optional<LargeBlock> allocateLarge(size_t bytes, size_t alignment) {
    const size_t reserved = bytes + alignment;
    void* raw = ::mmap(nullptr, reserved, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) return std::nullopt;
    LargeBlock block;
    block.base = raw;
    block.reserved = reserved;
    block.data = reinterpret_cast<void*>(alignUp(reinterpret_cast<uintptr_t>(raw), alignment));
    block.bytes = bytes;
#ifdef MADV_HUGEPAGE
    // Transparent huge pages: far fewer TLB misses on random accesses.
    if (alignment >= (size_t(2) << 20)) ::madvise(block.data, bytes, MADV_HUGEPAGE);
#endif
    return block;
}

void freeLarge(LargeBlock& block) {
    if (block.base) ::munmap(block.base, block.reserved);
    block = LargeBlock{};
}

bool discardPages([[maybe_unused]] void* data, [[maybe_unused]] size_t bytes) {
#ifdef __linux__
    // Dropped pages of a private anonymous mapping read back as zeros and
    // are backed afresh on the next write.
    return ::madvise(data, bytes, MADV_DONTNEED) == 0;
#else
    return false;
#endif
}

std::optional<uint64_t> physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) return std::nullopt;
    return uint64_t(pages) * uint64_t(pageSize);
}

std::optional<uint64_t> availableMemoryBytes() {
    std::optional<uint64_t> available;
    if (auto kb = readNumber("/proc/meminfo", "MemAvailable:")) available = *kb << 10;
    // cgroup v2, then v1 (as seen from inside a container); "max" or a huge v1 value means no limit.
    for (auto [max, used] :
         {std::pair{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
          std::pair{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
        auto maxBytes = readNumber(max), usedBytes = readNumber(used);
        if (!maxBytes || !usedBytes || *maxBytes >= (uint64_t(1) << 60)) continue;
        const uint64_t headroom = *maxBytes - std::min(*maxBytes, *usedBytes);
        available = available ? std::min(*available, headroom) : headroom;
        break;
    }
    return available;
}

bool stderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

std::string executableDir() {
    char buffer[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    if (n <= 0) return ".";
    return parentOf(std::string(buffer, size_t(n)));
}

#ifndef __EMSCRIPTEN__
// (The WebAssembly build has no standard input to read: src/web/main.cpp
// defines readStdin there, over the lines JavaScript sends.)
size_t readStdin(char* buffer, size_t size) {
    while (true) {
        const ssize_t n = ::read(STDIN_FILENO, buffer, size);
        if (n < 0 && errno == EINTR) continue;
        return n > 0 ? size_t(n) : 0;
    }
}
#endif

std::optional<std::string> systemToUtf8(std::string_view bytes, Charset charset) {
    // CP950 is Big5 as Windows writes it (a few more characters, the euro
    // sign); a C library without that name still has plain Big5.
    iconv_t cd = ::iconv_open("UTF-8", charset == Charset::Gbk ? "GBK" : "CP950");
    if (cd == iconv_t(-1) && charset == Charset::Big5) cd = ::iconv_open("UTF-8", "BIG5");
    if (cd == iconv_t(-1)) return std::nullopt;
    // Each input byte gives at most 3 bytes of UTF-8 (GBK's one-byte euro sign).
    std::string out(bytes.size() * 3 + 16, '\0');
    char* in = const_cast<char*>(bytes.data());
    size_t inLeft = bytes.size();
    char* dst = out.data();
    size_t outLeft = out.size();
    const size_t rc = ::iconv(cd, &in, &inLeft, &dst, &outLeft);
    ::iconv_close(cd);
    if (rc == size_t(-1) || inLeft != 0) return std::nullopt;
    out.resize(out.size() - outLeft);
    return out;
}

#endif

}  // namespace chariot::platform
