// Module init only: each capability lives in its own .h/.cc pair.
#include <napi.h>
#include "sse.h"

static Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("frameSse", Napi::Function::New(env, servebench::FrameSse, "frameSse"));
  exports.Set("abiVersion", Napi::Number::New(env, 1));
  return exports;
}

NODE_API_MODULE(servebench_native, Init)
