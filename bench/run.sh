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
  cc -O2 -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Iinclude bench/$p.c "$LIB" $LIBS -o $B/$p
done

# ---- models -------------------------------------------------------------------
R50=$B/resnet50.full.onnx
[ -f $R50 ] || $PY models/export.py --only resnet50 --full --out $B >/dev/null
[ -f $B/bert_large.full.onnx ] || nice -n 19 $PY bench/gen_models.py --out $B transformer
[ -f $B/llama70b.onnx ] || $PY bench/gen_models.py --out $B llm
[ -f $B/nas/cand_0999.onnx ] || $PY bench/gen_models.py --out $B nas
[ -f $B/chain_100000.onnx ] || $PY bench/gen_models.py --out $B chain
[ -f $B/huge_sparse.onnx ] || $PY bench/gen_models.py --out $B sparse

# measure REPS CMD...: prints "median_seconds max_rss_kb"
measure() {
  n=$1; shift
  : > $B/times
  i=0
  while [ $i -lt $n ]; do
    t0=$(date +%s%N)
    /usr/bin/time -f "%M" -o $B/one "$@" > /dev/null 2> $B/err || { echo "bench: failed: $*" >&2; cat $B/err >&2; exit 1; }
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 )) $(tail -n 1 $B/one)" | awk '{ printf "%.6f %s\n", $1 / 1e6, $2 }' >> $B/times
    i=$((i + 1))
  done
  sort -n $B/times | awk -v n=$n 'NR == int((n + 1) / 2) { t = $1 } { if ($2 > m) m = $2 } END { printf "%s %s\n", t, m }'
}

row() {  # label seconds kb python_seconds naive_seconds
  awk -v l="$1" -v t="$2" -v k="$3" -v pt="$4" -v nt="$5" 'BEGIN {
    f = "%.1fx"
    printf "| %s | %.4f | %.1f | %s | %s |\n", l, t, k / 1024,
      (pt == "-" ? "n/a" : sprintf(f, pt / t)), (nt == "-" ? "n/a" : sprintf(f, nt / t)) }'
}

PYLOAD='import onnx,sys; m = onnx.load(sys.argv[1]); onnx.shape_inference.infer_shapes(m)'
PYLOAD_NOEXT='import onnx,sys; m = onnx.load(sys.argv[1], load_external_data=False); onnx.shape_inference.infer_shapes(m)'

