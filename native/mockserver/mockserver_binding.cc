// The JS binding of the fast mock: class MockServer.
//
//   const m = new MockServer({host, port, workers, ttftMs, itlMs, words, model, defaultTokens, stampEvents,
//                            tlsCert, tlsKey, tlsClientCa})
//   m.port(); m.stats(); m.close()
//
// The server runs on its own threads from construction until close().
#include <napi.h>

#include <memory>

#include "bindings.h"
#include "common/errors.h"
#include "mockserver/mockserver.h"
#include "mockserver/mockserver_tls.h"

namespace servebench {

namespace {

double Num(Napi::Env env, Napi::Object o, const char* key, double dflt, double lo, double hi) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return dflt;
  const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : lo - 1;
  if (!(d >= lo && d <= hi)) {
    ThrowBadArg(env, std::string("MockServer: options.") + key + " must be a number in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  }
  return d;
}

class MockServerWrap : public Napi::ObjectWrap<MockServerWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "MockServer",
                       {InstanceMethod<&MockServerWrap::Port>("port"), InstanceMethod<&MockServerWrap::Stats>("stats"),
                        InstanceMethod<&MockServerWrap::Close>("close")});
  }

  explicit MockServerWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<MockServerWrap>(info) {
    Napi::Env env = info.Env();
    if (info.Length() != 1 || !info[0].IsObject()) ThrowBadArg(env, "new MockServer(options): bad arguments");
    Napi::Object o = info[0].As<Napi::Object>();
    MockServerOptions opts;
    Napi::Value host = o.Get("host");
    if (!host.IsUndefined()) {
      if (!host.IsString()) ThrowBadArg(env, "MockServer: options.host must be a string");
      opts.host = host.As<Napi::String>().Utf8Value();
    }
    opts.port = static_cast<int>(Num(env, o, "port", 0, 0, 65535));
    opts.workers = static_cast<int>(Num(env, o, "workers", 1, 1, 64));
    opts.ttft_ns = static_cast<int64_t>(Num(env, o, "ttftMs", 0, 0, 3.6e6) * 1e6);
    opts.itl_ns = static_cast<int64_t>(Num(env, o, "itlMs", 0, 0, 3.6e6) * 1e6);
    opts.default_tokens = static_cast<int>(Num(env, o, "defaultTokens", 64, 1, 1e6));
    Napi::Value model = o.Get("model");
    if (!model.IsUndefined()) {
      if (!model.IsString()) ThrowBadArg(env, "MockServer: options.model must be a string");
      opts.model = model.As<Napi::String>().Utf8Value();
    }
    Napi::Value words = o.Get("words");
    if (!words.IsUndefined()) {
      if (!words.IsArray()) ThrowBadArg(env, "MockServer: options.words must be an array of strings");
      Napi::Array a = words.As<Napi::Array>();
      for (uint32_t i = 0; i < a.Length(); ++i) {
        Napi::Value w = a.Get(i);
        if (!w.IsString()) ThrowBadArg(env, "MockServer: options.words must be an array of strings");
        const std::string s = w.As<Napi::String>().Utf8Value();
        for (unsigned char c : s) {
          if (c < 0x20 || c == '"' || c == '\\')
            ThrowBadArg(env, "MockServer: options.words must need no JSON escaping");
        }
        opts.words.push_back(s);
      }
    }
    opts.stamp_events = o.Get("stampEvents").ToBoolean().Value();
    Napi::Value cert = o.Get("tlsCert");
    if (!cert.IsUndefined()) {
      Napi::Value key = o.Get("tlsKey");
      Napi::Value ca = o.Get("tlsClientCa");
      if (!cert.IsString() || !key.IsString() || !(ca.IsUndefined() || ca.IsString()))
        ThrowBadArg(env, "MockServer: options.tlsCert and options.tlsKey must be strings (tlsClientCa too, if given)");
      try {
        opts.tls =
            std::make_shared<const MockTls>(cert.As<Napi::String>().Utf8Value(), key.As<Napi::String>().Utf8Value(),
                                            ca.IsString() ? ca.As<Napi::String>().Utf8Value() : std::string());
      } catch (const std::exception& e) {
        ThrowCoded(env, "SB_MOCK_START", e.what(), ErrorKind::kError);
      }
    }
    server_ = std::make_unique<MockServer>(opts);
    try {
      port_ = server_->Start();
    } catch (const std::exception& e) {
      server_.reset();
      ThrowCoded(env, "SB_MOCK_START", e.what(), ErrorKind::kError);
    }
  }

 private:
  Napi::Value Port(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), port_); }

  Napi::Value Stats(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Object o = Napi::Object::New(env);
    const MockServerStats s = server_ ? server_->Stats() : stats_at_close_;
    o.Set("connections", static_cast<double>(s.connections));
    o.Set("requests", static_cast<double>(s.requests));
    o.Set("events", static_cast<double>(s.events));
    return o;
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    if (server_) {
      server_->Stop();
      stats_at_close_ = server_->Stats();
      server_.reset();
    }
    return info.Env().Undefined();
  }

  std::unique_ptr<MockServer> server_;
  MockServerStats stats_at_close_;
  int port_ = 0;
};

}  // namespace

void RegisterMockServer(Napi::Env env, Napi::Object exports) { exports.Set("MockServer", MockServerWrap::Define(env)); }

}  // namespace servebench
