#include "chariot/tool_args.h"

#include <fmt/format.h>

namespace chariot::tools {

int readArgs(std::string_view tool, const std::vector<std::string>& args, const std::vector<Flag>& flags,
             const std::function<bool(const std::string&)>& positional,
             const std::function<void(const std::string&)>& print, std::ostream& err, std::string_view usage) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "help" || a == "--help" || a == "-h") {
            printLines(print, usage);
            return 0;
        }
        auto flag = std::find_if(flags.begin(), flags.end(), [&](const Flag& f) { return f.name == a; });
        if (flag == flags.end()) {
            if (a.size() > 1 && a[0] == '-') {
                err << fmt::format("{}: unknown option '{}'\n", tool, a) << usage;
                return 2;
            }
            if (!positional(a)) return 2;
            continue;
        }
        if (!flag->takeValue) {
            flag->set();
            continue;
        }
        if (i + 1 >= args.size() || !flag->takeValue(args[i + 1])) {
            err << fmt::format("{}: bad or missing value for {}\n", tool, a);
            return 2;
        }
        ++i;
    }
    return -1;
}

}  // namespace chariot::tools
