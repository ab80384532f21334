#!/bin/sh
# hwdb_snapshot.sh - the CLI's use of hwdb snapshots (src/hwdb/snapshot.c,
# src/cli/hwdb_open.c), ASan build ($JC): the build's snapshot is found
# and used; every command's output is byte-identical with the snapshot
# and with JOULECAST_HWDB_SNAPSHOT=off (the YAML parse); a stale snapshot
# (a YAML file touched), a truncated one and one of another folder are
# not used and change nothing, nor does one with a flipped bit (checksum
# over the whole file); `hwdb snapshot` errors and exit codes.
# Prints one PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS hwdb_snapshot/$1"; }
ko() { echo "FAIL hwdb_snapshot/$1${2:+: $2}"; }

# the build's snapshot (make test-build writes it next to $JC)
"$JC" hwdb info > "$T/info" 2>&1
grep -q '^snapshot        .*hwdb.snap$' "$T/info" && grep -q '^state           used' "$T/info" &&
  ok build-snapshot-used || ko build-snapshot-used "$(tr '\n' '|' < "$T/info")"

# same bytes out, snapshot or YAML
same() {  # name, args...
  name=$1; shift
  "$JC" "$@" > "$T/a" 2>&1; ra=$?
  JOULECAST_HWDB_SNAPSHOT=off "$JC" "$@" > "$T/b" 2>&1; rb=$?
  want=0; [ "$name" = region-typo ] && want=6
  if [ $ra = $want ] && [ $rb = $want ] && cmp -s "$T/a" "$T/b"; then ok "same-$name"
  else ko "same-$name" "exit $ra vs $rb; $(diff "$T/a" "$T/b" | head -n 4 | tr '\n' '|')"; fi
}
same hw-list hw list --json
same hw-show hw show h100
same host-show hw show p4d.24xlarge --json
same region-list region list
same region-show region show aws:us-east-1 --json
same region-typo region show frnace
same estimate estimate models/resnet50.onnx --device a100 --region US-CA --requests 1000000 --json
same estimate-train estimate models/tiny_cnn.onnx --mode training --batch 32 --samples 50000 --epochs 3 --device h100 --region FR
same ga ga --runtime 12h --cores 8 --cpu "Xeon E5-2683 v4" --memory 64 --region CH --json
same sweep sweep models/tiny_cnn.onnx --batch 8 --requests 1000 --devices a100,h100,v100 --regions cloud
same statement statement models/tiny_cnn.onnx --mode training --batch 32 --samples 50000 --epochs 3 --device a100 --region FR

# a copy of the folder: its own snapshot is fresh until a file changes
cp -r hwdb "$T/hwdb"
export JOULECAST_HWDB_DIR="$T/hwdb" JOULECAST_HWDB_SNAPSHOT="$T/s.snap"
"$JC" hwdb snapshot -o "$T/s.snap" > "$T/w" 2>&1 && ok write || ko write "$(cat "$T/w")"
"$JC" hwdb info > "$T/info" 2>&1
grep -q '^state           used' "$T/info" && ok copy-used || ko copy-used "$(tr '\n' '|' < "$T/info")"
"$JC" hw show a100 > "$T/fresh" 2>&1
# sources are cited relative to the database root, wherever the copy lives (issue 28 item 10)
grep -q " hwdb/devices/nvidia.yaml" "$T/fresh" && ! grep -q "$T" "$T/fresh" && ok cites-root-relative ||
  ko cites-root-relative "$(grep -m 3 yaml "$T/fresh" | tr '\n' '|')"
touch -d '2001-01-01' "$T/hwdb/constants.yaml"
"$JC" hwdb info > "$T/info" 2>&1
grep -q "^state           not used: .*constants.yaml changed since the snapshot was written" "$T/info" &&
  ok stale-detected || ko stale-detected "$(tr '\n' '|' < "$T/info")"
