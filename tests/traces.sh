#!/bin/sh
# traces.sh - power-trace readers and integration (`joulecast trace`):
# every format's sample in tests/data/traces (made for the tests, integrals
# computed by hand in tests/data/traces/README.md) must integrate within
# 0.1%; malformed traces (truncated lines, text in numeric columns,
# non-monotonic time beyond the reorder window, unknown format, a plain CSV
# without --scope) give located messages; calibrate TRACE and estimate
# --measured are checked in tests/workflows.sh.  One PASS/FAIL line each.
cd "$(dirname "$0")/.."
LAYER=traces
. tests/trace_layer.inc

# check NAME JSONFILE PYEXPR...: each python expression over j (the JSON)
# must hold; near(a, b) is |a/b - 1| < 0.1%
check() {
  name=$1; f=$2; shift 2
  if python3 - "$f" "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ch = {c["name"]: c for c in j.get("channels", [])}
def near(a, b): return a is not None and abs(a / b - 1) < 1e-3
for e in sys.argv[2:]:
    if not eval(e):
        print("failed: " + e, file=sys.stderr); sys.exit(1)
PY
  then ok "$name"; else ko "$name" "see $f"; fi
}

run() {  # name, args...: the JSON into $out/name.json
  n=$1; shift
  if ! $JC trace "$@" --json > "$out/$n.json" 2> "$out/$n.err"; then
    ko "$n" "exit $?: $(head -n 2 "$out/$n.err")"
    return 1
  fi
}

run smi2 $D/nvidia-smi-2gpu.csv && check nvidia_smi_units_two_gpus "$out/smi2.json" \
  'j["format"] == "nvidia-smi"' \
  'near(ch["GPU 0 NVIDIA A100-SXM4-40GB"]["energy_j"], 1070)' \
  'near(ch["GPU 1 NVIDIA A100-SXM4-40GB"]["energy_j"], 1106)' \
  'near(j["scopes"]["device"]["energy_j"], 2176)' \
  'near(j["scopes"]["device"]["marginal_j"], 770 + 794)' \
  'near(ch["GPU 0 NVIDIA A100-SXM4-40GB"]["idle"]["power_w"], 50)' \
  'near(ch["GPU 0 NVIDIA A100-SXM4-40GB"]["idle"]["leading_s"], 1)' \
  'near(ch["GPU 0 NVIDIA A100-SXM4-40GB"]["avg_util"], 2.8 / 6)' \
  'near(j["device_peak_w"], 650)' 'near(j["duration_s"], 6)' \
  'j["start"] == "2024-06-01T12:00:00Z"' 'j["devices"] == 2'

run nounits $D/nvidia-smi-nounits.csv && check nvidia_smi_nounits_unsorted_gap "$out/nounits.json" \
  'near(ch["GPU 0"]["energy_j"], 825)' 'near(ch["GPU 0"]["covered_s"], 5)' \
  'ch["GPU 0"]["gaps"] == 1' 'j["gaps"][0]["line"] == 8' 'ch["GPU 0"]["repeated"] == 1' \
  'any("out of order" in n for n in j["notes"])' 'ch["GPU 0"]["marginal_j"] is None'

run dcgmi $D/dcgmi-dmon.txt && check dcgmi_dmon "$out/dcgmi.json" \
  'j["format"] == "dcgmi"' 'near(ch["GPU 0"]["energy_j"], 560)' 'near(ch["GPU 1"]["energy_j"], 483)' \
  'j["not_read"][0]["line"] == 6' '"N/A" in j["not_read"][0]["message"]'

# dcgmi lines with times (a TIMESTAMP field in us; a `ts "%.s"` prefix): read, not --interval
# spacing (samples at 0, 0.5, 2, 2.5 s: 75 + 300 + 75 = 450 J; 1 s spacing would give 500 J)
run dcts $D/dcgmi-timestamp.txt --interval 1 && check dcgmi_timestamp_field "$out/dcts.json" \
  'near(ch["GPU 0"]["energy_j"], 450)' 'near(j["duration_s"], 2.5)' 'j["start"] == "2024-06-01T12:00:00Z"' \
  'any("--interval 1 is not used" in n for n in j["notes"])'
run dcpre $D/dcgmi-ts-prefix.txt && check dcgmi_time_prefix "$out/dcpre.json" \
  'near(ch["GPU 0"]["energy_j"], 450)' 'near(ch["GPU 1"]["energy_j"], 125)' 'near(j["duration_s"], 2.5)'

run pj $D/powerjoular.csv && check powerjoular "$out/pj.json" \
  'near(ch["CPU (RAPL)"]["energy_j"], 140)' 'ch["CPU (RAPL)"]["scope"] == "host"' \
  'near(ch["GPU (all)"]["energy_j"], 130)' 'j["not_read"][0]["line"] == 6' \
  '"xx" in j["not_read"][0]["message"]'

