#!/bin/sh
# calibrate_traces.sh - `joulecast calibrate TRACE` on every trace format
# (#19 item 3): the measured figures against the hand integrals of
# tests/data/traces/README.md, the power fit (idle power, k_c, k_m) on
# traces MADE BY THE TEST from known values (tests/data/traces/synth_power.py;
# the tolerance is 4 standard errors that the added noise implies for the
# design, computed by the generator, not by joulecast), the committed dcgmi
# sample against its hand least-squares fit, the named "not fitted" lines,
# and the estimate using the written layers.  One PASS/FAIL line each.
cd "$(dirname "$0")/.."
LAYER=calibrate_traces
. tests/trace_layer.inc

# check NAME JSONFILE PYEXPR...: each expression over j (the calibrate JSON;
# p = j["fitted"]["power"], g = the generator's JSON when given as $GEN) must hold
check() {
  name=$1; jf=$2; shift 2
  if python3 - "$jf" "${GEN:-}" "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
p = j["fitted"].get("power")
g = json.load(open(sys.argv[2])) if sys.argv[2] else None
def near(a, b, r=1e-3): return a is not None and b is not None and abs(a - b) <= r * abs(b)
for e in sys.argv[3:]:
    if not eval(e):
        print("failed: " + e, file=sys.stderr); sys.exit(1)
PY
  then ok "$name"; else ko "$name" "see $jf"; fi
}

cal() {  # name, calibrate args...: JSON to $out/name.json, text to $out/name.txt
  n=$1; shift
  if $JC calibrate "$@" --out "$out/$n.yaml" --json > "$out/$n.json" 2> "$out/$n.err" &&
     $JC calibrate "$@" --out "$out/$n.yaml" > "$out/$n.txt" 2>> "$out/$n.err"; then return 0; fi
  ko "$n" "exit $?: $(head -n 2 "$out/$n.err")"
  return 1
}

JOB="models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR"
SJOB="models/resnet50.onnx --train --samples 2000 --batch 32 --device a100-sxm4-40gb --region FR"

# ---- the power fit recovers the values a synthetic trace was made from ------------
# 8 x A100 (ResNet-50, 2 epochs), active for the model's wall time at a utilisation of
# 0.31; per sample u, um whole percents drawn independently; noise sigma = 4 W.
if $JC estimate $JOB --device a100 --count 8 --utilization 0.31 --json > "$out/truth.json" 2> "$out/truth.err"; then
  T=$(python3 -c "import json; print(json.load(open('$out/truth.json'))['results']['wall_hours']['central'] * 3600)")
  TDP=$(python3 -c "import json; print([a for a in json.load(open('$out/truth.json'))['assumptions'] if a['key'] == 'device.tdp_w'][0]['value']['central'])")
  KC=1.6 KM=0.9 IDLE=62 SIG=4
  for fm in smi dcgmi smi1; do
    km=$KM; [ $fm = smi1 ] && km=0
    python3 $D/synth_power.py $fm "$out/synth-$fm.txt" "$T" "$TDP" $KC $km $IDLE $SIG > "$out/gen-$fm.json"
  done
  for fm in smi dcgmi; do
    dev=""; [ $fm = dcgmi ] && dev="--device a100 --count 8"
    if cal fit_$fm "$out/synth-$fm.txt" $JOB $dev; then
      GEN="$out/gen-$fm.json" check power_fit_recovers_${fm}_kc_km_idle "$out/fit_$fm.json" 'p["fitted"]' \
        "abs(p['k_compute']['trace_scale']['value'] - $KC) < 4 * g['se_kc']" \
        "abs(p['k_memory']['trace_scale']['value'] - $KM) < 4 * g['se_km']" \
        "abs(p['idle_w']['after'] - $IDLE) < 4 * g['se_idle']" \
        'p["idle_samples"] == g["idle_samples"] and p["samples"] == g["samples"]' \
        "abs(p['residual_rms_w'] / $SIG - 1) < 4 / (2 * g['samples']) ** 0.5 + 0.01" \
        'near(p["k_compute"]["trace_scale"]["standard_error"], g["se_kc"], 0.2)' \
        'near(p["k_compute"]["trace_scale"]["mean_utilization"], g["u_mean"])' \
        'near(p["k_memory"]["trace_scale"]["mean_utilization"], g["um_mean"])' \
        'p["residual_rms_w_before"] > p["residual_rms_w"]' 'j["written_power"] is not None'
      # the model's scale: the exponent matched at the run's mean (FLOP/s over peak, bytes/s over bandwidth)
      GEN="$out/gen-$fm.json" check power_fit_model_scale_$fm "$out/fit_$fm.json" \
        'near(p["k_compute"]["run_utilization"], 6.3091121097004e16 / (8 * 312e12 * g["active_s"]), 2e-3)' \
        'near(p["k_compute"]["after"], p["k_compute"]["trace_scale"]["value"] * p["k_compute"]["trace_scale"]["mean_utilization"] / p["k_compute"]["run_utilization"], 1e-9)' \
        'near(p["k_memory"]["after"], p["k_memory"]["trace_scale"]["value"] * p["k_memory"]["trace_scale"]["mean_utilization"] / p["k_memory"]["run_utilization"], 1e-9)'
    fi
  done
  # the estimate uses the layers: device idle_w and both coefficients as written
  if $JC estimate $JOB --device a100 --count 8 --hwdb "$out/fit_smi.yaml" --hwdb "$out/fit_smi.power.yaml" --json \
       > "$out/after.json" 2> "$out/after.err"; then
    if python3 - "$out/fit_smi.json" "$out/after.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["fitted"]["power"]
