#!/bin/sh
# Fuzzes the native engine's response path (HTTP/1.1 parser + SSE framer) with libFuzzer under
# AddressSanitizer and UBSan for a bounded time:   npm run fuzz [-- SECONDS]   (default 60)
# Builds into $TMPDIR (nothing is written to the repo); a crashing input is saved there and its path
# printed; add it to test/unit/native/http1.test.ts as a case.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
cxx=${FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: $cxx not found; on Debian: apt-get install clang libfuzzer-14-dev" >&2
  exit 2
fi
work=${TMPDIR:-/tmp}/servebench-fuzz
mkdir -p "$work/corpus" "$work/crashes"
cp "$here"/corpus/* "$work/corpus/"
"$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$here/../native" \
  "$here/http1_sse_fuzz.cc" "$here/../native/http1.cc" "$here/../native/sse.cc" -o "$work/http1_sse_fuzz"
echo "fuzz: running $work/http1_sse_fuzz for ${secs}s (corpus $work/corpus, crashes to $work/crashes/)"
exec "$work/http1_sse_fuzz" -max_total_time="$secs" -max_len=8192 -timeout=5 -print_final_stats=1 \
  -artifact_prefix="$work/crashes/" "$work/corpus"
