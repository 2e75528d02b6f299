// How an engine I/O thread asks the kernel to run it promptly.
//
// A stamp is taken when the I/O thread returns from recv(), so its error is how long the thread
// waited for a CPU after the data arrived. On a core it shares with a busy JS thread, a normal
// thread can wait a whole scheduler slice (measured ~4 ms on a 2-core VM, even at nice -10);
// a SCHED_FIFO thread preempts at once (~0.05 ms). So, where the process may (root or
// CAP_SYS_NICE), the thread runs SCHED_FIFO at the lowest real-time priority, but only while it is
// not the main user of its core: over any 100 ms in which it was busy more than half the time it
// drops back to SCHED_OTHER at nice 0, and it returns to SCHED_FIFO after a window below a third
// (busy: the thread's own CPU time, CLOCK_THREAD_CPUTIME_ID, read once per window). A busier
// real-time thread starves the JS thread that feeds it: at c=1,024, TTFT/ITL 5 ms, client on one
// core, it held sends back by up to 200 ms between requests. Below real time it asks for a short
// slice and nice -10, each dropped silently when refused.
#pragma once

#include <cstdint>

namespace servebench {

enum class IoPriority : uint8_t { kNormal = 0, kRaised = 1, kRealtime = 2 };

// The real-time rule, pure: the priority after a window in which the thread was busy `busy_ns` of
// `window_ns`, from kRealtime or (demoted) kNormal.
IoPriority NextRealtimeStep(IoPriority current, int64_t busy_ns, int64_t window_ns);

class IoScheduling {
 public:
  // Applies the best priority allowed up to `wanted`; call on the I/O thread itself.
  void Start(IoPriority wanted, int64_t now);
  // After each loop iteration, at CLOCK_MONOTONIC `now`.
  void Iteration(int64_t now);
  IoPriority current() const { return current_; }
  // Times real time was given up because the thread was busy.
  uint64_t demotions() const { return demotions_; }

 private:
  bool SetRealtime(bool on);
  IoPriority current_ = IoPriority::kNormal;
  bool realtime_allowed_ = false;
  bool raised_ = false;
  int64_t window_start_ = 0;
  int64_t cpu_at_window_start_ = 0;
  uint64_t demotions_ = 0;
};

}  // namespace servebench
