// Module init only: each capability has its plain C++ core in a subfolder (<folder>/<name>.h/.cc)
// and its JS binding in <name>_binding.cc, which registers its exports through one Register* call
// here (declared in bindings.h). Every binding throws through common/errors.h. native/README.md
// maps the folders.
#include <napi.h>

#include "bindings.h"

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
