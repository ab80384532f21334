#!/bin/sh
# sensitivity.sh - issue 45's sensitivity table against direct runs (ASan
# build, $JC): on the README's ResNet-50, 90 epochs on 8 x A100 (US-CA)
# job, `estimate --sensitivity --json` ranks the ranged assumptions; for
# EVERY row, `estimate --pin KEY=low` and `--pin KEY=high` run on their own
# must print the row's central emissions, facility energy and wall time
# (to 1e-9 relative), and the rank must follow the emissions swing.  The
# top rows are checked against the options a user sets them with where
# one exists (--pue for the PUE, --ci for the grid intensity).  --pin's
# refusals (unknown key, an assumption without a range, a value outside
# the range, a malformed entry) and --sensitivity in a serving estimate
# (no effect there: refused) get their documented exit codes.  The Monte
# Carlo percentiles (--draws, --seed) are the same for the same seed and
# lie in order inside the corner range.  With a known runtime (--hours)
# the derived device.busy_fraction is left out (a warning says so), the
# rows still equal their direct runs, and pinning it is refused.  One
# PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
mkdir -p build
out=$(mktemp -d build/test-sensitivity.XXXXXX)
trap 'rm -rf "$out"' EXIT
JOB="models/resnet50.onnx --train --samples 1281167 --epochs 90 --batch 256 --device a100 --count 8 --region US-CA"

ok() { echo "PASS sensitivity/$1"; }
ko() { echo "FAIL sensitivity/$1 ($2)"; }

if ! $JC estimate $JOB --sensitivity --json > "$out/s.json" 2> "$out/s.err"; then
  ko table "estimate --sensitivity failed: $(head -n 2 "$out/s.err")"
  exit 0
fi

# every row: its two bounds run directly with --pin
python3 - "$out/s.json" > "$out/rows.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["sensitivity"]:
    print(r["rank"], r["key"], r["low"], r["high"], r["co2_kg"]["at_low"], r["co2_kg"]["at_high"],
          r["energy_facility_kwh"]["at_low"], r["energy_facility_kwh"]["at_high"],
          r["wall_hours"]["at_low"], r["wall_hours"]["at_high"])
PY
n=$(wc -l < "$out/rows.txt")
[ "$n" -ge 10 ] && ok has_ten_or_more_rows || ko has_ten_or_more_rows "$n rows"

# the same figures from a direct run: central co2, facility kWh, wall h
same() {  # same JSONFILE CO2 KWH H -> 0 when the run's central figures match
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
got = [r["co2_location_kg"]["central"], r["energy_facility_kwh"]["central"], r["wall_hours"]["central"]]
want = [float(x) for x in sys.argv[2:5]]
bad = [(g, w) for g, w in zip(got, want) if abs(g - w) > 1e-9 * max(abs(w), 1e-300)]
print(bad if bad else "")
sys.exit(1 if bad else 0)
PY
}
fails=""
while read -r rank key lo hi clo chi klo khi hlo hhi; do
  for b in low high; do
    if [ $b = low ]; then c=$clo; k=$klo; h=$hlo; else c=$chi; k=$khi; h=$hhi; fi
    if ! $JC estimate $JOB --pin "$key=$b" --json > "$out/p.json" 2> "$out/p.err"; then
      fails="$fails $key=$b(failed: $(head -n 1 "$out/p.err"))"
    elif ! msg=$(same "$out/p.json" "$c" "$k" "$h"); then
      fails="$fails $key=$b$msg"
    fi
  done
done < "$out/rows.txt"
[ -z "$fails" ] && ok every_swing_equals_its_direct_runs || ko every_swing_equals_its_direct_runs "$fails"

