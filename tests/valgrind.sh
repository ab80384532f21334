#!/bin/sh
# valgrind.sh - the release build's `joulecast inspect` and `count` on
# backend-suite models (/usr/share/libonnx-testdata) under
# valgrind --leak-check=full --error-exitcode=1: no invalid access, no
# uninitialised read, no leak.  `make test` runs a deterministic sample of
# 60 models (every Nth of the sorted list), each loaded under valgrind
# once: the odd ones by inspect, the even ones by count (the loader is
# common to both, the count's analysis and the inspect report each get 30
# models); `make valgrind` (FULL=1) runs both commands on every model and
# prints a summary line.  Exit codes other than valgrind's
# (e.g. 4 for a model the loader rejects, 9/6 for partial counts) are fine:
# only valgrind's error exit 99 fails a model.  Prints PASS/FAIL lines.
set -u
cd "$(dirname "$0")/.."
JC=${JC_RELEASE:-build/joulecast}
SAMPLE=${SAMPLE:-60}
DATA=/usr/share/libonnx-testdata/data
command -v valgrind > /dev/null || { echo "FAIL valgrind is not installed (make deps)"; exit 1; }
[ -x "$JC" ] || { echo "FAIL $JC is not built"; exit 1; }
# private scratch files: several `make test` runs may share build/
W=$(mktemp -d "${TMPDIR:-/tmp}/jc_valgrind.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
L=$W/list
find $DATA -name model.onnx 2>/dev/null | sort > $L
total=$(wc -l < $L)
[ "$total" -gt 0 ] || { echo "FAIL no backend models under $DATA (make deps)"; exit 1; }
if [ "${FULL:-0}" = 1 ]; then step=1; else step=$(( (total + SAMPLE - 1) / SAMPLE )); fi
n=0; bad=0
awk -v s=$step 'NR % s == 1 || s == 1' $L > $L.run
i=0
while read -r f; do
  i=$((i + 1))
  cmds="inspect count"
  if [ "${FULL:-0}" != 1 ]; then [ $((i % 2)) = 1 ] && cmds=inspect || cmds=count; fi
  for c in $cmds; do
    valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible \
      --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \
      "$JC" $c "$f" > /dev/null 2> $W/err
    rc=$?
    n=$((n + 1))
    name=$(echo "$f" | sed "s|$DATA/||; s|/model.onnx||")
    if [ $rc -eq 99 ]; then
      echo "FAIL valgrind $c $name"; head -n 30 $W/err | sed 's/^/    /'; bad=$((bad + 1))
    else
      echo "PASS valgrind $c $name"
    fi
  done
done < $L.run
echo "valgrind: $n runs over $(wc -l < $L.run) of $total backend models, $bad with errors"
[ $bad -eq 0 ]
