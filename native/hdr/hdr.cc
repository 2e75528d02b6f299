#include "hdr/hdr.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace servebench {

namespace {
// Values are refused at or above 2^62 (as doubles, before rounding), so the
// rounded value never exceeds kMaxValue.
constexpr double kLimit = 4611686018427387904.0;
// Values per block in a batch: the block's counts indexes stay in L1.
constexpr size_t kBlock = 1024;

inline bool Valid(double x) { return x >= -std::numeric_limits<double>::max() && x < kLimit; }

constexpr double kTwo52 = 4503599627370496.0;
constexpr uint64_t kTwo52Bits = 0x4330000000000000ull;

// int64 → double is exact below 2^53 (104 days in ns).
inline double Scaled(double v, double scale) { return v * scale; }
inline double Scaled(int64_t v, double scale) { return static_cast<double>(v) * scale; }
// Negatives become 0; so does -0, so that min never reads "-0".
inline double Clamp(double v) { return v < 0 ? 0.0 : v + 0.0; }

// Two doubles at a time through GCC/Clang vector extensions: one SSE2 or NEON
// register, so portable and never slower than scalar code.
typedef double V2d __attribute__((vector_size(16)));
typedef int64_t V2i __attribute__((vector_size(16)));
typedef uint64_t V2u __attribute__((vector_size(16)));
inline V2d Splat(double v) { return V2d{v, v}; }
template <typename To, typename From>
inline To As(From v) {
  return reinterpret_cast<To>(v);
}
template <typename V>
inline V Select(V2i mask, V a, V b) {
  return As<V>((As<V2i>(a) & mask) | (As<V2i>(b) & ~mask));
}
// Lane-wise min and max (v < lo ? v : lo): one instruction with SSE2, a select elsewhere.
inline V2d Min2(V2d a, V2d b) {
#if defined(__SSE2__)
  return As<V2d>(_mm_min_pd(As<__m128d>(a), As<__m128d>(b)));
#else
  return Select(a < b, a, b);
#endif
}
inline V2d Max2(V2d a, V2d b) {
#if defined(__SSE2__)
  return As<V2d>(_mm_max_pd(As<__m128d>(a), As<__m128d>(b)));
#else
  return Select(a > b, a, b);
#endif
}
inline V2d Load2(const double* p) {
  V2d v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline V2d Load2(const int64_t* p) {
  V2i v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, V2d);
}

}  // namespace

HdrHistogram::HdrHistogram(int digits, int64_t highest_trackable) : digits_(digits) {
  // Unit resolution up to 2 · 10^digits, in a power-of-two number of sub-buckets.
  int64_t largest_single = 2;
  for (int i = 0; i < digits; ++i) largest_single *= 10;
  int mag = 0;
  while ((int64_t{1} << mag) < largest_single) ++mag;
  sub_half_mag_ = (mag > 1 ? mag : 1) - 1;
  sub_count_ = int64_t{1} << (sub_half_mag_ + 1);
  sub_half_ = sub_count_ / 2;
  sub_mask_ = sub_count_ - 1;
  highest_ = highest_trackable;
  counts_.assign(LengthFor(highest_trackable), 0);
}

size_t HdrHistogram::LengthFor(int64_t highest) const {
  int64_t smallest_untrackable = sub_count_;
  size_t buckets = 1;
  while (smallest_untrackable <= highest) {
    if (smallest_untrackable > INT64_MAX / 2) {
      ++buckets;
      break;
    }
    smallest_untrackable <<= 1;
    ++buckets;
  }
  return (buckets + 1) * static_cast<size_t>(sub_half_);
}

size_t HdrHistogram::CountsIndex(int64_t v) const {
  const int bucket = 63 - __builtin_clzll(static_cast<uint64_t>(v | sub_mask_)) - sub_half_mag_;
  const int64_t sub = v >> bucket;
  return static_cast<size_t>((int64_t{bucket + 1} << sub_half_mag_) + (sub - sub_half_));
}

int64_t HdrHistogram::ValueFromIndex(size_t index) const {
  int64_t bucket = static_cast<int64_t>(index >> sub_half_mag_) - 1;
  int64_t sub = static_cast<int64_t>(index & static_cast<size_t>(sub_half_ - 1)) + sub_half_;
  if (bucket < 0) {
    sub -= sub_half_;
    bucket = 0;
  }
  return sub << bucket;
}

