#!/bin/sh
# run.sh - joulecast's benchmarks (`make bench`).  Every figure is compared
# with baselines measured in the same run on the same files, never with an
# absolute threshold: wall time (median of REPS runs, date +%s%N around
# the command) and peak resident memory (max RSS from /usr/bin/time,
# maximum over the runs) of
#   python3 onnx.load + shape_inference.infer_shapes   (Debian python3-onnx)
#   naive_unpack      (protobuf-c unpack of the whole ModelProto)
#   joulecast inspect / count / estimate
# on: the ~100 MB ResNet-50 with its weights inside, a ~1.3 GB BERT-large
# export with its weights inside, Llama-7B and Llama-70B shaped decoders
# whose weights are external and absent, a sparse 2.2 GB ModelProto, then
# models/second over 1,000 small generated CNNs (per process and in one
# process through the library: bench/batch.c), 10,000 vs 100,000-node
# graphs, the hwdb's share of an estimate run (bench/hwdb_share.c) and,
# when the command exists, `joulecast sweep` over every device and cloud
# region.  Models are generated into build/bench/ by models/export.py and
# bench/gen_models.py (never committed).  Writes Markdown to
# build/bench/results.md; copy it into bench/RESULTS.md with new figures.
#   JC=path/to/joulecast LIB=path/to/libjoulecast.a   another build
#   REPS=5 (small files), BIG_REPS=3 (files over 500 MB)
#   ONLY=hwdb, ONLY=sweep, ONLY=montecarlo, ONLY=web or ONLY=weights   that section alone (no model generation);
#   montecarlo: bench/montecarlo.sh, 10,000 draws against one estimate (issue 45);
#   web: bench/web.py, the WebAssembly page in headless Chromium (make web);
#   weights: count on a 1 GB file within 2x of the graph alone
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
REPS=${REPS:-5}
BIG_REPS=${BIG_REPS:-3}
JC=${JC:-build/joulecast}
LIB=${LIB:-build/libjoulecast.a}
B=build/bench
mkdir -p $B
PY=/usr/bin/python3
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)"; exit 1; }
LIBS="$(pkg-config --libs libprotobuf-c yaml-0.1 libcjson) -lm"
GEN=$(dirname "$LIB")/gen
[ -f $GEN/onnx.pb-c.c ] || GEN=build/gen
cc -O2 -std=c11 -I$GEN bench/naive_unpack.c $GEN/onnx.pb-c.c -o $B/naive_unpack -lprotobuf-c
for p in batch hwdb_share; do
  cc -O2 -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Iinclude -Isrc bench/$p.c "$LIB" $LIBS -o $B/$p
done

want() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }

# ---- models -------------------------------------------------------------------
if want files; then
R50=$B/resnet50.full.onnx
[ -f $R50 ] || $PY models/export.py --only resnet50 --full --out $B >/dev/null
[ -f $B/bert_large.full.onnx ] || nice -n 19 $PY bench/gen_models.py --out $B transformer
[ -f $B/llama70b.onnx ] || $PY bench/gen_models.py --out $B llm
[ -f $B/nas/cand_0999.onnx ] || $PY bench/gen_models.py --out $B nas
[ -f $B/chain_100000.onnx ] || $PY bench/gen_models.py --out $B chain
[ -f $B/huge_sparse.onnx ] || $PY bench/gen_models.py --out $B sparse
fi

# measure REPS CMD...: prints "median_wall_s median_cpu_s max_rss_kb".  CPU
# time (task-clock from perf stat, ms resolution) is the figure that does
# not depend on what else the machine runs; without perf it is "-".
HAVE_PERF=0
perf stat -x, -e task-clock -o $B/cpu true > /dev/null 2>&1 && HAVE_PERF=1
measure() {
  n=$1; shift
  : > $B/times
  i=0
  while [ $i -lt $n ]; do
    t0=$(date +%s%N)
    if [ $HAVE_PERF = 1 ]; then
      perf stat -x, -e task-clock -o $B/cpu /usr/bin/time -f "%M" -o $B/one "$@" > /dev/null 2> $B/err ||
        { echo "bench: failed: $*" >&2; cat $B/err >&2; exit 1; }
      cpu=$(awk -F, '/task-clock/ { print $1 / 1000 }' $B/cpu)
    else
      /usr/bin/time -f "%M" -o $B/one "$@" > /dev/null 2> $B/err || { echo "bench: failed: $*" >&2; cat $B/err >&2; exit 1; }
      cpu=-
    fi
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 )) $cpu $(tail -n 1 $B/one)" | awk '{ printf "%.6f %s %s\n", $1 / 1e6, $2, $3 }' >> $B/times
    i=$((i + 1))
  done
  w=$(sort -n $B/times | awk -v n=$n 'NR == int((n + 1) / 2) { print $1 }')
  c=$(sort -k2,2n $B/times | awk -v n=$n 'NR == int((n + 1) / 2) { print $2 }')
  k=$(awk '{ if ($3 > m) m = $3 } END { print m }' $B/times)
  echo "$w $c $k"
}

