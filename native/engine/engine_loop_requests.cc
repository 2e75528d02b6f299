// The requests' side of an I/O thread: request slots, starting a request on a pooled or new
// connection, the pool's preconnects, and finishing a request into the batch for JS.
#include <algorithm>

#include "engine/engine_loop.h"

namespace servebench {

// ---- requests -----------------------------------------------------------------

Req* IoLoop::NewReq() {
  if (!free_.empty()) {
    Req* r = free_.back();
    free_.pop_back();
    return r;
  }
  slots_.push_back(std::make_unique<Req>());
  return slots_.back().get();
}

void IoLoop::FreeReq(Req* r) {
  r->in = EngineRequest();
  r->rec = EngineRecord();
  r->framer.Reset();
  r->decoder.Trim();
  r->conn = nullptr;
  r->written = 0;
  r->deadline = r->target = r->last_body_ns = r->last_read_ns = 0;
  r->framing = r->retried = r->waiting = r->gated = r->in_gate = false;
  r->overflow = Req::Overflow::kNone;
  free_.push_back(r);
}

void IoLoop::StartRequest(Req* r, int64_t now) {
  started_.fetch_add(1, std::memory_order_relaxed);
  r->rec.start_ns = now;
  r->max_response = options_.max_response_bytes;
  r->max_event = options_.max_event_bytes;
  r->framer.set_max_event(r->max_event);
  if (r->in.streaming && r->hint_events > 0) {
    EngineRecord& rec = r->rec;
    rec.event_data.reserve(r->hint_bytes + r->hint_bytes / 8);
    rec.event_end.reserve(r->hint_events + 2);
    rec.event_ns.reserve(r->hint_events + 2);
    rec.type_end.reserve(r->hint_events + 2);
  }
  if (r->in.timeout_ns > 0) {
    r->deadline = now + r->in.timeout_ns;
    deadlines_.Push(r);
  }
  Acquire(r, now);
}

void IoLoop::Acquire(Req* r, int64_t now) {
  if (!idle_.empty()) {
    Conn* c = idle_.back();
    idle_.pop_back();
    c->idle_idx = -1;
    Attach(c, r);
    TryWrite(c, now);
  } else if (max_conns_ == 0 || conns_ < max_conns_) {
    OpenConn(r, now);
  } else {
    r->waiting = true;
    waiting_.push_back(r);
  }
}

void IoLoop::Preconnect(int n, int64_t now) {
  int opened = 0;
  while (opened < n && !stopping_ && (max_conns_ == 0 || conns_ < max_conns_) && OpenConn(nullptr, now) != nullptr) {
    ++opened;
  }
  // What could not be opened (the cap, a socket or connect failure) is no longer warming; a
  // connection that fails later stops counting in CloseConn.
  if (opened < n) warming_.fetch_sub(static_cast<uint64_t>(n - opened), std::memory_order_relaxed);
}

// A preconnected connection is up: it joins the idle pool as a pooled connection, so its first
// request is sent as on a kept-alive one (and retried once if the server closed it meanwhile).
void IoLoop::Warmed(Conn* c, int64_t now) {
  Unwarm(c);
  preconnected_.fetch_add(1, std::memory_order_relaxed);
  SetWrite(c, false);
  ReleaseConn(c, true, now);
}

void IoLoop::Unwarm(Conn* c) {
  const size_t i = static_cast<size_t>(c->warm_idx);
  warming_conns_[i] = warming_conns_.back();
  warming_conns_[i]->warm_idx = static_cast<int>(i);
  warming_conns_.pop_back();
  c->warm_idx = -1;
  warming_.fetch_sub(1, std::memory_order_relaxed);
}

void IoLoop::ServeWaiting(int64_t now) {
  while (!waiting_.empty() && !stopping_ && (!idle_.empty() || max_conns_ == 0 || conns_ < max_conns_)) {
    Req* r = waiting_.front();
    waiting_.pop_front();
    r->waiting = false;
    Acquire(r, now);
  }
}

void IoLoop::Finish(Req* r, EngineError kind, const std::string& message, int64_t now) {
  if (r->target_idx >= 0) targets_.Remove(r);
  if (r->deadline_idx >= 0) deadlines_.Remove(r);
  if (r->waiting) {
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), r));
    r->waiting = false;
  }
  LeaveGate(r, now);
  if (Conn* c = r->conn) {
    // A request that ends while its connection is mid-response leaves that
    // connection unusable.
    c->req = nullptr;
    r->conn = nullptr;
    CloseConn(c);
  }
  EngineRecord& rec = r->rec;
  if (rec.start_ns == 0) rec.start_ns = now;  // ended before it started (cancelled while scheduled)
  if (kind == EngineError::kNone) {
    rec.end_ns = rec.bytes_received > 0 ? r->last_body_ns : (r->last_read_ns != 0 ? r->last_read_ns : now);
  } else {
    rec.end_ns = now;
    rec.error = kind;
    rec.error_message = message;
  }
  auto it = live_.find(rec.id);
  if (it != live_.end() && it->second == r) live_.erase(it);
  // A response that failed (a cap passed, a timeout) is no guide to the next one's size.
  r->hint_bytes = kind == EngineError::kNone ? rec.event_data.size() : 0;
  r->hint_events = kind == EngineError::kNone ? rec.event_ns.size() : 0;
  batch_.push_back(std::move(rec));
  completed_.fetch_add(1, std::memory_order_relaxed);
  live_reqs_.fetch_sub(1, std::memory_order_relaxed);
  assigned_.fetch_sub(1, std::memory_order_relaxed);
  FreeReq(r);
}

}  // namespace servebench
