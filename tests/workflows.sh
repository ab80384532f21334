#!/bin/sh
# workflows.sh - end-to-end CLI tests of the workflow commands (ASan build,
# $JC): calibrate on a CodeCarbon file MADE FOR THE TEST (joulecast's own
# estimate at a known utilisation of 0.31 written as a CodeCarbon row, with
# CodeCarbon's PUE multiplied in) must recover 0.31 within 1%, write an
# override that `hwdb check` accepts and that `estimate --hwdb` then uses;
# the budget gate and `diff` must exit 10 exactly when exceeded; the
# codecarbon row must carry CodeCarbon's own header.  One PASS/FAIL line
# per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
# a private folder: other checkouts' test runs may share build/
mkdir -p build
out=$(mktemp -d build/test-workflows.XXXXXX)
trap 'rm -rf "$out"' EXIT
JOB="models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --device a100 --count 8 --region FR"

ok() { echo "PASS workflows/$1"; }
ko() { echo "FAIL workflows/$1 ($2)"; }

# 1. the measurement, made by the estimator at u = 0.31
if $JC estimate $JOB --utilization 0.31 --json > "$out/truth.json" 2> "$out/truth.err"; then
  python3 - "$out/truth.json" tests/data/codecarbon/emissions-sample.csv "$out/emissions.csv" <<'EOF'
import csv, json, sys
e = json.load(open(sys.argv[1]))["results"]
header = next(csv.reader(open(sys.argv[2])))
pue = 1.2  # CodeCarbon multiplies every energy column by its pue
dev, host = e["energy_device_kwh"]["central"], e["energy_host_kwh"]["central"]
row = dict.fromkeys(header, "")
row.update(timestamp="2024-06-01T12:00:00", project_name="made-for-the-test", run_id="t-031",
           duration=repr(e["wall_hours"]["central"] * 3600), gpu_energy=repr(dev * pue),
           cpu_energy=repr(host * pue), ram_energy="0", energy_consumed=repr((dev + host) * pue),
           gpu_count="8", gpu_model="8 x NVIDIA A100-SXM4-80GB", pue=repr(pue), emissions="0",
           country_iso_code="FRA", country_name="France", tracking_mode="machine", on_cloud="N")
