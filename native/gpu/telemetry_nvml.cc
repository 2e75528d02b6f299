// NVML backend of the power poller. Signatures follow nvml.h (NVML API reference):
//   nvmlReturn_t nvmlInit_v2(void); nvmlShutdown(void); const char* nvmlErrorString(nvmlReturn_t)
//   nvmlDeviceGetCount_v2(unsigned int*); nvmlDeviceGetHandleByIndex_v2(unsigned int, nvmlDevice_t*)
//   nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned int* mW)
//   nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long* mJ)   (Volta and later)
//   nvmlDeviceGetUtilizationRates(nvmlDevice_t, nvmlUtilization_t*)
//   nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t*)
//   nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*)
//   nvmlDeviceGetClockInfo(nvmlDevice_t, nvmlClockType_t, unsigned int*)
#include <cmath>

#include "gpu/telemetry_backend.h"

namespace servebench {

namespace {

using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr nvmlReturn_t NVML_ERROR_GPU_IS_LOST = 15;
constexpr int NVML_TEMPERATURE_GPU = 0;
constexpr int NVML_CLOCK_SM = 1;

struct Api {
  nvmlReturn_t (*init)();
  nvmlReturn_t (*shutdown)();
  const char* (*error_string)(nvmlReturn_t);
  nvmlReturn_t (*count)(unsigned int*);
  nvmlReturn_t (*handle)(unsigned int, nvmlDevice_t*);
  nvmlReturn_t (*power)(nvmlDevice_t, unsigned int*);
  nvmlReturn_t (*energy)(nvmlDevice_t, unsigned long long*);
  nvmlReturn_t (*util)(nvmlDevice_t, nvmlUtilization_t*);
  nvmlReturn_t (*memory)(nvmlDevice_t, nvmlMemory_t*);
  nvmlReturn_t (*temperature)(nvmlDevice_t, int, unsigned int*);
  nvmlReturn_t (*clock)(nvmlDevice_t, int, unsigned int*);
};

struct Device {
  nvmlDevice_t handle;
  bool energy = true;  // cleared for good when the counter is not supported
  bool util = true, memory = true, temperature = true, clock = true;
};

class NvmlBackend : public LibraryBackend<Api, Device> {
 public:
  using LibraryBackend::LibraryBackend;
  const char* vendor() const override { return "nvidia"; }

  ReadOutcome Read(size_t i, GpuReading* r, int64_t* t_ns, std::string* error) override {
    Device& d = devices_[i];
    const double nan = std::nan("");
    *r = GpuReading{nan, nan, nan, nan, nan, nan, nan};
    if (!d.handle) {
      *error = "nvmlDeviceGetHandleByIndex_v2 failed";
      return ReadOutcome::kLost;
    }
    // Energy first, stamped around the call: it is the field the energy metrics use.
    *t_ns = 0;
    if (d.energy) {
      unsigned long long mj = 0;
      bool in_time = false;
      nvmlReturn_t rc = TimedCall([&] { return api_.energy(d.handle, &mj); }, t_ns, &in_time);
      if (rc == NVML_SUCCESS && in_time) r->energy_mj = static_cast<double>(mj);
      else if (rc == NVML_ERROR_NOT_SUPPORTED) d.energy = false;
      else if (rc == NVML_ERROR_GPU_IS_LOST) return Lost(rc, error);
    }
    unsigned int v = 0;
    int64_t t_power = 0;
    nvmlReturn_t rc = TimedCall([&] { return api_.power(d.handle, &v); }, &t_power);
    if (*t_ns == 0) *t_ns = t_power;
    if (rc == NVML_SUCCESS) r->power_mw = v;
    else if (rc == NVML_ERROR_GPU_IS_LOST) return Lost(rc, error);
    else if (rc != NVML_ERROR_NOT_SUPPORTED) *error = Message(rc);
    if (d.util) {
      nvmlUtilization_t u{};
      rc = api_.util(d.handle, &u);
      if (rc == NVML_SUCCESS) {
        r->gpu_util_pct = u.gpu;
        r->mem_util_pct = u.memory;
      } else if (rc == NVML_ERROR_NOT_SUPPORTED) {
        d.util = false;
      }
    }
    if (d.memory) {
      nvmlMemory_t m{};
      rc = api_.memory(d.handle, &m);
      if (rc == NVML_SUCCESS) r->mem_used_bytes = static_cast<double>(m.used);
      else if (rc == NVML_ERROR_NOT_SUPPORTED) d.memory = false;
    }
    if (d.temperature) {
      rc = api_.temperature(d.handle, NVML_TEMPERATURE_GPU, &v);
      if (rc == NVML_SUCCESS) r->temp_c = v;
      else if (rc == NVML_ERROR_NOT_SUPPORTED) d.temperature = false;
    }
    if (d.clock) {
      rc = api_.clock(d.handle, NVML_CLOCK_SM, &v);
      if (rc == NVML_SUCCESS) r->sm_clock_mhz = v;
      else if (rc == NVML_ERROR_NOT_SUPPORTED) d.clock = false;
    }
    return ReadOutcome::kOk;
  }

