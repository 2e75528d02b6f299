// How an engine I/O thread asks the kernel to run it promptly.
//
// A stamp is taken when the I/O thread returns from recv(), so its error is how long the thread
// waited for a CPU after the data arrived. On a core it shares with a busy JS thread, a normal
// thread can wait a whole scheduler slice (measured ~4 ms on a 2-core VM, even at nice -10);
// a SCHED_FIFO thread preempts at once (~0.05 ms). So, where the process may (root or
// CAP_SYS_NICE), the thread runs SCHED_FIFO at the lowest real-time priority while it is not the
// main user of its core. Each 100 ms window (busy: the thread's own CPU time,
// CLOCK_THREAD_CPUTIME_ID, read once per window) decides:
//  - real time and more than 85% busy: saturated, it cannot keep up and its stamps are late anyway;
//    it drops to SCHED_OTHER at nice 0, so the JS thread gets an equal share and keeps sending, and
//    the reads grow;
//  - real time and more than 75% busy: nice -10 (a saturated real-time thread would starve the JS
//    thread that feeds it; nice -10 still gives the I/O thread most of the core, so its stamps stay
//    prompt);
//  - below real time: back to real time after a window under half busy, or after 5 windows, so
//    what decides is always a busy share measured at real time.
// Measured on one shared core, c=1,024 (README, native transport): at ITL 1 ms nice 0 cut client
// CPU per event from 3.6 to 2.6 us; at TTFT/ITL 5 ms (57-80% busy) nice 0 would have kept up
// better but with a 25-45 ms p99 stamp error, against 4-5 ms at nice -10.
// Below real time it asks for a short slice and nice -10, each dropped silently when refused.
#pragma once

#include <cstdint>

namespace servebench {

enum class IoPriority : uint8_t { kNormal = 0, kRaised = 1, kRealtime = 2 };

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
  int windows_in_state_ = 0;
};

}  // namespace servebench