# row LABEL "wall cpu kb" "python wall cpu kb" "naive wall cpu kb": speed-ups
# on wall time and on CPU time
row() {
  echo "$1|$2|$3|$4" | awk -F'|' '{
    split($2, r, " "); split($3, p, " "); split($4, q, " ")
    printf "| %s | %.4f | %s | %.1f |", $1, r[1], (r[2] == "-" ? "-" : sprintf("%.4f", r[2])), r[3] / 1024
    for (k = 0; k < 2; k++) {
      if (k == 0) { bw = p[1]; bc = p[2] } else { bw = q[1]; bc = q[2] }
      if (bw == "" || bw == "-") { printf " n/a |"; continue }
      s = sprintf("%.1fx wall", bw / r[1])
      if (r[2] != "-" && r[2] > 0) s = s sprintf(", %.1fx CPU", bc / r[2])
      printf " %s |", s
    }
    printf "\n" }'
}

PYLOAD='import onnx,sys; m = onnx.load(sys.argv[1]); onnx.shape_inference.infer_shapes(m)'
PYLOAD_NOEXT='import onnx,sys; m = onnx.load(sys.argv[1], load_external_data=False); onnx.shape_inference.infer_shapes(m)'

# file_table TITLE FILE REPS BASELINES(py|pyext|none) ESTIMATE-ARGS...
file_table() {
  title=$1; f=$2; n=$3; base=$4; shift 4
  size=$(stat -c %s "$f")
  pr=-; nr=-
  {
    echo "### $title ($(awk -v s=$size 'BEGIN { printf "%.1f MB", s / 1e6 }'))"
    echo
    echo "Median of $n runs (wall and CPU separately); peak RSS is the maximum over the runs."
    echo "Speed-up = baseline time / this time."
    echo
    echo "| command | wall s | CPU s | peak RSS MiB | vs python onnx.load+infer_shapes | vs naive unpack |"
    echo "|---|---|---|---|---|---|"
  } >> $B/results.md
  case $base in
    py|pyext)
      code=$PYLOAD; [ $base = pyext ] && code=$PYLOAD_NOEXT
      pr=$(measure $n $PY -c "$code" "$f")
      nr=$(measure $n $B/naive_unpack "$f")
      row "python3 onnx.load + infer_shapes" "$pr" "$pr" "$nr" >> $B/results.md
      row "naive protobuf-c unpack" "$nr" "$pr" "$nr" >> $B/results.md ;;
  esac
  row "joulecast inspect" "$(measure $n $JC inspect "$f")" "$pr" "$nr" >> $B/results.md
  row "joulecast count" "$(measure $n $JC count "$f" $COUNT_ARGS)" "$pr" "$nr" >> $B/results.md
  row "joulecast estimate" "$(measure $n $JC estimate "$f" $COUNT_ARGS "$@")" "$pr" "$nr" >> $B/results.md
  echo >> $B/results.md
}

: > $B/results.md
{
  echo "## Run of $(date -u +%Y-%m-%d) on $(nproc) cores, $(uname -m)"
  echo
  echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (machine shared with other jobs)."
  echo
} >> $B/results.md
if want files; then
EST="--device a100 --region US-CA --requests 1000000"
COUNT_ARGS="--batch 1"
file_table "ResNet-50 with weights inside" $R50 $REPS py $EST
# BERT's inputs are [batch, sequence]: the estimate refuses a partial count,
# so the sequence is bound (128 tokens) for count and estimate alike
COUNT_ARGS="--batch 1 --dim sequence=128"
file_table "BERT-large (24 x 1024) with weights inside" $B/bert_large.full.onnx $BIG_REPS py $EST
COUNT_ARGS="--batch 1"
COUNT_ARGS="--batch 1 --dim sequence=2048"
file_table "Llama-7B shapes, 32 layers, external weights absent" $B/llama7b.onnx $REPS pyext $EST
file_table "Llama-70B shapes, 80 layers, external weights absent" $B/llama70b.onnx $REPS pyext $EST
COUNT_ARGS="--batch 1"
file_table "Sparse 2.2 GB ModelProto (beyond protobuf's 2 GB limit: no baseline)" $B/huge_sparse.onnx $REPS none $EST

