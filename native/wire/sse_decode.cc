#include "wire/sse_decode.h"

#include <algorithm>

namespace servebench {

namespace {

bool NameChar(char c) { return c != '.' && c != '(' && c != ')' && c != '|' && c != '[' && c != ']'; }

// A parsed event and the spec's key table, which its lookups go by.
struct Doc {
  JsonDoc& json;
  const KeyTable& keys;
  const JNode& node(uint32_t i) const { return json.node(i); }
  int64_t Find(uint32_t obj, uint16_t key) const { return json.Find(obj, key, keys); }
};

// Calls visit(node) for each value `path` reaches from `node`, in order, until one returns true.
template <class Visit>
bool Walk(const Doc& doc, uint32_t node, const FieldPath& path, size_t step, Visit& visit) {
  if (step == path.size()) return visit(node);
  const PathStep& s = path[step];
  switch (s.kind) {
    case PathStep::kKey: {
      const int64_t v = doc.Find(node, s.keys[0]);
      return v >= 0 && Walk(doc, static_cast<uint32_t>(v), path, step + 1, visit);
    }
    case PathStep::kFirstNonNull:
      // `a ?? b`: the first non-null one is taken, whatever it is.
      for (uint16_t key : s.keys) {
        const int64_t v = doc.Find(node, key);
        if (v >= 0 && doc.node(static_cast<uint32_t>(v)).type != JType::kNull) {
          return Walk(doc, static_cast<uint32_t>(v), path, step + 1, visit);
        }
      }
      return false;
    case PathStep::kEach: {
      const JNode& arr = doc.node(node);
      if (arr.type != JType::kArray) return false;
      for (uint32_t c = node + 1; c < arr.next; c = doc.node(c).next) {
        if (Walk(doc, c, path, step + 1, visit)) return true;
      }
      return false;
    }
  }
  return false;
}

// The first value a path reaches, or -1.
int64_t First(const Doc& doc, uint32_t node, const FieldPath& path) {
  int64_t found = -1;
  auto take = [&](uint32_t v) {
    found = v;
    return true;
  };
  Walk(doc, node, path, 0, take);
  return found;
}

// The first source found: its index and node.
bool FindSource(const Doc& doc, const std::vector<ValueSource>& sources, uint8_t* which, uint32_t* node) {
  for (size_t k = 0; k < sources.size(); ++k) {
    const ValueSource& src = sources[k];
    auto test = [&](uint32_t v) {
      const JType t = doc.node(v).type;
      if (src.object_only ? t != JType::kObject : t == JType::kNull) return false;
      *node = v;
      return true;
    };
    if (Walk(doc, 0, src.path, 0, test)) {
      *which = static_cast<uint8_t>(k);
      return true;
    }
  }
  return false;
}

// Appends the first non-empty string among `paths` from `node`; whether one was found.
bool AppendText(const Doc& doc, uint32_t node, const std::vector<FieldPath>& paths, std::u16string* out) {
  for (const FieldPath& p : paths) {
    int64_t found = -1;
    auto text = [&](uint32_t v) {
      if (doc.node(v).type != JType::kString || doc.json.EmptyString(v)) return false;
      found = v;
      return true;
    };
    if (Walk(doc, node, p, 0, text)) {
      doc.json.AppendString(static_cast<uint32_t>(found), out);
      return true;
    }
  }
  return false;
}

// Whether usage parsing (src/endpoints/usage.ts) could warn about this value: anything but
// objects, nulls and plain integer counts. Conservative: such a value is handed to TS.
bool MayWarn(const JsonDoc& doc, uint32_t v) {
  const JNode& nd = doc.node(v);
  switch (nd.type) {
    case JType::kNull: return false;
    case JType::kNumber: return !doc.PlainCount(v);
    case JType::kObject:
      for (uint32_t k = v + 1; k < nd.next; k = doc.node(k + 1).next) {
        if (MayWarn(doc, k + 1)) return true;
      }
      return false;
    default: return true;
  }
}

}  // namespace

bool ParseFieldPath(std::string_view text, KeyTable* keys, FieldPath* out, std::string* error) {
  out->clear();
  size_t i = 0;
  const size_t n = text.size();
  if (n == 0) return true;
  // The next key's id (false: it is empty, or the table is full).
  auto name = [&](uint16_t* id) {
    const size_t from = i;
    while (i < n && NameChar(text[i])) ++i;
    if (i == from) {
      *error = "empty key";
      return false;
    }
    *id = keys->Intern(text.substr(from, i - from));
    if (*id == KeyTable::kNone) *error = "too many distinct keys";
    return *id != KeyTable::kNone;
  };
  for (;;) {
    PathStep step;
    if (i < n && text[i] == '(') {
      ++i;
      step.kind = PathStep::kFirstNonNull;
      for (;;) {
        uint16_t k;
        if (!name(&k)) {
          if (*error == "empty key") *error = "empty key in an alternative";
          return false;
        }
        step.keys.push_back(k);
        if (i < n && text[i] == '|') {
          ++i;
          continue;
        }
        if (i < n && text[i] == ')') {
          ++i;
          break;
        }
        *error = "unclosed alternative";
        return false;
      }
    } else {
      uint16_t k;
      if (!name(&k)) return false;
      step.keys.push_back(k);
    }
    out->push_back(std::move(step));
    while (i < n && text[i] == '[') {
      if (text.substr(i, 3) != "[*]") {
        *error = "only [*] may follow a key";
        return false;
      }
      i += 3;
      PathStep each;
      each.kind = PathStep::kEach;
      out->push_back(std::move(each));
    }
    if (i == n) return true;
    if (text[i] != '.') {
      *error = std::string("unexpected '") + text[i] + "'";
      return false;
    }
    ++i;
  }
}

std::vector<DecodeSlice> RecordDecode::UsageSlices() const {
  std::vector<DecodeSlice> out = usage_warn;
  auto merge = [&](const DecodeSlice& s) {
    for (DecodeSlice& o : out) {
      if (o.event == s.event) {
        o.flags |= s.flags;
        return;
      }
    }
    out.push_back(s);
  };
  if (has_first_usage) merge(first_usage);
  if (has_last_usage) merge(last_usage);
  std::sort(out.begin(), out.end(), [](const DecodeSlice& a, const DecodeSlice& b) { return a.event < b.event; });
  return out;
}

void SseEventDecoder::Event(const DecodeSpec& spec, std::string_view data, std::string_view type, int64_t stamp,
                            RecordDecode* out) {
  ++out->events;
  // An `event: error` event is the stream's error whatever its data says: TS words the message.
  if (out->tail > 0 || type == "error" || !Decode(spec, data, stamp, out)) ++out->tail;
}

bool SseEventDecoder::Decode(const DecodeSpec& spec, std::string_view data, int64_t stamp, RecordDecode* out) {
  if (data == "[DONE]") return true;
  if (doc_.Parse(data) != JsonStatus::kOk) return false;
  if (doc_.node(0).type != JType::kObject) return false;
  const Doc doc{doc_, spec.keys};
  const int64_t err = First(doc, 0, spec.error);
  if (err >= 0 && doc_.node(static_cast<uint32_t>(err)).type != JType::kNull) return false;
  const uint32_t event = out->events - 1;

  // The texts of every choice, concatenated.
  bool has_choices = false;
  const size_t content_from = out->content.size();
  const size_t reasoning_from = out->reasoning.size();
  const int64_t choices = First(doc, 0, spec.choices);
  if (choices >= 0 && doc_.node(static_cast<uint32_t>(choices)).type == JType::kArray) {
    const JNode& arr = doc_.node(static_cast<uint32_t>(choices));
    has_choices = arr.next > static_cast<uint32_t>(choices) + 1;
    for (uint32_t c = static_cast<uint32_t>(choices) + 1; c < arr.next; c = doc_.node(c).next) {
      const int64_t m = spec.message.empty() ? c : First(doc, c, spec.message);
      if (m < 0 || doc_.node(static_cast<uint32_t>(m)).type != JType::kObject) continue;
      AppendText(doc, static_cast<uint32_t>(m), spec.content, &out->content);
      AppendText(doc, static_cast<uint32_t>(m), spec.reasoning, &out->reasoning);
    }
  }
  // The last event that says why the response ended wins (chat: a null finish_reason until then).
  std::u16string finish;
  if (AppendText(doc, 0, spec.finish, &finish)) {
    out->finish = std::move(finish);
    out->has_finish = true;
  }

  const bool has_content = out->content.size() > content_from;
  const bool has_token = has_content || out->reasoning.size() > reasoning_from;

  uint8_t which = 0;
  uint32_t node = 0;
  if (FindSource(doc, spec.spec_decode, &which, &node)) {
    out->spec.push_back(DecodeSlice{event, which, 0, std::string(doc_.Slice(node))});
  }
  const bool has_usage = FindSource(doc, spec.usage, &which, &node);
  if (has_usage) {
    DecodeSlice& last = out->last_usage;
    last.event = event;
    last.source = which;
    last.flags = kSliceLast;
    last.text.assign(doc_.Slice(node));
    out->has_last_usage = true;
    if (out->usage_warn.size() < kMaxWarnSlices && MayWarn(doc_, node)) {
      out->usage_warn.push_back(DecodeSlice{event, which, 0, last.text});
    }
  }
  if (has_token && !out->first_token_seen) {
    out->first_token_seen = true;
    if (has_usage) {
      out->first_usage = out->last_usage;
      out->first_usage.flags = kSliceFirstToken;
      out->has_first_usage = true;
    }
  }
  if (has_token) out->token_ns.push_back(stamp);
  if (has_content && !out->has_first_content) {
    out->has_first_content = true;
    out->first_content_ns = stamp;
  }
  if (has_choices && !out->has_first_choice) {
    out->has_first_choice = true;
    out->first_choice_ns = stamp;
  }
  return true;
}

}  // namespace servebench
