#include "common/js_values.h"

#include <cstdint>
#include <cstring>

#include "common/errors.h"

namespace servebench {

namespace {

bool IsAscii(const char* p, size_t n) {
  uint64_t acc = 0;
  for (; n >= 8; p += 8, n -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    acc |= w;
  }
  for (; n > 0; ++p, --n) acc |= static_cast<unsigned char>(*p);
  return (acc & 0x8080808080808080ULL) == 0;
}

}  // namespace

napi_value MakeJsString(napi_env env, std::string_view s) {
  napi_value out;
  napi_status st = IsAscii(s.data(), s.size()) ? napi_create_string_latin1(env, s.data(), s.size(), &out)
                                               : napi_create_string_utf8(env, s.data(), s.size(), &out);
  NAPI_THROW_IF_FAILED(env, st, nullptr);
  return out;
}

std::vector<napi_value> CheckedBuffers(Napi::Env env, const Napi::Array& arr, const char* what) {
  const uint32_t count = arr.Length();
  std::vector<napi_value> values(count);
  for (uint32_t i = 0; i < count; ++i) {
    napi_value v = arr.Get(i);
    bool is_ta = false;
    napi_typedarray_type type = napi_int8_array;
    NAPI_THROW_IF_FAILED(env, napi_is_typedarray(env, v, &is_ta), values);
    if (is_ta) {
      NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, v, &type, nullptr, nullptr, nullptr, nullptr), values);
    }
    // Buffer is a Uint8Array; other views (DataView, Float64Array...) are refused rather than read as bytes.
    if (!is_ta || type != napi_uint8_array) ThrowBadArg(env, what);
    values[i] = v;
  }
  return values;
}

}  // namespace servebench