run scaph $D/scaphandre.json && check scaphandre_json "$out/scaph.json" \
  'j["format"] == "scaphandre"' 'near(j["scopes"]["host"]["energy_j"], 70)' 'j["scopes"]["device"] is None'

run ct $D/carbontracker.log && check carbontracker_log "$out/ct.json" \
  'near(ch["GPU 0"]["energy_j"], 42000)' 'near(ch["GPU 1"]["energy_j"], 44000)' \
  'near(j["scopes"]["host"]["energy_j"], 6500)' 'ch["GPU 0"]["gaps"] == 1' 'near(ch["GPU 0"]["gap_s"], 10)'

run wall $D/wall-meter.csv --scope wall && check watts_csv_units_truncated "$out/wall.json" \
  'near(j["scopes"]["wall"]["energy_j"], 15500)' \
  '[b["line"] for b in j["not_read"]] == [5, 7]' '"truncated" in j["not_read"][1]["message"]'

run cc tests/data/codecarbon/emissions-sample.csv && check codecarbon_totals "$out/cc.json" \
  'j["format"] == "codecarbon"' 'near(j["scopes"]["device"]["energy_j"], 8.236909446627563e-05 * 3.6e6)' \
  'near(j["scopes"]["host"]["energy_j"], 0.0003224201231711 * 3.6e6)' 'near(j["duration_s"], 355.46638011932373)'

# --trace-format names the format (here the same file)
run named $D/dcgmi-dmon.txt --trace-format dcgmi --interval 2 && check format_named_interval "$out/named.json" \
  'near(ch["GPU 0"]["energy_j"], 1120)'

# ---- malformed ----------------------------------------------------------------
expect_fail() {  # name, expected-substring, args...
  n=$1; want=$2; shift 2
  if $JC trace "$@" > "$out/$n.out" 2> "$out/$n.err"; then
    ko "$n" "exit 0; expected a failure naming '$want'"
  elif grep -q -- "$want" "$out/$n.err"; then
    ok "$n"
  else
    ko "$n" "message: $(head -n 2 "$out/$n.err"), expected '$want'"
  fi
}
expect_fail watts_needs_scope "needs --scope device|host|wall" $D/wall-meter.csv
printf 'hello\nworld\n' > "$out/junk.txt"
expect_fail unknown_format "junk.txt:1: not a trace format" "$out/junk.txt"
expect_fail bad_format_name "--trace-format must be one of" $D/wall-meter.csv --trace-format foo
# more unreadable rows than readable ones: an error naming the first
{ echo "timestamp, index, power.draw [W]"; echo "2024/06/01 12:00:00.000, 0, 100 W"
  echo "2024/06/01 12:00:01.000, 0, abc"; echo "2024/06/01 12:00:02.000, 0, N/A"; } > "$out/mostly-bad.csv"
expect_fail mostly_bad_rows "mostly-bad.csv:3: 2 of 3 rows cannot be read" "$out/mostly-bad.csv"
# time going back further than the reorder window: the row is named, not used
python3 - "$out/back.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,watts\n")
    for i in range(100):
        f.write("%d,100\n" % (1000 + i))
    f.write("1010,900\n")      # line 102: 90 s back
    f.write("1100,100\n")
PY
if $JC trace "$out/back.csv" --scope device --json > "$out/back.json" 2> "$out/back.err"; then
  check non_monotonic_time_located "$out/back.json" \
    'j["not_read"][0]["line"] == 102' '"before the sample of line" in j["not_read"][0]["message"]' \
    'near(j["scopes"]["device"]["energy_j"], 100 * 100)'
else
  ko non_monotonic_time_located "exit $?: $(head -n 1 "$out/back.err")"
fi
# a truncated nvidia-smi line and text in a numeric column are named
{ echo "timestamp, index, power.draw [W], utilization.gpu [%]"
  echo "2024/06/01 12:00:00.000, 0, 100 W, 10 %"; echo "2024/06/01 12:00:01.000, 0, 1x0 W, 10 %"
  echo "2024/06/01 12:00:02.000, 0, 100 W, 10 %"; printf "2024/06/01 12:00:03.000, 0, 10"; } > "$out/trunc.csv"
if $JC trace "$out/trunc.csv" --json > "$out/trunc.json" 2> "$out/trunc.err"; then
  check truncated_and_text_located "$out/trunc.json" \
    '[b["line"] for b in j["not_read"]] == [3, 5]' '"1x0" in j["not_read"][0]["message"]' \
    '"truncated" in j["not_read"][1]["message"]' 'near(j["scopes"]["device"]["energy_j"], 200)'
else
  ko truncated_and_text_located "exit $?: $(head -n 1 "$out/trunc.err")"
