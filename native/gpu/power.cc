#include "gpu/power.h"

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