with open(sys.argv[3], "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(header)
    w.writerow([row[c] for c in header])
EOF
  ok make_codecarbon_file
else
  ko make_codecarbon_file "estimate failed: $(head -n 2 "$out/truth.err")"
fi

# 2. calibrate recovers 0.31 (device and count come from the file)
if $JC calibrate "$out/emissions.csv" models/resnet50.onnx --train --samples 1281167 --epochs 2 \
     --batch 256 --region FR --out "$out/calib.yaml" > "$out/calib.out" 2>&1; then
  u=$(sed -n 's/^ *training: {value: \([0-9.e+-]*\),.*/\1/p' "$out/calib.yaml")
  if python3 -c "import sys; sys.exit(0 if abs(float('$u') / 0.31 - 1) < 0.01 else 1)" 2>/dev/null; then
    ok recovers_utilization
  else
    ko recovers_utilization "fitted '$u', expected 0.31 within 1%"
  fi
  grep -q 'measured: "fitted by joulecast calibrate .*emissions.csv, line 2 .*run of 2024-06-01' "$out/calib.yaml" \
    && grep -q 'date: "2024-06-01"' "$out/calib.yaml" && ok override_says_measured_file_and_date \
    || ko override_says_measured_file_and_date "no measured:/date in $out/calib.yaml"
  grep -q 'wall time, h .* +0.0%$' "$out/calib.out" && ok error_after_is_zero \
    || ko error_after_is_zero "$(grep 'wall time' "$out/calib.out")"
else
  ko recovers_utilization "exit $?: $(tail -n 2 "$out/calib.out")"
fi

# 3. the override is valid and estimate --hwdb uses it
$JC hwdb check "$out/calib.yaml" > "$out/check.out" 2>&1 && ok override_passes_hwdb_check \
  || ko override_passes_hwdb_check "$(tail -n 2 "$out/check.out")"
if $JC estimate $JOB --hwdb "$out/calib.yaml" --json > "$out/after.json" 2> "$out/after.err"; then
  python3 - "$out/truth.json" "$out/after.json" <<'EOF' && ok estimate_uses_override || ko estimate_uses_override "wall time or utilisation differs"
import json, sys
t, a = (json.load(open(p)) for p in sys.argv[1:3])
u = [x for x in a["assumptions"] if x["key"] == "utilization"][0]
assert "calib.yaml" in u["source"] and abs(u["value"]["central"] - 0.31) < 0.0031, u
tw, aw = t["results"]["wall_hours"]["central"], a["results"]["wall_hours"]["central"]
assert abs(aw / tw - 1) < 1e-4, (tw, aw)
EOF
else
  ko estimate_uses_override "exit: $(head -n 2 "$out/after.err")"
fi

# 4. budget gate: exit 10 over budget, 0 within, 2 on a bad value
kwh=$(python3 -c "import json; print(json.load(open('$out/truth.json'))['results']['energy_facility_kwh']['central'])")
$JC estimate $JOB --utilization 0.31 --max-kwh "$(python3 -c "print($kwh * 0.9)")" > /dev/null 2> "$out/b1.err"
rc=$?
[ $rc -eq 10 ] && grep -q 'budget exceeded: facility energy .* exceeds --max-kwh .* (11.1%)' "$out/b1.err" \
  && ok budget_exceeded || ko budget_exceeded "exit $rc: $(cat "$out/b1.err")"
$JC estimate $JOB --utilization 0.31 --max-kwh "$(python3 -c "print($kwh * 1.1)")" > /dev/null 2>&1
rc=$?; [ $rc -eq 0 ] && ok budget_within || ko budget_within "exit $rc"
$JC estimate $JOB --utilization 0.31 --max-kwh "$(python3 -c "print($kwh * 1.1)")" --on high > /dev/null 2>&1
rc=$?; [ $rc -eq 10 ] && ok budget_on_high || ko budget_on_high "exit $rc"
$JC estimate $JOB --max-kgco2e lots > /dev/null 2>&1
rc=$?; [ $rc -eq 2 ] && ok budget_bad_value || ko budget_bad_value "exit $rc"

# 5. diff: a 2x longer run breaks a 20% gate; the same run passes
$JC estimate models/resnet50.onnx --train --samples 1281167 --epochs 4 --batch 256 --device a100 --count 8 \
  --region FR --utilization 0.31 --json > "$out/double.json"
$JC diff "$out/truth.json" "$out/double.json" --max-increase 20% > "$out/d1.out" 2> "$out/d1.err"
rc=$?
[ $rc -eq 10 ] && grep -q 'EXCEEDED' "$out/d1.out" && ok diff_gate_exceeded || ko diff_gate_exceeded "exit $rc"
$JC diff "$out/truth.json" "$out/truth.json" --max-increase 0% > /dev/null 2>&1
rc=$?; [ $rc -eq 0 ] && ok diff_gate_same || ko diff_gate_same "exit $rc"
$JC diff "$out/truth.json" "$out/double.json" --max-increase 20 > /dev/null 2>&1
rc=$?; [ $rc -eq 2 ] && ok diff_needs_percent || ko diff_needs_percent "exit $rc"
$JC diff "$out/truth.json" "$out/calib.yaml" > /dev/null 2>&1
rc=$?; [ $rc -eq 2 ] && ok diff_not_json || ko diff_not_json "exit $rc"
$JC diff "$out/truth.json" "$out/double.json" --json > "$out/d.json" 2>/dev/null
python3 -c "import json; d = json.load(open('$out/d.json')); assert d['schema'] == 'joulecast-diff/1'" 2>/dev/null \
  && ok diff_json || ko diff_json "not valid joulecast-diff/1 JSON"

# 6. --format codecarbon: CodeCarbon's own header, values from the estimate
SOURCE_DATE_EPOCH=1717243200 $JC estimate $JOB --utilization 0.31 --format codecarbon > "$out/cc.csv" 2>&1
python3 - "$out/cc.csv" tests/data/codecarbon/emissions-sample.csv "$out/truth.json" <<'EOF' && ok codecarbon_row || ko codecarbon_row "header or values differ"
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1])))
want = next(csv.reader(open(sys.argv[2])))
assert rows[0] == want and len(rows) == 2 and len(rows[1]) == len(want), rows
r = dict(zip(rows[0], rows[1]))
t = json.load(open(sys.argv[3]))["results"]
assert abs(float(r["energy_consumed"]) / t["energy_facility_kwh"]["central"] - 1) < 1e-9
assert abs(float(r["emissions"]) / t["co2_location_kg"]["central"] - 1) < 1e-9
assert r["timestamp"] == "2024-06-01T12:00:00" and r["country_iso_code"] == "FRA", r
EOF

# 7. statement of a modelled run: the utilisation and device power it names
# are the estimate's own (implied utilisation, average power per device),
# never "n/a" when the estimate knows them
$JC estimate $JOB --json > "$out/model.json" 2>&1
$JC statement $JOB > "$out/stmt.md" 2>&1
python3 - "$out/model.json" "$out/stmt.md" <<'EOF' && ok statement_modelled_figures || ko statement_modelled_figures "statement does not name the estimate's utilisation or power"
import json, sys
sys.path.insert(0, "tests")
from fmt_rule import fmt_num
r = json.load(open(sys.argv[1]))["results"]
t = open(sys.argv[2], encoding="utf-8").read()
u, w = r["implied_utilization"]["central"], r["avg_power_w_per_device"]["central"]
assert "utilisation of n/a" not in t and "not recorded" not in t, t
assert "implied utilisation %s of dense peak" % fmt_num(u) in t, (u, t)
assert "on average %s W per device from the utilisation-based power model" % fmt_num(w) in t, (w, t)
EOF
exit 0
