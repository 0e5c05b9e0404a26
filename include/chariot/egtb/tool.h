// `chariot egtb build|verify|list`: the tablebase tools on the command line.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace chariot::egtb {

// Results on `print`, progress lines and errors on `err`; returns the exit code.
int runEgtbTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
                std::ostream& err);

}  // namespace chariot::egtb
