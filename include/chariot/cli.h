// Command-line entry: dispatches `chariot <subcommand> ...` or runs the protocol loop.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace chariot {

int runCommandLine(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print);

}  // namespace chariot
