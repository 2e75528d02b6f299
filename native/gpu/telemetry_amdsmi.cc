// AMD SMI backend of the power poller. Signatures follow amdsmi.h (ROCm AMD SMI library):
//   amdsmi_status_t amdsmi_init(uint64_t flags); amdsmi_shut_down(void)
//   amdsmi_get_socket_handles(uint32_t* count, amdsmi_socket_handle* handles)
//   amdsmi_get_processor_handles(amdsmi_socket_handle, uint32_t* count, amdsmi_processor_handle*)
//   amdsmi_get_processor_type(amdsmi_processor_handle, processor_type_t*)
//   amdsmi_get_power_info(amdsmi_processor_handle, amdsmi_power_info_t*)
//   amdsmi_get_energy_count(amdsmi_processor_handle, uint64_t* energy_accumulator,
//                           float* counter_resolution /* uJ */, uint64_t* timestamp)
//   amdsmi_get_gpu_activity(amdsmi_processor_handle, amdsmi_engine_usage_t*)
//   amdsmi_get_gpu_memory_usage(amdsmi_processor_handle, amdsmi_memory_type_t, uint64_t*)
//   amdsmi_get_temp_metric(amdsmi_processor_handle, amdsmi_temperature_type_t,
//                          amdsmi_temperature_metric_t, int64_t*)
//   amdsmi_get_clock_info(amdsmi_processor_handle, amdsmi_clk_type_t, amdsmi_clk_info_t*)
//
// Struct layouts have changed between ROCm releases, so every struct is read from a zeroed buffer
// larger than any published layout, and only fields whose offset is the same in all of them are
// read (activity, clock), or read with a layout check (power, see PowerWatts).
#include <cmath>
#include <cstring>

#include "gpu/telemetry_backend.h"

namespace servebench {

namespace {

using amdsmi_status_t = uint32_t;
using handle_t = void*;
constexpr amdsmi_status_t AMDSMI_STATUS_SUCCESS = 0;
constexpr amdsmi_status_t AMDSMI_STATUS_NOT_SUPPORTED = 2;
constexpr amdsmi_status_t AMDSMI_STATUS_NOT_FOUND = 31;
constexpr uint64_t AMDSMI_INIT_AMD_GPUS = 1u << 1;
constexpr int AMD_GPU = 1;
constexpr int AMDSMI_MEM_TYPE_VRAM = 0;
constexpr int TEMPERATURE_TYPE_EDGE = 0;
constexpr int TEMPERATURE_TYPE_JUNCTION = 1;  // "hotspot" in newer headers
constexpr int AMDSMI_TEMP_CURRENT = 0;
constexpr int CLK_TYPE_GFX = 0;
// Larger than every published amdsmi_power_info_t / amdsmi_engine_usage_t / amdsmi_clk_info_t.
constexpr size_t kStructBuf = 512;

struct Api {
  amdsmi_status_t (*init)(uint64_t);
  amdsmi_status_t (*shutdown)();
  amdsmi_status_t (*sockets)(uint32_t*, handle_t*);
  amdsmi_status_t (*processors)(handle_t, uint32_t*, handle_t*);
  amdsmi_status_t (*type)(handle_t, int*);
  amdsmi_status_t (*power)(handle_t, void*);
  amdsmi_status_t (*energy)(handle_t, uint64_t*, float*, uint64_t*);
  amdsmi_status_t (*activity)(handle_t, void*);
  amdsmi_status_t (*memory)(handle_t, int, uint64_t*);
  amdsmi_status_t (*temperature)(handle_t, int, int, int64_t*);
  amdsmi_status_t (*clock)(handle_t, int, void*);
};

// Socket power in watts from an amdsmi_power_info_t buffer. ROCm 6.3+ starts the struct with
// `uint64_t socket_power` (W); ROCm 6.1/6.2 with `uint32_t current_socket_power,
// average_socket_power`; 6.0 with `uint32_t average_socket_power, gfx_voltage`. Read as one
// uint64: the new layout has a zero upper half (watts fit in 32 bits), the old ones do not (a
// second non-zero field), and then the first 32-bit field is the power. UINT32_MAX = unsupported.
double PowerWatts(const unsigned char* buf) {
  uint64_t v;
  std::memcpy(&v, buf, sizeof v);
  const uint32_t lo = static_cast<uint32_t>(v);
  const uint32_t hi = static_cast<uint32_t>(v >> 32);
  if (hi == 0) return lo == UINT32_MAX ? std::nan("") : lo;
  if (lo != 0 && lo != UINT32_MAX) return lo;
  return (hi != UINT32_MAX && v != UINT64_MAX) ? hi : std::nan("");
}

struct Device {
  handle_t handle;
  bool energy = true, activity = true, memory = true, temperature = true, clock = true;
  int temp_sensor = TEMPERATURE_TYPE_JUNCTION;
};

class AmdSmiBackend : public LibraryBackend<Api, Device> {
 public:
  using LibraryBackend::LibraryBackend;
  const char* vendor() const override { return "amd"; }

