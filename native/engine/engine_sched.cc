#include "engine/engine_sched.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace servebench {

namespace {

constexpr int kNice = -10;
constexpr uint64_t kSliceNs = 100000;
constexpr int64_t kWindowNs = 100000000;  // 100 ms
// Busy shares (% of a window; real time is left on one measured at real time, never preempted)
// and how long a demoted thread waits before it tries real time again.
constexpr int64_t kSaturatedPct = 85;
constexpr int64_t kBusyPct = 75;
constexpr int64_t kIdlePct = 50;
constexpr int kProbeWindows = 5;

// sched_setattr's argument (not in glibc's headers).
struct SchedAttr {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;
  uint64_t sched_deadline;
  uint64_t sched_period;
};

// A short slice (Linux >= 6.12 lets a task with a shorter slice preempt on wake-up) and nice -10.
bool RaiseNormal() {
  bool any = false;
#ifdef SYS_sched_setattr
  SchedAttr attr{};
  attr.size = sizeof attr;
  attr.sched_policy = SCHED_OTHER;
  attr.sched_nice = kNice;
  attr.sched_runtime = kSliceNs;
  if (syscall(SYS_sched_setattr, 0, &attr, 0) == 0) return true;
  attr.sched_nice = 0;
  any = syscall(SYS_sched_setattr, 0, &attr, 0) == 0;
#endif
  return setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice) == 0 || any;
}

int64_t ThreadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// The rule in engine_sched.h, pure: the priority after a window in which the thread was busy
// `busy_ns` of `window_ns`, having been at `current` for `windows_in_state` windows before it.
IoPriority NextRealtimeStep(IoPriority current, int64_t busy_ns, int64_t window_ns, int windows_in_state) {
  const int64_t pct = busy_ns * 100 / window_ns;
  switch (current) {
    case IoPriority::kRealtime:
      return pct > kSaturatedPct ? IoPriority::kNormal : pct > kBusyPct ? IoPriority::kRaised : current;
    case IoPriority::kRaised:
    case IoPriority::kNormal:
      return pct < kIdlePct || windows_in_state >= kProbeWindows ? IoPriority::kRealtime : current;
  }
  return current;
}

}  // namespace

bool IoScheduling::SetRealtime(bool on) {
  sched_param p{};
  p.sched_priority = on ? sched_get_priority_min(SCHED_FIFO) : 0;
  return pthread_setschedparam(pthread_self(), on ? SCHED_FIFO : SCHED_OTHER, &p) == 0;
}

void IoScheduling::Start(IoPriority wanted, int64_t now) {
  window_start_ = now;
  cpu_at_window_start_ = ThreadCpuNs();
  if (wanted == IoPriority::kNormal) return;
  raised_ = RaiseNormal();
  current_ = raised_ ? IoPriority::kRaised : IoPriority::kNormal;
  if (wanted == IoPriority::kRealtime && SetRealtime(true)) {
    realtime_allowed_ = true;
    current_ = IoPriority::kRealtime;
  }
}

void IoScheduling::Iteration(int64_t now) {
  if (!realtime_allowed_ || now - window_start_ < kWindowNs) return;
  const int64_t window = now - window_start_;
  const int64_t cpu = ThreadCpuNs();
  const IoPriority next = NextRealtimeStep(current_, cpu - cpu_at_window_start_, window, windows_in_state_);
  ++windows_in_state_;
  if (next != current_ && SetRealtime(next == IoPriority::kRealtime)) {
    if (next == IoPriority::kRaised) {
      RaiseNormal();
    } else if (next == IoPriority::kNormal) {
      // Nice 0: the JS thread gets an equal share, so it keeps sending, and the I/O thread reads
      // what queued meanwhile in fewer, larger reads.
      setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 0);
    }
    if (next != IoPriority::kRealtime) ++demotions_;
    current_ = next;
    windows_in_state_ = 0;
  }
  window_start_ = now;
  cpu_at_window_start_ = cpu;
}

}  // namespace servebench
