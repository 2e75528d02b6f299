// The per-event decode's JS side, shared by the bindings that take a decode spec or hand back a
// decoded response (sse_decode_binding.cc, engine/engine_options_binding.cc,
// engine/engine_batch_binding.cc). The decoder itself (sse_decode.h) is plain C++.
#pragma once

#include <napi.h>

#include <memory>

#include "wire/sse_decode.h"

namespace servebench {

// Compiles a spec object (src/native-decode.ts DecodeSpec); throws a TypeError (code
// SB_NATIVE_BAD_ARG) when it is malformed.
std::shared_ptr<const DecodeSpec> CompileDecodeSpec(Napi::Env env, Napi::Value spec);
// A RecordDecode as the JS object RawRecord.decoded takes (src/native-decode.ts DecodedStream).
Napi::Value DecodedToJs(Napi::Env env, const RecordDecode& d);

}  // namespace servebench
