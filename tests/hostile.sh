#!/bin/sh
# hostile.sh - the hostile-input reproductions of issue 27, run through the
# ASan+UBSan CLI (make test): models with extreme attributes and ranks
# (tests/hostile/*.onnx, written by tests/hostile/gen_hostile.py), op-rules
# files that nest or chain 10^5-10^6 deep (written here), extreme traces
# and options.  Each case names the exit status and a stderr substring it
# wants; any sanitizer report fails it.  Prints PASS/FAIL lines.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-build/asan/joulecast}
H=tests/hostile
T=$(mktemp -d "${TMPDIR:-/tmp}/jc_hostile.XXXXXX") || exit 1   # private: make test runs may overlap
trap 'rm -rf "$T"' EXIT

# case NAME WANT_RC STDERR_SUBSTRING CMD...  (stderr substring '' = any)
case_() {
  name=$1; want=$2; sub=$3; shift 3
  "$@" > $T/out 2> $T/err
  rc=$?
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer\|SUMMARY: ' $T/err; then
    echo "FAIL $name: sanitizer report: $(grep -m3 'ERROR\|runtime error\|SUMMARY' $T/err | head -c 400)"
  elif [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc (want $want): $(head -c 300 $T/err)"
  elif [ -n "$sub" ] && ! grep -qF -- "$sub" $T/err; then
    echo "FAIL $name: stderr lacks '$sub': $(head -c 300 $T/err)"
  else
    echo "PASS $name"
  fi
}

# ---- 1-6: crashes in the op rules ----
case_ "hostile/einsum_200_ellipses" 4 "equation" "$JC" count $H/einsum_ellipses.onnx
case_ "hostile/einsum_40_letters_rank2" 4 "equation" "$JC" count $H/einsum_letters.onnx
case_ "hostile/gathernd_batch_dims_-300" 4 "batch_dims" "$JC" count $H/gathernd_batch_dims.onnx
case_ "hostile/attention23_rank0_q" 4 "node 'attn_rank0'" "$JC" count $H/attention23_rank0.onnx
case_ "hostile/attention23_rank1_q" 4 "node 'attn_rank1'" "$JC" count $H/attention23_rank1.onnx
case_ "hostile/det_scalar" 4 "node 'det0'" "$JC" count $H/det_scalar.onnx
case_ "hostile/gridsample_scalar" 4 "node 'gs0'" "$JC" count $H/gridsample_scalar.onnx
case_ "hostile/mod_fold_int64_min_by_-1" 0 "" "$JC" count $H/mod_int64_min.onnx
case_ "hostile/depthtospace_blocksize_2^32" 7 "attribute 'blocksize'" "$JC" count $H/depthtospace_2pow32.onnx

# ---- 8: shape arithmetic that wrapped silently: exit 7 naming node and attribute ----
case_ "hostile/conv_pads_int64_max" 7 "node 'conv_pads' (Conv): attribute 'pads'" "$JC" count $H/conv_pads_int64max.onnx
case_ "hostile/convtranspose_strides_int64_max" 7 "attribute 'strides'" "$JC" count $H/convtranspose_strides.onnx
case_ "hostile/convtranspose_group_int64_max" 7 "attribute 'group'" "$JC" count $H/convtranspose_group.onnx
case_ "hostile/maxpool_pads_int64_max" 7 "attribute 'pads'" "$JC" count $H/maxpool_pads.onnx
case_ "hostile/maxpool_dilations_int64_max" 7 "attribute 'dilations'" "$JC" count $H/maxpool_dilation.onnx
case_ "hostile/maxunpool_strides_int64_max" 7 "attribute 'strides'" "$JC" count $H/maxunpool_strides.onnx
case_ "hostile/deformconv_pads_int64_max" 7 "attribute 'pads'" "$JC" count $H/deformconv_pads.onnx
case_ "hostile/qlinearconv_pads_int64_max" 7 "attribute 'pads'" "$JC" count $H/qlinearconv_pads.onnx
case_ "hostile/spacetodepth_blocksize_2^32" 7 "attribute 'blocksize'" "$JC" count $H/spacetodepth_2pow32.onnx
case_ "hostile/resize_scale_1e30" 7 "scales" "$JC" count $H/resize_scale_huge.onnx
case_ "hostile/gridsample_rank1" 4 "node 'gs1'" "$JC" count $H/gridsample_rank1.onnx
case_ "hostile/gridsample_rank34" 4 "node 'gs34'" "$JC" count $H/gridsample_rank34.onnx
case_ "hostile/centercroppad_scalar" 0 "" "$JC" count $H/centercrop_scalar.onnx
# Slice with step INT64_MIN from 9 to INT64_MIN: one row (row 9) of 10
"$JC" count $H/slice_step_int64min.onnx --json > $T/out 2> $T/err
if ! grep -q 'runtime error\|Sanitizer' $T/err && grep -q "\"output_shape\":\[1,4\]" $T/out; then echo "PASS hostile/slice_step_int64_min"
else echo "FAIL hostile/slice_step_int64_min: $(head -c 300 $T/err) $(grep -o "\"output_shape\":[^]]*]" $T/out | tail -1)"; fi
# issue 43 item 15: step INT64_MIN over every pair of starts and ends from {INT64_MIN, INT64_MAX,
# -11, -1, 0, 3, 9}, on [10, 4], on an empty axis and on folded shape values (147 Slice nodes):
# each output shape is the operator's (onnx's shape inference), an empty axis stays empty
# (it gave one row of none, for any negative step)
/usr/bin/python3 $H/slice_int64min_grid.py $T/grid
"$JC" count $T/grid.onnx --json > $T/out 2> $T/err
if grep -q 'runtime error\|Sanitizer' $T/err; then echo "FAIL hostile/slice_step_int64_min_grid: $(head -c 300 $T/err)"
else /usr/bin/python3 -c "
import json, sys
ref = json.load(open(sys.argv[1])); got = {n['name']: n['output_shape'] for n in json.load(open(sys.argv[2]))['nodes']}
bad = ['%s: %s, want %s' % (k, got.get(k), v) for k, v in sorted(ref.items()) if got.get(k) != v]
print('PASS hostile/slice_step_int64_min_grid_%d_nodes' % len(ref) if not bad and len(ref) == 147 else 'FAIL hostile/slice_step_int64_min_grid: %d of %d differ: %s' % (len(bad), len(ref), '; '.join(bad[:4])))
" $T/grid.json $T/out; fi

