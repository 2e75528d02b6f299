// libFuzzer target for the native engine's response path: the HTTP/1.1 parser (native/wire/http1.cc)
// with the SSE framer (native/wire/sse.cc) on the decoded body, exactly as an engine I/O thread runs them.
//
// Input: byte 0 picks the feed pattern and whether the peer closes at the end; the rest is the
// bytes a server sent. Checked on every input, besides what ASan/UBSan catch:
//   - the parser never consumes more than it was given and, after a close, is never left unfinished;
//   - feeding the same bytes whole or split at fuzzer-chosen points gives the same outcome: status,
//     completion, error kind, decoded body, bytes consumed, and the same SSE events.
// TLS mode (built with -DSERVEBENCH_FUZZ_TLS: fuzz/run.sh … http1_sse_tls): the same bytes also
// travel through a TLS connection and the engine's TLS read path (fuzz/tls_feed.h), in fuzzer-chosen
// record sizes, ciphertext pieces and read-buffer sizes, and must give the same outcome.
// Build and run: npm run fuzz (fuzz/run.sh).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "wire/http1.h"
#include "wire/sse.h"
#ifdef SERVEBENCH_FUZZ_TLS
#include "tls_feed.h"
#endif

namespace {

using servebench::Http1Error;
using servebench::Http1Handler;
using servebench::Http1ResponseParser;
using servebench::SseFramer;
using servebench::SseSink;

// Collects the events of a framer with a small per-event cap (as the engine's --max-event-bytes).
struct Capped : SseSink {
  explicit Capped(uint64_t cap) : framer(this) { framer.set_max_event(cap); }
  SseFramer framer;
  std::vector<std::string> events;
  void OnEvent(std::string_view data, std::string_view, int64_t) override {
    if (framer.over()) __builtin_trap();  // nothing is framed past the cap
    events.emplace_back(data);
  }
};

struct Outcome : Http1Handler, SseSink {
  explicit Outcome(uint64_t cap) : framer(this), capped(cap) {}
  SseFramer framer;
  Capped capped;
  std::string body;
  std::vector<std::string> events;
  int heads = 0;
  void OnHead(int) override { ++heads; }
  void OnBody(const char* p, size_t n, int64_t stamp) override {
    body.append(p, n);
    framer.Feed(p, n, stamp);
    capped.framer.Feed(p, n, stamp);
  }
  void OnEvent(std::string_view data, std::string_view type, int64_t) override {
    events.emplace_back(std::string(type) + '\n' + std::string(data));
  }
};

struct Result {
  bool done, failed;
  Http1Error error;
  int status;
  std::string body;
  std::vector<std::string> events;
  size_t consumed;
  std::vector<std::string> capped_events;
  bool over;
};

Result Run(const uint8_t* data, size_t size, const std::vector<size_t>& cuts, bool eof, uint64_t cap) {
  Outcome out(cap);
  Http1ResponseParser parser(&out);
  size_t consumed = 0;
  size_t prev = 0;
  std::vector<size_t> ends = cuts;
  ends.push_back(size);
  int64_t stamp = 0;
  for (size_t end : ends) {
    if (end < prev) continue;
    const size_t used = parser.Feed(reinterpret_cast<const char*>(data) + prev, end - prev, ++stamp);
    if (used > end - prev) __builtin_trap();
    consumed += used;
    prev = end;
    if (parser.done() || parser.failed()) break;
  }
  if (eof) {
    parser.Eof();
    if (!parser.done() && !parser.failed()) __builtin_trap();  // a close must settle the response
  }
  if (parser.done() && parser.failed()) __builtin_trap();
  if (out.heads > 1) __builtin_trap();
  // Below the cap the capped framer frames exactly what the other does, up to where it stopped.
  const std::vector<std::string>& capped = out.capped.events;
  if (capped.size() > out.events.size()) __builtin_trap();
  if (!out.capped.framer.over() && capped.size() != out.events.size()) __builtin_trap();
  return {parser.done(), parser.failed(), parser.error(), parser.status(),         out.body,
          out.events,    consumed,        capped,         out.capped.framer.over()};
}

#ifdef SERVEBENCH_FUZZ_TLS
// The outcome of the bytes read back through TLS (the parser fed per decrypted read, as the engine does).
Result RunTls(const uint8_t* data, size_t size, bool eof, uint64_t cap, uint32_t seed) {
  Outcome out(cap);
  Http1ResponseParser parser(&out);
  size_t consumed = 0;
  int64_t stamp = 0;
  tls_feed::Feed feed;
  feed.on_bytes = [&](const char* p, size_t n) {
    const size_t used = parser.Feed(p, n, ++stamp);
    if (used > n) __builtin_trap();
    consumed += used;
    return !(parser.done() || parser.failed());
  };
  feed.on_eof = [&] { parser.Eof(); };
  tls_feed::Run(data, size, eof, seed, feed);
  if (eof && !parser.done() && !parser.failed()) __builtin_trap();
  return {parser.done(), parser.failed(), parser.error(),    parser.status(),         out.body,
          out.events,    consumed,        out.capped.events, out.capped.framer.over()};
}
#endif

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t mode = data[0];
  ++data;
  --size;
  const bool eof = mode & 1;
  // Split points: every byte (mode bit 1), or a pseudo-random set derived from the input.
  std::vector<size_t> cuts;
  if (mode & 2) {
    for (size_t i = 1; i < size; ++i) cuts.push_back(i);
  } else {
    uint32_t x = 2166136261u ^ mode;
    for (size_t i = 0; i < size; ++i) x = (x ^ data[i]) * 16777619u;
    const size_t n = size ? (mode >> 2) % 16 : 0;
    for (size_t i = 0; i < n; ++i) {
      x = x * 1103515245u + 12345u;
      cuts.push_back(1 + x % size);
    }
    std::sort(cuts.begin(), cuts.end());
  }
  // The per-event cap of the capped framer: small, so inputs reach it.
  const uint64_t cap = 1 + (mode >> 2) % 64;
  const Result whole = Run(data, size, {}, eof, cap);
  const Result split = Run(data, size, cuts, eof, cap);
  if (whole.done != split.done || whole.failed != split.failed || whole.error != split.error ||
      whole.status != split.status || whole.body != split.body) {
    __builtin_trap();
  }
  // A failure is seen where the offending bytes are, which a split may place earlier (an oversized
  // line is refused as soon as it is too long); a success consumes exactly the response.
  if (!whole.failed && whole.consumed != split.consumed) __builtin_trap();
  // Events are compared by content; stamps differ by design (they name the read).
  if (whole.events != split.events) __builtin_trap();
  // Where the cap is passed does not depend on how the body was split.
  if (whole.over != split.over || whole.capped_events != split.capped_events) __builtin_trap();
#ifdef SERVEBENCH_FUZZ_TLS
  uint32_t seed = 2166136261u ^ static_cast<uint32_t>(size);
  for (size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 16777619u;
  const Result tls = RunTls(data, size, eof, cap, seed ^ mode);
  if (whole.done != tls.done || whole.failed != tls.failed || whole.error != tls.error || whole.status != tls.status ||
      whole.body != tls.body || whole.events != tls.events || whole.over != tls.over ||
      whole.capped_events != tls.capped_events) {
    __builtin_trap();
  }
  if (!whole.failed && whole.consumed != tls.consumed) __builtin_trap();
#endif
  return 0;
}