fi
# the text report names every row not read with file:line
$JC trace "$out/trunc.csv" > "$out/trunc.txt" 2>&1
grep -q "not read   $out/trunc.csv:3: power.draw '1x0 W'" "$out/trunc.txt" && ok text_names_rows_not_read \
  || ko text_names_rows_not_read "no 'not read FILE:3' line in $out/trunc.txt"

# ---- calibrate TRACE -------------------------------------------------------------
# An nvidia-smi trace MADE BY THE TEST from joulecast's own estimate at a
# utilisation of 0.31 (8 x A100, ResNet-50, 2 epochs): constant power over
# the predicted wall time, 60 s idle (0 %) before and after; calibrate must
# find 0.31 again within 1% and name the trace, its format and window.
JOB="models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --device a100 --count 8 --region FR"
if $JC estimate $JOB --utilization 0.31 --json > "$out/truth.json" 2> "$out/truth.err"; then
  python3 - "$out/truth.json" "$out/run-smi.csv" <<'PY'
import json, sys, time
e = json.load(open(sys.argv[1]))["results"]
T = e["wall_hours"]["central"] * 3600
P = e["energy_device_kwh"]["central"] * 3.6e6 / (8 * T)
t0 = 1717243200.0  # 2024-06-01T12:00:00Z
def stamp(t): return time.strftime("%Y/%m/%d %H:%M:%S", time.gmtime(int(t))) + ".%03d" % round((t % 1) * 1000)
rows = []
def put(t, w, u):
    for g in range(8): rows.append("%s, %d, NVIDIA A100-SXM4-80GB, %.6f W, %d %%" % (stamp(t), g, w, u))