# ---- 7: op-rules expressions that recursed without limit ----
M=tests/models/cost/custom_fused_dense.onnx
rules() {  # file expression
  printf 'rules:\n  "com.example:FusedDense":\n    outputs: [in0]\n    macs: "%s"\n' "$2" > "$1"
}
rules $T/parens.yaml "$(awk 'BEGIN{for(i=0;i<100000;i++)printf "(";printf "1";for(i=0;i<100000;i++)printf ")"}')"
rules $T/minus.yaml "$(awk 'BEGIN{for(i=0;i<100000;i++)printf "-";printf "1"}')"
rules $T/sum.yaml "$(awk 'BEGIN{printf "1";for(i=1;i<1000000;i++)printf "+1"}')"
rules $T/prod.yaml "$(awk 'BEGIN{printf "7";for(i=1;i<1000000;i++)printf "*1"}')"
rules $T/calls.yaml "$(awk 'BEGIN{for(i=0;i<50000;i++)printf "max(1,";printf "1";for(i=0;i<50000;i++)printf ")"}')"
case_ "oprules/100000_nested_parentheses" 2 "nested more than" "$JC" count $M --op-rules $T/parens.yaml
case_ "oprules/100000_unary_minuses" 2 "nested more than" "$JC" count $M --op-rules $T/minus.yaml
case_ "oprules/50000_nested_calls" 2 "nested more than" "$JC" count $M --op-rules $T/calls.yaml
# a sum of 10^6 terms is evaluated (iteratively): 10^6 MACs
"$JC" count $M --op-rules $T/sum.yaml --json > $T/out 2> $T/err
if grep -q '"macs":1000000[,}]' $T/out && ! grep -q 'runtime error\|Sanitizer' $T/err; then echo "PASS oprules/sum_of_10^6_terms"
else echo "FAIL oprules/sum_of_10^6_terms: $(head -c 300 $T/err) $(grep -o '"macs":[0-9]*' $T/out | head -1)"; fi
"$JC" count $M --op-rules $T/prod.yaml --json > $T/out 2> $T/err
if grep -q '"macs":7[,}]' $T/out && ! grep -q 'runtime error\|Sanitizer' $T/err; then echo "PASS oprules/product_of_10^6_factors"
else echo "FAIL oprules/product_of_10^6_factors: $(head -c 300 $T/err) $(grep -o '"macs":[0-9]*' $T/out | head -1)"; fi
# the same file through a job file's op-rules:
printf "model: %s\nop-rules: %s\ndevice: a100\n" "$PWD/$M" "$T/parens.yaml" > $T/job.yaml
case_ "oprules/nested_parentheses_via_job_file" 2 "nested more than" "$JC" estimate $T/job.yaml

