#!/bin/sh
# python.sh - runs the Python package's tests (python/tests/test_*.py)
# with the package pip-installed into a venv (tests/python_env.inc: make
# test's $JC_PYVENV), never from the source tree: the tests run from a
# temporary working directory and check that joulecast comes from the
# venv.  One PASS/FAIL line per test.  JC_RELEASE names the CLI they
# compare with.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
SRC=$PWD
export JC_RELEASE="${JC_RELEASE:-$PWD/build/joulecast}"
export JC_SRC="$SRC"
unset JOULECAST_HWDB JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT JOULECAST_LIB PYTHONPATH
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/python_env.inc
if ! pyvenv "$T" > "$T/why"; then
  echo "FAIL python/pip-install ($(tr '\n' ' ' < "$T/why"))"
  exit 0
fi
(cd "$T" && "$PYV" "$SRC/python/tests/run_tests.py") > "$T/lines" 2> "$T/err"
rc=$?
cat "$T/lines"
if [ $rc -ne 0 ]; then
  grep -q '^FAIL ' "$T/lines" || echo "FAIL python/unittest (exit $rc without a failing test)"
  grep -v 'Warning\|^  *warnings.warn\|^  *if \|^  *return \|^  *assert' "$T/err" | tail -n 40 | sed 's/^/    /'
fi
exit 0
