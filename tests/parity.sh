#!/bin/sh
# parity.sh - one request, every front end, the same figures: estimate
# (file and standard input), the Python binding, compare and sweep, with
# and without --batch and with --op-rules (tests/parity.py; #14 item 8).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
PY=$(command -v python3 || echo /usr/bin/python3)
if ! "$PY" -c 'import ctypes, json' 2>/dev/null; then PY=/usr/bin/python3; fi
export JC="${JC:-$PWD/build/joulecast}"
export JOULECAST_LIB="${JOULECAST_LIB:-$PWD/build/libjoulecast.so}"
unset JOULECAST_HWDB JOULECAST_HWDB_DIR
[ -f "$JOULECAST_LIB" ] || { echo "FAIL parity: $JOULECAST_LIB is not built"; exit 0; }
"$PY" tests/parity.py || echo "FAIL parity (the script exited $?)"
exit 0
