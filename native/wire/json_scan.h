// A small validating JSON scanner for SSE payloads (RFC 8259, as V8's JSON.parse accepts it).
//
// Parse() checks one document and lays it out as a flat tape of nodes (reused between documents,
// so a stream costs no allocation per value); values are then read in place: strings are
// unescaped only when asked for, straight into UTF-16, with the same results JSON.parse gives on
// the UTF-8-decoded text (invalid UTF-8 → U+FFFD per maximal subpart, as V8 decodes; \u escapes,
// lone surrogates included, kept as code units).
//
// Python servers' bare NaN / Infinity / -Infinity tokens are accepted where a string may stand
// (a value or a key) and read as the strings "NaN"…, which is what src/endpoints/lenient-json.ts
// makes of them: the field has the wrong type, the rest of the payload survives.
//
// Plain C++ (no N-API), so it builds alone for fuzzing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "wire/json_keys.h"

namespace servebench {

enum class JType : uint8_t { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };

// JNode::flags
constexpr uint8_t kEscaped = 1;  // a string with a backslash escape
constexpr uint8_t kBare = 2;     // a bare NaN / Infinity / -Infinity token read as a string
constexpr uint8_t kIndexed = 4;  // an object with a slot table (JsonDoc::Find by KeyTable id)

struct JNode {
  JType type;
  uint8_t flags;
  uint16_t table;  // an indexed object: which slot table is its
  uint32_t begin;  // string: after the opening quote; others: first byte
  uint32_t end;    // string: at the closing quote; others: one past the last byte
  uint32_t next;   // tape index just past this value's subtree
};

enum class JsonStatus : uint8_t { kOk, kInvalid, kTooDeep };

class JsonDoc {
 public:
  static constexpr int kMaxDepth = 512;

  // Validates `text` (kept by reference: it must outlive every read) and builds the tape.
  // Object members are laid out key, value, key, value...
  JsonStatus Parse(std::string_view text);

  const JNode& node(uint32_t i) const { return tape_[i]; }
  std::string_view text() const { return text_; }
  // The source text of a value (a string with its quotes).
  std::string_view Slice(uint32_t i) const;

  // The value of `key` in object node `obj` (the last one, as JSON.parse keeps), or -1.
  int64_t Find(uint32_t obj, std::string_view key, const std::u16string& key16) const;
  // The same for the key of id `key` in `keys`: the first lookup in an object fills its slot table
  // (the value of each of the table's keys); looking up with another table starts over.
  int64_t Find(uint32_t obj, uint16_t key, const KeyTable& keys) {
    const JNode& o = tape_[obj];
    if (indexed_with_ != &keys || !(o.flags & kIndexed)) {
      if (o.type != JType::kObject) return -1;
      if (!Index(obj, keys)) return Find(obj, keys.key(key), keys.key16(key));
    }
    return static_cast<int64_t>(slots_[size_t{o.table} * keys.size() + key]) - 1;
  }
  // Elements of an array: first child index, then each `next`.
  uint32_t FirstChild(uint32_t i) const { return i + 1; }

  // Appends a string node's value (UTF-16) to `out`.
  void AppendString(uint32_t i, std::u16string* out) const;
  // Whether the string node's value is empty.
  bool EmptyString(uint32_t i) const { return tape_[i].begin == tape_[i].end; }
  // A number node made of digits only, at most 15 of them (exactly an integer in a double).
  bool PlainCount(uint32_t i) const;
  // Frees the buffers a huge document grew, so one such event does not pin them for good.
  void Trim();

 private:
  bool KeyEquals(uint32_t i, std::string_view key, const std::u16string& key16) const;
  uint32_t Push(JType type, uint32_t begin);
  bool Index(uint32_t obj, const KeyTable& keys);
  const char* String(const char* p, const char* end);
  const char* Member(const char* p, const char* end);
  std::string_view text_;
  std::vector<JNode> tape_;
  std::vector<uint32_t> stack_;  // the open containers while parsing
  const KeyTable* indexed_with_ = nullptr;
  std::vector<uint32_t> slots_;  // the slot tables, one entry per key of the table: value + 1, 0: none
  uint32_t tables_ = 0;
  mutable std::u16string scratch_;
};

}  // namespace servebench
