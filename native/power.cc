#include "power.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#include <cmath>

namespace servebench {

namespace {
int64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}
constexpr int64_t kMinIntervalNs = 1'000'000;
constexpr size_t kMinCapacity = 16;
constexpr int64_t kStopSliceNs = 100'000'000;
}  // namespace

PowerPoller::PowerPoller(const PowerPollerOptions& opts)
    : interval_ns_(opts.interval_ns < kMinIntervalNs ? kMinIntervalNs : opts.interval_ns) {
  if (!opts.nvml.empty()) {
    if (auto b = OpenNvml(opts.nvml, &nvml_status_)) backends_.push_back(std::move(b));
  }
  if (!opts.amdsmi.empty()) {
    if (auto b = OpenAmdSmi(opts.amdsmi, &amdsmi_status_)) backends_.push_back(std::move(b));
  }
  for (auto& b : backends_) {
    for (size_t i = 0; i < b->device_count(); i++) {
      PolledDevice d{};
      d.backend = b.get();
      d.vendor = b->vendor();
      d.index = i;
      d.has_energy = b->has_energy(i);
      devices_.push_back(d);
    }
  }
  ring_.resize(opts.capacity < kMinCapacity ? kMinCapacity : opts.capacity);
}

PowerPoller::~PowerPoller() { Stop(); }

void PowerPoller::Start() {
  if (running_ || stopped_ || devices_.empty()) return;
  running_ = true;
  results_.resize(devices_.size());
  thread_ = std::thread(&PowerPoller::Run, this);
}

void PowerPoller::Stop() {
  if (stopped_) return;
  stopped_ = true;
  stop_requested_.store(true);
  if (thread_.joinable()) thread_.join();
  running_ = false;
  // Libraries are shut down only once no thread can call into them.
  std::lock_guard<std::mutex> lk(mu_);
  for (PolledDevice& d : devices_) d.backend = nullptr;
  backends_.clear();
}

void PowerPoller::Run() {
  pthread_getcpuclockid(pthread_self(), &cpu_clock_);
  cpu_clock_valid_.store(true);
  int64_t next = MonoNs();
  while (!stop_requested_.load(std::memory_order_relaxed)) {
    Tick();
    ticks_.fetch_add(1, std::memory_order_relaxed);
    next += interval_ns_;
    const int64_t now = MonoNs();
    // Behind schedule (slow driver calls): start the next tick now rather than bursting to catch up.
    if (next < now) next = now;
    // clock_nanosleep on an absolute deadline is the cheapest wait measured (a condition variable
    // cost ~25% more per tick); slices of at most kStopSliceNs bound how long stop() waits.
    for (int64_t t = now; t < next && !stop_requested_.load(std::memory_order_relaxed);) {
      const int64_t until = next - t > kStopSliceNs ? t + kStopSliceNs : next;
      timespec ts{static_cast<time_t>(until / 1'000'000'000), static_cast<long>(until % 1'000'000'000)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
      }
      t = until;
    }
  }
  cpu_clock_valid_.store(false);
  thread_cpu_ns_.store(ThreadCpuNs(), std::memory_order_relaxed);
}