int64_t HdrHistogram::HighestEquivalent(int64_t v) const {
  const int bucket = 63 - __builtin_clzll(static_cast<uint64_t>(v | sub_mask_)) - sub_half_mag_;
  return LowestEquivalent(v) + (int64_t{1} << bucket) - 1;
}

void HdrHistogram::EnsureCovers(int64_t value) {
  if (CountsIndex(value) < counts_.size()) return;
  counts_.resize(LengthFor(value), 0);
  highest_ = HighestEquivalent(ValueFromIndex(counts_.size() - 1));
}

double HdrHistogram::mean() const { return count_ ? sum() / static_cast<double>(count_) : 0; }

double HdrHistogram::stddev() const { return count_ ? std::sqrt(std::max(0.0, m2_) / static_cast<double>(count_)) : 0; }

void HdrHistogram::AddBlockStats(int64_t n, double sum, double comp, double m2, double lo, double hi) {
  if (n == 0) return;
  if (count_ == 0) {
    m2_ = m2;
    min_ = lo;
    max_ = hi;
  } else {
    const double na = static_cast<double>(count_), nb = static_cast<double>(n);
    const double delta = (sum + comp) / nb - this->sum() / na;
    m2_ += m2 + delta * delta * (na * nb / (na + nb));
    min_ = std::min(min_, lo);
    max_ = std::max(max_, hi);
  }
  Neumaier(sum_, sum_comp_, sum);
  sum_comp_ += comp;
  count_ += n;
}

bool HdrHistogram::Record(double value, double scale) {
  const double v = value * scale;
  if (!Valid(v)) return false;
  clamped_ += v < 0;
  const double x = Clamp(v);
  const size_t i = IndexOfScaled(x);
  if (i >= counts_.size()) EnsureCovers(ValueFromIndex(i));
  ++counts_[i];
  AddBlockStats(1, x, 0, 0, x, x);
  return true;
}

size_t HdrHistogram::RecordWeighted(const double* values, const double* weights, size_t n, double scale) {
  // Checked first, so a refusal records nothing.
  for (size_t i = 0; i < n; ++i) {
    const double w = weights[i];
    if (!Valid(values[i] * scale) || !(w >= 0 && w <= 9007199254740992.0) || w != std::floor(w)) return i;
  }
  for (size_t i = 0; i < n; ++i) {
    const int64_t w = static_cast<int64_t>(weights[i]);
    if (w == 0) continue;
    const double v = values[i] * scale;
    if (v < 0) clamped_ += w;
    const double x = Clamp(v);
    const size_t idx = IndexOfScaled(x);
    if (idx >= counts_.size()) EnsureCovers(ValueFromIndex(idx));
    counts_[idx] += w;
    // w copies of one value: their mean is x and their squared deviations sum to 0.
    AddBlockStats(w, x * static_cast<double>(w), 0, 0, x, x);
  }
  return n;
}

size_t HdrHistogram::RecordBatch(const double* v, size_t n, double scale) { return RecordBatchImpl(v, n, scale); }
size_t HdrHistogram::RecordBatch(const int64_t* v, size_t n, double scale) { return RecordBatchImpl(v, n, scale); }

// The counts index of x (>= 0, < 2^62) rounded half up, read off the bits of
// the rounded double: below sub_count_ the value itself; above, the exponent
// and the top mantissa bits, which is HdrHistogram's (bucket, sub-bucket) pair.
// Equal to CountsIndex(llround-half-up(x)); the batch kernel computes the same
// formula two lanes at a time.
size_t HdrHistogram::IndexOfScaled(double x) const {
  const double t = x + 0.5;
  const double r = t < kTwo52 ? std::floor(t) : t;
  if (r < static_cast<double>(sub_count_)) return static_cast<size_t>(r);
  uint64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  return static_cast<size_t>((bits >> (52 - sub_half_mag_)) - (uint64_t{1022u + sub_half_mag_} << sub_half_mag_));
}

