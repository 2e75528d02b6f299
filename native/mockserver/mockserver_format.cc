#include "mockserver/mockserver_format.h"

#include <cstring>
#include <ctime>

namespace servebench {

namespace {

constexpr char kStampField[] = ",\"sb_send_ns\":\"";
constexpr size_t kStampDigits = 19;
constexpr size_t kMaxHead = 64 * 1024;

bool EqNoCase(const std::string& s, size_t pos, size_t len, const char* lit) {
  if (std::strlen(lit) != len) return false;
  for (size_t i = 0; i < len; ++i) {
    char c = s[pos + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c != lit[i]) return false;
  }
  return true;
}

// Offset of the value after `"key"` + optional spaces + ':' + optional spaces, or npos.
size_t FindValue(const std::string& body, const char* key, size_t from = 0) {
  const size_t klen = std::strlen(key);
  for (size_t at = body.find(key, from); at != std::string::npos; at = body.find(key, at + 1)) {
    size_t i = at + klen;
    while (i < body.size() && (body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r')) ++i;
    if (i >= body.size() || body[i] != ':') continue;
    ++i;
    while (i < body.size() && (body[i] == ' ' || body[i] == '\t' || body[i] == '\n' || body[i] == '\r')) ++i;
    return i;
  }
  return std::string::npos;
}

bool FindTrue(const std::string& body, const char* key) {
  const size_t v = FindValue(body, key);
  return v != std::string::npos && body.compare(v, 4, "true") == 0;
}

// A positive integer value, or -1.
long long FindInt(const std::string& body, const char* key) {
  size_t v = FindValue(body, key);
  if (v == std::string::npos || v >= body.size() || body[v] < '0' || body[v] > '9') return -1;
  long long n = 0;
  for (; v < body.size() && body[v] >= '0' && body[v] <= '9' && n < 100000000; ++v) n = n * 10 + (body[v] - '0');
  return n;
}

// Characters of every string value of `key` in the body (escapes count as one).
uint64_t StringChars(const std::string& body, const char* key) {
  uint64_t chars = 0;
  size_t from = 0;
  for (;;) {
    size_t v = FindValue(body, key, from);
    if (v == std::string::npos) return chars;
    from = v;
    if (v >= body.size() || body[v] != '"') continue;
    for (size_t i = v + 1; i < body.size() && body[i] != '"'; ++i) {
      if (body[i] == '\\') ++i;
      if ((static_cast<unsigned char>(body[i]) & 0xC0) != 0x80) ++chars;  // UTF-8 lead bytes only
    }
  }
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

const char* Reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    default: return "Error";
  }
}

}  // namespace

ParseResult ParseHttpRequest(const std::string& in, ParsedHttpRequest* r) {
  const size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos) return in.size() > kMaxHead ? ParseResult::kBad : ParseResult::kIncomplete;
  const size_t line_end = in.find("\r\n");
  const size_t sp1 = in.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? sp1 : in.find(' ', sp1 + 1);
  if (sp1 == std::string::npos || sp2 == std::string::npos || sp2 > line_end) return ParseResult::kBad;
  r->method = in.substr(0, sp1);
  r->path = in.substr(sp1 + 1, sp2 - sp1 - 1);
  const size_t q = r->path.find('?');
  if (q != std::string::npos) r->path.resize(q);
  const bool http10 = in.compare(sp2 + 1, 8, "HTTP/1.0") == 0;
  bool keep_alive = false;
  size_t length = 0;
  r->close = false;
  r->request_id.clear();
  for (size_t pos = line_end + 2; pos < end;) {
    const size_t eol = in.find("\r\n", pos);
    const size_t colon = in.find(':', pos);
    if (colon != std::string::npos && colon < eol) {
      size_t v = colon + 1;
      while (v < eol && (in[v] == ' ' || in[v] == '\t')) ++v;
      const size_t name_len = colon - pos;
      if (EqNoCase(in, pos, name_len, "content-length")) {
        length = 0;
        for (size_t i = v; i < eol; ++i) {
          if (in[i] < '0' || in[i] > '9' || length > (1u << 30)) return ParseResult::kBad;
          length = length * 10 + static_cast<size_t>(in[i] - '0');
        }
      } else if (EqNoCase(in, pos, name_len, "transfer-encoding")) {
        return ParseResult::kBad;  // chunked request bodies are not served
      } else if (EqNoCase(in, pos, name_len, "connection")) {
        const std::string value = in.substr(v, eol - v);
        if (value.find("close") != std::string::npos || value.find("Close") != std::string::npos) r->close = true;
        if (value.find("eep-alive") != std::string::npos) keep_alive = true;
      } else if (EqNoCase(in, pos, name_len, "x-request-id")) {
        r->request_id = in.substr(v, eol - v);
      }
    }
    pos = eol + 2;
  }
  if (http10 && !keep_alive) r->close = true;
  if (in.size() < end + 4 + length) return ParseResult::kIncomplete;
  r->body.assign(in, end + 4, length);
  r->consumed = end + 4 + length;
  r->chat = r->path == "/v1/chat/completions";
  r->generation = r->method == "POST" && (r->chat || r->path == "/v1/completions");
  return ParseResult::kOk;
}

MockRequest ParseMockRequest(const std::string& body, bool chat, int default_tokens) {
  MockRequest m;
  m.chat = chat;
  m.stream = FindTrue(body, "\"stream\"");
  m.include_usage = FindTrue(body, "\"include_usage\"");
  long long max = chat ? FindInt(body, "\"max_completion_tokens\"") : -1;
  if (max <= 0) max = FindInt(body, "\"max_tokens\"");
  m.length_limited = max > 0;
  m.tokens = max > 0 ? static_cast<size_t>(max) : static_cast<size_t>(default_tokens);
  const uint64_t chars = StringChars(body, chat ? "\"content\"" : "\"prompt\"");
  m.prompt_tokens = (chars + 3) / 4;
  return m;
}

void WriteStamp(char* p, int64_t t) {
  uint64_t v = t < 0 ? 0 : static_cast<uint64_t>(t);
  for (int i = static_cast<int>(kStampDigits) - 1; i >= 0; --i) {
    p[i] = static_cast<char>('0' + v % 10);
    v /= 10;
  }
}

MockFormatter::MockFormatter(const MockServerOptions& o) : o_(o), model_json_(JsonString(o.model)) {}

std::string MockFormatter::NextId(bool chat, int worker, uint64_t n) const {
  return std::string(chat ? "chatcmpl" : "cmpl") + "-fast" + std::to_string(worker) + "x" + std::to_string(n);
}

std::string MockFormatter::Prefix(bool chat, const std::string& id) const {
  return "data: {\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion") +
         "\",\"created\":" + std::to_string(std::time(nullptr)) + ",\"model\":" + model_json_;
}

