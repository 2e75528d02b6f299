#include "json_scan.h"

#include <cstring>

namespace servebench {

namespace {

inline bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline int Hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

struct Parser {
  const char* s;
  size_t n;
  size_t i = 0;
  std::vector<JNode>* tape;
  int depth = 0;
  JsonStatus status = JsonStatus::kOk;

  bool Fail() {
    if (status == JsonStatus::kOk) status = JsonStatus::kInvalid;
    return false;
  }
  void Ws() {
    while (i < n && IsWs(s[i])) ++i;
  }
  bool Lit(const char* lit, size_t len) {
    if (n - i < len || std::memcmp(s + i, lit, len) != 0) return Fail();
    i += len;
    return true;
  }
  uint32_t Push(JType t, uint32_t begin) {
    tape->push_back(JNode{t, false, false, begin, 0, 0});
    return static_cast<uint32_t>(tape->size() - 1);
  }
  void Close(uint32_t k, uint32_t end) {
    JNode& nd = (*tape)[k];
    nd.end = end;
    nd.next = static_cast<uint32_t>(tape->size());
  }

  // NaN, Infinity, -Infinity where a string may stand; false (no failure) when none starts here.
  bool Bare() {
    static const char* const kTokens[] = {"-Infinity", "Infinity", "NaN"};
    for (const char* t : kTokens) {
      const size_t len = std::strlen(t);
      if (n - i >= len && std::memcmp(s + i, t, len) == 0) {
        const uint32_t k = Push(JType::kString, static_cast<uint32_t>(i));
        (*tape)[k].bare = true;
        i += len;
        Close(k, static_cast<uint32_t>(i));
        return true;
      }
    }
    return false;
  }

  bool String() {
    ++i;  // the opening quote
    const uint32_t k = Push(JType::kString, static_cast<uint32_t>(i));
    bool escaped = false;
    for (;;) {
      // Plain bytes run until a quote, a backslash or a control character: 8 at a time first.
      while (n - i >= 8) {
        uint64_t w;
        std::memcpy(&w, s + i, 8);
        constexpr uint64_t kOnes = 0x0101010101010101ULL;
        constexpr uint64_t kHigh = 0x8080808080808080ULL;
        const uint64_t q = w ^ (kOnes * '"');
        const uint64_t b = w ^ (kOnes * '\\');
        const uint64_t hit = ((q - kOnes) & ~q) | ((b - kOnes) & ~b) | ((w - kOnes * 0x20) & ~w);
        if (hit & kHigh) break;
        i += 8;
      }
      while (i < n) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++i;
      }
      if (i >= n) return Fail();
      const char c = s[i];
      if (c == '"') break;
      if (c != '\\') return Fail();  // a raw control character
      escaped = true;
      if (++i >= n) return Fail();
      const char e = s[i];
      if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
        ++i;
      } else if (e == 'u') {
        if (n - i < 5) return Fail();
        for (size_t j = 1; j <= 4; ++j)
          if (Hex(s[i + j]) < 0) return Fail();
        i += 5;
      } else {
        return Fail();
      }
    }
    JNode& nd = (*tape)[k];
    nd.escaped = escaped;
    nd.end = static_cast<uint32_t>(i);
    nd.next = static_cast<uint32_t>(tape->size());
    ++i;  // the closing quote
    return true;
  }

  bool Number() {
    const uint32_t k = Push(JType::kNumber, static_cast<uint32_t>(i));
    if (s[i] == '-') ++i;
    if (i >= n) return Fail();
    if (s[i] == '0') {
      ++i;
    } else if (s[i] >= '1' && s[i] <= '9') {
      while (i < n && IsDigit(s[i])) ++i;
    } else {
      return Fail();
    }
    if (i < n && s[i] == '.') {
      ++i;
      if (i >= n || !IsDigit(s[i])) return Fail();
      while (i < n && IsDigit(s[i])) ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
      if (i >= n || !IsDigit(s[i])) return Fail();
      while (i < n && IsDigit(s[i])) ++i;
    }
    Close(k, static_cast<uint32_t>(i));
    return true;
  }

  bool Key() {
    if (i < n && s[i] == '"') return String();
    if (i < n && Bare()) return true;
    return Fail();
  }

  bool Container(bool object) {
    if (++depth > JsonDoc::kMaxDepth) {
      status = JsonStatus::kTooDeep;
      return false;
    }
    const uint32_t k = Push(object ? JType::kObject : JType::kArray, static_cast<uint32_t>(i));
    const char close = object ? '}' : ']';
    ++i;
    Ws();
    if (i < n && s[i] == close) {
      ++i;
    } else {
      for (;;) {
        if (object) {
          if (!Key()) return false;
          Ws();
          if (i >= n || s[i] != ':') return Fail();
          ++i;
          Ws();
        }
        if (!Value()) return false;
        Ws();
        if (i >= n) return Fail();
        if (s[i] == ',') {
          ++i;
          Ws();
          continue;
        }
        if (s[i] != close) return Fail();
        ++i;
        break;
      }
    }
    --depth;
    Close(k, static_cast<uint32_t>(i));
    return true;
  }

  bool Value() {
    if (i >= n) return Fail();
    switch (s[i]) {
      case '{': return Container(true);
      case '[': return Container(false);
      case '"': return String();
      case 't': {
        const uint32_t k = Push(JType::kTrue, static_cast<uint32_t>(i));
        if (!Lit("true", 4)) return false;
        Close(k, static_cast<uint32_t>(i));
        return true;
      }
      case 'f': {
        const uint32_t k = Push(JType::kFalse, static_cast<uint32_t>(i));
        if (!Lit("false", 5)) return false;
        Close(k, static_cast<uint32_t>(i));
        return true;
      }
      case 'n': {
        const uint32_t k = Push(JType::kNull, static_cast<uint32_t>(i));
        if (!Lit("null", 4)) return false;
        Close(k, static_cast<uint32_t>(i));
        return true;
      }
      case 'N':
      case 'I': return Bare() || Fail();
      case '-':
        if (Bare()) return true;
        return Number();
      default:
        if (IsDigit(s[i])) return Number();
        return Fail();
    }
  }
};

}  // namespace

