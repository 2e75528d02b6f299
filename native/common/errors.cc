#include "common/errors.h"

namespace servebench {

void ThrowCoded(Napi::Env env, const char* code, const std::string& message, ErrorKind kind) {
  Napi::Error err = kind == ErrorKind::kType ? Napi::TypeError::New(env, message) : Napi::Error::New(env, message);
  err.Set("code", Napi::String::New(env, code));
  throw err;
}

void ThrowBadArg(Napi::Env env, const std::string& message) {
  ThrowCoded(env, "SB_NATIVE_BAD_ARG", message, ErrorKind::kType);
}

}  // namespace servebench
