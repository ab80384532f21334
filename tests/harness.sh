#!/bin/sh
# harness.sh - the test harness itself, checked (issue 38 item 6):
#   - tests/run.sh counts skips: a copy of it runs made-up layers in a
#     scratch tree and its closing line must be "N passed, N failed,
#     N skipped" alone, with the right figures;
#   - a skip that tests/expected_skips.txt lists passes, any other fails
#     the run ("FAIL skip/CASE", exit status 1);
#   - every glob of tests/expected_skips.txt has its reason;
#   - `make golden CASE=name` runs that one golden case (one PASS line), and
#     a CASE that names no case fails;
#   - the file-header lint (tools/header_lint.sh) finds a header naming an
#     old file name, a missing or wrong stage, a cited file or function that
#     is gone, and passes on the repository.
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
# the file-header lint (tools/header_lint.sh, in make lint) fails a header
# that names another file, lacks its stage, names a stage not its folder,
# cites a file that is not there or a function no one defines
mkdir -p "$T/hl/src/base" "$T/hl/src/report/html" "$T/hl/tools"
printf '/*\n * good.c (base) - a good header naming src/base/good.c and jc_ok().\n */\nint jc_ok(void);\n' > "$T/hl/src/base/good.c"
printf '/*\n * old_name.c (base) - named by an old name.\n */\n' > "$T/hl/src/base/renamed.c"
printf '/*\n * nostage.c - no stage.\n */\n' > "$T/hl/src/base/nostage.c"
printf '/*\n * page.c (report) - the stage is report/html.\n */\n' > "$T/hl/src/report/html/page.c"
printf '/*\n * stale.c (base) - see src/base/gone.c and jc_gone().\n */\n' > "$T/hl/src/base/stale.c"
printf '#!/bin/sh\n# Purpose: not the name first\n' > "$T/hl/tools/x.sh"
(cd "$T/hl" && sh "$OLDPWD/tools/header_lint.sh" src/base/good.c src/base/renamed.c src/base/nostage.c \
   src/report/html/page.c src/base/stale.c tools/x.sh) > "$T/hl.out" 2>&1
hl_rc=$?
want="src/base/renamed.c: the header should start \"renamed.c (base) - ...\"
src/base/nostage.c: the header should start \"nostage.c (base) - ...\"
src/report/html/page.c: the header should start \"page.c (report/html) - ...\"
tools/x.sh: the header should start \"x.sh - ...\"
src/base/stale.c: names src/base/gone.c, which does not exist
src/base/stale.c: names jc_gone(), which src/ and include/ do not define"
got=$(sed 's/, it starts .*//' "$T/hl.out")
[ "$hl_rc" = 1 ] && [ "$got" = "$want" ] && ok header-lint-finds-stale-headers ||
  ko header-lint-finds-stale-headers "exit $hl_rc: $(tr '\n' '|' < "$T/hl.out")"
sh tools/header_lint.sh > "$T/hl2.out" 2>&1 && ok header-lint-clean-tree ||
  ko header-lint-clean-tree "$(head -n 5 "$T/hl2.out" | tr '\n' '|')"
exit 0
