#include "timeline/timeline.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "timeline/timeline_hist.h"
#include "timeline/timeline_sort.h"
#include "timeline/timeline_walk.h"

namespace servebench {

using namespace sweepline;

namespace {

// The accumulator runs once per step of the sweep: inlined into its loop.
#if defined(__GNUC__)
#define SB_SWEEP_INLINE inline __attribute__((always_inline))
#else
#define SB_SWEEP_INLINE inline
#endif

constexpr double kNsPerS = 1e9;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Integers below this are exact doubles, and so are their differences.
constexpr double kExactInt = 4503599627370496.0;  // 2^52
// Below this many requests one thread does everything (thread start-up would dominate).
constexpr size_t kParallelMin = size_t{1} << 16;

// ---- Rows and views -------------------------------------------------------------------------------
// Rows 0-2 (concurrencies) are integers; rows 3-8 are reals. A view is a row, optionally restricted
// to a mask. On a masked-out segment every Active row's value is exactly 0 (see State), so an
// Active view is its row's histogram with the zero bucket replaced by the zero time inside the mask.
constexpr int kIntRows = 3;
constexpr int kRealRows = 6;
enum Mask : int { kNoMask = -1, kDecodeMask = 0, kPrefillMask = 1, kTotalMask = 2 };
struct View {
  int row;
  int mask;
};
constexpr View kViews[kTimelineRows] = {
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
// The concurrencies' histograms also give, at the end, their integrals and maxima and the time
// each phase was active (everything but the time at 0), so per step they cost one add each.
struct Accum {
  std::vector<double> conc[kIntRows];  // duration by integer value
  SparseHist hist[kRealRows];
  double sum[kRealRows] = {};
  double max[kRealRows] = {};
  size_t segments = 0;

  SB_SWEEP_INLINE void operator()(const Seg& s) {
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
  }

  // Rows are passed as constants (written out above rather than looped over) so that each
  // inlined copy addresses its row directly.
  void AddInt(int r, int64_t value, double d) {
    std::vector<double>& h = conc[r];
    const size_t k = static_cast<size_t>(value);
    if (k >= h.size()) h.resize(std::max<size_t>(k + 1, 2 * h.size()), 0.0);
    h[k] += d;
  }

  void AddReal(int r, double v, double d) {
    hist[r].Add(v, d);
    sum[r] += v * d;
    max[r] = std::max(max[r], v);
  }

  // Integral and maximum of row r over the steps.
  double Sum(int r) const {
    if (r >= kIntRows) return sum[r - kIntRows];
    double total = 0;
    for (size_t k = 1; k < conc[r].size(); ++k) total += static_cast<double>(k) * conc[r][k];
    return total;
  }
  double Max(int r) const {
    if (r >= kIntRows) return max[r - kIntRows];
    size_t top = 0;
    for (size_t k = 0; k < conc[r].size(); ++k) {
      if (conc[r][k] > 0) top = k;
    }
    return static_cast<double>(top);
  }
  // Time with at least one request in flight in the mask's phase.
  double MaskTime(int mask) const {
    const std::vector<double>& h = conc[mask == kDecodeMask ? 1 : mask == kPrefillMask ? 2 : 0];
    double total = 0;
    for (size_t k = 1; k < h.size(); ++k) total += h[k];
    return total;
  }

  void Merge(const Accum& o) {
    for (int r = 0; r < kIntRows; ++r) {
      if (o.conc[r].size() > conc[r].size()) conc[r].resize(o.conc[r].size(), 0.0);
      for (size_t i = 0; i < o.conc[r].size(); ++i) conc[r][i] += o.conc[r][i];
    }
    for (int r = 0; r < kRealRows; ++r) hist[r].Merge(o.hist[r]);
    for (int r = 0; r < kRealRows; ++r) {
      sum[r] += o.sum[r];
      max[r] = std::max(max[r], o.max[r]);
    }
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
double SplitTime(const TimelineColumns& cols, double w0, double w1) {
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
void Prep(const TimelineColumns& cols, size_t lo, size_t hi, double split, Req* req, Buf& S, Buf& B, Buf& E,
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

bool RunTimeline(const TimelineColumns& cols, double* out, int threads, std::string* error) {
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
  std::optional<Buf> tmp(std::in_place, n);  // the sort's scratch, freed before the sweep
  const size_t half = two ? n / 2 : n;
  Prepped part[2];
  Parallel(2, two, [&](int t) {
    // Each thread prefaults half of every array's pages, the sort's scratch included.
    req.Populate(t, 2);
    for (const Buf* buf : {&S, &B, &E, &*tmp}) buf->Populate(t, 2);
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
  for (Buf* buf : {&S, &B, &E}) RadixSort(*buf, *tmp, tk, two);
  tmp.reset();

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
  std::fill(out, out + kTimelineOutputLength, kNaN);
  out[kHeadRequests] = static_cast<double>(m);
  out[kHeadSegments] = static_cast<double>(a.segments);
  out[kHeadWindow] = window;
  for (int view = 0; view < kTimelineRows; ++view) {
    const View& vw = kViews[view];
    const double weight = vw.mask == kNoMask ? window : a.MaskTime(vw.mask);
    double* o = out + kTimelineHeadLen + static_cast<size_t>(view) * kTimelineStats;
    o[kStatWeight] = weight;
    if (!(weight > 0) || a.segments == 0) continue;
    o[kStatAvg] = a.Sum(vw.row) / weight;
    // Values are >= 0 and 0 outside the mask, so the maximum inside the mask is the overall one.
    o[kStatMax] = a.Max(vw.row);
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