template <typename T>
bool HdrHistogram::ScanBlock(const T* in, size_t k, double scale, uint64_t* idx, BlockStats* st) const {
  const size_t k2 = k & ~size_t{1};
  const V2d zero = Splat(0.0), vscale = Splat(scale), half = Splat(0.5), one = Splat(1.0), two52 = Splat(kTwo52);
  const V2d vsub = Splat(static_cast<double>(sub_count_));
  const uint64_t big_offset = uint64_t{1022u + sub_half_mag_} << sub_half_mag_;
  const int shift = 52 - sub_half_mag_;
  // Squared deviations are summed around the block's first value (a shift
  // close to the data), then corrected to the block mean.
  const double shift_value = Clamp(Scaled(in[0], scale));
  const V2d vshift = Splat(shift_value);
  V2i neg = {0, 0};
  V2d lo = Splat(std::numeric_limits<double>::infinity()), hi = -lo;
  V2d nan_seen = zero;  // stays 0 unless a value is NaN or infinite (v · 0 is then NaN)
  V2d vs = zero, vc = zero, vq = zero;
  for (size_t i = 0; i < k2; i += 2) {
    V2d v = Load2(in + i) * vscale;
    nan_seen += v * zero;
    const V2i ng = v < zero;
    neg += ng;                             // -1 per negative lane
    v = As<V2d>(As<V2i>(v) & ~ng) + zero;  // negatives (and -0) to +0
    lo = Min2(v, lo);
    hi = Max2(v, hi);
    // Knuth's TwoSum: vs + vc is the exact sum of each lane.
    const V2d t = vs + v, bp = t - vs;
    vc += (vs - (t - bp)) + (v - bp);
    vs = t;
    const V2d d = v - vshift;
    vq += d * d;
    // The index: floor(v + 0.5) without SSE4.1 (exact while v + 0.5 < 2^52; larger blocks
    // are redone below), then its bits.
    const V2d h = v + half;
    V2d r = (h + two52) - two52;
    r -= As<V2d>(As<V2i>(r > h) & As<V2i>(one));
    const V2u small = As<V2u>(r + two52) - kTwo52Bits;
    const V2u big = (As<V2u>(r) >> shift) - big_offset;
    const V2u ix = Select(r < vsub, small, big);
    std::memcpy(idx + i, &ix, sizeof ix);
  }
  double sum = 0, comp = 0;
  for (int j = 0; j < 2; ++j) {
    Neumaier(sum, comp, vs[j]);
    comp += vc[j];
  }
  bool bad = !(nan_seen[0] + nan_seen[1] == 0);
  st->clamped = -(neg[0] + neg[1]);
  st->lo = std::min(lo[0], lo[1]);
  st->hi = std::max(hi[0], hi[1]);
  double q = vq[0] + vq[1];
  if (k2 < k) {
    const double v = Scaled(in[k2], scale);
    bad |= !Valid(v);
    st->clamped += v < 0;
    const double x = Clamp(v);
    st->lo = std::min(st->lo, x);
    st->hi = std::max(st->hi, x);
    Neumaier(sum, comp, x);
    q += (x - shift_value) * (x - shift_value);
    idx[k2] = bad ? 0 : IndexOfScaled(x);
  }
  // Too large shows in the max (negatives are clamped, so -inf shows only as NaN).
  if (bad || !(st->hi < kLimit)) return false;
  // Values of 2^52 and up (52 days in ns; rare) are already integers: index them one by one.
  if (st->hi + 0.5 >= kTwo52) {
    for (size_t i = 0; i < k2; ++i) idx[i] = IndexOfScaled(Clamp(Scaled(in[i], scale)));
  }
  const double kd = static_cast<double>(k);
  const double dev = (sum - kd * shift_value) + comp;  // sum of (x - shift)
  st->sum = sum;
  st->comp = comp;
  st->m2 = std::max(0.0, q - dev * dev / kd);
  return true;
}

template <typename T>
size_t HdrHistogram::RecordBatchImpl(const T* values, size_t n, double scale) {
  const int64_t count0 = count_, clamped0 = clamped_;
  const double min0 = min_, max0 = max_, sum0 = sum_, comp0 = sum_comp_, m20 = m2_;
  uint64_t idx[kBlock];
  BlockStats st;
  for (size_t b = 0; b < n; b += kBlock) {
    const size_t k = std::min(kBlock, n - b);
    if (!ScanBlock(values + b, k, scale, idx, &st)) {
      // All or nothing: take back the blocks already recorded (the same inputs give the same indexes).
      for (size_t j = 0; j < b; j += kBlock) {
        ScanBlock(values + j, kBlock, scale, idx, &st);
        for (size_t i = 0; i < kBlock; ++i) --counts_[idx[i]];
      }
      count_ = count0, clamped_ = clamped0, min_ = min0, max_ = max0, sum_ = sum0, sum_comp_ = comp0, m2_ = m20;
      size_t j = 0;
      while (Valid(Scaled(values[b + j], scale))) ++j;
      return b + j;
    }
    EnsureCovers(static_cast<int64_t>(ValueFromIndex(IndexOfScaled(st.hi))));
    int64_t* counts = counts_.data();
    for (size_t i = 0; i < k; ++i) ++counts[idx[i]];
    clamped_ += st.clamped;
    AddBlockStats(static_cast<int64_t>(k), st.sum, st.comp, st.m2, st.lo, st.hi);
  }
  return n;
}