a = {x["key"]: x for x in json.load(open(sys.argv[2]))["assumptions"]}
near = lambda x, y: abs(x / y - 1) < 1e-5
ok = (near(a["device.idle_w"]["value"]["central"], p["idle_w"]["after"])
      and near(a["power_k_compute_gpu"]["value"]["central"], p["k_compute"]["after"])
      and near(a["power_k_memory_gpu"]["value"]["central"], p["k_memory"]["after"])
      and "fit_smi.power.yaml" in a["power_k_compute_gpu"]["source"])
sys.exit(0 if ok else 1)
PY
    then ok estimate_uses_power_layer; else ko estimate_uses_power_layer "see $out/after.json"; fi
  else
    ko estimate_uses_power_layer "exit $?: $(head -n 2 "$out/after.err")"
  fi
  grep -q '^power      fitted to [0-9]* device samples (power against compute and memory utilisation), residual' \
    "$out/fit_smi.txt" && grep -q '^           device idle_w 45.6 -> 6[12]\.[0-9]* W' "$out/fit_smi.txt" \
    && grep -q '^           power_k_compute_gpu [0-9.]* -> ' "$out/fit_smi.txt" \
    && grep -q '^           energy per byte not fitted: ' "$out/fit_smi.txt" \
    && grep -q "^written    .*fit_smi.yaml and .*fit_smi.power.yaml" "$out/fit_smi.txt" \
    && ok power_fit_text_before_after || ko power_fit_text_before_after "see $out/fit_smi.txt"
  # utilization.gpu only (made with k_m = 0): k_c alone, k_m named as not separable
  if cal fit_smi1 "$out/synth-smi1.txt" $JOB; then
    GEN="$out/gen-smi1.json" check power_fit_one_column "$out/fit_smi1.json" 'p["fitted"]' \
      "abs(p['k_compute']['trace_scale']['value'] - $KC) < 4 * g['se_kc']" \
      "abs(p['idle_w']['after'] - $IDLE) < 4 * g['se_idle']" 'not p["k_memory"]["fitted"]' \
      '"no memory utilisation" in p["k_memory"]["not_fitted"]' \
      'near(p["k_compute"]["after"], (p["k_compute"]["trace_scale"]["value"] * p["k_compute"]["trace_scale"]["mean_utilization"] - p["k_memory"]["before"] * p["k_memory"]["run_utilization"]) / p["k_compute"]["run_utilization"], 1e-9)'
    grep -q "^           power_k_memory_gpu not fitted: the trace logs no memory utilisation" "$out/fit_smi1.txt" \
      && ok power_fit_one_column_text || ko power_fit_one_column_text "see $out/fit_smi1.txt"
  fi
else
  ko power_fit_recovers_smi_kc_km_idle "estimate failed: $(head -n 2 "$out/truth.err")"
fi

