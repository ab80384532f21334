#!/bin/sh
# fuzz_regress.sh - replays every input of tests/fuzz/regress/<target>/
# (inputs that once crashed a fuzz target, kept after the fix) through the
# same target code built with gcc's ASan+UBSan against build/asan/
# (build/asan/fuzz/replay_<target>, made by `make test-build` from
# tests/fuzz/fuzz_<target>.c + tests/fuzz/replay_main.c).  Each input
# that runs clean prints a PASS line; a crash, sanitizer report or leak
# makes the replayer exit non-zero, which tests/run.sh counts as a failure.
set -u
cd "$(dirname "$0")/.."
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
W=$(mktemp -d "${TMPDIR:-/tmp}/jc_fuzzreg.XXXXXX") || exit 1   # private: make test runs may overlap
trap 'rm -rf "$W"' EXIT
rc=0
for d in tests/fuzz/regress/*/; do
  t=$(basename "$d")
  bin=build/asan/fuzz/replay_$t
  if [ ! -x "$bin" ]; then echo "FAIL replay_$t is not built (make test-build)"; rc=1; continue; fi
  [ -n "$(ls -A "$d")" ] || continue
  "$bin" "$t" "$d" 2>$W/err || {
    echo "FAIL fuzz regression inputs of $t"
    tail -n 30 $W/err
    rc=1
  }
done
exit $rc
