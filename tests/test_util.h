// Helpers shared by the Catch2 test files: positions from FEN and move
// strings, and scratch files in a temporary directory.
#pragma once

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <string_view>

#include "chariot/position.h"

namespace chariot::test {

inline Position fromFen(std::string_view fen) {
    Position p;
    auto error = p.setFen(fen);
    INFO(fen);
    REQUIRE_FALSE(error);
    return p;
}

// Plays the space-separated ICCS moves (each must be legal); returns how many.
inline int play(Position& p, std::string_view moves) {
    std::istringstream in{std::string(moves)};
    std::string text;
    int n = 0;
    while (in >> text) {
        Move m = p.parseLegalMove(text);
        INFO("move " << text << " in " << p.fen());
        REQUIRE(m);
        p.makeMove(m);
        ++n;
    }
    return n;
}

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
public:
    TempDir() {
        static std::atomic<int> counter{0};
        path_ = std::filesystem::temp_directory_path() /
                ("chariot_test_" + std::to_string(std::random_device{}()) + "_" + std::to_string(counter++));
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    std::filesystem::path path_;
};

inline void writeFile(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    REQUIRE(out.good());
}

inline std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace chariot::test