double HdrHistogram::ReportAt(size_t index, double p) const {
  const int64_t v = ValueFromIndex(index);
  const double reported = static_cast<double>(p == 0 ? v : HighestEquivalent(v));
  // The exact extremes bound every percentile: p0 is the min and p100 the max.
  return std::min(std::max(reported, min_), max_);
}

namespace {
// HdrHistogram's rank: ceil(p/100 · count), guarding against the product being 1 ulp too large.
double RankFor(double p, int64_t count) {
  const double fp = (std::min(p, 100.0) / 100.0) * static_cast<double>(count);
  const double ulp = fp > 0 ? std::ldexp(1.0, std::ilogb(fp) - 52) : 0.0;
  return std::max(std::ceil(fp - ulp), 1.0);
}
}  // namespace

double HdrHistogram::ValueAtPercentile(double p) const {
  double out = 0;
  ValuesAtPercentiles(&p, 1, &out);
  return out;
}

void HdrHistogram::ValuesAtPercentiles(const double* ps, size_t n, double* out) const {
  if (count_ == 0) {
    std::fill(out, out + n, 0.0);
    return;
  }
  std::vector<std::pair<int64_t, size_t>> ranks(n);
  for (size_t k = 0; k < n; ++k) ranks[k] = {static_cast<int64_t>(RankFor(ps[k], count_)), k};
  std::sort(ranks.begin(), ranks.end());
  const int64_t* c = counts_.data();
  const size_t len = counts_.size();
  size_t i = 0, k = 0;
  int64_t seen = 0;  // values in buckets before i
  while (k < n) {
    const int64_t target = ranks[k].first;
    while (i < len && seen + c[i] < target) seen += c[i++];
    if (i == len) break;
    seen += c[i];
    for (; k < n && ranks[k].first <= seen; ++k) out[ranks[k].second] = ReportAt(i, ps[ranks[k].second]);
    ++i;
  }
  // Unreachable while counts and count_ agree; report the max rather than garbage.
  for (; k < n; ++k) out[ranks[k].second] = max_;
}

void HdrHistogram::Mode(double* value, int64_t* count) const {
  *value = 0;
  *count = 0;
  if (count_ == 0) return;
  size_t best = 0;
  int64_t most = 0;
  for (size_t i = 0; i < counts_.size(); ++i) {
    if (counts_[i] > most) {
      most = counts_[i];
      best = i;
    }
  }
  // HdrHistogram's median-equivalent value: the middle of the bucket's value range.
  const int64_t lo = ValueFromIndex(best);
  const int64_t mid = lo + ((HighestEquivalent(lo) - lo + 1) >> 1);
  *value = std::min(std::max(static_cast<double>(mid), min_), max_);
  *count = most;
}

bool HdrHistogram::Merge(const HdrHistogram& other) {
  if (other.digits_ != digits_) return false;
  // Copies first: `other` may be this histogram.
  const int64_t n = other.count_, clamped = other.clamped_;
  const double s = other.sum_, c = other.sum_comp_, m2 = other.m2_, lo = other.min_, hi = other.max_;
  if (other.counts_.size() > counts_.size()) {
    counts_.resize(other.counts_.size(), 0);
    highest_ = std::max(highest_, HighestEquivalent(ValueFromIndex(counts_.size() - 1)));
  }
  const size_t len = other.counts_.size();
  for (size_t i = 0; i < len; ++i) counts_[i] += other.counts_[i];
  clamped_ += clamped;
  AddBlockStats(n, s, c, m2, lo, hi);
  return true;
}

void HdrHistogram::Reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  count_ = clamped_ = 0;
  min_ = max_ = sum_ = sum_comp_ = m2_ = 0;
}

}  // namespace servebench
