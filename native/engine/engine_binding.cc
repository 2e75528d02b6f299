// The JS binding of the native stream engine: class Engine.
//
//   new Engine({address, port, threads, maxConnections, maxResponseBytes, maxEventBytes, priority,
//               readCoalesceUs, kernelStamps, decode, keepPayloads,
//               tls: {servername, verify, caFile, extraCaFile, systemCaFile, certFile, keyFile}}, onRecords)
//   engine.submit(ids, requests, ends, streaming, timeoutMs, targetNs)
//   engine.cancel(ids) / engine.cancelAll() / engine.preconnect(n) / engine.close() / engine.stats()
//   engine.setGate(slots, held?) / engine.cancelWaiting()   (the slot gate: Engine::SetGate)
//
// Finished records reach `onRecords(batch)` in batches: an I/O thread wakes
// the JS thread through a thread-safe function at most once per batch, and
// the batch is a handful of typed-array columns plus the payload strings.
#include <napi.h>

#include <cstring>
#include <memory>
#include <vector>

#include "bindings.h"
#include "common/errors.h"
#include "engine/engine.h"
#include "engine/engine_batch_binding.h"
#include "engine/engine_options_binding.h"

namespace servebench {

namespace {

struct EngineState;
using StateRef = std::shared_ptr<EngineState>;
void CallJs(Napi::Env env, Napi::Function callback, StateRef* ref, void* data);
using Tsfn = Napi::TypedThreadSafeFunction<StateRef, void, CallJs>;

// Shared by the wrapper and the thread-safe function (whose context holds a
// reference until its finalizer runs), so a call still queued when the
// wrapper goes away, or a wrapper outliving the function, stays safe.
struct EngineState {
  std::unique_ptr<Engine> engine;
  Tsfn tsfn;
  napi_env env = nullptr;
  double in_flight = 0;  // submitted, not yet handed back (JS thread only)
  bool refed = false;
  bool closed = false;  // the engine is stopped and the function released
  bool hook = false;
};

// Hands every finished record to JS. The thread-safe function keeps the
// process alive only while requests are in flight.
void Deliver(Napi::Env env, Napi::Function callback, EngineState* s) {
  std::vector<EngineRecord> recs;
  s->engine->Drain(&recs);
  if (recs.empty()) return;
  s->in_flight -= static_cast<double>(recs.size());
  if (s->in_flight <= 0 && s->refed && !s->closed) {
    s->tsfn.Unref(env);
    s->refed = false;
  }
  Napi::Object batch = BuildEngineBatch(env, recs);
  recs.clear();
  callback.Call({batch});
}

void CallJs(Napi::Env env, Napi::Function callback, StateRef* ref, void* /*data*/) {
  if (env == nullptr || ref == nullptr || (*ref)->closed) return;
  try {
    Deliver(env, callback, ref->get());
  } catch (const Napi::Error& err) {
    // Not a servebench error: the JS handler's own exception (a bug there), re-raised as it was so it
    // surfaces as an uncaught error. C++ exceptions cannot leave a thread-safe function's call.
    err.ThrowAsJavaScriptException();
  }
}

// At environment teardown (process exit) with the engine still open: stop
// the threads before the thread-safe function goes away under them.
void CleanupHook(void* arg) {
  auto* s = static_cast<EngineState*>(arg);
  s->hook = false;
  if (!s->closed) {
    s->closed = true;
    s->engine->Stop();
  }
}

class EngineWrap : public Napi::ObjectWrap<EngineWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "Engine",
        {InstanceMethod<&EngineWrap::Submit>("submit"), InstanceMethod<&EngineWrap::Cancel>("cancel"),
         InstanceMethod<&EngineWrap::CancelAll>("cancelAll"), InstanceMethod<&EngineWrap::Preconnect>("preconnect"),
         InstanceMethod<&EngineWrap::SetGate>("setGate"), InstanceMethod<&EngineWrap::CancelWaiting>("cancelWaiting"),
         InstanceMethod<&EngineWrap::Close>("close"), InstanceMethod<&EngineWrap::Stats>("stats")});
  }

  explicit EngineWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<EngineWrap>(info) {
    Napi::Env env = info.Env();
    if (info.Length() != 2 || !info[0].IsObject() || !info[1].IsFunction()) {
      ThrowBadArg(env, "new Engine(options, onRecords): bad arguments");
    }
    Napi::Object o = info[0].As<Napi::Object>();
    const EngineOptions opts = EngineOptionsFromJs(env, o);

    state_ = std::make_shared<EngineState>();
    EngineState* s = state_.get();
    s->env = env;
    callback_ = Napi::Persistent(info[1].As<Napi::Function>());
    s->tsfn = Tsfn::New(env, info[1].As<Napi::Function>(), "servebench-engine", 0, 1, new StateRef(state_),
                        [](Napi::Env, void*, StateRef* ref) { delete ref; });
    s->tsfn.Unref(env);
    // Runs on an I/O thread; the engine is stopped before the function is released.
    s->engine = std::make_unique<Engine>(opts, [s]() { s->tsfn.NonBlockingCall(); });
    try {
      s->engine->Start();
    } catch (const std::exception& e) {
      s->closed = true;
      s->tsfn.Release();
      ThrowCoded(env, "SB_NATIVE_ENGINE", e.what(), ErrorKind::kError);
    }
    // Registered after the thread-safe function, so it runs before that is torn down.
    napi_add_env_cleanup_hook(env, CleanupHook, s);
    s->hook = true;
  }

  ~EngineWrap() override {
    if (state_ && !state_->closed) Shutdown();
  }

 private:
  void Shutdown() {
    EngineState* s = state_.get();
    s->closed = true;
    s->engine->Stop();
    ReleaseFunction(s);
  }

  void RequireOpen(Napi::Env env) {
    if (state_->closed) {
      ThrowCoded(env, "SB_NATIVE_ENGINE_CLOSED", "the engine is closed", ErrorKind::kError);
    }
  }

  template <typename T>
  static T Column(Napi::Env env, Napi::Value v, napi_typedarray_type type, size_t n, const char* name) {
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != type) {
      ThrowBadArg(env, std::string("engine.submit: ") + name + " has the wrong typed-array type");
    }
    T t = v.As<T>();
    if (t.ElementLength() != n) ThrowBadArg(env, std::string("engine.submit: ") + name + " must have one entry per id");
    return t;
  }

  // submit(ids: Uint32Array, requests: Uint8Array, ends: Uint32Array,
  //        streaming: Uint8Array, timeoutMs: Float64Array, targetNs: BigInt64Array)
  // Request i is requests[ends[i-1] .. ends[i]).
  Napi::Value Submit(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    RequireOpen(env);
    if (info.Length() != 6 || !info[0].IsTypedArray()) ThrowBadArg(env, "engine.submit: expected 6 typed arrays");
    Napi::TypedArray first = info[0].As<Napi::TypedArray>();
    if (first.TypedArrayType() != napi_uint32_array) ThrowBadArg(env, "engine.submit: ids must be a Uint32Array");
    const size_t n = first.ElementLength();
    auto ids = Column<Napi::Uint32Array>(env, info[0], napi_uint32_array, n, "ids");
    if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array) {
      ThrowBadArg(env, "engine.submit: requests must be a Uint8Array (Buffer)");
    }
    auto bytes = info[1].As<Napi::Uint8Array>();
    auto ends = Column<Napi::Uint32Array>(env, info[2], napi_uint32_array, n, "ends");
    auto streaming = Column<Napi::Uint8Array>(env, info[3], napi_uint8_array, n, "streaming");
    auto timeouts = Column<Napi::Float64Array>(env, info[4], napi_float64_array, n, "timeoutMs");
    auto targets = Column<Napi::BigInt64Array>(env, info[5], napi_bigint64_array, n, "targetNs");
    const char* base = reinterpret_cast<const char*>(bytes.Data());
    const size_t total = bytes.ElementLength();
    std::vector<EngineRequest> reqs(n);
    uint32_t from = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t to = ends[i];
      if (to < from || to > total) ThrowBadArg(env, "engine.submit: ends must rise and stay within requests");
      const double t = timeouts[i];
      if (!(t >= 0) || t > 1e12) ThrowBadArg(env, "engine.submit: timeoutMs must be in [0, 1e12]");
      EngineRequest& r = reqs[i];
      r.id = ids[i];
      r.streaming = streaming[i] != 0;
      r.timeout_ns = static_cast<int64_t>(t * 1e6);
      r.target_ns = targets[i] > 0 ? targets[i] : 0;
      r.bytes.assign(base + from, to - from);
      from = to;
    }
    if (n == 0) return env.Undefined();
    EngineState* s = state_.get();
    s->in_flight += static_cast<double>(n);
    if (!s->refed) {
      s->tsfn.Ref(env);
      s->refed = true;
    }
    s->engine->Submit(std::move(reqs));
    return env.Undefined();
  }

  Napi::Value Cancel(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (state_->closed) return env.Undefined();
    if (info.Length() != 1 || !info[0].IsTypedArray() ||
        info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array) {
      ThrowBadArg(env, "engine.cancel(ids: Uint32Array): bad arguments");
    }
    auto ids = info[0].As<Napi::Uint32Array>();
    std::vector<uint32_t> v(ids.Data(), ids.Data() + ids.ElementLength());
    state_->engine->Cancel(v);
    return env.Undefined();
  }

  Napi::Value CancelAll(const Napi::CallbackInfo& info) {
    if (!state_->closed) state_->engine->CancelAll();
    return info.Env().Undefined();
  }

  // Opens n connections ahead of the first requests; stats().connections_warming counts them down.
  Napi::Value Preconnect(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() != 1 || !info[0].IsNumber()) ThrowBadArg(env, "engine.preconnect(n: number): bad arguments");
    const double n = info[0].As<Napi::Number>().DoubleValue();
    if (!(n >= 0) || n > 1e6) ThrowBadArg(env, "engine.preconnect: n must be in [0, 1e6]");
    if (!state_->closed) state_->engine->Preconnect(static_cast<int>(n));
    return env.Undefined();
  }

  // At most `slots` requests run at once, the rest wait in order (0: off); `held`: none starts until
  // the next call without it. See Engine::SetGate.
  Napi::Value SetGate(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || info.Length() > 2 || !info[0].IsNumber() ||
        (info.Length() == 2 && !info[1].IsBoolean() && !info[1].IsUndefined())) {
      ThrowBadArg(env, "engine.setGate(slots: number, held?: boolean): bad arguments");
    }
    const bool held = info.Length() == 2 && info[1].IsBoolean() && info[1].As<Napi::Boolean>().Value();
    const double n = info[0].As<Napi::Number>().DoubleValue();
    if (!(n >= 0) || n > 1e7 || n != static_cast<double>(static_cast<int>(n))) {
      ThrowBadArg(env, "engine.setGate: slots must be an integer in [0, 1e7]");
    }
    if (!state_->closed) state_->engine->SetGate(static_cast<int>(n), held);
    return env.Undefined();
  }

  Napi::Value CancelWaiting(const Napi::CallbackInfo& info) {
    if (!state_->closed) state_->engine->CancelWaiting();
    return info.Env().Undefined();
  }

  // Cancels what is in flight, joins the threads, and hands the last records
  // to onRecords before returning. Idempotent.
  Napi::Value Close(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (state_->closed) return env.Undefined();
    EngineState* s = state_.get();
    s->closed = true;  // before delivering: onRecords may call back into a closed engine
    s->engine->Stop();
    try {
      Deliver(env, callback_.Value(), s);
    } catch (...) {
      ReleaseFunction(s);
      throw;
    }
    ReleaseFunction(s);
    return env.Undefined();
  }

  static void ReleaseFunction(EngineState* s) {
    if (s->hook) {
      napi_remove_env_cleanup_hook(s->env, CleanupHook, s);
      s->hook = false;
    }
    s->tsfn.Release();
  }

  Napi::Value Stats(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const EngineStats st = state_->engine->Stats();
    Napi::Object o = Napi::Object::New(env);
    o.Set("requests_started", static_cast<double>(st.requests_started));
    o.Set("requests_completed", static_cast<double>(st.requests_completed));
    o.Set("requests_live", static_cast<double>(st.requests_live));
    o.Set("connections_opened", static_cast<double>(st.connections_opened));
    o.Set("connections_live", static_cast<double>(st.connections_live));
    o.Set("reads", static_cast<double>(st.reads));
    o.Set("polls", static_cast<double>(st.polls));
    o.Set("retries", static_cast<double>(st.retries));
    o.Set("realtime_threads", static_cast<double>(st.realtime_threads));
    o.Set("raised_threads", static_cast<double>(st.raised_threads));
    o.Set("realtime_demotions", static_cast<double>(st.realtime_demotions));
    // {prefix}_mean_ns, _p50_ns, _p99_ns, _max_ns (and its count under `count`).
    auto delays = [&](const std::string& prefix, const char* count, const DelaySummary& d) {
      o.Set(count, static_cast<double>(d.count));
      o.Set(prefix + "_mean_ns", d.mean_ns);
      o.Set(prefix + "_p50_ns", static_cast<double>(d.p50_ns));
      o.Set(prefix + "_p99_ns", static_cast<double>(d.p99_ns));
      o.Set(prefix + "_max_ns", static_cast<double>(d.max_ns));
    };
    delays("read_delay", "read_delay_count", st.read_delay);
    o.Set("coalesce_sleeps", static_cast<double>(st.coalesce_sleeps));
    delays("arrival_lag", "kernel_stamped_reads", st.arrival_lag);
    o.Set("tls_handshakes", static_cast<double>(st.tls_handshakes));
    o.Set("tls_resumed", static_cast<double>(st.tls_resumed));
    o.Set("connections_warming", static_cast<double>(st.connections_warming));
    o.Set("connections_preconnected", static_cast<double>(st.connections_preconnected));
    o.Set("gate_waiting", static_cast<double>(st.gate_waiting));
    return o;
  }

  StateRef state_;
  Napi::FunctionReference callback_;
};

}  // namespace

void RegisterEngine(Napi::Env env, Napi::Object exports) { exports.Set("Engine", EngineWrap::Define(env)); }

}  // namespace servebench
