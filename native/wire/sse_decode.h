// Per-event decode of SSE payloads into what the metrics need, on whichever thread frames them
// (an engine I/O thread, or the undici transport's one native call per response).
//
// What to read comes from the endpoint adapter as field paths (EndpointAdapter.decodeSpec in
// src/endpoints/types.ts), compiled once, so a new endpoint type needs no C++ change. A path is
// dot-separated steps: `key`, `key[*]` (each element of an array, first match wins) and
// `(a|b)` (the first of these keys whose value is not null, as `a ?? b`).
//
// The semantics are the TS adapters' (src/endpoints/common.ts) exactly. What needs JS's own text
// rules (invalid JSON and its V8 message, a non-object, an `error` value, an `event: error` event,
// a JSON nesting deeper than the scanner goes) is not decided here: that event and every later one of the response are
// left to the TS adapter (the record's "tail"). Usage and spec-decode values are handed back as
// their JSON text, for the TS code to interpret (with its one-time warnings) once per record.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wire/json_scan.h"

namespace servebench {

struct PathStep {
  enum Kind : uint8_t { kKey, kEach, kFirstNonNull } kind = kKey;
  std::vector<uint16_t> keys;  // kKey: one; kFirstNonNull: the alternatives (ids in the spec's KeyTable)
};
using FieldPath = std::vector<PathStep>;

// Parses a field path, its keys interned in `keys`; false (with `error` set) when it is malformed.
bool ParseFieldPath(std::string_view text, KeyTable* keys, FieldPath* out, std::string* error);

// A value looked for by path: the first one found that is an object (or, `any`, not null).
struct ValueSource {
  FieldPath path;
  bool object_only = true;
};

struct DecodeSpec {
  KeyTable keys;                         // the keys of every path below (they were parsed with it)
  FieldPath choices;                     // the choices array; has_choices: it is a non-empty array
  FieldPath message;                     // within a choice: the object holding the texts (empty: the choice)
  std::vector<FieldPath> content;        // within that object: the first non-empty string is the content
  std::vector<FieldPath> reasoning;      // ... and the reasoning text
  std::vector<ValueSource> usage;        // the first source found is the payload's usage
  FieldPath error;                       // present and not null: an error event (left to TS)
  std::vector<ValueSource> spec_decode;  // the first source found is the payload's spec-decode stats
  std::vector<FieldPath> finish;         // from the payload: the first non-empty string is its finish reason
};

// A value's JSON text handed back for TS to interpret.
struct DecodeSlice {
  uint32_t event = 0;  // index of the event in the response
  uint8_t source = 0;  // which ValueSource of the spec
  uint8_t flags = 0;   // kSliceLast | kSliceFirstToken
  std::string text;
};
constexpr uint8_t kSliceLast = 1;        // the last usage of the decoded events
constexpr uint8_t kSliceFirstToken = 2;  // the usage of the first token-bearing event
// Usage values that may draw a one-time warning, kept per record (beyond: only the first few).
constexpr size_t kMaxWarnSlices = 8;

// One response's decoded events.
struct RecordDecode {
  uint32_t events = 0;  // every event framed, [DONE] and the tail included
  uint32_t tail = 0;    // events from the first undecided one on, left to the TS adapter
  std::u16string content;
  std::u16string reasoning;
  std::u16string finish;  // the finish reason of the last decoded event that had one
  bool has_finish = false;
  std::vector<int64_t> token_ns;  // stamps of events with non-empty content or reasoning
  int64_t first_content_ns = 0;
  int64_t first_choice_ns = 0;
  bool has_first_content = false;
  bool has_first_choice = false;
  bool first_token_seen = false;
  bool has_last_usage = false;
  bool has_first_usage = false;
  DecodeSlice last_usage;
  DecodeSlice first_usage;
  std::vector<DecodeSlice> usage_warn;
  std::vector<DecodeSlice> spec;

  // The usage slices in event order, one per event (flags merged).
  std::vector<DecodeSlice> UsageSlices() const;
};

// Decodes events one by one; holds the reusable scanner.
class SseEventDecoder {
 public:
  // Feeds one event (`type`: its `event:` field, '' if none). Events go to the TS adapter from the
  // first undecided one on: the caller counts them in `out->tail` and keeps their payloads.
  void Event(const DecodeSpec& spec, std::string_view data, std::string_view type, int64_t stamp, RecordDecode* out);
  // Between responses: frees what a huge event grew.
  void Trim() { doc_.Trim(); }

 private:
  // False when the TS adapter must decide this event; `out` is then untouched.
  bool Decode(const DecodeSpec& spec, std::string_view data, int64_t stamp, RecordDecode* out);
  JsonDoc doc_;
};

}  // namespace servebench