for k in range(7): put(t0 + 10 * k, 60.0, 0)          # idle 0..60 s
n = int(T // 10)
ts = [t0 + 60 + 10 * k for k in range(n + 1)]
if ts[-1] < t0 + 60 + T: ts.append(t0 + 60 + T)
for t in ts: put(t, P, 90)                              # active, 60 .. 60 + T
end = t0 + 60 + T
for k in range(7): put(end + 10 * k, 60.0, 0)          # idle after
with open(sys.argv[2], "w") as f:
    f.write("timestamp, index, name, power.draw [W], utilization.gpu [%]\n")
    f.write("\n".join(rows) + "\n")
PY
  if $JC calibrate "$out/run-smi.csv" models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 \
       --region FR --out "$out/calib.yaml" > "$out/calib.out" 2> "$out/calib.err"; then
    u=$(sed -n 's/^ *training: {value: \([0-9.e+-]*\),.*/\1/p' "$out/calib.yaml")
    python3 -c "import sys; sys.exit(0 if abs(float('$u') / 0.31 - 1) < 0.01 else 1)" 2>/dev/null \
      && ok calibrate_trace_recovers_utilization || ko calibrate_trace_recovers_utilization "fitted '$u'"
    grep -q 'measured: "fitted by joulecast calibrate .*run-smi.csv (nvidia-smi trace, 2024-06-01T12:00:00Z to .*active window' \
      "$out/calib.yaml" && grep -q 'date: "2024-06-01"' "$out/calib.yaml" \
      && ok calibrate_trace_names_file_format_window || ko calibrate_trace_names_file_format_window "see $out/calib.yaml"
  else
    ko calibrate_trace_recovers_utilization "exit $?: $(head -n 2 "$out/calib.err")"
  fi
else
  ko calibrate_trace_recovers_utilization "estimate failed: $(head -n 2 "$out/truth.err")"
fi

# ---- estimate --measured ----------------------------------------------------------
# the trace's active window (idle ends of 1 s removed from both GPUs of
# nvidia-smi-2gpu.csv: 2176 - 50 - 50 - 52 - 52 = 1972 J over 4 s) replaces
# the device energy and runtime; the host term is modelled over those 4 s
MJOB="models/resnet50.onnx --train --samples 2000 --batch 32 --device a100-sxm4-40gb --count 2 --region FR"
if $JC estimate $MJOB --measured $D/nvidia-smi-2gpu.csv --json > "$out/meas.json" 2> "$out/meas.err"; then
  if python3 - "$out/meas.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); r = j["results"]; m = j["measured"]
near = lambda a, b: abs(a / b - 1) < 1e-3
host = [a for a in j["assumptions"] if a["key"] == "host.power_w"][0]["value"]["central"]
ok = (near(r["energy_device_kwh"]["central"], 1972 / 3.6e6) and near(r["wall_hours"]["central"], 4 / 3600)
      and near(r["energy_host_kwh"]["central"], host * 4 / 3.6e6) and m["scope"] == "device"
      and r["energy_device_kwh"]["low"] == r["energy_device_kwh"]["high"]
      and m["predicted_device_kwh"] > 0 and r["energy_facility_kwh"]["central"] > r["energy_it_kwh"]["central"])
sys.exit(0 if ok else 1)
PY
  then ok estimate_measured_replaces_device_energy; else ko estimate_measured_replaces_device_energy "see $out/meas.json"; fi
else
  ko estimate_measured_replaces_device_energy "exit $?: $(head -n 2 "$out/meas.err")"
fi
$JC estimate $MJOB --measured $D/nvidia-smi-2gpu.csv > "$out/meas.txt" 2>&1
grep -q "^prediction the model alone: .*error of the prediction: [-+][0-9.]*% energy" "$out/meas.txt" \
  && ok estimate_measured_prints_prediction_error || ko estimate_measured_prints_prediction_error "see $out/meas.txt"
$JC statement $MJOB --measured $D/nvidia-smi-2gpu.csv --format hf > "$out/meas.hf" 2>&1
grep -q 'source: ".*device energy measured (trace), host modelled' "$out/meas.hf" \
  && ok statement_hf_says_measured || ko statement_hf_says_measured "see $out/meas.hf"
# a host-scope trace replaces the host term and keeps the device model
if $JC estimate $MJOB --measured $D/scaphandre.json --json > "$out/meash.json" 2> "$out/meash.err"; then
  check estimate_measured_host_scope "$out/meash.json" 'j["measured"]["scope"] == "host"' \
    'near(j["results"]["energy_host_kwh"]["central"], 70 / 3.6e6)' 'j["results"]["energy_device_kwh"]["central"] > 0'
else
  ko estimate_measured_host_scope "exit $?: $(head -n 2 "$out/meash.err")"
fi
expect_fail_est() {  # name, substring, estimate args...
  n=$1; want=$2; shift 2
  if $JC estimate "$@" > "$out/$n.out" 2> "$out/$n.err"; then ko "$n" "exit 0"
  elif grep -q -- "$want" "$out/$n.err"; then ok "$n"
  else ko "$n" "message: $(head -n 1 "$out/$n.err")"; fi
}
expect_fail_est measured_and_hours "leave out --hours" $MJOB --measured $D/nvidia-smi-2gpu.csv --hours 2
expect_fail_est scope_without_measured "give --measured TRACE" $MJOB --scope wall
expect_fail_est gap_without_measured "give --measured TRACE" $MJOB --gap 3
expect_fail_est idle_w_not_positive "idle-w expects a number > 0" $MJOB --measured $D/nvidia-smi-2gpu.csv --idle-w -5
# --interval is a job key of estimate --measured too (dcgmi at 2 s: GPU 0 1120 J, GPU 1 966 J)
if $JC estimate $MJOB --measured $D/dcgmi-dmon.txt --interval 2 --json > "$out/mint.json" 2> "$out/mint.err"; then
  check estimate_measured_interval_key "$out/mint.json" 'near(j["results"]["energy_device_kwh"]["central"], 2086 / 3.6e6)' \
    'near(j["results"]["wall_hours"]["central"], 6 / 3600)' 'j["measured"]["predicted_device_kwh"] is not None'
else
  ko estimate_measured_interval_key "exit $?: $(head -n 2 "$out/mint.err")"
fi
expect_fail_est gpu_usage_range "must be in \[0, 1\]" --hours 1 --gpu-usage 90 --device a100
# calibrate takes --scope / --trace-format like estimate (job keys)
if $JC calibrate $D/wall-meter.csv --scope device models/resnet50.onnx --train --samples 200 --batch 32 \
     --device a100 --region FR --out "$out/cw.yaml" > "$out/cw.out" 2> "$out/cw.err"; then
  grep -q 'wall-meter.csv (watts trace, 2024-06-01T12:00:00Z to 2024-06-01T12:00:30Z' "$out/cw.yaml" \
    && grep -q "wall-meter.csv:5: power 'abc'" "$out/cw.err" && ok calibrate_watts_scope_option \
    || ko calibrate_watts_scope_option "see $out/cw.yaml, $out/cw.err"
else
  ko calibrate_watts_scope_option "exit $?: $(head -n 1 "$out/cw.err")"
fi
# CodeCarbon's run totals as the measurement of estimate --measured
if $JC estimate --flops 1e15 --device a100 --region FR --measured tests/data/codecarbon/emissions-sample.csv \
     --json > "$out/mcc.json" 2> "$out/mcc.err"; then
  check estimate_measured_codecarbon "$out/mcc.json" 'j["measured"]["scope"] == "device+host"' \
    'near(j["results"]["energy_device_kwh"]["central"], 8.236909446627563e-05)' \
    'near(j["results"]["energy_host_kwh"]["central"], 0.0003224201231711)' \
    'near(j["results"]["wall_hours"]["central"], 355.46638011932373 / 3600)'
else
  ko estimate_measured_codecarbon "exit $?: $(head -n 1 "$out/mcc.err")"
fi