# ---- 9: every result finite or refused; trace values outside a physical range refused by line ----
TR=tests/hostile/traces
case_ "trace/power_1e308_W_refused_by_line" 7 "power_1e308.csv:3: GPU 0: power 1e+308 W is above" "$JC" trace $TR/power_1e308.csv
case_ "trace/wall_1e308_W_refused_by_line" 7 "wall_1e308.csv:3: wall meter: power" "$JC" trace $TR/wall_1e308.csv --scope wall
case_ "trace/utilisation_500%_refused_by_line" 7 "util_500.csv:3: GPU 0: utilisation 500 % is outside" "$JC" trace $TR/util_500.csv
case_ "trace/samples_8000_years_apart_refused" 7 "span_8000_years.csv:3: wall meter: time" "$JC" trace $TR/span_8000_years.csv --scope wall
case_ "estimate/utilization_1e-300_refused" 2 "--utilization must be in [1e-06, 1]" "$JC" estimate models/resnet18.onnx --device a100 --utilization 1e-300 --requests 1000

# ---- 10: control bytes and bidi overrides escaped in every text output and diagnostic ----
# (raw ESC 033, BEL 007, CR 015, U+202E = 342 200 256; a forged line starts "FORGED")
no_raw() {  # name file: the file holds none of those bytes and no forged line
  if LC_ALL=C grep -q "$(printf '\033')\|$(printf '\007')\|$(printf '\015')\|$(printf '\342\200\256')" "$2" ||
     grep -q '^FORGED' "$2"; then echo "FAIL $1: raw control bytes or a forged line: $(head -c 300 "$2" | od -c | head -5)"
  elif ! grep -qF '\x1b' "$2"; then echo "FAIL $1: no \\x1b escape shown: $(head -c 300 "$2")"
  else echo "PASS $1"; fi
}
"$JC" inspect $H/control_bytes.onnx > $T/out 2> $T/err; no_raw "escape/inspect_names" $T/out
"$JC" count $H/control_bytes.onnx --per-node > $T/out 2> $T/err; no_raw "escape/count_per_node" $T/out
"$JC" count $H/control_bytes.onnx --json > $T/out 2> $T/err; no_raw "escape/count_json" $T/out
"$JC" trace $TR/control_bytes_name.csv > $T/out 2> $T/err; no_raw "escape/trace_channel_name" $T/out
grep -qF '\u202e' $T/out && echo "PASS escape/trace_bidi_override_as_u202e" || echo "FAIL escape/trace_bidi_override_as_u202e: $(head -c 300 $T/out)"
"$JC" count "$(printf 'x\033]0;title\007.onnx')" > $T/out 2> $T/err; no_raw "escape/stderr_diagnostic" $T/err
# hwdb layers: a string with a line break, ESC or a bidi override (YAML's
# own escapes \n, \e, \u202e in a quoted string) is refused at its line:col
# (hwdb strings are one line), so `hw list` / `hw show` never print a
# forged line; the diagnostic shows the string escaped
mkdir -p $T/evil
evil_layer() {  # NAME VARIANT: YAML double-quoted scalars, written as given
  cat > $T/evil/dev.yaml <<EOY
schema: joulecast-hwdb/1
sources:
  s1: {citation: "test", url: "https://example.org", year: 2024}
devices:
  - id: evil-gpu
    kind: gpu
    vendor: Evil
    name: "$1"
    variant: "$2"
    tdp_w: {value: 100, source: s1}
EOY
}
evil_layer 'Evil\nFORGED line' 'x'
# a one-GPU hwdb layer: DIR ID VENDOR TDP_W [LINE]; LINE (a field of the
# device, indented) is line 10 of DIR/dev.yaml
gpu_layer() {
  mkdir -p "$1"
  { cat <<EOY
schema: joulecast-hwdb/1
sources:
  s1: {citation: "test", url: "https://example.org", year: 2024}
devices:
  - id: $2
    kind: gpu
    vendor: $3
    name: "$3"
    tdp_w: {value: $4, source: s1}
EOY
    if [ -n "${5:-}" ]; then printf '%s\n' "$5"; fi; } > "$1/dev.yaml"
}
case_ "escape/hwdb_name_newline_refused_at_line_col" 5 "dev.yaml:8:11: device 'evil-gpu': name: contains a control byte, a line break" "$JC" hw list --hwdb $T/evil
evil_layer 'Evil GPU' 'x\e]0;pwned\a \u202e'
case_ "escape/hwdb_variant_osc_refused" 5 "variant: contains a control byte" "$JC" hw show evil-gpu --hwdb $T/evil
no_raw "escape/hwdb_osc_shown_escaped_in_diagnostic" $T/err

