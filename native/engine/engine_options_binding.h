// Reads the JS options of the engine binding into EngineOptions (engine_options_binding.cc).
#pragma once

#include <napi.h>

#include "engine/engine.h"

namespace servebench {

// Throws a coded error (SB_BAD_ARG, or SB_NATIVE_TLS when a TLS file cannot be loaded) naming the option.
EngineOptions EngineOptionsFromJs(Napi::Env env, Napi::Object o);

}  // namespace servebench
