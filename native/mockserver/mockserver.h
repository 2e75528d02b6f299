// The mock server's fast mode (`servebench mock --fast`): an OpenAI-compatible
// streaming endpoint served by epoll threads in C++, so the mock is never the
// bottleneck of a harness benchmark.
//
// Each worker thread has its own listening socket on the shared port
// (SO_REUSEPORT: the kernel spreads connections), its own epoll set and a
// timer heap of streams: token k of a stream is due at t0 + ttft + k·itl
// (absolute, no drift), every due event is written in one go, and a slow
// reader pauses its stream until the socket drains. With `stamp_events`, each
// event carries "sb_send_ns": the CLOCK_MONOTONIC time of the write() that
// sent it, patched in just before the call, so a client on the same host can
// measure its own stamp error.
//
// Plain C++; mockserver_binding.cc adds the JS class `MockServer`.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace servebench {

class MockTls;

struct MockServerOptions {
  std::string host = "127.0.0.1";  // numeric IPv4 or IPv6
  int port = 0;                    // 0: a free port
  int workers = 1;
  int64_t ttft_ns = 0;
  int64_t itl_ns = 0;
  std::vector<std::string> words;  // output vocabulary, one token each (JSON-safe)
  std::string model = "mock-model";
  int default_tokens = 64;  // output length when a request sets no max_tokens
  bool stamp_events = false;
  std::shared_ptr<const MockTls> tls;  // --tls-cert/--tls-key: serve TLS (mockserver_tls.h); null: plain
};

struct MockServerStats {
  uint64_t connections = 0;  // accepted so far
  uint64_t requests = 0;
  uint64_t events = 0;  // SSE events written
};

class MockWorker;

class MockServer {
 public:
  explicit MockServer(MockServerOptions options);
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  // Binds and starts the workers; returns the port. Throws std::runtime_error.
  int Start();
  // Closes every socket and joins the workers. Idempotent.
  void Stop();
  MockServerStats Stats() const;

 private:
  MockServerOptions options_;
  std::vector<std::unique_ptr<MockWorker>> workers_;
  bool stopped_ = false;
};

}  // namespace servebench
