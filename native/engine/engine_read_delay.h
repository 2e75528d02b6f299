// Delay accounting of an engine I/O thread, per read: its stamp minus the moment the loop could
// first have read (EngineStats::read_delay), and recv() return minus the kernel's receive stamp
// (EngineStats::arrival_lag). Written by the loop thread only, read by any thread for stats():
// relaxed atomics, one writer, so no locked instructions on the hot path.
#pragma once

#include <atomic>
#include <cstdint>

#include "engine/engine.h"

namespace servebench {

class ReadDelayHist {
 public:
  // Buckets: 1 µs wide below 64 µs, then 8 per power of two up to 2^26 µs (~67 s).
  static constexpr int kLinear = 64;
  static constexpr int kBuckets = kLinear + 8 * 20;

  void Add(int64_t ns) {
    if (ns < 0) ns = 0;
    Bump(buckets_[Bucket(ns / 1000)], 1);
    Bump(count_, 1);
    Bump(sum_ns_, static_cast<uint64_t>(ns));
    if (static_cast<uint64_t>(ns) > max_ns_.load(std::memory_order_relaxed)) {
      max_ns_.store(static_cast<uint64_t>(ns), std::memory_order_relaxed);
    }
  }
  void CountSleep() { Bump(sleeps_, 1); }

  // Merges every thread's histogram (percentiles at the bucket's upper edge); *sleeps: their
  // coalescing sleeps.
  template <typename Range>
  static DelaySummary Summarize(const Range& hists, uint64_t* sleeps_out = nullptr) {
    uint64_t counts[kBuckets] = {};
    uint64_t n = 0, sum = 0, max = 0, sleeps = 0;
    for (const ReadDelayHist* h : hists) {
      for (int i = 0; i < kBuckets; ++i) counts[i] += h->buckets_[i].load(std::memory_order_relaxed);
      n += h->count_.load(std::memory_order_relaxed);
      sum += h->sum_ns_.load(std::memory_order_relaxed);
      const uint64_t m = h->max_ns_.load(std::memory_order_relaxed);
      if (m > max) max = m;
      sleeps += h->sleeps_.load(std::memory_order_relaxed);
    }
    DelaySummary s;
    s.count = n;
    s.mean_ns = n ? static_cast<double>(sum) / static_cast<double>(n) : 0;
    s.max_ns = static_cast<int64_t>(max);
    s.p50_ns = Quantile(counts, n, 0.5, max);
    s.p99_ns = Quantile(counts, n, 0.99, max);
    if (sleeps_out != nullptr) *sleeps_out = sleeps;
    return s;
  }

 private:
  static void Bump(std::atomic<uint64_t>& a, uint64_t by) {
    a.store(a.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
  }
  static int Bucket(int64_t us) {
    if (us < kLinear) return static_cast<int>(us);
    const int log = 63 - __builtin_clzll(static_cast<uint64_t>(us));  // >= 6
    const int sub = static_cast<int>((us >> (log - 3)) & 7);
    const int i = kLinear + (log - 6) * 8 + sub;
    return i < kBuckets ? i : kBuckets - 1;
  }
  // Upper edge of bucket i, in ns.
  static int64_t Edge(int i) {
    if (i < kLinear) return (static_cast<int64_t>(i) + 1) * 1000;
    const int log = (i - kLinear) / 8 + 6;
    const int sub = (i - kLinear) % 8;
    return ((static_cast<int64_t>(8 + sub + 1)) << (log - 3)) * 1000;
  }
  static int64_t Quantile(const uint64_t* counts, uint64_t n, double q, uint64_t max) {
    if (n == 0) return 0;
    const uint64_t rank = static_cast<uint64_t>(q * static_cast<double>(n - 1)) + 1;
    uint64_t seen = 0;
    for (int i = 0; i < kBuckets; ++i) {
      seen += counts[i];
      if (seen >= rank) {
        const int64_t e = Edge(i);
        return e < static_cast<int64_t>(max) ? e : static_cast<int64_t>(max);
      }
    }
    return static_cast<int64_t>(max);
  }

  std::atomic<uint64_t> buckets_[kBuckets] = {};
  std::atomic<uint64_t> count_{0}, sum_ns_{0}, max_ns_{0}, sleeps_{0};
};

}  // namespace servebench
