// The JS binding of the HTTP/1.1 parser: http1Parse, one call per response (for tests).
#include <napi.h>

#include "bindings.h"
#include "common/errors.h"
#include "wire/http1.h"

#include <vector>

namespace servebench {

namespace {

class CollectingHandler final : public Http1Handler {
 public:
  void OnHead(int /*status*/) override {}
  void OnBody(const char* p, size_t n, int64_t stamp) override {
    body.append(p, n);
    stamps.push_back(stamp);
  }
  std::string body;
  std::vector<int64_t> stamps;
};

// http1Parse(chunks, eof): feeds chunk i (stamped i) to a fresh parser, then
// an end of stream when eof is true. For tests; the engine runs the parser
// on its own threads.
Napi::Value Http1Parse(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() != 2 || !info[0].IsArray() || !info[1].IsBoolean()) {
    ThrowBadArg(env, "http1Parse(chunks: Uint8Array[], eof: boolean): bad arguments");
  }
  Napi::Array arr = info[0].As<Napi::Array>();
  const uint32_t count = arr.Length();
  // Copy each chunk before parsing: an element getter could detach a buffer.
  std::vector<std::string> chunks(count);
  for (uint32_t i = 0; i < count; ++i) {
    Napi::Value v = arr.Get(i);
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      ThrowBadArg(env, "http1Parse: every chunk must be a Uint8Array");
    }
    Napi::Uint8Array u = v.As<Napi::Uint8Array>();
    chunks[i].assign(reinterpret_cast<const char*>(u.Data()), u.ElementLength());
  }
  CollectingHandler handler;
  Http1ResponseParser parser(&handler);
  double consumed = 0;
  for (uint32_t i = 0; i < count; ++i) {
    consumed += static_cast<double>(parser.Feed(chunks[i].data(), chunks[i].size(), i));
    if (parser.done() || parser.failed()) break;
  }
  if (info[1].As<Napi::Boolean>().Value()) parser.Eof();

  Napi::Object out = Napi::Object::New(env);
  out.Set("status", Napi::Number::New(env, parser.status()));
  out.Set("complete", Napi::Boolean::New(env, parser.done()));
  out.Set("keep_alive", Napi::Boolean::New(env, parser.done() && parser.keep_alive()));
  out.Set("consumed", Napi::Number::New(env, consumed));
  out.Set("body", Napi::Buffer<char>::Copy(env, handler.body.data(), handler.body.size()));
  Napi::BigInt64Array stamps = Napi::BigInt64Array::New(env, handler.stamps.size());
  for (size_t i = 0; i < handler.stamps.size(); ++i) stamps[i] = handler.stamps[i];
  out.Set("body_stamps", stamps);
  if (parser.failed()) {
    Napi::Object err = Napi::Object::New(env);
    err.Set("type", Napi::String::New(env, parser.error() == Http1Error::kParse ? "parse_error" : "connection"));
    err.Set("message", Napi::String::New(env, parser.message()));
    out.Set("error", err);
  } else {
    out.Set("error", env.Null());
  }
  return out;
}

}  // namespace

void RegisterHttp1(Napi::Env env, Napi::Object exports) {
  exports.Set("http1Parse", Napi::Function::New(env, Http1Parse, "http1Parse"));
}

}  // namespace servebench
