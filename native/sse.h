// SSE framing of a whole response in one call (see sse.cc).
#pragma once
#include <napi.h>

namespace servebench {
Napi::Value FrameSse(const Napi::CallbackInfo& info);
}
