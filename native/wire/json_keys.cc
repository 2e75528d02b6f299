#include "wire/json_keys.h"

#include "wire/utf8_decode.h"

namespace servebench {

uint16_t KeyTable::Intern(std::string_view key) {
  const uint16_t found = Match(key, key.size());
  if (found != kNone) return found;
  if (keys_.size() >= kMaxKeys) return kNone;
  const auto id = static_cast<uint16_t>(keys_.size());
  keys_.emplace_back(key);
  std::u16string key16;
  AppendUtf8As16(key.data(), key.size(), &key16);
  keys16_.push_back(std::move(key16));
  if (key.size() > max_length_) max_length_ = key.size();
  // Rebuilt at each key (a spec has a few dozen): open addressing, at most a quarter full.
  bits_ = 4;
  while ((size_t{1} << bits_) < 4 * keys_.size()) ++bits_;
  slots_.assign(size_t{1} << bits_, Slot{0, 0, kNone});
  for (size_t k = 0; k < keys_.size(); ++k) {
    const std::string& s = keys_[k];
    const uint64_t prefix = key_table::Prefix(s.data(), s.size(), s.size());
    size_t i = key_table::Hash(prefix, s.size(), bits_);
    while (slots_[i].id != kNone) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = Slot{prefix, static_cast<uint32_t>(s.size()), static_cast<uint16_t>(k)};
  }
  return id;
}

uint16_t KeyTable::Match(const std::u16string& key16) const {
  for (size_t id = 0; id < keys16_.size(); ++id) {
    if (keys16_[id] == key16) return static_cast<uint16_t>(id);
  }
  return kNone;
}

}  // namespace servebench
