#include "engine_loop.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace servebench {

namespace {

inline int64_t MonoNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

constexpr size_t kReadBuffer = 256 * 1024;
constexpr int kIoNice = -10;
constexpr uint64_t kIoSliceNs = 100000;
constexpr int kMaxEvents = 512;
// Events of one response are kept below this so 32-bit offsets never wrap.
constexpr size_t kMaxEventBytes = 1u << 30;
// epoll tags for the two non-connection descriptors.
char kWakeTag;
char kTimerTag;

const char* ErrName(int e) {
  switch (e) {
    case ECONNREFUSED: return "ECONNREFUSED";
    case ECONNRESET: return "ECONNRESET";
    case ECONNABORTED: return "ECONNABORTED";
    case EPIPE: return "EPIPE";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EHOSTUNREACH: return "EHOSTUNREACH";
    case ENETUNREACH: return "ENETUNREACH";
    case EADDRNOTAVAIL: return "EADDRNOTAVAIL";
    case EMFILE: return "EMFILE";
    case ENFILE: return "ENFILE";
    case ENOBUFS: return "ENOBUFS";
    case ENOMEM: return "ENOMEM";
    default: return "EIO";
  }
}

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

// Stamps are only as prompt as this thread's wake-ups, and it often shares a core with a busy JS
// thread. Two requests, each dropped silently when refused: a short scheduler slice (Linux >= 6.12
// lets a task with a shorter slice preempt on wake-up), and a higher priority than the JS thread's
// (root or CAP_SYS_NICE). Returns whether either took.
bool RaisePriority() {
  bool any = false;
#ifdef SYS_sched_setattr
  SchedAttr attr{};
  attr.size = sizeof attr;
  attr.sched_policy = 0;  // SCHED_OTHER
  attr.sched_nice = kIoNice;
  attr.sched_runtime = kIoSliceNs;
  if (syscall(SYS_sched_setattr, 0, &attr, 0) == 0) return true;
  attr.sched_nice = 0;
  any = syscall(SYS_sched_setattr, 0, &attr, 0) == 0;
#endif
  any = setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kIoNice) == 0 || any;
  return any;
}

std::string SysError(const char* what, int e) {
  return std::string(what) + " " + ErrName(e) + " (" + std::strerror(e) + ")";
}

}  // namespace

// ---- Req ----------------------------------------------------------------

void Req::OnHead(int status) {
  rec.status = status;
  framing = in.streaming && status >= 200 && status < 300;
}

void Req::OnBody(const char* p, size_t n, int64_t stamp) {
  rec.bytes_received += n;
  last_body_ns = stamp;
  if (framing) {
    framer.Feed(p, n, stamp);
  } else if (rec.body.size() + n > max_body) {
    body_overflow = true;
  } else {
    rec.body.append(p, n);
    rec.has_body = true;
  }
}

void Req::OnEvent(std::string_view data, std::string_view type, int64_t stamp) {
  if (rec.event_data.size() + data.size() + rec.event_types.size() + type.size() > kMaxEventBytes) {
    body_overflow = true;
    return;
  }
  rec.event_data.append(data.data(), data.size());
  rec.event_end.push_back(static_cast<uint32_t>(rec.event_data.size()));
  rec.event_ns.push_back(stamp);
  if (!type.empty()) {
    rec.any_type = true;
    rec.event_types.append(type.data(), type.size());
  }
  rec.type_end.push_back(static_cast<uint32_t>(rec.event_types.size()));
}

// ---- ReqHeap ------------------------------------------------------------

void ReqHeap::Push(Req* r) {
  v_.push_back(r);
  Place(v_.size() - 1, r);
  Up(v_.size() - 1);
}

void ReqHeap::Remove(Req* r) {
  const size_t i = static_cast<size_t>(r->*idx_);
  r->*idx_ = -1;
  Req* last = v_.back();
  v_.pop_back();
  if (i == v_.size()) return;
  Place(i, last);
  Up(i);
  Down(static_cast<size_t>(last->*idx_));
}

void ReqHeap::Up(size_t i) {
  Req* r = v_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (v_[parent]->*key_ <= r->*key_) break;
    Place(i, v_[parent]);
    i = parent;
  }
  Place(i, r);
}

