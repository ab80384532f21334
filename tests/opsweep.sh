#!/bin/sh
# opsweep.sh - the op sweep (issue 27): every op of ops.def as one-node
# models with extreme attributes, extreme int64 constant inputs and input
# ranks 0, 1, 4, 17, 33, 65 (tests/opsweep/gen_opsweep.py), run through
# the onnx fuzz target's code (load, inspect, analyse, count report) built
# with ASan+UBSan (build/asan/fuzz/replay_onnx).  Every status is fine; a
# crash or sanitizer report is a finding, named with its model, and the
# sweep goes on after it.  `make test` runs a sample (every OPSWEEP_SAMPLE-th
# model, default 40: about 2,100 models); `make fuzz-long` the whole set
# (OPSWEEP_SAMPLE=1, about 85,000).  OPSWEEP_RANDOM=SEED makes it the
# randomised sweep instead: OPSWEEP_COUNT (default 20000) random models of
# that seed (tests/opsweep/fuzz_opsweep.sh runs seed after seed for a given
# CPU time).  Prints PASS/FAIL lines.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
S=${OPSWEEP_SAMPLE:-40}
BIN=build/asan/fuzz/replay_onnx
[ -x $BIN ] || { echo "FAIL opsweep: $BIN is not built (make test-build)"; exit 0; }
W=$(mktemp -d "${TMPDIR:-/tmp}/jc_opsweep.XXXXXX") || exit 1   # private: make test runs may overlap
trap 'rm -rf "$W"' EXIT
if [ -n "${OPSWEEP_RANDOM:-}" ]; then
  set -- --random "$OPSWEEP_RANDOM" "${OPSWEEP_COUNT:-20000}"; S=1
else
  set -- --sample "$S"
fi
/usr/bin/python3 tests/opsweep/gen_opsweep.py $W/m "$@" > $W/gen.log 2>&1 ||
  { echo "FAIL opsweep: the generator failed: $(tail -3 $W/gen.log)"; exit 0; }
ls $W/m | sort > $W/all
total=$(wc -l < $W/all)
found=0
: > $W/done
# replay in one process; after a finding, go on from the model after it
while :; do
  comm -23 $W/all $W/done | sed "s|^|$W/m/|" > $W/todo
  [ -s $W/todo ] || break
  xargs $BIN onnx < $W/todo > $W/out 2> $W/err && { sed -n 's|^PASS onnx .*/||p' $W/out >> $W/done; break; }
  sed -n 's|^PASS onnx .*/||p' $W/out >> $W/done
  # the model that died: replayed (stderr) but never passed (stdout); xargs
  # goes on with its next batch after one dies, so it is not the last replayed
  sed -n 's|^replay onnx .*/\([^ ]*\) (.*|\1|p' $W/err | sort > $W/tried
  sed -n 's|^PASS onnx .*/||p' $W/out | sort > $W/passed
  bad=$(comm -23 $W/tried $W/passed | head -n 1)
  [ -n "$bad" ] || { echo "FAIL opsweep: replay failed without naming a model: $(tail -5 $W/err)"; break; }
  found=$((found + 1))
  echo "FAIL opsweep/$bad: $(grep -m1 'runtime error\|ERROR: AddressSanitizer\|SUMMARY' $W/err | head -c 300)"
  echo "$bad" >> $W/done
  sort -o $W/done $W/done
  [ -n "${OPSWEEP_KEEP:-}" ] && mkdir -p "$OPSWEEP_KEEP" && cp "$W/m/$bad" "$OPSWEEP_KEEP/"
done
[ $found -eq 0 ] && echo "PASS opsweep: $total models (every ${S}th of $(sed -n 's/.* of \([0-9]*\) models.*/\1/p' $W/gen.log)${OPSWEEP_RANDOM:+, random seed $OPSWEEP_RANDOM}) clean under ASan+UBSan"
# make test's sample also runs 1,000 models of a fixed random seed, so the
# randomised mode of `make fuzz-opsweep` is itself tested
if [ -z "${OPSWEEP_RANDOM:-}" ] && [ "$S" != 1 ]; then
  rm -rf "$W"
  OPSWEEP_RANDOM=1 OPSWEEP_COUNT=1000 sh tests/opsweep.sh
fi
exit 0
