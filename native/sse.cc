#include "sse.h"

#include <cstring>

namespace servebench {

namespace {
constexpr char kBom[3] = {'\xEF', '\xBB', '\xBF'};

// Offset of the first `c` in [p + from, p + n), or n when absent.
inline size_t Find(const char* p, size_t from, size_t n, char c) {
  const void* hit = std::memchr(p + from, c, n - from);
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - p) : n;
}
}  // namespace

void SseFramer::Reset() {
  line_.clear();
  data_.clear();
  type_.clear();
  total_ = boundary_ = 0;
  bom_matched_ = 0;
  bom_done_ = skip_lf_ = false;
}

void SseFramer::Feed(const char* p, size_t n, int64_t stamp) {
  if (!bom_done_) {
    // The BOM may itself arrive split across chunks, so match it bytewise.
    while (n > 0 && bom_matched_ < 3 && *p == kBom[bom_matched_]) {
      ++bom_matched_;
      ++p;
      --n;
    }
    if (bom_matched_ == 3) {
      bom_done_ = true;
    } else if (n == 0) {
      return;  // undecided: wait for more bytes
    } else {
      // Not a BOM: the bytes held back are ordinary content (never line ends).
      bom_done_ = true;
      Scan(kBom, bom_matched_, stamp);
    }
  }
  Scan(p, n, stamp);
}

void SseFramer::Scan(const char* p, size_t n, int64_t stamp) {
  if (n == 0) return;
  const uint64_t base = total_;
  total_ += n;
  size_t i = 0;
  if (skip_lf_) {
    skip_lf_ = false;
    if (p[0] == '\n') {
      i = 1;
      // The CR ending the previous chunk closed a blank line: its LF belongs
      // to that boundary, not to the next event.
      if (boundary_ == base) boundary_ = base + 1;
    }
  }
  // Next LF and next CR, each found once and refreshed only when passed, so
  // the chunk is scanned by memchr in O(n) whatever the mix of line ends.
  size_t lf = Find(p, i, n, '\n');
  size_t cr = Find(p, i, n, '\r');
  while (i < n) {
    if (lf < i) lf = Find(p, i, n, '\n');
    if (cr < i) cr = Find(p, i, n, '\r');
    const size_t eol = lf < cr ? lf : cr;
    if (eol == n) {
      line_.append(p + i, n - i);
      return;
    }
    size_t next = eol + 1;
    if (p[eol] == '\r') {
      if (next < n) {
        if (p[next] == '\n') ++next;
      } else {
        skip_lf_ = true;
      }
    }
    bool blank;
    if (line_.empty()) {
      blank = Line(p + i, eol - i, stamp);
    } else {
      line_.append(p + i, eol - i);
      blank = Line(line_.data(), line_.size(), stamp);
      line_.clear();
    }
    if (blank) boundary_ = base + next;
    i = next;
  }
}

bool SseFramer::Line(const char* p, size_t n, int64_t stamp) {
  if (n == 0) {
    // Dispatch. An empty data buffer dispatches nothing but still resets.
    if (!data_.empty()) {
      data_.pop_back();  // the LF appended after the last data line
      sink_->OnEvent(std::string_view(data_), std::string_view(type_), stamp);
    }
    data_.clear();
    type_.clear();
    return true;
  }
  if (p[0] == ':') return false;  // comment
  const char* colon = static_cast<const char*>(std::memchr(p, ':', n));
  const size_t flen = colon ? static_cast<size_t>(colon - p) : n;
  const char* v = p + n;
  size_t vlen = 0;
  if (colon) {
    v = colon + 1;
    vlen = n - flen - 1;
    if (vlen > 0 && *v == ' ') {
      ++v;
      --vlen;
    }
  }
  if (flen == 4 && std::memcmp(p, "data", 4) == 0) {
    data_.append(v, vlen);
    data_.push_back('\n');
  } else if (flen == 5 && std::memcmp(p, "event", 5) == 0) {
    type_.assign(v, vlen);
  }
  // `id`, `retry` and unknown fields are parsed and ignored.
  return false;
}

}  // namespace servebench

