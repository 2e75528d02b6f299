#include "mockserver/mockserver.h"
#include "mockserver/mockserver_tls.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "mockserver/mockserver_worker.h"

namespace servebench {

namespace {

constexpr size_t kMaxRequestBytes = 16u << 20;
char kStopTag;
char kTimerTag;
char kListenTag;

}  // namespace

MockWorker::~MockWorker() {
  Join();
  for (MConn* c : conns_) {
    if (c->ssl != nullptr) MockTlsFree(c->ssl);
    close(c->fd);
    delete c;
  }
  for (MConn* c : dead_) delete c;  // closed in the iteration the stop arrived in
  if (listen_ >= 0) close(listen_);
  if (ep_ >= 0) close(ep_);
  if (stop_ >= 0) close(stop_);
  if (timer_ >= 0) close(timer_);
}

int MockWorker::Bind(int port) {
  sockaddr_storage ss{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&ss);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&ss);
  if (inet_pton(AF_INET, o_.host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    len = sizeof *v4;
  } else if (inet_pton(AF_INET6, o_.host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    len = sizeof *v6;
  } else {
    throw std::runtime_error("fast mock: --host must be a numeric IP address, got " + o_.host);
  }
  listen_ = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  const int one = 1;
  setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  setsockopt(listen_, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  if (bind(listen_, reinterpret_cast<sockaddr*>(&ss), len) != 0 || listen(listen_, 65535) != 0) {
    throw std::runtime_error(std::string("fast mock cannot listen on ") + o_.host + ":" + std::to_string(port) + ": " +
                             std::strerror(errno));
  }
  socklen_t got = sizeof ss;
  getsockname(listen_, reinterpret_cast<sockaddr*>(&ss), &got);
  return ntohs(ss.ss_family == AF_INET ? v4->sin_port : v6->sin6_port);
}

void MockWorker::Start() {
  ep_ = epoll_create1(EPOLL_CLOEXEC);
  stop_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  timer_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (ep_ < 0 || stop_ < 0 || timer_ < 0) throw std::runtime_error("fast mock: cannot create its epoll set");
  Add(stop_, &kStopTag, EPOLLIN);
  Add(timer_, &kTimerTag, EPOLLIN);
  Add(listen_, &kListenTag, EPOLLIN);
  thread_ = std::thread(&MockWorker::Run, this);
}

void MockWorker::Stop() {
  const uint64_t one = 1;
  if (stop_ >= 0) {
    ssize_t ignored = write(stop_, &one, sizeof one);
    (void)ignored;
  }
}

void MockWorker::Join() {
  if (thread_.joinable()) thread_.join();
}

void MockWorker::Add(int fd, void* tag, uint32_t ev) {
  epoll_event e{};
  e.events = ev;
  e.data.ptr = tag;
  epoll_ctl(ep_, EPOLL_CTL_ADD, fd, &e);
}

void MockWorker::Run() {
  pthread_setname_np(pthread_self(), "sb-mock");
  std::vector<epoll_event> evs(256);
  for (;;) {
    const int n = epoll_wait(ep_, evs.data(), static_cast<int>(evs.size()), -1);
    for (int i = 0; i < n; ++i) {
      void* tag = evs[i].data.ptr;
      if (tag == &kStopTag) return;
      if (tag == &kListenTag) {
        Accept();
      } else if (tag == &kTimerTag) {
        uint64_t v;
        ssize_t ignored = read(timer_, &v, sizeof v);
        (void)ignored;
        armed_ = 0;
      } else {
        auto* c = static_cast<MConn*>(tag);
        if (!conns_.count(c)) continue;  // closed earlier in this batch
        if (c->handshaking) {
          Handshake(c);
          continue;
        }
        if (evs[i].events & EPOLLOUT) Flush(c);
        if (conns_.count(c) && (evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))) Read(c);
      }
    }
    RunDue();
    for (MConn* c : dead_) delete c;
    dead_.clear();
  }
}

void MockWorker::Accept() {
  for (;;) {
    const int fd = accept4(listen_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;  // EAGAIN, or out of descriptors: the backlog keeps the rest
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    // On loopback the ACKs a client sends are processed for this socket in the client's
    // context, on the client's CPU: reno keeps that cheap (the default may be BBR), so the
    // client's CPU is spent on what a remote server's client would spend it on.
    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, "reno", 4);
    auto* c = new MConn();
    c->fd = fd;
    c->stream.conn = c;
    if (o_.tls) {
      c->ssl = o_.tls->Accept(fd);
      c->handshaking = true;
    }
    conns_.insert(c);
    accepted.fetch_add(1, std::memory_order_relaxed);
    Add(fd, c, EPOLLIN | EPOLLRDHUP);
  }
}

// TLS: one non-blocking handshake step; the request is read once it is done.
void MockWorker::Handshake(MConn* c) {
  const int step = c->ssl == nullptr ? -1 : MockTlsHandshake(c->ssl);
  if (step < 0) return CloseConn(c);
  SetWrite(c, step == 2);
  if (step != 1) return;
  c->handshaking = false;
  Read(c);
}

void MockWorker::CloseConn(MConn* c) {
  if (c->ssl != nullptr) MockTlsFree(c->ssl);
  c->ssl = nullptr;
  close(c->fd);  // leaves the epoll set too; a pending heap entry is skipped (conn gone)
  conns_.erase(c);
  dead_.push_back(c);
}

void MockWorker::Read(MConn* c) {
  char buf[65536];
  for (;;) {
    const ssize_t n = c->ssl ? MockTlsRecv(c->ssl, buf, sizeof buf) : recv(c->fd, buf, sizeof buf, 0);
    if (n > 0) {
      c->in.append(buf, static_cast<size_t>(n));
      if (c->in.size() > kMaxRequestBytes) return CloseConn(c);
      // TLS reads stop at a record: read on until EAGAIN, or bytes OpenSSL holds would wait.
      if (!c->ssl && static_cast<size_t>(n) < sizeof buf) break;
    } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
      return CloseConn(c);
    } else if (errno == EAGAIN) {
      break;
    }
  }
  Serve(c);
}

// Writes what is pending; stamps are patched with the time of this write() call.
void MockWorker::Flush(MConn* c) {
  while (c->out_off < c->out.size()) {
    if (!c->stamps.empty()) {
      const int64_t t = MonoNs();
      for (size_t off : c->stamps) {
        if (off >= c->out_off) WriteStamp(&c->out[off], t);
      }
    }
    const char* p = c->out.data() + c->out_off;
    const size_t len = c->out.size() - c->out_off;
    const ssize_t n = c->ssl ? MockTlsSend(c->ssl, p, len) : send(c->fd, p, len, MSG_NOSIGNAL);
    if (n > 0) {
      c->out_off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EAGAIN) {
      SetWrite(c, true);
      return;
    }
    return CloseConn(c);
  }
  c->out.clear();
  c->out_off = 0;
  c->stamps.clear();
  SetWrite(c, false);
  MStream& s = c->stream;
  if (s.active && !s.scheduled) {
    // Drained after a slow reader held it: carry on with the schedule.
    Schedule(s, std::max(MonoNs(), s.t0 + o_.ttft_ns + static_cast<int64_t>(s.k) * o_.itl_ns));
  } else if (!s.active) {
    if (c->close_after) return CloseConn(c);
    if (!c->in.empty() && !serving_) Serve(c);
  }
}

void MockWorker::SetWrite(MConn* c, bool on) {
  if (c->want_write == on) return;
  epoll_event e{};
  e.events = EPOLLIN | EPOLLRDHUP | (on ? static_cast<uint32_t>(EPOLLOUT) : 0u);
  e.data.ptr = c;
  epoll_ctl(ep_, EPOLL_CTL_MOD, c->fd, &e);
  c->want_write = on;
}
MockServer::MockServer(MockServerOptions options) : options_(std::move(options)) {
  if (options_.workers < 1) options_.workers = 1;
  if (options_.words.empty()) options_.words = {" the"};
}

MockServer::~MockServer() { Stop(); }

int MockServer::Start() {
  int port = options_.port;
  for (int i = 0; i < options_.workers; ++i) {
    workers_.push_back(std::make_unique<MockWorker>(options_, i));
    port = workers_.back()->Bind(port);
  }
  for (auto& w : workers_) w->Start();
  return port;
}

void MockServer::Stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& w : workers_) w->Stop();
  for (auto& w : workers_) w->Join();
}

MockServerStats MockServer::Stats() const {
  MockServerStats s;
  for (const auto& w : workers_) {
    s.connections += w->accepted.load(std::memory_order_relaxed);
    s.requests += w->requests.load(std::memory_order_relaxed);
    s.events += w->events.load(std::memory_order_relaxed);
  }
  return s;
}

}  // namespace servebench
