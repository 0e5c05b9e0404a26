// The operating system, behind one small interface: the only code in the
// engine that differs between Linux and Windows is src/platform.cpp.
//
//   Linux:   mmap + madvise (transparent huge pages, MADV_DONTNEED), /proc and
//            the cgroup files for memory figures, /proc/self/exe, read(2).
//   Windows: VirtualAlloc / VirtualFree (decommit + commit to zero a range),
//            GlobalMemoryStatusEx, GetModuleFileNameA, ReadFile on the
//            standard input handle (binary: CR LF arrives as two bytes). At
//            start-up (a static initializer in platform.cpp) the C runtime's
//            LC_CTYPE is set to the user's ANSI code page, so that every
//            narrow file name (std::filesystem included) is read in it.
//   WebAssembly (Emscripten): the POSIX code, except readStdin, which the
//            web front-end (src/web/main.cpp) defines over the lines that
//            JavaScript sends.
//
// CHARIOT_NO_THREADS=1 (set by the build; 0 by default) builds the engine
// for a host without threads: the single-threaded WebAssembly module
// (src/web/main_single.cpp), for pages that are not cross-origin isolated.
// There the search runs on the thread that reads the input, and lets the
// host deliver input every few milliseconds (pollStdin, below); the native
// builds never compile that code.
#pragma once

#ifndef CHARIOT_NO_THREADS
#define CHARIOT_NO_THREADS 0
#endif

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace chariot::platform {

// A large block of memory that reads as zeros and whose pages the system
// backs only when they are first written. `data` is aligned as asked; `base`
// and `reserved` describe the whole reservation (for freeLarge).
struct LargeBlock {
    void* data = nullptr;
    size_t bytes = 0;
    void* base = nullptr;
    size_t reserved = 0;
};

// `alignment` is a power of two; on Linux a block aligned to 2 MB or more is
// marked for transparent huge pages. Nullopt if the system refuses.
std::optional<LargeBlock> allocateLarge(size_t bytes, size_t alignment);
void freeLarge(LargeBlock& block);  // empties `block`
// Gives the pages of [data, data + bytes) back to the system so that they read
// as zeros again, without touching them (milliseconds at any size). `data`
// and `bytes` must be multiples of the page size (4 KB; 64 KB on Windows is
// not needed). False if this cannot be done here: then zero-fill instead.
bool discardPages(void* data, size_t bytes);

// Physical memory of the machine, and the memory a new allocation can still
// get backed now (Linux: MemAvailable, capped by the headroom under a cgroup
// memory limit; Windows: the available physical memory). Nullopt if unknown.
std::optional<uint64_t> physicalMemoryBytes();
std::optional<uint64_t> availableMemoryBytes();

// Is standard error a terminal (a console on Windows)?
bool stderrIsTerminal();

// The folder that holds the running executable, without a trailing separator,
// in the form the narrow file APIs take (on Windows: the ANSI code page);
// "." if it cannot be found.
std::string executableDir();

// Reads up to `size` bytes of standard input as they arrive, untranslated.
// Returns the count, 0 at end of input (or on an error that ends it).
size_t readStdin(char* buffer, size_t size);

#if CHARIOT_NO_THREADS
// Without threads: lets the host run (WebAssembly: returns to the JavaScript
// event loop, which delivers the lines sent meanwhile) for at most `waitMs`
// milliseconds, less once input arrives (0: one turn; negative: until input
// arrives or ends), then reads up to `size` bytes of what has arrived.
// `ended` is set once the input has ended and every byte has been read.
size_t pollStdin(char* buffer, size_t size, int64_t waitMs, bool& ended);
#endif

// The two-byte Chinese code pages of older xiangqi files.
enum class Charset : uint8_t {
    Gbk,   // code page 936: simplified Chinese (mainland files)
    Big5,  // code page 950: traditional Chinese (Taiwan and Hong Kong files)
};

// Text in `charset` to UTF-8 by the system's converter (Linux: the C
// library's iconv, "GBK" or "CP950" (else "BIG5"); Windows:
// MultiByteToWideChar with code page 936 or 950). Nullopt if there is none or
// the bytes are not valid text in that code page.
std::optional<std::string> systemToUtf8(std::string_view bytes, Charset charset);

}  // namespace chariot::platform
