// Reading xiangqi PGN files for the tools (`chariot analyze`, `chariot tune`):
// the text's encoding (UTF-8, GBK or Big5, BOM and CRLF), the tag pairs, and the
// movetext split into move tokens with their comments. Moves are kept as
// written (ICCS, WXF or Chinese); notation.h resolves them against a position.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/platform.h"

namespace chariot::pgn {

// --- text ------------------------------------------------------------------

bool isValidUtf8(std::string_view bytes);
// GBK (CP936) to UTF-8. Uses the system's converter (platform.h) when `useSystem` and it
// converts the whole text; otherwise Chariot's own table, which holds every
// character of xiangqi notation (simplified and traditional), the common
// words of tags and results and the CJK punctuation; any other character
// becomes U+FFFD.
std::string gbkToUtf8(std::string_view bytes, bool useSystem = true);
// Big5 (CP950) to UTF-8, the same way; Chariot's own table holds the
// characters of traditional xiangqi notation, the common tag and result
// words and the CJK punctuation.
std::string big5ToUtf8(std::string_view bytes, bool useSystem = true);
// Which of the two a text that is not UTF-8 is written in, judged by the
// characters each reading gives (the reasoning is in pgn.cpp); the same
// verdict on every system, except for texts without a character of notation
// or of a common word.
platform::Charset guessCharset(std::string_view bytes);

struct DecodedText {
    std::string text;      // UTF-8, '\n' line ends, no BOM
    std::string encoding;  // "UTF-8", "GBK" or "Big5"
};
// Valid UTF-8 is taken as UTF-8, anything else as GBK or Big5 (guessCharset).
DecodedText decodeText(std::string_view bytes);

// --- games ------------------------------------------------------------------

struct Tag {
    std::string name, value;
};

struct PgnMove {
    std::string text;                   // as written, without move number and !?/NAG marks
    int line = 0;                       // 1-based line of the file
    std::vector<std::string> comments;  // {...} and ;... comments after it
};

struct PgnGame {
    int line = 0;                       // where the game starts
    std::vector<Tag> tags;              // in file order
    std::vector<std::string> comments;  // before the first move
    std::vector<PgnMove> moves;
    std::string result = "*";  // the result token, else the Result tag, else "*"
    // The first movetext token that is neither a move, a move number, a mark
    // nor a result: the game's moves end before it.
    std::optional<PgnMove> unreadable;

    const std::string* tag(std::string_view name) const;  // nullptr if absent
    std::string fen() const;                              // the FEN tag or the start position
    // "game 3 (Red - Black)" for messages; players from the Red/Black (or White/Black) tags.
    std::string describe(int number) const;
};

struct PgnFile {
    std::string encoding;
    std::vector<PgnGame> games;
    std::optional<std::string> error;   // set: not a PGN file (no game is returned)
    std::vector<std::string> warnings;  // text between games that was skipped, ...
};

// Reads every game. Tags `[Name "value"]`; movetext with move numbers
// ("12." "12..."), {comments}, ;comments, (variations) skipped, NAGs ($n)
// and !? marks ignored, result tokens (1-0 0-1 1/2-1/2 *). A tag after
// movetext, or a move after a result, starts the next game. Text that is
// neither a tag nor movetext before the first game makes the file "not PGN";
// after a finished game it is skipped with a warning.
PgnFile parsePgn(std::string_view bytes);

// The PGN escaping of a tag value (backslash and quote).
std::string escapeTagValue(std::string_view value);

}  // namespace chariot::pgn
