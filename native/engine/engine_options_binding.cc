// The options of `new Engine(options, onRecords)` (engine_binding.cc), read from JS into
// EngineOptions: each checked, with one coded error naming the option that is wrong.
#include "engine/engine_options_binding.h"

#include <arpa/inet.h>
#include <netinet/in.h>

#include <memory>
#include <string>

#include "common/errors.h"
#include "engine/engine_tls.h"
#include "wire/sse_decode_binding.h"

namespace servebench {

namespace {

int IntOption(Napi::Env env, Napi::Object o, const char* key, int dflt, int lo, int hi) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return dflt;
  const double d = v.IsNumber() ? v.As<Napi::Number>().DoubleValue() : -1;
  if (!(d >= lo && d <= hi) || d != static_cast<double>(static_cast<int64_t>(d))) {
    ThrowBadArg(env, std::string("Engine: options.") + key + " must be an integer in [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  }
  return static_cast<int>(d);
}

std::string StrOption(Napi::Env env, Napi::Object o, const char* key) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return std::string();
  if (!v.IsString()) ThrowBadArg(env, std::string("Engine: options.tls.") + key + " must be a string");
  return v.As<Napi::String>().Utf8Value();
}

// TS has checked the files exist; OpenSSL's failure to load one is still one coded error.
std::shared_ptr<TlsClient> MakeTls(Napi::Env env, Napi::Value v) {
  if (!v.IsObject()) ThrowBadArg(env, "Engine: options.tls must be an object");
  Napi::Object t = v.As<Napi::Object>();
  TlsOptions to;
  to.servername = StrOption(env, t, "servername");
  Napi::Value verify = t.Get("verify");
  if (!verify.IsUndefined()) {
    if (!verify.IsBoolean()) ThrowBadArg(env, "Engine: options.tls.verify must be a boolean");
    to.verify = verify.As<Napi::Boolean>().Value();
  }
  to.ca_file = StrOption(env, t, "caFile");
  to.extra_ca_file = StrOption(env, t, "extraCaFile");
  to.system_ca_file = StrOption(env, t, "systemCaFile");
  to.cert_file = StrOption(env, t, "certFile");
  to.key_file = StrOption(env, t, "keyFile");
  try {
    return std::make_shared<TlsClient>(to);
  } catch (const std::exception& e) {
    ThrowCoded(env, "SB_NATIVE_TLS", e.what(), ErrorKind::kError);
  }
}

}  // namespace

EngineOptions EngineOptionsFromJs(Napi::Env env, Napi::Object o) {
  EngineOptions opts;
  Napi::Value address = o.Get("address");
  Napi::Value port = o.Get("port");
  if (!address.IsString() || !port.IsNumber())
    ThrowBadArg(env, "Engine: options.address and options.port are required");
  const std::string addr = address.As<Napi::String>().Utf8Value();
  const double p = port.As<Napi::Number>().DoubleValue();
  if (!(p >= 1 && p <= 65535)) ThrowBadArg(env, "Engine: options.port must be in [1, 65535]");
  auto* v4 = reinterpret_cast<sockaddr_in*>(&opts.addr);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&opts.addr);
  if (inet_pton(AF_INET, addr.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(p));
    opts.addr_len = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, addr.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(p));
    opts.addr_len = sizeof(sockaddr_in6);
  } else {
    ThrowBadArg(env, "Engine: options.address must be a numeric IPv4 or IPv6 address");
  }
  opts.threads = IntOption(env, o, "threads", 1, 1, 64);
  opts.max_connections = IntOption(env, o, "maxConnections", 0, 0, 1 << 24);
  opts.max_response_bytes = static_cast<size_t>(IntOption(env, o, "maxResponseBytes", 64 << 20, 1, 1 << 30));
  opts.max_event_bytes = static_cast<size_t>(IntOption(env, o, "maxEventBytes", 16 << 20, 1, 1 << 30));
  opts.read_coalesce_ns = static_cast<int64_t>(IntOption(env, o, "readCoalesceUs", 0, 0, 10000)) * 1000;
  Napi::Value kstamps = o.Get("kernelStamps");
  if (!kstamps.IsUndefined()) {
    if (!kstamps.IsBoolean()) ThrowBadArg(env, "Engine: options.kernelStamps must be a boolean");
    opts.kernel_stamps = kstamps.As<Napi::Boolean>().Value();
  }
  Napi::Value decode = o.Get("decode");
  if (!decode.IsUndefined() && !decode.IsNull()) opts.decode = CompileDecodeSpec(env, decode);
  Napi::Value keep = o.Get("keepPayloads");
  if (!keep.IsUndefined()) {
    if (!keep.IsBoolean()) ThrowBadArg(env, "Engine: options.keepPayloads must be a boolean");
    opts.keep_payloads = keep.As<Napi::Boolean>().Value();
  }
  Napi::Value prio = o.Get("priority");
  if (!prio.IsUndefined()) {
    const std::string p = prio.IsString() ? prio.As<Napi::String>().Utf8Value() : "";
    if (p == "normal") opts.priority = IoPriority::kNormal;
    else if (p == "raised") opts.priority = IoPriority::kRaised;
    else if (p == "realtime") opts.priority = IoPriority::kRealtime;
    else ThrowBadArg(env, "Engine: options.priority must be normal, raised or realtime");
  }

  Napi::Value tls = o.Get("tls");
  if (!tls.IsUndefined() && !tls.IsNull()) opts.tls = MakeTls(env, tls);

  return opts;
}

}  // namespace servebench