# ---- 1,000 small models ------------------------------------------------------------
ls $B/nas/*.onnx > $B/nas.list
nmod=$(wc -l < $B/nas.list)
# loop LABEL CMD-PREFIX: runs "CMD-PREFIX FILE" for every model in one sh
# loop; appends "label wall_s cpu_s" (cpu "-" without perf)
loop() {
  label=$1; shift
  t0=$(date +%s%N)
  if [ $HAVE_PERF = 1 ]; then
    perf stat -x, -e task-clock -o $B/cpu sh -c 'c=$1; shift; while read -r f; do $c "$f" "$@" > /dev/null || exit 1; done < '$B/nas.list _ "$@"
    cpu=$(awk -F, '/task-clock/ { print $1 / 1000 }' $B/cpu)
  else
    sh -c 'c=$1; shift; while read -r f; do $c "$f" "$@" > /dev/null || exit 1; done < '$B/nas.list _ "$@"
    cpu=-
  fi
  t1=$(date +%s%N)
  echo "$label|$(( (t1 - t0) / 1000 ))|$cpu" >> $B/loops
}
: > $B/loops
loop "process floor: \`joulecast --version\` once per model" "$JC --version"
loop "\`joulecast count F --batch 1\` once per model" "$JC count" --batch 1
set -- $(xargs $B/batch < $B/nas.list); inproc=$3; bfail=$2; inproc_cpu=$4
echo "one process, library loop (bench/batch.c: load, analyze, JSON report)|$(awk -v t=$inproc 'BEGIN { printf "%d", t * 1e6 }')|$inproc_cpu" >> $B/loops
{
  echo "### $nmod small generated CNNs (bench/gen_models.py nas), count at batch 1"
  echo
  echo "models/s = models / time; CPU time is robust to other jobs on the machine, wall time is not."
  echo
  echo "| how | wall s | models/s (wall) | CPU s | models/s (CPU) |"
  echo "|---|---|---|---|---|"
  awk -F'|' -v n=$nmod '{
    w = $2 / 1e6
    printf "| %s | %.3f | %.0f | %s | %s |\n", $1, w, n / w, $3, ($3 == "-" || $3 == 0) ? "-" : sprintf("%.0f", n / $3) }' $B/loops
  echo
  echo "Failed in the library loop: $bfail."
  echo
} >> $B/results.md

# ---- scale: 10,000 vs 100,000 nodes ----------------------------------------------------
{
  echo "### Graph size: 10,000 vs 100,000 nodes (MatMul/Add/Relu/LayerNorm chain)"
  echo
  echo "| file | nodes | command | wall s | CPU s | peak RSS MiB |"
  echo "|---|---|---|---|---|---|"
} >> $B/results.md
for n in 10000 100000; do
  for c in inspect count; do
    extra=""; [ $c = count ] && extra="--batch 1"
    set -- $(measure $REPS $JC $c $B/chain_$n.onnx $extra)
    awk -v n=$n -v c=$c -v t=$1 -v u=$2 -v k=$3 -v s=$(stat -c %s $B/chain_$n.onnx) 'BEGIN {
      printf "| chain_%d.onnx (%.1f MB) | %d | %s | %.4f | %s | %.1f |\n", n, s / 1e6, n, c, t, u, k / 1024 }' >> $B/results.md
  done
done
echo >> $B/results.md
fi

# ---- hwdb share ----------------------------------------------------------------------------
# (a) in process: the load alone, each way, and the whole estimate pipeline
# (b) whole `joulecast estimate` processes, with the snapshot and with
#     JOULECAST_HWDB_SNAPSHOT=off, and the first open in a fresh process
#     as `hwdb info` times it
if want hwdb; then
SNAP=$(dirname $JC)/hwdb.snap
[ -f $SNAP ] || $JC hwdb snapshot hwdb -o $SNAP > /dev/null
$B/hwdb_share hwdb $SNAP models/resnet50.onnx 50 > $B/hwdb_share.txt
EST="estimate models/resnet50.onnx --device a100 --region US-CA --requests 1000000"
# mean wall of N back-to-back runs (fork + exec included, no wrapper)
loop_s() {
  n=$1; shift
  t0=$(date +%s%N); i=0
  while [ $i -lt $n ]; do "$@" > /dev/null || exit 1; i=$((i + 1)); done
  t1=$(date +%s%N)
  echo "($t1 - $t0) / $n / 1000000000" | bc -l
}
N_CLI=$((REPS * 10))
cli_snap=$(loop_s $N_CLI $JC $EST)
cli_yaml=$(loop_s $N_CLI env JOULECAST_HWDB_SNAPSHOT=off $JC $EST)
cli_snap2=$(loop_s $N_CLI $JC $EST)
cli_snap=$(echo "($cli_snap + $cli_snap2) / 2" | bc -l)
cold=0; i=0
while [ $i -lt $REPS ]; do
  t=$($JC hwdb info | sed -n 's/^state .*opened in \([0-9.]*\) ms.*/\1/p')
  [ -n "$t" ] || { echo "bench: the snapshot $SNAP is not used (joulecast hwdb info)" >&2; exit 1; }
  cold=$(echo "$cold + $t" | bc -l); i=$((i + 1))
