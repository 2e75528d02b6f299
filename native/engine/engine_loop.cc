#include "engine/engine_loop.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace servebench {

namespace {

constexpr size_t kReadBuffer = 256 * 1024;
constexpr int kMaxEvents = 512;
// epoll tags for the two non-connection descriptors.
char kWakeTag;
char kTimerTag;

}  // namespace

// ---- IoLoop: setup and cross-thread entry points ---------------------------

IoLoop::IoLoop(Engine* engine, const EngineOptions& options, int max_connections)
    : engine_(engine), options_(options), max_conns_(max_connections), buf_(kReadBuffer) {
  kernel_stamps_ = options_.kernel_stamps && !options_.tls;
  epfd_ = epoll_create1(EPOLL_CLOEXEC);
  wakefd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  timerfd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (epfd_ < 0 || wakefd_ < 0 || timerfd_ < 0) {
    const int e = errno;
    if (epfd_ >= 0) close(epfd_);
    if (wakefd_ >= 0) close(wakefd_);
    if (timerfd_ >= 0) close(timerfd_);
    throw std::runtime_error(EngineSysError("engine: cannot create its epoll set:", e));
  }
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.ptr = &kWakeTag;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, wakefd_, &ev);
  ev.data.ptr = &kTimerTag;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, timerfd_, &ev);
}

IoLoop::~IoLoop() {
  Join();
  for (Conn* c : graveyard_) delete c;
  close(epfd_);
  close(wakefd_);
  close(timerfd_);
}

void IoLoop::Start() { thread_ = std::thread(&IoLoop::Run, this); }

void IoLoop::Join() {
  if (thread_.joinable()) thread_.join();
}

void IoLoop::Wake() {
  if (!wake_pending_.exchange(true)) {
    const uint64_t one = 1;
    ssize_t ignored = write(wakefd_, &one, sizeof one);
    (void)ignored;
  }
}

void IoLoop::Post(std::vector<EngineRequest>&& requests) {
  assigned_.fetch_add(static_cast<int64_t>(requests.size()), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (inbox_.empty()) {
      inbox_ = std::move(requests);
    } else {
      for (auto& r : requests) inbox_.push_back(std::move(r));
    }
  }
  Wake();
}

void IoLoop::PostGate(int slots, bool held, bool cancel_waiting) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (slots >= 0) {
      gate_post_ = slots;
      gate_held_ = held;
    }
    if (cancel_waiting) cancel_waiting_ = true;
  }
  Wake();
}

void IoLoop::PostPreconnect(int n) {
  warming_.fetch_add(static_cast<uint64_t>(n), std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mu_);
    preconnect_ += n;
  }
  Wake();
}

void IoLoop::PostCancel(const std::vector<uint32_t>& ids, bool all) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (all) cancel_all_ = true;
    cancel_ids_.insert(cancel_ids_.end(), ids.begin(), ids.end());
  }
  Wake();
}

void IoLoop::PostStop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  Wake();
}

void IoLoop::AddStats(EngineStats* s) const {
  s->requests_started += started_.load(std::memory_order_relaxed);
  s->requests_completed += completed_.load(std::memory_order_relaxed);
  s->connections_opened += opened_.load(std::memory_order_relaxed);
  s->connections_live += live_conns_.load(std::memory_order_relaxed);
  s->requests_live += live_reqs_.load(std::memory_order_relaxed);
  s->reads += reads_.load(std::memory_order_relaxed);
  s->polls += polls_.load(std::memory_order_relaxed);
  s->retries += retries_.load(std::memory_order_relaxed);
  s->tls_handshakes += tls_handshakes_.load(std::memory_order_relaxed);
  s->tls_resumed += tls_resumed_.load(std::memory_order_relaxed);
  s->connections_warming += warming_.load(std::memory_order_relaxed);
  s->connections_preconnected += preconnected_.load(std::memory_order_relaxed);
  const auto p = static_cast<IoPriority>(priority_.load(std::memory_order_relaxed));
  if (p == IoPriority::kRealtime) ++s->realtime_threads;
  if (p == IoPriority::kRaised) ++s->raised_threads;
  s->realtime_demotions += demotions_.load(std::memory_order_relaxed);
  s->gate_waiting += gate_waiting_.load(std::memory_order_relaxed);
}

