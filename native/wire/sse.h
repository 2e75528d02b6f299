// SSE (text/event-stream) framing.
//
// SseFramer (sse.cc) is plain C++ with no N-API dependency, so the same code
// frames events on the native engine's I/O thread and can be built alone for
// fuzzing and sanitizer runs. RegisterSse (sse_binding.cc) adds the JS binding
// `frameSse` (one call per response).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace servebench {

// Receives each dispatched event. The views are only valid during the call.
class SseSink {
 public:
  virtual ~SseSink() = default;
  // data: the event's data buffer, UTF-8 bytes not yet validated.
  // type: the `event:` field ('' if none). stamp: stamp of the chunk that
  // held the event's terminating blank line.
  virtual void OnEvent(std::string_view data, std::string_view type, int64_t stamp) = 0;
};

// Incremental framer following the WHATWG event-stream interpretation:
// CR, LF and CRLF line ends (CRLF may straddle chunks), one leading BOM
// stripped, comments, `field:value` with one optional space, data lines
// joined with LF, empty data buffers not dispatched. Works on bytes: every
// byte it acts on is ASCII, so splitting inside a UTF-8 character is harmless
// and decoding is left to the sink, once per complete event.
class SseFramer {
 public:
  explicit SseFramer(SseSink* sink) : sink_(sink) {}

  // Feeds the next chunk of the body; `stamp` is the chunk's arrival time.
  void Feed(const char* p, size_t n, int64_t stamp);

  // Bytes received after the last event boundary (blank line): the size of
  // an unterminated final event, comments and all. The BOM is not counted.
  uint64_t trailing_bytes() const { return total_ - boundary_ + (bom_done_ ? 0 : bom_matched_); }

  // Back to the state of a new stream (reuses buffer capacity up to a bound).
  void Reset();

  // Caps one event: once the bytes of an event as received (its lines, terminators, comments)
  // pass `n`, the framer stops and over() turns true, so an endless line cannot grow its buffers.
  void set_max_event(uint64_t n) { max_event_ = n; }
  bool over() const { return over_; }

 private:
  void Scan(const char* p, size_t n, int64_t stamp);
  // Processes one complete line; returns true if it was blank (a boundary).
  bool Line(const char* p, size_t n, int64_t stamp);

  SseSink* sink_;
  std::string line_;         // a line split across chunks, up to the current chunk
  std::string data_;         // the event's data buffer (each value followed by LF)
  std::string type_;         // the event type buffer
  uint64_t total_ = 0;       // bytes scanned so far (BOM excluded)
  uint64_t boundary_ = 0;    // value of total_ just after the last blank line
  uint8_t bom_matched_ = 0;  // leading bytes matching the BOM so far
  bool bom_done_ = false;
  bool skip_lf_ = false;  // the previous chunk ended in CR: a leading LF joins it
  bool over_ = false;     // an event passed max_event_: nothing more is framed
  uint64_t max_event_ = UINT64_MAX;
};

}  // namespace servebench