 private:
  std::string Message(nvmlReturn_t rc) const {
    const char* s = api_.error_string ? api_.error_string(rc) : nullptr;
    return std::string("NVML error ") + std::to_string(rc) + (s ? std::string(" (") + s + ")" : "");
  }
  ReadOutcome Lost(nvmlReturn_t rc, std::string* error) {
    *error = Message(rc);
    return ReadOutcome::kLost;
  }
};

}  // namespace

std::unique_ptr<GpuBackend> OpenNvml(const std::vector<std::string>& candidates, LibStatus* status) {
  void* lib = OpenLibraryOrReport(candidates, status);
  if (!lib) return nullptr;
  Api api{};
  Sym(lib, "nvmlInit_v2", &api.init);
  Sym(lib, "nvmlShutdown", &api.shutdown);
  Sym(lib, "nvmlErrorString", &api.error_string);
  Sym(lib, "nvmlDeviceGetCount_v2", &api.count);
  Sym(lib, "nvmlDeviceGetHandleByIndex_v2", &api.handle);
  Sym(lib, "nvmlDeviceGetPowerUsage", &api.power);
  Sym(lib, "nvmlDeviceGetTotalEnergyConsumption", &api.energy);
  Sym(lib, "nvmlDeviceGetUtilizationRates", &api.util);
  Sym(lib, "nvmlDeviceGetMemoryInfo", &api.memory);
  Sym(lib, "nvmlDeviceGetTemperature", &api.temperature);
  Sym(lib, "nvmlDeviceGetClockInfo", &api.clock);
  if (!api.init || !api.shutdown || !api.count || !api.handle || !api.power) {
    return FailOpen(status, "invalid", "not an NVML library (nvmlInit_v2, nvmlDeviceGetPowerUsage, ... missing)", lib);
  }
  nvmlReturn_t rc = api.init();
  if (rc != NVML_SUCCESS) {
    const char* s = api.error_string ? api.error_string(rc) : nullptr;
    return FailOpen(
        status, "init_failed",
        std::string("nvmlInit_v2 failed: NVML error ") + std::to_string(rc) + (s ? std::string(" (") + s + ")" : ""),
        lib);
  }
  unsigned int n = 0;
  std::vector<Device> devices;
  if (api.count(&n) == NVML_SUCCESS) {
    for (unsigned int i = 0; i < n; i++) {
      Device d{};
      // A handle that cannot be had keeps its slot, so indices match nvidia-smi and the inventory.
      if (api.handle(i, &d.handle) != NVML_SUCCESS) d.handle = nullptr;
      d.energy = api.energy != nullptr;
      d.util = api.util != nullptr;
      d.memory = api.memory != nullptr;
      d.temperature = api.temperature != nullptr;
      d.clock = api.clock != nullptr;
      devices.push_back(d);
    }
  }
  if (devices.empty()) {
    api.shutdown();
    return FailOpen(status, "no_devices", "NVML reports no GPU", lib);
  }
  // Probe the energy counter once so callers know which GPUs need power integration.
  for (Device& d : devices) {
    unsigned long long mj = 0;
    if (d.energy && d.handle && api.energy(d.handle, &mj) == NVML_ERROR_NOT_SUPPORTED) d.energy = false;
  }
  ReportOpened(status);
  return std::make_unique<NvmlBackend>(lib, api, std::move(devices));
}

}  // namespace servebench