// ---- IoLoop: the loop -------------------------------------------------------

void IoLoop::Run() {
  pthread_setname_np(pthread_self(), "sb-engine-io");
  sched_.Start(options_.priority, EngineClockNs());
  priority_.store(static_cast<uint8_t>(sched_.current()), std::memory_order_relaxed);
  // A coalescing sleep of ~100 µs must not be stretched by the default 50 µs timer slack
  // (SCHED_FIFO threads have none; 1 ns is the least prctl takes, 0 restores the default).
  if (options_.read_coalesce_ns > 0) prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  std::vector<epoll_event> events(kMaxEvents);
  int64_t last_wake = 0;  // epoll_wait return of the last iteration that read; 0: none
  for (;;) {
    const int64_t before = EngineClockNs();
    const bool held = last_wake != 0 && HoldOff(last_wake, before);
    // After a hold-off, whatever queued meanwhile is taken without blocking; when nothing did, the
    // next iteration blocks as usual.
    const int timeout = held ? 0 : EpollTimeoutMs(EngineClockNs());
    const int n = epoll_wait(epfd_, events.data(), kMaxEvents, timeout);
    int64_t now = EngineClockNs();
    look_ns_ = held ? before : now;
    // Kernel stamps are CLOCK_REALTIME: this iteration's offset to the engine's clock, read once
    // rather than per read (the two clocks advance together but for a step, which ReadStamp bounds).
    if (kernel_stamps_) realtime_offset_ = RealtimeNs() - now;
    bool inbox = false;
    bool any_conn = false;
    for (int i = 0; i < n; ++i) {
      void* tag = events[i].data.ptr;
      if (tag == &kWakeTag) {
        uint64_t v;
        ssize_t ignored = read(wakefd_, &v, sizeof v);
        (void)ignored;
        inbox = true;
      } else if (tag == &kTimerTag) {
        uint64_t v;
        ssize_t ignored = read(timerfd_, &v, sizeof v);
        (void)ignored;
        armed_target_ = 0;
      } else {
        any_conn = true;
        OnConnEvent(static_cast<Conn*>(tag), events[i].events, now);
      }
    }
    if (any_conn) polls_.store(polls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    last_wake = any_conn && options_.read_coalesce_ns > 0 ? now : 0;
    now = EngineClockNs();
    if (inbox) TakeInbox(now);
    StartDueTargets(now);
    ExpireDeadlines(now);
    ServeGate();
    ServeWaiting(now);
    Flush();
    for (Conn* c : graveyard_) delete c;
    graveyard_.clear();
    if (stopping_) break;
    sched_.Iteration(EngineClockNs());
    priority_.store(static_cast<uint8_t>(sched_.current()), std::memory_order_relaxed);
    demotions_.store(sched_.demotions(), std::memory_order_relaxed);
    gate_waiting_.store(gated_.size(), std::memory_order_relaxed);
  }
}

// Read coalescing: sleeps until `read_coalesce_ns` after the last wake-up that read, so the next
// look finds more bytes per socket. Never past a scheduled send, and not when work was posted.
// A sleep (one clock_nanosleep) measured cheaper than a timerfd round trip or a busy-poll.
bool IoLoop::HoldOff(int64_t last_wake, int64_t now) {
  int64_t until = last_wake + options_.read_coalesce_ns;
  if (const Req* t = targets_.Top()) until = std::min(until, t->target);
  if (until <= now || wake_pending_.load(std::memory_order_relaxed)) return false;
  timespec ts{static_cast<time_t>(until / 1000000000LL), static_cast<long>(until % 1000000000LL)};

  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
  read_delay_.CountSleep();
  return true;
}

int IoLoop::EpollTimeoutMs(int64_t now) const {
  const Req* top = deadlines_.Top();
  if (top == nullptr) return -1;
  const int64_t wait = top->deadline - now;
  if (wait <= 0) return 0;
  const int64_t ms = (wait + 999999) / 1000000;
  return ms > INT_MAX / 2 ? INT_MAX / 2 : static_cast<int>(ms);
}

void IoLoop::TakeInbox(int64_t now) {
  // Clear the flag before taking: a Post that lands after the swap wakes us again.
  wake_pending_.store(false);
  std::vector<EngineRequest> in;
  std::vector<uint32_t> ids;
  bool all;
  bool stop;
  int warm;
  int gate;
  bool gate_held;
  bool cancel_waiting;
  {
    std::lock_guard<std::mutex> lock(mu_);
    warm = preconnect_;
    preconnect_ = 0;
    gate = gate_post_;
    gate_held = gate_held_;
    gate_post_ = -1;
    cancel_waiting = cancel_waiting_;
    cancel_waiting_ = false;
    in.swap(inbox_);
    ids.swap(cancel_ids_);
    all = cancel_all_;
    cancel_all_ = false;
    stop = stop_;
  }
  // Preconnects first: under a connection cap they take their share before this turn's requests,
  // which then wait for them to come up rather than open connections of their own.
  if (warm > 0) Preconnect(warm, now);
  // A gate set with these requests applies to them (the closed loop sets it before its first send).
  if (gate >= 0) SetGate(gate, gate_held, now);
  for (EngineRequest& er : in) {
    Req* r = NewReq();
    r->in = std::move(er);
    r->rec.id = r->in.id;
    live_[r->in.id] = r;
    live_reqs_.fetch_add(1, std::memory_order_relaxed);
    if (r->in.target_ns > now) {
      r->target = r->in.target_ns;
      targets_.Push(r);
    } else if (gate_slots_ > 0) {
      Gate(r);
    } else {
      StartRequest(r, now);
    }
  }
  ArmTargetTimer();
  if (cancel_waiting) CancelWaiting(now);
  ServeGate();
  for (uint32_t id : ids) {
    auto it = live_.find(id);
    if (it != live_.end()) Finish(it->second, EngineError::kCancelled, "cancelled", now);
  }
  if (all || stop) {
    std::vector<Req*> every;
    every.reserve(live_.size());
    for (auto& kv : live_) every.push_back(kv.second);
    for (Req* r : every) Finish(r, EngineError::kCancelled, stop ? "engine closed" : "cancelled", now);
  }
  if (stop) {
    stopping_ = true;
    while (!idle_.empty()) CloseConn(idle_.back());
    while (!warming_conns_.empty()) CloseConn(warming_conns_.back());
  }
}

void IoLoop::StartDueTargets(int64_t now) {
  while (Req* r = targets_.Top()) {
    if (r->target > now) break;
    targets_.Remove(r);
    StartRequest(r, now);
  }
  ArmTargetTimer();
}

void IoLoop::ArmTargetTimer() {
  const Req* top = targets_.Top();
  const int64_t want = top ? top->target : 0;
  if (want == armed_target_) return;
  itimerspec its{};
  if (want != 0) {
    its.it_value.tv_sec = want / 1000000000LL;
    its.it_value.tv_nsec = want % 1000000000LL;
  }
  timerfd_settime(timerfd_, TFD_TIMER_ABSTIME, &its, nullptr);
  armed_target_ = want;
}

void IoLoop::ExpireDeadlines(int64_t now) {
  while (Req* r = deadlines_.Top()) {
    if (r->deadline > now) break;
    Finish(r, EngineError::kTimeout, "timeout", now);
  }
}

void IoLoop::Flush() {
  if (!batch_.empty()) engine_->Complete(&batch_);
}

}  // namespace servebench