done
cold=$(echo "$cold / $REPS / 1000" | bc -l)
set -- $(JOULECAST_LIB=$(dirname $LIB)/libjoulecast.so $PY bench/py_estimate_loop.py 50)
py_snap=$1; py_yaml=$2
# the bundled hwdb as the loader reads it: its YAML files and their bytes
hw_files=$(find hwdb -name '*.yaml' | wc -l)
hw_bytes=$(find hwdb -name '*.yaml' -exec cat {} + | wc -c)
awk -v cs=$cli_snap -v cy=$cli_yaml -v cold=$cold -v reps=$N_CLI -v pys=$py_snap -v pyy=$py_yaml \
    -v nf=$hw_files -v nb=$hw_bytes '
  { w[$1] = $2; c[$1] = $3 }
  END {
    printf "### hwdb load as a share of an estimate run\n\n"
    printf "ResNet-50 (graph only), inference on an A100 in US-CA, text report.  The bundled hwdb is %d YAML files (%.1f MB); `make` writes its snapshot build/hwdb.snap (src/hwdb/snapshot.c), which runs use while the YAML is unchanged.\n\n", nf, nb / 1e6
    printf "Whole `joulecast estimate` processes (mean wall of %d back-to-back runs each way, fork and exec included, the snapshot runs before and after the YAML runs; the snapshot open is the mean first open in a fresh process, from `joulecast hwdb info`):\n\n", reps
    printf "| hwdb loaded by | hwdb load | whole run | share |\n|---|---|---|---|\n"
    printf "| snapshot, mapped in place | %.3f ms | %.2f ms | %.0f%% |\n", cold * 1e3, cs * 1e3, 100 * cold / cs
    printf "| YAML parse (JOULECAST_HWDB_SNAPSHOT=off) | %.2f ms | %.2f ms | %.0f%% |\n\n", w["yaml"] * 1e3, cy * 1e3, 100 * w["yaml"] / cy
    printf "In process (bench/hwdb_share.c, means of 50 interleaved rounds; CPU time):\n\n"
    printf "| | CPU time | vs YAML |\n|---|---|---|\n"
    printf "| hwdb load: YAML parse | %.3f ms | 1x |\n", c["yaml"] * 1e3
    printf "| hwdb load: snapshot mapped in place | %.3f ms | %.0fx faster |\n", c["mapped"] * 1e3, c["yaml"] / c["mapped"]
    printf "| hwdb load: snapshot read and relocated | %.3f ms | %.0fx faster |\n", c["reloc"] * 1e3, c["yaml"] / c["reloc"]
    printf "| estimate pipeline with the YAML parse | %.3f ms | hwdb %.0f%% of it |\n", c["est_yaml"] * 1e3, 100 * c["yaml"] / c["est_yaml"]
    printf "| estimate pipeline with the snapshot | %.3f ms | hwdb %.0f%% of it |\n\n", c["est_snap"] * 1e3, 100 * c["mapped"] / c["est_snap"]
    printf "From Python (bench/py_estimate_loop.py: one `joulecast.estimate()` call, tiny_cnn inference, mean of 50): %.2f ms with the snapshot, %.2f ms parsing the YAML each call (%.0fx).\n\n", pys, pyy, pyy / pys
  }' $B/hwdb_share.txt >> $B/results.md
