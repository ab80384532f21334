#!/bin/sh
# traces.sh - time and memory of `joulecast trace` on a generated
# nvidia-smi --query-gpu CSV of 10^6 samples (two GPUs interleaved, 1 s
# apart, with units), against baselines over the same file in the same
# run: `wc -l` (reading the bytes) and an awk sum of the power column (a
# minimal parser).  Memory: max RSS (/usr/bin/time) on 10^4 and 10^6
# samples; a streamed reader keeps it flat.  Median of REPS runs.  Writes
# Markdown to build/bench/traces.md.  JC=path/to/joulecast, REPS=5, N=1000000.
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-build/joulecast}
REPS=${REPS:-5}
N=${N:-1000000}
B=build/bench
mkdir -p "$B"
gen() {  # samples, file
  awk -v n="$1" 'BEGIN {
    print "timestamp, index, name, power.draw [W], utilization.gpu [%], utilization.memory [%]"
    for (i = 0; i < n; i++) {
      s = int(i / 2); g = i % 2
      t = 1717243200 + s
      w = (s % 600 < 30) ? 55.5 : 250 + (s % 7) * 10 + g
      u = (s % 600 < 30) ? 0 : 90
      printf "%s, %d, NVIDIA A100-SXM4-40GB, %.2f W, %d %%, %d %%\n", strftime("%Y/%m/%d %H:%M:%S.000", t, 1), g, w, u, u / 2
    }
  }' > "$2"
}
[ -s "$B/trace-1e6.csv" ] && [ "$(wc -l < "$B/trace-1e6.csv")" -eq $((N + 1)) ] || gen "$N" "$B/trace-1e6.csv"
[ -s "$B/trace-1e4.csv" ] || gen 10000 "$B/trace-1e4.csv"
ms() {  # median wall ms of REPS runs of "$@"
  for r in $(seq "$REPS"); do
    a=$(date +%s%N); "$@" > /dev/null 2>&1; b=$(date +%s%N)
    echo $(((b - a) / 1000000))
  done | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
cpu() {  # median user+sys CPU ms of REPS runs (the machine may be shared: wall time includes waiting)
  for r in $(seq "$REPS"); do
    /usr/bin/time -f '%U %S' "$@" 2>&1 > /dev/null | tail -n 1
  done | awk '{print int(($1 + $2) * 1000)}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
rss() { /usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -n 1; }
F="$B/trace-1e6.csv"
t_wc=$(ms wc -l "$F")
t_awk=$(ms awk -F', ' 'NR > 1 { sub(/ W/, "", $4); s += $4 } END { print s }' "$F")
t_jc=$(ms "$JC" trace "$F")
c_wc=$(cpu wc -l "$F")
c_awk=$(cpu awk -F', ' 'NR > 1 { sub(/ W/, "", $4); s += $4 } END { print s }' "$F")
c_jc=$(cpu "$JC" trace "$F")
m4=$(rss "$JC" trace "$B/trace-1e4.csv")
m6=$(rss "$JC" trace "$F")
size=$(du -m "$F" | cut -f1)
{
  echo "## Power trace integration (bench/traces.sh, $(date -u +%Y-%m-%d))"
  echo
  echo "nvidia-smi CSV, $N samples (2 GPUs x $((N / 2)) s), $size MB; median of $REPS runs."
  echo
  echo "| command | wall ms | CPU ms (user + sys) |"
  echo "|---|---:|---:|"
  echo "| wc -l | $t_wc | $c_wc |"
  echo "| awk sum of power.draw | $t_awk | $c_awk |"
  echo "| joulecast trace | $t_jc | $c_jc |"
  echo
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| joulecast trace, max RSS | KiB |"
  echo "|---|---:|"
  echo "| 10^4 samples | $m4 |"
  echo "| $N samples | $m6 |"
} | tee "$B/traces.md"