  ReadOutcome Read(size_t i, GpuReading* r, int64_t* t_ns, std::string* error) override {
    Device& d = devices_[i];
    const double nan = std::nan("");
    *r = GpuReading{nan, nan, nan, nan, nan, nan, nan};
    *t_ns = 0;
    if (d.energy) {
      uint64_t acc = 0, ts = 0;
      float res = 0;
      bool in_time = false;
      amdsmi_status_t rc = TimedCall([&] { return api_.energy(d.handle, &acc, &res, &ts); }, t_ns, &in_time);
      // energy (uJ) = accumulator x resolution (uJ per count)
      if (rc == AMDSMI_STATUS_SUCCESS && in_time) {
        r->energy_mj = static_cast<double>(acc) * static_cast<double>(res) / 1e3;
      } else if (rc == AMDSMI_STATUS_NOT_SUPPORTED) d.energy = false;
      else if (rc == AMDSMI_STATUS_NOT_FOUND) return Lost(rc, error);
    }
    alignas(8) unsigned char buf[kStructBuf];
    std::memset(buf, 0, sizeof buf);
    int64_t t_power = 0;
    amdsmi_status_t rc = TimedCall([&] { return api_.power(d.handle, buf); }, &t_power);
    if (*t_ns == 0) *t_ns = t_power;
    if (rc == AMDSMI_STATUS_SUCCESS) r->power_mw = PowerWatts(buf) * 1000.0;
    else if (rc == AMDSMI_STATUS_NOT_FOUND) return Lost(rc, error);
    else if (rc != AMDSMI_STATUS_NOT_SUPPORTED) *error = "amdsmi_get_power_info failed: status " + std::to_string(rc);
    if (d.activity) {
      std::memset(buf, 0, sizeof buf);
      rc = api_.activity(d.handle, buf);
      if (rc == AMDSMI_STATUS_SUCCESS) {
        uint32_t gfx, umc;  // gfx_activity, umc_activity: the first two fields in every layout
        std::memcpy(&gfx, buf, 4);
        std::memcpy(&umc, buf + 4, 4);
        if (gfx != UINT32_MAX) r->gpu_util_pct = gfx;
        if (umc != UINT32_MAX) r->mem_util_pct = umc;
      } else if (rc == AMDSMI_STATUS_NOT_SUPPORTED) {
        d.activity = false;
      }
    }
    if (d.memory) {
      uint64_t used = 0;
      rc = api_.memory(d.handle, AMDSMI_MEM_TYPE_VRAM, &used);
      if (rc == AMDSMI_STATUS_SUCCESS) r->mem_used_bytes = static_cast<double>(used);
      else if (rc == AMDSMI_STATUS_NOT_SUPPORTED) d.memory = false;
    }
    if (d.temperature) {
      int64_t t = 0;
      rc = api_.temperature(d.handle, d.temp_sensor, AMDSMI_TEMP_CURRENT, &t);
      if (rc == AMDSMI_STATUS_SUCCESS) {
        r->temp_c = static_cast<double>(t);
      } else if (rc == AMDSMI_STATUS_NOT_SUPPORTED) {
        // Junction first (what the GPU throttles on), then edge; then give up.
        if (d.temp_sensor == TEMPERATURE_TYPE_JUNCTION) d.temp_sensor = TEMPERATURE_TYPE_EDGE;
        else d.temperature = false;
      }
    }
    if (d.clock) {
      std::memset(buf, 0, sizeof buf);
      rc = api_.clock(d.handle, CLK_TYPE_GFX, buf);
      if (rc == AMDSMI_STATUS_SUCCESS) {
        uint32_t mhz;  // `clk` (or `cur_clk` in older headers): the first field
        std::memcpy(&mhz, buf, 4);
        if (mhz != UINT32_MAX) r->sm_clock_mhz = mhz;
      } else if (rc == AMDSMI_STATUS_NOT_SUPPORTED) {
        d.clock = false;
      }
    }
    return ReadOutcome::kOk;
  }

