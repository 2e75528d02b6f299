// The engine's slot gate (Engine::SetGate): a closed loop run on the I/O thread. JS submits a few
// requests more than there are slots; each waits here, in order, and starts the moment a running
// one ends, so a wave of completions is followed by a wave of sends without a round trip through
// the JS thread. Each request started on a slot carries the moment that slot came free
// (planned_ns), so a JS thread that falls behind still shows as dispatch delay.
#include <algorithm>

#include "engine/engine_loop.h"

namespace servebench {

void IoLoop::SetGate(int slots, bool held, int64_t now) {
  gate_slots_ = std::max(0, slots);
  free_since_.clear();
  if (gate_slots_ == 0) {
    // Off: whatever still waits starts now (the loop's own pacing, not the gate's, from here on).
    while (!gated_.empty()) {
      Req* r = gated_.front();
      gated_.pop_front();
      r->gated = false;
      StartRequest(r, now);
    }
    return;
  }
  if (!held) {
    for (int i = gate_running_; i < gate_slots_; ++i) free_since_.push_back(now);
  }
}

void IoLoop::Gate(Req* r) {
  r->gated = true;
  gated_.push_back(r);
}

void IoLoop::ServeGate() {
  while (!gated_.empty() && !free_since_.empty() && !stopping_) {
    Req* r = gated_.front();
    gated_.pop_front();
    r->gated = false;
    r->in_gate = true;
    ++gate_running_;
    r->rec.planned_ns = free_since_.front();
    free_since_.pop_front();
    // Stamped when it is taken up, not at the iteration's start: a released first wave of 1,024 takes
    // milliseconds of send() calls, which are the client's dispatch delay, not the server's TTFT.
    // May end it at once (a connect that fails): LeaveGate then frees the slot for the next.
    StartRequest(r, EngineClockNs());
  }
}

// A request that ends: out of the queue if it never started, else its slot is free from `now`.
void IoLoop::LeaveGate(Req* r, int64_t now) {
  if (r->gated) {
    gated_.erase(std::find(gated_.begin(), gated_.end(), r));
    r->gated = false;
  }
  if (!r->in_gate) return;
  r->in_gate = false;
  --gate_running_;
  if (gate_slots_ > 0 && gate_running_ + static_cast<int>(free_since_.size()) < gate_slots_) free_since_.push_back(now);
}

void IoLoop::CancelWaiting(int64_t now) {
  while (!gated_.empty()) Finish(gated_.front(), EngineError::kUnsent, "never sent: the run stopped", now);
}

}  // namespace servebench