# ---- 11: CSV formula cells prefixed with ' by default; --csv-raw for the bytes ----
"$JC" count $H/csv_formulas.onnx --csv > $T/out 2> $T/err
if grep -q "^\"'=HYPERLINK" $T/out && grep -q "^\"'+1+1\"" $T/out && grep -q "^\"'-2\"" $T/out && grep -q "^\"'@SUM" $T/out
then echo "PASS csv/formula_cells_prefixed"; else echo "FAIL csv/formula_cells_prefixed: $(head -c 300 $T/out)"; fi
"$JC" count $H/csv_formulas.onnx --csv --csv-raw > $T/out 2> $T/err
grep -q '^"=HYPERLINK' $T/out && echo "PASS csv/csv_raw_keeps_the_bytes" || echo "FAIL csv/csv_raw_keeps_the_bytes: $(head -c 300 $T/out)"
case_ "csv/csv_raw_without_csv_refused" 2 "--csv-raw has no effect" "$JC" count $H/csv_formulas.onnx --csv-raw
"$JC" estimate models/resnet18.onnx --device a100 --requests 1000 --format codecarbon --project '=HYPERLINK("x")' > $T/out 2> $T/err
grep -q "\"'=HYPERLINK" $T/out && echo "PASS csv/codecarbon_project_prefixed" || echo "FAIL csv/codecarbon_project_prefixed: $(head -c 300 $T/out)"

# ---- 12: the node cap (JOULECAST_MAX_NODES) and bounded JSON ----
JOULECAST_MAX_NODES=300 "$JC" count $H/nested_if.onnx > $T/out 2> $T/err; rc=$?
[ $rc -eq 7 ] && grep -q "more than 300 nodes" $T/err && echo "PASS limits/node_cap_refuses_511_nested_if_nodes" ||
  echo "FAIL limits/node_cap_refuses_511_nested_if_nodes: exit $rc $(head -c 300 $T/err)"
case_ "limits/node_cap_default_lets_511_through" 0 "" "$JC" count $H/nested_if.onnx
/usr/bin/python3 $H/gen_wide.py $T/wide.onnx 100001 > /dev/null 2>&1
"$JC" count $T/wide.onnx --json > $T/out 2> $T/err
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['nodes'] == [] and d['nodes_omitted'] == 100001 else 1)" $T/out &&
  echo "PASS limits/count_json_summarised_past_100000_nodes" || echo "FAIL limits/count_json_summarised_past_100000_nodes: $(head -c 200 $T/out)"
"$JC" count $T/wide.onnx --json --per-node > $T/out 2> $T/err
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d['nodes']) == 100001 and 'nodes_omitted' not in d else 1)" $T/out &&
  echo "PASS limits/count_json_per_node_lists_every_node" || echo "FAIL limits/count_json_per_node_lists_every_node"

# ---- 13: JOULECAST_HWDB_SNAPSHOT naming a FIFO does not hang ----
mkfifo $T/fifo
JOULECAST_HWDB_SNAPSHOT=$T/fifo timeout 120 "$JC" hw list > $T/out 2> $T/err; rc=$?
[ $rc -eq 0 ] && grep -q "not a regular file" $T/err && echo "PASS snapshot/fifo_refused_without_hanging" ||
  echo "FAIL snapshot/fifo_refused_without_hanging: exit $rc (124: hung) $(head -c 200 $T/err)"

# ---- 15: cosmetic ----
printf 'rules: &a\n  x: *a\n' > $T/anchor.yaml
case_ "oprules/yaml_error_is_usage_and_says_op-rules" 2 "not allowed in op-rules files" "$JC" count $M --op-rules $T/anchor.yaml
printf 'rules: [\n' > $T/syntax.yaml
case_ "oprules/yaml_syntax_error_is_usage" 2 "op-rules file: YAML syntax error" "$JC" count $M --op-rules $T/syntax.yaml
case_ "options/requests_hex_refused" 2 "--requests expects a number, got '0x10'" "$JC" estimate models/resnet18.onnx --device a100 --requests 0x10
sed 's/"hidden_size": *[0-9]*/"hidden_size": 1e18/' tests/serving/configs/gemma-3-27b.json > $T/hf18.json
case_ "hfconfig/hidden_size_1e18_names_the_limit" 7 "key 'hidden_size' is 1e+18, above the limit" "$JC" estimate --generate --hf-config $T/hf18.json --prompt-tokens 10 --output-tokens 10 --device a100 --requests 10
"$JC" estimate models/resnet18.onnx --device a100 --requests 1000 --json > $T/e1.json 2> /dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['results']['energy_facility_kwh']['central']=-1.0; json.dump(d,open(sys.argv[2],'w'))" $T/e1.json $T/e2.json
case_ "diff/negative_energy_refused" 2 "a negative figure" "$JC" diff $T/e1.json $T/e2.json

