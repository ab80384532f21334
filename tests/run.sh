#!/bin/sh
# run.sh - runs every test layer of `make test` and prints the closing line
# "N passed, N failed, N skipped" alone (the line above it says how many of
# the passed and failed are ONNX backend-suite models walked, one case per
# model, and how many are other tests).  Layers: C unit tests (ASan+UBSan
# build), golden CLI outputs, the ONNX backend suite walk, bad-input cases,
# and every tests/*.sh script.  The Python package is pip-installed once,
# first (tests/pip_install.sh), into a temporary venv ($JC_PYVENV) that the
# Python layers run it from; the venv is removed at the end.  Each layer
# prints PASS/FAIL lines, and "SKIP case (why)" for a case it could not run;
# a binary or script that crashes or exits non-zero without reporting a
# FAIL counts as one failure of its own.  Every skip must be one that
# tests/expected_skips.txt lists (a glob over the case name, then the
# reason); any other skip is a failure as well ("FAIL skip/CASE").
#
#   sh tests/run.sh          every layer (make test), two at a time
#                            (TEST_JOBS=1: one at a time)
#   sh tests/run.sh --check  the fast loop (make check): the unit tests,
#                            the CLI's table/help/man agreement (cli_consistency),
#                            the goldens, lint and the docs' shown outputs
#                            (docs_figures), no valgrind
#   sh tests/run.sh --only "LAYER..."  those layers alone, counted the same
#                            way (a unit test is unit/test_NAME, a script
#                            its name: hostile)
set -u
mode=full; only=""
case "${1:-}" in
  --check) mode=check ;;
  --only) mode=only; only=${2:-} ;;
esac
cd "$(dirname "$0")/.."
export LC_ALL=C
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export JC="$PWD/build/asan/joulecast"
export JC_RELEASE="$PWD/build/joulecast"
mkdir -p build
LOG=build/test.log
SKIPS=tests/expected_skips.txt
: > "$LOG"
pass=0; fail=0; skip=0; walked=0
JC_PYVENV_TMP=$(mktemp -d)
export JC_PYVENV="$JC_PYVENV_TMP/venv"
trap 'rm -rf "$JC_PYVENV_TMP"' EXIT

# the layers whose cases are backend-suite models walked, one case per
# model (counted apart in the closing line)
walk_layer() {
  case "$1" in unit/test_backend_load|unit/test_shape_backend|valgrind) return 0 ;; esac
  return 1
}

# expected_skip CASE: 0 when a glob of tests/expected_skips.txt (the first
# field of a line) matches the case name
expected_skip() {
  [ -f "$SKIPS" ] || return 1
  while read -r glob _; do
    case "$glob" in ''|\#*) continue ;; esac
    # the glob is a pattern on purpose (unquoted)
    case "$1" in $glob) return 0 ;; esac
  done < "$SKIPS"
  return 1
}

# unexpected_skips FILE: a "FAIL skip/CASE" line for every SKIP line of the
# layer output FILE whose case tests/expected_skips.txt does not list
unexpected_skips() {
  grep '^SKIP ' "$1" | while read -r _ c _; do
    c=${c%:}
    expected_skip "$c" ||
      echo "FAIL skip/$c (a skip that $SKIPS does not list: install what it lacks, or list it there with the reason)"
  done
}

count() {  # count PASS/FAIL/SKIP lines of one layer's output file (name, file)
  p=$(grep -c '^PASS ' "$2"); f=$(grep -c '^FAIL ' "$2"); k=$(grep -c '^SKIP ' "$2")
  pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + k))
  walk_layer "$1" && walked=$((walked + p + f))
  grep '^FAIL ' "$2" | sed 's/^/  /'
  return 0
}

# exec_layer NAME: runs one layer into build/test-NAME.out and its exit
# status and seconds into build/test-NAME.out.rc
exec_layer() {
  out=build/test-$(echo "$1" | tr / _).out
  t0=$(date +%s)
  case "$1" in
    unit/*) "build/asan/tests/${1#unit/}" > "$out" 2>&1 ;;
    *) sh "tests/$1.sh" > "$out" 2>&1 ;;
  esac
  echo "$? $(( $(date +%s) - t0 ))" > "$out.rc"
}

# report_layer NAME: its line "NAME  N passed, N failed, N skipped  Ts", its
# skips (indented) and its counts; an unlisted skip adds its FAIL line
report_layer() {
  name=$1
  out=build/test-$(echo "$name" | tr / _).out
  read -r rc secs < "$out.rc"
  nf=$(grep -c '^FAIL ' "$out")
  if [ "$rc" -ne 0 ] && [ "$nf" -eq 0 ]; then
    echo "FAIL $name (exit $rc without a FAIL line; see $out)" >> "$out"
    tail -n 20 "$out" | sed 's/^/    /'
  fi
  unexpected_skips "$out" > "$out.unlisted"
  cat "$out.unlisted" >> "$out"
  cat "$out" >> "$LOG"
  np=$(grep -c '^PASS ' "$out"); nf=$(grep -c '^FAIL ' "$out"); nk=$(grep -c '^SKIP ' "$out")
  printf '%-36s %5d passed, %d failed, %d skipped %5ds\n' "$name" "$np" "$nf" "$nk" "$secs"
  grep '^SKIP ' "$out" | sed 's/^/  /'
  count "$name" "$out"
}

# The layers, in report order.  pip_install runs first, alone (the Python
# layers use its venv); the others run in two lanes at once (TEST_JOBS=1:
# one), the second lane taking the long layers that share nothing with the
# rest (each layer keeps its scratch files in a folder of its own).
layers=""
if [ $mode = only ]; then
  layers=$only
else
  for t in build/asan/tests/test_*; do
    [ -x "$t" ] && layers="$layers unit/$(basename "$t")"
  done
fi
if [ $mode = check ]; then
  layers="$layers golden lint cli_consistency docs_figures"
elif [ $mode = full ]; then
  for s in tests/*.sh; do
    case "$s" in tests/run.sh|tests/pip_install.sh) continue ;; esac
    layers="$layers $(basename "$s" .sh)"
  done
fi
LANE2=" valgrind estimate_matrix zoo python pytorch install pip_other_python "
[ $mode = check ] && LANE2=" golden "
lane1=""; lane2=""
for n in $layers; do
  case "$LANE2" in
    *" $n "*) [ "${TEST_JOBS:-2}" -gt 1 ] && { lane2="$lane2 $n"; continue; } ;;
  esac
  lane1="$lane1 $n"
done

t_start=$(date +%s)
if [ $mode = full ]; then
  exec_layer pip_install
  report_layer pip_install
fi
( for n in $lane2; do exec_layer "$n"; done ) &
lane2_pid=$!
for n in $lane1; do exec_layer "$n"; done
wait $lane2_pid
for n in $layers; do report_layer "$n"; done
echo "(full log: $LOG; $(( $(date +%s) - t_start )) s; of the passed and failed, $walked are backend-suite models walked, one case per model, and $((pass + fail - walked)) other tests; the skips allowed: $SKIPS)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