fi

# ---- weights are never read: count on a 1 GB file vs the same graph alone -------------------
# bench/gen_weights.py writes both into a temporary folder (removed after);
# the guard: count on the 1.07 GB file within 2x of the graph-only file's
# time, measured in the same run (issue 28 item 1: the model identity hashed
# every weight, 1 s per 100 MB).  --hash-weights, which reads every byte, is
# shown beside it.  Exits 1 when the guard fails.
if want weights; then
  WD=$(mktemp -d)
  trap 'rm -rf "$WD"' EXIT
  $PY bench/gen_weights.py $WD
  g=$(measure $REPS $JC count $WD/graph_only.onnx --batch 1)
  w=$(measure $REPS $JC count $WD/full.onnx --batch 1)
  e=$(measure $REPS $JC estimate $WD/full.onnx --batch 1 --device a100)
  h=$(measure $BIG_REPS $JC estimate $WD/full.onnx --batch 1 --device a100 --hash-weights)
  size=$(stat -c %s $WD/full.onnx)
  rm -rf "$WD"
  ratio=$(echo "$g|$w" | awk -F'|' '{ split($1, a, " "); split($2, b, " "); printf "%.2f", b[1] / a[1] }')
  {
    echo "### Weights are never read: a $(awk -v s=$size 'BEGIN { printf "%.2f GB", s / 1e9 }') file vs the same graph alone"
    echo
    echo "bench/gen_weights.py (a two-layer MLP, float32 weights inside vs external and absent). Median wall of the runs."
    echo
    echo "| command | wall s | CPU s | peak RSS MiB |"
    echo "|---|---|---|---|"
    for r in "count, graph only|$g" "count, weights inside|$w" "estimate, weights inside|$e" "estimate --hash-weights, weights inside|$h"; do
      echo "$r" | awk -F'|' '{ split($2, v, " "); printf "| %s | %.4f | %s | %.1f |\n", $1, v[1], v[2], v[3] / 1024 }'
    done
    echo
    echo "count with the weights inside / graph only: ${ratio}x (guard: at most 2x)."
    echo
  } >> $B/results.md
  if awk -v r=$ratio 'BEGIN { exit !(r > 2) }'; then
    echo "bench: count on a 1 GB file took ${ratio}x the graph-only file's time (guard: 2x): weights are being read" >&2
    cat $B/results.md
    exit 1
  fi
fi

# ---- sweep ------------------------------------------------------------------------------------
if want sweep && $JC help sweep > /dev/null 2>&1; then
  SW="sweep models/resnet50.onnx --batch 1 --requests 1000000 --devices all,cpu --regions cloud"
  set -- $(measure $REPS $JC $SW)
  $JC $SW --json > $B/sweep.json
  n=$($PY -c 'import json,sys,collections; j = json.load(open(sys.argv[1])); c = collections.Counter(s["reason"].split(" (")[0] for s in j["skipped"]); print(len(j["entries"]), len(j["skipped"]), "; ".join("%d: %s" % (v, k) for k, v in c.most_common(3)))' $B/sweep.json)
  {
    echo "### sweep over every device x every cloud region, ResNet-50"
    echo
    echo "$n" | awk -v t=$1 -v u=$2 -v k=$3 -v c="$SW" '{ r = $0; sub(/^[0-9]+ [0-9]+ /, "", r); printf "`joulecast %s`: %d entries estimated, %d skipped, each with its reason (%s); %.3f s wall, %s s CPU, peak RSS %.1f MiB (medians of runs).\n", c, $1, $2, r, t, u, k / 1024 }'
    echo
  } >> $B/results.md
fi
# ---- Monte Carlo draws against one estimate (bench/montecarlo.sh) ---------------------------
if want montecarlo; then
  {
    echo "### 10,000 Monte Carlo draws against one estimate, ResNet-50 90 epochs on 8 x A100 (CPU s per run)"
    echo
    sh bench/montecarlo.sh $REPS | sed 's/^/    /'
    echo
  } >> $B/results.md
fi
# ---- the WebAssembly page (bench/web.py; make web first) ---------------------------------------
if want web && [ -f web/joulecast.wasm ] && command -v chromium > /dev/null; then
  {
    echo "### web/index.html in headless Chromium, against the native CLI"
    echo
    $PY bench/web.py $REPS
    echo
  } >> $B/results.md
fi
cat $B/results.md
