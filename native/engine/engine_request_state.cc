#include "engine/engine_request_state.h"

namespace servebench {

// ---- Req ----------------------------------------------------------------

void Req::OnHead(int status) {
  rec.status = status;
  rec.first_byte_ns = last_read_ns;
  framing = in.streaming && status >= 200 && status < 300;
  rec.decoding = framing && in.decode != nullptr;
}

void Req::OnBody(const char* p, size_t n, int64_t stamp) {
  rec.bytes_received += n;
  if (last_body_ns != stamp) ++rec.body_reads;
  last_body_ns = stamp;
  if (overflow != Overflow::kNone) return;  // the read that passed a cap: the rest is dropped
  if (rec.bytes_received > max_response) {
    overflow = Overflow::kResponse;
  } else if (framing) {
    framer.Feed(p, n, stamp);
    if (framer.over()) overflow = Overflow::kEvent;
  } else {
    rec.body.append(p, n);
    rec.has_body = true;
  }
}

std::string Req::OverflowMessage() const {
  if (overflow == Overflow::kEvent) return "event over " + std::to_string(max_event) + " bytes (--max-event-bytes)";
  return "response over " + std::to_string(max_response) + " bytes (--max-response-bytes)";
}

void Req::OnEvent(std::string_view data, std::string_view type, int64_t stamp) {
  if (rec.decoding) {
    decoder.Event(*in.decode, data, type, stamp, &rec.decoded);
    if (rec.decoded.content.size() + rec.decoded.reasoning.size() > kMaxKeptBytes / 2) {
      overflow = Overflow::kResponse;
      return;
    }
    // Decoded events keep no payload, unless asked to (the tail always does).
    if (rec.decoded.tail == 0 && !in.keep_payloads) return;
  }
  if (rec.event_data.size() + data.size() + rec.event_types.size() + type.size() > kMaxKeptBytes) {
    overflow = Overflow::kResponse;
    return;
  }
  rec.event_data.append(data.data(), data.size());
  rec.event_end.push_back(static_cast<uint32_t>(rec.event_data.size()));
  rec.event_ns.push_back(stamp);
  if (!type.empty()) {
    rec.any_type = true;
    rec.event_types.append(type.data(), type.size());
  }
  rec.type_end.push_back(static_cast<uint32_t>(rec.event_types.size()));
}

// ---- ReqHeap ------------------------------------------------------------

void ReqHeap::Push(Req* r) {
  v_.push_back(r);
  Place(v_.size() - 1, r);
  Up(v_.size() - 1);
}

void ReqHeap::Remove(Req* r) {
  const size_t i = static_cast<size_t>(r->*idx_);
  r->*idx_ = -1;
  Req* last = v_.back();
  v_.pop_back();
  if (i == v_.size()) return;
  Place(i, last);
  Up(i);
  Down(static_cast<size_t>(last->*idx_));
}

void ReqHeap::Up(size_t i) {
  Req* r = v_[i];
  while (i > 0) {
    const size_t parent = (i - 1) / 2;
    if (v_[parent]->*key_ <= r->*key_) break;
    Place(i, v_[parent]);
    i = parent;
  }
  Place(i, r);
}

void ReqHeap::Down(size_t i) {
  Req* r = v_[i];
  const size_t n = v_.size();
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && v_[c + 1]->*key_ < v_[c]->*key_) ++c;
    if (v_[c]->*key_ >= r->*key_) break;
    Place(i, v_[c]);
    i = c;
  }
  Place(i, r);
}

}  // namespace servebench
