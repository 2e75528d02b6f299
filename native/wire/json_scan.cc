#include "wire/json_scan.h"

#include <algorithm>
#include <cstring>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "wire/utf8_decode.h"

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

inline const char* SkipWs(const char* p, const char* end) {
  while (p < end && IsWs(*p)) ++p;
  return p;
}

// A bare NaN / Infinity / -Infinity at p: one past it, or nullptr when none starts there.
const char* Bare(const char* p, const char* end) {
  static constexpr std::string_view kTokens[] = {"-Infinity", "Infinity", "NaN"};
  for (std::string_view t : kTokens) {
    if (static_cast<size_t>(end - p) >= t.size() && std::memcmp(p, t.data(), t.size()) == 0) return p + t.size();
  }
  return nullptr;
}

// A literal (true, false, null) at p: one past it, or nullptr.
inline const char* Lit(const char* p, const char* end, std::string_view lit) {
  if (static_cast<size_t>(end - p) < lit.size() || std::memcmp(p, lit.data(), lit.size()) != 0) return nullptr;
  return p + lit.size();
}

// A number at p (a '-' or a digit): one past it, or nullptr.
const char* Number(const char* p, const char* end) {
  if (*p == '-') ++p;
  if (p >= end) return nullptr;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    while (p < end && IsDigit(*p)) ++p;
  } else {
    return nullptr;
  }
  if (p < end && *p == '.') {
    ++p;
    if (p >= end || !IsDigit(*p)) return nullptr;
    while (p < end && IsDigit(*p)) ++p;
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p < end && (*p == '+' || *p == '-')) ++p;
    if (p >= end || !IsDigit(*p)) return nullptr;
    while (p < end && IsDigit(*p)) ++p;
  }
  return p;
}

inline bool Plain(unsigned char c) { return c != '"' && c != '\\' && c >= 0x20; }

// The first byte from p that ends a string's plain run (a quote, a backslash, a control
// character), or end: 16 bytes at a time where SSE2 is, then 8 (a word's lowest flagged byte is
// its first such one: the bit trick errs only above a true hit), then one.
inline const char* PlainRun(const char* p, const char* end) {
#ifdef __SSE2__
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ctl = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1F)), _mm_set1_epi8(0x1F));  // v <= 0x1F
    const __m128i stop =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), ctl), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    const int mask = _mm_movemask_epi8(stop);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    constexpr uint64_t kOnes = 0x0101010101010101ULL;
    constexpr uint64_t kHigh = 0x8080808080808080ULL;
    const uint64_t q = w ^ (kOnes * '"');
    const uint64_t b = w ^ (kOnes * '\\');
    const uint64_t hit = (((q - kOnes) & ~q) | ((b - kOnes) & ~b) | ((w - kOnes * 0x20) & ~w)) & kHigh;
    if (hit != 0) return p + (__builtin_ctzll(hit) >> 3);
    p += 8;
  }
#endif
  while (p < end && Plain(static_cast<unsigned char>(*p))) ++p;
  return p;
}

// From just after a string's opening quote: its closing quote, or nullptr when it is invalid
// (unterminated, a raw control character, a bad escape). *escaped: it has a backslash escape.
const char* StringEnd(const char* p, const char* end, bool* escaped) {
  for (;;) {
    p = PlainRun(p, end);
    if (p >= end) return nullptr;
    if (*p == '"') return p;
    if (*p != '\\') return nullptr;  // a raw control character
    *escaped = true;
    if (++p >= end) return nullptr;
    const char e = *p;
    if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') {
      ++p;
    } else if (e == 'u') {
      if (end - p < 5) return nullptr;
      for (int j = 1; j <= 4; ++j)
        if (Hex(p[j]) < 0) return nullptr;
      p += 5;
    } else {
      return nullptr;
    }
  }
}

}  // namespace

