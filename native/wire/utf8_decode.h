// UTF-8 → UTF-16 as JSON.parse sees the text: JSON strings read in place (json_scan.h) and a decode
// spec's keys (json_keys.h) are compared in UTF-16. Plain C++ (no N-API), so it builds alone for fuzzing.
#pragma once

#include <cstddef>
#include <string>

namespace servebench {

// Appends UTF-8 bytes decoded as the WHATWG Encoding standard (and V8) do: U+FFFD for each
// maximal invalid subpart.
void AppendUtf8As16(const char* p, size_t n, std::u16string* out);

}  // namespace servebench
