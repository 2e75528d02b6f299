// One read of an engine I/O thread and the stamp its bytes carry: recv() (recvmsg() with the
// kernel's receive stamp under --kernel-stamps) or SSL_read(), stamped right after it returns or
// with the kernel's time put on the engine's clock.
#include <errno.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>

#include "engine/engine_loop.h"

namespace servebench {

namespace {

// SCM_TIMESTAMPING's payload: [0] is the software stamp (CLOCK_REALTIME), [1] and [2] hardware.
struct TimestampingPayload {
  timespec ts[3];
};

// The software receive stamp a recvmsg() came with (CLOCK_REALTIME ns), or 0.
int64_t ReceiveStamp(msghdr* msg) {
  for (cmsghdr* cm = CMSG_FIRSTHDR(msg); cm != nullptr; cm = CMSG_NXTHDR(msg, cm)) {
    if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_TIMESTAMPING) continue;
    TimestampingPayload t;
    std::memcpy(&t, CMSG_DATA(cm), sizeof t);
    return static_cast<int64_t>(t.ts[0].tv_sec) * 1000000000LL + t.ts[0].tv_nsec;
  }
  return 0;
}

}  // namespace

// One read: recv(), or SSL_read() on TLS connections. >0 bytes, 0 at the end of the stream, −1 with
// *err an errno value (EAGAIN: nothing now), −2 with *tls_error set (a TLS protocol failure).
// *arrival_real: the kernel's receive stamp of the bytes (CLOCK_REALTIME ns), 0 when none.
ssize_t IoLoop::ReadSome(Conn* c, int* err, std::string* tls_error, int64_t* arrival_real) {
  *arrival_real = 0;
  if (c->ssl != nullptr) return TlsReadSome(c->ssl, buf_.data(), buf_.size(), err, tls_error);
  if (!c->kernel_stamps) {
    const ssize_t n = recv(c->fd, buf_.data(), buf_.size(), 0);
    if (n < 0) *err = errno;
    return n;
  }
  iovec iov{buf_.data(), buf_.size()};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(TimestampingPayload))];
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  const ssize_t n = recvmsg(c->fd, &msg, 0);
  if (n < 0) {
    *err = errno;
    return n;
  }
  // TCP reports the stamp of the newest segment read (coalesced segments keep the later one).
  *arrival_real = ReceiveStamp(&msg);
  return n;
}

// The stamp a read's bytes carry: the kernel's receive time where there is one, on this thread's
// clock, kept within [the connection's last stamp, recv() return] (a CLOCK_REALTIME step cannot
// move it outside); else the recv() return.
int64_t IoLoop::ReadStamp(Conn* c, int64_t returned, int64_t arrival_real) {
  int64_t at = returned;
  if (arrival_real > 0) {
    at = std::min(returned, arrival_real - realtime_offset_);
    arrival_lag_.Add(returned - at);
  }
  at = std::max(at, c->last_stamp);
  c->last_stamp = at;
  return at;
}

}  // namespace servebench
