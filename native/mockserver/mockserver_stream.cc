// A fast-mock worker's responses: each complete request starts one, and its events (or its whole
// body) are written when due on the worker's timer heap, in batches.
#include <sys/timerfd.h>

#include <string>

#include "mockserver/mockserver_worker.h"

namespace servebench {

namespace {

constexpr size_t kMaxBatchEvents = 64;
constexpr size_t kMaxBatchBytes = 64 * 1024;
constexpr int64_t kSlackNs = 20000;  // due within this counts as due now

}  // namespace

// Starts responses for complete requests while no response is in progress.
void MockWorker::Serve(MConn* c) {
  serving_ = true;
  ServeLoop(c);
  serving_ = false;
}

void MockWorker::ServeLoop(MConn* c) {
  while (!c->stream.active && c->out.size() == c->out_off) {
    ParsedHttpRequest r;
    const ParseResult pr = ParseHttpRequest(c->in, &r);
    if (pr == ParseResult::kIncomplete) return;
    if (pr == ParseResult::kBad) {
      c->out = fmt_.Plain(400, "{\"error\":{\"message\":\"bad request\",\"type\":\"invalid_request_error\"}}", true);
      c->out_off = 0;
      c->close_after = true;
      Flush(c);
      return;
    }
    c->in.erase(0, r.consumed);
    requests.fetch_add(1, std::memory_order_relaxed);
    c->close_after = r.close;
    if (!r.generation) {
      c->out = fmt_.Route(r);
      c->out_off = 0;
      Flush(c);
      if (!conns_.count(c)) return;
      continue;
    }
    MStream& s = c->stream;
    s.req = ParseMockRequest(r.body, r.chat, o_.default_tokens);
    s.id = fmt_.NextId(r.chat, index_, ++next_id_);
    s.prefix = fmt_.Prefix(r.chat, s.id);
    s.request_id = r.request_id;
    s.t0 = MonoNs();
    s.k = 0;
    s.rng = 0x9e3779b97f4a7c15ULL ^ (next_id_ * 0xbf58476d1ce4e5b9ULL) ^ static_cast<uint64_t>(index_);
    s.active = true;
    c->out = s.req.stream ? fmt_.StreamHead(r.request_id) : std::string();
    c->out_off = 0;
    // A stream's head goes out at once; its events (or a whole body) when due.
    Schedule(s, s.req.stream ? s.t0 + o_.ttft_ns
                             : s.t0 + o_.ttft_ns + (s.req.tokens > 0 ? s.req.tokens - 1 : 0) * o_.itl_ns);
    if (!c->out.empty()) Flush(c);
    return;
  }
}

void MockWorker::Schedule(MStream& s, int64_t due) {
  s.due = due;
  s.scheduled = true;
  heap_.push({due, s.conn});
  if (armed_ == 0 || due < armed_) Arm(due);
}

void MockWorker::Arm(int64_t due) {
  itimerspec its{};
  its.it_value.tv_sec = due / 1000000000LL;
  its.it_value.tv_nsec = due % 1000000000LL;
  if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1;
  timerfd_settime(timer_, TFD_TIMER_ABSTIME, &its, nullptr);
  armed_ = due;
}

void MockWorker::RunDue() {
  const int64_t now = MonoNs();
  while (!heap_.empty() && heap_.top().first <= now + kSlackNs) {
    auto [due, c] = heap_.top();
    heap_.pop();
    if (!conns_.count(c) || !c->stream.scheduled || c->stream.due != due) continue;
    c->stream.scheduled = false;
    Emit(c, now);
  }
  if (!heap_.empty() && (armed_ == 0 || heap_.top().first != armed_)) Arm(heap_.top().first);
}

void MockWorker::Emit(MConn* c, int64_t now) {
  MStream& s = c->stream;
  if (!s.req.stream) {
    c->out = fmt_.Body(s.req, s.id, s.rng, s.request_id);
    c->out_off = 0;
    s.active = false;
    Flush(c);
    return;
  }
  size_t batch = 0;
  const size_t start = c->out.size();
  while (s.k < s.req.tokens && batch < kMaxBatchEvents && c->out.size() - start < kMaxBatchBytes) {
    if (s.t0 + o_.ttft_ns + static_cast<int64_t>(s.k) * o_.itl_ns > now + kSlackNs) break;
    if (s.k == 0 && s.req.chat) {
      fmt_.Role(s.prefix, &c->out, &c->stamps);
      ++batch;
    }
    fmt_.Token(s.req, s.prefix, s.k, &s.rng, &c->out, &c->stamps);
    ++s.k;
    ++batch;
  }
  if (s.k >= s.req.tokens) {
    batch += fmt_.Closing(s.req, s.prefix, &c->out, &c->stamps);
    s.active = false;
  }
  events.fetch_add(batch, std::memory_order_relaxed);
  Flush(c);  // reschedules the stream once the socket has taken everything
}
}  // namespace servebench
