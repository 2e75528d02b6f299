// NVML backend of the power poller. Signatures follow nvml.h (NVML API reference):
//   nvmlReturn_t nvmlInit_v2(void); nvmlShutdown(void); const char* nvmlErrorString(nvmlReturn_t)
//   nvmlDeviceGetCount_v2(unsigned int*); nvmlDeviceGetHandleByIndex_v2(unsigned int, nvmlDevice_t*)
//   nvmlDeviceGetPowerUsage(nvmlDevice_t, unsigned int* mW)
//   nvmlDeviceGetTotalEnergyConsumption(nvmlDevice_t, unsigned long long* mJ)   (Volta and later)
//   nvmlDeviceGetUtilizationRates(nvmlDevice_t, nvmlUtilization_t*)
//   nvmlDeviceGetMemoryInfo(nvmlDevice_t, nvmlMemory_t*)
//   nvmlDeviceGetTemperature(nvmlDevice_t, nvmlTemperatureSensors_t, unsigned int*)
//   nvmlDeviceGetClockInfo(nvmlDevice_t, nvmlClockType_t, unsigned int*)
#include <dlfcn.h>

#include <cmath>

#include "telemetry_backend.h"

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

template <typename F>
void Sym(void* lib, const char* name, F* out) {
  *out = reinterpret_cast<F>(dlsym(lib, name));
}

struct Device {
  nvmlDevice_t handle;
  bool energy = true;  // cleared for good when the counter is not supported
  bool util = true, memory = true, temperature = true, clock = true;
};

class NvmlBackend : public GpuBackend {
 public:
  NvmlBackend(void* lib, const Api& api, std::vector<Device> devices) : lib_(lib), api_(api), devices_(std::move(devices)) {}
  ~NvmlBackend() override {
    api_.shutdown();
    dlclose(lib_);
  }
  const char* vendor() const override { return "nvidia"; }
  size_t device_count() const override { return devices_.size(); }
  bool has_energy(size_t i) const override { return devices_[i].energy; }

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
      const int64_t t0 = MonoNs();
      nvmlReturn_t rc = api_.energy(d.handle, &mj);
      const int64_t t1 = MonoNs();
      *t_ns = t0 + (t1 - t0) / 2;
      if (rc == NVML_SUCCESS && t1 - t0 <= kMaxCounterReadNs) r->energy_mj = static_cast<double>(mj);
      else if (rc == NVML_ERROR_NOT_SUPPORTED) d.energy = false;
      else if (rc == NVML_ERROR_GPU_IS_LOST) return Lost(rc, error);
    }
    unsigned int v = 0;
    const int64_t p0 = MonoNs();
    nvmlReturn_t rc = api_.power(d.handle, &v);
    if (*t_ns == 0) *t_ns = p0 + (MonoNs() - p0) / 2;
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

  void* lib_;
  Api api_;
  std::vector<Device> devices_;
};

}  // namespace

std::unique_ptr<GpuBackend> OpenNvml(const std::vector<std::string>& candidates, LibStatus* status) {
  std::string err;
  void* lib = OpenLibrary(candidates, &status->path, &err);
  if (!lib) {
    status->state = "not_found";
    status->message = err;
    return nullptr;
  }
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
    status->state = "invalid";
    status->message = "not an NVML library (nvmlInit_v2, nvmlDeviceGetPowerUsage, ... missing)";
    dlclose(lib);
    return nullptr;
  }
  nvmlReturn_t rc = api.init();
  if (rc != NVML_SUCCESS) {
    const char* s = api.error_string ? api.error_string(rc) : nullptr;
    status->state = "init_failed";
    status->message = std::string("nvmlInit_v2 failed: NVML error ") + std::to_string(rc) + (s ? std::string(" (") + s + ")" : "");
    dlclose(lib);
    return nullptr;
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
    status->state = "no_devices";
    status->message = "NVML reports no GPU";
    api.shutdown();
    dlclose(lib);
    return nullptr;
  }
  // Probe the energy counter once so callers know which GPUs need power integration.
  for (Device& d : devices) {
    unsigned long long mj = 0;
    if (d.energy && d.handle && api.energy(d.handle, &mj) == NVML_ERROR_NOT_SUPPORTED) d.energy = false;
  }
  status->state = "ok";
  status->message.clear();
  return std::make_unique<NvmlBackend>(lib, api, std::move(devices));
}

void* OpenLibrary(const std::vector<std::string>& candidates, std::string* loaded, std::string* error) {
  for (const std::string& path : candidates) {
    *loaded = path;
    void* lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) return lib;
    const char* e = dlerror();
    *error = e ? e : ("cannot load " + path);
  }
  if (candidates.empty()) *error = "no library path given";
  return nullptr;
}

}  // namespace servebench