std::string MockFormatter::Plain(int status, const std::string& json, bool close) const {
  return "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) +
         "\r\ncontent-type: application/json\r\ncontent-length: " + std::to_string(json.size()) + "\r\n" +
         (close ? "connection: close\r\n" : "") + "\r\n" + json;
}

std::string MockFormatter::Route(const ParsedHttpRequest& r) const {
  const bool get = r.method == "GET" || r.method == "HEAD";
  if (r.path == "/health" || r.path == "/v1/models") {
    if (!get)
      return Plain(405, "{\"error\":{\"message\":\"method not allowed\",\"type\":\"invalid_request_error\"}}", r.close);
    if (r.path == "/health") return Plain(200, "{\"status\":\"ok\"}", r.close);
    return Plain(200,
                 "{\"object\":\"list\",\"data\":[{\"id\":" + model_json_ + ",\"object\":\"model\",\"created\":" +
                     std::to_string(std::time(nullptr)) + ",\"owned_by\":\"servebench-mock\"}]}",
                 r.close);
  }
  if (r.path == "/v1/chat/completions" || r.path == "/v1/completions") {
    return Plain(405, "{\"error\":{\"message\":\"method not allowed\",\"type\":\"invalid_request_error\"}}", r.close);
  }
  return Plain(404, "{\"error\":{\"message\":\"no route\",\"type\":\"not_found_error\"}}", r.close);
}

std::string MockFormatter::StreamHead(const std::string& request_id) const {
  std::string h = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\n";
  if (!request_id.empty()) h += "x-request-id: " + request_id + "\r\n";
  return h + "transfer-encoding: chunked\r\n\r\n";
}

