#include "chariot/pgn.h"

#include <algorithm>

#include <fmt/format.h>

#include "chariot/notation.h"
#include "chariot/platform.h"
#include "chariot/position.h"

namespace chariot::pgn {

// ---------------------------------------------------------------------------
// Text

bool isValidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        if (b0 < 0x80) {
            ++i;
            continue;
        }
        int len;
        char32_t min;
        if ((b0 & 0xE0) == 0xC0)
            len = 2, min = 0x80;
        else if ((b0 & 0xF0) == 0xE0)
            len = 3, min = 0x800;
        else if ((b0 & 0xF8) == 0xF0)
            len = 4, min = 0x10000;
        else
            return false;
        if (i + size_t(len) > s.size()) return false;
        char32_t c = b0 & (0x7F >> len);
        for (int k = 1; k < len; ++k) {
            const auto b = static_cast<unsigned char>(s[i + size_t(k)]);
            if ((b & 0xC0) != 0x80) return false;
            c = (c << 6) | (b & 0x3F);
        }
        if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;  // overlong, out of range, surrogate
        i += size_t(len);
    }
    return true;
}

namespace {

// A two-byte code -> Unicode, for the built-in tables below.
struct CodeEntry {
    uint16_t code;
    uint16_t unicode;
};

// GBK code -> Unicode for the characters Chariot must read without help:
// xiangqi notation (simplified and traditional), common tag and result
// words, every character of tests/data/uccileag-gbk-chinese.pgn, CJK
// punctuation. Sorted by GBK code. (Made with Python's "gbk" codec from that
// character list.)
constexpr CodeEntry GbkTable[] = {
    {0x8265, 0x4FE5}, {0x8280, 0x500B}, {0x82D8, 0x508C}, {0x8474, 0x5247}, {0x84D9, 0x52DD}, {0x87F8, 0x570B},
    {0x8846, 0x5718}, {0x8CA2, 0x5C07}, {0x8CA6, 0x5C0D}, {0x8CC3, 0x5C46}, {0x8E9B, 0x5E25}, {0x94C0, 0x6583},
    {0x9572, 0x6642}, {0x98CB, 0x6A19}, {0x9A88, 0x6B98}, {0x9AA2, 0x6BBA}, {0xA1A1, 0x3000}, {0xA1A2, 0x3001},
    {0xA1A3, 0x3002}, {0xA1A4, 0x00B7}, {0xA1AA, 0x2014}, {0xA1AD, 0x2026}, {0xA1AE, 0x2018}, {0xA1AF, 0x2019},
    {0xA1B0, 0x201C}, {0xA1B1, 0x201D}, {0xA1B6, 0x300A}, {0xA1B7, 0x300B}, {0xA1BE, 0x3010}, {0xA1BF, 0x3011},
    {0xA3A1, 0xFF01}, {0xA3A8, 0xFF08}, {0xA3A9, 0xFF09}, {0xA3AC, 0xFF0C}, {0xA3B0, 0xFF10}, {0xA3B1, 0xFF11},
    {0xA3B2, 0xFF12}, {0xA3B3, 0xFF13}, {0xA3B4, 0xFF14}, {0xA3B5, 0xFF15}, {0xA3B6, 0xFF16}, {0xA3B7, 0xFF17},
    {0xA3B8, 0xFF18}, {0xA3B9, 0xFF19}, {0xA3BA, 0xFF1A}, {0xA3BB, 0xFF1B}, {0xA3BF, 0xFF1F}, {0xA3DB, 0xFF3B},
    {0xA3DD, 0xFF3D}, {0xB0CB, 0x516B}, {0xB0D9, 0x767E}, {0xB0FC, 0x5305}, {0xB1AD, 0x676F}, {0xB1C8, 0x6BD4},
    {0xB1D0, 0x6BD9}, {0xB1E4, 0x53D8}, {0xB1EA, 0x6807}, {0xB1F8, 0x5175}, {0xB2BC, 0x5E03}, {0xB2BD, 0x6B65},
    {0xB2D0, 0x6B8B}, {0xB368, 0x7832}, {0xB3A4, 0x957F}, {0xB3AC, 0x8D85}, {0xB3B5, 0x8F66}, {0xB5D8, 0x5730},
    {0xB5DA, 0x7B2C}, {0xB5E3, 0x70B9}, {0xB6D4, 0x5BF9}, {0xB6FE, 0x4E8C}, {0xB7BD, 0x65B9}, {0xB7C3, 0x8BBF},
    {0xB7D6, 0x5206}, {0xB8BA, 0x8D1F}, {0xB8F6, 0x4E2A}, {0xB9DB, 0x89C2}, {0xB9E6, 0x89C4}, {0xB9FA, 0x56FD},
    {0xB9FB, 0x679C}, {0xB9FD, 0x8FC7}, {0xBACD, 0x548C}, {0xBACF, 0x5408}, {0xBADA, 0x9ED1}, {0xBAEC, 0x7EA2},
    {0xBAF3, 0x540E}, {0xBBB6, 0x6B22}, {0xBBD8, 0x56DE}, {0xBC74, 0x7D05}, {0xBC89, 0x7D1A}, {0xBCB6, 0x7EA7},
    {0xBCD7, 0x7532}, {0xBCE4, 0x95F4}, {0xBCF6, 0x8350}, {0xBD59, 0x7D50}, {0xBD5E, 0x7D55}, {0xBDAB, 0x5C06},
    {0xBDE1, 0x7ED3}, {0xBDEC, 0x5C4A}, {0xBDF5, 0x9526}, {0xBDF8, 0x8FDB}, {0xBEC5, 0x4E5D}, {0xBED6, 0x5C40},
    {0xBEF8, 0x7EDD}, {0xBFAA, 0x5F00}, {0xBFC6, 0x79D1}, {0xC0A7, 0x56F0}, {0xC0FD, 0x4F8B}, {0xC1AA, 0x8054},
    {0xC1D0, 0x5217}, {0xC1F9, 0x516D}, {0xC293, 0x806F}, {0xC2D6, 0x8F6E}, {0xC2ED, 0x9A6C}, {0xC4EA, 0x5E74},
    {0xC5C5, 0x6392}, {0xC5D0, 0x5224}, {0xC5DA, 0x70AE}, {0xC6BD, 0x5E73}, {0xC6C0, 0x8BC4}, {0xC6D7, 0x8C31},
    {0xC6DF, 0x4E03}, {0xC6E5, 0x68CB}, {0xC7B0, 0x524D}, {0xC8AB, 0x5168}, {0xC8BB, 0x7136}, {0xC8CB, 0x4EBA},
    {0xC8CF, 0x8BA4}, {0xC8D5, 0x65E5}, {0xC8FC, 0x8D5B}, {0xC8FD, 0x4E09}, {0xC9B1, 0x6740}, {0xC9CD, 0x8D4F},
    {0xCAA4, 0x80DC}, {0xCAA6, 0x5E08}, {0xCAAE, 0x5341}, {0xCAB1, 0x65F6}, {0xCABF, 0x58EB}, {0xCAC2, 0x4E8B},
    {0xCACB, 0x4ED5}, {0xCAE4, 0x8F93}, {0xCAE9, 0x4E66}, {0xCBA7, 0x5E05}, {0xCBC0, 0x6B7B}, {0xCBC4, 0x56DB},
    {0xCCE5, 0x4F53}, {0xCDC5, 0x56E2}, {0xCDC6, 0x63A8}, {0xCDCB, 0x9000}, {0xCDF8, 0x7F51}, {0xCECA, 0x95EE},
    {0xCED7, 0x5DEB}, {0xCEE5, 0x4E94}, {0xCFC8, 0x5148}, {0xCFDE, 0x9650}, {0xCFE0, 0x76F8}, {0xCFF3, 0x8C61},
    {0xD28E, 0x898F}, {0xD2BB, 0x4E00}, {0xD2D2, 0x4E59}, {0xD3AD, 0x8FCE}, {0xD3C3, 0x7528}, {0xD475, 0x8A55},
    {0xD4C2, 0x6708}, {0xD4F2, 0x5219}, {0xD54A, 0x8A8D}, {0xD5DF, 0x8005}, {0xD5F3, 0x9635}, {0xD6D0, 0x4E2D},
    {0xD756, 0x8B5C}, {0xD783, 0x8B8A}, {0xD7A2, 0x6CE8}, {0xD7C5, 0x7740}, {0xD7D4, 0x81EA}, {0xD7DF, 0x8D70},
    {0xD7E4, 0x5352}, {0xD7F7, 0x4F5C}, {0xD893, 0x8CA0}, {0xD990, 0x8CFD}, {0xDC87, 0x8ECA}, {0xDD86, 0x8F2A},
    {0xDD94, 0x8F38}, {0xDF4D, 0x9032}, {0xE1E1, 0x5F8C}, {0xE55C, 0x9326}, {0xE94C, 0x9577}, {0xE95F, 0x958B},
    {0xE967, 0x9593}, {0xEA87, 0x9663}, {0xF152, 0x99AC}, {0xF377, 0x9AD4}, {0xFC63, 0x9EDE},
};

// Big5 (CP950) code -> Unicode, the same for traditional-Chinese files: the
// characters of xiangqi notation Big5 has (traditional; 炮 and 砲, 傌, no
// 俥), the traditional forms of the common tag and result words, and the CJK
// punctuation; the characters of the GBK table that Big5 also holds are here
// too. Sorted by Big5 code. (Made with Python's "cp950" codec from that
// character list; its "big5" codec gives the same codes for all of them.)
constexpr CodeEntry Big5Table[] = {
    {0xA140, 0x3000}, {0xA141, 0xFF0C}, {0xA142, 0x3001}, {0xA143, 0x3002}, {0xA146, 0xFF1B}, {0xA147, 0xFF1A},
    {0xA148, 0xFF1F}, {0xA149, 0xFF01}, {0xA14B, 0x2026}, {0xA150, 0x00B7}, {0xA158, 0x2014}, {0xA15D, 0xFF08},
    {0xA15E, 0xFF09}, {0xA169, 0x3010}, {0xA16A, 0x3011}, {0xA16D, 0x300A}, {0xA16E, 0x300B}, {0xA175, 0x300C},
    {0xA176, 0x300D}, {0xA179, 0x300E}, {0xA17A, 0x300F}, {0xA1A5, 0x2018}, {0xA1A6, 0x2019}, {0xA1A7, 0x201C},
    {0xA1A8, 0x201D}, {0xA2AF, 0xFF10}, {0xA2B0, 0xFF11}, {0xA2B1, 0xFF12}, {0xA2B2, 0xFF13}, {0xA2B3, 0xFF14},
    {0xA2B4, 0xFF15}, {0xA2B5, 0xFF16}, {0xA2B6, 0xFF17}, {0xA2B7, 0xFF18}, {0xA2B8, 0xFF19}, {0xA440, 0x4E00},
    {0xA441, 0x4E59}, {0xA443, 0x4E03}, {0xA445, 0x4E5D}, {0xA447, 0x4E8C}, {0xA448, 0x4EBA}, {0xA44B, 0x516B},
    {0xA451, 0x5341}, {0xA454, 0x4E09}, {0xA464, 0x5343}, {0xA468, 0x58EB}, {0xA46A, 0x5927}, {0xA4A4, 0x4E2D},
    {0xA4AD, 0x4E94}, {0xA4BB, 0x516D}, {0xA4C0, 0x5206}, {0xA4E2, 0x624B}, {0xA4E8, 0x65B9}, {0xA4E9, 0x65E5},
    {0xA4EB, 0x6708}, {0xA4F1, 0x6BD4}, {0xA540, 0x4E16}, {0xA54B, 0x4ED5}, {0xA55D, 0x5305}, {0xA57C, 0x56DB},
    {0xA5AB, 0x5E02}, {0xA5AC, 0x5E03}, {0xA5AD, 0x5E73}, {0xA5CE, 0x7528}, {0xA5D2, 0x7532}, {0xA5FD, 0x5148},
    {0xA5FE, 0x5168}, {0xA643, 0x5217}, {0xA657, 0x540D}, {0xA658, 0x5408}, {0xA65A, 0x540E}, {0xA65E, 0x56DE},
    {0xA661, 0x5730}, {0xA67E, 0x5E74}, {0xA6BA, 0x6B7B}, {0xA6CA, 0x767E}, {0xA6DB, 0x81EA}, {0xA740, 0x4F5C},
    {0xA74C, 0x5175}, {0xA750, 0x5224}, {0xA778, 0x56F0}, {0xA7BD, 0x5C40}, {0xA7C5, 0x5DEB}, {0xA7D6, 0x5FEB},
    {0xA842, 0x6B65}, {0xA84D, 0x6C7A}, {0xA8AB, 0x8D70}, {0xA8AE, 0x8ECA}, {0xA8C6, 0x4E8B}, {0xA8C8, 0x4E9E},
    {0xA8D2, 0x4F8B}, {0xA8F2, 0x5352}, {0xA94D, 0x548C}, {0xA9A1, 0x5C46}, {0xAA47, 0x679C}, {0xAA4D, 0x676F},
    {0xAA60, 0x6CE8}, {0xAACC, 0x8005}, {0xAAED, 0x8868}, {0xAAEF, 0x8FCE}, {0xAAF8, 0x9577}, {0xAB61, 0x51A0},
    {0xAB65, 0x524D}, {0xAB68, 0x5247}, {0xABB0, 0x57CE}, {0xABD3, 0x5E25}, {0xABE1, 0x5F8C}, {0xAC77, 0x6D32},
    {0xACB6, 0x70AE}, {0xACC9, 0x754C}, {0xACD9, 0x7701}, {0xACDB, 0x76F8}, {0xACEC, 0x79D1}, {0xACF5, 0x7D05},
    {0xAD74, 0x8CA0}, {0xAD78, 0x8ECD}, {0xADAD, 0x9650}, {0xADD3, 0x500B}, {0xAE76, 0x5E2B}, {0xAEC4, 0x6548},
    {0xAEC9, 0x6642}, {0xAF53, 0x7279}, {0xAFA5, 0x7832}, {0xAFC5, 0x7D1A}, {0xAFF2, 0x8350}, {0xB068, 0x9000},
    {0xB07D, 0x9663}, {0xB0A8, 0x99AC}, {0xB0CF, 0x5340}, {0xB0EA, 0x570B}, {0xB14E, 0x5C07}, {0xB1C0, 0x63A8},
    {0xB1C6, 0x6392}, {0xB1FE, 0x6BBA}, {0xB2C4, 0x7B2C}, {0xB357, 0x898F}, {0xB3D3, 0x52DD}, {0xB4D1, 0x68CB},
    {0xB4DD, 0x6B98}, {0xB54C, 0x7121}, {0xB54D, 0x7136}, {0xB5B2, 0x7D50}, {0xB5B4, 0x7D55}, {0xB5D8, 0x83EF},
    {0xB5DB, 0x8457}, {0xB5FB, 0x8A55}, {0xB648, 0x8C61}, {0xB657, 0x8D85}, {0xB669, 0x9032}, {0xB67D, 0x958B},
    {0xB6A1, 0x9593}, {0xB6A4, 0x968A}, {0xB6C2, 0x9ED1}, {0xB855, 0x842C}, {0xB94C, 0x904E}, {0xB9CE, 0x5718},
    {0xB9EF, 0x5C0D}, {0xBA43, 0x6162}, {0xBA74, 0x6F14}, {0xBAF4, 0x7DB2}, {0xBB7B, 0x8A8D}, {0xBCD0, 0x6A19},
    {0xBDE0, 0x8CDE}, {0xBDFC, 0x8F2A}, {0xBFE9, 0x8F38}, {0xC041, 0x9326}, {0xC0C5, 0x6583}, {0xC170, 0x806F},
    {0xC1C9, 0x8CFD}, {0xC249, 0x9EDE}, {0xC3D0, 0x8B5C}, {0xC5DC, 0x8B8A}, {0xC5E9, 0x9AD4}, {0xC65B, 0x89C0},
    {0xCA49, 0x7F51}, {0xCA5E, 0x4F53}, {0xD060, 0x80DC}, {0xD858, 0x508C},
};

void appendUtf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xC0 | (c >> 6));
        out += char(0x80 | (c & 0x3F));
    } else {
        out += char(0xE0 | (c >> 12));
        out += char(0x80 | ((c >> 6) & 0x3F));
        out += char(0x80 | (c & 0x3F));
    }
}

