#!/bin/sh
# python.sh - runs the Python package's unit tests (python/tests/) with the
# machine's python3 against build/libjoulecast.so, one PASS/FAIL line per
# test.  The package needs only ctypes and json from the standard library.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
PY=$(command -v python3 || echo /usr/bin/python3)
if ! "$PY" -c 'import ctypes' 2>/dev/null; then PY=/usr/bin/python3; fi
export JOULECAST_LIB="$PWD/build/libjoulecast.so"
export JC_RELEASE="${JC_RELEASE:-$PWD/build/joulecast}"
unset JOULECAST_HWDB JOULECAST_HWDB_DIR
out=$(mktemp)
"$PY" -m unittest -v python/tests/test_joulecast.py > "$out" 2>&1
rc=$?
# "test_x (module.Class.test_x) ... ok" -> PASS/FAIL lines
sed -n 's/^\(test_[a-z0-9_]*\) (\([^)]*\)) \.\.\. \(.*\)$/\1 \2 \3/p' "$out" | while read -r name where result; do
  case "$result" in
    ok) echo "PASS python/$name" ;;
    *) echo "FAIL python/$name ($result)" ;;
  esac
done
if [ $rc -ne 0 ]; then
  echo "FAIL python/unittest (exit $rc)"
  tail -n 40 "$out"
fi
rm -f "$out"
exit 0
