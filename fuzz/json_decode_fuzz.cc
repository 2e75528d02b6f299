// libFuzzer target for the native SSE payload decode: the JSON scanner (native/wire/json_scan.cc) and
// the per-event decode from field paths (native/wire/sse_decode.cc), as an engine I/O thread runs them.
//
// Input: one event's data bytes. Checked on every input, besides what ASan/UBSan catch:
//   - whitespace around a document does not change its verdict;
//   - in a valid document, every value's text (Slice) is itself a valid document with the same
//     number of tape nodes, and every string decodes to no more UTF-16 units than it has bytes;
//   - there, a lookup by KeyTable id finds the same value as the byte-comparing lookup;
//   - the decode takes an event (tail stays 0) exactly when it is [DONE] or a valid object
//     without an error, and then appends only to the record's texts.
// Build and run: npm run fuzz -- SECONDS json_decode (fuzz/run.sh).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "wire/json_scan.h"
#include "wire/sse_decode.h"

namespace {

using servebench::DecodeSpec;
using servebench::JsonDoc;
using servebench::JsonStatus;
using servebench::JType;
using servebench::RecordDecode;
using servebench::SseEventDecoder;
using servebench::ValueSource;

void Check(bool ok) {
  if (!ok) std::abort();
}

servebench::FieldPath P(servebench::KeyTable* keys, const char* text) {
  servebench::FieldPath p;
  std::string error;
  Check(servebench::ParseFieldPath(text, keys, &p, &error));
  return p;
}

const DecodeSpec& ChatSpec() {
  static const DecodeSpec spec = [] {
    DecodeSpec s;
    s.choices = P(&s.keys, "choices");
    s.message = P(&s.keys, "(delta|message)");
    s.content = {P(&s.keys, "content")};
    s.reasoning = {P(&s.keys, "reasoning_content"), P(&s.keys, "reasoning")};
    s.usage = {ValueSource{P(&s.keys, "usage"), true}, ValueSource{P(&s.keys, "usageMetadata"), true}};
    s.error = P(&s.keys, "error");
    s.spec_decode = {ValueSource{P(&s.keys, "spec_decode"), false},
                     ValueSource{P(&s.keys, "metrics.speculative_decoding"), true},
                     ValueSource{P(&s.keys, "sglext.spec_tokens_details"), true},
                     ValueSource{P(&s.keys, "choices[*].sglext.spec_tokens_details"), true}};
    s.finish = {P(&s.keys, "choices[*].finish_reason")};
    return s;
  }();
  return spec;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  JsonDoc doc;
  const JsonStatus st = doc.Parse(text);

  JsonDoc padded_doc;
  const std::string padded = " \t" + std::string(text) + "\r\n";
  Check(padded_doc.Parse(padded) == st);

  if (st == JsonStatus::kOk) {
    for (uint32_t i = 0; i < doc.node(0).next; ++i) {
      const servebench::JNode& nd = doc.node(i);
      Check(nd.next > i && nd.next <= doc.node(0).next);
      JsonDoc sub;
      const std::string slice(doc.Slice(i));
      Check(sub.Parse(slice) == JsonStatus::kOk);
      Check(sub.node(0).next == nd.next - i);
      if (nd.type == JType::kString) {
        std::u16string out;
        doc.AppendString(i, &out);
        Check(out.size() <= static_cast<size_t>(nd.end - nd.begin));
      }
    }
    // A lookup by KeyTable id (a slot table per object) finds what the byte-comparing one does,
    // for every object and every key of the spec; the string lookups come first, the id ones
    // after, then both again (ids must not disturb the tape).
    const servebench::KeyTable& keys = ChatSpec().keys;
    for (int round = 0; round < 2; ++round) {
      for (uint32_t i = 0; i < doc.node(0).next; ++i) {
        for (size_t k = 0; k < keys.size(); ++k) {
          const auto id = static_cast<uint16_t>(k);
          Check(doc.Find(i, id, keys) == doc.Find(i, keys.key(id), keys.key16(id)));
        }
      }
    }
  }

  SseEventDecoder decoder;
  RecordDecode rec;
  decoder.Event(ChatSpec(), text, "", 7, &rec);
  Check(rec.events == 1);
  const bool object = st == JsonStatus::kOk && doc.node(0).type == JType::kObject;
  bool error = false;
  if (object) {
    const int64_t e = doc.Find(0, "error", u"error");
    error = e >= 0 && doc.node(static_cast<uint32_t>(e)).type != JType::kNull;
  }
  const bool taken = text == "[DONE]" || (object && !error);
  Check(rec.tail == (taken ? 0u : 1u));
  if (!taken) Check(rec.content.empty() && rec.reasoning.empty() && rec.token_ns.empty() && !rec.has_last_usage);
  if (!taken) Check(!rec.has_finish && rec.finish.empty());
  // A finish reason read is a non-empty string; `{}` after it leaves it as it was.
  Check(rec.has_finish == !rec.finish.empty());
  const std::u16string finish = rec.finish;
  Check(rec.token_ns.size() <= 1);
  // A second event after the first: a tail stays a tail.
  decoder.Event(ChatSpec(), "{}", "", 8, &rec);
  Check(rec.events == 2 && rec.tail == (taken ? 0u : 2u));
  Check(rec.finish == finish);
  // An `event: error` event is never decided natively, whatever its data.
  RecordDecode typed;
  decoder.Event(ChatSpec(), text, "error", 9, &typed);
  Check(typed.events == 1 && typed.tail == 1 && typed.content.empty() && typed.token_ns.empty());
  return 0;
}
