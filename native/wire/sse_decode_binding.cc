// The JS side of the per-event SSE decode (sse_decode.h): spec compilation, the RecordDecode →
// JS object conversion the engine batch also uses, and class SseDecoder for the undici transport:
//
//   new SseDecoder(spec).decode(chunks: Buffer[], stamps: BigInt64Array, keepPayloads: boolean)
//
// frames and decodes one buffered response in one call. Payload strings come back only for the
// events left to the TS adapter (the tail), or for all of them with keepPayloads (--export-level raw).
#include <napi.h>

#include <cstring>

#include "bindings.h"
#include "common/errors.h"
#include "common/js_values.h"
#include "wire/sse.h"
#include "wire/sse_decode_binding.h"

namespace servebench {

namespace {

// One-byte strings (most text) go in as Latin-1, V8's compact form.
napi_value MakeString16(napi_env env, const std::u16string& s) {
  char16_t high = 0;
  for (char16_t c : s) high |= c;
  napi_value out;
  napi_status st;
  if (high < 0x100) {
    std::string narrow(s.size(), '\0');
    for (size_t i = 0; i < s.size(); ++i) narrow[i] = static_cast<char>(s[i]);
    st = napi_create_string_latin1(env, narrow.data(), narrow.size(), &out);
  } else {
    st = napi_create_string_utf16(env, s.data(), s.size(), &out);
  }
  NAPI_THROW_IF_FAILED(env, st, nullptr);
  return out;
}

std::string StringField(Napi::Env env, Napi::Object o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsString()) ThrowBadArg(env, std::string("decode spec: ") + key + " must be a string");
  return v.As<Napi::String>().Utf8Value();
}

FieldPath Path(Napi::Env env, KeyTable* keys, const std::string& text, const char* key) {
  FieldPath p;
  std::string error;
  if (!ParseFieldPath(text, keys, &p, &error)) {
    ThrowBadArg(env, std::string("decode spec: ") + key + " '" + text + "': " + error);
  }
  return p;
}

std::vector<FieldPath> Paths(Napi::Env env, KeyTable* keys, Napi::Object o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsArray()) ThrowBadArg(env, std::string("decode spec: ") + key + " must be an array of paths");
  Napi::Array a = v.As<Napi::Array>();
  std::vector<FieldPath> out;
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Value e = a.Get(i);
    if (!e.IsString()) ThrowBadArg(env, std::string("decode spec: ") + key + " must be an array of paths");
    out.push_back(Path(env, keys, e.As<Napi::String>().Utf8Value(), key));
  }
  return out;
}

std::vector<ValueSource> Sources(Napi::Env env, KeyTable* keys, Napi::Object o, const char* key) {
  Napi::Value v = o.Get(key);
  if (!v.IsArray()) ThrowBadArg(env, std::string("decode spec: ") + key + " must be an array of {path, test}");
  Napi::Array a = v.As<Napi::Array>();
  if (a.Length() > 255) ThrowBadArg(env, std::string("decode spec: ") + key + " has too many sources");
  std::vector<ValueSource> out;
  for (uint32_t i = 0; i < a.Length(); ++i) {
    Napi::Value e = a.Get(i);
    if (!e.IsObject()) ThrowBadArg(env, std::string("decode spec: ") + key + " must be an array of {path, test}");
    Napi::Object s = e.As<Napi::Object>();
    ValueSource src;
    src.path = Path(env, keys, StringField(env, s, "path"), key);
    const std::string test = StringField(env, s, "test");
    if (test != "object" && test != "present") ThrowBadArg(env, "decode spec: test must be 'object' or 'present'");
    src.object_only = test == "object";
    out.push_back(std::move(src));
  }
  return out;
}

struct DecodingSink : SseSink {
  DecodingSink(napi_env e, const DecodeSpec* s, bool k) : env(e), spec(s), keep(k) {}
  void OnEvent(std::string_view data, std::string_view type, int64_t stamp) override {
    decoder.Event(*spec, data, type, stamp, &decoded);
    if (decoded.tail == 0 && !keep) return;
    data_.push_back(MakeJsString(env, data));
    types_.push_back(type.empty() ? MakeJsString(env, "") : MakeJsString(env, type));
    stamps_.push_back(stamp);
  }
  napi_env env;
  const DecodeSpec* spec;
  bool keep;
  SseEventDecoder decoder;
  RecordDecode decoded;
  std::vector<napi_value> data_, types_;
  std::vector<int64_t> stamps_;
};

Napi::Array ToArray(Napi::Env env, const std::vector<napi_value>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (size_t i = 0; i < v.size(); ++i) a.Set(static_cast<uint32_t>(i), Napi::Value(env, v[i]));
  return a;
}

Napi::BigInt64Array Stamps(Napi::Env env, const std::vector<int64_t>& v) {
  Napi::BigInt64Array a = Napi::BigInt64Array::New(env, v.size());
  if (!v.empty()) std::memcpy(a.Data(), v.data(), v.size() * sizeof(int64_t));
  return a;
}