# file_table TITLE FILE REPS BASELINES(py|pyext|none) ESTIMATE-ARGS...
file_table() {
  title=$1; f=$2; n=$3; base=$4; shift 4
  size=$(stat -c %s "$f")
  pt=-; nt=-
  {
    echo "### $title ($(awk -v s=$size 'BEGIN { printf "%.1f MB", s / 1e6 }'))"
    echo
    echo "Median of $n runs; peak RSS is the maximum over the runs. Speed-up = baseline time / this time."
    echo
    echo "| command | wall s | peak RSS MiB | vs python onnx.load+infer_shapes | vs naive unpack |"
    echo "|---|---|---|---|---|"
  } >> $B/results.md
  case $base in
    py|pyext)
      code=$PYLOAD; [ $base = pyext ] && code=$PYLOAD_NOEXT
      set -- "$@"
      r=$(measure $n $PY -c "$code" "$f"); pt=${r% *}; pk=${r#* }
      r=$(measure $n $B/naive_unpack "$f"); nt=${r% *}; nk=${r#* }
      row "python3 onnx.load + infer_shapes" $pt $pk $pt $nt >> $B/results.md
      row "naive protobuf-c unpack" $nt $nk $pt $nt >> $B/results.md ;;
  esac
  r=$(measure $n $JC inspect "$f"); row "joulecast inspect" ${r% *} ${r#* } $pt $nt >> $B/results.md
  r=$(measure $n $JC count "$f" $COUNT_ARGS); row "joulecast count" ${r% *} ${r#* } $pt $nt >> $B/results.md
  r=$(measure $n $JC estimate "$f" $COUNT_ARGS "$@"); row "joulecast estimate" ${r% *} ${r#* } $pt $nt >> $B/results.md
  echo >> $B/results.md
}

: > $B/results.md
{
  echo "## Run of $(date -u +%Y-%m-%d) on $(nproc) cores, $(uname -m)"
  echo
  echo "Load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (machine shared with other jobs)."
  echo
} >> $B/results.md
EST="--device a100 --region US-CA --requests 1000000"
COUNT_ARGS="--batch 1"
file_table "ResNet-50 with weights inside" $R50 $REPS py $EST
file_table "BERT-large (24 x 1024) with weights inside" $B/bert_large.full.onnx $BIG_REPS py $EST
COUNT_ARGS="--batch 1 --dim sequence=2048"
file_table "Llama-7B shapes, 32 layers, external weights absent" $B/llama7b.onnx $REPS pyext $EST
file_table "Llama-70B shapes, 80 layers, external weights absent" $B/llama70b.onnx $REPS pyext $EST
COUNT_ARGS="--batch 1"
file_table "Sparse 2.2 GB ModelProto (beyond protobuf's 2 GB limit: no baseline)" $B/huge_sparse.onnx $REPS none $EST

# ---- 1,000 small models ------------------------------------------------------------
ls $B/nas/*.onnx > $B/nas.list
nmod=$(wc -l < $B/nas.list)
t0=$(date +%s%N); while read -r f; do $JC --version > /dev/null; done < $B/nas.list; t1=$(date +%s%N)
floor=$(( (t1 - t0) / 1000 ))
t0=$(date +%s%N); while read -r f; do $JC count "$f" --batch 1 > /dev/null; done < $B/nas.list; t1=$(date +%s%N)
perproc=$(( (t1 - t0) / 1000 ))
set -- $(xargs $B/batch < $B/nas.list); inproc=$3; bfail=$2
{
  echo "### $nmod small generated CNNs (bench/gen_models.py nas), count at batch 1"
  echo
  echo "| how | wall s | models/s |"
  echo "|---|---|---|"
  awk -v n=$nmod -v a=$floor -v b=$perproc -v c=$inproc 'BEGIN {
    printf "| process floor: \`joulecast --version\` once per model | %.3f | %.0f |\n", a / 1e6, n / (a / 1e6)
    printf "| \`joulecast count F --batch 1\` once per model | %.3f | %.0f |\n", b / 1e6, n / (b / 1e6)
    printf "| one process, library loop (bench/batch.c: load, analyze, JSON report) | %.3f | %.0f |\n", c, n / c }'
  echo
  echo "Failed in the library loop: $bfail."
  echo
} >> $B/results.md

# ---- scale: 10,000 vs 100,000 nodes ----------------------------------------------------
{
  echo "### Graph size: 10,000 vs 100,000 nodes (MatMul/Add/Relu/LayerNorm chain)"
  echo
  echo "| file | nodes | command | wall s | peak RSS MiB |"
  echo "|---|---|---|---|---|"
} >> $B/results.md
for n in 10000 100000; do
  for c in inspect count; do
    extra=""; [ $c = count ] && extra="--batch 1"
    r=$(measure $REPS $JC $c $B/chain_$n.onnx $extra)
    awk -v n=$n -v c=$c -v t=${r% *} -v k=${r#* } -v s=$(stat -c %s $B/chain_$n.onnx) 'BEGIN {
      printf "| chain_%d.onnx (%.1f MB) | %d | %s | %.4f | %.1f |\n", n, s / 1e6, n, c, t, k / 1024 }' >> $B/results.md
  done
done
echo >> $B/results.md

# ---- hwdb share ----------------------------------------------------------------------------
set -- $($B/hwdb_share hwdb models/resnet50.onnx 20)
awk -v h=$1 -v e=$2 'BEGIN {
  printf "### hwdb load as a share of an estimate run\n\n"
  printf "Mean of 20 in-process runs (bench/hwdb_share.c, ResNet-50 graph-only, A100, US-CA): "
  printf "hwdb load %.1f ms, whole estimate %.1f ms: the hwdb load is %.0f%% of the run.\n\n", h * 1e3, e * 1e3, 100 * h / e }' >> $B/results.md

# ---- sweep ------------------------------------------------------------------------------------
if $JC help sweep > /dev/null 2>&1; then
  r=$(measure $REPS $JC sweep models/resnet50.onnx --batch 1 --requests 1000000)
  {
    echo "### sweep over every device x every region, ResNet-50"
    echo
    awk -v t=${r% *} -v k=${r#* } 'BEGIN { printf "`joulecast sweep models/resnet50.onnx --batch 1 --requests 1000000`: %.3f s, peak RSS %.1f MiB (median of runs).\n", t, k / 1024 }'
    echo
  } >> $B/results.md
fi
cat $B/results.md