# ---- 9 (calibrate): a measurement outside the physical range is refused, no layer written ----
sed "2s/0.09107386724753426/1e308/" tests/data/codecarbon/a100-u031.csv > $T/cc.csv
case_ "calibrate/device_energy_1e308_kWh_refused" 7 "cc.csv:2:" "$JC" calibrate $T/cc.csv models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib.yaml
[ ! -e $T/calib.yaml ] && echo "PASS calibrate/no_layer_written_for_a_refused_measurement" || echo "FAIL calibrate/no_layer_written_for_a_refused_measurement"

# ---- 10 (diff): strings of the JSON files stay on their line, escaped ----
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); d['hardware']['device']='a100\nFORGED line\x1b[31m'; json.dump(d,open(sys.argv[2],'w'))" $T/e1.json $T/e3.json
"$JC" diff $T/e1.json $T/e3.json > $T/out 2> $T/err; no_raw "escape/diff_json_strings" $T/out
# the HTML page's per-node table stops at 10,000 rows (--html implies per-node figures)
/usr/bin/python3 $H/gen_wide.py $T/wide10k.onnx 10001 > /dev/null 2>&1
"$JC" estimate $T/wide10k.onnx --device a100 --requests 10 --html $T/p.html > /dev/null 2> $T/err
grep -q "The first 10000 of 10001 nodes" $T/p.html && echo "PASS limits/html_node_table_bounded" || echo "FAIL limits/html_node_table_bounded: $(head -c 200 $T/err)"

# ==== issue 43 (second review) ====
# ---- 13: traces: a CodeCarbon pue outside [1, 3], a NUL byte inside a number, a negative Carbontracker duration ----
CC=tests/data/codecarbon/a100-u031.csv
sed '2s/,1\.2$/,0/' $CC > $T/pue0.csv
case_ "trace/codecarbon_pue_0_refused" 7 "pue0.csv:2: column 'pue': 0 is outside a facility's range [1, 3]" "$JC" trace $T/pue0.csv
sed '2s/,1\.2$/,1e300/' $CC > $T/pue300.csv
case_ "calibrate/codecarbon_pue_1e300_refused" 7 "pue300.csv:2: column 'pue': 1e+300 is outside" "$JC" calibrate $T/pue300.csv models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib_pue.yaml
[ ! -e $T/calib_pue.yaml ] && echo "PASS calibrate/no_layer_written_for_pue_1e300" || echo "FAIL calibrate/no_layer_written_for_pue_1e300"
printf 'time,watts\n0,5\n1,5\0000\n2,50\n' > $T/nul.csv
case_ "trace/nul_byte_inside_a_number_refused_by_line" 2 "nul.csv:3: a NUL byte: a trace is text" "$JC" trace $T/nul.csv --scope wall
{ head -1 $CC; sed -n 2p $CC | sed 's/,123\.48/,12\x003.48/'; } > $T/ccnul.csv
case_ "calibrate/nul_byte_in_a_measurement_refused_by_line" 2 "ccnul.csv:2: a NUL byte: a measurement file is text" "$JC" calibrate $T/ccnul.csv models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib_nul.yaml
sed 's/Duration: 0:01:40.00/Duration: -0:01:40.00/' tests/data/traces/carbontracker.log > $T/ct_neg.log
case_ "trace/carbontracker_negative_duration_refused" 2 "ct_neg.log:4: duration ' -0:01:40.00' is negative" "$JC" trace $T/ct_neg.log
sed 's/Duration: 0:01:40.00/Duration: -1 day, 23:58:20/' tests/data/traces/carbontracker.log > $T/ct_neg2.log
case_ "trace/carbontracker_negative_python_timedelta_refused" 2 "ct_neg2.log:4: duration ' -1 day, 23:58:20' is negative" "$JC" trace $T/ct_neg2.log