void ReqHeap::Down(size_t i) {
  Req* r = v_[i];
  const size_t n = v_.size();
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && v_[c + 1]->*key_ < v_[c]->*key_) ++c;
    if (v_[c]->*key_ >= r->*key_) break;
    Place(i, v_[c]);
    i = c;
  }
  Place(i, r);
}

// ---- IoLoop: setup and cross-thread entry points ---------------------------

IoLoop::IoLoop(Engine* engine, const EngineOptions& options, int max_connections)
    : engine_(engine), options_(options), max_conns_(max_connections), buf_(kReadBuffer) {
  epfd_ = epoll_create1(EPOLL_CLOEXEC);
  wakefd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  timerfd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (epfd_ < 0 || wakefd_ < 0 || timerfd_ < 0) {
    const int e = errno;
    if (epfd_ >= 0) close(epfd_);
    if (wakefd_ >= 0) close(wakefd_);
    if (timerfd_ >= 0) close(timerfd_);
    throw std::runtime_error(SysError("engine: cannot create its epoll set:", e));
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
  s->retries += retries_.load(std::memory_order_relaxed);
  if (boosted_.load(std::memory_order_relaxed)) ++s->boosted_threads;
}

// ---- IoLoop: the loop -------------------------------------------------------

void IoLoop::Run() {
  boosted_ = RaisePriority();
  std::vector<epoll_event> events(kMaxEvents);
  for (;;) {
    const int timeout = EpollTimeoutMs(MonoNs());
    const int n = epoll_wait(epfd_, events.data(), kMaxEvents, timeout);
    int64_t now = MonoNs();
    bool inbox = false;
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
        OnConnEvent(static_cast<Conn*>(tag), events[i].events, now);
      }
    }
    now = MonoNs();
    if (inbox) TakeInbox(now);
    StartDueTargets(now);
    ExpireDeadlines(now);
    ServeWaiting(now);
    Flush();
    for (Conn* c : graveyard_) delete c;
    graveyard_.clear();
    if (stopping_) break;
  }
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
  {
    std::lock_guard<std::mutex> lock(mu_);
    in.swap(inbox_);
    ids.swap(cancel_ids_);
    all = cancel_all_;
    cancel_all_ = false;
    stop = stop_;
  }
  for (EngineRequest& er : in) {
    Req* r = NewReq();
    r->in = std::move(er);
    r->rec.id = r->in.id;
    live_[r->in.id] = r;
    live_reqs_.fetch_add(1, std::memory_order_relaxed);
    if (r->in.target_ns > now) {
      r->target = r->in.target_ns;
      targets_.Push(r);
    } else {
      StartRequest(r, now);
    }
  }
  ArmTargetTimer();
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

// ---- requests -----------------------------------------------------------------

Req* IoLoop::NewReq() {
  if (!free_.empty()) {
    Req* r = free_.back();
    free_.pop_back();
    return r;
  }
  slots_.push_back(std::make_unique<Req>());
  return slots_.back().get();
}

void IoLoop::FreeReq(Req* r) {
  r->in = EngineRequest();
  r->rec = EngineRecord();
  r->framer.Reset();
  r->conn = nullptr;
  r->written = 0;
  r->deadline = r->target = r->last_body_ns = r->last_read_ns = 0;
  r->framing = r->retried = r->waiting = r->body_overflow = false;
  free_.push_back(r);
}

void IoLoop::StartRequest(Req* r, int64_t now) {
  started_.fetch_add(1, std::memory_order_relaxed);
  r->rec.start_ns = now;
  r->max_body = options_.max_body_bytes;
  if (r->in.timeout_ns > 0) {
    r->deadline = now + r->in.timeout_ns;
    deadlines_.Push(r);
  }
  Acquire(r, now);
}

void IoLoop::Acquire(Req* r, int64_t now) {
  if (!idle_.empty()) {
    Conn* c = idle_.back();
    idle_.pop_back();
    c->idle_idx = -1;
    Attach(c, r);
    TryWrite(c, now);
  } else if (max_conns_ == 0 || conns_ < max_conns_) {
    OpenConn(r, now);
  } else {
    r->waiting = true;
    waiting_.push_back(r);
  }
}

