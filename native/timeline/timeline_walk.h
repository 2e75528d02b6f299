// The walk of the sweep line (native/timeline/timeline.cc): each request's contribution to the running sums,
// and the merge of the three sorted event streams into steps of positive duration.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "timeline/timeline_sort.h"

namespace servebench {
namespace sweepline {

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
inline Cursor LowerBound(const Streams& st, uint64_t k) {
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

}  // namespace sweepline
}  // namespace servebench