# ---- 17: messages ----
gpu_layer $T/tdp hot-gpu Hot 5000.0001
case_ "messages/tdp_just_past_the_limit_shown_past_it" 5 "tdp_w = 5000.0001 W is out of range" "$JC" hw show hot-gpu --hwdb $T/tdp
printf 'model: models/resnet18.onnx\ndevice: a100\nrequests: 1000\nbogus_key: 5\n' > $T/badkey.yaml
case_ "messages/job_file_unknown_key_at_the_key" 2 "badkey.yaml:4:1: unknown key 'bogus_key'" "$JC" estimate $T/badkey.yaml
case_ "messages/compare_stdin_twice" 2 "standard input ('-') given twice" "$JC" compare - - < /dev/null
sed '2s/^2024-06-01/9999-99-99/' $CC > $T/cc_date.csv
case_ "calibrate/codecarbon_date_9999-99-99_refused_on_input" 2 "cc_date.csv:2: column 'timestamp': not a date YYYY-MM-DD" "$JC" calibrate $T/cc_date.csv models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib_date.yaml
[ ! -e $T/calib_date.yaml ] && echo "PASS calibrate/no_layer_written_for_date_9999-99-99" || echo "FAIL calibrate/no_layer_written_for_date_9999-99-99"
# --tp 32 --count 1e8 for 1,000 requests: it blamed a --host-power never given (16935a2), then ran
# 3,125,000 replicas whose wall time ended before one request did (exit 0); the cause named now
case_ "messages/serving_tp_32_count_1e8_names_the_idle_replicas" 2 "--count 100,000,000 at tp 32 x pp 1 makes 3,125,000 replicas of 8 running sequences, but 1,000 requests keep at most 125 replicas busy: give --count 4,000 or fewer, or more --requests (25,000,000 fill them)" "$JC" estimate --hf-config tests/serving/configs/llama-3.1-8b.json --generate --prompt-tokens 100 --output-tokens 100 --requests 1000 --concurrency 8 --device h100 --tp 32 --count 1e8
case_ "messages/serving_one_replica_for_one_request_still_runs" 0 "" "$JC" estimate --hf-config tests/serving/configs/llama-3.1-8b.json --generate --prompt-tokens 100 --output-tokens 100 --requests 1 --concurrency 8 --device h100 --tp 8 --count 8
case_ "calibrate/date_option_2024-13-45_refused_on_input" 2 "--date '2024-13-45' is not a date YYYY-MM-DD" "$JC" calibrate $CC models/resnet50.onnx --train --samples 1281167 --epochs 2 --batch 256 --region FR --out $T/calib_date2.yaml --date 2024-13-45

# ---- 14: invalid ONNX refused (exit 4) naming the node and the value; all ten were counted (exit 0) ----
case_ "onnx/ssa_two_nodes_write_one_value" 4 "node 'relu_b' (Relu): output 'y' is written by node 'relu_a' (Relu) too" "$JC" count $H/ssa_two_writers.onnx
case_ "onnx/graph_output_no_node_produces" 4 "graph output: 'ghost' is produced by no node" "$JC" count $H/output_unproduced.onnx
case_ "onnx/input_defined_nowhere" 4 "node 'add_undef' (Add): input 'nowhere' is defined nowhere" "$JC" count $H/input_undefined.onnx
case_ "onnx/subgraph_input_defined_nowhere" 4 "node 'else_relu' (Relu): input 'nowhere' is defined nowhere" "$JC" count $H/subgraph_input_undefined.onnx
case_ "onnx/matmul_of_strings" 4 "node 'mm_str' (MatMul): input 'a' is a string tensor" "$JC" count $H/matmul_string.onnx
case_ "onnx/gemm_inner_dims_disagree" 4 "node 'gemm_k' (Gemm): inner dimensions disagree: 'a' has 3 columns, 'b' 4 rows" "$JC" count $H/gemm_inner_mismatch.onnx
case_ "onnx/matmul_inner_dims_disagree" 4 "node 'mm_k' (MatMul): inner dimensions disagree" "$JC" count $H/matmul_inner_mismatch.onnx
case_ "onnx/gemm_alpha_nan" 4 "node 'gemm_nan' (Gemm): attribute 'alpha' is NaN" "$JC" count $H/gemm_alpha_nan.onnx
case_ "onnx/opset_2^63-1" 4 "opset_import: domain '' version 9223372036854775807 is outside 1..1000" "$JC" count $H/opset_int64max.onnx
case_ "onnx/no_opset_import" 4 "node 'relu_noopset' (Relu): the model imports no opset for the default ONNX domain" "$JC" count $H/opset_none.onnx
case_ "onnx/subgraph_reads_its_enclosing_graph" 0 "" "$JC" count $H/nested_if.onnx