JsonStatus JsonDoc::Parse(std::string_view text) {
  text_ = text;
  tape_.clear();
  if (text.size() >= (1u << 31)) return JsonStatus::kTooDeep;  // offsets are 32-bit
  Parser p{text.data(), text.size(), 0, &tape_};
  p.Ws();
  if (!p.Value()) return p.status;
  p.Ws();
  if (p.i != p.n) return JsonStatus::kInvalid;
  return JsonStatus::kOk;
}

std::string_view JsonDoc::Slice(uint32_t i) const {
  const JNode& nd = tape_[i];
  if (nd.type == JType::kString && !nd.bare) return text_.substr(nd.begin - 1, nd.end - nd.begin + 2);
  return text_.substr(nd.begin, nd.end - nd.begin);
}

bool JsonDoc::KeyEquals(uint32_t i, std::string_view key, const std::u16string& key16) const {
  const JNode& nd = tape_[i];
  if (!nd.escaped) return text_.substr(nd.begin, nd.end - nd.begin) == key;
  scratch_.clear();
  AppendString(i, &scratch_);
  return scratch_ == key16;
}

int64_t JsonDoc::Find(uint32_t obj, std::string_view key, const std::u16string& key16) const {
  if (tape_[obj].type != JType::kObject) return -1;
  int64_t found = -1;
  const uint32_t stop = tape_[obj].next;
  for (uint32_t k = obj + 1; k < stop; k = tape_[k + 1].next) {
    if (KeyEquals(k, key, key16)) found = k + 1;
  }
  return found;
}

bool JsonDoc::PlainCount(uint32_t i) const {
  const JNode& nd = tape_[i];
  if (nd.type != JType::kNumber || nd.end - nd.begin > 15) return false;
  for (uint32_t j = nd.begin; j < nd.end; ++j)
    if (!IsDigit(text_[j])) return false;
  return true;
}

void JsonDoc::AppendString(uint32_t i, std::u16string* out) const {
  const JNode& nd = tape_[i];
  const char* p = text_.data() + nd.begin;
  const char* end = text_.data() + nd.end;
  if (nd.bare) {
    for (; p < end; ++p) out->push_back(static_cast<char16_t>(*p));
    return;
  }
  if (!nd.escaped) {
    AppendUtf8As16(p, static_cast<size_t>(end - p), out);
    return;
  }
  while (p < end) {
    const char* bs = static_cast<const char*>(std::memchr(p, '\\', static_cast<size_t>(end - p)));
    if (bs == nullptr) bs = end;
    AppendUtf8As16(p, static_cast<size_t>(bs - p), out);
    if (bs == end) break;
    const char e = bs[1];
    p = bs + 2;
    switch (e) {
      case 'b': out->push_back(u'\b'); break;
      case 'f': out->push_back(u'\f'); break;
      case 'n': out->push_back(u'\n'); break;
      case 'r': out->push_back(u'\r'); break;
      case 't': out->push_back(u'\t'); break;
      case 'u': {
        // A code unit as written: surrogate pairs pair up in UTF-16 by themselves, lone ones stay.
        const unsigned v = (Hex(bs[2]) << 12) | (Hex(bs[3]) << 8) | (Hex(bs[4]) << 4) | Hex(bs[5]);
        out->push_back(static_cast<char16_t>(v));
        p = bs + 6;
        break;
      }
      default: out->push_back(static_cast<char16_t>(e)); break;  // " \ /
    }
  }
}

void AppendUtf8As16(const char* p, size_t n, std::u16string* out) {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  size_t i = 0;
  const size_t base = out->size();
  out->resize(base + n);  // UTF-16 never needs more units than UTF-8 has bytes
  char16_t* o = &(*out)[base];
  size_t w = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      o[w++] = c;
      ++i;
      continue;
    }
    // WHATWG UTF-8 decode: a lead byte, then continuation bytes in [lower, upper].
    unsigned need = 0;
    uint32_t cp = 0;
    unsigned char lower = 0x80, upper = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      if (c == 0xE0) lower = 0xA0;
      if (c == 0xED) upper = 0x9F;
      need = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (c == 0xF0) lower = 0x90;
      if (c == 0xF4) upper = 0x8F;
      need = 3;
      cp = c & 0x07;
    } else {
      o[w++] = 0xFFFD;
      ++i;
      continue;
    }
    ++i;
    unsigned seen = 0;
    while (seen < need) {
      if (i >= n || s[i] < lower || s[i] > upper) break;  // the byte is looked at again as a lead
      cp = (cp << 6) | (s[i] & 0x3F);
      lower = 0x80;
      upper = 0xBF;
      ++i;
      ++seen;
    }
    if (seen < need) {
      o[w++] = 0xFFFD;
      continue;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      o[w++] = static_cast<char16_t>(0xD800 + (cp >> 10));
      o[w++] = static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      o[w++] = static_cast<char16_t>(cp);
    }
  }
  out->resize(base + w);
}

void JsonDoc::Trim() {
  constexpr size_t kKeepNodes = 1u << 16;
  if (tape_.capacity() > kKeepNodes) std::vector<JNode>().swap(tape_);
  if (stack_.capacity() > kKeepNodes) std::vector<uint32_t>().swap(stack_);
  if (scratch_.capacity() > kKeepNodes) std::u16string().swap(scratch_);
  text_ = std::string_view();
}

}  // namespace servebench