"$JC" hw show a100 > "$T/stale" 2>&1
cmp -s "$T/fresh" "$T/stale" && ok stale-same-output || ko stale-same-output
# the build's snapshot against the copy: another folder's files, not used
JOULECAST_HWDB_SNAPSHOT=build/asan/hwdb.snap "$JC" hwdb info > "$T/info" 2>&1
grep -q '^state           not used' "$T/info" && ok other-folder-not-used || ko other-folder-not-used "$(tr '\n' '|' < "$T/info")"
# truncated: not used, named on stderr, same output
"$JC" hwdb snapshot -o "$T/s.snap" > /dev/null 2>&1
head -c 10000 "$T/s.snap" > "$T/t.snap"
JOULECAST_HWDB_SNAPSHOT="$T/t.snap" "$JC" hw show a100 > "$T/trunc" 2> "$T/trunc.err"
cmp -s "$T/fresh" "$T/trunc" && grep -q "note: not using the hwdb snapshot .*t.snap: truncated" "$T/trunc.err" &&
  ok truncated-named-and-ignored || ko truncated-named-and-ignored "$(head -n 2 "$T/trunc.err" | tr '\n' '|')"
# one flipped bit in the string area (a device name): the checksum over
# the whole file refuses it on the mapped path too; the YAML is parsed,
# a note names the file, the output is the YAML's (#18 item 13)
python3 - "$T/s.snap" "$T/f.snap" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"A100 SXM4", 4096)
b[i + 2] ^= 0x04
open(sys.argv[2], "wb").write(b)
EOF
JOULECAST_HWDB_SNAPSHOT="$T/f.snap" "$JC" hw show a100 > "$T/flip" 2> "$T/flip.err"
cmp -s "$T/fresh" "$T/flip" && grep -q "note: not using the hwdb snapshot .*f.snap: corrupt (checksum mismatch" "$T/flip.err" &&
  ok bitflip-refused-same-output || ko bitflip-refused-same-output "$(head -n 2 "$T/flip.err" | tr '\n' '|')"
JOULECAST_HWDB_SNAPSHOT="$T/f.snap" "$JC" hwdb info > "$T/info" 2>&1
grep -q '^state           not used: .*checksum mismatch' "$T/info" && ok bitflip-info-not-used ||
  ko bitflip-info-not-used "$(tr '\n' '|' < "$T/info")"
# --hwdb layers are merged from YAML: the snapshot is not consulted
"$JC" hw show a100 --hwdb tests/hwdb/override > "$T/layer" 2>&1
grep -q 'tdp_w                  450 W' "$T/layer" && ok layers-merge || ko layers-merge "$(head -n 3 "$T/layer" | tr '\n' '|')"
unset JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT

# `hwdb snapshot` errors
"$JC" hwdb snapshot > "$T/e" 2>&1; rc=$?
[ $rc = 2 ] && grep -q 'needs -o FILE' "$T/e" && ok needs-output || ko needs-output "exit $rc"
"$JC" hwdb snapshot -o /nonexistent-dir/x.snap > "$T/e" 2>&1; rc=$?
[ $rc = 3 ] && grep -q '/nonexistent-dir/x.snap' "$T/e" && ok unwritable || ko unwritable "exit $rc: $(cat "$T/e")"
"$JC" hwdb snapshot tests/hwdb/bad/syntax_error.yaml -o "$T/x.snap" > "$T/e" 2>&1; rc=$?
[ $rc = 5 ] && grep -q 'syntax_error.yaml:10:11' "$T/e" && [ ! -e "$T/x.snap" ] && ok invalid-folder ||
  ko invalid-folder "exit $rc: $(cat "$T/e")"
"$JC" hwdb snapshot /nonexistent-hwdb -o "$T/x.snap" > "$T/e" 2>&1; rc=$?
[ $rc = 3 ] && ok missing-folder || ko missing-folder "exit $rc"
"$JC" hwdb info extra > "$T/e" 2>&1; rc=$?
[ $rc = 2 ] && ok info-usage || ko info-usage "exit $rc"
exit 0
