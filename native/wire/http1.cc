#include "wire/http1.h"

#include <cstring>
#include <utility>

namespace servebench {

namespace {

inline bool IsTchar(unsigned char c) {
  // RFC 9110 token characters.
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  return std::strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != 0;
}

inline char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

bool EqualsNoCase(const char* p, size_t n, const char* lit) {
  const size_t m = std::strlen(lit);
  if (n != m) return false;
  for (size_t i = 0; i < n; ++i) {
    if (Lower(p[i]) != lit[i]) return false;
  }
  return true;
}

inline bool IsOws(char c) { return c == ' ' || c == '\t'; }

// Trims optional whitespace on both sides of [p, p + n).
void Trim(const char*& p, size_t& n) {
  while (n > 0 && IsOws(*p)) {
    ++p;
    --n;
  }
  while (n > 0 && IsOws(p[n - 1])) --n;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Calls fn(token, length) for each comma-separated element, trimmed.
template <typename Fn>
void ForEachToken(const char* p, size_t n, Fn fn) {
  size_t start = 0;
  for (size_t i = 0; i <= n; ++i) {
    if (i == n || p[i] == ',') {
      const char* t = p + start;
      size_t len = i - start;
      Trim(t, len);
      if (len > 0) fn(t, len);
      start = i + 1;
    }
  }
}

}  // namespace

void Http1ResponseParser::Reset() {
  state_ = State::kStatusLine;
  line_.clear();
  message_.clear();
  error_ = Http1Error::kNone;
  status_ = 0;
  minor_version_ = 1;
  head_done_ = started_ = false;
  keep_alive_ = true;
  chunked_ = has_te_ = conn_close_ = conn_keep_alive_ = has_length_ = false;
  length_ = remaining_ = 0;
  head_bytes_ = headers_ = 0;
}

void Http1ResponseParser::Fail(Http1Error kind, std::string message) {
  state_ = State::kFailed;
  error_ = kind;
  message_ = std::move(message);
  keep_alive_ = false;
  line_.clear();
}

size_t Http1ResponseParser::Feed(const char* p, size_t n, int64_t stamp) {
  size_t used = 0;
  if (n > 0 && state_ != State::kDone && state_ != State::kFailed) started_ = true;
  while (used < n) {
    const char* q = p + used;
    const size_t avail = n - used;
    switch (state_) {
      case State::kDone:
      case State::kFailed: return used;
      case State::kStatusLine:
      case State::kHeaders:
      case State::kChunkSize:
      case State::kTrailers: used += FeedLine(q, avail); break;
      case State::kChunkData:
      case State::kBodyLength: {
        const size_t take = remaining_ < avail ? static_cast<size_t>(remaining_) : avail;
        handler_->OnBody(q, take, stamp);
        remaining_ -= take;
        used += take;
        if (remaining_ == 0) state_ = state_ == State::kChunkData ? State::kChunkDataCr : State::kDone;
        break;
      }
      case State::kChunkDataCr:
        if (*q == '\r') {
          state_ = State::kChunkDataLf;
          ++used;
        } else if (*q == '\n') {
          state_ = State::kChunkSize;
          ++used;
        } else {
          Fail(Http1Error::kParse, "invalid chunked encoding: chunk data not followed by CRLF");
        }
        break;
      case State::kChunkDataLf:
        if (*q == '\n') {
          state_ = State::kChunkSize;
          ++used;
        } else {
          Fail(Http1Error::kParse, "invalid chunked encoding: chunk data not followed by CRLF");
        }
        break;
      case State::kBodyUntilClose:
        handler_->OnBody(q, avail, stamp);
        used = n;
        break;
    }
  }
  return used;
}

size_t Http1ResponseParser::FeedLine(const char* p, size_t n) {
  const bool in_head = state_ != State::kChunkSize;
  const char* nl = static_cast<const char*>(std::memchr(p, '\n', n));
  const size_t seg = nl ? static_cast<size_t>(nl - p) : n;
  const size_t used = nl ? seg + 1 : n;
  if (in_head) {
    head_bytes_ += used;
    if (head_bytes_ > limits_.max_head) {
      Fail(Http1Error::kParse, "response header block over " + std::to_string(limits_.max_head) + " bytes");
      return used;
    }
  }
  // The line end (CR) is not counted against the limit.
  size_t len = line_.size() + seg;
  char last = '\0';
  if (seg > 0) {
    last = p[seg - 1];
  } else if (!line_.empty()) {
    last = line_.back();
  }
  if (last == '\r') --len;
  if (len > limits_.max_line) {
    Fail(Http1Error::kParse, std::string(state_ == State::kChunkSize ? "chunk size" : "response header") +
                                 " line over " + std::to_string(limits_.max_line) + " bytes");
    return used;
  }
  if (!nl) {
    line_.append(p, n);
    return n;
  }
  if (line_.empty()) {
    Line(p, len);
  } else {
    line_.append(p, seg);
    line_.resize(len);
    Line(line_.data(), line_.size());
    line_.clear();
  }
  return used;
}

bool Http1ResponseParser::Line(const char* p, size_t n) {
  switch (state_) {
    case State::kStatusLine: return StatusLine(p, n);
    case State::kHeaders:
      if (n == 0) return EndOfHead();
      return HeaderLine(p, n);
    case State::kChunkSize: return ChunkSizeLine(p, n);
    case State::kTrailers:
      if (n == 0) {
        state_ = State::kDone;
      } else if (++headers_ > limits_.max_headers) {
        Fail(Http1Error::kParse, "more than " + std::to_string(limits_.max_headers) + " trailer fields");
        return false;
      }
      return true;
    default: return false;
  }
}

bool Http1ResponseParser::StatusLine(const char* p, size_t n) {
  // HTTP/1.x SP 3DIGIT [SP reason]
  if (n < 12 || std::memcmp(p, "HTTP/1.", 7) != 0 || p[7] < '0' || p[7] > '9' || p[8] != ' ' ||
      (n > 12 && p[12] != ' ')) {
    Fail(Http1Error::kParse, "invalid status line");
    return false;
  }
  int status = 0;
  for (int i = 9; i < 12; ++i) {
    if (p[i] < '0' || p[i] > '9') {
      Fail(Http1Error::kParse, "invalid status line");
      return false;
    }
    status = status * 10 + (p[i] - '0');
  }
  if (status < 100 || status > 599) {
    Fail(Http1Error::kParse, "invalid status code " + std::to_string(status));
    return false;
  }
  status_ = status;
  minor_version_ = p[7] - '0';
  state_ = State::kHeaders;
  return true;
}

bool Http1ResponseParser::HeaderLine(const char* p, size_t n) {
  if (++headers_ > limits_.max_headers) {
    Fail(Http1Error::kParse, "more than " + std::to_string(limits_.max_headers) + " response headers");
    return false;
  }
  if (IsOws(p[0])) {
    Fail(Http1Error::kParse, "invalid response header: obsolete line folding");
    return false;
  }
  const char* colon = static_cast<const char*>(std::memchr(p, ':', n));
  if (colon == nullptr || colon == p) {
    Fail(Http1Error::kParse, "invalid response header line (no field name)");
    return false;
  }
  const size_t name_len = static_cast<size_t>(colon - p);
  for (size_t i = 0; i < name_len; ++i) {
    if (!IsTchar(static_cast<unsigned char>(p[i]))) {
      Fail(Http1Error::kParse, "invalid character in a response header name");
      return false;
    }
  }
  const char* v = colon + 1;
  size_t vlen = n - name_len - 1;
  Trim(v, vlen);
  if (EqualsNoCase(p, name_len, "content-length")) {
    if (vlen == 0 || vlen > 18) {
      Fail(Http1Error::kParse, "invalid Content-Length");
      return false;
    }
    uint64_t len = 0;
    for (size_t i = 0; i < vlen; ++i) {
      if (v[i] < '0' || v[i] > '9') {
        Fail(Http1Error::kParse, "invalid Content-Length");
        return false;
      }
      len = len * 10 + static_cast<uint64_t>(v[i] - '0');
    }
    if (has_length_ && len != length_) {
      Fail(Http1Error::kParse, "conflicting Content-Length headers");
      return false;
    }
    has_length_ = true;
    length_ = len;
  } else if (EqualsNoCase(p, name_len, "transfer-encoding")) {
    has_te_ = true;
    bool last_chunked = false;
    ForEachToken(v, vlen, [&](const char* t, size_t len) { last_chunked = EqualsNoCase(t, len, "chunked"); });
    chunked_ = last_chunked;
  } else if (EqualsNoCase(p, name_len, "connection")) {
    ForEachToken(v, vlen, [&](const char* t, size_t len) {
      if (EqualsNoCase(t, len, "close")) conn_close_ = true;
      if (EqualsNoCase(t, len, "keep-alive")) conn_keep_alive_ = true;
    });
  }
  return true;
}

bool Http1ResponseParser::EndOfHead() {
  if (status_ < 200) {
    if (status_ == 101) {
      Fail(Http1Error::kParse, "unexpected 101 Switching Protocols");
      return false;
    }
    // An interim response (100 Continue, 103 Early Hints): the real one follows.
    state_ = State::kStatusLine;
    chunked_ = has_te_ = conn_close_ = conn_keep_alive_ = has_length_ = false;
    length_ = 0;
    head_bytes_ = headers_ = 0;
    return true;
  }
  head_done_ = true;
  keep_alive_ = !conn_close_ && (minor_version_ >= 1 || conn_keep_alive_);
  head_bytes_ = headers_ = 0;
  handler_->OnHead(status_);
  if (status_ == 204 || status_ == 304) {
    state_ = State::kDone;
  } else if (has_te_) {
    // Transfer-Encoding overrides Content-Length; with both, the framing is
    // suspect, so the connection is not reused.
    if (has_length_) keep_alive_ = false;
    if (chunked_) {
      state_ = State::kChunkSize;
    } else {
      state_ = State::kBodyUntilClose;
      keep_alive_ = false;
    }
  } else if (has_length_) {
    remaining_ = length_;
    state_ = length_ == 0 ? State::kDone : State::kBodyLength;
  } else {
    state_ = State::kBodyUntilClose;
    keep_alive_ = false;
  }
  return true;
}

bool Http1ResponseParser::ChunkSizeLine(const char* p, size_t n) {
  size_t i = 0;
  uint64_t size = 0;
  for (; i < n; ++i) {
    const int h = HexValue(p[i]);
    if (h < 0) break;
    if (i == 15) {
      Fail(Http1Error::kParse, "invalid chunked encoding: chunk size too large");
      return false;
    }
    size = size * 16 + static_cast<uint64_t>(h);
  }
  const size_t digits = i;
  while (i < n && IsOws(p[i])) ++i;
  if (digits == 0 || (i < n && p[i] != ';')) {
    Fail(Http1Error::kParse, "invalid chunked encoding: bad chunk size line");
    return false;
  }
  if (size == 0) {
    state_ = State::kTrailers;
    head_bytes_ = headers_ = 0;
  } else {
    remaining_ = size;
    state_ = State::kChunkData;
  }
  return true;
}

const char* Http1ResponseParser::Where() const {
  switch (state_) {
    case State::kStatusLine:
    case State::kHeaders: return "in the response head (truncated headers)";
    case State::kChunkSize:
    case State::kChunkData:
    case State::kChunkDataCr:
    case State::kChunkDataLf: return "mid-chunk (the chunked body never ended)";
    case State::kTrailers: return "in the trailers";
    default: return "";
  }
}

void Http1ResponseParser::Eof() {
  switch (state_) {
    case State::kDone:
    case State::kFailed: return;
    case State::kBodyUntilClose:
      state_ = State::kDone;
      keep_alive_ = false;
      return;
    case State::kBodyLength:
      Fail(Http1Error::kConnection, "connection closed after " + std::to_string(length_ - remaining_) + " of " +
                                        std::to_string(length_) + " body bytes");
      return;
    default:
      if (!started_) {
        Fail(Http1Error::kConnection, "connection closed before any response byte");
      } else {
        Fail(Http1Error::kConnection, std::string("connection closed ") + Where());
      }
  }
}

}  // namespace servebench