// A two-byte code page read with its built-in table: the UTF-8 text (when
// asked for), how many two-byte characters the table knew and how many byte
// sequences are not characters of the code page at all.
struct TableDecoding {
    size_t known = 0;
    size_t invalid = 0;
};

TableDecoding decodeWithTable(std::string_view bytes, platform::Charset charset, std::string* out) {
    // Both code pages: lead bytes 0x81-0xFE, then a trail byte 0x40-0x7E or
    // (GBK) 0x80-0xFE / (Big5) 0xA1-0xFE.
    const bool gbk = charset == platform::Charset::Gbk;
    const CodeEntry* first = gbk ? std::begin(GbkTable) : std::begin(Big5Table);
    const CodeEntry* last = gbk ? std::end(GbkTable) : std::end(Big5Table);
    const unsigned char minHighTrail = gbk ? 0x80 : 0xA1;
    TableDecoding d;
    if (out) out->reserve(bytes.size() * 3 / 2);
    for (size_t i = 0; i < bytes.size(); ++i) {
        const auto b = static_cast<unsigned char>(bytes[i]);
        if (b < 0x80) {
            if (out) *out += char(b);
            continue;
        }
        char32_t c = 0xFFFD;
        if (b == 0x80 && gbk) {
            c = 0x20AC;  // CP936's euro sign
        } else if (b > 0x80 && b < 0xFF && i + 1 < bytes.size()) {
            const auto t = static_cast<unsigned char>(bytes[i + 1]);
            if ((t >= 0x40 && t <= 0x7E) || (t >= minHighTrail && t <= 0xFE)) {
                ++i;
                const uint16_t code = uint16_t(b << 8 | t);
                auto it =
                    std::lower_bound(first, last, code, [](const CodeEntry& e, uint16_t k) { return e.code < k; });
                if (it != last && it->code == code) c = it->unicode, ++d.known;
            } else {
                ++d.invalid;
            }
        } else {
            ++d.invalid;
        }
        if (out) appendUtf8(*out, c);
    }
    return d;
}

