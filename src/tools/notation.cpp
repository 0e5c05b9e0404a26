#include "chariot/notation.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "chariot/movegen.h"

namespace chariot::notation {

namespace {

// ---------------------------------------------------------------------------
// Symbols: a WXF or Chinese move is four or five of these.

enum class Kind : uint8_t { Piece, Number, Op, Order };
enum class OrderKind : uint8_t { None, Front, Middle, Rear, Index };

struct Symbol {
    Kind kind;
    PieceType type = PieceType::None;   // Piece
    int number = 0;                     // Number: 1..9; Order Index: 1..5
    char op = 0;                        // Op: '+', '-', '.'
    OrderKind order = OrderKind::None;  // Order
};

// Decodes one UTF-8 character at s[i] (advancing i); 0 on a malformed one.
char32_t nextCodePoint(std::string_view s, size_t& i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int len = b0 < 0x80 ? 1 : (b0 >> 5) == 6 ? 2 : (b0 >> 4) == 14 ? 3 : (b0 >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + size_t(len) > s.size()) return i = s.size(), 0;
    char32_t c = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (int k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + size_t(k)]);
        if ((b >> 6) != 2) return i = s.size(), 0;
        c = (c << 6) | (b & 0x3F);
    }
    i += size_t(len);
    return c;
}

std::optional<PieceType> chinesePiece(char32_t c) {
    switch (c) {
        case U'帅':
        case U'帥':
        case U'将':
        case U'將': return PieceType::King;
        case U'仕':
        case U'士': return PieceType::Advisor;
        case U'相':
        case U'象': return PieceType::Elephant;
        case U'马':
        case U'馬':
        case U'傌': return PieceType::Horse;
        case U'车':
        case U'車':
        case U'俥': return PieceType::Rook;
        case U'炮':
        case U'砲':
        case U'包': return PieceType::Cannon;
        case U'兵':
        case U'卒': return PieceType::Pawn;
        default: return std::nullopt;
    }
}

std::optional<PieceType> wxfPiece(char c) {
    switch (c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c) {
        case 'K': return PieceType::King;
        case 'A': return PieceType::Advisor;
        case 'E':
        case 'B': return PieceType::Elephant;
        case 'H':
        case 'N': return PieceType::Horse;
        case 'R': return PieceType::Rook;
        case 'C': return PieceType::Cannon;
        case 'P': return PieceType::Pawn;
        default: return std::nullopt;
    }
}

constexpr char32_t ChineseNumerals[10] = {U'〇', U'一', U'二', U'三', U'四', U'五', U'六', U'七', U'八', U'九'};

std::optional<Symbol> chineseSymbol(char32_t c) {
    if (auto t = chinesePiece(c)) return Symbol{Kind::Piece, *t};
    for (int n = 1; n <= 9; ++n)
        if (c == ChineseNumerals[n]) return Symbol{Kind::Number, PieceType::None, n};
    if (c >= U'１' && c <= U'９') return Symbol{Kind::Number, PieceType::None, int(c - U'０')};
    switch (c) {
        case U'进':
        case U'進': return Symbol{Kind::Op, PieceType::None, 0, '+'};
        case U'退': return Symbol{Kind::Op, PieceType::None, 0, '-'};
        case U'平': return Symbol{Kind::Op, PieceType::None, 0, '.'};
        case U'前': return Symbol{Kind::Order, PieceType::None, 0, 0, OrderKind::Front};
        case U'中': return Symbol{Kind::Order, PieceType::None, 0, 0, OrderKind::Middle};
        case U'后':
        case U'後': return Symbol{Kind::Order, PieceType::None, 0, 0, OrderKind::Rear};
        default: return std::nullopt;
    }
}

// The token as symbols (ASCII WXF letters, digits and signs mixed freely with
// Chinese characters); nullopt if some character is none of them.
std::optional<std::vector<Symbol>> symbolize(std::string_view token) {
    std::vector<Symbol> out;
    for (size_t i = 0; i < token.size();) {
        const char ch = token[i];
        if (static_cast<unsigned char>(ch) < 0x80) {
            ++i;
            if (ch >= '1' && ch <= '9')
                out.push_back({Kind::Number, PieceType::None, ch - '0'});
            else if (ch == '+' || ch == '-')
                out.push_back({Kind::Op, PieceType::None, 0, ch});
            else if (ch == '.' || ch == '=')
                out.push_back({Kind::Op, PieceType::None, 0, '.'});
            else if (auto t = wxfPiece(ch))
                out.push_back({Kind::Piece, *t});
            else
                return std::nullopt;
        } else {
            const char32_t c = nextCodePoint(token, i);
            auto s = chineseSymbol(c);
            if (!s) return std::nullopt;
            out.push_back(*s);
        }
        if (out.size() > 5) return std::nullopt;
    }
    return out;
}

