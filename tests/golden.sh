#!/bin/sh
# golden.sh - golden CLI tests.  Each folder tests/golden/<case>/ holds
#   cmd       one shell command line; $JC is the joulecast binary under test
#   expected  the exact expected stdout
#   status    (optional) the expected exit status, default 0
#   stderr    (optional) a substring the standard error must contain
# Commands run from the repository root under LC_ALL=C.  Refresh the
# expectations after an intended change with `make golden-update`
# (UPDATE=1 sh tests/golden.sh), then review the diff before committing.
# One case alone: `make golden CASE=name` (CASE=name sh tests/golden.sh;
# `make golden-update CASE=name` rewrites that one); a CASE that names no
# folder is a FAIL.
#
# Every case runs against the frozen hardware database
# tests/golden/hwdb-frozen/ (JOULECAST_HWDB_DIR; its snapshot is written
# once per run into a scratch folder), not the bundled hwdb/: a change to
# a fitted constant, a device or a region in hwdb/ changes no golden.
# Number regressions belong to `make accuracy` and the unit tests.  The
# frozen copy is refreshed from hwdb/ only on purpose (`make golden-freeze`,
# which rewrites the goldens), e.g. when the code needs a field it lacks.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-$PWD/build/joulecast}
export JC
unset JOULECAST_HWDB
export JOULECAST_HWDB_DIR="$PWD/tests/golden/hwdb-frozen"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export JOULECAST_HWDB_SNAPSHOT="$scratch/frozen.snap"
if ! "$JC" hwdb snapshot "$JOULECAST_HWDB_DIR" -o "$JOULECAST_HWDB_SNAPSHOT" > "$scratch/snap.log" 2>&1; then
  echo "FAIL golden/frozen-hwdb-snapshot"; sed 's/^/    /' "$scratch/snap.log"; exit 1
fi
cases="tests/golden/*/"
if [ -n "${CASE:-}" ]; then
  cases="tests/golden/$CASE/"
  [ -f "tests/golden/$CASE/cmd" ] || {
    echo "FAIL golden/$CASE (no such case: tests/golden/$CASE/cmd is missing)"; exit 1; }
fi
for dir in $cases; do
  [ -f "$dir/cmd" ] || continue
  name=$(basename "$dir")
  out=$(mktemp) err=$(mktemp)
  sh -c "$(cat "$dir/cmd")" > "$out" 2> "$err"
  rc=$?
  want_rc=0
  [ -f "$dir/status" ] && want_rc=$(cat "$dir/status")
  if [ "${UPDATE:-0}" = 1 ]; then
    cp "$out" "$dir/expected"
    [ "$rc" != 0 ] && echo "$rc" > "$dir/status"
    echo "PASS golden/$name (updated)"
    rm -f "$out" "$err"
    continue
  fi
  ok=1
  if ! cmp -s "$out" "$dir/expected"; then
    ok=0
    echo "  golden/$name: stdout differs:"
    diff "$dir/expected" "$out" | head -n 20 | sed 's/^/    /'
  fi
  if [ "$rc" != "$want_rc" ]; then
    ok=0
    echo "  golden/$name: exit status $rc, expected $want_rc"
    head -n 5 "$err" | sed 's/^/    /'
  fi
  if [ -f "$dir/stderr" ] && ! grep -qF -- "$(cat "$dir/stderr")" "$err"; then
    ok=0
    echo "  golden/$name: stderr lacks: $(cat "$dir/stderr")"
    head -n 5 "$err" | sed 's/^/    /'
  fi
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$err"; then
    ok=0
    echo "  golden/$name: sanitizer report:"
    head -n 20 "$err" | sed 's/^/    /'
  fi
  [ $ok = 1 ] && echo "PASS golden/$name" || echo "FAIL golden/$name"
  rm -f "$out" "$err"
done
exit 0
