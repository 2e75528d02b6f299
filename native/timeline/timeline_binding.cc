// The JS binding of the timeline integration: `timeline(...)`, one call per run (see timeline.h).
#include <napi.h>

#include <exception>
#include <new>
#include <string>
#include <thread>

#include "bindings.h"
#include "common/errors.h"
#include "timeline/timeline.h"

namespace servebench {

namespace {

const char* const kColumnNames[5] = {"start", "generationStart", "end", "isl", "osl"};

Napi::Value Timeline(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  // Guards only: the TS wrapper (src/metrics/core/timeline.ts) validates properly.
  if (info.Length() != 7) {
    ThrowBadArg(env, "timeline(start, generationStart, end, isl, osl, windowStart, windowEnd): expected 7 arguments");
  }
  const double* data[5];
  size_t n = 0;
  for (int i = 0; i < 5; ++i) {
    if (!info[i].IsTypedArray() || info[i].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array) {
      ThrowBadArg(env, std::string("timeline: ") + kColumnNames[i] + " must be a Float64Array");
    }
    Napi::Float64Array col = info[i].As<Napi::Float64Array>();
    if (i == 0) n = col.ElementLength();
    if (col.ElementLength() != n) ThrowBadArg(env, "timeline: the five columns must have the same length");
    data[i] = col.Data();
    if (n > 0 && data[i] == nullptr) ThrowBadArg(env, std::string("timeline: ") + kColumnNames[i] + " is detached");
  }
  if (!info[5].IsNumber() || !info[6].IsNumber()) {
    ThrowBadArg(env, "timeline: windowStart and windowEnd must be numbers");
  }
  TimelineColumns cols{data[0],
                       data[1],
                       data[2],
                       data[3],
                       data[4],
                       n,
                       info[5].As<Napi::Number>().DoubleValue(),
                       info[6].As<Napi::Number>().DoubleValue()};
  Napi::Float64Array out = Napi::Float64Array::New(env, kTimelineOutputLength);
  std::string error;
  bool ok = false;
  try {
    // Synchronous: one call at the end of a run, over columns the caller owns.
    ok = RunTimeline(cols, out.Data(), std::thread::hardware_concurrency() >= 2 ? 2 : 1, &error);
  } catch (const std::bad_alloc&) {
    ThrowCoded(env, "SB_NATIVE_TIMELINE_MEMORY", "timeline: out of memory for " + std::to_string(n) + " requests",
               ErrorKind::kError);
  } catch (const std::exception& e) {
    // E.g. a thread that could not be started: an error for the caller, never a crash.
    ThrowCoded(env, "SB_NATIVE_TIMELINE", std::string("timeline: ") + e.what(), ErrorKind::kError);
  }
  if (!ok) ThrowBadArg(env, "timeline: " + error);
  return out;
}

}  // namespace

void RegisterTimeline(Napi::Env env, Napi::Object exports) {
  exports.Set("timeline", Napi::Function::New(env, Timeline, "timeline"));
}

}  // namespace servebench
