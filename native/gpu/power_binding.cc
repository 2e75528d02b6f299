// The JS binding of the GPU power poller (power.h): class PowerPoller.
#include <napi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bindings.h"
#include "common/errors.h"
#include "gpu/power.h"

namespace servebench {

namespace {

std::vector<std::string> StringList(Napi::Env env, Napi::Object opts, const char* key) {
  std::vector<std::string> out;
  Napi::Value v = opts.Get(key);
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) ThrowBadArg(env, std::string("PowerPoller: ") + key + " must be an array of strings");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); i++) {
    Napi::Value s = a.Get(i);
    if (!s.IsString()) ThrowBadArg(env, std::string("PowerPoller: ") + key + " must be an array of strings");
    out.push_back(s.As<Napi::String>().Utf8Value());
  }
  return out;
}

double NumberOpt(Napi::Env env, Napi::Object opts, const char* key, double dflt, double min, double max) {
  Napi::Value v = opts.Get(key);
  if (v.IsUndefined()) return dflt;
  if (!v.IsNumber()) ThrowBadArg(env, std::string("PowerPoller: ") + key + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= min && d <= max)) ThrowBadArg(env, std::string("PowerPoller: ") + key + " is out of range");
  return d;
}

Napi::Object StatusObject(Napi::Env env, const LibStatus& s) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("state", s.state);
  o.Set("path", s.path);
  o.Set("message", s.message);
  return o;
}

class PowerPollerWrap : public Napi::ObjectWrap<PowerPollerWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "PowerPoller",
                       {
                           InstanceMethod<&PowerPollerWrap::Libraries>("libraries"),
                           InstanceMethod<&PowerPollerWrap::DevicesJs>("devices"),
                           InstanceMethod<&PowerPollerWrap::StartJs>("start"),
                           InstanceMethod<&PowerPollerWrap::DrainJs>("drain"),
                           InstanceMethod<&PowerPollerWrap::StopJs>("stop"),
                           InstanceMethod<&PowerPollerWrap::Stats>("stats"),
                       });
  }

  explicit PowerPollerWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<PowerPollerWrap>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) ThrowBadArg(env, "PowerPoller: expected an options object");
    Napi::Object o = info[0].As<Napi::Object>();
    PowerPollerOptions opts;
    opts.nvml = StringList(env, o, "nvml");
    opts.amdsmi = StringList(env, o, "amdsmi");
    opts.interval_ns = static_cast<int64_t>(NumberOpt(env, o, "interval_ns", 50e6, 1e6, 3.6e12));
    opts.capacity = static_cast<size_t>(NumberOpt(env, o, "capacity", 65536, 16, 1 << 24));
    poller_ = std::make_unique<PowerPoller>(opts);
    // Stop the thread if the environment goes away (worker exit) before stop() was called.
    napi_add_env_cleanup_hook(env, &PowerPollerWrap::Cleanup, this);
    env_ = env;
  }

  ~PowerPollerWrap() override {
    napi_remove_env_cleanup_hook(env_, &PowerPollerWrap::Cleanup, this);
    poller_.reset();
  }

 private:
  static void Cleanup(void* self) { static_cast<PowerPollerWrap*>(self)->poller_->Stop(); }

  Napi::Value Libraries(const Napi::CallbackInfo& info) {
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("nvidia", StatusObject(info.Env(), poller_->nvml_status()));
    o.Set("amd", StatusObject(info.Env(), poller_->amdsmi_status()));
    return o;
  }

  Napi::Value DevicesJs(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    std::vector<PolledDevice> devs = poller_->Devices();
    Napi::Array out = Napi::Array::New(env, devs.size());
    for (uint32_t i = 0; i < devs.size(); i++) {
      const PolledDevice& d = devs[i];
      Napi::Object o = Napi::Object::New(env);
      o.Set("vendor", d.vendor);
      o.Set("index", static_cast<double>(d.index));
      o.Set("has_energy", d.has_energy);
      o.Set("failed", d.failed);
      o.Set("error", d.error);
      o.Set("samples", static_cast<double>(d.samples));
      out.Set(i, o);
    }
    return out;
  }

  Napi::Value StartJs(const Napi::CallbackInfo& info) {
    poller_->Start();
    return info.Env().Undefined();
  }

  Napi::Value StopJs(const Napi::CallbackInfo& info) {
    poller_->Stop();
    return info.Env().Undefined();
  }

  Napi::Value DrainJs(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    size_t max = SIZE_MAX;
    if (info.Length() > 0 && !info[0].IsUndefined()) {
      if (!info[0].IsNumber()) ThrowBadArg(env, "drain: max must be a number");
      const double m = info[0].As<Napi::Number>().DoubleValue();
      if (!(m >= 0)) ThrowBadArg(env, "drain: max must be >= 0");
      max = m >= 9e15 ? SIZE_MAX : static_cast<size_t>(m);
    }
    scratch_.clear();
    poller_->Drain(&scratch_, max);
    const size_t n = scratch_.size();
    Napi::Uint32Array device = Napi::Uint32Array::New(env, n);
    Napi::TypedArrayOf<int64_t> t = Napi::TypedArrayOf<int64_t>::New(env, n, napi_bigint64_array);
    Napi::Float64Array cols[7] = {Napi::Float64Array::New(env, n), Napi::Float64Array::New(env, n),
                                  Napi::Float64Array::New(env, n), Napi::Float64Array::New(env, n),
                                  Napi::Float64Array::New(env, n), Napi::Float64Array::New(env, n),
                                  Napi::Float64Array::New(env, n)};
    double* c[7];
    for (int k = 0; k < 7; k++) c[k] = cols[k].Data();
    uint32_t* dev = device.Data();
    int64_t* ts = t.Data();
    for (size_t i = 0; i < n; i++) {
      const PowerSample& s = scratch_[i];
      dev[i] = s.device;
      ts[i] = s.t_ns;
      c[0][i] = s.r.power_mw;
      c[1][i] = s.r.energy_mj;
      c[2][i] = s.r.gpu_util_pct;
      c[3][i] = s.r.mem_util_pct;
      c[4][i] = s.r.mem_used_bytes;
      c[5][i] = s.r.temp_c;
      c[6][i] = s.r.sm_clock_mhz;
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("device", device);
    out.Set("t_ns", t);
    out.Set("power_mw", cols[0]);
    out.Set("energy_mj", cols[1]);
    out.Set("gpu_util_pct", cols[2]);
    out.Set("mem_util_pct", cols[3]);
    out.Set("mem_used_bytes", cols[4]);
    out.Set("temp_c", cols[5]);
    out.Set("sm_clock_mhz", cols[6]);
    return out;
  }

  Napi::Value Stats(const Napi::CallbackInfo& info) {
    Napi::Object o = Napi::Object::New(info.Env());
    o.Set("ticks", static_cast<double>(poller_->ticks()));
    o.Set("dropped", static_cast<double>(poller_->dropped()));
    o.Set("thread_cpu_ns", static_cast<double>(poller_->thread_cpu_ns()));
    o.Set("running", poller_->running());
    return o;
  }

  std::unique_ptr<PowerPoller> poller_;
  napi_env env_ = nullptr;
  std::vector<PowerSample> scratch_;
};

}  // namespace

void RegisterPower(Napi::Env env, Napi::Object exports) { exports.Set("PowerPoller", PowerPollerWrap::Define(env)); }

}  // namespace servebench