std::string toUtf8(std::string_view bytes, platform::Charset charset, bool useSystem) {
    if (useSystem)
        if (auto converted = platform::systemToUtf8(bytes, charset)) return *converted;
    std::string out;
    decodeWithTable(bytes, charset, &out);
    return out;
}

}  // namespace

std::string gbkToUtf8(std::string_view bytes, bool useSystem) {
    return toUtf8(bytes, platform::Charset::Gbk, useSystem);
}

std::string big5ToUtf8(std::string_view bytes, bool useSystem) {
    return toUtf8(bytes, platform::Charset::Big5, useSystem);
}

// GBK or Big5? Both put every Chinese character in two bytes with the same
// lead bytes and nearly the same trail bytes: any Big5 text is well-formed
// GBK, and GBK text within GB2312 (all of simplified notation) is
// well-formed Big5. The bytes' form alone cannot tell them apart; the
// characters can. Read the wrong way, a text becomes random characters, of
// which about one in a thousand falls into the built-in table; read the right
// way, a game file's Chinese is mostly notation (every Chinese move is four
// characters of the table) and tag words. So the text is read with both
// tables, and each reading scores the characters its table knows minus its
// byte sequences that are no character of that code page (GBK's characters
// beyond GB2312 may have trail bytes 0x80-0xA0, which Big5 has not). The
// higher score wins: on the CCPD master games (Big5) 9,807,796 known
// characters against 11,580 read as GBK; on tests/data's GBK sample 786
// against 0 read as Big5. The built-in tables make the verdict the same on
// every system. A tie (no Chinese move or known word either way: the Chinese
// is names only) goes to Big5 only if the system's converter accepts the
// whole text as Big5 and not as GBK; else to GBK, the reader's older default.
platform::Charset guessCharset(std::string_view bytes) {
    const TableDecoding gbk = decodeWithTable(bytes, platform::Charset::Gbk, nullptr);
    const TableDecoding big5 = decodeWithTable(bytes, platform::Charset::Big5, nullptr);
    const auto score = [](const TableDecoding& d) { return int64_t(d.known) - int64_t(d.invalid); };
    if (score(gbk) != score(big5)) return score(big5) > score(gbk) ? platform::Charset::Big5 : platform::Charset::Gbk;
    if (!platform::systemToUtf8(bytes, platform::Charset::Gbk) &&
        platform::systemToUtf8(bytes, platform::Charset::Big5))
        return platform::Charset::Big5;
    return platform::Charset::Gbk;
}

