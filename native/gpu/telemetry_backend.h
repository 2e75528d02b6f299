// GPU vendor libraries (NVML, AMD SMI) behind one small interface, for the power poller.
//
// Each library is dlopen'ed at run time, never linked, so the addon builds and runs on hosts
// without a GPU driver. The few types and signatures used are declared in the .cc files from the
// vendors' documented headers (nvml.h, amdsmi.h); no vendor header is needed to build.
#pragma once

#include <time.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace servebench {

// One reading of one GPU. A field the device could not report this time is NaN.
struct GpuReading {
  double power_mw;
  double energy_mj;  // the device's total energy counter (monotonic until a driver reload)
  double gpu_util_pct;
  double mem_util_pct;
  double mem_used_bytes;
  double temp_c;
  double sm_clock_mhz;
};

inline int64_t MonoNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// A counter read that took longer than this (the thread was preempted, the driver stalled) has
// no trustworthy time: its value is dropped (NaN) rather than stamped wrong.
constexpr int64_t kMaxCounterReadNs = 5'000'000;

enum class ReadOutcome {
  kOk,    // the reading is filled (fields may still be NaN)
  kLost,  // the device is gone (fell off the bus, removed): stop polling it
};

// What happened when a library was opened: TS turns this into one line for the user.
struct LibStatus {
  // "off" (not asked for), "ok", "not_found" (dlopen failed), "invalid" (loaded, but not the
  // expected library), "init_failed", "no_devices".
  std::string state = "off";
  std::string path;     // the path that was loaded (or the last one tried)
  std::string message;  // one line; empty when state is "ok"
};

class GpuBackend {
 public:
  virtual ~GpuBackend() = default;
  virtual const char* vendor() const = 0;  // "nvidia" | "amd"
  virtual size_t device_count() const = 0;
  // Whether device i has a total-energy counter (probed once at open).
  virtual bool has_energy(size_t i) const = 0;
  // Reads device i; on kLost, `error` says why. `t_ns` gets the CLOCK_MONOTONIC time of the
  // reading: the midpoint of the energy-counter call (of the power call without a counter).
  // Called from the poller thread only.
  virtual ReadOutcome Read(size_t i, GpuReading* out, int64_t* t_ns, std::string* error) = 0;
};

// Open the first candidate path that loads, initialise the library and enumerate its GPUs.
// Returns null (and fills `status`) when no usable library or no GPU was found.
std::unique_ptr<GpuBackend> OpenNvml(const std::vector<std::string>& candidates, LibStatus* status);
std::unique_ptr<GpuBackend> OpenAmdSmi(const std::vector<std::string>& candidates, LibStatus* status);

// --- Shared by the vendor backends (telemetry_backend.cc); vendor files keep only vendor calls.

// dlopen helper shared by both backends: RTLD_NOW | RTLD_LOCAL; null and `error` on failure.
void* OpenLibrary(const std::vector<std::string>& candidates, std::string* loaded, std::string* error);
// OpenLibrary that reports "not_found" in `status` on failure.
void* OpenLibraryOrReport(const std::vector<std::string>& candidates, LibStatus* status);
void CloseLibrary(void* lib);
void* LibrarySymbol(void* lib, const char* name);

template <typename F>
void Sym(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(LibrarySymbol(lib, name));
}

// Fills `status` with a failed open and closes `lib`; returns null for the Open* caller to return.
std::nullptr_t FailOpen(LibStatus* status, const char* state, std::string message, void* lib);
void ReportOpened(LibStatus* status);

// Runs `call`, stamping the CLOCK_MONOTONIC midpoint of the call into *t_ns; *in_time says whether
// it returned within kMaxCounterReadNs. Returns what `call` returned.
template <typename Call>
auto TimedCall(Call&& call, int64_t* t_ns, bool* in_time = nullptr) {
  const int64_t t0 = MonoNs();
  auto rc = call();
  const int64_t t1 = MonoNs();
  *t_ns = t0 + (t1 - t0) / 2;
  if (in_time) *in_time = t1 - t0 <= kMaxCounterReadNs;
  return rc;
}

// The part of a backend that does not depend on the vendor: owns the library and its per-device
// state, and shuts the library down when destroyed. `Api` needs a `shutdown()` pointer.
template <typename Api, typename Device>
class LibraryBackend : public GpuBackend {
 public:
  LibraryBackend(void* lib, const Api& api, std::vector<Device> devices)
      : lib_(lib), api_(api), devices_(std::move(devices)) {}
  ~LibraryBackend() override {
    api_.shutdown();
    CloseLibrary(lib_);
  }
  size_t device_count() const override { return devices_.size(); }
  bool has_energy(size_t i) const override { return devices_[i].energy; }

 protected:
  void* lib_;
  Api api_;
  std::vector<Device> devices_;
};

}  // namespace servebench
