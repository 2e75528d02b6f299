// Finished engine records → the JS batch: typed-array columns plus one string per SSE event.
#include "engine/engine_batch_binding.h"

#include "common/js_values.h"
#include "wire/sse_decode_binding.h"

#include <cstring>

namespace servebench {

namespace {

// Builds a JS array through Array.of / push (V8's fast argument path), which
// costs far less per element than napi_set_element.
Napi::Value MakeArray(Napi::Env env, const std::vector<napi_value>& values) {
  Napi::Object array_ctor = env.Global().Get("Array").As<Napi::Object>();
  Napi::Function array_of = array_ctor.Get("of").As<Napi::Function>();
  Napi::Function push = array_ctor.Get("prototype").As<Napi::Object>().Get("push").As<Napi::Function>();
  constexpr size_t kBlock = 8192;
  const size_t n = values.size();
  const size_t first = n < kBlock ? n : kBlock;
  Napi::Value arr = array_of.Call(first, values.data());
  for (size_t i = first; i < n; i += kBlock) push.Call(arr, n - i < kBlock ? n - i : kBlock, values.data() + i);
  return arr;
}

const char* ErrorType(EngineError e) {
  switch (e) {
    case EngineError::kConnection: return "connection";
    case EngineError::kParse: return "parse_error";
    case EngineError::kTimeout: return "timeout";
    case EngineError::kCancelled: return "cancelled";
    case EngineError::kUnsent: return "unsent";
    default: return "";
  }
}

}  // namespace

Napi::Object BuildEngineBatch(Napi::Env env, std::vector<EngineRecord>& recs) {
  const size_t n = recs.size();
  size_t events = 0;
  bool any_type = false;
  bool any_decoded = false;
  for (const auto& r : recs) {
    events += r.event_ns.size();
    any_type = any_type || r.any_type;
    any_decoded = any_decoded || r.decoding;
  }
  Napi::Uint32Array ids = Napi::Uint32Array::New(env, n);
  Napi::Int32Array status = Napi::Int32Array::New(env, n);
  Napi::BigInt64Array start = Napi::BigInt64Array::New(env, n);
  Napi::BigInt64Array end = Napi::BigInt64Array::New(env, n);
  Napi::BigInt64Array planned = Napi::BigInt64Array::New(env, n);
  Napi::Float64Array sent = Napi::Float64Array::New(env, n);
  Napi::Float64Array received = Napi::Float64Array::New(env, n);
  Napi::Uint32Array counts = Napi::Uint32Array::New(env, n);
  Napi::BigInt64Array event_ns = Napi::BigInt64Array::New(env, events);
  // Per record: connect start, connect end, send start, send end, first byte (0: none) ...
  Napi::BigInt64Array trace_ns = Napi::BigInt64Array::New(env, n * 7);
  // ... and connection reused (0/1), bytes written, bytes read, writes, body reads.
  Napi::Float64Array trace_counts = Napi::Float64Array::New(env, n * 5);
  std::vector<napi_value> data, types, bodies(n), errors(n), decoded(any_decoded ? n : 0);
  data.reserve(events);
  if (any_type) types.reserve(events);
  napi_value null_value = env.Null();
  napi_value empty = Napi::String::New(env, "", 0);
  size_t e = 0;
  for (size_t i = 0; i < n; ++i) {
    EngineRecord& r = recs[i];
    ids[i] = r.id;
    status[i] = r.status;
    start[i] = r.start_ns;
    end[i] = r.end_ns;
    planned[i] = r.planned_ns;
    sent[i] = static_cast<double>(r.bytes_sent);
    received[i] = static_cast<double>(r.bytes_received);
    counts[i] = static_cast<uint32_t>(r.event_ns.size());
    trace_ns[i * 7] = r.connect_start_ns;
    trace_ns[i * 7 + 1] = r.connect_end_ns;
    trace_ns[i * 7 + 2] = r.send_start_ns;
    trace_ns[i * 7 + 3] = r.send_end_ns;
    trace_ns[i * 7 + 4] = r.first_byte_ns;
    trace_ns[i * 7 + 5] = r.tls_start_ns;
    trace_ns[i * 7 + 6] = r.tls_end_ns;
    trace_counts[i * 5] = r.reused ? 1 : 0;
    trace_counts[i * 5 + 1] = static_cast<double>(r.send_end_ns != 0 ? r.bytes_sent : 0);
    trace_counts[i * 5 + 2] = static_cast<double>(r.wire_received);
    trace_counts[i * 5 + 3] = r.writes;
    trace_counts[i * 5 + 4] = r.body_reads;
    uint32_t from = 0;
    uint32_t type_from = 0;
    for (size_t k = 0; k < r.event_ns.size(); ++k, ++e) {
      event_ns[e] = r.event_ns[k];
      data.push_back(MakeJsString(env, std::string_view(r.event_data.data() + from, r.event_end[k] - from)));
      from = r.event_end[k];
      if (any_type) {
        const uint32_t type_to = r.type_end[k];
        types.push_back(type_to == type_from ? empty
                                             : MakeJsString(env, std::string_view(r.event_types.data() + type_from,
                                                                                  type_to - type_from)));
        type_from = type_to;
      }
    }
    if (any_decoded) decoded[i] = r.decoding ? static_cast<napi_value>(DecodedToJs(env, r.decoded)) : null_value;
    bodies[i] = r.has_body ? MakeJsString(env, std::string_view(r.body.data(), r.body.size())) : null_value;
    if (r.error == EngineError::kNone) {
      errors[i] = null_value;
    } else {
      Napi::Object err = Napi::Object::New(env);
      err.Set("type", ErrorType(r.error));
      err.Set("message", Napi::String::New(env, r.error_message));
      errors[i] = err;
    }
  }
  Napi::Object out = Napi::Object::New(env);
  out.Set("ids", ids);
  out.Set("status", status);
  out.Set("start_ns", start);
  out.Set("end_ns", end);
  out.Set("planned_ns", planned);
  out.Set("bytes_sent", sent);
  out.Set("bytes_received", received);
  out.Set("event_count", counts);
  out.Set("event_ns", event_ns);
  out.Set("trace_ns", trace_ns);
  out.Set("trace_counts", trace_counts);
  out.Set("event_data", MakeArray(env, data));
  out.Set("event_type", any_type ? MakeArray(env, types) : env.Null());
  out.Set("body", MakeArray(env, bodies));
  out.Set("error", MakeArray(env, errors));
  out.Set("decoded", any_decoded ? MakeArray(env, decoded) : env.Null());
  return out;
}

}  // namespace servebench