void MockFormatter::Chunk(const std::string& event, std::string* out, std::vector<size_t>* stamps,
                          size_t stamp_at) const {
  char hex[20];
  const int n = std::snprintf(hex, sizeof hex, "%zx\r\n", event.size());
  out->append(hex, static_cast<size_t>(n));
  if (stamp_at != std::string::npos) stamps->push_back(out->size() + stamp_at);
  out->append(event);
  out->append("\r\n", 2);
}

const std::string& MockFormatter::Word(uint64_t* rng) const {
  uint64_t x = *rng;  // xorshift64*
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *rng = x;
  return o_.words[(x * 0x2545F4914F6CDD1DULL >> 33) % o_.words.size()];
}

// Ends an event: the send stamp field when stamping, then the closing brace.
#define SB_END_EVENT(stamp_at)            \
  do {                                    \
    if (o_.stamp_events) {                \
      scratch_ += kStampField;            \
      stamp_at = scratch_.size();         \
      scratch_.append(kStampDigits, '0'); \
      scratch_ += '"';                    \
    }                                     \
    scratch_ += "}\n\n";                  \
  } while (0)

void MockFormatter::Role(const std::string& prefix, std::string* out, std::vector<size_t>* stamps) {
  size_t at = std::string::npos;
  scratch_ = prefix;
  scratch_ +=
      ",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_"
      "reason\":null}]";
  SB_END_EVENT(at);
  Chunk(scratch_, out, stamps, at);
}

void MockFormatter::Token(const MockRequest& req, const std::string& prefix, size_t k, uint64_t* rng, std::string* out,
                          std::vector<size_t>* stamps) {
  size_t at = std::string::npos;
  scratch_ = prefix;
  scratch_ +=
      req.chat ? ",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" : ",\"choices\":[{\"index\":0,\"text\":\"";
  scratch_ += Word(rng);
  scratch_ += req.chat ? "\"},\"logprobs\":null,\"finish_reason\":" : "\",\"logprobs\":null,\"finish_reason\":";
  scratch_ += k + 1 < req.tokens ? "null" : (req.length_limited ? "\"length\"" : "\"stop\"");
  scratch_ += "}]";
  SB_END_EVENT(at);
  Chunk(scratch_, out, stamps, at);
}

std::string MockFormatter::Usage(const MockRequest& req) const {
  const uint64_t p = req.prompt_tokens;
  const uint64_t c = req.tokens;
  return "{\"prompt_tokens\":" + std::to_string(p) + ",\"completion_tokens\":" + std::to_string(c) +
         ",\"total_tokens\":" + std::to_string(p + c) + "}";
}

size_t MockFormatter::Closing(const MockRequest& req, const std::string& prefix, std::string* out,
                              std::vector<size_t>* stamps) {
  size_t events = 1;
  if (req.include_usage) {
    size_t at = std::string::npos;
    scratch_ = prefix;
    scratch_ += ",\"choices\":[],\"usage\":";
    scratch_ += Usage(req);
    SB_END_EVENT(at);
    Chunk(scratch_, out, stamps, at);
    ++events;
  }
  Chunk("data: [DONE]\n\n", out, stamps, std::string::npos);
  out->append("0\r\n\r\n", 5);
  return events;
}

#undef SB_END_EVENT

std::string MockFormatter::Body(const MockRequest& req, const std::string& id, uint64_t rng,
                                const std::string& request_id) const {
  std::string text;
  for (size_t k = 0; k < req.tokens; ++k) text += Word(&rng);
  const std::string finish = req.length_limited ? "\"length\"" : "\"stop\"";
  std::string json = "{\"id\":\"" + id + "\",\"object\":\"" + (req.chat ? "chat.completion" : "text_completion") +
                     "\",\"created\":" + std::to_string(std::time(nullptr)) + ",\"model\":" + model_json_ +
                     ",\"choices\":[{\"index\":0,";
  json += req.chat ? "\"message\":{\"role\":\"assistant\",\"content\":\"" + text + "\"}" : "\"text\":\"" + text + "\"";
  json += ",\"logprobs\":null,\"finish_reason\":" + finish + "}],\"usage\":" + Usage(req) + "}";
  std::string resp =
      "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: " + std::to_string(json.size()) + "\r\n";
  if (!request_id.empty()) resp += "x-request-id: " + request_id + "\r\n";
  return resp + "\r\n" + json;
}

}  // namespace servebench
