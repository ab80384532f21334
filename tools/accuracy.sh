#!/bin/sh
# accuracy.sh - `make accuracy`: runs every tools/accuracy_*.py set script
# (each predicts its published rows with the joulecast CLI, prints the
# per-row table and per-set median |error|, range coverage and width, and
# writes docs/accuracy/<set>.md), then writes docs/accuracy.md (date,
# commit, summary table, links) from the sets' build/accuracy/*.json.
# A benchmark-like target, not part of `make test` (tests/accuracy.sh
# checks only that the harness runs and its arithmetic).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
PY=${PYTHON:-python3}
rm -rf build/accuracy
mkdir -p build/accuracy docs/accuracy
rc=0
for s in tools/accuracy_*.py; do
  case "$s" in tools/accuracy_common.py) continue ;; esac
  echo "--- $s"
  "$PY" "$s" || { echo "accuracy: $s failed" >&2; rc=1; }
done
"$PY" tools/accuracy_common.py index || rc=1
exit $rc
