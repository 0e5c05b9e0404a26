// The option registry: every option is declared once (UCCI name, UCI name,
// type, default, range, handler). Both dialects' `option` lines, `setoption`
// parsing, the clamping messages and the README's option table come from it.
// No I/O: setting an option returns the messages for the caller to show.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/text.h"

namespace chariot {

enum class OptionType : uint8_t { Check, Spin, Combo, String, Button };

struct OptionValue {
    bool check = false;
    int64_t spin = 0;
    std::string text;  // combo (the canonical lower-case var) and string values
    // Set by a handler that refuses the value (a net file that does not
    // load): the option keeps its previous value, and `applied` is false.
    mutable bool rejected = false;
};

struct Option {
    std::string ucciName;  // one lower-case word
    std::string uciName;   // the UCI spelling; empty: UCCI only
    OptionType type = OptionType::Button;
    std::string defaultValue;
    int64_t min = 0, max = 0;       // spin
    std::vector<std::string> vars;  // combo
    std::string help;               // one line for the README table and `help`
    // Applies a parsed, range-checked value; returns extra messages (may be empty).
    std::function<std::vector<std::string>(const OptionValue&)> apply;
    // Spin: a value of 0 means "the engine decides" (UCCI's hashsize 0, threads 0).
    bool zeroMeansDefault = false;
    // Shown only in the README/help, not advertised (aliases, old spellings).
    std::vector<std::string> aliases;
    std::string docDefault;  // the default as the README shows it, when the real one is machine-specific
    std::string current;     // the value last set (as text), for `option` lines' defaults
};

// Builders, one per type (the handler gets the parsed, range-checked value).
using OptionHandler = std::function<std::vector<std::string>(const OptionValue&)>;
Option checkOption(std::string ucci, std::string uci, bool value, std::string help, OptionHandler apply);
Option spinOption(std::string ucci, std::string uci, int64_t value, int64_t min, int64_t max, std::string help,
                  OptionHandler apply);
Option comboOption(std::string ucci, std::string uci, std::string value, std::vector<std::string> vars,
                   std::string help, OptionHandler apply);
Option stringOption(std::string ucci, std::string uci, std::string value, std::string help, OptionHandler apply);
Option buttonOption(std::string ucci, std::string uci, std::string help, OptionHandler apply);

class OptionRegistry {
public:
    // Declares an option; its current value starts at the default (the handler
    // is not called).
    void add(Option option);

    // setoption: finds the option by either spelling or an alias (case-, space-
    // and underscore-insensitive), parses, clamps and applies the value.
    // `known` is false for an unknown name; messages are for `info string`.
    struct SetResult {
        bool known = false;
        bool applied = false;
        std::vector<std::string> messages;
    };
    SetResult set(std::string_view name, std::string_view value);

    // Sets every option whose value differs from its default back to it.
    void resetToDefaults();

    const std::vector<Option>& all() const { return options_; }

    // The handshake lines of each dialect.
    std::vector<std::string> ucciLines() const;
    std::vector<std::string> uciLines() const;
    // The README's option table (Markdown).
    std::string markdownTable() const;

private:
    Option* find(std::string_view name);  // either spelling or an alias
    std::vector<Option> options_;
};

// Integer argument of a protocol command or option: clamps to [lo, hi]
// (saturating huge numbers, truncating "1.5"); nullopt if it is not a number.
std::optional<int64_t> parseInteger(std::string_view text, int64_t lo, int64_t hi);
std::optional<bool> parseBoolean(std::string_view text);

}  // namespace chariot
