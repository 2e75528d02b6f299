// Sweep-line integration of per-request timestamp columns into the
// time-weighted (Effective / Active) metrics of a run.
//
// Each request is three times s <= b <= e, clipped to the window: it is in
// prefill on [s, b) and in decode on [b, e) (half-open, so a request ending
// at t and one starting at t never overlap). b is the first-token time; a
// request without one (NaN) is in prefill for its whole life (b = e) and has
// no decode. From the events of all requests the sweep builds step functions
// (concurrency, decode/prefill concurrency, decode/prefill/total throughput,
// per-user throughputs, tokens in flight) and reduces each to a time-weighted
// average and duration-weighted percentiles, without storing the curves:
// each value goes into a histogram with 2^12 buckets per power of two that
// keeps the smallest value of each bucket, so a percentile is exact when its
// bucket holds one value and at most 2^-12 (0.025 %) below it otherwise.
//
// Cost: O(n) plus a radix sort of the ~3n event times, and ~80 bytes of
// scratch per request. With two threads the prep is split by request, each
// of the three sorts by halves, and the sweep by time (at a sampled median
// event time, from the state there).
//
// The core (RunTimeline: timeline.cc, with timeline_sort.* for the event streams,
// timeline_walk.h for the walk and timeline_hist.h for the histograms) is plain C++
// with no N-API dependency, so it can be built alone for benchmarks and
// sanitizers. timeline_binding.cc adds the JS binding `timeline` (one call per
// run) through RegisterTimeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace servebench {

// Rows of the result, in this order (src/metrics/core/timeline.ts mirrors it).
// Rates are per second (times are ns); per-user rows divide a throughput by
// the matching concurrency on each segment (0 where that concurrency is 0).
enum TimelineRow : int {
  kRowConcurrency,
  kRowDecodeConcurrency,
  kRowPrefillConcurrency,
  kRowDecodeThroughput,
  kRowPrefillThroughput,
  kRowTotalThroughput,
  kRowDecodeThroughputPerUser,
  kRowPrefillThroughputPerUser,
  kRowTokensInFlight,
  // The same curves restricted to segments where a phase mask is positive:
  // decode concurrency > 0, prefill concurrency > 0, concurrency > 0.
  kRowActiveDecodeThroughput,
  kRowActivePrefillThroughput,
  kRowActiveTotalThroughput,
  kRowActiveDecodeThroughputPerUser,
  kRowActivePrefillThroughputPerUser,
  kTimelineRows
};

// Per row: the time-weighted average, duration-weighted percentiles, the
// maximum over segments of positive duration, and the duration weighted over
// (the window, or the active time). Stats are NaN when the weight is 0.
enum TimelineStat : int { kStatAvg, kStatP50, kStatP90, kStatP95, kStatP99, kStatMax, kStatWeight, kTimelineStats };

// The result starts with a header.
enum TimelineHead : int {
  kHeadRequests,  // requests with a part of positive length inside the window
  kHeadSegments,  // steps of positive duration (the parts between distinct event times)
  kHeadWindow,    // window_end - window_start
  kTimelineHeadLen
};

constexpr size_t kTimelineOutputLength = kTimelineHeadLen + static_cast<size_t>(kTimelineRows) * kTimelineStats;

struct TimelineColumns {
  const double* start;             // ns
  const double* generation_start;  // ns; NaN: the request has no first token
  const double* end;               // ns
  const double* isl;               // tokens; NaN: unknown (adds no prefill rate, no tokens)
  const double* osl;               // tokens; NaN: unknown (adds no decode rate, no tokens)
  size_t n;
  double window_start;
  double window_end;
};

// Checks the columns and runs the sweep, writing kTimelineOutputLength doubles
// to `out`. Returns false, with `error` set, for unusable input: a window
// that is not finite or ends before it starts, a start or end that is not
// finite, end < start, a first token outside [start, end], a negative or
// infinite token count. Throws std::bad_alloc when memory runs out.
// `threads` (1 or 2) is how many threads sort the event streams.
bool RunTimeline(const TimelineColumns& columns, double* out, int threads, std::string* error);

}  // namespace servebench
