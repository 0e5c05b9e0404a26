// What this binary is: the version (CMake's project(VERSION)), the commit it
// was built from, the compiler and the instruction set. `chariot version`
// prints it all; the protocol's `id name` carries number().
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace chariot::version {

std::string_view number();          // "0.2.0"
std::string_view commit();          // "a1ae672", "a1ae672-dirty" or "unknown"
std::string_view compiler();        // "GNU 12.2.0 (g++)"
std::string_view system();          // "Linux", "Windows"
std::string_view instructionSet();  // "x86-64", "x86-64-avx2", ...
// "Chariot 0.2.0", then one line each for the commit, compiler and target.
std::vector<std::string> describe();

}  // namespace chariot::version