void IoLoop::ServeWaiting(int64_t now) {
  while (!waiting_.empty() && !stopping_ && (!idle_.empty() || max_conns_ == 0 || conns_ < max_conns_)) {
    Req* r = waiting_.front();
    waiting_.pop_front();
    r->waiting = false;
    Acquire(r, now);
  }
}

void IoLoop::Finish(Req* r, EngineError kind, const std::string& message, int64_t now) {
  if (r->target_idx >= 0) targets_.Remove(r);
  if (r->deadline_idx >= 0) deadlines_.Remove(r);
  if (r->waiting) {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), r));
    r->waiting = false;
  }
  if (Conn* c = r->conn) {
    // A request that ends while its connection is mid-response leaves that
    // connection unusable.
    c->req = nullptr;
    r->conn = nullptr;
    CloseConn(c);
  }
  EngineRecord& rec = r->rec;
  if (rec.start_ns == 0) rec.start_ns = now;  // ended before it started (cancelled while scheduled)
  if (kind == EngineError::kNone) {
    rec.end_ns = rec.bytes_received > 0 ? r->last_body_ns : (r->last_read_ns != 0 ? r->last_read_ns : now);
  } else {
    rec.end_ns = now;
    rec.error = kind;
    rec.error_message = message;
  }
  auto it = live_.find(rec.id);
  if (it != live_.end() && it->second == r) live_.erase(it);
  batch_.push_back(std::move(rec));
  completed_.fetch_add(1, std::memory_order_relaxed);
  live_reqs_.fetch_sub(1, std::memory_order_relaxed);
  FreeReq(r);
}

// ---- connections -------------------------------------------------------------

Conn* IoLoop::OpenConn(Req* r, int64_t now) {
  const int family = options_.addr.ss_family;
  const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    Finish(r, EngineError::kConnection, SysError("socket", errno), now);
    return nullptr;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  const int rc = connect(fd, reinterpret_cast<const sockaddr*>(&options_.addr), options_.addr_len);
  if (rc < 0 && errno != EINPROGRESS) {
    const int e = errno;
    close(fd);
    Finish(r, EngineError::kConnection, SysError("connect", e), now);
    return nullptr;
  }
  Conn* c = new Conn(fd);
  ++conns_;
  opened_.fetch_add(1, std::memory_order_relaxed);
  live_conns_.fetch_add(1, std::memory_order_relaxed);
  c->connecting = rc != 0;
  c->want_write = c->connecting;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (c->connecting ? static_cast<uint32_t>(EPOLLOUT) : 0u);
  ev.data.ptr = c;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev);
  Attach(c, r);
  if (!c->connecting) TryWrite(c, now);
  return c;
}

void IoLoop::Attach(Conn* c, Req* r) {
  c->req = r;
  r->conn = c;
  r->written = 0;
  r->framing = false;
  c->parser.Reset();
}

void IoLoop::SetWrite(Conn* c, bool on) {
  if (c->want_write == on) return;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (on ? static_cast<uint32_t>(EPOLLOUT) : 0u);
  ev.data.ptr = c;
  epoll_ctl(epfd_, EPOLL_CTL_MOD, c->fd, &ev);
  c->want_write = on;
}

void IoLoop::TryWrite(Conn* c, int64_t now) {
  Req* r = c->req;
  if (r == nullptr || c->connecting) return;
  const std::string& b = r->in.bytes;
  while (r->written < b.size()) {
    const ssize_t n = send(c->fd, b.data() + r->written, b.size() - r->written, MSG_NOSIGNAL);
    if (n > 0) {
      r->written += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      SetWrite(c, true);
      return;
    } else {
      ConnFailed(c, EngineError::kConnection, SysError("write", n < 0 ? errno : EPIPE), now, true);
      return;
    }
  }
  r->rec.bytes_sent = b.size();
  SetWrite(c, false);
}

void IoLoop::OnConnEvent(Conn* c, uint32_t events, int64_t now) {
  if (c->fd < 0) return;  // closed earlier in this batch of events
  if (c->connecting) {
    if ((events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) == 0) return;
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err == 0 && (events & (EPOLLERR | EPOLLHUP))) err = ECONNREFUSED;
    if (err != 0) {
      ConnFailed(c, EngineError::kConnection, SysError("connect", err), now, false);
      return;
    }
    c->connecting = false;
    TryWrite(c, now);
    return;
  }
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) OnReadable(c);
  if (c->fd >= 0 && c->want_write && (events & EPOLLOUT)) TryWrite(c, now);
}

