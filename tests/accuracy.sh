#!/bin/sh
# accuracy.sh (test layer) - the accuracy harness of `make accuracy`:
# its arithmetic on two hand-made rows (tools/accuracy_common.py
# selftest) and of the cross-validation folds (tools/crossval.py
# selftest), of the fitters' optimiser (tools/fit_common.py selftest:
# Levenberg-Marquardt on problems with known answers), and that the
# MLPerf set script runs end to end through the CLI on one predicted row
# and one it must list as not predicted (a hand-made unknown device), and
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
# two rows: one the harness predicts (R750xa ResNet-50 Server) and a
# hand-made copy of another whose device is not in the hwdb (its device
# column emptied, its id marked), which the table must list as not predicted
python3 - "$tmp/rows.csv" <<'PY'
import csv, sys
src = open("tests/accuracy/mlperf-v1.1.csv").read().splitlines()
head = [l for l in src if l.startswith("#")]
rows = list(csv.reader([l for l in src if not l.startswith("#")]))
hdr, data = rows[0], rows[1:]
dev = hdr.index("device")
unknown = list(data[20])
unknown[0] += "-handmade-unknown-device"
unknown[dev] = ""
with open(sys.argv[1], "w", newline="") as f:
    f.write("\n".join(head) + "\n")
    csv.writer(f, lineterminator="\n").writerows([hdr, data[3], unknown])
PY
if JC_RELEASE="${JC:-build/joulecast}" python3 tools/accuracy_mlperf.py --rows "$tmp/rows.csv" --out "$tmp" > "$tmp/log" 2>&1 \
   && [ -f "$tmp/mlperf.md" ] && grep -q 'resnet50-server' "$tmp/mlperf.md" && grep -q 'handmade-unknown-device.*not predicted' "$tmp/mlperf.md"; then
  echo "PASS accuracy harness: MLPerf set runs on 1 row (+1 not predicted: a device not in the hwdb) and writes its table"
else
  echo "FAIL accuracy harness: MLPerf set on 1 row + 1 not predicted"; sed 's/^/    /' "$tmp/log"
fi
