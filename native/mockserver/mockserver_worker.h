// One serving thread of the fast mock (mockserver.h): its own listening socket, epoll set and
// timer heap. Its sockets and epoll loop are in mockserver.cc; starting responses and pacing their
// events on the timer heap in mockserver_stream.cc.
#pragma once

#include <time.h>

#include <atomic>
#include <cstdint>
#include <queue>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "mockserver/mockserver.h"
#include "mockserver/mockserver_format.h"
#include "mockserver/mockserver_tls.h"

namespace servebench {

struct MConn;

// One response in progress on a connection.
struct MStream {
  MConn* conn = nullptr;
  MockRequest req;
  std::string id;
  std::string prefix;  // the JSON every event of this response starts with
  std::string request_id;
  int64_t t0 = 0;
  int64_t due = 0;
  size_t k = 0;  // next token
  uint64_t rng = 0;
  bool active = false;
  bool scheduled = false;
};

struct MConn {
  int fd = -1;
  std::string in;
  std::string out;
  size_t out_off = 0;
  std::vector<size_t> stamps;  // offsets in `out` of sb_send_ns fields not yet sent
  MStream stream;
  bool want_write = false;
  bool close_after = false;
  SSL* ssl = nullptr;  // TLS (mockserver_tls.h); null: plain TCP
  bool handshaking = false;
};

struct DueLater {
  bool operator()(const std::pair<int64_t, MConn*>& a, const std::pair<int64_t, MConn*>& b) const {
    return a.first > b.first;
  }
};

class MockWorker {
 public:
  MockWorker(const MockServerOptions& o, int index) : o_(o), index_(index), fmt_(o) {}
  ~MockWorker();

  // Binds this worker's listening socket; returns its port.
  int Bind(int port);
  void Start();
  void Stop();
  void Join();

  std::atomic<uint64_t> accepted{0}, requests{0}, events{0};

 private:
  // A member, not a free function: telemetry_backend.h has a MonoNs of its own in this namespace.
  static int64_t MonoNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
  }

  // mockserver.cc: sockets and the epoll loop.
  void Add(int fd, void* tag, uint32_t ev);
  void Run();
  void Accept();
  void Handshake(MConn* c);
  void CloseConn(MConn* c);
  void Read(MConn* c);
  void Flush(MConn* c);
  void SetWrite(MConn* c, bool on);

  // mockserver_stream.cc: responses and their schedule.
  void Serve(MConn* c);
  void ServeLoop(MConn* c);
  void Schedule(MStream& s, int64_t due);
  void Arm(int64_t due);
  void RunDue();
  void Emit(MConn* c, int64_t now);

  const MockServerOptions& o_;
  int index_;
  MockFormatter fmt_;
  int listen_ = -1, ep_ = -1, stop_ = -1, timer_ = -1;
  int64_t armed_ = 0;
  uint64_t next_id_ = 0;
  bool serving_ = false;
  std::thread thread_;
  std::unordered_set<MConn*> conns_;
  std::vector<MConn*> dead_;
  std::priority_queue<std::pair<int64_t, MConn*>, std::vector<std::pair<int64_t, MConn*>>, DueLater> heap_;
};

}  // namespace servebench
