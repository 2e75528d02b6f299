// Component harness (not the real command): ns per SSE event in SseEventDecoder::Event, the
// per-event decode an engine I/O thread runs (native/wire/sse_decode.cc, native/wire/json_scan.cc), on
// chat.completion.chunk events shaped as the fast mock sends them (native/mockserver/mockserver_format.cc:
// a role event, OSL token events with "sb_send_ns" stamps, a usage event, [DONE]), with the chat
// endpoint's decode spec (src/endpoints/chat.ts). Built and run by bench/decode-native.sh.
//
// Prints one JSON line: ns_per_event (the median of the repetitions, this thread's CPU time, less
// the median time of copying the events alone), min (the fastest repetition, less the same), and a
// checksum of every decoded record, so that two builds (before/after a change) can be checked to
// decode alike.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "sse_decode.h"  // native/wire/ (or native/ before its subfolders), by decode-native.sh

namespace {

using servebench::DecodeSpec;
using servebench::FieldPath;
using servebench::RecordDecode;
using servebench::SseEventDecoder;
using servebench::ValueSource;

// SB_DECODE_OLD_API: built against a revision from before paths were parsed into a KeyTable, to
// compare with it (decode-native.sh defines it for such a tree).
#ifdef SB_DECODE_OLD_API
struct KeyTable {};
FieldPath P(KeyTable*, const char* text) {
  FieldPath p;
  std::string error;
  if (!servebench::ParseFieldPath(text, &p, &error)) std::abort();
  return p;
}
#define SPEC_KEYS(s) (static_cast<KeyTable*>(nullptr))
#else
using servebench::KeyTable;
FieldPath P(KeyTable* keys, const char* text) {
  FieldPath p;
  std::string error;
  if (!servebench::ParseFieldPath(text, keys, &p, &error)) std::abort();
  return p;
}
#define SPEC_KEYS(s) (&(s).keys)
#endif

DecodeSpec ChatSpec() {
  DecodeSpec s;
  s.choices = P(SPEC_KEYS(s), "choices");
  s.message = P(SPEC_KEYS(s), "(delta|message)");
  s.content = {P(SPEC_KEYS(s), "content")};
  s.reasoning = {P(SPEC_KEYS(s), "reasoning_content"), P(SPEC_KEYS(s), "reasoning")};
  s.usage = {ValueSource{P(SPEC_KEYS(s), "usage"), true}, ValueSource{P(SPEC_KEYS(s), "usageMetadata"), true}};
  s.error = P(SPEC_KEYS(s), "error");
  s.spec_decode = {ValueSource{P(SPEC_KEYS(s), "spec_decode"), false},
                   ValueSource{P(SPEC_KEYS(s), "metrics.speculative_decoding"), true},
                   ValueSource{P(SPEC_KEYS(s), "sglext.spec_tokens_details"), true},
                   ValueSource{P(SPEC_KEYS(s), "choices[*].sglext.spec_tokens_details"), true}};
  return s;
}

// One response's events, as the mock formats them (payloads only: the framer is not measured).
std::vector<std::string> Response(int r, int osl) {
  static const char* const kWords[] = {" the", " of",   " and", " to",  " in", " is", " that", " for",
                                       " it",  " as",   " was", " on",  " be", " by", " 中文", " 😀",
                                       " \\n", " with", " at",  " are", " or", " an", " from", " this"};
  const std::string id = "chatcmpl-" + std::to_string(100000 + r);
  const std::string prefix =
      "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1764630000,\"model\":\"mock-model\"";
  const std::string stamp = ",\"sb_send_ns\":\"" + std::to_string(1764630000000000000LL + r) + "\"}";
  std::vector<std::string> out;
  out.push_back(prefix +
                ",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                "\"finish_reason\":null}]" +
                stamp);
  for (int k = 0; k < osl; ++k) {
    const char* w = kWords[(r * 31 + k * 7) % (sizeof(kWords) / sizeof(kWords[0]))];
    out.push_back(prefix + ",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + w +
                  "\"},\"logprobs\":null,\"finish_reason\":" + (k + 1 < osl ? "null" : "\"length\"") + "}]" + stamp);
  }
  out.push_back(prefix + ",\"choices\":[],\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":" +
                std::to_string(osl) + ",\"total_tokens\":" + std::to_string(16 + osl) + "}" + stamp);
  out.push_back("[DONE]");
  return out;
}

// This thread's CPU time: time spent preempted on a shared machine is not counted.
double CpuNs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

uint64_t Mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001B3ULL; }

