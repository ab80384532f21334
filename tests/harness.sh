#!/bin/sh
# harness.sh - the test harness itself, checked (issue 38 item 6):
#   - tests/run.sh counts skips: a copy of it runs made-up layers in a
#     scratch tree and its closing line must be "N passed, N failed,
#     N skipped" alone, with the right figures;
#   - a skip that tests/expected_skips.txt lists passes, any other fails
#     the run ("FAIL skip/CASE", exit status 1);
#   - every glob of tests/expected_skips.txt has its reason;
#   - `make golden CASE=name` runs that one golden case (one PASS line), and
#     a CASE that names no case fails.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS harness/$1"; }
ko() { echo "FAIL harness/$1${2:+: $2}"; }

# a scratch tree with run.sh, the skip list and made-up layers
mkdir -p "$T/tests"
cp tests/run.sh tests/expected_skips.txt "$T/tests/"
cat > "$T/tests/listed.sh" <<'EOF'
echo "PASS fake/one"
echo "PASS fake/two"
echo "SKIP hwdb_cli/generated_files_match_generator (made up: no inputs)"
EOF
cat > "$T/tests/unlisted.sh" <<'EOF'
echo "PASS fake/three"
echo "SKIP fake/not-listed (made up)"
EOF
cat > "$T/tests/failing.sh" <<'EOF'
echo "FAIL fake/four"
EOF

# run_fake LAYERS: the closing line and exit status of run.sh on them
run_fake() {
  sh "$T/tests/run.sh" --only "$1" > "$T/out" 2>&1
  echo "$? $(tail -n 1 "$T/out")"
}
got=$(run_fake "listed")
[ "$got" = "0 2 passed, 0 failed, 1 skipped" ] && ok closing-line-counts-skips ||
  ko closing-line-counts-skips "got '$got', expected '0 2 passed, 0 failed, 1 skipped'"
grep -q '^(full log: .*backend-suite models walked' "$T/out" && ok walked-count-on-the-line-above ||
  ko walked-count-on-the-line-above "$(tail -n 2 "$T/out" | head -n 1)"
got=$(run_fake "listed unlisted")
[ "$got" = "1 3 passed, 1 failed, 2 skipped" ] && ok unlisted-skip-fails ||
  ko unlisted-skip-fails "got '$got', expected '1 3 passed, 1 failed, 2 skipped'"
grep -q '^  FAIL skip/fake/not-listed ' "$T/out" && ok unlisted-skip-named ||
  ko unlisted-skip-named "no 'FAIL skip/fake/not-listed' line"
got=$(run_fake "failing")
[ "$got" = "1 0 passed, 1 failed, 0 skipped" ] && ok failure-counted ||
  ko failure-counted "got '$got'"

# every line of the list: a glob and a reason
bad=$(grep -v '^#' tests/expected_skips.txt | grep -v '^$' | awk -F'\t' 'NF < 2 || length($2) < 20')
[ -z "$bad" ] && ok expected-skips-have-reasons || ko expected-skips-have-reasons "$bad"

# make golden CASE=name: that case alone
g=$(ls -d tests/golden/*/ | head -n 1); g=$(basename "$g")
got=$(CASE=$g sh tests/golden.sh 2>&1)
[ "$got" = "PASS golden/$g" ] && ok golden-one-case || ko golden-one-case "got '$got'"
got=$(make -s --no-print-directory golden CASE="$g" 2>&1)
[ "$got" = "PASS golden/$g" ] && ok make-golden-case || ko make-golden-case "got '$got'"
if CASE=no_such_case sh tests/golden.sh > "$T/g" 2>&1; then
  ko golden-unknown-case-fails "exit 0: $(cat "$T/g")"
else
  grep -q '^FAIL golden/no_such_case' "$T/g" && ok golden-unknown-case-fails ||
    ko golden-unknown-case-fails "$(cat "$T/g")"
fi
exit 0