# ---- 10: finite but absurd: hwdb fields bounded below, results bounded by physical plausibility ----
gpu_layer $T/slow slow-gpu Slow 500 '    peak_tflops: {fp16: {value: 1e-300, source: s1}}'
case_ "hwdb/peak_tflops_1e-300_refused_at_line_col" 5 "dev.yaml:10:33: device 'slow-gpu': peak_tflops.fp16 = 1e-300 TFLOPS is out of range (expected 0.001 <= peak_tflops.fp16" "$JC" estimate models/resnet18.onnx --device slow-gpu --hwdb $T/slow --requests 1000 --precision fp16
case_ "estimate/wall_time_over_a_century_names_its_inputs" 7 "is over a century: not a run to estimate; the inputs behind it: work.forward_flops 8,206,317,544 FLOP (models/resnet50.onnx, counted); requests 1e+15 (--requests)" "$JC" estimate models/resnet50.onnx --device a100 --requests 1e15
case_ "estimate/energy_beyond_any_country_names_its_inputs" 7 "the facility energy, 78,000,000,000,000 kWh, is more than any country uses in a year (10,000,000,000,000 kWh): not a run to estimate; the inputs behind it: devices 100,000,000 (--count)" "$JC" estimate --hours 1e5 --avg-power 5000 --count 1e8 --device a100
"$JC" estimate models/resnet18.onnx --device a100 --requests 1000 --json > $T/d1.json 2> /dev/null
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); r=d['results']['energy_facility_kwh']; r['central']=r['high']=1e308; json.dump(d,open(sys.argv[2],'w'))" $T/d1.json $T/d2.json
case_ "diff/energy_1e308_kWh_refused" 7 "d2.json: results.energy_facility_kwh is 1e+308 kWh, beyond what an estimate gives" "$JC" diff $T/d1.json $T/d2.json