# the ranking: emissions swing never grows down the table; the top row's
# swing is above zero
python3 - "$out/s.json" <<'PY' && ok ranked_by_emissions_swing || ko ranked_by_emissions_swing "order"
import json, sys
rows = json.load(open(sys.argv[1]))["sensitivity"]
sw = [r["co2_kg"]["swing"] for r in rows]
sys.exit(0 if sw == sorted(sw, reverse=True) and sw[0] > 0 and [r["rank"] for r in rows] == list(range(1, len(rows) + 1)) else 1)
PY

# the inputs of each stage move the result (a pin the model ignored would
# leave a zero swing in the table and in the direct run alike): the
# kernel efficiency, the device power model, the host, the PUE, the grid
python3 - "$out/s.json" <<'PY' && ok stages_move_the_result || ko stages_move_the_result "a zero swing"
import json, sys
rows = {r["key"]: r for r in json.load(open(sys.argv[1]))["sensitivity"]}
keys = ["kernel_eta_bw", "kernel_eta_backward", "power_k_compute_gpu", "host.power_w", "pue", "grid.ci"]
sys.exit(0 if all(k in rows and rows[k]["co2_kg"]["swing"] > 0 for k in keys) else 1)
PY

# the PUE and the grid intensity through their own options
# by_option KEY OPTION: the row's two bounds given as --OPTION reproduce it
by_option() {
  name="$1_bounds_equal_--$2"
  set -- $(grep " $1 " "$out/rows.txt") "$2"
  if [ $# -ne 11 ]; then ko "$name" "no row"; return; fi
  $JC estimate $JOB "--${11}" "$3" --json > "$out/o.json" && same "$out/o.json" "$5" "$7" "$9" > /dev/null \
    && $JC estimate $JOB "--${11}" "$4" --json > "$out/o.json" && same "$out/o.json" "$6" "$8" "${10}" > /dev/null \
    && ok "$name" || ko "$name" "--${11} $3 / $4"
}
by_option pue pue
by_option grid.ci ci

# the text table: its header and the top row's key first
$JC estimate $JOB --sensitivity > "$out/s.txt" 2>&1
top=$(sed -n 1p "$out/rows.txt" | cut -d' ' -f2)
sed -n '/^sensitivity (each ranged assumption/,/^$/p' "$out/s.txt" | grep -q "^     1  $top " \
  && ok text_table_top_row || ko text_table_top_row "no row 1 '$top' in the text table"

# Monte Carlo (issue 45 item 2): the same seed gives the same percentiles,
# bit for bit; another seed other ones; p5 <= p50 <= p95 inside the corner
# range; --seed alone is refused
$JC estimate $JOB --draws 10000 --seed 7 --json > "$out/m1.json" 2>&1
$JC estimate $JOB --draws 10000 --seed 7 --json > "$out/m2.json" 2>&1
$JC estimate $JOB --draws 10000 --seed 8 --json > "$out/m3.json" 2>&1
python3 - "$out/m1.json" "$out/m2.json" "$out/m3.json" <<'PY' && ok montecarlo_seeded_and_ordered || ko montecarlo_seeded_and_ordered "see $out"
import json, sys
a, b, c = (json.load(open(p)) for p in sys.argv[1:4])
ma, mb, mc = a["montecarlo"], b["montecarlo"], c["montecarlo"]
ok = ma == mb and ma["co2_kg"] != mc["co2_kg"] and ma["draws"] == 10000 and ma["seed"] == 7
for k, r in (("co2_kg", "co2_location_kg"), ("energy_facility_kwh", "energy_facility_kwh"), ("wall_hours", "wall_hours")):
    p, rr = ma[k], a["results"][r]
    ok = ok and rr["low"] <= p["p5"] <= p["p50"] <= p["p95"] <= rr["high"]
ok = ok and len(ma["inputs"]) == len(a["sensitivity"]) and all(i["distribution"] in ("uniform", "triangular", "log-normal") and i["reason"] for i in ma["inputs"])
sys.exit(0 if ok else 1)
PY

# a known runtime (--hours): device.busy_fraction's range follows from
# the other inputs' (a derived figure, not an input): the table leaves it
# out and says so in a warning, ranks the inputs, and its rows still equal
# their direct --pin runs; a pin of the figure itself is refused (it moved
# nothing before: issue 45 item 2)
if $JC estimate $JOB --hours 3 --sensitivity --draws 2000 --json > "$out/h.json" 2> "$out/h.err"; then
  python3 - "$out/h.json" > "$out/hrows.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["sensitivity"]
ok = len(rows) >= 10 and all(r["key"] != "device.busy_fraction" for r in rows) and rows[0]["co2_kg"]["swing"] > 0
ok = ok and any("device.busy_fraction left out" in w for w in d["warnings"]) and d["montecarlo"]["draws"] == 2000
for r in rows[:3]:
    print(r["key"], r["co2_kg"]["at_low"], r["co2_kg"]["at_high"], r["energy_facility_kwh"]["at_low"],
          r["energy_facility_kwh"]["at_high"], r["wall_hours"]["at_low"], r["wall_hours"]["at_high"])
sys.exit(0 if ok else 1)
PY
  [ $? -eq 0 ] && ok known_runtime_leaves_out_busy_fraction || ko known_runtime_leaves_out_busy_fraction "see $out/h.json"
  fails=""
  while read -r key clo chi klo khi hlo hhi; do
    $JC estimate $JOB --hours 3 --pin "$key=low" --json > "$out/p.json" 2>/dev/null && same "$out/p.json" "$clo" "$klo" "$hlo" > /dev/null \
      && $JC estimate $JOB --hours 3 --pin "$key=high" --json > "$out/p.json" 2>/dev/null && same "$out/p.json" "$chi" "$khi" "$hhi" > /dev/null \
      || fails="$fails $key"
  done < "$out/hrows.txt"
  [ -z "$fails" ] && ok known_runtime_rows_equal_direct_runs || ko known_runtime_rows_equal_direct_runs "$fails"
else
  ko known_runtime_leaves_out_busy_fraction "exit $?: $(head -n 1 "$out/h.err")"
fi
$JC estimate $JOB --hours 3 --pin device.busy_fraction=high > /dev/null 2> "$out/r.err"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--pin device.busy_fraction: a figure the estimate derives from its inputs" "$out/r.err" \
  && ok pin_derived_figure_refused || ko pin_derived_figure_refused "exit $rc: $(head -n 1 "$out/r.err")"

# refusals: exit 2 (usage) or 7 (range), the message naming the entry
refused() {  # refused NAME CODE WORDS -- ARGS
  name=$1; code=$2; words=$3; shift 4
  $JC estimate $JOB "$@" > /dev/null 2> "$out/r.err"; rc=$?
  [ $rc -eq "$code" ] && grep -q -- "$words" "$out/r.err" && ok "$name" || ko "$name" "exit $rc: $(head -n 1 "$out/r.err")"
}
refused pin_unknown_key 2 "--pin nosuch: no ranged assumption" -- --pin nosuch=1
refused pin_no_range 2 "--pin devices: that assumption has no range" -- --pin devices=8
refused pin_outside_range 7 "--pin pue=2.5: outside the assumption's range 1.08 to 1.98" -- --pin pue=2.5
refused pin_malformed 2 "entry 'pue' is not KEY=VALUE" -- --pin pue
refused pin_not_a_number 2 "--pin pue=0x1: not a number" -- --pin pue=0x1
refused seed_without_draws 2 "--seed has no effect without --draws" -- --seed 3
$JC estimate --generate --hf-config tests/serving/configs/llama-3.1-8b.json --prompt-tokens 500 --output-tokens 300 \
  --requests 1000 --device h100 --region US --sensitivity > /dev/null 2> "$out/g.err"; rc=$?
[ $rc -eq 2 ] && grep -q "sensitivity" "$out/g.err" && ok serving_refuses_sensitivity \
  || ko serving_refuses_sensitivity "exit $rc: $(head -n 1 "$out/g.err")"
exit 0