#ifndef SERVEBENCH_SSE_CORE_ONLY
#include <napi.h>

#include <vector>

namespace servebench {

namespace {

[[noreturn]] void ThrowType(Napi::Env env, const char* message) {
  Napi::TypeError err = Napi::TypeError::New(env, message);
  err.Set("code", Napi::String::New(env, "SB_NATIVE_BAD_ARG"));
  throw err;
}

bool IsAscii(std::string_view s) {
  const char* p = s.data();
  size_t n = s.size();
  uint64_t acc = 0;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    acc |= w;
  }
  for (; n > 0; ++p, --n) acc |= static_cast<unsigned char>(*p);
  return (acc & 0x8080808080808080ULL) == 0;
}

// Builds a JS array from many values. Setting elements one by one through
// napi_set_element costs more than creating the strings; passing them as the
// arguments of Array.of / push goes through V8's fast argument path instead.
Napi::Value MakeArray(const Napi::Function& array_of, const Napi::Function& push,
                      const std::vector<napi_value>& values) {
  constexpr size_t kBlock = 8192;  // far below V8's limit on arguments per call
  const size_t n = values.size();
  const size_t first = n < kBlock ? n : kBlock;
  Napi::Value arr = array_of.Call(first, values.data());
  for (size_t i = first; i < n; i += kBlock) {
    const size_t k = n - i < kBlock ? n - i : kBlock;
    push.Call(arr, k, values.data() + i);
  }
  return arr;
}

// Builds the JS values as events arrive: the data bytes live only during
// OnEvent, and creating the string there avoids copying them a second time.
class JsCollector final : public SseSink {
 public:
  explicit JsCollector(Napi::Env env) : env_(env), empty_(Napi::String::New(env, "", 0)) {}

  void Reserve(size_t n) {
    data_.reserve(n);
    types_.reserve(n);
    stamps_.reserve(n);
  }

  void OnEvent(std::string_view data, std::string_view type, int64_t stamp) override {
    data_.push_back(MakeString(data));
    stamps_.push_back(stamp);
    if (type.empty()) {
      types_.push_back(empty_);
    } else {
      // Streams repeat a handful of event types: reuse the last JS string.
      if (!has_last_type_ || type != last_type_) {
        last_type_.assign(type.data(), type.size());
        last_type_js_ = Napi::String::New(env_, type.data(), type.size());
        has_last_type_ = true;
      }
      types_.push_back(last_type_js_);
    }
  }

  // Most payloads are ASCII JSON: those are copied as Latin-1, which skips
  // V8's UTF-8 decoder. Anything else goes through it, and V8 replaces
  // invalid sequences with U+FFFD.
  napi_value MakeString(std::string_view s) const {
    napi_value out;
    napi_status st = IsAscii(s) ? napi_create_string_latin1(env_, s.data(), s.size(), &out)
                                : napi_create_string_utf8(env_, s.data(), s.size(), &out);
    NAPI_THROW_IF_FAILED(env_, st, nullptr);
    return out;
  }

  Napi::Object Result(uint64_t trailing_bytes) const {
    const size_t n = data_.size();
    Napi::Function array_of = env_.Global().Get("Array").As<Napi::Object>().Get("of").As<Napi::Function>();
    Napi::Function push = env_.Global().Get("Array").As<Napi::Object>().Get("prototype").As<Napi::Object>()
                              .Get("push").As<Napi::Function>();
    Napi::Value data = MakeArray(array_of, push, data_);
    Napi::Value types = MakeArray(array_of, push, types_);
    Napi::ArrayBuffer buf = Napi::ArrayBuffer::New(env_, n * sizeof(int64_t));
    if (n > 0) std::memcpy(buf.Data(), stamps_.data(), n * sizeof(int64_t));
    Napi::Object out = Napi::Object::New(env_);
    out.Set("data", data);
    out.Set("stamps", Napi::TypedArrayOf<int64_t>::New(env_, n, buf, 0, napi_bigint64_array));
    out.Set("types", types);
    out.Set("trailing_bytes", Napi::Number::New(env_, static_cast<double>(trailing_bytes)));
    return out;
  }

