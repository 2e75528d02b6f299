// The duration-weighted histogram of the sweep line (native/timeline/timeline.cc). Header-only: Add runs for
// every curve on every step of the sweep and must inline there.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "timeline/timeline_sort.h"

namespace servebench {
namespace sweepline {

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

}  // namespace sweepline
}  // namespace servebench
