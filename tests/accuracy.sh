#!/bin/sh
# accuracy.sh (test layer) - the accuracy harness of `make accuracy`:
# its arithmetic on two hand-made rows (tools/accuracy_common.py
# selftest) and of the cross-validation folds (tools/crossval.py
# selftest), of the fitters' optimiser (tools/fit_common.py selftest:
# Levenberg-Marquardt on problems with known answers), and that the
# MLPerf set script runs end to end on two rows through the CLI and
# writes its table.  It does not check the errors:
# those are measured by `make accuracy` and published in docs/accuracy.md.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
python3 tools/accuracy_common.py selftest
python3 tools/crossval.py selftest
python3 tools/fit_common.py selftest
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{ grep '^#' tests/accuracy/mlperf-v1.1.csv; grep -v '^#' tests/accuracy/mlperf-v1.1.csv | sed -n '1p;5p;22p'; } > "$tmp/rows.csv"
if JC_RELEASE="${JC:-build/joulecast}" python3 tools/accuracy_mlperf.py --rows "$tmp/rows.csv" --out "$tmp" > "$tmp/log" 2>&1 \
   && [ -f "$tmp/mlperf.md" ] && grep -q 'resnet50-server' "$tmp/mlperf.md" && grep -q 'not predicted' "$tmp/mlperf.md"; then
  echo "PASS accuracy harness: MLPerf set runs on 2 rows (+1 not predicted) and writes its table"
else
  echo "FAIL accuracy harness: MLPerf set on 2 rows"; sed 's/^/    /' "$tmp/log"
fi