// What a WXF or Chinese move says.
struct Spec {
    PieceType type = PieceType::None;
    int file = 0;  // 1..9 from the mover's right; 0: not given
    OrderKind order = OrderKind::None;
    int index = 0;  // with OrderKind::Index: 1 = the front piece
    char op = 0;    // '+', '-', '.'
    int arg = 0;    // destination file or number of ranks
};

// A leading symbol used as an order: 前 中 后, WXF + / -, or a number 1..5.
bool asOrder(const Symbol& s, Spec& spec) {
    if (s.kind == Kind::Order) {
        spec.order = s.order;
        return true;
    }
    if (s.kind == Kind::Op && s.op != '.') {
        spec.order = s.op == '+' ? OrderKind::Front : OrderKind::Rear;
        return true;
    }
    if (s.kind == Kind::Number && s.number <= 5) {
        spec.order = OrderKind::Index;
        spec.index = s.number;
        return true;
    }
    return false;
}

std::optional<Spec> toSpec(const std::vector<Symbol>& s) {
    Spec spec;
    const size_t n = s.size();
    if (n != 4 && n != 5) return std::nullopt;
    // The last two symbols: the direction and its number.
    if (s[n - 2].kind != Kind::Op || s[n - 1].kind != Kind::Number) return std::nullopt;
    spec.op = s[n - 2].op;
    spec.arg = s[n - 1].number;
    if (n == 5) {
        // order, piece, file: "前兵七进一", "+P7.6"
        if (!asOrder(s[0], spec) || s[1].kind != Kind::Piece || s[2].kind != Kind::Number) return std::nullopt;
        spec.type = s[1].type;
        spec.file = s[2].number;
        return spec;
    }
    if (s[0].kind == Kind::Piece && s[1].kind == Kind::Number) {  // "C2.5", "炮二平五"
        spec.type = s[0].type;
        spec.file = s[1].number;
        return spec;
    }
    if (s[0].kind == Kind::Piece && s[1].kind == Kind::Op && s[1].op != '.') {  // "C+.5"
        spec.type = s[0].type;
        asOrder(s[1], spec);
        return spec;
    }
    if (!asOrder(s[0], spec)) return std::nullopt;
    if (s[1].kind == Kind::Piece) {  // "+C.5", "前炮平五", "1P.4"
        spec.type = s[1].type;
        return spec;
    }
    if (s[1].kind == Kind::Number) {  // "前七进一", "+7.6": pawns named by their file
        spec.type = PieceType::Pawn;
        spec.file = s[1].number;
        return spec;
    }
    return std::nullopt;
}

// Files counted from the mover's right, 1..9.
int moverFile(Color us, int file) { return us == Color::Red ? 9 - file : file + 1; }
int forwardRanks(Color us, Square from, Square to) { return (rankOf(to) - rankOf(from)) * (us == Color::Red ? 1 : -1); }
bool movesStraight(PieceType t) {
    return t == PieceType::King || t == PieceType::Rook || t == PieceType::Cannon || t == PieceType::Pawn;
}

// The mover's pieces of the kind on `from` standing on its file, front first.
std::vector<Square> sameFile(const Position& pos, Square from) {
    const Piece pc = pos.pieceOn(from);
    const Color us = colorOf(pc);
    std::vector<Square> out;
    for (int r = 0; r < RankCount; ++r)
        if (Square s = makeSquare(fileOf(from), r); pos.pieceOn(s) == pc) out.push_back(s);
    if (us == Color::Red) std::reverse(out.begin(), out.end());  // red's front is the higher rank
    return out;
}

