// The fast mock's wire format: reading HTTP/1.1 requests and the few fields
// of an OpenAI request body it needs, and writing responses byte for byte in
// the shapes the TypeScript mock sends (src/mock/openai.ts).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "mockserver/mockserver.h"

namespace servebench {

struct ParsedHttpRequest {
  size_t consumed = 0;  // head + body bytes
  std::string method;
  std::string path;
  std::string body;
  std::string request_id;   // X-Request-ID, echoed back
  bool close = false;       // Connection: close, or HTTP/1.0
  bool generation = false;  // POST to a completions path
  bool chat = false;
};

enum class ParseResult { kOk, kIncomplete, kBad };

// Parses the first request in `in` (no chunked request bodies).
ParseResult ParseHttpRequest(const std::string& in, ParsedHttpRequest* r);

// What a generation request asks for.
struct MockRequest {
  bool chat = true;
  bool stream = false;
  bool include_usage = false;
  bool length_limited = false;  // max_tokens was given: finish_reason "length"
  size_t tokens = 0;
  uint64_t prompt_tokens = 0;  // ceil(prompt characters / 4), as the TS mock estimates
};

// Reads stream, stream_options.include_usage, max_completion_tokens /
// max_tokens and the prompt's size from a JSON body by key search (the body
// is not validated: this mode serves harness benchmarks, not API tests).
MockRequest ParseMockRequest(const std::string& body, bool chat, int default_tokens);

// Writes `t` as 19 decimal digits (zero-padded) at p.
void WriteStamp(char* p, int64_t t);

class MockFormatter {
 public:
  explicit MockFormatter(const MockServerOptions& o);

  std::string NextId(bool chat, int worker, uint64_t n) const;
  // `data: {"id":...,"object":...,"created":...,"model":...` of one response.
  std::string Prefix(bool chat, const std::string& id) const;
  // A whole response with a JSON body.
  std::string Plain(int status, const std::string& json, bool close) const;
  // /health, /v1/models, and 404/405 for anything else that is not a generation.
  std::string Route(const ParsedHttpRequest& r) const;
  std::string StreamHead(const std::string& request_id) const;

  // Events, each appended as one HTTP chunk; `stamps` gets the offset of
  // each event's sb_send_ns digits when stamping is on.
  void Role(const std::string& prefix, std::string* out, std::vector<size_t>* stamps);
  void Token(const MockRequest& req, const std::string& prefix, size_t k, uint64_t* rng, std::string* out,
             std::vector<size_t>* stamps);
  // The usage event (when asked), [DONE] and the last chunk; returns the events written.
  size_t Closing(const MockRequest& req, const std::string& prefix, std::string* out, std::vector<size_t>* stamps);
  // A whole non-streaming response.
  std::string Body(const MockRequest& req, const std::string& id, uint64_t rng, const std::string& request_id) const;

 private:
  void Chunk(const std::string& event, std::string* out, std::vector<size_t>* stamps, size_t stamp_at) const;
  std::string Usage(const MockRequest& req) const;
  const std::string& Word(uint64_t* rng) const;

  const MockServerOptions& o_;
  std::string model_json_;
  std::string scratch_;
};

}  // namespace servebench
