#!/bin/sh
# fuzz_opsweep.sh - `make fuzz-opsweep`: the randomised op sweep run seed
# after seed (tests/opsweep.sh with OPSWEEP_RANDOM=seed, 20,000 random
# models a seed) at nice 19 until FUZZ_SECONDS (default 600) of CPU time
# have been spent, generation included.  Each seed's CPU seconds (user +
# system of the sweep and its children) are appended to
# build/fuzz/cputime.tsv as target "opsweep", beside the libFuzzer
# targets' (tests/fuzz/run.sh).  A finding is kept in
# build/fuzz/artifacts/opsweep/ and stops the run with exit 1.
# Usage: sh tests/opsweep/fuzz_opsweep.sh [FIRST_SEED]   (default: the time)
set -u
cd "$(dirname "$0")/../.."
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
B=build/fuzz
mkdir -p $B/artifacts/opsweep
seed=${1:-$(date +%s)}
spent=0
while [ "$spent" -lt "$FUZZ_SECONDS" ]; do
  /usr/bin/time -f "%U %S" -o $B/time.opsweep env OPSWEEP_RANDOM=$seed OPSWEEP_KEEP=$B/artifacts/opsweep \
    nice -n 19 sh tests/opsweep.sh > $B/log.opsweep 2>&1
  s=$(awk '$1 ~ /^[0-9.]+$/ { printf "%.0f", $1 + $2 }' $B/time.opsweep)
  printf '%s\topsweep\t%s\n' "$(date -u +%Y-%m-%dT%H:%M)" "${s:-0}" >> $B/cputime.tsv
  spent=$((spent + ${s:-0}))
  cat $B/log.opsweep
  grep -q '^FAIL' $B/log.opsweep && { echo "fuzz-opsweep: FINDING with seed $seed (see $B/artifacts/opsweep/)"; exit 1; }
  seed=$((seed + 1))
done
echo "fuzz-opsweep: $spent CPU seconds this run; cumulative per target (build/fuzz/cputime.tsv):"
awk -F'\t' '{ s[$2] += $3 } END { for (t in s) printf "  %-14s %7d s\n", t, s[t] }' $B/cputime.tsv | sort