void IoLoop::OnReadable(Conn* c) {
  for (int round = 0; round < 4; ++round) {
    const ssize_t n = recv(c->fd, buf_.data(), buf_.size(), 0);
    // The stamp every byte of this read carries: taken before any parsing.
    const int64_t stamp = MonoNs();
    Req* r = c->req;
    if (n > 0) {
      reads_.fetch_add(1, std::memory_order_relaxed);
      if (r == nullptr) {
        CloseConn(c);  // bytes on an idle connection: it cannot be trusted
        return;
      }
      r->last_read_ns = stamp;
      const size_t used = c->parser.Feed(buf_.data(), static_cast<size_t>(n), stamp);
      if (r->body_overflow) {
        Finish(r, EngineError::kParse,
               "response body over " + std::to_string(r->framing ? kMaxEventBytes : r->max_body) + " bytes", stamp);
        return;
      }
      if (c->parser.failed()) {
        Finish(r, c->parser.error() == Http1Error::kParse ? EngineError::kParse : EngineError::kConnection,
               c->parser.message(), stamp);
        return;
      }
      if (c->parser.done()) {
        const bool reusable = c->parser.keep_alive() && used == static_cast<size_t>(n);
        c->req = nullptr;
        r->conn = nullptr;
        Finish(r, EngineError::kNone, std::string(), stamp);
        ReleaseConn(c, reusable, stamp);
        return;
      }
      if (static_cast<size_t>(n) < buf_.size()) return;
      continue;
    }
    if (n == 0) {
      if (r == nullptr) {
        CloseConn(c);
        return;
      }
      c->parser.Eof();
      if (c->parser.done()) {
        c->req = nullptr;
        r->conn = nullptr;
        Finish(r, EngineError::kNone, std::string(), stamp);
        CloseConn(c);
        return;
      }
      ConnFailed(c, c->parser.error() == Http1Error::kParse ? EngineError::kParse : EngineError::kConnection,
                 c->parser.message(), stamp, true);
      return;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    const int e = errno;
    if (r == nullptr) {
      CloseConn(c);
      return;
    }
    ConnFailed(c, EngineError::kConnection, SysError("read", e), stamp, true);
    return;
  }
}

void IoLoop::ConnFailed(Conn* c, EngineError kind, const std::string& message, int64_t now, bool may_retry) {
  Req* r = c->req;
  if (r == nullptr) {
    CloseConn(c);
    return;
  }
  // A kept-alive connection the server closed just as we reused it: the
  // request never reached it, so it is sent once more on a new connection.
  const bool retry = may_retry && c->reused && !c->parser.started() && !r->retried && !stopping_;
  c->req = nullptr;
  r->conn = nullptr;
  CloseConn(c);
  if (retry) {
    r->retried = true;
    r->rec.bytes_sent = 0;
    retries_.fetch_add(1, std::memory_order_relaxed);
    OpenConn(r, now);
    return;
  }
  Finish(r, kind, message, now);
}

void IoLoop::ReleaseConn(Conn* c, bool reusable, int64_t now) {
  if (!reusable || stopping_) {
    CloseConn(c);
    return;
  }
  c->reused = true;
  if (!waiting_.empty()) {
    Req* r = waiting_.front();
    waiting_.pop_front();
    r->waiting = false;
    Attach(c, r);
    TryWrite(c, now);
    return;
  }
  c->idle_idx = static_cast<int>(idle_.size());
  idle_.push_back(c);
}

void IoLoop::CloseConn(Conn* c) {
  if (c->fd < 0) return;
  if (c->idle_idx >= 0) {
    const size_t i = static_cast<size_t>(c->idle_idx);
    idle_[i] = idle_.back();
    idle_[i]->idle_idx = static_cast<int>(i);
    idle_.pop_back();
    c->idle_idx = -1;
  }
  if (c->req) {
    c->req->conn = nullptr;
    c->req = nullptr;
  }
  close(c->fd);  // also leaves the epoll set
  c->fd = -1;
  --conns_;
  live_conns_.fetch_sub(1, std::memory_order_relaxed);
  graveyard_.push_back(c);
}

}  // namespace servebench
