#include "chariot/options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace chariot {

namespace {

// Names match across dialects: case, spaces and underscores do not matter
// ("Move Overhead", "move_overhead" and "moveoverhead" are one option).
std::string canonical(std::string_view s) {
    std::string out;
    for (char c : s)
        if (c != ' ' && c != '_') out += char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

const char* typeName(OptionType t) {
    switch (t) {
        case OptionType::Check: return "check";
        case OptionType::Spin: return "spin";
        case OptionType::Combo: return "combo";
        case OptionType::String: return "string";
        default: return "button";
    }
}

std::string shownDefault(const Option& o) { return o.current.empty() ? "<empty>" : o.current; }

}  // namespace

std::optional<int64_t> parseInteger(std::string_view text, int64_t lo, int64_t hi) {
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+') ++begin;
    int64_t value = 0;
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range) {
        // Too many digits: saturate in the direction of the sign.
        value = (begin != end && *begin == '-') ? lo : hi;
    } else if (ec != std::errc() || ptr != end) {
        // Accept a fractional part ("1.5") by truncating it.
        if (ec == std::errc() && ptr != end && *ptr == '.' &&
            std::all_of(ptr + 1, end, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::clamp(value, lo, hi);
        return std::nullopt;
    }
    return std::clamp(value, lo, hi);
}

std::optional<bool> parseBoolean(std::string_view text) {
    const std::string v = asciiLower(text);
    if (v == "true" || v == "on" || v == "1" || v == "yes") return true;
    if (v == "false" || v == "off" || v == "0" || v == "no") return false;
    return std::nullopt;
}

Option checkOption(std::string ucci, std::string uci, bool value, std::string help, OptionHandler apply) {
    Option o;
    o.ucciName = std::move(ucci);
    o.uciName = std::move(uci);
    o.type = OptionType::Check;
    o.defaultValue = value ? "true" : "false";
    o.help = std::move(help);
    o.apply = std::move(apply);
    return o;
}

Option spinOption(std::string ucci, std::string uci, int64_t value, int64_t min, int64_t max, std::string help,
                  OptionHandler apply) {
    Option o = checkOption(std::move(ucci), std::move(uci), false, std::move(help), std::move(apply));
    o.type = OptionType::Spin;
    o.defaultValue = std::to_string(value);
    o.min = min;
    o.max = max;
    return o;
}

Option comboOption(std::string ucci, std::string uci, std::string value, std::vector<std::string> vars,
                   std::string help, OptionHandler apply) {
    Option o = checkOption(std::move(ucci), std::move(uci), false, std::move(help), std::move(apply));
    o.type = OptionType::Combo;
    o.defaultValue = std::move(value);
    o.vars = std::move(vars);
    return o;
}

Option stringOption(std::string ucci, std::string uci, std::string value, std::string help, OptionHandler apply) {
    Option o = checkOption(std::move(ucci), std::move(uci), false, std::move(help), std::move(apply));
    o.type = OptionType::String;
    o.defaultValue = std::move(value);
    return o;
}

Option buttonOption(std::string ucci, std::string uci, std::string help, OptionHandler apply) {
    Option o = checkOption(std::move(ucci), std::move(uci), false, std::move(help), std::move(apply));
    o.type = OptionType::Button;
    o.defaultValue.clear();
    return o;
}

void OptionRegistry::add(Option option) {
    option.current = option.defaultValue;
    options_.push_back(std::move(option));
}

Option* OptionRegistry::find(std::string_view name) {
    const std::string key = canonical(name);
    if (key.empty()) return nullptr;
    for (Option& o : options_) {
        if (canonical(o.ucciName) == key || (!o.uciName.empty() && canonical(o.uciName) == key)) return &o;
        for (const auto& alias : o.aliases)
            if (canonical(alias) == key) return &o;
    }
    return nullptr;
}

OptionRegistry::SetResult OptionRegistry::set(std::string_view rawName, std::string_view rawValue) {
    SetResult result;
    Option* o = find(rawName);
    if (!o) {
        result.messages.push_back(fmt::format("unknown option '{}' ignored", rawName.substr(0, 40)));
        return result;
    }
    result.known = true;
    const std::string value(rawValue);
    auto bad = [&](std::string_view expected) {
        result.messages.push_back(
            fmt::format("option {}: '{}' is not {}; unchanged", o->ucciName, value.substr(0, 40), expected));
        return result;
    };
    OptionValue v;
    const std::string previous = o->current;
    switch (o->type) {
        case OptionType::Check: {
            auto b = parseBoolean(value);
            if (!b) return bad("true or false");
            v.check = *b;
            o->current = *b ? "true" : "false";
            break;
        }
        case OptionType::Spin: {
            auto n = parseInteger(value, INT64_MIN, INT64_MAX);
            if (!n) return bad(fmt::format("a number from {} to {}", o->min, o->max));
            if (*n == 0 && o->zeroMeansDefault) {
                n = parseInteger(o->defaultValue, o->min, o->max);
                result.messages.push_back(fmt::format("option {}: 0 means the default, {}", o->ucciName, *n));
            } else if (*n < o->min || *n > o->max) {
                const int64_t clamped = std::clamp(*n, o->min, o->max);
                result.messages.push_back(
                    fmt::format("option {}: {} is out of range, using {}", o->ucciName, *n, clamped));
                n = clamped;
            }
            v.spin = *n;
            o->current = std::to_string(*n);
            break;
        }
        case OptionType::Combo: {
            const std::string l = asciiLower(value);
            auto it = std::find(o->vars.begin(), o->vars.end(), l);
            if (it == o->vars.end()) {
                std::string list;
                for (const auto& var : o->vars) list += (list.empty() ? "" : ", ") + var;
                return bad("one of " + list);
            }
            v.text = l;
            o->current = l;
            break;
        }
        case OptionType::String:
            v.text = asciiLower(value) == "<empty>" ? std::string() : value;
            o->current = v.text;
            break;
        case OptionType::Button: break;
    }
    result.applied = true;
    if (o->apply)
        for (auto& m : o->apply(v)) result.messages.push_back(std::move(m));
    if (v.rejected) {
        o->current = previous;
        result.applied = false;
    }
    return result;
}

void OptionRegistry::resetToDefaults() {
    for (size_t i = 0; i < options_.size(); ++i) {
        const Option& o = options_[i];
        if (o.type != OptionType::Button && o.current != o.defaultValue) {
            const std::string name = o.ucciName, value = o.defaultValue;
            set(name, value.empty() ? "<empty>" : value);
        }
    }
}

std::vector<std::string> OptionRegistry::ucciLines() const {
    std::vector<std::string> lines;
    for (const Option& o : options_) {
        std::string line = fmt::format("option {} type {}", o.ucciName, typeName(o.type));
        if (o.type == OptionType::Spin) line += fmt::format(" min {} max {}", o.zeroMeansDefault ? 0 : o.min, o.max);
        for (const auto& var : o.vars) line += " var " + var;
        if (o.type != OptionType::Button) line += " default " + shownDefault(o);
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<std::string> OptionRegistry::uciLines() const {
    std::vector<std::string> lines;
    for (const Option& o : options_) {
        if (o.uciName.empty()) continue;
        std::string line = fmt::format("option name {} type {}", o.uciName, typeName(o.type));
        if (o.type != OptionType::Button) line += " default " + shownDefault(o);
        if (o.type == OptionType::Spin) line += fmt::format(" min {} max {}", o.min, o.max);
        for (const auto& var : o.vars) line += " var " + var;
        lines.push_back(std::move(line));
    }
    return lines;
}

std::string OptionRegistry::markdownTable() const {
    std::string out = "| UCCI | UCI | type | default | range | meaning |\n|---|---|---|---|---|---|\n";
    for (const Option& o : options_) {
        std::string ucci = "`" + o.ucciName + "`";
        for (const auto& a : o.aliases) ucci += ", `" + a + "`";
        std::string range;
        if (o.type == OptionType::Spin) range = fmt::format("{}–{}", o.zeroMeansDefault ? 0 : o.min, o.max);
        for (const auto& var : o.vars) range += (range.empty() ? "" : "/") + var;
        const std::string def = o.type == OptionType::Button ? "—"
                                : !o.docDefault.empty()      ? o.docDefault
                                : o.defaultValue.empty()     ? "(empty)"
                                                             : "`" + o.defaultValue + "`";
        out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", ucci, o.uciName.empty() ? "—" : "`" + o.uciName + "`",
                           typeName(o.type), def, range.empty() ? "—" : range, o.help);
    }
    return out;
}

}  // namespace chariot
