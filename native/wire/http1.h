// HTTP/1.1 response parsing for the native stream engine.
//
// Http1ResponseParser is plain C++ with no N-API dependency: the engine's I/O
// threads run it, and http1.cc builds alone for fuzzing and sanitizer runs.
// RegisterHttp1 (http1_binding.cc) adds a JS binding, `http1Parse`, that
// feeds one response through it (for tests).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace servebench {

// How a response failed. Malformed bytes are a parse error; a peer that
// closes before the message ends is a connection error.
enum class Http1Error : uint8_t { kNone = 0, kParse = 1, kConnection = 2 };

struct Http1Limits {
  size_t max_line = 16 * 1024;  // status line, header, chunk-size or trailer line
  size_t max_head = 64 * 1024;  // a whole header block (and the trailers)
  size_t max_headers = 256;
};

class Http1Handler {
 public:
  virtual ~Http1Handler() = default;
  // The final (non-1xx) header block is complete; body bytes follow.
  virtual void OnHead(int status) = 0;
  // Decoded body bytes (chunk framing removed). `stamp` is the arrival time
  // of the read that held them. The view is only valid during the call.
  virtual void OnBody(const char* p, size_t n, int64_t stamp) = 0;
};

// Incremental parser of one response at a time (no pipelining): status line,
// headers (Content-Length, Transfer-Encoding, Connection), then a body framed
// by chunked encoding, by Content-Length, or by the connection closing.
// 1xx interim responses are skipped. CRLF and bare LF line ends are accepted.
// It never buffers body bytes: they go to the handler as they are fed.
class Http1ResponseParser {
 public:
  explicit Http1ResponseParser(Http1Handler* handler, Http1Limits limits = Http1Limits())
      : handler_(handler), limits_(limits) {}

  // Back to the start of a new response (reuses buffer capacity).
  void Reset();

  // Feeds the next bytes. Returns how many were consumed: all of them unless
  // the response ended (done()) or failed part-way. Bytes after the end of a
  // response belong to no request we sent.
  size_t Feed(const char* p, size_t n, int64_t stamp);

  // The peer closed the connection: ends a body framed by the close, and
  // fails anything else that is unfinished with a connection error.
  void Eof();

  bool done() const { return state_ == State::kDone; }
  bool failed() const { return state_ == State::kFailed; }
  // Whether any byte of the response has been fed.
  bool started() const { return started_; }
  Http1Error error() const { return error_; }
  const std::string& message() const { return message_; }
  // The final status (0 until its header block is complete).
  int status() const { return head_done_ ? status_ : 0; }
  // Whether the connection may carry another request once this one is done.
  bool keep_alive() const { return keep_alive_; }

 private:
  enum class State : uint8_t {
    kStatusLine,
    kHeaders,
    kChunkSize,
    kChunkData,
    kChunkDataCr,
    kChunkDataLf,
    kTrailers,
    kBodyLength,
    kBodyUntilClose,
    kDone,
    kFailed,
  };

  // Offers a line-oriented state the bytes at p[0..n); returns bytes used.
  size_t FeedLine(const char* p, size_t n);
  // Handles one complete line (without its line end). Returns false on error.
  bool Line(const char* p, size_t n);
  bool StatusLine(const char* p, size_t n);
  bool HeaderLine(const char* p, size_t n);
  bool EndOfHead();
  bool ChunkSizeLine(const char* p, size_t n);
  void Fail(Http1Error kind, std::string message);
  const char* Where() const;

  Http1Handler* handler_;
  Http1Limits limits_;
  State state_ = State::kStatusLine;
  std::string line_;  // a line split across reads
  std::string message_;
  Http1Error error_ = Http1Error::kNone;
  int status_ = 0;
  int minor_version_ = 1;
  bool head_done_ = false;
  bool started_ = false;
  bool keep_alive_ = true;
  bool chunked_ = false;
  bool has_te_ = false;
  bool conn_close_ = false;
  bool conn_keep_alive_ = false;
  bool has_length_ = false;
  uint64_t length_ = 0;     // Content-Length
  uint64_t remaining_ = 0;  // bytes left in the current chunk or length-framed body
  size_t head_bytes_ = 0;   // bytes of the current header block (or trailers)
  size_t headers_ = 0;      // header lines in the current block
};

}  // namespace servebench