 private:
  ReadOutcome Lost(amdsmi_status_t rc, std::string* error) {
    *error = "AMD SMI status " + std::to_string(rc) + " (device not found)";
    return ReadOutcome::kLost;
  }
};

}  // namespace

std::unique_ptr<GpuBackend> OpenAmdSmi(const std::vector<std::string>& candidates, LibStatus* status) {
  void* lib = OpenLibraryOrReport(candidates, status);
  if (!lib) return nullptr;
  Api api{};
  Sym(lib, "amdsmi_init", &api.init);
  Sym(lib, "amdsmi_shut_down", &api.shutdown);
  Sym(lib, "amdsmi_get_socket_handles", &api.sockets);
  Sym(lib, "amdsmi_get_processor_handles", &api.processors);
  Sym(lib, "amdsmi_get_processor_type", &api.type);
  Sym(lib, "amdsmi_get_power_info", &api.power);
  Sym(lib, "amdsmi_get_energy_count", &api.energy);
  Sym(lib, "amdsmi_get_gpu_activity", &api.activity);
  Sym(lib, "amdsmi_get_gpu_memory_usage", &api.memory);
  Sym(lib, "amdsmi_get_temp_metric", &api.temperature);
  Sym(lib, "amdsmi_get_clock_info", &api.clock);
  if (!api.init || !api.shutdown || !api.sockets || !api.processors || !api.power) {
    return FailOpen(status, "invalid", "not an AMD SMI library (amdsmi_init, amdsmi_get_power_info, ... missing)", lib);
  }
  amdsmi_status_t rc = api.init(AMDSMI_INIT_AMD_GPUS);
  if (rc != AMDSMI_STATUS_SUCCESS) {
    return FailOpen(status, "init_failed", "amdsmi_init failed: status " + std::to_string(rc), lib);
  }
  std::vector<Device> devices;
  uint32_t nsock = 0;
  if (api.sockets(&nsock, nullptr) == AMDSMI_STATUS_SUCCESS && nsock > 0) {
    std::vector<handle_t> sockets(nsock);
    if (api.sockets(&nsock, sockets.data()) == AMDSMI_STATUS_SUCCESS) {
      sockets.resize(nsock);
      for (handle_t s : sockets) {
        uint32_t nproc = 0;
        if (api.processors(s, &nproc, nullptr) != AMDSMI_STATUS_SUCCESS || nproc == 0) continue;
        std::vector<handle_t> procs(nproc);
        if (api.processors(s, &nproc, procs.data()) != AMDSMI_STATUS_SUCCESS) continue;
        procs.resize(nproc);
        for (handle_t p : procs) {
          int type = AMD_GPU;
          if (api.type && api.type(p, &type) == AMDSMI_STATUS_SUCCESS && type != AMD_GPU) continue;
          Device d{};
          d.handle = p;
          d.energy = api.energy != nullptr;
          d.activity = api.activity != nullptr;
          d.memory = api.memory != nullptr;
          d.temperature = api.temperature != nullptr;
          d.clock = api.clock != nullptr;
          devices.push_back(d);
        }
      }
    }
  }
  if (devices.empty()) {
    api.shutdown();
    return FailOpen(status, "no_devices", "AMD SMI reports no GPU", lib);
  }
  for (Device& d : devices) {
    uint64_t acc = 0, ts = 0;
    float res = 0;
    if (d.energy && api.energy(d.handle, &acc, &res, &ts) == AMDSMI_STATUS_NOT_SUPPORTED) d.energy = false;
  }
  ReportOpened(status);
  return std::make_unique<AmdSmiBackend>(lib, api, std::move(devices));
}

}  // namespace servebench
