// One I/O thread of the native stream engine: epoll over non-blocking
// sockets, a keep-alive connection pool, request timeouts and cancellation,
// scheduled sends (target_ns), and per-read stamps taken right after recv().
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"
#include "engine/engine_read_delay.h"
#include "engine/engine_request_state.h"
#include "engine/engine_sched.h"
#include "engine/engine_tls.h"
#include "wire/http1.h"

namespace servebench {

class IoLoop;

// CLOCK_MONOTONIC ns: the clock of every engine stamp (and of process.hrtime.bigint()).
inline int64_t EngineClockNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// CLOCK_REALTIME ns: the clock of the kernel's receive stamps (SO_TIMESTAMPING).
inline int64_t RealtimeNs() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// "what ECODE (strerror)" for an errno value (engine_loop_conn.cc).
std::string EngineSysError(const char* what, int e);

// One connection. The parser's handler forwards to the request it carries.
struct Conn final : Http1Handler {
  explicit Conn(int fd_) : fd(fd_), parser(this) {}
  int fd;
  Http1ResponseParser parser;
  Req* req = nullptr;
  bool connecting = true;
  bool reused = false;       // has completed a response before
  bool want_write = false;   // EPOLLOUT is armed
  bool handshaking = false;  // TLS: the handshake is under way (no request bytes yet)
  SSL* ssl = nullptr;        // TLS: this connection's session (null: plain TCP)
  int64_t tls_start_ns = 0;
  int64_t tls_end_ns = 0;
  int idle_idx = -1;  // position in the idle pool
  int64_t connect_start_ns = 0;
  int64_t connect_end_ns = 0;
  int warm_idx = -1;           // position among the preconnects not yet up (-1: not one)
  bool kernel_stamps = false;  // SO_TIMESTAMPING is on: reads come with the kernel's receive time
  int64_t last_stamp = 0;      // the last stamp its bytes carried (stamps never go back)

  void OnHead(int status) override {
    if (req) req->OnHead(status);
  }
  void OnBody(const char* p, size_t n, int64_t stamp) override {
    if (req) req->OnBody(p, n, stamp);
  }
};

class IoLoop {
 public:
  IoLoop(Engine* engine, const EngineOptions& options, int max_connections);
  ~IoLoop();
  IoLoop(const IoLoop&) = delete;
  IoLoop& operator=(const IoLoop&) = delete;

  void Start();
  void Join();
  // Thread-safe: queue work for the loop and wake it.
  void Post(std::vector<EngineRequest>&& requests);
  void PostCancel(const std::vector<uint32_t>& ids, bool all);
  void PostStop();
  // Opens up to `n` connections ahead of any request (within this loop's cap); each joins the idle
  // pool once TCP (and TLS) is up, so the first requests skip the connect burst.
  void PostPreconnect(int n);
  // The slot gate (Engine::SetGate, engine_loop_gate.cc): slots < 0 leaves it as it is.
  void PostGate(int slots, bool held, bool cancel_waiting);
  void AddStats(EngineStats* s) const;
  const ReadDelayHist* read_delay() const { return &read_delay_; }
  const ReadDelayHist* arrival_lag() const { return &arrival_lag_; }
  // Requests handed to this loop and not yet finished (Engine::Submit balances on it).
  int64_t load() const { return assigned_.load(std::memory_order_relaxed); }

