// HDR histogram (after Gil Tene's HdrHistogram design, written here).
//
// Lowest discernible value 1, 1..5 significant decimal digits, int64 counts,
// and a counts array that grows on demand (auto-resize) up to kMaxValue.
// Bucket layout, percentile rank and the V2 encoding follow HdrHistogram
// exactly, so encodings interoperate with the Java and JS implementations.
//
// Alongside the buckets it keeps EXACT running statistics of the recorded
// values (count, min, max, a compensated sum, and the sum of squared
// deviations merged block by block), so mean, min, max and std are not
// bucketed; only percentiles are. A histogram made by Decode has only its
// buckets: its statistics are estimated from them (median-equivalent values,
// as HdrHistogram does) and are exact only where buckets are one unit wide.
//
// Values arrive as doubles (or int64), are multiplied by the caller's scale,
// and are rounded half up to an integer. Negative values are clamped to 0 and
// counted in clamped(); NaN, infinities and values above kMaxValue are
// refused (the whole batch is rolled back).
//
// hdr.cc (recording, statistics, percentiles, merge) and hdr_codec.cc (the
// V2 encoding) are plain C++ with no N-API dependency: they build alone for
// fuzzing and sanitizer runs. hdr_binding.cc holds RegisterHdr, which adds the JS
// class `Histogram` (typed in src/native-types.ts).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace servebench {

// Neumaier's compensated addition: s + c carries the sum with its error.
inline void Neumaier(double& s, double& c, double x) {
  const double t = s + x;
  c += std::fabs(s) >= std::fabs(x) ? (s - t) + x : (x - t) + s;
  s = t;
}

class HdrHistogram {
 public:
  // As HdrHistogram: values up to Long.MAX_VALUE / 2.
  static constexpr int64_t kMaxValue = INT64_MAX / 2;
  static constexpr int kMinDigits = 1;
  static constexpr int kMaxDigits = 5;

  // digits in [1, 5], highest_trackable in [2, kMaxValue]; callers check.
  HdrHistogram(int digits, int64_t highest_trackable);

  int digits() const { return digits_; }
  // The largest value the current counts array covers (grows on demand).
  int64_t highest_trackable() const { return highest_; }
  int64_t count() const { return count_; }
  int64_t clamped() const { return clamped_; }
  // The statistics of the recorded (scaled, pre-rounding) values; 0 when empty.
  double min() const { return count_ ? min_ : 0; }
  double max() const { return count_ ? max_ : 0; }
  double sum() const { return sum_ + sum_comp_; }
  double mean() const;
  // Population standard deviation (divide by n).
  double stddev() const;

  // Records one value times `scale`. False (nothing recorded) for a NaN,
  // infinite or too large value.
  bool Record(double value, double scale = 1.0);
  // Records n values times `scale`, all or nothing. Returns n on success, or
  // the index of the first refused value (nothing is then recorded).
  size_t RecordBatch(const double* values, size_t n, double scale);
  size_t RecordBatch(const int64_t* values, size_t n, double scale);
  // Records values[i] times `scale`, weights[i] times each (a whole number in
  // [0, 2^53]; the statistics count it weights[i] times), all or nothing.
  // Returns n, or the index of the first refused value or weight.
  size_t RecordWeighted(const double* values, const double* weights, size_t n, double scale);

  // HdrHistogram's value at percentile p in [0, 100]: the highest value
  // equivalent to the bucket holding the value of rank max(1, ceil(p/100 · count))
  // (the lowest equivalent for p = 0), clamped to [min, max]. 0 when empty.
  double ValueAtPercentile(double p) const;
  // Many percentiles in one walk over the counts.
  void ValuesAtPercentiles(const double* ps, size_t n, double* out) const;
  // The most populated bucket (the lowest one on ties): its median-equivalent
  // value, clamped to [min, max], and its count. {0, 0} when empty.
  void Mode(double* value, int64_t* count) const;

  // Adds other's counts and statistics. False when the digits differ.
  bool Merge(const HdrHistogram& other);
  void Reset();

  // The uncompressed V2 encoding (big-endian 40-byte header, then the counts
  // as ZigZag LEB128-64b9B words with zero runs as negative counts).
  std::vector<uint8_t> Encode() const;
  // Parses an uncompressed V2 encoding; on failure returns false and says why.
  static bool Decode(const uint8_t* p, size_t n, HdrHistogram* out, std::string* error);

  // Bucket geometry, exposed for tests and the encoder.
  size_t CountsIndex(int64_t v) const;
  int64_t ValueFromIndex(size_t index) const;
  int64_t LowestEquivalent(int64_t v) const { return ValueFromIndex(CountsIndex(v)); }
  int64_t HighestEquivalent(int64_t v) const;
  size_t counts_length() const { return counts_.size(); }

 private:
  struct BlockStats {
    int64_t clamped;
    double lo, hi, sum, comp, m2;
  };
  template <typename T>
  size_t RecordBatchImpl(const T* values, size_t n, double scale);
  // Scales, checks and clamps k values, writes their counts indexes and
  // returns their statistics; false if one is NaN, infinite or too large.
  template <typename T>
  bool ScanBlock(const T* in, size_t k, double scale, uint64_t* idx, BlockStats* st) const;
  // The counts index of a scaled, clamped value once rounded half up.
  size_t IndexOfScaled(double x) const;
  // Grows the counts array so it covers `value`.
  void EnsureCovers(int64_t value);
  size_t LengthFor(int64_t highest) const;
  // Adds a block's statistics (Chan et al.'s pairwise update for the squared deviations).
  void AddBlockStats(int64_t n, double sum, double comp, double m2, double lo, double hi);
  // Statistics from the buckets alone (after Decode).
  void StatsFromCounts();
  // Rank → reported value, shared by the single and batch queries.
  double ReportAt(size_t index, double p) const;

  int digits_;
  int sub_half_mag_;   // log2 of half the sub-bucket count
  int64_t sub_count_;  // sub-buckets per bucket (a power of two)
  int64_t sub_half_;   // sub_count_ / 2
  int64_t sub_mask_;   // sub_count_ - 1
  int64_t highest_;
  std::vector<int64_t> counts_;

  int64_t count_ = 0;
  int64_t clamped_ = 0;
  double min_ = 0, max_ = 0;
  double sum_ = 0, sum_comp_ = 0;  // Neumaier-compensated sum
  double m2_ = 0;                  // sum of squared deviations from the mean
};

}  // namespace servebench
