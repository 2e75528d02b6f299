#!/bin/sh
# clang-format over the C and C++ sources (.clang-format): checks by default, rewrites with --fix.
# Also checks native/'s layout (native/README.md): N-API only in the binding files, and a folder
# includes another folder's headers only where the README's order allows it.
# Exits non-zero when a file is not formatted or breaks the layout.
set -eu
cd "$(dirname "$0")/.."
files=$(ls native/*.cc native/*.h native/*/*.cc native/*/*.h fuzz/*.cc fuzz/*.h test/fixtures/*.c test/fixtures/*.h 2>/dev/null)

# The binding files: addon.cc, bindings.h, common/ (the bindings' helpers) and *_binding.{h,cc}.
binding='^native/(addon\.cc|bindings\.h|common/[a-z0-9_]+\.(h|cc)|[a-z0-9_]+/[a-z0-9_]+_binding\.(h|cc))$'
layout=0
for f in $(grep -lE 'napi|Napi' native/*.cc native/*.h native/*/*.cc native/*/*.h | grep -vE "$binding" || true); do
  echo "lint-native: $f uses N-API outside a binding file (move it to a *_binding file)" >&2
  layout=1
done
# FILE:#include "FOLDER/..." lines; a folder may include its own headers, common/ and bindings.h
# from binding files only, and engine/ may include wire/ (the parser, framer and decode it runs).
for line in $(grep -HE '^#include "' native/*.cc native/*.h native/*/*.cc native/*/*.h | tr -d ' '); do
  f=${line%%:*}
  inc=${line#*#include\"}
  inc=${inc%\"*}
  from=$(dirname "${f#native/}")
  to=$(dirname "$inc")
  ok=0
  case "$to" in
    "$from") ok=1 ;;
    . | common) if echo "$f" | grep -qE "$binding"; then ok=1; fi ;;
    wire) if [ "$from" = engine ]; then ok=1; fi ;;
  esac
  if [ "$ok" = 0 ]; then
    echo "lint-native: $f includes $inc (not allowed by native/README.md's layout)" >&2
    layout=1
  fi
done
[ "$layout" = 0 ] || exit 1

if [ "${1:-}" = "--fix" ]; then
  exec node_modules/.bin/clang-format -i --style=file $files
fi
exec node_modules/.bin/clang-format --dry-run -Werror --style=file $files
