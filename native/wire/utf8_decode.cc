#include "wire/utf8_decode.h"

#include <cstdint>

namespace servebench {

void AppendUtf8As16(const char* p, size_t n, std::u16string* out) {
  const auto* s = reinterpret_cast<const unsigned char*>(p);
  // Decoded into a buffer and appended a chunk at a time: growing the string to n units and
  // shrinking it back cost more than decoding a token's few bytes.
  constexpr size_t kChunk = 128;
  char16_t o[kChunk];
  size_t i = 0;
  while (i < n) {
    size_t w = 0;
    while (i < n && w + 2 <= kChunk) {  // a code point is at most 2 units
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
    out->append(o, w);
  }
}

}  // namespace servebench
