// Event streams for the sweep line (native/timeline/timeline.cc): large uninitialised arrays, buffers of
// (time key, request ref), the time -> key mapping, a two-thread helper, and the radix sort.
// Internal to the sweep; not a capability of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <thread>
#include <utility>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace servebench {
namespace sweepline {

constexpr double kInf = std::numeric_limits<double>::infinity();
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
// Large uninitialised arrays, mapped directly (a 10M-request sweep touches ~0.8 GB of fresh memory,
// 80 bytes a request). Huge pages were measured and rejected: with THP defrag on `madvise`, the
// first call of a process spent 1-2 s in the kernel compacting memory, against ~0.4 s of 4 KiB
// page faults. Populate() prefaults a share of the pages in one kernel call instead of a fault per
// page (~0.1 s less kernel time for 10M requests, every page being written anyway), so that both
// threads can do it at once; where the kernel lacks MADV_POPULATE_WRITE the pages fault as usual.
template <class T>
class Array {
 public:
  explicit Array(size_t n) : bytes_((n ? n : 1) * sizeof(T)) {
#ifdef __linux__
    if (bytes_ >= (size_t{1} << 21)) {
      void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
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
  // Prefaults part `part` of `parts` of the pages.
  void Populate(int part, int parts) const {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    if (!mapped_) return;
    constexpr size_t kPage = 4096;
    const size_t pages = (bytes_ + kPage - 1) / kPage;
    const size_t from = pages * part / parts, to = pages * (part + 1) / parts;
    if (to > from) madvise(reinterpret_cast<char*>(p_) + from * kPage, (to - from) * kPage, MADV_POPULATE_WRITE);
#else
    (void)part;
    (void)parts;
#endif
  }

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
  void Populate(int part, int parts) const {
    key.Populate(part, parts);
    ref.Populate(part, parts);
  }
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
void RadixSort(Buf& a, Buf& tmp, const TimeKeys& tk, bool two);

}  // namespace sweepline
}  // namespace servebench
