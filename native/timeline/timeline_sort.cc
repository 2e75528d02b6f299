#include "timeline/timeline_sort.h"

#include <vector>

namespace servebench {
namespace sweepline {

namespace {

// Sorts n (key, ref) pairs in cache, by key, through the scratch tk / tr (same size): MSD radix
// on 8 bits at a time from bit `hi` down, skipping digits that are the same for every key, until
// the pieces are small enough for insertion sort. Stable.
void MsdSort(uint64_t* k, uint32_t* r, uint64_t* tk, uint32_t* tr, size_t n, int lo, int hi) {
  for (;;) {
    if (n <= 32 || hi <= lo) {
      for (size_t i = 1; i < n; ++i) {
        const uint64_t kk = k[i];
        const uint32_t rr = r[i];
        size_t j = i;
        for (; j > 0 && k[j - 1] > kk; --j) {
          k[j] = k[j - 1];
          r[j] = r[j - 1];
        }
        k[j] = kk;
        r[j] = rr;
      }
      return;
    }
    const int width = std::min(8, hi - lo);
    const int shift = hi - width;
    const uint64_t mask = (uint64_t{1} << width) - 1;
    uint32_t bound[257] = {};
    for (size_t i = 0; i < n; ++i) ++bound[((k[i] >> shift) & mask) + 1];
    hi = shift;
    if (std::find(bound + 1, bound + 257, static_cast<uint32_t>(n)) != bound + 257) continue;  // one digit value
    for (int d = 0; d < 256; ++d) bound[d + 1] += bound[d];
    uint32_t next[256];
    std::memcpy(next, bound, sizeof next);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t j = next[(k[i] >> shift) & mask]++;
      tk[j] = k[i];
      tr[j] = r[i];
    }
    std::memcpy(k, tk, n * sizeof *k);
    std::memcpy(r, tr, n * sizeof *r);
    for (int d = 0; d < 256; ++d) {
      const uint32_t b = bound[d];
      if (bound[d + 1] - b > 1) MsdSort(k + b, r + b, tk + b, tr + b, bound[d + 1] - b, lo, hi);
    }
    return;
  }
}

}  // namespace

void RadixSort(Buf& a, Buf& tmp, const TimeKeys& tk, bool two) {
  const size_t n = a.n;
  uint64_t* k = a.key.get();
  const size_t half = two ? n / 2 : n;
  const size_t from[2] = {0, half}, to[2] = {half, n};
  uint64_t diff[2] = {0, 0};
  bool sorted[2] = {true, true};
  Parallel(2, two, [&](int t) {
    uint64_t dx = 0;
    bool ok = true;
    for (size_t i = from[t]; i < to[t]; ++i) k[i] = tk.Key(FromBits(k[i]));
    for (size_t i = from[t] + 1; i < to[t]; ++i) {
      dx |= k[i] ^ k[from[t]];
      ok &= k[i - 1] <= k[i];
    }
    diff[t] = dx;
    sorted[t] = ok;
  });
  const bool in_order = sorted[0] && sorted[1] && (half == 0 || half == n || k[half - 1] <= k[half]);
  if (!in_order) {
    const uint64_t all = diff[0] | diff[1] | (k[0] ^ k[half < n ? half : 0]);
    const int lo = __builtin_ctzll(all);
    const int hi = 64 - __builtin_clzll(all);
    int width = 1;
    while (width < 12 && width < hi - lo && (n >> width) > 1024) ++width;
    const int shift = hi - width;
    const size_t radix = size_t{1} << width;
    std::vector<size_t> count[2] = {std::vector<size_t>(radix, 0), std::vector<size_t>(radix, 0)};
    Parallel(2, two, [&](int t) {
      size_t* c = count[t].data();
      for (size_t i = from[t]; i < to[t]; ++i) ++c[(k[i] >> shift) & (radix - 1)];
    });
    // Bucket d starts at bound[d]; the first half's events of a bucket go before the second's.
    std::vector<size_t> bound(radix + 1, 0), next[2] = {std::vector<size_t>(radix), std::vector<size_t>(radix)};
    for (size_t d = 0; d < radix; ++d) {
      next[0][d] = bound[d];
      next[1][d] = bound[d] + count[0][d];
      bound[d + 1] = bound[d] + count[0][d] + count[1][d];
    }
    const uint32_t* r = a.ref.get();
    uint64_t* dk = tmp.key.get();
    uint32_t* dr = tmp.ref.get();
    Parallel(2, two, [&](int t) {
      size_t* nx = next[t].data();
      for (size_t i = from[t]; i < to[t]; ++i) {
        const size_t j = nx[(k[i] >> shift) & (radix - 1)]++;
        dk[j] = k[i];
        dr[j] = r[i];
      }
    });
    // The buckets split where half of the events are done.
    const size_t mid = static_cast<size_t>(std::upper_bound(bound.begin(), bound.end(), half) - bound.begin()) - 1;
    const size_t dfrom[2] = {0, mid}, dto[2] = {mid, radix};
    Parallel(2, two, [&](int t) {
      for (size_t d = dfrom[t]; d < dto[t]; ++d) {
        const size_t b = bound[d];
        MsdSort(dk + b, dr + b, a.key.get() + b, a.ref.get() + b, bound[d + 1] - b, lo, shift);
      }
    });
    tmp.n = n;
    a.swap(tmp);
  }
  a.key[n] = kEndKey;
  for (size_t i = n; i <= n + kPrefetch; ++i) a.ref[i] = 0;
}

}  // namespace sweepline
}  // namespace servebench