int64_t PowerPoller::thread_cpu_ns() const {
  // While the thread runs its CPU clock can be read from any thread; after it exits, the value it
  // stored on the way out.
  if (cpu_clock_valid_.load()) {
    timespec ts;
    if (clock_gettime(cpu_clock_, &ts) == 0 && cpu_clock_valid_.load()) {
      return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
  }
  return thread_cpu_ns_.load(std::memory_order_relaxed);
}

void PowerPoller::Tick() {
  // Only this thread writes the device table, so reading it here without the lock is safe;
  // the driver calls run unlocked and the results are published under one lock per tick.
  // `results_` is reused from tick to tick: no allocation in the steady state.
  size_t n = 0;
  for (uint32_t k = 0; k < devices_.size(); k++) {
    const PolledDevice& d = devices_[k];
    if (d.failed) continue;
    TickResult& res = results_[n++];
    res.error.clear();
    res.sample.device = k;
    res.outcome = d.backend->Read(d.index, &res.sample.r, &res.sample.t_ns, &res.error);
  }
  std::lock_guard<std::mutex> lk(mu_);
  for (size_t i = 0; i < n; i++) {
    TickResult& res = results_[i];
    PolledDevice& d = devices_[res.sample.device];
    d.has_energy = d.backend->has_energy(d.index);
    if (res.outcome == ReadOutcome::kLost) {
      d.failed = true;
      d.error = res.error;
      continue;
    }
    const GpuReading& r = res.sample.r;
    if (!res.error.empty()) d.error = res.error;
    if (std::isnan(r.power_mw) && std::isnan(r.energy_mj)) {
      if (++d.misses >= kMaxMisses) {
        d.failed = true;
        d.error = "no power or energy reading for " + std::to_string(kMaxMisses) + " consecutive samples" +
                  (d.error.empty() ? "" : " (last error: " + d.error + ")");
        continue;
      }
    } else {
      d.misses = 0;
    }
    d.samples++;
    Push(res.sample);
  }
}

void PowerPoller::Push(const PowerSample& s) {
  const size_t cap = ring_.size();
  if (size_ == cap) {
    head_ = (head_ + 1) % cap;  // drop the oldest
    size_--;
    dropped_.fetch_add(1, std::memory_order_relaxed);
  }
  ring_[(head_ + size_) % cap] = s;
  size_++;
}

void PowerPoller::Drain(std::vector<PowerSample>* out, size_t max) {
  std::lock_guard<std::mutex> lk(mu_);
  const size_t n = size_ < max ? size_ : max;
  out->reserve(out->size() + n);
  for (size_t i = 0; i < n; i++) out->push_back(ring_[(head_ + i) % ring_.size()]);
  head_ = (head_ + n) % ring_.size();
  size_ -= n;
}

std::vector<PolledDevice> PowerPoller::Devices() const {
  std::lock_guard<std::mutex> lk(mu_);
  return devices_;
}

}  // namespace servebench

// ---------------------------------------------------------------------------------------------
// JS binding (left out of a core-only build: -DSERVEBENCH_POWER_CORE_ONLY)
#ifndef SERVEBENCH_POWER_CORE_ONLY
#include <napi.h>

namespace servebench {

namespace {

[[noreturn]] void ThrowType(Napi::Env env, const std::string& message) {
  Napi::TypeError err = Napi::TypeError::New(env, message);
  err.Set("code", Napi::String::New(env, "SB_NATIVE_BAD_ARG"));
  throw err;
}

std::vector<std::string> StringList(Napi::Env env, Napi::Object opts, const char* key) {
  std::vector<std::string> out;
  Napi::Value v = opts.Get(key);
  if (v.IsUndefined() || v.IsNull()) return out;
  if (!v.IsArray()) ThrowType(env, std::string("PowerPoller: ") + key + " must be an array of strings");
  Napi::Array a = v.As<Napi::Array>();
  for (uint32_t i = 0; i < a.Length(); i++) {
    Napi::Value s = a.Get(i);
    if (!s.IsString()) ThrowType(env, std::string("PowerPoller: ") + key + " must be an array of strings");
    out.push_back(s.As<Napi::String>().Utf8Value());
  }
  return out;
}

double NumberOpt(Napi::Env env, Napi::Object opts, const char* key, double dflt, double min, double max) {
  Napi::Value v = opts.Get(key);
  if (v.IsUndefined()) return dflt;
  if (!v.IsNumber()) ThrowType(env, std::string("PowerPoller: ") + key + " must be a number");
  const double d = v.As<Napi::Number>().DoubleValue();
  if (!(d >= min && d <= max)) ThrowType(env, std::string("PowerPoller: ") + key + " is out of range");
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
    if (info.Length() < 1 || !info[0].IsObject()) ThrowType(env, "PowerPoller: expected an options object");
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
      if (!info[0].IsNumber()) ThrowType(env, "drain: max must be a number");
      const double m = info[0].As<Napi::Number>().DoubleValue();
      if (!(m >= 0)) ThrowType(env, "drain: max must be >= 0");
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

void RegisterPower(Napi::Env env, Napi::Object exports) {
  exports.Set("PowerPoller", PowerPollerWrap::Define(env));
}

}  // namespace servebench
#endif  // SERVEBENCH_POWER_CORE_ONLY
