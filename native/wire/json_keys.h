// A table of the object keys a caller looks up again and again (a decode spec's), for
// JsonDoc::Find by id (json_scan.h). Plain C++ (no N-API), so it builds alone for fuzzing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace servebench {

// The keys a caller looks up again and again (a decode spec's), by small id, so that an object's
// members are matched against all of them in one pass (the first lookup there) and each later
// lookup is one load: a member scan per lookup chases the tape's `next` links, load after load.
class KeyTable {
 public:
  static constexpr uint16_t kNone = 0xFFFF;
  static constexpr size_t kMaxKeys = 1024;  // each indexed object has a slot per key
  // The id of `key` (UTF-8), added if new; kNone when the table is full.
  uint16_t Intern(std::string_view key);
  // The id of a key as it is written unescaped (its UTF-8 bytes), or kNone. `readable`: how many
  // bytes from key.data() may be read (at least key.size()), so that a word can be loaded whole.
  uint16_t Match(std::string_view key, size_t readable) const;
  // The id of an unescaped key's UTF-16 units, or kNone.
  uint16_t Match(const std::u16string& key16) const;
  size_t size() const { return keys_.size(); }
  const std::string& key(uint16_t id) const { return keys_[id]; }
  const std::u16string& key16(uint16_t id) const { return keys16_[id]; }

 private:
  struct Slot {
    uint64_t prefix;  // the key's first 8 bytes, zero-padded
    uint32_t length;
    uint16_t id;  // kNone: an empty slot
  };
  std::vector<std::string> keys_;
  std::vector<std::u16string> keys16_;  // escaped keys compare in UTF-16, as JSON.parse reads them
  std::vector<Slot> slots_;             // a hash table of the keys by (prefix, length)
  unsigned bits_ = 0;
  size_t max_length_ = 0;
};

// Inline: it runs once per member key of each object looked up.
namespace key_table {

// A key's first 8 bytes as a word, zero past its length; `readable`: the bytes from p that may be
// read (8 or more: the word is loaded at once and masked).
inline uint64_t Prefix(const char* p, size_t len, size_t readable) {
  uint64_t w = 0;
  if (readable < 8) {
    std::memcpy(&w, p, len);
    return w;
  }
  std::memcpy(&w, p, 8);
  if (len >= 8) return w;
  if (len == 0) return 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  return w & (~uint64_t{0} << (64 - 8 * len));
#else
  return w & (~uint64_t{0} >> (64 - 8 * len));
#endif
}

inline size_t Hash(uint64_t prefix, size_t len, unsigned bits) {
  return static_cast<size_t>(((prefix ^ len) * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

}  // namespace key_table

inline uint16_t KeyTable::Match(std::string_view key, size_t readable) const {
  if (key.size() > max_length_ || slots_.empty()) return kNone;
  const uint64_t prefix = key_table::Prefix(key.data(), key.size(), readable);
  for (size_t i = key_table::Hash(prefix, key.size(), bits_);; i = (i + 1) & (slots_.size() - 1)) {
    const Slot& s = slots_[i];
    if (s.id == kNone) return kNone;
    if (s.prefix == prefix && s.length == key.size() &&
        (key.size() <= 8 || std::memcmp(keys_[s.id].data() + 8, key.data() + 8, key.size() - 8) == 0)) {
      return s.id;
    }
  }
}

}  // namespace servebench