# ---- every committed format ---------------------------------------------------------
# dcgmi-dmon.txt: idle = (60 + 62 + 60 + 62) / 4 = 61 W; least squares of 250 W at 80 % (x2) and
# 260 W at 85 % against 61 + 339 (1 - exp(-k u)) (TDP 400 W): k = 1.02632 (hand: ternary search
# in tests/data/traces/README.md), residual sqrt((4 + 4.29892) / 7) = 1.0889 W
if cal dcgmi $D/dcgmi-dmon.txt $SJOB --count 2; then
  check dcgmi_measured_and_power_fit "$out/dcgmi.json" 'near(j["measured"]["device_kwh"], 1043 / 3.6e6)' \
    'near(j["measured"]["hours"], 3 / 3600)' 'p["fitted"] and p["idle_w"]["after"] == 61' \
    'near(p["k_compute"]["trace_scale"]["value"], 1.02632)' 'near(p["residual_rms_w"], 1.0889)' \
    '"no memory utilisation" in p["k_memory"]["not_fitted"]' 'j["fitted"]["pj_per_byte"]["fitted"] is False'
fi
# Carbontracker: epochs of 100 s (GPU 0 42000 J + GPU 1 44000 J), no utilisation per sample
if cal ct $D/carbontracker.log $SJOB; then
  check carbontracker_measured "$out/ct.json" 'near(j["measured"]["device_kwh"], 86000 / 3.6e6)' \
    'not p["fitted"]' '"logs no utilisation" in p["not_fitted"]' 'j["fitted"]["utilization"]["after"] > 0'
  grep -q "^power      activity not fitted: the carbontracker trace logs no utilisation per sample" "$out/ct.txt" \
    && grep -q "^           energy per byte not fitted: " "$out/ct.txt" \
    && ok carbontracker_not_fitted_lines || ko carbontracker_not_fitted_lines "see $out/ct.txt"
fi
# PowerJoular: GPU 10,50,50,10,10 W at 0,1,2,3,5 s: 130 J, the idle ends (10 W at 3 and 5 s:
# 20 J over 2 s) removed: 110 J over 3 s
if cal pj $D/powerjoular.csv $SJOB; then
  check powerjoular_measured "$out/pj.json" 'near(j["measured"]["device_kwh"], 110 / 3.6e6)' \
    'near(j["measured"]["hours"], 3 / 3600)' 'not p["fitted"]' '"powerjoular trace logs no utilisation" in p["not_fitted"]'
fi
# plain watts as the devices (--scope device): 15500 J over 30 s (no idle end told apart)
if cal watts $D/wall-meter.csv --scope device $SJOB; then
  check watts_measured "$out/watts.json" 'near(j["measured"]["device_kwh"], 15500 / 3.6e6)' \
    'near(j["measured"]["hours"], 30 / 3600)' 'not p["fitted"]' '"watts trace logs no utilisation" in p["not_fitted"]'
fi
# CodeCarbon's run totals: gpu_energy / pue (1.0) and the duration; no series, so no power fit
if cal cc tests/data/codecarbon/emissions-sample.csv $SJOB; then
  check codecarbon_measured "$out/cc.json" 'near(j["measured"]["device_kwh"], 8.236909446627563e-05)' \
    'near(j["measured"]["hours"], 355.46638011932373 / 3600)' 'p is None' 'j["fitted"]["utilization"]["after"] > 0'
fi
# Scaphandre measures the host only: refused, naming why
if $JC calibrate $D/scaphandre.json $SJOB --out "$out/sc.yaml" > "$out/sc.out" 2> "$out/sc.err"; then
  ko scaphandre_refused "exit 0"
elif grep -q "scaphandre.json measured no device (scope host): calibrate fits the devices" "$out/sc.err"; then
  ok scaphandre_refused
else
  ko scaphandre_refused "message: $(head -n 1 "$out/sc.err")"
fi
# the trace options are job keys of calibrate too: --interval 2 doubles dcgmi's spacing
if cal dcgmi2 $D/dcgmi-dmon.txt $SJOB --count 2 --interval 2; then
  check calibrate_interval_key "$out/dcgmi2.json" 'near(j["measured"]["hours"], 6 / 3600)' \
    'near(j["measured"]["device_kwh"], 2086 / 3.6e6)'
fi
