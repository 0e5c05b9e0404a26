// The system layer (platform.h) and the byte handling that Windows input
// needs (CR LF line ends, bytes of a console code page), on every system:
// scripts/test_windows.sh runs these under wine too.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "chariot/platform.h"
#include "chariot/ucci.h"
#include "chariot/version.h"

using namespace chariot;

TEST_CASE("large blocks are aligned, read as zeros, and discarded pages read as zeros again", "[platform]") {
    constexpr size_t Bytes = size_t(8) << 20, Alignment = size_t(2) << 20;
    auto block = platform::allocateLarge(Bytes, Alignment);
    REQUIRE(block);
    CHECK(reinterpret_cast<uintptr_t>(block->data) % Alignment == 0);
    CHECK(block->bytes == Bytes);
    auto* bytes = static_cast<unsigned char*>(block->data);
    CHECK(bytes[0] == 0);
    CHECK(bytes[Bytes / 2] == 0);
    CHECK(bytes[Bytes - 1] == 0);
    std::memset(bytes, 0xAB, Bytes);
    if (platform::discardPages(block->data, Bytes)) {
        size_t nonZero = 0;
        for (size_t i = 0; i < Bytes; i += 4096) nonZero += bytes[i] != 0 || bytes[i + 4095] != 0;
        CHECK(nonZero == 0);
        bytes[12345] = 1;  // still writable
        CHECK(bytes[12345] == 1);
    }
    platform::freeLarge(*block);
    CHECK(block->data == nullptr);
}

TEST_CASE("memory figures are plausible when known", "[platform]") {
    const auto physical = platform::physicalMemoryBytes();
    REQUIRE(physical);
    CHECK(*physical >= (uint64_t(64) << 20));
    if (auto available = platform::availableMemoryBytes()) CHECK(*available <= *physical + (uint64_t(1) << 30));
}

TEST_CASE("the executable's folder is a folder that exists", "[platform]") {
    const std::string dir = platform::executableDir();
    REQUIRE_FALSE(dir.empty());
    CHECK(dir.back() != '/');
    CHECK(dir.back() != '\\');
    CHECK(std::filesystem::is_directory(dir));
}

TEST_CASE("GBK and Big5 convert to UTF-8 where the system has a converter", "[platform]") {
    // 炮二平五 in GBK, in Big5, then in UTF-8.
    const std::string gbk = "\xC5\xDA\xB6\xFE\xC6\xBD\xCE\xE5 1-0";
    const std::string big5 = "\xAC\xB6\xA4\x47\xA5\xAD\xA4\xAD 1-0";
    const std::string utf8 = "\xE7\x82\xAE\xE4\xBA\x8C\xE5\xB9\xB3\xE4\xBA\x94 1-0";
    using platform::Charset;
    if (auto converted = platform::systemToUtf8(gbk, Charset::Gbk)) CHECK(*converted == utf8);
    if (auto converted = platform::systemToUtf8(big5, Charset::Big5)) CHECK(*converted == utf8);
    CHECK_FALSE(platform::systemToUtf8("\xC5", Charset::Gbk));   // half a character
    CHECK_FALSE(platform::systemToUtf8("\xAC", Charset::Big5));  // half a character
    // GBK's trail byte 0x80-0xA0 is none of Big5's.
    CHECK_FALSE(platform::systemToUtf8("\xB3\x95", Charset::Big5));
}

TEST_CASE("line splitting: CR LF, lone CR and console code page bytes", "[platform][protocol]") {
    LineSplitter splitter;
    std::vector<LineSplitter::Line> lines;
    // CR LF split across reads, as a Windows pipe may deliver it.
    const std::string input = "ucci\r\nposition startpos moves h2e2\r";
    splitter.feed(input.data(), input.size(), lines);
    splitter.feed("\n", 1, lines);
    // Bytes of GBK (code page 936) and UTF-8 go through untouched.
    const std::string path =
        "setoption bookfiles C:\\\xC6\xE5\xC6\xD7\\book.dat\r\nsetoption bookfiles /\xE6\xA3\x8B/b\r\n";
    splitter.feed(path.data(), path.size(), lines);
    splitter.feed("quit\r", 5, lines);
    auto last = splitter.finish();
    REQUIRE(lines.size() == 4);
    // CR becomes a space, which tokenizing drops.
    CHECK(lines[0].text == "ucci ");
    CHECK(lines[1].text == "position startpos moves h2e2 ");
    CHECK(lines[2].text == "setoption bookfiles C:\\\xC6\xE5\xC6\xD7\\book.dat ");
    CHECK(lines[3].text == "setoption bookfiles /\xE6\xA3\x8B/b ");
    REQUIRE(last);
    CHECK(last->text == "quit ");
}

TEST_CASE("a protocol session over CR LF lines", "[platform][protocol]") {
    std::vector<std::string> out;
    Protocol protocol([&](const std::string& line) { out.push_back(line); });
    protocol.runLines({"ucci\r", "setoption usebook false\r", "position startpos moves h2e2\r", "go depth 3\r"});
    bool named = false, answered = false;
    for (const auto& l : out) {
        named |= l == "id name Chariot " + std::string(version::number());
        answered |= l.rfind("bestmove ", 0) == 0;
    }
    CHECK(named);
    CHECK(answered);
}

TEST_CASE("the version is CMake's project version and names a commit", "[platform]") {
    CHECK(version::number() == CHARIOT_PROJECT_VERSION);
    CHECK_FALSE(version::commit().empty());
    const auto lines = version::describe();
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "Chariot " + std::string(version::number()));
}
