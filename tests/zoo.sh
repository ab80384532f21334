#!/bin/sh
# zoo.sh - counts every torchvision classification model exported by
# tools/export_torchvision_zoo.py (tests/models/torchvision/*.onnx, graph
# only, batch 1 at its default weights' input size) and compares its MACs
# with torchvision's published figure (tests/models/torchvision/GMACS.tsv,
# GMACs to 3 decimals, with its source).  A model passes when the count is
# complete (not partial) and round(MACs / 1e9, 3) equals the published
# figure exactly.  A row whose fifth column gives a reason is a known
# mismatch: it must still mismatch (an unexpected match fails, so the list
# stays true).  Every export must have a row and every row an export whose
# input size (EXPORT.tsv) is the one the figure is published for, except
# the models PENDING.tsv lists as not exported yet, each with the reason:
# those print SKIP (neither PASS nor FAIL) and fail once exported while
# still listed.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC_RELEASE:-$PWD/build/joulecast}
dir=tests/models/torchvision
tab=$dir/GMACS.tsv
exp=$dir/EXPORT.tsv
pending=$dir/PENDING.tsv   # model<TAB>why it is not exported yet (SKIP, not PASS)

grep -v '^#' "$tab" | sed 1d > /tmp/jc-zoo-rows.$$
while IFS="$(printf '\t')" read -r name weights input gmacs known; do
  [ -n "$name" ] || continue
  f=$dir/$name.onnx
  pend=$(awk -F'\t' -v n="$name" '$1 == n {print $2}' "$pending")
  if [ ! -f "$f" ]; then
    if [ -n "$pend" ]; then
      echo "SKIP zoo/$name: not exported yet ($pend; listed in $pending)"
    else
      echo "FAIL zoo/$name: $f missing (run tools/export_torchvision_zoo.py --only $name)"
    fi
    continue
  fi
  if [ -n "$pend" ]; then
    echo "FAIL zoo/$name: exported but still listed in $pending: remove it there"
    continue
  fi
  einput=$(awk -F'\t' -v n="$name" '$1 == n {print $3}' "$exp")
  if [ "$einput" != "$input" ]; then
    echo "FAIL zoo/$name: exported at ${einput:-?} px, the figure is for $input px"
    continue
  fi
  out=$("$JC" count "$f" --dim batch=1 --top 0 2>&1)
  rc=$?
  macs=$(printf '%s\n' "$out" | awk '$1 == "MACs" {gsub(",", "", $2); print $2; exit}')
  partial=$(printf '%s\n' "$out" | grep -c 'PARTIAL RESULT')
  if [ $rc -ne 0 ] || [ -z "$macs" ]; then
    echo "FAIL zoo/$name: count exited $rc: $(printf '%s' "$out" | head -n 2)"
    continue
  fi
  got=$(awk -v m="$macs" 'BEGIN {printf "%.3f", m / 1e9}')
  want=$(awk -v g="$gmacs" 'BEGIN {printf "%.3f", g}')
  if [ "$partial" -eq 0 ] && [ "$got" = "$want" ]; then ok=1; else ok=0; fi
  what="$macs MACs = $got G, published $want G ($weights, ${input}px)"
  [ "$partial" -ne 0 ] && what="$what, PARTIAL"
  if [ -n "${known:-}" ]; then
    if [ $ok = 1 ]; then
      echo "FAIL zoo/$name: listed as a known mismatch ($known) but matches now: $what"
    else
      echo "PASS zoo/$name (known mismatch: $known): $what"
    fi
  elif [ $ok = 1 ]; then
    echo "PASS zoo/$name: $what"
  else
    echo "FAIL zoo/$name: $what"
  fi
done < /tmp/jc-zoo-rows.$$
rm -f /tmp/jc-zoo-rows.$$
for f in "$dir"/*.onnx; do
  n=$(basename "$f" .onnx)
  awk -F'\t' -v n="$n" '$1 == n {found = 1} END {exit !found}' "$tab" ||
    echo "FAIL zoo/$n: exported but has no published figure in $tab"
done
exit 0
