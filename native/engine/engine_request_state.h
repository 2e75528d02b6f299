// A request's state inside the native engine, from submission to its record: the response it
// collects (SSE events framed as they arrive, or the body) and its place in the timer heaps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "wire/sse.h"

namespace servebench {

struct Conn;

// Events of one response are kept below this so 32-bit offsets never wrap (a guard: the
// --max-response-bytes cap, at most 1 GiB, comes first).
constexpr size_t kMaxKeptBytes = 1u << 30;

// One request from submission to completion. Slots are reused.
struct Req final : SseSink {
  EngineRequest in;
  EngineRecord rec;
  Conn* conn = nullptr;
  SseFramer framer{this};
  SseEventDecoder decoder;  // its scanner's buffers are reused from request to request
  size_t max_response = 0;  // --max-response-bytes
  size_t max_event = 0;     // --max-event-bytes
  size_t written = 0;
  int64_t deadline = 0;      // when it times out (only while in the deadline heap)
  int64_t target = 0;        // when to start it (only while in the target heap)
  int64_t last_body_ns = 0;  // stamp of the read holding the last body byte
  int64_t last_read_ns = 0;  // stamp of the last read fed to this request
  int deadline_idx = -1;     // position in the deadline heap
  int target_idx = -1;       // position in the target heap
  bool framing = false;      // body is framed as SSE
  bool retried = false;
  bool waiting = false;  // queued for a connection
  bool gated = false;    // waiting for a slot of the gate (not started)
  bool in_gate = false;  // started on a slot of the gate, which it frees when it ends
  // Set when the response passed a cap: the message its parse_error record gets.
  enum class Overflow : uint8_t { kNone, kEvent, kResponse } overflow = Overflow::kNone;
  std::string OverflowMessage() const;
  // Size of the last response this slot carried: the next one reserves as much up front, instead
  // of growing its buffers by doubling (responses of one run are alike).
  size_t hint_bytes = 0;
  size_t hint_events = 0;

  void OnEvent(std::string_view data, std::string_view type, int64_t stamp) override;
  void OnHead(int status);
  void OnBody(const char* p, size_t n, int64_t stamp);
};

// A binary min-heap of requests keyed by a time, each knowing its position
// so it can leave in O(log n) when it completes early (most do).
class ReqHeap {
 public:
  ReqHeap(int64_t Req::*key, int Req::*idx) : key_(key), idx_(idx) {}
  void Push(Req* r);
  void Remove(Req* r);
  Req* Top() const { return v_.empty() ? nullptr : v_[0]; }
  bool Empty() const { return v_.empty(); }

 private:
  void Up(size_t i);
  void Down(size_t i);
  void Place(size_t i, Req* r) {
    v_[i] = r;
    r->*idx_ = static_cast<int>(i);
  }
  std::vector<Req*> v_;
  int64_t Req::*key_;
  int Req::*idx_;
};

}  // namespace servebench
