#include "sse.h"

namespace servebench {
// Placeholder until the framer lands.
Napi::Value FrameSse(const Napi::CallbackInfo& info) {
  Napi::Error::New(info.Env(), "not implemented").ThrowAsJavaScriptException();
  return info.Env().Undefined();
}
}  // namespace servebench
