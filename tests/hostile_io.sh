#!/bin/sh
# hostile_io.sh - issue 43's reproductions of output lost or misplaced,
# forged snapshots, hash flooding and absurd grids, run through the
# ASan+UBSan CLI (make test): standard output on a full disk (/dev/full)
# for every command, SOURCE_DATE_EPOCH out of range, the statement's
# reproducing line past 2 KB, outputs that resolve to an input, `hwdb
# snapshot -o` onto a FIFO, a device or a symlink, the sweep's point cap
# and forged snapshots.  Each case names the exit status and a stderr
# substring it wants; any sanitizer report fails it.  Prints PASS/FAIL.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-build/asan/joulecast}
M=models/resnet18.onnx
T=$(mktemp -d "${TMPDIR:-/tmp}/jc_hostile_io.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

# case_ NAME WANT_RC STDERR_SUBSTRING CMD...  (stdout to $T/out; '' = any stderr)
case_() {
  name=$1; want=$2; sub=$3; shift 3
  "$@" > $T/out 2> $T/err
  check_ "$name" "$want" "$sub" $?
}
# full NAME CMD...: standard output on a full disk: exit 3 naming it
full() {
  name=$1; shift
  "$@" > /dev/full 2> $T/err
  check_ "full/$name" 3 "cannot write standard output: No space left on device" $?
}
check_() {
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer\|SUMMARY: ' $T/err; then
    echo "FAIL $1: sanitizer report: $(grep -m3 'ERROR\|runtime error\|SUMMARY' $T/err | head -c 400)"
  elif [ "$4" != "$2" ]; then
    echo "FAIL $1: exit $4 (want $2): $(head -c 300 $T/err)"
  elif [ -n "$3" ] && ! grep -qF -- "$3" $T/err; then
    echo "FAIL $1: stderr lacks '$3': $(head -c 300 $T/err)"
  else
    echo "PASS $1"
  fi
}

# ---- item 9: every command's standard output on a full disk: exit 3, with a message ----
E="$M --device a100 --requests 1000"
"$JC" estimate $E --json > $T/e1.json 2> /dev/null
"$JC" estimate $E --batch 8 --json > $T/e2.json 2> /dev/null
full estimate_text "$JC" estimate $E
full estimate_json "$JC" estimate $E --json
full estimate_csv "$JC" estimate $E --csv
full estimate_codecarbon "$JC" estimate $E --format codecarbon
full estimate_html_stdout "$JC" estimate $E --html -
full count "$JC" count $M
full count_json "$JC" count $M --json
full inspect "$JC" inspect $M
full inspect_json "$JC" inspect $M --json
full trace "$JC" trace tests/data/traces/nvidia-smi-2gpu.csv
full trace_json "$JC" trace tests/data/traces/nvidia-smi-2gpu.csv --json
full statement "$JC" statement $E
full sweep "$JC" sweep $M --devices a100,h100 --regions FR,DE --requests 1000
full sweep_json "$JC" sweep $M --devices a100,h100 --regions FR,DE --requests 1000 --json
full compare "$JC" compare $M models/resnet50.onnx --device a100 --requests 1000
full diff "$JC" diff $T/e1.json $T/e2.json
full diff_json "$JC" diff $T/e1.json $T/e2.json --json
full ga "$JC" ga --runtime 1h --cores 4
full ga_json "$JC" ga --runtime 1h --cores 4 --json
full help "$JC" help
full help_estimate "$JC" help estimate
full estimate_--help "$JC" estimate --help
full version "$JC" --version
full hw_list "$JC" hw list
full hw_list_json "$JC" hw list --json
full hw_show "$JC" hw show a100
full region_list "$JC" region list
full region_show "$JC" region show FR
full hwdb_check "$JC" hwdb check
full hwdb_info "$JC" hwdb info
full hwdb_schema "$JC" hwdb schema

# ---- item 16: the statement's reproducing command is never cut ----
D=$T
for i in 1 2 3 4 5 6 7 8 9 10; do D="$D/$(printf 'd%.0s' $(seq 1 200))"; done
mkdir -p "$D/layer" && LONG="$D/model it's.onnx" && cp $M "$LONG" && cp tests/hwdb/override/lab.yaml "$D/layer/"
DIMS=""
for i in $(seq 1 8); do DIMS="$DIMS --hwdb $D/layer"; done
"$JC" statement "$LONG" --device a100 --requests 1000 $DIMS > $T/st.md 2> $T/err
/usr/bin/python3 - "$T/st.md" "$LONG" <<'PY' && echo "PASS statement/reproduce_line_past_2KB_whole" || echo "FAIL statement/reproduce_line_past_2KB_whole: $(head -c 300 $T/err)"
import sys, re
t = open(sys.argv[1]).read()
m = re.search(r"(joulecast estimate [^\n`]*)", t)
line = m.group(1) if m else ""
# the path quoted whole ('model it'\''s.onnx') and all 8 layers, the last one whole
sys.exit(0 if len(line) > 2048 and "/model it'\\''s.onnx'" in line and line.count("/layer") == 8
         and line.endswith("/layer") else 1)
PY

# ---- item 3: SOURCE_DATE_EPOCH out of gmtime's range is refused, never an uninitialised date ----
SOURCE_DATE_EPOCH=99999999999999999 case_ "sde/out_of_range_refused" 7 "SOURCE_DATE_EPOCH=99999999999999999 is out of range" "$JC" estimate $E --format codecarbon
SOURCE_DATE_EPOCH=253402300800 case_ "sde/year_10000_refused" 7 "SOURCE_DATE_EPOCH=253402300800 is out of range" "$JC" estimate $E --format codecarbon
SOURCE_DATE_EPOCH=-5 case_ "sde/negative_refused" 7 "is out of range" "$JC" estimate $E --format codecarbon
SOURCE_DATE_EPOCH=yesterday case_ "sde/not_a_number_refused" 2 "SOURCE_DATE_EPOCH='yesterday' is not a whole number" "$JC" estimate $E --format codecarbon
SOURCE_DATE_EPOCH=253402300799 case_ "sde/last_second_of_9999" 0 "" "$JC" estimate $E --format codecarbon
grep -q "^9999-12-31T23:59:59," $T/out && echo "PASS sde/last_second_written" || echo "FAIL sde/last_second_written: $(tail -1 $T/out | head -c 200)"
SOURCE_DATE_EPOCH=99999999999999999 case_ "sde/calibrate_refused" 7 "SOURCE_DATE_EPOCH" "$JC" calibrate tests/data/codecarbon/a100-u031.csv models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib.yaml
[ ! -e $T/calib.yaml ] && echo "PASS sde/calibrate_wrote_no_layer" || echo "FAIL sde/calibrate_wrote_no_layer"

# ---- item 1: a forged snapshot (a pointer changed, the checksum recomputed) is refused on
# ---- both open paths, with a note; the YAML gives the same figures ----
"$JC" hwdb snapshot -o $T/good.snap > /dev/null 2> $T/err || echo "FAIL snapshot/write: $(head -c 200 $T/err)"
JOULECAST_HWDB_SNAPSHOT=off "$JC" hw show a100 --json > $T/yaml.json 2> /dev/null
for forge in "header 0" "past_end 0" "misaligned 0" "self 0" "header 7" "self 100" "count 0" "string_unterminated 0" "header 5000" "self 20000"; do
  set -- $forge
  /usr/bin/python3 tests/snapshot/forge_snapshot.py $T/good.snap $T/forged.snap $1 $2
  JOULECAST_HWDB_SNAPSHOT=$T/forged.snap case_ "snapshot/forged_${1}_$2_refused" 0 "not using the hwdb snapshot $T/forged.snap: corrupt" "$JC" hw show a100 --json
  cmp -s $T/out $T/yaml.json || echo "FAIL snapshot/forged_${1}_$2_same_figures"
done
/usr/bin/python3 tests/snapshot/forge_snapshot.py $T/good.snap $T/same.snap checksum_only
JOULECAST_HWDB_SNAPSHOT=$T/same.snap "$JC" hwdb info > $T/out 2> $T/err
grep -q "state *used" $T/out && echo "PASS snapshot/rewritten_checksum_alone_still_used" || echo "FAIL snapshot/rewritten_checksum_alone_still_used: $(head -c 300 $T/out $T/err)"

# ---- item 7: an output that resolves to an input is refused (exit 2), the input kept ----
cp $M $T/m.onnx && ln -s m.onnx $T/m-link.onnx && cp tests/data/codecarbon/a100-u031.csv $T/meas.csv
printf 'model: m.onnx\ndevice: a100\nrequests: 1000\n' > $T/job.yaml
out_is_input() {  # NAME FILE-THAT-MUST-STAY ORIGINAL CMD...
  name=$1; keep=$2; orig=$3; shift 3
  case_ "output/$name" 2 "an input of this" "$@"
  cmp -s "$keep" "$orig" && echo "PASS output/${name}_input_kept" || echo "FAIL output/${name}_input_kept"
}
out_is_input estimate_html_onto_model $T/m.onnx $M "$JC" estimate $T/m.onnx --device a100 --requests 1000 --html $T/m.onnx
out_is_input estimate_html_eq_onto_model $T/m.onnx $M "$JC" estimate $T/m.onnx --device a100 --requests 1000 --html=$T/m.onnx
out_is_input estimate_html_onto_symlink_of_model $T/m.onnx $M "$JC" estimate $T/m.onnx --device a100 --requests 1000 --html $T/m-link.onnx
out_is_input estimate_html_onto_job_files_model $T/m.onnx $M "$JC" estimate $T/job.yaml --html $T/m.onnx
out_is_input compare_html_onto_model $T/m.onnx $M "$JC" compare $T/m.onnx models/resnet50.onnx --device a100 --requests 1000 --html $T/m.onnx
out_is_input sweep_html_onto_model $T/m.onnx $M "$JC" sweep $T/m.onnx --devices a100,h100 --requests 1000 --html $T/m.onnx
CAL="--train --samples 1281167 --epochs 2 --batch 256 --region FR"
out_is_input calibrate_out_onto_measurements $T/meas.csv tests/data/codecarbon/a100-u031.csv "$JC" calibrate $T/meas.csv models/resnet50.onnx $CAL --out $T/meas.csv
cp models/resnet50.onnx $T/r50.onnx
out_is_input calibrate_out_onto_model $T/r50.onnx models/resnet50.onnx "$JC" calibrate $T/meas.csv $T/r50.onnx $CAL --out $T/r50.onnx
cp tests/hwdb/override/lab.yaml $T/lab.yaml
out_is_input calibrate_out_onto_hwdb_layer $T/lab.yaml tests/hwdb/override/lab.yaml "$JC" calibrate $T/meas.csv models/resnet50.onnx $CAL --hwdb $T/lab.yaml --out $T/lab.yaml
mkdir -p $T/hw && cp -r hwdb/. $T/hw/
out_is_input snapshot_onto_its_own_yaml $T/hw/providers.yaml hwdb/providers.yaml "$JC" hwdb snapshot $T/hw -o $T/hw/providers.yaml
case_ "output/estimate_html_new_file_written" 0 "" "$JC" estimate $T/m.onnx --device a100 --requests 1000 --html $T/page.html
grep -q "<html" $T/page.html && echo "PASS output/estimate_html_new_file_has_the_page" || echo "FAIL output/estimate_html_new_file_has_the_page"

# ---- item 8: hwdb snapshot -o writes a regular file or a new path; a symlink keeps its link ----
mkfifo $T/fifo
case_ "snapshot_out/fifo_refused" 3 "not a regular file (a FIFO)" "$JC" hwdb snapshot -o $T/fifo
[ -p $T/fifo ] && echo "PASS snapshot_out/fifo_still_a_fifo" || echo "FAIL snapshot_out/fifo_still_a_fifo"
case_ "snapshot_out/device_refused" 3 "not a regular file (a device)" "$JC" hwdb snapshot -o /dev/null
[ -c /dev/null ] && echo "PASS snapshot_out/dev_null_still_a_device" || echo "FAIL snapshot_out/dev_null_still_a_device"
case_ "snapshot_out/folder_refused" 3 "not a regular file (a folder)" "$JC" hwdb snapshot -o $T/hw
ln -s real.snap $T/link.snap
case_ "snapshot_out/dangling_symlink_target_written" 0 "" "$JC" hwdb snapshot -o $T/link.snap
[ -L $T/link.snap ] && head -c 8 $T/real.snap | grep -q JCHWSNAP && echo "PASS snapshot_out/symlink_kept_target_written" ||
  echo "FAIL snapshot_out/symlink_kept_target_written"
case_ "snapshot_out/symlink_to_regular_rewritten" 0 "" "$JC" hwdb snapshot -o $T/link.snap
[ -L $T/link.snap ] && [ -f $T/real.snap ] && echo "PASS snapshot_out/symlink_still_a_symlink" || echo "FAIL snapshot_out/symlink_still_a_symlink"
JOULECAST_HWDB_SNAPSHOT=$T/link.snap "$JC" hwdb info > $T/out 2>&1
grep -q "state *used" $T/out && echo "PASS snapshot_out/written_through_symlink_is_used" || echo "FAIL snapshot_out/written_through_symlink_is_used: $(head -c 200 $T/out)"

# ---- item 6: the sweep grid is capped before any estimate (exit 7 naming the product and the cap) ----
# the product is the hwdb's devices x regions x 6 precisions x 10 batches: the message's own factors must multiply to it
case_ "sweep/grid_above_default_cap" 7 "grid points, above the cap of 400,000 (--max-points N" \
  "$JC" sweep $M --devices all --regions all --precisions all --batches 1,2,3,4,5,6,7,8,9,10 --requests 1000 --json
python3 - "$T/err" <<'PY' && echo "PASS sweep/grid_cap_names_the_product" || echo "FAIL sweep/grid_cap_names_the_product: $(head -c 200 $T/err)"
import re, sys
m = re.search(r"(\d+) devices x (\d+) regions x 6 precisions x 10 batch sizes = ([\d,]+) grid points", open(sys.argv[1]).read())
sys.exit(not (m and int(m[1]) >= 100 and int(m[2]) >= 500 and int(m[1]) * int(m[2]) * 60 == int(m[3].replace(",", ""))))
PY
[ ! -s $T/out ] && echo "PASS sweep/grid_above_cap_writes_nothing" || echo "FAIL sweep/grid_above_cap_writes_nothing"
case_ "sweep/max_points_lowers_the_cap" 7 "2 devices x 2 regions x 1 precision x 1 batch size = 4 grid points, above the cap of 3" \
  "$JC" sweep $M --devices a100,h100 --regions FR,DE --requests 1000 --max-points 3
case_ "sweep/max_points_at_the_grid" 0 "" "$JC" sweep $M --devices a100,h100 --regions FR,DE --requests 1000 --max-points 4 --json
grep -q '"points":	4' $T/out && echo "PASS sweep/max_points_at_the_grid_runs_it" || echo "FAIL sweep/max_points_at_the_grid_runs_it"
case_ "sweep/max_points_zero_refused" 2 "--max-points expects a whole number from 1" "$JC" sweep $M --devices a100 --max-points 0
case_ "sweep/max_points_above_limit" 7 "--max-points expects a whole number from 1 to 1000000000" "$JC" sweep $M --devices a100 --max-points 1e12