bool matches(const Position& pos, const Spec& spec, Move m) {
    const Color us = pos.sideToMove();
    const PieceType type = typeOf(pos.pieceOn(m.from()));
    if (type != spec.type) return false;
    const int file = moverFile(us, fileOf(m.from()));
    if (spec.file && spec.file != file) return false;
    if (spec.order != OrderKind::None) {
        const std::vector<Square> line = sameFile(pos, m.from());
        const int count = int(line.size());
        const int at = int(std::find(line.begin(), line.end(), m.from()) - line.begin());
        if (count < 2) return false;
        switch (spec.order) {
            case OrderKind::Front:
                if (at != 0) return false;
                break;
            case OrderKind::Rear:
                if (at != count - 1) return false;
                break;
            case OrderKind::Middle:
                if (count != 3 || at != 1) return false;
                break;
            case OrderKind::Index:
                if (at != spec.index - 1) return false;
                break;
            case OrderKind::None: break;
        }
    }
    const int ahead = forwardRanks(us, m.from(), m.to());
    const int toFile = moverFile(us, fileOf(m.to()));
    if (spec.op == '.') return ahead == 0 && toFile == spec.arg;
    if ((spec.op == '+') != (ahead > 0) || ahead == 0) return false;
    return movesStraight(type) ? std::abs(ahead) == spec.arg && toFile == file : toFile == spec.arg;
}

bool isIccsForm(std::string_view t) {
    auto fileOk = [](char c) { return (c >= 'a' && c <= 'i') || (c >= 'A' && c <= 'I'); };
    auto rankOk = [](char c) { return c >= '0' && c <= '9'; };
    if (t.size() == 5 && t[2] == '-') return fileOk(t[0]) && rankOk(t[1]) && fileOk(t[3]) && rankOk(t[4]);
    return t.size() == 4 && fileOk(t[0]) && rankOk(t[1]) && fileOk(t[2]) && rankOk(t[3]);
}

std::string appendUtf8(std::string s, char32_t c) {
    if (c < 0x80) {
        s += char(c);
    } else if (c < 0x800) {
        s += char(0xC0 | (c >> 6));
        s += char(0x80 | (c & 0x3F));
    } else {
        s += char(0xE0 | (c >> 12));
        s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
    }
    return s;
}

// How a writer names the moving piece: the pieces of its kind on its file,
// its place among them and whether pawns on two files force the file form.
struct Naming {
    PieceType type;
    int file;             // mover's numbering
    int count = 1;        // same pieces on the file
    int at = 0;           // 0 = front
    bool byFile = false;  // pawns on two or more files: order + file, no piece name
    bool ordered() const { return count > 1 && type != PieceType::Advisor && type != PieceType::Elephant; }
};

Naming naming(const Position& pos, Move m) {
    const Piece pc = pos.pieceOn(m.from());
    const Color us = colorOf(pc);
    Naming n{typeOf(pc), moverFile(us, fileOf(m.from()))};
    const std::vector<Square> line = sameFile(pos, m.from());
    n.count = int(line.size());
    n.at = int(std::find(line.begin(), line.end(), m.from()) - line.begin());
    if (n.type == PieceType::Pawn && n.count > 1) {
        int files = 0;
        for (int f = 0; f < FileCount; ++f) {
            int here = 0;
            for (int r = 0; r < RankCount; ++r) here += pos.pieceOn(makeSquare(f, r)) == pc;
            files += here > 1;
        }
        n.byFile = files > 1;
    }
    return n;
}

// Direction and number of a move in the mover's terms.
std::pair<char, int> motion(const Position& pos, Move m) {
    const Color us = pos.sideToMove();
    const int ahead = forwardRanks(us, m.from(), m.to());
    const int toFile = moverFile(us, fileOf(m.to()));
    if (ahead == 0) return {'.', toFile};
    const bool straight = movesStraight(typeOf(pos.pieceOn(m.from())));
    return {ahead > 0 ? '+' : '-', straight ? std::abs(ahead) : toFile};
}

}  // namespace

std::optional<Notation> parseNotationName(std::string_view name) {
    std::string s;
    for (char c : name) s += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (s == "iccs") return Notation::Iccs;
    if (s == "wxf") return Notation::Wxf;
    if (s == "chinese" || s == "cn" || s == "zh") return Notation::Chinese;
    return std::nullopt;
}

