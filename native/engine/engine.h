// The native stream engine: an HTTP/1.1 client for saturation runs.
//
// Engine owns N I/O threads (IoLoop, engine_loop.h), each with its own epoll
// set and keep-alive connection pool. Requests arrive pre-rendered, in batches
// (Submit); each read is stamped with CLOCK_MONOTONIC right after recv()
// returns, SSE events are framed on the I/O thread, and finished requests come
// back as EngineRecords through one queue that the JS side drains in batches
// (Drain), woken by `notify` at most once per batch.
//
// Plain C++ (no N-API): engine_binding.cc wraps it for JS, and the sanitizer
// test drives it directly.
#pragma once

#include <sys/socket.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/engine_sched.h"
#include "wire/sse_decode.h"

namespace servebench {

class TlsClient;

// How a request ended, when not with a complete response.
// kUnsent: never sent (it waited at the slot gate when CancelWaiting came); no bytes went out.
enum class EngineError : uint8_t { kNone = 0, kConnection = 1, kParse = 2, kTimeout = 3, kCancelled = 4, kUnsent = 5 };

struct EngineOptions {
  sockaddr_storage addr{};  // the target (numeric: the caller resolves names)
  socklen_t addr_len = 0;
  int threads = 1;
  // Connections across all threads; 0: as many as requests in flight.
  int max_connections = 0;
  // Caps on one response's body bytes and on one SSE event's bytes (--max-response-bytes,
  // --max-event-bytes): beyond either the request fails (parse_error) and its buffers are freed.
  size_t max_response_bytes = 64u << 20;
  size_t max_event_bytes = 16u << 20;
  // How hard the I/O threads ask to run promptly (engine_sched.h); each step is taken only where
  // the kernel allows it.
  IoPriority priority = IoPriority::kRealtime;
  // Read coalescing (--read-coalesce-us): an I/O thread that has just read looks at its sockets
  // again no sooner than this many ns after its last wake-up, so more bytes queue per recv() (each
  // recv that drains a socket costs an ACK/window update in the kernel). 0: read eagerly. Stamps
  // are still taken when recv() returns; the added delay is measured (EngineStats::read_delay).
  int64_t read_coalesce_ns = 0;
  // Kernel receive stamps (--kernel-stamps, off by default; plain TCP on Linux): each read's bytes carry the time the
  // kernel queued them (SO_TIMESTAMPING, software receive), not when this thread got to recv(), so a
  // thread that waited for a CPU or slept to coalesce does not move the stamps. A read without one
  // falls back to the recv-return stamp.
  bool kernel_stamps = false;
  // SSE payloads decoded on the I/O thread (sse_decode.h); null: every payload goes back as a string.
  std::shared_ptr<const DecodeSpec> decode;
  // With `decode`: keep every payload string too (--export-level raw writes them).
  bool keep_payloads = false;
  // https:// targets: the TLS client every connection handshakes with (engine_tls.h); null: plain TCP.
  std::shared_ptr<TlsClient> tls;
};

struct EngineRequest {
  uint32_t id = 0;
  bool streaming = false;
  int64_t timeout_ns = 0;              // from the start of the request; 0: none
  int64_t target_ns = 0;               // CLOCK_MONOTONIC ns to send at; 0: as soon as possible
  std::string bytes;                   // the whole HTTP/1.1 request, head and body
  const DecodeSpec* decode = nullptr;  // the engine's (set by Submit)
  bool keep_payloads = false;
};

struct EngineRecord {
  uint32_t id = 0;
  int status = 0;  // 0: no final response head was received
  EngineError error = EngineError::kNone;
  std::string error_message;
  int64_t start_ns = 0;  // when the I/O thread took the request up
  // Under a slot gate (Engine::SetGate): when the slot it went out on came free, the closed loop's
  // planned send time (the gate's opening for the first wave); 0: not gated.
  int64_t planned_ns = 0;
  int64_t end_ns = 0;  // stamp of the read that held the last body byte, or when it failed
  uint64_t bytes_sent = 0;
  uint64_t bytes_received = 0;  // decoded body bytes
  // SSE events (streaming requests with a 2xx status): data concatenated,
  // with each event's end offset, arrival stamp and type.
  std::string event_data;
  std::vector<uint32_t> event_end;
  std::vector<int64_t> event_ns;
  std::string event_types;
  std::vector<uint32_t> type_end;
  bool any_type = false;  // some event had an `event:` field
  // With a decode spec (2xx streaming responses): the events decoded; the event_* fields above then
  // hold only the tail left to the TS adapter (or every event, with keep_payloads).
  bool decoding = false;
  RecordDecode decoded;
  // The body, when it is not framed as SSE.
  std::string body;
  bool has_body = false;
  // HTTP trace (0: did not happen). Connection setup only when the request opened the connection.
  bool reused = false;
  int64_t connect_start_ns = 0;
  int64_t connect_end_ns = 0;  // TCP connected
  int64_t tls_start_ns = 0;    // TLS handshake began (https only)
  int64_t tls_end_ns = 0;      // TLS handshake finished
  int64_t send_start_ns = 0;   // first byte about to be written
  int64_t send_end_ns = 0;     // whole request handed to the socket
  int64_t first_byte_ns = 0;   // stamp of the read that completed the response head
  uint64_t wire_received = 0;  // bytes read for this response, framing included
  uint32_t writes = 0;         // send() calls that wrote bytes
  uint32_t body_reads = 0;     // reads that carried body bytes
};

// A distribution of per-read delays (percentiles at a histogram bucket's upper edge).
struct DelaySummary {
  uint64_t count = 0;
  double mean_ns = 0;
  int64_t p50_ns = 0;
  int64_t p99_ns = 0;
  int64_t max_ns = 0;
};

struct EngineStats {
  uint64_t requests_started = 0;
  uint64_t requests_completed = 0;
  uint64_t connections_opened = 0;
  uint64_t connections_live = 0;
  uint64_t requests_live = 0;  // submitted and not yet completed
  uint64_t reads = 0;
  uint64_t polls = 0;               // epoll_wait calls that returned a ready socket (wake-ups that read)
  uint64_t retries = 0;             // requests re-sent after a reused connection closed under them
  uint64_t realtime_threads = 0;    // I/O threads running SCHED_FIFO now
  uint64_t raised_threads = 0;      // I/O threads running with a short slice or nice -10 now
  uint64_t realtime_demotions = 0;  // times a thread left SCHED_FIFO because it was busy
  // Per read, over all threads: its recv() return − when the loop could first have read (the start
  // of a coalescing sleep, or the return of epoll_wait when it did not sleep).
  DelaySummary read_delay;
  uint64_t coalesce_sleeps = 0;  // times a thread held off its next look (read coalescing)
  // Per read stamped with the kernel's receive time (count: how many were): recv() return − that
  // time, how late the client read, a delay the stamps no longer carry.
  DelaySummary arrival_lag;
  uint64_t tls_handshakes = 0;            // TLS handshakes completed
  uint64_t tls_resumed = 0;               // of which resumed a cached session
  uint64_t connections_warming = 0;       // asked for by Preconnect and not yet up (or failed)
  uint64_t connections_preconnected = 0;  // opened by Preconnect and put in the idle pool
  uint64_t gate_waiting = 0;              // submitted requests waiting for a slot of the gate
};

class IoLoop;

class Engine {
 public:
  // `notify` runs on an I/O thread when records become available and no
  // notification is pending; the owner then calls Drain.
  Engine(const EngineOptions& options, std::function<void()> notify);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts the I/O threads. Throws std::runtime_error when one cannot start.
  void Start();
  // Hands requests to the threads (each to the one with the fewest in flight).
  void Submit(std::vector<EngineRequest>&& requests);
  // Ends these requests (or all) as cancelled.
  void Cancel(const std::vector<uint32_t>& ids);
  void CancelAll();
  // The slot gate, a closed loop run here: at most `slots` requests of this engine run at once;
  // requests submitted beyond that wait in order and start the moment one ends, with no round
  // trip to JS. 0 turns it off (anything waiting starts at once). Split evenly over the threads.
  // `held`: no slot is free until the next SetGate without it, so a first wave submitted
  // meanwhile starts together, however long JS took to build it.
  void SetGate(int slots, bool held = false);
  // Ends every request still waiting for a slot, unsent (kUnsent: a run that stops sends no more).
  void CancelWaiting();
  // Opens `n` connections across the threads before any request needs them (each thread within
  // its share of the cap); EngineStats::connections_warming says when they are up.
  void Preconnect(int n);
  // Takes every completed record; clears the pending notification.
  void Drain(std::vector<EngineRecord>* out);
  // Cancels what is in flight, closes every connection and joins the
  // threads. The records of the cancelled requests are left for Drain.
  void Stop();
  EngineStats Stats() const;

  // Called by the I/O threads with a batch of finished records.
  void Complete(std::vector<EngineRecord>* batch);

 private:
  EngineOptions options_;
  std::function<void()> notify_;
  std::vector<std::unique_ptr<IoLoop>> loops_;
  size_t next_loop_ = 0;
  bool started_ = false;
  bool stopped_ = false;

  std::mutex mu_;
  std::vector<EngineRecord> done_;
  bool notified_ = false;
};

}  // namespace servebench
