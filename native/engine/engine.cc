#include "engine/engine.h"

#include <algorithm>

#include "engine/engine_loop.h"

namespace servebench {

Engine::Engine(const EngineOptions& options, std::function<void()> notify)
    : options_(options), notify_(std::move(notify)) {
  if (options_.threads < 1) options_.threads = 1;
}

Engine::~Engine() { Stop(); }

void Engine::Start() {
  if (started_) return;
  const int n = options_.threads;
  const int max = options_.max_connections;
  for (int i = 0; i < n; ++i) {
    // Split the connection cap across threads; every thread gets at least one.
    int share = 0;
    if (max > 0) {
      share = max / n + (i < max % n ? 1 : 0);
      if (share < 1) share = 1;
    }
    loops_.push_back(std::make_unique<IoLoop>(this, options_, share));
  }
  for (auto& loop : loops_) loop->Start();
  started_ = true;
}

void Engine::Submit(std::vector<EngineRequest>&& requests) {
  if (!started_ || stopped_ || requests.empty()) return;
  for (auto& r : requests) {
    r.decode = options_.decode.get();
    r.keep_payloads = options_.keep_payloads;
  }
  if (loops_.size() == 1) {
    loops_[0]->Post(std::move(requests));
    return;
  }
  // Each request goes to the loop with the fewest in flight (ties round-robin): each loop holds
  // its share of the connections, so in a closed loop, where a request finishing on one loop is
  // replaced by one that round-robin could send to another, plain round-robin lets one loop queue
  // requests for its busy connections while another's sit idle.
  const size_t n = loops_.size();
  std::vector<std::vector<EngineRequest>> per(n);
  std::vector<int64_t> load(n);
  for (size_t i = 0; i < n; ++i) load[i] = loops_[i]->load();
  for (auto& r : requests) {
    size_t best = next_loop_;
    for (size_t k = 1; k < n; ++k) {
      const size_t i = (next_loop_ + k) % n;
      if (load[i] < load[best]) best = i;
    }
    ++load[best];
    per[best].push_back(std::move(r));
    next_loop_ = (best + 1) % n;
  }
  for (size_t i = 0; i < loops_.size(); ++i) {
    if (!per[i].empty()) loops_[i]->Post(std::move(per[i]));
  }
}

void Engine::Cancel(const std::vector<uint32_t>& ids) {
  if (!started_ || stopped_ || ids.empty()) return;
  for (auto& loop : loops_) loop->PostCancel(ids, false);
}

void Engine::CancelAll() {
  if (!started_ || stopped_) return;
  for (auto& loop : loops_) loop->PostCancel({}, true);
}

void Engine::SetGate(int slots, bool held) {
  if (!started_ || stopped_ || slots < 0) return;
  const int k = static_cast<int>(loops_.size());
  // Evenly, as Submit balances requests across the threads; a thread's share is at least one.
  for (int i = 0; i < k; ++i)
    loops_[i]->PostGate(slots == 0 ? 0 : std::max(1, slots / k + (i < slots % k ? 1 : 0)), held, false);
}

void Engine::CancelWaiting() {
  if (!started_ || stopped_) return;
  for (auto& loop : loops_) loop->PostGate(-1, false, true);
}

void Engine::Preconnect(int n) {
  if (!started_ || stopped_ || n <= 0) return;
  const int k = static_cast<int>(loops_.size());
  // Evenly, as Submit balances requests across the threads.
  for (int i = 0; i < k; ++i) {
    const int share = n / k + (i < n % k ? 1 : 0);
    if (share > 0) loops_[i]->PostPreconnect(share);
  }
}

void Engine::Drain(std::vector<EngineRecord>* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (out->empty()) {
    out->swap(done_);
  } else {
    for (auto& r : done_) out->push_back(std::move(r));
    done_.clear();
  }
  notified_ = false;
}

void Engine::Complete(std::vector<EngineRecord>* batch) {
  bool notify;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (done_.empty()) {
      done_.swap(*batch);
    } else {
      for (auto& r : *batch) done_.push_back(std::move(r));
    }
    batch->clear();
    notify = !notified_;
    notified_ = true;
  }
  if (notify && notify_) notify_();
}

void Engine::Stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& loop : loops_) loop->PostStop();
  for (auto& loop : loops_) loop->Join();
}

EngineStats Engine::Stats() const {
  EngineStats s;
  std::vector<const ReadDelayHist*> delays, lags;
  for (const auto& loop : loops_) {
    loop->AddStats(&s);
    delays.push_back(loop->read_delay());
    lags.push_back(loop->arrival_lag());
  }
  s.read_delay = ReadDelayHist::Summarize(delays, &s.coalesce_sleeps);
  s.arrival_lag = ReadDelayHist::Summarize(lags);
  return s;
}

}  // namespace servebench
