// The connection half of an engine I/O thread: opening sockets, writing requests, reading and
// parsing responses (one read and its stamp: engine_loop_recv.cc), keep-alive reuse and retry.
#include <errno.h>
#include <linux/net_tstamp.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>

#include <algorithm>
#include <cstring>

#include "engine/engine_loop.h"

namespace servebench {

namespace {

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

}  // namespace

std::string EngineSysError(const char* what, int e) {
  return std::string(what) + " " + ErrName(e) + " (" + std::strerror(e) + ")";
}

// ---- connections -------------------------------------------------------------

// r null: a preconnect (Preconnect), which joins the idle pool once up.
Conn* IoLoop::OpenConn(Req* r, int64_t now) {
  const int family = options_.addr.ss_family;
  const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    if (r != nullptr) Finish(r, EngineError::kConnection, EngineSysError("socket", errno), now);
    return nullptr;
  }
  const int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  // TLS reads go through OpenSSL's socket BIO (plain read()), which cannot take the stamp.
  const unsigned stamping = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
  const bool kernel_stamps = options_.kernel_stamps && !options_.tls &&
                             setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &stamping, sizeof stamping) == 0;
  const int64_t connect_start = EngineClockNs();
  const int rc = connect(fd, reinterpret_cast<const sockaddr*>(&options_.addr), options_.addr_len);
  if (rc < 0 && errno != EINPROGRESS) {
    const int e = errno;
    close(fd);
    if (r != nullptr) Finish(r, EngineError::kConnection, EngineSysError("connect", e), now);
    return nullptr;
  }
  Conn* c = new Conn(fd);
  c->kernel_stamps = kernel_stamps;
  if (r == nullptr) {
    c->warm_idx = static_cast<int>(warming_conns_.size());
    warming_conns_.push_back(c);
  }
  ++conns_;
  opened_.fetch_add(1, std::memory_order_relaxed);
  live_conns_.fetch_add(1, std::memory_order_relaxed);
  c->connecting = rc != 0;
  c->want_write = c->connecting;
  c->connect_start_ns = connect_start;
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP | (c->connecting ? static_cast<uint32_t>(EPOLLOUT) : 0u);
  ev.data.ptr = c;
  epoll_ctl(epfd_, EPOLL_CTL_ADD, fd, &ev);
  if (r != nullptr) Attach(c, r);
  if (!c->connecting) Connected(c, now);
  return c;
}

// TCP is up: plain connections write the request, TLS ones begin the handshake.
void IoLoop::Connected(Conn* c, int64_t now) {
  c->connecting = false;
  c->connect_end_ns = EngineClockNs();
  if (!options_.tls) {
    if (c->warm_idx >= 0) {
      Warmed(c, now);
    } else {
      TryWrite(c, now);
    }
    return;
  }
  c->ssl = options_.tls->NewSsl(c->fd);
  if (c->ssl == nullptr) {
    ConnFailed(c, EngineError::kConnection, "tls: cannot allocate a session", now, false);
    return;
  }
  c->handshaking = true;
  c->tls_start_ns = c->connect_end_ns;
  Handshake(c, now);
}

// One step of the non-blocking handshake: it asks for readability or writability, and the epoll
// loop calls again when the socket has it.
void IoLoop::Handshake(Conn* c, int64_t now) {
  ERR_clear_error();
  errno = 0;
  const int rc = SSL_do_handshake(c->ssl);
  if (rc == 1) {
    c->handshaking = false;
    c->tls_end_ns = EngineClockNs();
    tls_handshakes_.fetch_add(1, std::memory_order_relaxed);
    if (SSL_session_reused(c->ssl)) tls_resumed_.fetch_add(1, std::memory_order_relaxed);
    SetWrite(c, false);
    if (c->warm_idx >= 0) {
      Warmed(c, now);
      return;
    }
    TryWrite(c, now);
    return;
  }
  const int e = errno;
  const int err = SSL_get_error(c->ssl, rc);
  if (err == SSL_ERROR_WANT_READ) {
    SetWrite(c, false);
  } else if (err == SSL_ERROR_WANT_WRITE) {
    SetWrite(c, true);
  } else {
    ConnFailed(c, EngineError::kConnection, TlsClient::Error(c->ssl, rc, err, e), now, false);
  }
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
  if (r == nullptr || c->connecting || c->handshaking) return;
  const std::string& b = r->in.bytes;
  EngineRecord& rec = r->rec;
  if (r->written == 0) {
    rec.send_start_ns = EngineClockNs();
    // No byte of the response can have arrived before its request was sent.
    c->last_stamp = std::max(c->last_stamp, rec.send_start_ns);
    rec.reused = c->reused;
    rec.connect_start_ns = c->reused ? 0 : c->connect_start_ns;
    rec.connect_end_ns = c->reused ? 0 : c->connect_end_ns;
    rec.tls_start_ns = c->reused ? 0 : c->tls_start_ns;
    rec.tls_end_ns = c->reused ? 0 : c->tls_end_ns;
    rec.writes = 0;
  }
  while (r->written < b.size()) {
    if (c->ssl != nullptr) {
      ERR_clear_error();
      errno = 0;
      const int n =
          SSL_write(c->ssl, b.data() + r->written, static_cast<int>(std::min<size_t>(b.size() - r->written, 1 << 30)));
      if (n > 0) {
        r->written += static_cast<size_t>(n);
        ++rec.writes;
        continue;
      }
      const int e = errno;
      const int err = SSL_get_error(c->ssl, n);
      if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
        SetWrite(c, true);
        return;
      }
      const std::string why =
          err == SSL_ERROR_SYSCALL ? EngineSysError("write", e != 0 ? e : EPIPE) : TlsClient::Error(nullptr, n, err, e);
      ConnFailed(c, EngineError::kConnection, why, now, true);
      return;
    }
    const ssize_t n = send(c->fd, b.data() + r->written, b.size() - r->written, MSG_NOSIGNAL);
    if (n > 0) {
      r->written += static_cast<size_t>(n);
      ++rec.writes;
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      SetWrite(c, true);
      return;
    } else {
      ConnFailed(c, EngineError::kConnection, EngineSysError("write", n < 0 ? errno : EPIPE), now, true);
      return;
    }
  }
  rec.bytes_sent = b.size();
  rec.send_end_ns = EngineClockNs();
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
      ConnFailed(c, EngineError::kConnection, EngineSysError("connect", err), now, false);
      return;
    }
    Connected(c, now);
    return;
  }
  if (c->handshaking) {
    Handshake(c, now);
    return;
  }
  if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) OnReadable(c);
  if (c->fd >= 0 && c->want_write && (events & EPOLLOUT)) TryWrite(c, now);
}