// Nodes are filled in place, field by field: a JNode built aside and copied in was read back as
// 16 bytes right after its small stores, which stalled on every value (store forwarding fails).
uint32_t JsonDoc::Push(JType type, uint32_t begin) {
  JNode& nd = tape_.emplace_back();  // zeroed: no flags
  nd.type = type;
  nd.begin = begin;
  nd.next = static_cast<uint32_t>(tape_.size());  // a container's is set when it closes
  return nd.next - 1;
}

// A string from its opening quote at p: the node, then one past the closing quote (nullptr: invalid).
const char* JsonDoc::String(const char* p, const char* end) {
  const uint32_t k = Push(JType::kString, static_cast<uint32_t>(p + 1 - text_.data()));
  bool escaped = false;
  const char* q = StringEnd(p + 1, end, &escaped);
  if (q == nullptr) return nullptr;
  JNode& nd = tape_[k];
  nd.flags = escaped ? kEscaped : 0;
  nd.end = static_cast<uint32_t>(q - text_.data());
  return q + 1;
}

// An object member's key and colon from p (whitespace skipped before): where its value starts
// (whitespace skipped), or nullptr.
const char* JsonDoc::Member(const char* p, const char* end) {
  if (p < end && *p == '"') {
    p = String(p, end);
  } else if (p < end) {
    const char* q = Bare(p, end);
    if (q != nullptr) {
      const uint32_t k = Push(JType::kString, static_cast<uint32_t>(p - text_.data()));
      tape_[k].flags = kBare;
      tape_[k].end = static_cast<uint32_t>(q - text_.data());
    }
    p = q;
  } else {
    return nullptr;
  }
  if (p == nullptr) return nullptr;
  p = SkipWs(p, end);
  if (p >= end || *p != ':') return nullptr;
  return SkipWs(p + 1, end);
}

// One pass, no recursion: `stack_` holds the open containers, so a deep document costs no stack
// and every cursor stays in a register.
JsonStatus JsonDoc::Parse(std::string_view text) {
  text_ = text;
  tape_.clear();
  stack_.clear();
  indexed_with_ = nullptr;                                     // no object indexed yet
  if (text.size() >= (1u << 31)) return JsonStatus::kTooDeep;  // offsets are 32-bit
  const char* const base = text.data();
  const char* const end = base + text.size();
  auto at = [base](const char* q) { return static_cast<uint32_t>(q - base); };
  auto scalar = [&](JType type, const char* from, const char* to, uint8_t flags = 0) {
    if (to == nullptr) return;
    const uint32_t k = Push(type, at(from));
    tape_[k].end = at(to);
    tape_[k].flags = flags;
  };
  const char* p = SkipWs(base, end);
  for (;;) {
    // A value starts at p.
    if (p >= end) return JsonStatus::kInvalid;
    const char c = *p;
    if (c == '{' || c == '[') {
      if (stack_.size() >= static_cast<size_t>(kMaxDepth)) return JsonStatus::kTooDeep;
      const uint32_t k = Push(c == '{' ? JType::kObject : JType::kArray, at(p));
      p = SkipWs(p + 1, end);
      if (p < end && *p == (c == '{' ? '}' : ']')) {
        tape_[k].end = at(++p);  // empty: done (its `next` is already k + 1)
      } else {
        stack_.push_back(k);
        if (c == '{' && (p = Member(p, end)) == nullptr) return JsonStatus::kInvalid;
        continue;  // to its first value
      }
    } else {
      const char* q = nullptr;
      switch (c) {
        case '"': q = String(p, end); break;
        case 't': scalar(JType::kTrue, p, q = Lit(p, end, "true")); break;
        case 'f': scalar(JType::kFalse, p, q = Lit(p, end, "false")); break;
        case 'n': scalar(JType::kNull, p, q = Lit(p, end, "null")); break;
        case 'N':
        case 'I': scalar(JType::kString, p, q = Bare(p, end), kBare); break;
        case '-':
          if ((q = Bare(p, end)) != nullptr) {
            scalar(JType::kString, p, q, kBare);
            break;
          }
          scalar(JType::kNumber, p, q = Number(p, end));
          break;
        default:
          if (IsDigit(c)) scalar(JType::kNumber, p, q = Number(p, end));
          break;
      }
      if (q == nullptr) return JsonStatus::kInvalid;
      p = q;
    }
    // A value ended at p: what follows is a comma, the innermost container's close, or the end.
    for (;;) {
      p = SkipWs(p, end);
      if (stack_.empty()) return p == end ? JsonStatus::kOk : JsonStatus::kInvalid;
      if (p >= end) return JsonStatus::kInvalid;
      JNode& open = tape_[stack_.back()];
      const bool object = open.type == JType::kObject;
      if (*p == ',') {
        p = SkipWs(p + 1, end);
        if (object && (p = Member(p, end)) == nullptr) return JsonStatus::kInvalid;
        break;  // to the next value
      }
      if (*p != (object ? '}' : ']')) return JsonStatus::kInvalid;
      ++p;
      open.end = at(p);
      open.next = static_cast<uint32_t>(tape_.size());
      stack_.pop_back();
    }
  }
}

