#include "wire/sse.h"

#include <cstring>

namespace servebench {

namespace {
constexpr char kBom[3] = {'\xEF', '\xBB', '\xBF'};

// Offset of the first `c` in [p + from, p + n), or n when absent.
inline size_t Find(const char* p, size_t from, size_t n, char c) {
  const void* hit = std::memchr(p + from, c, n - from);
  return hit ? static_cast<size_t>(static_cast<const char*>(hit) - p) : n;
}
}  // namespace

void SseFramer::Reset() {
  // Capacity is kept for the next stream of the slot, but not a huge event's: that memory goes back.
  constexpr size_t kKeep = 1u << 20;
  if (line_.capacity() > kKeep) std::string().swap(line_);
  if (data_.capacity() > kKeep) std::string().swap(data_);
  line_.clear();
  data_.clear();
  type_.clear();
  total_ = boundary_ = 0;
  bom_matched_ = 0;
  bom_done_ = skip_lf_ = over_ = false;
}

void SseFramer::Feed(const char* p, size_t n, int64_t stamp) {
  if (over_) return;
  if (!bom_done_) {
    // The BOM may itself arrive split across chunks, so match it bytewise.
    while (n > 0 && bom_matched_ < 3 && *p == kBom[bom_matched_]) {
      ++bom_matched_;
      ++p;
      --n;
    }
    if (bom_matched_ == 3) {
      bom_done_ = true;
    } else if (n == 0) {
      return;  // undecided: wait for more bytes
    } else {
      // Not a BOM: the bytes held back are ordinary content (never line ends).
      bom_done_ = true;
      Scan(kBom, bom_matched_, stamp);
    }
  }
  Scan(p, n, stamp);
}

void SseFramer::Scan(const char* p, size_t n, int64_t stamp) {
  if (n == 0) return;
  const uint64_t base = total_;
  total_ += n;
  size_t i = 0;
  if (skip_lf_) {
    skip_lf_ = false;
    if (p[0] == '\n') {
      i = 1;
      // The CR ending the previous chunk closed a blank line: its LF belongs
      // to that boundary, not to the next event.
      if (boundary_ == base) boundary_ = base + 1;
    }
  }
  // Next LF and next CR, each found once and refreshed only when passed, so
  // the chunk is scanned by memchr in O(n) whatever the mix of line ends.
  size_t lf = Find(p, i, n, '\n');
  size_t cr = Find(p, i, n, '\r');
  while (i < n) {
    if (lf < i) lf = Find(p, i, n, '\n');
    if (cr < i) cr = Find(p, i, n, '\r');
    const size_t eol = lf < cr ? lf : cr;
    // The event so far, from the last boundary to the end of this line (or of the chunk).
    if (base + eol - boundary_ > max_event_) {
      over_ = true;
      return;
    }
    if (eol == n) {
      line_.append(p + i, n - i);
      return;
    }
    size_t next = eol + 1;
    if (p[eol] == '\r') {
      if (next < n) {
        if (p[next] == '\n') ++next;
      } else {
        skip_lf_ = true;
      }
    }
    bool blank;
    if (line_.empty()) {
      blank = Line(p + i, eol - i, stamp);
    } else {
      line_.append(p + i, eol - i);
      blank = Line(line_.data(), line_.size(), stamp);
      line_.clear();
    }
    if (blank) boundary_ = base + next;
    i = next;
  }
}

bool SseFramer::Line(const char* p, size_t n, int64_t stamp) {
  if (n == 0) {
    // Dispatch. An empty data buffer dispatches nothing but still resets.
    if (!data_.empty()) {
      data_.pop_back();  // the LF appended after the last data line
      sink_->OnEvent(std::string_view(data_), std::string_view(type_), stamp);
    }
    data_.clear();
    type_.clear();
    return true;
  }
  if (p[0] == ':') return false;  // comment
  const char* colon = static_cast<const char*>(std::memchr(p, ':', n));
  const size_t flen = colon ? static_cast<size_t>(colon - p) : n;
  const char* v = p + n;
  size_t vlen = 0;
  if (colon) {
    v = colon + 1;
    vlen = n - flen - 1;
    if (vlen > 0 && *v == ' ') {
      ++v;
      --vlen;
    }
  }
  if (flen == 4 && std::memcmp(p, "data", 4) == 0) {
    data_.append(v, vlen);
    data_.push_back('\n');
  } else if (flen == 5 && std::memcmp(p, "event", 5) == 0) {
    type_.assign(v, vlen);
  }
  // `id`, `retry` and unknown fields are parsed and ignored.
  return false;
}

}  // namespace servebench