uint64_t Checksum(const RecordDecode& d) {
  uint64_t h = 0xCBF29CE484222325ULL;
  h = Mix(h, d.events);
  h = Mix(h, d.tail);
  for (char16_t c : d.content) h = Mix(h, c);
  for (char16_t c : d.reasoning) h = Mix(h, c);
  for (int64_t t : d.token_ns) h = Mix(h, static_cast<uint64_t>(t));
  h = Mix(h, static_cast<uint64_t>(d.first_content_ns));
  h = Mix(h, static_cast<uint64_t>(d.first_choice_ns));
  for (const auto& s : d.UsageSlices()) {
    h = Mix(h, s.event * 256 + s.source * 4 + s.flags);
    for (char c : s.text) h = Mix(h, static_cast<unsigned char>(c));
  }
  for (const auto& s : d.spec) h = Mix(h, s.event);
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  const int responses = argc > 1 ? std::atoi(argv[1]) : 200;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 15;
  const int osl = argc > 3 ? std::atoi(argv[3]) : 128;
  const DecodeSpec spec = ChatSpec();
  // A few distinct responses, cycled, each event copied into one reused buffer before its decode as
  // the SSE framer (native/wire/sse.cc) hands it over: an engine decodes bytes recv() just wrote, in cache.
  constexpr int kDistinct = 8;
  std::vector<std::vector<std::string>> bodies;
  size_t events = 0, bytes = 0;
  for (int r = 0; r < responses; ++r) {
    if (r < kDistinct) bodies.push_back(Response(r, osl));
    events += bodies[r % kDistinct].size();
    for (const auto& e : bodies[r % kDistinct]) bytes += e.size();
  }
  SseEventDecoder decoder;  // one per connection, reused from response to response as the engine does
  std::vector<double> ns, copy_ns;
  std::string data;
  uint64_t sum = 0, sink = 0;
  for (int rep = 0; rep < reps; ++rep) {
    // The copy alone, to take out of the figure: it is the framer's cost, not the decode's.
    double t0 = CpuNs();
    for (int r = 0; r < responses; ++r) {
      for (const std::string& e : bodies[r % kDistinct]) {
        data.assign(e);
        sink += static_cast<unsigned char>(data[data.size() / 2]);
      }
    }
    copy_ns.push_back((CpuNs() - t0) / static_cast<double>(events));

    std::vector<RecordDecode> recs(responses);
    t0 = CpuNs();
    for (int r = 0; r < responses; ++r) {
      int64_t stamp = 1000;
      for (const std::string& e : bodies[r % kDistinct]) {
        data.assign(e);
        decoder.Event(spec, data, "", ++stamp, &recs[r]);
      }
      decoder.Trim();
    }
    ns.push_back((CpuNs() - t0) / static_cast<double>(events));
    sum = 0;
    for (const RecordDecode& rec : recs) sum = Mix(sum, Checksum(rec));
  }
  std::sort(ns.begin(), ns.end());
  std::sort(copy_ns.begin(), copy_ns.end());
  const double copy = copy_ns[copy_ns.size() / 2];
  std::printf(
      "{\"harness\":\"component\",\"events\":%zu,\"bytes_per_event\":%.0f,\"reps\":%d,\"ns_per_event\":%.1f,"
      "\"min\":%.1f,\"copy_ns\":%.1f,\"checksum\":\"%016llx\",\"sink\":%llu}\n",
      events, static_cast<double>(bytes) / static_cast<double>(events), reps, ns[ns.size() / 2] - copy,
      ns.front() - copy, copy, static_cast<unsigned long long>(sum), static_cast<unsigned long long>(sink % 10));
  return 0;
}
