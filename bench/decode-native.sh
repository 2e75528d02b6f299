#!/bin/sh
# Component harness (not the real command): ns per SSE event of the native per-event decode
# (bench/decode-native.cc), built with the addon's flags (-O3) from this tree's native/ and, when a
# git revision is given, from that revision's native/ too; the two run interleaved and each run's
# line is printed (compare the medians; the checksums must match: both decode alike).
#   sh bench/decode-native.sh [REV] [runs=5] [responses=200] [reps=15] [osl=128]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rev=${1:-}
runs=${2:-5}
shift $(($# < 2 ? $# : 2))
work=${TMPDIR:-/tmp}/servebench-decode-bench
mkdir -p "$work"
cxx=${CXX:-g++}
build() { # build NATIVE_DIR OUT
  src=$1/wire # the decode's sources (before native/ had subfolders: native/ itself)
  [ -d "$src" ] || src=$1
  old=$(grep -q KeyTable "$src/sse_decode.h" || echo -DSB_DECODE_OLD_API)
  "$cxx" -std=c++17 -O3 $old -I"$1" -I"$src" "$here/decode-native.cc" "$src/json_scan.cc" "$src/sse_decode.cc" $(ls "$src/json_keys.cc" "$src/utf8_decode.cc" 2>/dev/null) -o "$2"
}
build "$here/../native" "$work/new"
if [ -n "$rev" ]; then
  rm -rf "$work/old-src" && mkdir -p "$work/old-src"
  git -C "$here/.." archive "$rev" native/ |
    tar -x -C "$work/old-src"
  build "$work/old-src/native" "$work/old"
fi
i=0
while [ "$i" -lt "$runs" ]; do
  if [ -n "$rev" ]; then printf '%s ' "$rev" && "$work/old" "$@"; fi
  printf 'tree ' && "$work/new" "$@"
  i=$((i + 1))
done
