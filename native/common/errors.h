// The one way an error crosses from C++ to JS: a JS error whose `code` is a stable SB_* string.
// src/native.ts maps every code to its class in src/errors.ts (NATIVE_ERRORS) and turns a
// thrown native error into that class; test/unit/native/errors.test.ts checks that every code
// used in native/ is in that table.
#pragma once

#include <napi.h>

#include <string>

#ifndef NAPI_CPP_EXCEPTIONS
#error "servebench's bindings throw C++ exceptions (binding.gyp defines NAPI_CPP_EXCEPTIONS)"
#endif

namespace servebench {

// Which JS constructor the error is made with: arguments that are wrong are TypeErrors (as in
// Node's own ERR_INVALID_ARG_TYPE); anything else, a plain Error.
enum class ErrorKind { kType, kError };

// Throws (as a Napi::Error C++ exception, which node-addon-api turns into a JS throw) an error of
// `kind` with `message` and `code`.
[[noreturn]] void ThrowCoded(Napi::Env env, const char* code, const std::string& message, ErrorKind kind);

// A wrong argument caught by a binding's guards: TypeError, code SB_NATIVE_BAD_ARG.
[[noreturn]] void ThrowBadArg(Napi::Env env, const std::string& message);

}  // namespace servebench
