// GPU power poller: samples every GPU of the opened vendor libraries (telemetry_backend.h) on its
// own thread at a fixed interval, stamps each sample with CLOCK_MONOTONIC ns, and keeps the
// samples in a ring buffer that JS drains in batches (one call returns typed-array columns).
//
// PowerPoller (power.cc) is plain C++ (no N-API), so benchmarks and sanitizer builds can drive it
// alone (compile power.cc and telemetry_*.cc). RegisterPower (power_binding.cc) adds the JS class
// `PowerPoller` (see src/native-types.ts for its typed surface).
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gpu/telemetry_backend.h"

namespace servebench {

struct PowerSample {
  int64_t t_ns;
  uint32_t device;  // index into PowerPoller::devices()
  GpuReading r;
};

struct PolledDevice {
  GpuBackend* backend;  // null once the poller is stopped (libraries closed)
  const char* vendor;   // "nvidia" | "amd" (a literal: outlives the backend)
  size_t index;         // index within its backend (the vendor's own GPU index)
  bool has_energy = false;
  bool failed = false;
  std::string error;    // why it failed, or the last transient error
  uint32_t misses = 0;  // consecutive reads with neither power nor energy
  uint64_t samples = 0;
};

struct PowerPollerOptions {
  std::vector<std::string> nvml;    // candidate paths; empty: NVIDIA off
  std::vector<std::string> amdsmi;  // candidate paths; empty: AMD off
  int64_t interval_ns = 50'000'000;
  size_t capacity = 1 << 16;  // ring slots; the oldest sample is dropped when full
};

class PowerPoller {
 public:
  // A device with neither power nor energy for this many consecutive reads is marked failed.
  static constexpr uint32_t kMaxMisses = 20;

  explicit PowerPoller(const PowerPollerOptions& opts);
  ~PowerPoller();
  PowerPoller(const PowerPoller&) = delete;
  PowerPoller& operator=(const PowerPoller&) = delete;

  const LibStatus& nvml_status() const { return nvml_status_; }
  const LibStatus& amdsmi_status() const { return amdsmi_status_; }

  void Start();
  // Joins the thread, then closes the libraries. Idempotent.
  void Stop();
  // Moves up to `max` buffered samples (oldest first) into `out`.
  void Drain(std::vector<PowerSample>* out, size_t max);
  // Copies of the device table (safe while the thread runs).
  std::vector<PolledDevice> Devices() const;

  uint64_t ticks() const { return ticks_.load(); }
  uint64_t dropped() const { return dropped_.load(); }
  // CPU time used by the polling thread so far (its thread CPU clock; the final value once stopped).
  int64_t thread_cpu_ns() const;
  bool running() const { return running_; }

 private:
  void Run();
  void Tick();
  void Push(const PowerSample& s);

  struct TickResult {
    PowerSample sample;
    ReadOutcome outcome;
    std::string error;
  };
  LibStatus nvml_status_, amdsmi_status_;
  std::vector<std::unique_ptr<GpuBackend>> backends_;
  std::vector<PolledDevice> devices_;  // guarded by mu_ for readers; written by the thread
  int64_t interval_ns_;

  mutable std::mutex mu_;
  std::atomic<bool> stop_requested_{false};
  std::vector<TickResult> results_;  // the poller thread's scratch, one slot per device
  std::vector<PowerSample> ring_;
  size_t head_ = 0, size_ = 0;

  std::thread thread_;
  bool running_ = false;
  bool stopped_ = false;
  std::atomic<uint64_t> ticks_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<int64_t> thread_cpu_ns_{0};
  clockid_t cpu_clock_{};
  std::atomic<bool> cpu_clock_valid_{false};
};

}  // namespace servebench
