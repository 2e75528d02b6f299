// Small N-API helpers the bindings share: JS strings from bytes, and Buffer arguments checked.
#pragma once

#include <napi.h>

#include <string_view>
#include <vector>

namespace servebench {

// A JS string of UTF-8 bytes. ASCII (most JSON) goes in as Latin-1, skipping V8's UTF-8 decoder;
// anything else is decoded as UTF-8 with U+FFFD for invalid bytes, as Buffer#toString does.
napi_value MakeJsString(napi_env env, std::string_view bytes);

// The elements of `arr`, each checked to be a Uint8Array (a Buffer); anything else throws
// SB_NATIVE_BAD_ARG with `what`. Pointers are left to the caller's second pass, since an element
// getter (JS) could detach an earlier chunk.
std::vector<napi_value> CheckedBuffers(Napi::Env env, const Napi::Array& arr, const char* what);

}  // namespace servebench