std::string_view JsonDoc::Slice(uint32_t i) const {
  const JNode& nd = tape_[i];
  if (nd.type == JType::kString && !(nd.flags & kBare)) return text_.substr(nd.begin - 1, nd.end - nd.begin + 2);
  return text_.substr(nd.begin, nd.end - nd.begin);
}

bool JsonDoc::KeyEquals(uint32_t i, std::string_view key, const std::u16string& key16) const {
  const JNode& nd = tape_[i];
  if (!(nd.flags & kEscaped)) return text_.substr(nd.begin, nd.end - nd.begin) == key;
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

// Fills object `obj`'s slot table; false when there are too many tables (then lookups scan).
bool JsonDoc::Index(uint32_t obj, const KeyTable& keys) {
  if (indexed_with_ != &keys) {
    if (indexed_with_ != nullptr) {
      for (JNode& nd : tape_) nd.flags &= static_cast<uint8_t>(~kIndexed);
    }
    indexed_with_ = &keys;
    tables_ = 0;
  }
  // Table numbers are 16-bit: past that many objects (a multi-megabyte event), scan instead.
  if (tables_ > 0xFFFF) return false;
  JNode& o = tape_[obj];
  o.flags |= kIndexed;
  o.table = static_cast<uint16_t>(tables_);
  const size_t width = keys.size();
  const size_t base = tables_++ * width;
  if (slots_.size() < base + width) slots_.resize(base + width);
  std::fill_n(slots_.begin() + static_cast<std::ptrdiff_t>(base), width, 0u);
  for (uint32_t k = obj + 1; k < o.next; k = tape_[k + 1].next) {
    const JNode& nd = tape_[k];
    uint16_t id;
    if (nd.flags & kEscaped) {
      scratch_.clear();
      AppendString(k, &scratch_);
      id = keys.Match(scratch_);
    } else {
      id = keys.Match(text_.substr(nd.begin, nd.end - nd.begin), text_.size() - nd.begin);
    }
    if (id != KeyTable::kNone) slots_[base + id] = k + 2;  // the value, + 1; a later duplicate wins
  }
  return true;
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
  if (nd.flags & kBare) {
    for (; p < end; ++p) out->push_back(static_cast<char16_t>(*p));
    return;
  }
  if (!(nd.flags & kEscaped)) {
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

void JsonDoc::Trim() {
  constexpr size_t kKeepNodes = 1u << 16;
  if (tape_.capacity() > kKeepNodes) std::vector<JNode>().swap(tape_);
  if (stack_.capacity() > kKeepNodes) std::vector<uint32_t>().swap(stack_);
  if (scratch_.capacity() > kKeepNodes) std::u16string().swap(scratch_);
  if (slots_.capacity() > kKeepNodes) std::vector<uint32_t>().swap(slots_);
  text_ = std::string_view();
}

}  // namespace servebench
