// The JS binding of the SSE framer (sse.h): frameSse, one call per response body.
#include <napi.h>

#include <cstring>
#include <vector>

#include "bindings.h"
#include "common/errors.h"
#include "common/js_values.h"
#include "wire/sse.h"

namespace servebench {

namespace {

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

  napi_value MakeString(std::string_view s) const { return MakeJsString(env_, s); }

  Napi::Object Result(uint64_t trailing_bytes) const {
    const size_t n = data_.size();
    Napi::Function array_of = env_.Global().Get("Array").As<Napi::Object>().Get("of").As<Napi::Function>();
    Napi::Function push = env_.Global()
                              .Get("Array")
                              .As<Napi::Object>()
                              .Get("prototype")
                              .As<Napi::Object>()
                              .Get("push")
                              .As<Napi::Function>();
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
  if (info.Length() != 2) ThrowBadArg(env, "frameSse(chunks, stamps): expected 2 arguments");
  if (!info[0].IsArray()) ThrowBadArg(env, "frameSse: chunks must be an Array of Buffers");
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_bigint64_array) {
    ThrowBadArg(env, "frameSse: stamps must be a BigInt64Array");
  }
  Napi::Array arr = info[0].As<Napi::Array>();
  Napi::TypedArrayOf<int64_t> stamps = info[1].As<Napi::TypedArrayOf<int64_t>>();
  const uint32_t count = arr.Length();
  if (stamps.ElementLength() != count) {
    ThrowBadArg(env, "frameSse: stamps.length must equal chunks.length");
  }

  // Validate every chunk before doing any work.
  const std::vector<napi_value> values =
      CheckedBuffers(env, arr, "frameSse: every chunk must be a Buffer (Uint8Array)");
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
    ThrowBadArg(env, "frameSse: stamps changed while reading chunks");
  }

  JsCollector sink(env);
  // A typical event is 100+ bytes; over-reserving a little beats regrowing.
  sink.Reserve(total / 64 + 4);
  SseFramer framer(&sink);
  try {
    for (uint32_t i = 0; i < count; ++i) framer.Feed(chunks[i].p, chunks[i].n, st[i]);
    return sink.Result(framer.trailing_bytes());
  } catch (const Napi::Error& err) {
    // V8 refused a value (e.g. a string over its length limit): keep its
    // message, under a stable code.
    ThrowCoded(env, "SB_NATIVE_SSE", err.Message(), ErrorKind::kError);
  }
}

}  // namespace

void RegisterSse(Napi::Env env, Napi::Object exports) {
  exports.Set("frameSse", Napi::Function::New(env, FrameSse, "frameSse"));
}

}  // namespace servebench
