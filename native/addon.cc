// Module init only: each capability has its core in <name>.h/.cc and its JS
// binding in <name>_binding.cc, which registers its exports through one
// Register* call here. Every binding throws through errors.h.
#include <napi.h>

#include "engine.h"
#include "hdr.h"
#include "http1.h"
#include "mockserver.h"
#include "power.h"
#include "sse.h"
#include "sse_decode.h"
#include "timeline.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  servebench::RegisterSse(env, exports);
  servebench::RegisterSseDecode(env, exports);
  servebench::RegisterTimeline(env, exports);
  servebench::RegisterHdr(env, exports);
  servebench::RegisterHttp1(env, exports);
  servebench::RegisterEngine(env, exports);
  servebench::RegisterMockServer(env, exports);
  servebench::RegisterPower(env, exports);
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  return exports;
}

NODE_API_MODULE(servebench_native, Init)
