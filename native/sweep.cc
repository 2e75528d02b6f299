#include "sweep.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <new>
#include <thread>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace servebench {

namespace {

constexpr double kNsPerS = 1e9;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
// Integers below this are exact doubles, and so are their differences.
constexpr double kExactInt = 4503599627370496.0;  // 2^52
// Below this many requests one thread does everything (thread start-up would dominate).
constexpr size_t kParallelMin = size_t{1} << 16;
// How far ahead the sweep prefetches the requests of upcoming events.
constexpr size_t kPrefetch = 24;

inline uint64_t Bits(double x) {
  uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}
inline double FromBits(uint64_t b) {
  double x;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// ---- Memory ---------------------------------------------------------------------------------------
// Large uninitialised arrays. On Linux they are mapped with transparent huge pages requested: a
// 10M-request sweep touches ~1 GB of fresh memory, and 4 KiB page faults would cost more than
// the work itself.
template <class T>
class Array {
 public:
  explicit Array(size_t n) : bytes_((n ? n : 1) * sizeof(T)) {
#ifdef __linux__
    if (bytes_ >= (size_t{1} << 21)) {
      void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      madvise(p, bytes_, MADV_HUGEPAGE);
      p_ = static_cast<T*>(p);
      mapped_ = true;
      return;
    }
#endif
    p_ = static_cast<T*>(::operator new(bytes_));
  }
  ~Array() {
#ifdef __linux__
    if (mapped_) {
      munmap(p_, bytes_);
      return;
    }
#endif
    ::operator delete(p_);
  }
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  void swap(Array& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(bytes_, o.bytes_);
    std::swap(mapped_, o.mapped_);
  }
  T* get() const { return p_; }
  T& operator[](size_t i) const { return p_[i]; }

 private:
  T* p_ = nullptr;
  size_t bytes_;
  bool mapped_ = false;
};

// ---- Event streams --------------------------------------------------------------------------------
// Three streams of (time key, request ref): S at s (opens the request), B at b (prefill -> decode,
// only when both phases have positive length in the window), E at e (closes it). The flag marks
// an S event that opens decode directly (no prefill in the window) and an E event that closes
// prefill (no decode in the window).
constexpr uint32_t kFlag = 1u << 31;
constexpr uint32_t kIndexMask = kFlag - 1;

// Keys end with a sentinel (kEndKey, after the last event) so the sweep needs no bounds checks.
constexpr uint64_t kEndKey = std::numeric_limits<uint64_t>::max();

struct Buf {
  Array<uint64_t> key;
  Array<uint32_t> ref;
  size_t n = 0;
  // Refs are padded so the sweep can prefetch ahead of its position without a bounds check.
  explicit Buf(size_t cap) : key(cap + 1), ref(cap + 1 + kPrefetch) {}
  void swap(Buf& o) noexcept {
    key.swap(o.key);
    ref.swap(o.ref);
    std::swap(n, o.n);
  }
};

// Events sort on unsigned keys that order like the times. When every time is an integer (ns
// stamps are) the key is the offset from the earliest time: few significant bits, so few radix
// passes. Otherwise it is the IEEE bit pattern made unsigned-ordered. Time(Key(t)) == t, and no
// finite time maps to kEndKey.
struct TimeKeys {
  bool integral = true;
  double base = 0;
  uint64_t Key(double t) const {
    if (integral) return static_cast<uint64_t>(t - base);
    const uint64_t b = Bits(t);
    return (b >> 63) ? ~b : (b | (1ULL << 63));
  }
  double Time(uint64_t k) const {
    if (integral) return base + static_cast<double>(k);
    return FromBits((k >> 63) ? (k & ~(1ULL << 63)) : ~k);
  }
};

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

// Runs `fn(i)` for i in [0, k) on up to two threads; rethrows the first failure.
template <class Fn>
void Parallel(int k, bool two, Fn&& fn) {
  if (!two || k < 2) {
    for (int i = 0; i < k; ++i) fn(i);
    return;
  }
  std::exception_ptr failure;
  std::thread helper([&] {
    try {
      for (int i = 1; i < k; i += 2) fn(i);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  try {
    for (int i = 0; i < k; i += 2) fn(i);
  } catch (...) {
    helper.join();
    throw;
  }
  helper.join();
  if (failure) std::rethrow_exception(failure);
}

// Turns `buf`'s raw double times into keys, then sorts it by key (stable, radix), with `tmp` (of the
// same capacity) as scratch and on two threads when `two`. Only the bit range in which keys differ
// is sorted: one pass out of memory on its top (up to 12) bits into buckets of about a thousand
// events, then each bucket in cache (MsdSort). Each step is split between the threads: halves of
// the events for the keys, the counts and the scatter, halves of the buckets for the rest. Already
// sorted input costs one pass. Leaves the sentinel after the last key.
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

// ---- The sweep ------------------------------------------------------------------------------------

// What a request adds while it is in each phase. Rates in tokens/s.
struct Req {
  double prate;  // ISL / prefill duration
  double drate;  // (OSL - 1) / decode duration: the first token belongs to prefill (TTFT), as in ITL
  double ptok;   // tokens held in prefill: ISL
  double dtok;   // tokens held in decode: ISL + OSL
};

// The running sums. np / nd count the requests with a non-zero rate in each phase: when one
// reaches 0 its rate sum is reset to exactly 0, so that rounding cannot leave residues where the
// curve is truly zero (the Active masks and the p50 = 0 of a sparse phase rely on it).
struct State {
  int64_t c = 0, dc = 0, pc = 0, np = 0, nd = 0;
  double dt = 0, pt = 0, tif = 0;

  void Open(const Req& q, bool into_decode) {
    ++c;
    if (into_decode) {
      ++dc;
      dt += q.drate;
      tif += q.dtok;
      nd += q.drate > 0;
    } else {
      ++pc;
      pt += q.prate;
      tif += q.ptok;
      np += q.prate > 0;
    }
  }
  void Advance(const Req& q) {
    --pc;
    pt -= q.prate;
    np -= q.prate > 0;
    ++dc;
    dt += q.drate;
    nd += q.drate > 0;
    tif += q.dtok - q.ptok;
  }
  void Close(const Req& q, bool from_prefill) {
    --c;
    if (from_prefill) {
      --pc;
      pt -= q.prate;
      tif -= q.ptok;
      np -= q.prate > 0;
    } else {
      --dc;
      dt -= q.drate;
      tif -= q.dtok;
      nd -= q.drate > 0;
    }
  }
  void Add(const State& o) {
    c += o.c, dc += o.dc, pc += o.pc, np += o.np, nd += o.nd;
    dt += o.dt, pt += o.pt, tif += o.tif;
  }
  void Settle() {
    if (np == 0) pt = 0;
    if (nd == 0) dt = 0;
    if (c == 0) tif = 0;
  }
};

// The state held on one segment of positive duration.
struct Seg {
  double dur;
  int64_t c, dc, pc;  // concurrency: all, decode, prefill
  double dt, pt;      // decode and prefill throughput (tokens/s)
  double tif;         // tokens in flight
};

struct Streams {
  const Buf& S;
  const Buf& B;
  const Buf& E;
  const Req* req;
  TimeKeys tk;
};

// Positions in the three streams.
struct Cursor {
  size_t s = 0, b = 0, e = 0;
};

// The first position of each stream whose key is >= k.
Cursor LowerBound(const Streams& st, uint64_t k) {
  auto lb = [k](const Buf& buf) {
    return static_cast<size_t>(std::lower_bound(buf.key.get(), buf.key.get() + buf.n, k) - buf.key.get());
  };
  return Cursor{lb(st.S), lb(st.B), lb(st.E)};
}

// Sweeps the events from `at` whose key is below `limit` over the time span [t_from, t_to],
// starting from state x, calling sink(Seg) for every segment of positive duration (idle parts
// included). Events at one time are applied together, so their order never matters and
// zero-length steps do not exist. The streams' sentinels end the walk without bounds checks.
template <class Sink>
void Sweep(const Streams& st, Cursor at, uint64_t limit, double t_from, double t_to, State x, Sink& sink) {
  const uint64_t* sk = st.S.key.get();
  const uint64_t* bk = st.B.key.get();
  const uint64_t* ek = st.E.key.get();
  const uint32_t* sr = st.S.ref.get();
  const uint32_t* br = st.B.ref.get();
  const uint32_t* er = st.E.ref.get();
  const Req* req = st.req;
  size_t is = at.s, ib = at.b, ie = at.e;
  double prev = t_from;
  for (;;) {
    const uint64_t k = std::min(std::min(sk[is], bk[ib]), ek[ie]);
    if (k >= limit) break;
    const double t = st.tk.Time(k);
    if (t > prev) {
      sink(Seg{t - prev, x.c, x.dc, x.pc, x.dt, x.pt, x.tif});
      prev = t;
    }
    for (; sk[is] == k; ++is) {
      __builtin_prefetch(&req[sr[is + kPrefetch] & kIndexMask]);
      x.Open(req[sr[is] & kIndexMask], sr[is] & kFlag);
    }
    for (; bk[ib] == k; ++ib) {
      __builtin_prefetch(&req[br[ib + kPrefetch]]);
      x.Advance(req[br[ib]]);
    }
    for (; ek[ie] == k; ++ie) {
      __builtin_prefetch(&req[er[ie + kPrefetch] & kIndexMask]);
      x.Close(req[er[ie] & kIndexMask], er[ie] & kFlag);
    }
    x.Settle();
  }
  if (t_to > prev) sink(Seg{t_to - prev, x.c, x.dc, x.pc, x.dt, x.pt, x.tif});
}

// ---- Duration-weighted histograms ---------------------------------------------------------------
// Real values go to log-linear buckets read straight off the IEEE bits: 2^12 buckets per power of
// two (relative width 2^-12), allocated in blocks of 256 as values appear, plus one bucket for
// exactly 0 and one each for values below 2^kExpMin or from 2^(kExpMax+1) up. A bucket keeps its
// duration and the smallest value it saw; a percentile is the smallest value of the bucket where
// the cumulative duration reaches it: exact when that bucket holds one value (as it does with a
// few requests), and otherwise below the exact one by less than 2^-12 of it (0.025 %, four times
// finer than the 0.1 % of the run's HDR histograms). Finer buckets were measured: at 2^16 a run's
// histograms no longer fit in cache and the sweep got several times slower.
struct Cell {
  double dur = 0;
  double lo = kInf;
  void Add(double v, double d) {
    dur += d;
    lo = std::min(lo, v);
  }
  void Merge(const Cell& o) {
    dur += o.dur;
    lo = std::min(lo, o.lo);
  }
};

class SparseHist {
 public:
  static constexpr int kExpMin = -30;
  static constexpr int kExpMax = 70;
  static constexpr int kSubBits = 12;   // buckets per power of two: 2^12
  static constexpr int kBlockBits = 8;  // buckets per block: 2^8
  static constexpr size_t kBlock = size_t{1} << kBlockBits;
  // For a positive double, bits >> (52 - kSubBits) is (biased exponent, top kSubBits of the
  // mantissa): its bucket, in value order, in one shift.
  static constexpr uint64_t kFirst = static_cast<uint64_t>(1023 + kExpMin) << kSubBits;
  static constexpr uint64_t kBuckets = static_cast<uint64_t>(kExpMax - kExpMin + 1) << kSubBits;
  static constexpr size_t kTop = kBuckets >> kBlockBits;

  SparseHist() : top_(kTop, nullptr) {}

  void Add(double v, double d) {
    if (!(v > 0)) {
      zero_ += d;
      return;
    }
    const uint64_t g = Bits(v) >> (52 - kSubBits);
    const uint64_t i = g - kFirst;  // wraps around below the range
    if (i < kBuckets) return At(i >> kBlockBits)[i & (kBlock - 1)].Add(v, d);
    (g < kFirst ? under_ : over_).Add(v, d);
  }

  // Total duration of the positive values.
  double Positive() const {
    double total = under_.dur + over_.dur;
    for (const Cell* block : top_) {
      if (block == nullptr) continue;
      for (size_t i = 0; i < kBlock; ++i) total += block[i].dur;
    }
    return total;
  }

  void Merge(const SparseHist& o) {
    zero_ += o.zero_;
    under_.Merge(o.under_);
    over_.Merge(o.over_);
    for (size_t t = 0; t < kTop; ++t) {
      if (o.top_[t] == nullptr) continue;
      Cell* mine = At(t);
      for (size_t i = 0; i < kBlock; ++i) mine[i].Merge(o.top_[t][i]);
    }
  }

  double zero() const { return zero_; }

  // Visits the non-empty buckets in value order as (smallest value, duration); the zero bucket's
  // duration is `zero` (an Active view replaces it).
  template <class Fn>
  void ForEach(double zero, Fn&& fn) const {
    if (zero > 0) fn(0.0, zero);
    if (under_.dur > 0) fn(under_.lo, under_.dur);
    for (const Cell* block : top_) {
      if (block == nullptr) continue;
      for (size_t i = 0; i < kBlock; ++i) {
        if (block[i].dur > 0) fn(block[i].lo, block[i].dur);
      }
    }
    if (over_.dur > 0) fn(over_.lo, over_.dur);
  }

 private:
  Cell* At(size_t t) {
    if (top_[t] == nullptr) {
      blocks_.emplace_back(new Cell[kBlock]);
      top_[t] = blocks_.back().get();
    }
    return top_[t];
  }

  std::vector<Cell*> top_;  // block of each top-level bucket, or null
  std::vector<std::unique_ptr<Cell[]>> blocks_;
  double zero_ = 0;
  Cell under_, over_;
};

// ---- Rows and views -------------------------------------------------------------------------------
// Rows 0-2 (concurrencies) are integers; rows 3-8 are reals. A view is a row, optionally restricted
// to a mask. On a masked-out segment every Active row's value is exactly 0 (see State), so an
// Active view is its row's histogram with the zero bucket replaced by the zero time inside the mask.
constexpr int kIntRows = 3;
constexpr int kRealRows = 6;
constexpr int kRows = kIntRows + kRealRows;
enum Mask : int { kNoMask = -1, kDecodeMask = 0, kPrefillMask = 1, kTotalMask = 2 };
struct View {
  int row;
  int mask;
};
constexpr View kViews[kSweepRows] = {
    {kRowConcurrency, kNoMask},
    {kRowDecodeConcurrency, kNoMask},
    {kRowPrefillConcurrency, kNoMask},
    {kRowDecodeThroughput, kNoMask},
    {kRowPrefillThroughput, kNoMask},
    {kRowTotalThroughput, kNoMask},
    {kRowDecodeThroughputPerUser, kNoMask},
    {kRowPrefillThroughputPerUser, kNoMask},
    {kRowTokensInFlight, kNoMask},
    {kRowDecodeThroughput, kDecodeMask},
    {kRowPrefillThroughput, kPrefillMask},
    {kRowTotalThroughput, kTotalMask},
    {kRowDecodeThroughputPerUser, kDecodeMask},
    {kRowPrefillThroughputPerUser, kPrefillMask},
};
constexpr double kQuantiles[4] = {0.50, 0.90, 0.95, 0.99};
constexpr int kStatOfQuantile[4] = {kStatP50, kStatP90, kStatP95, kStatP99};

// Per-thread accumulation over segments: integrals, maxima, mask times, histograms.
struct Accum {
  std::vector<double> conc[kIntRows];  // duration by integer value
  SparseHist hist[kRealRows];
  double sum[kRows] = {};
  double max[kRows] = {};
  double mask_dur[3] = {};  // decode / prefill / any request in flight
  size_t segments = 0;

  void operator()(const Seg& s) {
    ++segments;
    const double d = s.dur;
    AddInt(0, s.c, d);
    AddInt(1, s.dc, d);
    AddInt(2, s.pc, d);
    AddReal(0, s.dt, d);
    AddReal(1, s.pt, d);
    AddReal(2, s.dt + s.pt, d);
    AddReal(3, s.dc > 0 ? s.dt / static_cast<double>(s.dc) : 0.0, d);
    AddReal(4, s.pc > 0 ? s.pt / static_cast<double>(s.pc) : 0.0, d);
    AddReal(5, s.tif, d);
    mask_dur[kDecodeMask] += s.dc > 0 ? d : 0.0;
    mask_dur[kPrefillMask] += s.pc > 0 ? d : 0.0;
    mask_dur[kTotalMask] += s.c > 0 ? d : 0.0;
  }

  // Rows are passed as constants (written out above rather than looped over) so that each
  // inlined copy addresses its row directly.
  void AddInt(int r, int64_t value, double d) {
    std::vector<double>& h = conc[r];
    const size_t k = static_cast<size_t>(value);
    if (k >= h.size()) h.resize(std::max<size_t>(k + 1, 2 * h.size()), 0.0);
    h[k] += d;
    const double v = static_cast<double>(value);
    sum[r] += v * d;
    max[r] = std::max(max[r], v);
  }

  void AddReal(int r, double v, double d) {
    hist[r].Add(v, d);
    sum[kIntRows + r] += v * d;
    max[kIntRows + r] = std::max(max[kIntRows + r], v);
  }

  void Merge(const Accum& o) {
    for (int r = 0; r < kIntRows; ++r) {
      if (o.conc[r].size() > conc[r].size()) conc[r].resize(o.conc[r].size(), 0.0);
      for (size_t i = 0; i < o.conc[r].size(); ++i) conc[r][i] += o.conc[r][i];
    }
    for (int r = 0; r < kRealRows; ++r) hist[r].Merge(o.hist[r]);
    for (int r = 0; r < kRows; ++r) {
      sum[r] += o.sum[r];
      max[r] = std::max(max[r], o.max[r]);
    }
    for (int m = 0; m < 3; ++m) mask_dur[m] += o.mask_dur[m];
    segments += o.segments;
  }
};

// Percentiles over (value, duration) pairs visited in value order: the smallest value v with
// (time at or below v) >= q * (total time), as AIPerf reads them off the cumulative duration
// fraction. `visit(fn)` calls fn(value, duration) in ascending value order.
template <class Visit>
void Percentiles(Visit&& visit, double* o) {
  double total = 0;
  visit([&](double, double d) { total += d; });
  double cum = 0;
  int q = 0;
  double last = kNaN;
  visit([&](double v, double d) {
    cum += d;
    last = v;
    for (; q < 4 && cum >= kQuantiles[q] * total; ++q) o[kStatOfQuantile[q]] = v;
  });
  for (; q < 4; ++q) o[kStatOfQuantile[q]] = last;  // rounding shortfall: the top value
}


// A time that splits the events about in half: the median of the (clipped) start and end times of
// up to 1024 requests spread over the columns; an integer, so that it is a valid key in either
// key mode once it is clamped to the earliest event.
double SplitTime(const SweepColumns& cols, double w0, double w1) {
  std::vector<double> t;
  const size_t step = std::max<size_t>(1, cols.n / 1024);
  for (size_t i = 0; i < cols.n; i += step) {
    const double s = std::max(cols.start[i], w0), e = std::min(cols.end[i], w1);
    if (std::isfinite(s) && std::isfinite(e) && s < e) {
      t.push_back(s);
      t.push_back(e);
    }
  }
  if (t.empty()) return w0;
  std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
  return std::floor(t[t.size() / 2]);
}

// What prep made of a slice of the requests.
struct Prepped {
  size_t m = 0;   // requests kept (S and E events)
  size_t nb = 0;  // B events
  bool integral = true;
  double tmin = kInf;
  State at_split;  // the sum of the kept requests' events before the split time
  size_t bad = std::numeric_limits<size_t>::max();
  const char* what = "";
};

// Checks requests [lo, hi), clips them to the window, works out their rates (req[i]) and writes
// their events from position lo of each stream (times as raw double bits: whether they can be
// integer keys is known only once every part is done). Stops at the first bad request.
void Prep(const SweepColumns& cols, size_t lo, size_t hi, double split, Req* req, Buf& S, Buf& B, Buf& E,
          Prepped& out) {
  const double w0 = cols.window_start, w1 = cols.window_end;
  size_t m = lo, nb = lo;
  bool integral = true;
  double tmin = kInf;
  State x;
  for (size_t i = lo; i < hi; ++i) {
    const double s0 = cols.start[i], g0 = cols.generation_start[i], e0 = cols.end[i];
    const double isl = cols.isl[i], osl = cols.osl[i];
    const char* what = nullptr;
    const bool has_gen = !std::isnan(g0);
    if (!std::isfinite(s0) || !std::isfinite(e0)) {
      what = "start and end must be finite";
    } else if (e0 < s0) {
      what = "end is before start";
    } else if (has_gen && !(g0 >= s0 && g0 <= e0)) {
      what = "generationStart must be NaN or within [start, end]";
    } else if (!std::isnan(isl) && !(isl >= 0 && isl < kInf)) {
      what = "isl must be NaN or finite and >= 0";
    } else if (!std::isnan(osl) && !(osl >= 0 && osl < kInf)) {
      what = "osl must be NaN or finite and >= 0";
    }
    if (what != nullptr) {
      out.bad = i;
      out.what = what;
      return;
    }
    // "+ 0.0" turns -0 into +0, so that equal times get equal keys.
    const double s = std::max(s0, w0) + 0.0;
    const double e = std::min(e0, w1) + 0.0;
    if (!(s < e)) continue;  // outside the window, or of zero length: contributes nothing
    const double b = (has_gen ? std::min(std::max(g0, s), e) : e) + 0.0;
    // Rates use the request's whole phases, not their clipped parts: a rate is a property of the
    // request, and clipping only limits where it is counted.
    const double pdur = (has_gen ? g0 : e0) - s0;
    const double ddur = has_gen ? e0 - g0 : 0;
    Req& q = req[i];
    q.prate = pdur > 0 && !std::isnan(isl) ? isl * kNsPerS / pdur : 0;
    q.drate = ddur > 0 && !std::isnan(osl) ? std::max(osl - 1, 0.0) * kNsPerS / ddur : 0;
    q.ptok = std::isnan(isl) ? 0 : isl;
    q.dtok = q.ptok + (std::isnan(osl) ? 0 : osl);
    const uint32_t idx = static_cast<uint32_t>(i);
    const bool opens_decode = !(b > s), closes_prefill = !(b < e);
    S.key[m] = Bits(s);
    S.ref[m] = idx | (opens_decode ? kFlag : 0);
    E.key[m] = Bits(e);
    E.ref[m] = idx | (closes_prefill ? kFlag : 0);
    ++m;
    if (s < b && b < e) {
      B.key[nb] = Bits(b);
      B.ref[nb] = idx;
      ++nb;
    }
    // The events of this request before the split, as the sweep would apply them.
    if (s < split) {
      x.Open(q, opens_decode);
      if (s < b && b < e && b < split) x.Advance(q);
      if (e < split) x.Close(q, closes_prefill);
    }
    integral &= s == std::floor(s) && b == std::floor(b) && e == std::floor(e) && std::fabs(s) < kExactInt &&
                std::fabs(e) < kExactInt;
    tmin = std::min(tmin, s);
  }
  out.m = m - lo;
  out.nb = nb - lo;
  out.integral = integral;
  out.tmin = tmin;
  out.at_split = x;
}

// Moves `count` events written from position `from` to the end of `buf`'s events.
void Append(Buf& buf, size_t from, size_t count) {
  if (count > 0 && from != buf.n) {
    std::memmove(buf.key.get() + buf.n, buf.key.get() + from, count * sizeof(uint64_t));
    std::memmove(buf.ref.get() + buf.n, buf.ref.get() + from, count * sizeof(uint32_t));
  }
  buf.n += count;
}


}  // namespace

bool RunSweep(const SweepColumns& cols, double* out, int threads, std::string* error) {
  const double w0 = cols.window_start;
  const double w1 = cols.window_end;
  if (!std::isfinite(w0) || !std::isfinite(w1) || w1 < w0) {
    *error = "the window must be finite, with windowEnd >= windowStart";
    return false;
  }
  const size_t n = cols.n;
  if (n >= kFlag) {
    *error = "too many requests (at most 2^31 - 1)";
    return false;
  }

  // Two threads split the prep by request, the sorts by stream and the sweep by time: at T, a
  // median of sampled event times, so each half gets about half of the events.
  const bool two = threads >= 2 && n >= kParallelMin;
  const double split = SplitTime(cols, w0, w1);
  Array<Req> req(n);
  Buf S(n), B(n), E(n);
  const size_t half = two ? n / 2 : n;
  Prepped part[2];
  Parallel(2, two, [&](int t) {
    Prep(cols, t == 0 ? 0 : half, t == 0 ? half : n, split, req.get(), S, B, E, part[t]);
  });
  for (const Prepped& p : part) {
    if (p.bad < n) {
      *error = "request " + std::to_string(p.bad) + ": " + p.what;
      return false;
    }
  }
  // The second part's events follow the first's without a gap.
  S.n = E.n = part[0].m;
  B.n = part[0].nb;
  Append(S, half, part[1].m);
  Append(E, half, part[1].m);
  Append(B, half, part[1].nb);
  const size_t m = S.n;
  TimeKeys tk;
  tk.integral = part[0].integral && part[1].integral;
  tk.base = tk.integral && m > 0 ? std::min(part[0].tmin, part[1].tmin) : 0;
  State at_split = part[0].at_split;
  at_split.Add(part[1].at_split);
  at_split.Settle();

  // Sort the streams, one after the other, each on both threads.
  {
    Buf tmp(n);
    for (Buf* buf : {&S, &B, &E}) RadixSort(*buf, tmp, tk, two);
  }

  // Sweep; with two threads, [w0, T) here and [T, w1] on the other, from the state at T, and the
  // two accumulations merged.
  const Streams st{S, B, E, req.get(), tk};
  Accum acc[2];
  const double t_mid = m > 0 ? std::max(split, tk.Time(S.key[0])) : w0;
  if (two && m > 0) {
    const uint64_t split_key = tk.Key(t_mid);
    const Cursor mid = LowerBound(st, split_key);
    Parallel(2, true, [&](int i) {
      if (i == 0) {
        Sweep(st, Cursor{}, split_key, w0, t_mid, State{}, acc[0]);
      } else {
        Sweep(st, mid, kEndKey, t_mid, w1, at_split, acc[1]);
      }
    });
    acc[0].Merge(acc[1]);
  } else {
    Sweep(st, Cursor{}, kEndKey, w0, w1, State{}, acc[0]);
  }
  const Accum& a = acc[0];

  const double window = w1 - w0;
  std::fill(out, out + kSweepOutputLength, kNaN);
  out[kHeadRequests] = static_cast<double>(m);
  out[kHeadSegments] = static_cast<double>(a.segments);
  out[kHeadWindow] = window;
  for (int view = 0; view < kSweepRows; ++view) {
    const View& vw = kViews[view];
    const double weight = vw.mask == kNoMask ? window : a.mask_dur[vw.mask];
    double* o = out + kSweepHeadLen + static_cast<size_t>(view) * kSweepStats;
    o[kStatWeight] = weight;
    if (!(weight > 0) || a.segments == 0) continue;
    o[kStatAvg] = a.sum[vw.row] / weight;
    // Values are >= 0 and 0 outside the mask, so the maximum inside the mask is the overall one.
    o[kStatMax] = a.max[vw.row];
    if (vw.row < kIntRows) {
      const std::vector<double>& h = a.conc[vw.row];
      Percentiles(
          [&](auto&& fn) {
            for (size_t i = 0; i < h.size(); ++i) {
              if (h[i] > 0) fn(static_cast<double>(i), h[i]);
            }
          },
          o);
    } else {
      const SparseHist& h = a.hist[vw.row - kIntRows];
      // An Active row's value is 0 outside its mask, so its positive values all lie inside it and
      // its time at 0 inside the mask is the rest of the mask's time.
      const double zero = vw.mask == kNoMask ? h.zero() : std::max(0.0, weight - h.Positive());
      Percentiles([&](auto&& fn) { h.ForEach(zero, fn); }, o);
    }
  }
  return true;
}

}  // namespace servebench

#ifndef SERVEBENCH_SWEEP_CORE_ONLY
#include <napi.h>

namespace servebench {

namespace {

[[noreturn]] void ThrowType(Napi::Env env, const std::string& message) {
  Napi::TypeError err = Napi::TypeError::New(env, message);
  err.Set("code", Napi::String::New(env, "SB_NATIVE_BAD_ARG"));
  throw err;
}

const char* const kColumnNames[5] = {"start", "generationStart", "end", "isl", "osl"};

Napi::Value SweepLine(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Guards only: the TS wrapper (src/metrics/sweep.ts) validates properly.
  if (info.Length() != 7) {
    ThrowType(env, "sweepLine(start, generationStart, end, isl, osl, windowStart, windowEnd): expected 7 arguments");
  }
  const double* data[5];
  size_t n = 0;
  for (int i = 0; i < 5; ++i) {
    if (!info[i].IsTypedArray() || info[i].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      ThrowType(env, std::string("sweepLine: ") + kColumnNames[i] + " must be a Float64Array");
    }
    Napi::Float64Array col = info[i].As<Napi::Float64Array>();
    if (i == 0) n = col.ElementLength();
    if (col.ElementLength() != n) ThrowType(env, "sweepLine: the five columns must have the same length");
    data[i] = col.Data();
    if (n > 0 && data[i] == nullptr) ThrowType(env, std::string("sweepLine: ") + kColumnNames[i] + " is detached");
  }
  if (!info[5].IsNumber() || !info[6].IsNumber()) {
    ThrowType(env, "sweepLine: windowStart and windowEnd must be numbers");
  }
  SweepColumns cols{data[0], data[1], data[2], data[3], data[4], n, info[5].As<Napi::Number>().DoubleValue(),
                    info[6].As<Napi::Number>().DoubleValue()};
  Napi::Float64Array out = Napi::Float64Array::New(env, kSweepOutputLength);
  std::string error;
  bool ok = false;
  try {
    // Synchronous: one call at the end of a run, over columns the caller owns.
    ok = RunSweep(cols, out.Data(), std::thread::hardware_concurrency() >= 2 ? 2 : 1, &error);
  } catch (const std::bad_alloc&) {
    Napi::Error err = Napi::Error::New(env, "sweepLine: out of memory for " + std::to_string(n) + " requests");
    err.Set("code", Napi::String::New(env, "SB_NATIVE_SWEEP_MEMORY"));
    throw err;
  }
  if (!ok) ThrowType(env, "sweepLine: " + error);
  return out;
}

}  // namespace

void RegisterSweep(Napi::Env env, Napi::Object exports) {
  exports.Set("sweepLine", Napi::Function::New(env, SweepLine, "sweepLine"));
}

}  // namespace servebench
#endif  // SERVEBENCH_SWEEP_CORE_ONLY