const char* notationName(Notation n) {
    switch (n) {
        case Notation::Iccs: return "iccs";
        case Notation::Wxf: return "wxf";
        case Notation::Chinese: return "chinese";
    }
    return "?";
}

std::optional<Notation> classify(std::string_view token) {
    if (isIccsForm(token)) return Notation::Iccs;
    auto symbols = symbolize(token);
    if (!symbols || !toSpec(*symbols)) return std::nullopt;
    const bool ascii =
        std::all_of(token.begin(), token.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    return ascii ? Notation::Wxf : Notation::Chinese;
}

Move parseMove(const Position& pos, std::string_view token, std::string* error) {
    auto fail = [&](std::string why) {
        if (error) *error = std::move(why);
        return Move::none();
    };
    if (isIccsForm(token)) {
        const std::string iccs =
            token.size() == 5 ? fmt::format("{}{}", token.substr(0, 2), token.substr(3)) : std::string(token);
        const Move m = pos.parseLegalMove(iccs);
        return m ? m : fail("illegal");
    }
    auto symbols = symbolize(token);
    std::optional<Spec> spec = symbols ? toSpec(*symbols) : std::nullopt;
    if (!spec) return fail("not a move");
    if (spec->arg < 1 || spec->arg > 9) return fail("not a move");
    MoveList legal;
    generateLegal(pos, legal);
    Move found;
    int count = 0;
    for (Move m : legal)
        if (matches(pos, *spec, m)) found = m, ++count;
    if (count == 0) return fail("illegal");
    if (count > 1) return fail("ambiguous");
    return found;
}

std::string toPgnIccs(Move m) {
    std::string s = m.toString();
    if (s.size() != 4) return s;
    return fmt::format("{}{}-{}{}", char(s[0] - 'a' + 'A'), s[1], char(s[2] - 'a' + 'A'), s[3]);
}

std::string toWxf(const Position& pos, Move m) {
    static constexpr char Letters[PieceTypeCount] = {'K', 'A', 'E', 'H', 'R', 'C', 'P'};
    const Naming n = naming(pos, m);
    const auto [op, arg] = motion(pos, m);
    std::string s;
    if (!n.ordered()) {
        s = fmt::format("{}{}", Letters[int(n.type)], n.file);
    } else {
        // Two pieces: + front, - rear; three or more pawns: 1 (front) .. 5.
        const std::string order = n.count == 2 ? (n.at == 0 ? "+" : "-") : std::to_string(n.at + 1);
        s = n.byFile ? fmt::format("{}{}", order, n.file) : fmt::format("{}{}", order, Letters[int(n.type)]);
    }
    return fmt::format("{}{}{}", s, op, arg);
}

std::string toChinese(const Position& pos, Move m) {
    static constexpr char32_t RedNames[PieceTypeCount] = {U'帅', U'仕', U'相', U'马', U'车', U'炮', U'兵'};
    static constexpr char32_t BlackNames[PieceTypeCount] = {U'将', U'士', U'象', U'马', U'车', U'炮', U'卒'};
    const Color us = pos.sideToMove();
    auto number = [&](int k) { return us == Color::Red ? ChineseNumerals[k] : char32_t(U'０' + k); };
    const Naming n = naming(pos, m);
    const auto [op, arg] = motion(pos, m);
    const char32_t name = (us == Color::Red ? RedNames : BlackNames)[int(n.type)];
    std::string s;
    if (!n.ordered()) {
        s = appendUtf8(appendUtf8(s, name), number(n.file));
    } else {
        char32_t order;
        if (n.count == 2)
            order = n.at == 0 ? U'前' : U'后';
        else if (n.count == 3)
            order = n.at == 0 ? U'前' : n.at == 1 ? U'中' : U'后';
        else
            order = ChineseNumerals[n.at + 1];
        s = appendUtf8(appendUtf8(s, order), n.byFile ? number(n.file) : name);
    }
    s = appendUtf8(s, op == '+' ? U'进' : op == '-' ? U'退' : U'平');
    return appendUtf8(s, number(arg));
}

std::string write(const Position& pos, Move m, Notation n) {
    switch (n) {
        case Notation::Iccs: return toPgnIccs(m);
        case Notation::Wxf: return toWxf(pos, m);
        case Notation::Chinese: return toChinese(pos, m);
    }
    return m.toString();
}

}  // namespace chariot::notation
