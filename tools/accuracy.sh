#!/bin/sh
# accuracy.sh - `make accuracy`: runs every tools/accuracy_*.py set script
# (each predicts its published rows with the joulecast CLI, prints the
# per-row table and per-set median |error|, range coverage and width, and
# writes docs/accuracy/<set>.md), then writes docs/accuracy.md (date,
# commit, summary table, links) from the sets' build/accuracy/*.json.
# A benchmark-like target, not part of `make test` (tests/accuracy.sh
# checks only that the harness runs and its arithmetic).
#   ONLY="training_mlperf serving"   those sets alone (tools/accuracy_NAME.py);
#                                    docs/accuracy.md is rewritten only when
#                                    build/accuracy holds the other sets'
#                                    figures from an earlier full run
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
PY=${PYTHON:-python3}
ONLY=$(echo "${ONLY:-}" | tr ',' ' ')
if [ -z "$ONLY" ]; then
  rm -rf build/accuracy
  scripts=$(ls tools/accuracy_*.py | grep -v '^tools/accuracy_common\.py$')
else
  scripts=
  for s in $ONLY; do
    [ -f "tools/accuracy_$s.py" ] && [ "$s" != common ] || {
      echo "accuracy: ONLY=$s: no tools/accuracy_$s.py (sets: $(ls tools/accuracy_*.py | sed 's|tools/accuracy_||;s|\.py$||' | grep -v '^common$' | tr '\n' ' '))" >&2
      exit 2
    }
    scripts="$scripts tools/accuracy_$s.py"
  done
  full=$(ls build/accuracy/*.json 2>/dev/null | wc -l)
fi
mkdir -p build/accuracy docs/accuracy
rc=0
for s in $scripts; do
  echo "--- $s"
  "$PY" "$s" || { echo "accuracy: $s failed" >&2; rc=1; }
done
if [ -n "$ONLY" ] && [ "$full" -eq 0 ]; then
  echo "accuracy: docs/accuracy.md not rewritten: build/accuracy has no other set's figures (run make accuracy once for every set)"
  exit $rc
fi
"$PY" tools/accuracy_common.py index || rc=1
exit $rc
