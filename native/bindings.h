// The JS side's one entry per capability: addon.cc calls each Register* once at module init, and
// each is defined in that capability's <name>_binding.cc. Declared here, not in the core headers,
// so that those stay plain C++ (no N-API) and build alone for fuzzing, benchmarks and sanitizers.
// The surface they add is typed in src/native-types.ts.
#pragma once

#include <napi.h>

namespace servebench {

// wire/sse_binding.cc: `frameSse(chunks: Buffer[], stamps: BigInt64Array)`.
void RegisterSse(Napi::Env env, Napi::Object exports);
// wire/sse_decode_binding.cc: the class `SseDecoder`.
void RegisterSseDecode(Napi::Env env, Napi::Object exports);
// wire/http1_binding.cc: `http1Parse(chunks: Uint8Array[], eof: boolean)` (for tests).
void RegisterHttp1(Napi::Env env, Napi::Object exports);
// timeline/timeline_binding.cc: `timeline(start, generationStart, end, isl, osl, windowStart,
// windowEnd): Float64Array`.
void RegisterTimeline(Napi::Env env, Napi::Object exports);
// hdr/hdr_binding.cc: the class `Histogram`.
void RegisterHdr(Napi::Env env, Napi::Object exports);
// engine/engine_binding.cc: the class `Engine`.
void RegisterEngine(Napi::Env env, Napi::Object exports);
// mockserver/mockserver_binding.cc: the class `MockServer`.
void RegisterMockServer(Napi::Env env, Napi::Object exports);
// gpu/power_binding.cc: the class `PowerPoller`.
void RegisterPower(Napi::Env env, Napi::Object exports);

}  // namespace servebench