 private:
  void Run();
  void Wake();
  void TakeInbox(int64_t now);
  void StartRequest(Req* r, int64_t now);
  void Acquire(Req* r, int64_t now);
  Conn* OpenConn(Req* r, int64_t now);
  void Attach(Conn* c, Req* r);
  void Connected(Conn* c, int64_t now);
  void Handshake(Conn* c, int64_t now);
  ssize_t ReadSome(Conn* c, int* err, std::string* tls_error, int64_t* arrival_real);
  int64_t ReadStamp(Conn* c, int64_t returned, int64_t arrival_real);
  void TryWrite(Conn* c, int64_t now);
  void OnConnEvent(Conn* c, uint32_t events, int64_t now);
  void OnReadable(Conn* c);
  void ConnFailed(Conn* c, EngineError kind, const std::string& message, int64_t now, bool may_retry);
  void Finish(Req* r, EngineError kind, const std::string& message, int64_t now);
  void ReleaseConn(Conn* c, bool reusable, int64_t now);
  void CloseConn(Conn* c);
  void ServeWaiting(int64_t now);
  void SetGate(int slots, bool held, int64_t now);
  void Gate(Req* r);
  void ServeGate();
  void LeaveGate(Req* r, int64_t now);
  void CancelWaiting(int64_t now);
  void Preconnect(int n, int64_t now);
  void Warmed(Conn* c, int64_t now);
  void Unwarm(Conn* c);
  void SetWrite(Conn* c, bool on);
  void ExpireDeadlines(int64_t now);
  void StartDueTargets(int64_t now);
  void ArmTargetTimer();
  void Flush();
  Req* NewReq();
  void FreeReq(Req* r);
  int EpollTimeoutMs(int64_t now) const;
  bool HoldOff(int64_t last_wake, int64_t now);

  Engine* engine_;
  EngineOptions options_;
  int max_conns_;
  int epfd_ = -1;
  int wakefd_ = -1;
  int timerfd_ = -1;
  std::thread thread_;
  std::vector<char> buf_;

  // Inbox (any thread → loop).
  std::mutex mu_;
  std::vector<EngineRequest> inbox_;
  std::vector<uint32_t> cancel_ids_;
  bool cancel_all_ = false;
  bool stop_ = false;
  int preconnect_ = 0;
  int gate_post_ = -1;  // a new gate size, not yet taken (-1: none)
  bool gate_held_ = false;
  bool cancel_waiting_ = false;
  std::atomic<bool> wake_pending_{false};
  std::atomic<int64_t> assigned_{0};

  // Loop state (loop thread only).
  std::vector<std::unique_ptr<Req>> slots_;
  std::vector<Req*> free_;
  std::unordered_map<uint32_t, Req*> live_;
  std::deque<Req*> waiting_;
  // The slot gate: its size (0: off), requests started on it, requests waiting for a slot, and
  // for each free slot the moment it came free (the next request's planned send time).
  int gate_slots_ = 0;
  int gate_running_ = 0;
  std::deque<Req*> gated_;
  std::deque<int64_t> free_since_;
  std::vector<Conn*> idle_;
  std::vector<Conn*> warming_conns_;  // preconnects still connecting or handshaking
  ReqHeap deadlines_{&Req::deadline, &Req::deadline_idx};
  ReqHeap targets_{&Req::target, &Req::target_idx};
  int64_t armed_target_ = 0;
  int conns_ = 0;
  bool stopping_ = false;
  std::vector<Conn*> graveyard_;  // closed this iteration; freed after it
  std::vector<EngineRecord> batch_;
  // When this iteration could first have read: the start of its coalescing sleep, else the return
  // of epoll_wait. A read's delay is its stamp minus this.
  int64_t look_ns_ = 0;
  // Kernel receive stamps: whether this loop asks for them, and CLOCK_REALTIME − CLOCK_MONOTONIC as
  // read at this iteration's wake-up.
  bool kernel_stamps_ = false;
  int64_t realtime_offset_ = 0;
  ReadDelayHist read_delay_;
  ReadDelayHist arrival_lag_;

  // Counters (read by other threads).
  std::atomic<uint64_t> started_{0}, completed_{0}, opened_{0}, live_conns_{0}, live_reqs_{0}, reads_{0}, polls_{0},
      retries_{0}, tls_handshakes_{0}, tls_resumed_{0}, warming_{0}, preconnected_{0};
  IoScheduling sched_;
  std::atomic<uint8_t> priority_{0};
  std::atomic<uint64_t> demotions_{0};
  std::atomic<uint64_t> gate_waiting_{0};
};

}  // namespace servebench