DecodedText decodeText(std::string_view bytes) {
    DecodedText d;
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") bytes.remove_prefix(3);
    std::string raw;
    if (isValidUtf8(bytes)) {
        d.encoding = "UTF-8";
        raw.assign(bytes);
    } else if (guessCharset(bytes) == platform::Charset::Big5) {
        d.encoding = "Big5";
        raw = big5ToUtf8(bytes);
    } else {
        d.encoding = "GBK";
        raw = gbkToUtf8(bytes);
    }
    d.text.reserve(raw.size());
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\r') {
            d.text += '\n';
            if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
        } else {
            d.text += raw[i];
        }
    }
    return d;
}

// ---------------------------------------------------------------------------
// Games

const std::string* PgnGame::tag(std::string_view name) const {
    for (const Tag& t : tags)
        if (t.name == name) return &t.value;
    return nullptr;
}

std::string PgnGame::fen() const {
    const std::string* f = tag("FEN");
    return f && !f->empty() ? *f : std::string(StartFen);
}

std::string PgnGame::describe(int number) const {
    const std::string* red = tag("Red");
    if (!red) red = tag("White");
    const std::string* black = tag("Black");
    if (!red && !black) return fmt::format("game {} (line {})", number, line);
    return fmt::format("game {} ({} - {})", number, red ? *red : "?", black ? *black : "?");
}

