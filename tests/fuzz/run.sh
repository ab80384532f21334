#!/bin/sh
# run.sh - `make fuzz`: seeds each libFuzzer target's corpus and runs the
# targets one after the other, each for FUZZ_SECONDS (default 60) on one
# core at nice 19.  Seeds come from the backend suite
# (/usr/share/libonnx-testdata/data/**/model.onnx), models/, hwdb/,
# tests/hwdb/, docs/examples/, tests/models/rules/ (op-rules files),
# tests/data/traces/, tests/serving/configs/ + tests/fuzz/regress/hfconfig/
# (config.json files) and tests/fuzz/seeds/ (estimate command
# lines, one argv per file, arguments separated by NUL bytes; more op-rules
# files and traces).  Corpora
# grow in build/fuzz/corpus/<target>/; crashes land in
# build/fuzz/artifacts/<target>/ (copy each, once fixed, into
# tests/fuzz/regress/<target>/).  The CPU seconds of every run are
# appended to build/fuzz/cputime.tsv (date, target, seconds) so the
# cumulative time per target can be reported honestly (README.md).
# Usage: sh tests/fuzz/run.sh [TARGET...]   (default: every target)
set -u
cd "$(dirname "$0")/../.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
B=build/fuzz
[ $# -gt 0 ] || set -- onnx hwdb jobfile estimate_cli oprules trace hfconfig snapshot

seed() {  # target dir
  t=$1; d=$2
  [ -d "$d" ] && [ -n "$(ls -A "$d" 2>/dev/null)" ] && return 0
  mkdir -p "$d"
  case $t in
    onnx)
      find /usr/share/libonnx-testdata/data -name model.onnx 2>/dev/null | sort | awk '{ printf "%s\t%d\n", $0, NR }' |
        while IFS="$(printf '\t')" read -r f n; do cp "$f" "$d/backend_$n.onnx"; done
      for f in models/*.onnx; do [ -f "$f" ] && cp "$f" "$d/"; done ;;
    hwdb)
      find hwdb tests/hwdb -name '*.yaml' | sort | awk '{ printf "%s\t%d\n", $0, NR }' |
        while IFS="$(printf '\t')" read -r f n; do cp "$f" "$d/hwdb_$n.yaml"; done ;;
    jobfile)
      for f in docs/examples/*.yaml; do cp "$f" "$d/"; done
      find tests/hwdb -name '*.yaml' | sort | head -40 | awk '{ printf "%s\t%d\n", $0, NR }' |
        while IFS="$(printf '\t')" read -r f n; do cp "$f" "$d/yaml_$n.yaml"; done ;;
    estimate_cli)
      cp tests/fuzz/seeds/estimate_cli/* "$d/" ;;
    oprules)
      for f in tests/models/rules/*.yaml tests/fuzz/seeds/oprules/*; do [ -f "$f" ] && cp "$f" "$d/"; done ;;
    hfconfig)
      for f in tests/serving/configs/*.json tests/fuzz/regress/hfconfig/*; do [ -f "$f" ] && cp "$f" "$d/"; done ;;
    snapshot)   # snapshots of small hwdb files, and forged copies (the cases of issue 43 item 1)
      for y in hwdb/providers.yaml hwdb/constants.yaml hwdb/devices/qualcomm.yaml hwdb/devices/apple.yaml; do
        n=$(basename "$y" .yaml)
        build/joulecast hwdb snapshot "$y" -o "$d/$n.snap" > /dev/null || continue
        for m in header past_end misaligned self count string_unterminated; do
          for k in 0 3 17; do
            /usr/bin/python3 tests/snapshot/forge_snapshot.py "$d/$n.snap" "$d/$n.$m.$k.snap" $m $k
          done
        done
      done ;;
    trace)
      for f in tests/data/traces/* tests/fuzz/seeds/trace/*; do
        case $f in *.py|*.md) continue ;; esac
        [ -f "$f" ] && cp "$f" "$d/"
      done ;;
  esac
}

mkdir -p $B
for t in "$@"; do
  bin=$B/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz-build)"; exit 1; }
  corpus=$B/corpus/$t
  seed "$t" "$corpus"
  mkdir -p $B/artifacts/$t
  extra=""
  [ "$t" = estimate_cli ] && extra="-close_fd_mask=3 -max_len=4096"
  [ "$t" = onnx ] && extra="-max_len=262144"
  [ "$t" = snapshot ] && extra="-max_len=131072"
  echo "fuzz: $t for ${FUZZ_SECONDS}s ($(ls $corpus | wc -l) inputs in $corpus)"
  /usr/bin/time -f "%U %S" -o $B/time.$t nice -n 19 "$bin" -max_total_time="$FUZZ_SECONDS" \
      -timeout=20 -rss_limit_mb=2048 -artifact_prefix=$B/artifacts/$t/ $extra \
      "$corpus" > $B/log.$t 2>&1
  rc=$?
  # /usr/bin/time adds a "Command exited with non-zero status" line on a crash
  awk -v d="$(date -u +%Y-%m-%dT%H:%M)" -v t="$t" '$1 ~ /^[0-9.]+$/ { printf "%s\t%s\t%.0f\n", d, t, $1 + $2 }' $B/time.$t >> $B/cputime.tsv
  tail -n 3 $B/log.$t | sed 's/^/  /'
  # libFuzzer exits 72 when interrupted (SIGINT, SIGTERM): a stop, not a finding
  if [ $rc -eq 72 ] && grep -q 'libFuzzer: run interrupted' $B/log.$t; then
    echo "fuzz: $t interrupted (no crash; its CPU seconds are counted)"
    exit 130
  fi
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t FOUND A CRASH (exit $rc): see $B/log.$t and $B/artifacts/$t/"
    exit 1
  fi
done
echo "fuzz: cumulative CPU seconds per target (build/fuzz/cputime.tsv):"
awk -F'\t' '{ s[$2] += $3 } END { for (t in s) printf "  %-14s %7d s\n", t, s[t] }' $B/cputime.tsv | sort
