// HdrHistogram's V2 encoding (uncompressed; the zlib envelope and base64 are
// done in TypeScript with node:zlib, see src/metrics/core/histogram-codec.ts).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "hdr/hdr.h"

namespace servebench {

namespace {
constexpr uint32_t kV2Cookie = 0x1c849303u | 0x10u;            // uncompressed V2
constexpr uint32_t kV2CompressedCookie = 0x1c849304u | 0x10u;  // zlib-wrapped V2
constexpr size_t kHeaderBytes = 40;

void Put32(std::vector<uint8_t>& out, uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}
void Put64(std::vector<uint8_t>& out, uint64_t v) {
  for (int s = 56; s >= 0; s -= 8) out.push_back(static_cast<uint8_t>(v >> s));
}
uint32_t Get32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
uint64_t Get64(const uint8_t* p) { return (uint64_t{Get32(p)} << 32) | Get32(p + 4); }

// ZigZag, then LEB128 with at most 9 bytes (the 9th carries 8 bits), as HdrHistogram writes it.
void PutZigZag(std::vector<uint8_t>& out, int64_t v) {
  uint64_t z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  for (int i = 0; i < 8; ++i) {
    if ((z >> 7) == 0) {
      out.push_back(static_cast<uint8_t>(z));
      return;
    }
    out.push_back(static_cast<uint8_t>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out.push_back(static_cast<uint8_t>(z));
}

// False when the word runs past `end`.
bool GetZigZag(const uint8_t*& p, const uint8_t* end, int64_t* v) {
  uint64_t z = 0;
  for (int i = 0; i < 9; ++i) {
    if (p >= end) return false;
    const uint8_t b = *p++;
    if (i == 8) {
      z |= uint64_t{b} << 56;
      break;
    }
    z |= uint64_t{b & 0x7fu} << (7 * i);
    if ((b & 0x80) == 0) break;
  }
  *v = static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  return true;
}
}  // namespace

std::vector<uint8_t> HdrHistogram::Encode() const {
  size_t limit = counts_.size();
  while (limit > 0 && counts_[limit - 1] == 0) --limit;
  std::vector<uint8_t> out;
  out.reserve(kHeaderBytes + limit / 4 + 16);
  Put32(out, kV2Cookie);
  Put32(out, 0);  // payload length, filled in below
  Put32(out, 0);  // normalizingIndexOffset
  Put32(out, static_cast<uint32_t>(digits_));
  Put64(out, 1);  // lowestDiscernibleValue
  Put64(out, static_cast<uint64_t>(highest_));
  double ratio = 1.0;  // integerToDoubleValueConversionRatio
  uint64_t ratio_bits;
  std::memcpy(&ratio_bits, &ratio, 8);
  Put64(out, ratio_bits);
  for (size_t i = 0; i < limit;) {
    const int64_t c = counts_[i++];
    if (c != 0) {
      PutZigZag(out, c);
      continue;
    }
    int64_t zeros = 1;
    while (i < limit && counts_[i] == 0) ++zeros, ++i;
    PutZigZag(out, zeros > 1 ? -zeros : 0);
  }
  const uint32_t payload = static_cast<uint32_t>(out.size() - kHeaderBytes);
  for (int k = 0; k < 4; ++k) out[4 + k] = static_cast<uint8_t>(payload >> (24 - 8 * k));
  return out;
}

bool HdrHistogram::Decode(const uint8_t* p, size_t n, HdrHistogram* out, std::string* error) {
  char msg[160];
  auto fail = [&](const char* m) {
    *error = m;
    return false;
  };
  if (n < kHeaderBytes) return fail("truncated: shorter than the 40-byte V2 header");
  const uint32_t cookie = Get32(p);
  if (cookie == kV2CompressedCookie) return fail("compressed V2 form: inflate it first");
  if (cookie != kV2Cookie) {
    std::snprintf(msg, sizeof msg, "not an HdrHistogram V2 encoding (cookie 0x%08x)", cookie);
    return fail(msg);
  }
  const uint32_t payload = Get32(p + 4);
  // The normalizingIndexOffset (p + 8) is ignored, as hdr-histogram-js does (it writes 1 there).
  const int32_t digits = static_cast<int32_t>(Get32(p + 12));
  const int64_t lowest = static_cast<int64_t>(Get64(p + 16));
  const int64_t highest = static_cast<int64_t>(Get64(p + 24));
  if (payload > n - kHeaderBytes) return fail("truncated: the payload length exceeds the data");
  if (digits < kMinDigits || digits > kMaxDigits) {
    std::snprintf(msg, sizeof msg, "unsupported significant digits %d (1 to 5)", digits);
    return fail(msg);
  }
  if (lowest != 1) {
    std::snprintf(msg, sizeof msg, "unsupported lowest discernible value %lld (only 1)",
                  static_cast<long long>(lowest));
    return fail(msg);
  }
  if (highest < 2 || highest > kMaxValue) return fail("highest trackable value out of range");
  HdrHistogram h(digits, highest);
  const size_t max_len = h.LengthFor(kMaxValue);
  const uint8_t* q = p + kHeaderBytes;
  const uint8_t* end = q + payload;
  size_t index = 0;
  while (q < end) {
    int64_t v;
    if (!GetZigZag(q, end, &v)) return fail("corrupt payload: a count runs past the end");
    if (v < 0) {
      if (v == INT64_MIN || static_cast<uint64_t>(-v) > max_len - index)
        return fail("corrupt payload: zero run out of range");
      index += static_cast<size_t>(-v);
      continue;
    }
    if (index >= max_len) return fail("corrupt payload: more counts than buckets");
    if (v > 0) {
      if (index >= h.counts_.size()) h.EnsureCovers(h.ValueFromIndex(index));
      h.counts_[index] = v;
      if (__builtin_add_overflow(h.count_, v, &h.count_)) return fail("corrupt payload: total count overflows");
    }
    ++index;
  }
  h.StatsFromCounts();
  *out = std::move(h);
  return true;
}

void HdrHistogram::StatsFromCounts() {
  size_t first = counts_.size(), last = 0;
  int64_t total = 0;
  double s = 0, c = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] == 0) continue;
    first = std::min(first, i);
    last = i;
    total += counts_[i];
    const int64_t lo = ValueFromIndex(i);
    const double med = static_cast<double>(lo + (HighestEquivalent(lo) - lo + 1) / 2);
    Neumaier(s, c, med * static_cast<double>(counts_[i]));
  }
  count_ = clamped_ = 0;
  min_ = max_ = sum_ = sum_comp_ = m2_ = 0;
  if (total == 0) return;
  const double mean = (s + c) / static_cast<double>(total);
  double m2 = 0;
  for (size_t i = first; i <= last; ++i) {
    if (counts_[i] == 0) continue;
    const int64_t lo = ValueFromIndex(i);
    const double d = static_cast<double>(lo + (HighestEquivalent(lo) - lo + 1) / 2) - mean;
    m2 += d * d * static_cast<double>(counts_[i]);
  }
  count_ = total;
  min_ = static_cast<double>(ValueFromIndex(first));
  max_ = static_cast<double>(HighestEquivalent(ValueFromIndex(last)));
  sum_ = s;
  sum_comp_ = c;
  m2_ = m2;
}

}  // namespace servebench