void IoLoop::OnReadable(Conn* c) {
  // TLS connections read as TlsKeepReading says (more rounds, and what OpenSSL already holds).
  for (int round = 0; c->ssl != nullptr ? TlsKeepReading(c->ssl, round) : round < 4; ++round) {
    int read_err = 0;
    std::string tls_error;
    int64_t arrival_real = 0;
    const ssize_t n = ReadSome(c, &read_err, &tls_error, &arrival_real);
    // When recv()/SSL_read() returned (decrypted) bytes, before any parsing.
    const int64_t returned = EngineClockNs();
    // The stamp every byte of this read carries (ReadStamp).
    const int64_t stamp = n > 0 ? ReadStamp(c, returned, arrival_real) : returned;
    Req* r = c->req;
    if (n > 0) {
      // One writer: a plain store, not a locked add, on the per-read path.
      reads_.store(reads_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      read_delay_.Add(returned - look_ns_);
      if (r == nullptr) {
        CloseConn(c);  // bytes on an idle connection: it cannot be trusted
        return;
      }
      r->last_read_ns = stamp;
      const size_t used = c->parser.Feed(buf_.data(), static_cast<size_t>(n), stamp);
      r->rec.wire_received += used;
      if (r->overflow != Req::Overflow::kNone) {
        Finish(r, EngineError::kParse, r->OverflowMessage(), stamp);
        return;
      }
      if (c->parser.failed()) {
        Finish(r, c->parser.error() == Http1Error::kParse ? EngineError::kParse : EngineError::kConnection,
               c->parser.message(), stamp);
        return;
      }
      if (c->parser.done()) {
        // Bytes past the response make a connection unusable; with read-ahead they may sit
        // undecrypted in OpenSSL's buffer, where no readiness would ever report them.
        const bool reusable = c->parser.keep_alive() && used == static_cast<size_t>(n) &&
                              (c->ssl == nullptr || SSL_has_pending(c->ssl) != 1);
        c->req = nullptr;
        r->conn = nullptr;
        Finish(r, EngineError::kNone, std::string(), stamp);
        ReleaseConn(c, reusable, stamp);
        return;
      }
      if (c->ssl == nullptr ? static_cast<size_t>(n) < buf_.size() : TlsReadDrained(c->ssl)) return;
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
    if (n == -2) {
      ConnFailed(c, EngineError::kConnection, tls_error, stamp, true);
      return;
    }
    if (read_err == EINTR) continue;
    if (read_err == EAGAIN || read_err == EWOULDBLOCK) return;
    if (r == nullptr) {
      CloseConn(c);
      return;
    }
    ConnFailed(c, EngineError::kConnection, EngineSysError("read", read_err), stamp, true);
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
  if (c->warm_idx >= 0) Unwarm(c);  // a preconnect that failed, or the engine is stopping
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
  if (c->ssl != nullptr) {
    // No close_notify (the socket closes right after), but marked shut down: OpenSSL would
    // otherwise flag the session as not resumable, and the next connection could not resume it.
    SSL_set_shutdown(c->ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
    SSL_free(c->ssl);
    c->ssl = nullptr;
  }
  close(c->fd);  // also leaves the epoll set
  c->fd = -1;
  --conns_;
  live_conns_.fetch_sub(1, std::memory_order_relaxed);
  graveyard_.push_back(c);
}

}  // namespace servebench
