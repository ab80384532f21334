#!/bin/sh
# run.sh - joulecast's benchmarks.  Every figure is a ratio against
# baselines measured in the same run on the same file, never an absolute
# threshold: wall time (median of REPS runs) and peak resident memory
# (max RSS from /usr/bin/time; wall time from date +%s%N around it) of
#   joulecast inspect / count     (this project)
#   naive_unpack                  (protobuf-c unpack of the whole ModelProto)
#   python3 onnx.load             (Debian's python3-onnx)
# Writes a Markdown table to build/bench/results.md; copy it into
# bench/RESULTS.md when committing new figures.
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
REPS=${REPS:-5}
B=build/bench
mkdir -p $B
PY=/usr/bin/python3
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)"; exit 1; }
cc -O2 -std=c11 -Ibuild/gen bench/naive_unpack.c build/gen/onnx.pb-c.c -o $B/naive_unpack -lprotobuf-c

R50=$B/resnet50.full.onnx
if [ ! -f $R50 ]; then
  echo "bench: exporting ResNet-50 with its weights inside ($R50)"
  $PY models/export.py --only resnet50 --full --out $B >/dev/null
  [ -f $R50 ] || { echo "bench: export did not produce $R50"; exit 1; }
fi

# measure NAME CMD...: prints "median_seconds max_rss_kb"
measure() {
  name=$1; shift
  : > $B/times
  i=0
  while [ $i -lt $REPS ]; do
    t0=$(date +%s%N)
    /usr/bin/time -f "%M" -o $B/one "$@" > /dev/null 2>&1 || { echo "bench: $name failed: $*" >&2; cat $B/one >&2; exit 1; }
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000 )) $(cat $B/one)" | awk '{ printf "%.6f %s\n", $1 / 1e6, $2 }' >> $B/times
    i=$((i + 1))
  done
  sort -n $B/times | awk -v n=$REPS 'NR == int((n + 1) / 2) { t = $1 } { if ($2 > m) m = $2 } END { printf "%s %s\n", t, m }'
}

row() {  # label, seconds, kb, base_seconds
  awk -v l="$1" -v t="$2" -v k="$3" -v bt="$4" -v nt="$5" 'BEGIN {
    printf "| %s | %.4f | %.1f | %s | %s |\n", l, t, k / 1024,
      (t > 0 ? sprintf("%.1fx", bt / t) : "n/a (below timer resolution)"),
      (t > 0 ? sprintf("%.1fx", nt / t) : "n/a") }'
}

size=$(stat -c %s $R50)
set -- $(measure python $PY -c "import onnx,sys; onnx.load(sys.argv[1])" $R50); py_t=$1; py_k=$2
set -- $(measure naive $B/naive_unpack $R50); nv_t=$1; nv_k=$2
set -- $(measure inspect build/joulecast inspect $R50); in_t=$1; in_k=$2
have_count=0
if build/joulecast help count >/dev/null 2>&1; then
  have_count=1
  set -- $(measure count build/joulecast count $R50 --dim batch=1); co_t=$1; co_k=$2
fi
{
  echo "### ResNet-50 with weights inside ($(awk -v s=$size 'BEGIN{printf "%.1f MB", s/1e6}'))"
  echo
  echo "Median of $REPS runs; peak RSS is the maximum over the runs. Speed-up = baseline time / this time."
  echo
  echo "| command | wall s | peak RSS MiB | vs python onnx.load | vs naive unpack |"
  echo "|---|---|---|---|---|"
  row "python3 onnx.load" $py_t $py_k $py_t $nv_t
  row "naive protobuf-c unpack" $nv_t $nv_k $py_t $nv_t
  row "joulecast inspect" $in_t $in_k $py_t $nv_t
  [ $have_count = 1 ] && row "joulecast count" $co_t $co_k $py_t $nv_t
  echo
  echo "Machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d)."
} | tee $B/results.md
