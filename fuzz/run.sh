#!/bin/sh
# Fuzzes the native engine's response path with libFuzzer under AddressSanitizer and UBSan for a
# bounded time:   npm run fuzz [-- SECONDS [TARGET]]   (default 60 s, target http1_sse)
#   http1_sse    the HTTP/1.1 parser + SSE framer (fuzz/http1_sse_fuzz.cc, corpus fuzz/corpus)
#   json_decode  the JSON scanner + per-event SSE decode (fuzz/json_decode_fuzz.cc, corpus fuzz/corpus-json)
#   http1_sse_tls  the same, with the bytes also sent over TLS and read back through the engine's
#                TLS read path (native/engine/engine_tls.cc; fuzz/tls_feed.h; needs libssl-dev)
#   all          all three, SECONDS each
# Builds into $TMPDIR (nothing is written to the repo); a crashing input is saved there and its path
# printed; add it as a test case (test/unit/native/http1.test.ts, test/unit/records/native-decode.test.ts).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-60}
target=${2:-http1_sse}
cxx=${FUZZ_CXX:-clang++}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz: $cxx not found; on Debian: apt-get install clang libfuzzer-14-dev" >&2
  exit 2
fi
work=${TMPDIR:-/tmp}/servebench-fuzz
native="$here/../native"

# run NAME SOURCE CORPUS [compiler arguments…]
run() {
  name=$1
  src=$2
  corpus=$3
  shift 3
  mkdir -p "$work/$name/corpus" "$work/$name/crashes"
  cp "$here/$corpus"/* "$work/$name/corpus/"
  "$cxx" -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$native" "$here/$src" "$@" -o "$work/$name/fuzz"
  echo "fuzz: running $work/$name/fuzz for ${secs}s (corpus $work/$name/corpus, crashes to $work/$name/crashes/)"
  "$work/$name/fuzz" -max_total_time="$secs" -max_len=8192 -timeout=5 -print_final_stats=1 \
    -artifact_prefix="$work/$name/crashes/" "$work/$name/corpus"
}

tls() { run http1_sse_tls http1_sse_fuzz.cc corpus -DSERVEBENCH_FUZZ_TLS "$native/wire/http1.cc" "$native/wire/sse.cc" "$native/engine/engine_tls.cc" -lssl -lcrypto; }
case "$target" in
  http1_sse) run http1_sse http1_sse_fuzz.cc corpus "$native/wire/http1.cc" "$native/wire/sse.cc" ;;
  http1_sse_tls) tls ;;
  json_decode) run json_decode json_decode_fuzz.cc corpus-json "$native/wire/json_keys.cc" "$native/wire/json_scan.cc" "$native/wire/utf8_decode.cc" "$native/wire/sse_decode.cc" ;;
  all)
    run http1_sse http1_sse_fuzz.cc corpus "$native/wire/http1.cc" "$native/wire/sse.cc"
    tls
    run json_decode json_decode_fuzz.cc corpus-json "$native/wire/json_keys.cc" "$native/wire/json_scan.cc" "$native/wire/utf8_decode.cc" "$native/wire/sse_decode.cc"
    ;;
  *)
    echo "fuzz: unknown target '$target' (http1_sse, http1_sse_tls, json_decode, all)" >&2
    exit 2
    ;;
esac