std::string escapeTagValue(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

namespace {

bool isResult(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

// The reader: one pass over the decoded text.
class Reader {
public:
    explicit Reader(std::string_view text) : s_(text) {}

    PgnFile run() {
        while (p_ < s_.size() && !file_.error) step();
        finish();
        if (!file_.error && file_.games.empty())
            file_.error = "no game found (no tag pair and no move): not a PGN file";
        if (file_.error) file_.games.clear();
        return std::move(file_);
    }

private:
    // Whitespace: ASCII and the ideographic space U+3000.
    size_t spaceAt(size_t i) const {
        const char c = s_[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f') return 1;
        if (s_.substr(i, 3) == "\xE3\x80\x80") return 3;
        return 0;
    }
    void advance(size_t n) {
        for (size_t k = 0; k < n && p_ < s_.size(); ++k) line_ += s_[p_++] == '\n';
    }
    bool atLineStart() const { return p_ == 0 || s_[p_ - 1] == '\n'; }

    void step() {
        if (size_t n = spaceAt(p_)) return advance(n);
        const char c = s_[p_];
        if (c == '%' && atLineStart()) return skipLine();
        if (c == '[') return readTag();
        if (c == '{') return readBraceComment();
        if (c == ';') return readLineComment();
        if (c == '(') return skipVariation();
        if (c == ')' || c == '}') return advance(1);  // stray closers
        readToken();
    }

    void skipLine() {
        while (p_ < s_.size() && s_[p_] != '\n') advance(1);
    }

    void start() {
        game_ = PgnGame{};
        game_->line = line_;
        inMoves_ = false;
        junkWarned_ = false;
    }
    void finish(const std::string& result = {}) {
        if (!game_) return;
        // (PgnGame::result starts as "*".)
        if (!result.empty())
            game_->result = result;
        else if (const std::string* r = game_->tag("Result"); r && isResult(*r))
            game_->result = *r;
        file_.games.push_back(std::move(*game_));
        game_.reset();
    }

    void readTag() {
        const int tagLine = line_;
        size_t i = p_ + 1;
        auto skipSpaces = [&] {
            while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\t')) ++i;
        };
        skipSpaces();
        const size_t nameStart = i;
        while (i < s_.size() && s_[i] != ' ' && s_[i] != '\t' && s_[i] != '"' && s_[i] != ']' && s_[i] != '\n') ++i;
        Tag tag{std::string(s_.substr(nameStart, i - nameStart)), {}};
        skipSpaces();
        bool ok = !tag.name.empty() && i < s_.size() && s_[i] == '"';
        if (ok) {
            ++i;
            const size_t valueStart = i;
            while (i < s_.size() && s_[i] != '"' && s_[i] != '\n') {
                if (s_[i] == '\\' && i + 1 < s_.size() && (s_[i + 1] == '"' || s_[i + 1] == '\\')) ++i;
                tag.value += s_[i++];
            }
            ok = i < s_.size() && s_[i] == '"';
            ++i;
            skipSpaces();
            ok = ok && i < s_.size() && s_[i] == ']';
            if (!ok) ok = readUnescapedValue(valueStart, tag.value, i);
        }
        if (!ok) {
            if (file_.games.empty() && !game_) {
                file_.error = fmt::format("line {}: malformed tag pair: not a PGN file", tagLine);
                return;
            }
            file_.warnings.push_back(fmt::format("line {}: malformed tag pair skipped", tagLine));
            return skipLine();
        }
        if (game_ && inMoves_) finish();  // a tag after movetext starts the next game
        if (!game_) start();
        game_->tags.push_back(std::move(tag));
        advance(i + 1 - p_);
    }

    // A value with quotes that are not escaped (`[Event "1999年"中視股份杯"總決賽"]`,
    // common in files written by hand or by older programs): when the line
    // ends with `"]`, the value is everything up to its last quote. On
    // success `value` holds it and `end` is at the `]`.
    bool readUnescapedValue(size_t valueStart, std::string& value, size_t& end) const {
        size_t eol = std::min(s_.find('\n', valueStart), s_.size());
        while (eol > valueStart && (s_[eol - 1] == ' ' || s_[eol - 1] == '\t')) --eol;
        if (eol <= valueStart || s_[eol - 1] != ']') return false;
        size_t close = eol - 1;
        while (close > valueStart && (s_[close - 1] == ' ' || s_[close - 1] == '\t')) --close;  // `" ]`
        if (close <= valueStart || s_[close - 1] != '"') return false;
        --close;  // the last quote
        value.clear();
        for (size_t k = valueStart; k < close; ++k) {
            if (s_[k] == '\\' && k + 1 < close && (s_[k + 1] == '"' || s_[k + 1] == '\\')) ++k;
            value += s_[k];
        }
        end = eol - 1;
        return true;
    }

    void addComment(std::string text) {
        // Trim; drop empty ones.
        const size_t a = text.find_first_not_of(" \t\n"), b = text.find_last_not_of(" \t\n");
        if (a == std::string::npos || !game_) return;
        text = text.substr(a, b - a + 1);
        if (!game_->moves.empty() && !game_->unreadable)
            game_->moves.back().comments.push_back(std::move(text));
        else if (game_->moves.empty())
            game_->comments.push_back(std::move(text));
    }

    void readBraceComment() {
        const size_t close = s_.find('}', p_ + 1);
        const size_t end = close == std::string_view::npos ? s_.size() : close;
        std::string text(s_.substr(p_ + 1, end - p_ - 1));
        advance(end + 1 - p_);
        addComment(std::move(text));
    }

    void readLineComment() {
        const size_t eol = std::min(s_.find('\n', p_), s_.size());
        std::string text(s_.substr(p_ + 1, eol - p_ - 1));
        advance(eol - p_);
        addComment(std::move(text));
    }

    void skipVariation() {
        int depth = 0;
        while (p_ < s_.size()) {
            const char c = s_[p_];
            if (c == '{') {
                const size_t close = s_.find('}', p_ + 1);
                advance((close == std::string_view::npos ? s_.size() : close + 1) - p_);
                continue;
            }
            if (c == ';') {
                skipLine();
                continue;
            }
            advance(1);
            if (c == '(') ++depth;
            if (c == ')' && --depth == 0) return;
        }
    }

    void readToken() {
        const int tokLine = line_;
        size_t j = p_;
        while (j < s_.size() && !spaceAt(j) && s_[j] != '{' && s_[j] != '(' && s_[j] != ')' && s_[j] != ';' &&
               s_[j] != '[')
            ++j;
        std::string_view tok = s_.substr(p_, j - p_);
        advance(j - p_);
        if (isResult(tok)) {
            if (game_) finish(std::string(tok));
            return;
        }
        // A move number ("12." "12...") alone or glued to the move.
        size_t k = 0;
        while (k < tok.size() && tok[k] >= '0' && tok[k] <= '9') ++k;
        if (k > 0 && k < tok.size() && tok[k] == '.') {
            while (k < tok.size() && tok[k] == '.') ++k;
            tok.remove_prefix(k);
        }
        if (tok.empty()) return;
        if (tok[0] == '$') return;  // NAG
        while (!tok.empty() && (tok.back() == '!' || tok.back() == '?')) tok.remove_suffix(1);
        if (tok.empty()) return;  // a mark on its own
        if (notation::classify(tok)) {
            if (!game_) start();
            inMoves_ = true;
            if (!game_->unreadable) game_->moves.push_back(PgnMove{std::string(tok), tokLine, {}});
            return;
        }
        if (game_) {
            inMoves_ = true;
            if (!game_->unreadable) game_->unreadable = PgnMove{std::string(tok), tokLine, {}};
            return;
        }
        if (file_.games.empty()) {
            file_.error = fmt::format("line {}: '{}' is neither a tag pair nor a move: not a PGN file", tokLine,
                                      tok.substr(0, 40));
            return;
        }
        if (!junkWarned_) {
            file_.warnings.push_back(fmt::format("line {}: text outside a game skipped", tokLine));
            junkWarned_ = true;
        }
    }

    std::string_view s_;
    size_t p_ = 0;
    int line_ = 1;
    PgnFile file_;
    std::optional<PgnGame> game_;
    bool inMoves_ = false;
    bool junkWarned_ = false;
};

}  // namespace

PgnFile parsePgn(std::string_view bytes) {
    if (bytes.find('\0') != std::string_view::npos) {
        PgnFile f;
        f.error = "binary data (a NUL byte): not a PGN file";
        return f;
    }
    DecodedText decoded = decodeText(bytes);
    PgnFile f = Reader(decoded.text).run();
    f.encoding = decoded.encoding;
    return f;
}

}  // namespace chariot::pgn
