#!/bin/sh
# clang-format over the C and C++ sources (.clang-format): checks by default, rewrites with --fix.
# Exits non-zero when a file is not formatted.
set -eu
cd "$(dirname "$0")/.."
files=$(ls native/*.cc native/*.h native/*/*.cc native/*/*.h fuzz/*.cc fuzz/*.h test/fixtures/*.c test/fixtures/*.h 2>/dev/null)
if [ "${1:-}" = "--fix" ]; then
  exec node_modules/.bin/clang-format -i --style=file $files
fi
exec node_modules/.bin/clang-format --dry-run -Werror --style=file $files