class SseDecoderWrap : public Napi::ObjectWrap<SseDecoderWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "SseDecoder", {InstanceMethod<&SseDecoderWrap::Decode>("decode")});
  }

  explicit SseDecoderWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<SseDecoderWrap>(info) {
    if (info.Length() != 1) ThrowBadArg(info.Env(), "new SseDecoder(spec): expected 1 argument");
    spec_ = CompileDecodeSpec(info.Env(), info[0]);
  }

 private:
  // decode(chunks: Buffer[], stamps: BigInt64Array, keepPayloads: boolean). Guards only: the TS
  // wrapper (src/transport/sse.ts) validates.
  Napi::Value Decode(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() != 3 || !info[0].IsArray() || !info[1].IsTypedArray() || !info[2].IsBoolean() ||
        info[1].As<Napi::TypedArray>().TypedArrayType() != napi_bigint64_array) {
      ThrowBadArg(env, "sseDecoder.decode(chunks, stamps, keepPayloads): bad arguments");
    }
    Napi::Array arr = info[0].As<Napi::Array>();
    const std::vector<napi_value> values = CheckedBuffers(env, arr, "sseDecoder.decode: every chunk must be a Buffer");
    const uint32_t count = static_cast<uint32_t>(values.size());
    // Pointers are taken after every element was read (a getter could detach an earlier chunk).
    std::vector<std::pair<const char*, size_t>> chunks(count);
    for (uint32_t i = 0; i < count; ++i) {
      void* data = nullptr;
      size_t len = 0;
      NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, values[i], nullptr, &len, &data, nullptr, nullptr),
                           Napi::Value());
      chunks[i] = {static_cast<const char*>(data), data ? len : 0};
    }
    Napi::TypedArrayOf<int64_t> stamps = info[1].As<Napi::TypedArrayOf<int64_t>>();
    if (stamps.ElementLength() != count) ThrowBadArg(env, "sseDecoder.decode: one stamp per chunk expected");
    const int64_t* st = stamps.Data();

    DecodingSink sink(env, spec_.get(), info[2].As<Napi::Boolean>().Value());
    SseFramer framer(&sink);
    for (uint32_t i = 0; i < count; ++i) framer.Feed(chunks[i].first, chunks[i].second, st[i]);
    Napi::Object out = Napi::Object::New(env);
    out.Set("decoded", DecodedToJs(env, sink.decoded));
    out.Set("data", ToArray(env, sink.data_));
    out.Set("stamps", Stamps(env, sink.stamps_));
    out.Set("types", ToArray(env, sink.types_));
    out.Set("trailing_bytes", Napi::Number::New(env, static_cast<double>(framer.trailing_bytes())));
    return out;
  }

  std::shared_ptr<const DecodeSpec> spec_;
};

Napi::Value SliceArray(Napi::Env env, const std::vector<DecodeSlice>& slices) {
  if (slices.empty()) return env.Null();
  Napi::Array a = Napi::Array::New(env, slices.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    const DecodeSlice& s = slices[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("event", static_cast<double>(s.event));
    o.Set("source", static_cast<double>(s.source));
    o.Set("last", (s.flags & kSliceLast) != 0);
    o.Set("first_token", (s.flags & kSliceFirstToken) != 0);
    o.Set("text", Napi::Value(env, MakeJsString(env, s.text)));
    a.Set(static_cast<uint32_t>(i), o);
  }
  return a;
}

}  // namespace

std::shared_ptr<const DecodeSpec> CompileDecodeSpec(Napi::Env env, Napi::Value value) {
  if (!value.IsObject()) ThrowBadArg(env, "decode spec: expected an object");
  Napi::Object o = value.As<Napi::Object>();
  auto spec = std::make_shared<DecodeSpec>();
  KeyTable* keys = &spec->keys;
  spec->choices = Path(env, keys, StringField(env, o, "choices"), "choices");
  spec->message = Path(env, keys, StringField(env, o, "message"), "message");
  spec->content = Paths(env, keys, o, "content");
  spec->reasoning = Paths(env, keys, o, "reasoning");
  spec->usage = Sources(env, keys, o, "usage");
  spec->error = Path(env, keys, StringField(env, o, "error"), "error");
  spec->spec_decode = Sources(env, keys, o, "spec_decode");
  spec->finish = Paths(env, keys, o, "finish");
  if (spec->choices.empty() || spec->error.empty()) ThrowBadArg(env, "decode spec: choices and error need a path");
  return spec;
}

Napi::Value DecodedToJs(Napi::Env env, const RecordDecode& d) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("events", static_cast<double>(d.events));
  o.Set("tail", static_cast<double>(d.tail));
  o.Set("content", Napi::Value(env, MakeString16(env, d.content)));
  o.Set("reasoning", Napi::Value(env, MakeString16(env, d.reasoning)));
  o.Set("finish_reason", d.has_finish ? Napi::Value(env, MakeString16(env, d.finish)) : env.Null());
  o.Set("token_ns", Stamps(env, d.token_ns));
  o.Set("first_content_ns", d.has_first_content ? Napi::Value(Napi::BigInt::New(env, d.first_content_ns)) : env.Null());
  o.Set("first_choice_ns", d.has_first_choice ? Napi::Value(Napi::BigInt::New(env, d.first_choice_ns)) : env.Null());
  o.Set("first_token_seen", d.first_token_seen);
  o.Set("usage", SliceArray(env, d.UsageSlices()));
  o.Set("spec_decode", SliceArray(env, d.spec));
  return o;
}

void RegisterSseDecode(Napi::Env env, Napi::Object exports) { exports.Set("SseDecoder", SseDecoderWrap::Define(env)); }

}  // namespace servebench