# ---- 12: --hosts holds --count, one rule for a named host and a system class (no --host: one
# ---- 8-device server-8 held 100,000,000 A100s, exit 0) ----
case_ "hosts/class_hosts_1_count_1e8_refused" 2 "--count 100,000,000 exceeds the 8 devices of --hosts 1 x system class 'server-8' (8 each): give --hosts 12,500,000, or leave --hosts out" "$JC" estimate models/resnet50.onnx --device a100 --hosts 1 --count 1e8 --requests 1000
case_ "hosts/named_host_hosts_1_count_1e8_refused" 2 "--count 100,000,000 exceeds the 8 devices of --hosts 1 x nvidia-dgx-a100 (8 each): give --hosts 12,500,000, or leave --hosts out" "$JC" estimate models/resnet50.onnx --device a100 --host dgx-a100 --hosts 1 --count 1e8 --requests 1000
case_ "hosts/class_hosts_2_count_9_held" 0 "" "$JC" estimate models/resnet50.onnx --device a100 --hosts 2 --count 9 --requests 1000
grep -q "^host  *2 x system class 'server-8'" $T/out && echo "PASS hosts/class_hosts_2_count_9_two_servers" || echo "FAIL hosts/class_hosts_2_count_9_two_servers: $(grep '^host' $T/out)"
case_ "hosts/serving_class_hosts_1_count_16_refused" 2 "--count 16 exceeds the 8 devices of --hosts 1 x system class 'server-8'" "$JC" estimate --hf-config tests/serving/configs/llama-3.1-8b.json --generate --prompt-tokens 100 --output-tokens 100 --requests 1000 --concurrency 8 --device h100 --count 16 --hosts 1
case_ "hosts/training_class_hosts_1_count_64_refused" 2 "--count 64 exceeds the 8 devices of --hosts 1 x system class 'server-8'" "$JC" estimate --params 7e9 --tokens 1e9 --train --device h100 --count 64 --hosts 1
# ---- issue 39 (h39): --dp-overlap, where the data-parallel gradient all-reduce runs ----
case_ "train/dp_overlap_one_device_refused" 2 "--dp-overlap has no effect: the job has no data-parallel gradient all-reduce (one device" "$JC" estimate models/bert_large.onnx --dim sequence=128 --train --samples 1000 --epochs 1 --device l40s --count 1 --batch 16 --dp-overlap 0
case_ "train/dp_overlap_1.5_out_of_range" 2 "--dp-overlap must be in [0, 1]" "$JC" estimate models/bert_large.onnx --dim sequence=128 --train --samples 1000 --epochs 1 --device l40s --count 2 --batch 16 --dp-overlap 1.5
case_ "train/dp_overlap_inference_refused" 2 "--dp-overlap is a training option" "$JC" estimate models/bert_large.onnx --dim sequence=128 --device l40s --dp-overlap 0.5
# a MODEL.onnx data-parallel training job rings at its --host's fabric: Dell's R760xa joins its two GPU pairs through the CPUs at 10 GB/s (hwdb dell-r760xa-l40s), not the L40S's own 32 GB/s PCIe link (the overhead, 0.4291 of the wall time, includes the ring's NCCL-model latency, coll_latency.c)
# a data-parallel degree beyond the global batch: replicas without a sample (jci_dp_batch_check, each path)
case_ "train/dp_beyond_batch_model_onnx" 2 "training: a global batch of 2 samples per step is fewer than the 8 data-parallel replicas (8 devices / (tp 1 x pp 1))" "$JC" estimate models/resnet18.onnx --train --batch 2 --samples 64 --device a100 --count 8
case_ "train/dp_beyond_batch_6nd_tp" 2 "a global batch of 4 samples per step is fewer than the 8 data-parallel replicas (16 devices / (tp 2 x pp 1))" "$JC" estimate --train --params 1e9 --tokens 1e9 --utilization 0.4 --batch 4 --seq 2048 --device a100 --count 16 --tp 2 --hidden 2048
case_ "train/dp_beyond_batch_step_model" 2 "a global batch of 4 sequences per step is fewer than the 16 data-parallel replicas (16 devices / (tp 1 x pp 1))" "$JC" estimate --train --params 402653184 --layers 2 --hidden 4096 --heads 32 --seq 2048 --batch 4 --tokens 81920 --device a100 --count 16 --tp 1
case_ "train/dp_at_batch_runs" 0 "" "$JC" estimate models/resnet18.onnx --train --batch 8 --samples 64 --device a100 --count 8
# a global batch that leaves a replica fewer samples than its --micro-batches: empty micro-batches (the same rule, each path)
case_ "train/micro_batches_beyond_replica_batch_6nd" 2 "training: a global batch of 1,024 samples per step over the 64 data-parallel replicas (2,048 devices / (tp 8 x pp 4)) is 16 samples per replica, fewer than its 32 micro-batches (--micro-batches): some micro-batches would take no sample; give --batch 2,048 or more, --micro-batches 16 or fewer" "$JC" estimate --train --params 7e10 --tokens 2e12 --utilization 0.5 --batch 1024 --seq 4096 --tp 8 --hidden 8192 --pp 4 --micro-batches 32 --device a100 --count 2048
case_ "train/micro_batches_beyond_replica_batch_step_model" 2 "training: a global batch of 16 sequences per step over the 4 data-parallel replicas (8 devices / (tp 1 x pp 2)) is 4 sequences per replica, fewer than its 8 micro-batches (--micro-batches)" "$JC" estimate --train --params 402653184 --layers 2 --hidden 4096 --heads 32 --seq 2048 --batch 16 --tokens 81920 --device a100 --count 8 --tp 1 --pp 2 --micro-batches 8
case_ "train/micro_batches_at_replica_batch_runs" 0 "" "$JC" estimate --train --params 7e10 --tokens 2e12 --utilization 0.5 --batch 1024 --seq 4096 --tp 8 --hidden 8192 --pp 4 --micro-batches 16 --device a100 --count 2048
# the joules-per-op method with a --power-limit that sets no clock (--utilization): checked against the device's range, and said to have no effect
case_ "estimate/jop_utilization_power_limit_20_refused" 2 "--power-limit 20 W is outside what nvidia-a100-sxm4-40gb accepts (46-400 W" "$JC" estimate --flops 1e18 --utilization 0.4 --method joules-per-op --device nvidia-a100-sxm4-40gb --power-limit 20
case_ "estimate/jop_utilization_power_limit_250_runs" 0 "" "$JC" estimate --flops 1e18 --utilization 0.4 --method joules-per-op --device nvidia-a100-sxm4-40gb --power-limit 250
W="--power-limit 250 W has no effect on this joules-per-op estimate: the method charges energy per operation, and the run's time does not depend on the limit (--utilization sets it); its energy averages up to 266.7 W per device, more than a device capped at 250 W draws"
grep -qF -- "$W" $T/out && echo "PASS estimate/jop_utilization_power_limit_250_no_effect_said" || echo "FAIL estimate/jop_utilization_power_limit_250_no_effect_said: $(grep -F -- '--power-limit' $T/out | head -c 300)"
case_ "train/host_fabric_r760xa" 0 "" "$JC" estimate models/bert_large.onnx --dim sequence=256 --train --samples 2400288 --epochs 1 --batch 176 --device nvidia-l40s --count 4 --host dell-r760xa-l40s --dp-overlap 0
grep -q "^  host.scaleup_gbs  *10  *GB/s  *hwdb" $T/out && grep -q "^  parallel.overhead  *0.4291 " $T/out && echo "PASS train/host_fabric_r760xa_ring_at_10_gbs" || echo "FAIL train/host_fabric_r760xa_ring_at_10_gbs: $(grep 'scaleup_gbs\|parallel.overhead' $T/out | head -c 300)"