 private:
  Napi::Env env_;
  Napi::String empty_;
  std::vector<napi_value> data_;
  std::vector<napi_value> types_;
  std::vector<int64_t> stamps_;
  std::string last_type_;
  napi_value last_type_js_ = nullptr;
  bool has_last_type_ = false;
};

struct Chunk {
  const char* p;
  size_t n;
};

Napi::Value FrameSse(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Guards only: the TS wrapper (src/transport/sse.ts) validates properly.
  if (info.Length() != 2) ThrowType(env, "frameSse(chunks, stamps): expected 2 arguments");
  if (!info[0].IsArray()) ThrowType(env, "frameSse: chunks must be an Array of Buffers");
  if (!info[1].IsTypedArray() ||
      info[1].As<Napi::TypedArray>().TypedArrayType() != napi_bigint64_array) {
    ThrowType(env, "frameSse: stamps must be a BigInt64Array");
  }
  Napi::Array arr = info[0].As<Napi::Array>();
  Napi::TypedArrayOf<int64_t> stamps = info[1].As<Napi::TypedArrayOf<int64_t>>();
  const uint32_t count = arr.Length();
  if (stamps.ElementLength() != count) {
    ThrowType(env, "frameSse: stamps.length must equal chunks.length");
  }

  // Validate every chunk before doing any work. Pointers are taken in a
  // second pass: an element getter (JS) could detach an earlier chunk.
  std::vector<napi_value> values(count);
  for (uint32_t i = 0; i < count; ++i) {
    napi_value v = arr.Get(i);
    bool is_ta = false;
    napi_typedarray_type type = napi_int8_array;
    NAPI_THROW_IF_FAILED(env, napi_is_typedarray(env, v, &is_ta), Napi::Value());
    if (is_ta) {
      NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, v, &type, nullptr, nullptr, nullptr, nullptr),
                           Napi::Value());
    }
    // Buffer is a Uint8Array; other views (DataView, Float64Array...) are
    // refused rather than read as bytes.
    if (!is_ta || type != napi_uint8_array) {
      ThrowType(env, "frameSse: every chunk must be a Buffer (Uint8Array)");
    }
    values[i] = v;
  }
  std::vector<Chunk> chunks(count);
  size_t total = 0;
  for (uint32_t i = 0; i < count; ++i) {
    void* data = nullptr;
    size_t len = 0;
    NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, values[i], nullptr, &len, &data, nullptr, nullptr),
                         Napi::Value());
    chunks[i] = {static_cast<const char*>(data), data ? len : 0};
    total += chunks[i].n;
  }
  // Re-read the stamps too (the wrapper caches length and pointer).
  Napi::TypedArrayOf<int64_t> fresh = info[1].As<Napi::TypedArrayOf<int64_t>>();
  const int64_t* st = fresh.Data();
  if (fresh.ElementLength() != count || (count > 0 && st == nullptr)) {
    ThrowType(env, "frameSse: stamps changed while reading chunks");
  }

  JsCollector sink(env);
  // A typical event is 100+ bytes; over-reserving a little beats regrowing.
  sink.Reserve(total / 64 + 4);
  SseFramer framer(&sink);
  try {
    for (uint32_t i = 0; i < count; ++i) framer.Feed(chunks[i].p, chunks[i].n, st[i]);
    return sink.Result(framer.trailing_bytes());
  } catch (Napi::Error& err) {
    // V8 refused a value (e.g. a string over its length limit): keep its
    // message, add a stable code.
    err.Set("code", Napi::String::New(env, "SB_NATIVE_SSE"));
    throw;
  }
}

}  // namespace

void RegisterSse(Napi::Env env, Napi::Object exports) {
  exports.Set("frameSse", Napi::Function::New(env, FrameSse, "frameSse"));
}

}  // namespace servebench
#endif  // SERVEBENCH_SSE_CORE_ONLY
