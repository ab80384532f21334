#!/bin/sh
# docs_figures.sh - the command outputs README.md, docs/*.md and the man
# page show are what the build prints (issue 44 item 11): every block
# marked "<!-- output: COMMAND -->" is checked by tools/docs_figures.py
# against COMMAND's output with the release build and the bundled hwdb; a
# FAIL names FILE:LINE, the shown line and the printed one (`make
# docs-figures` rewrites them after a refit).  The checker is shown to fail:
# a scratch page with a wrong figure, a missing line and a marker without a
# block gives FAILs naming their lines, and --update mends the figure.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
export JC=${JC_RELEASE:-$PWD/build/joulecast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
/usr/bin/python3 tools/docs_figures.py --check

cat > "$T/page.md" <<'EOF2'
A page.

<!-- output: joulecast ga --runtime 1h --cores 1 --memory 7 --ga-version 2.2 -->
```
energy   99.99 Wh
...
no such line 1
```
<!-- output: joulecast ga --runtime 1h --cores 1 --memory 7 -->
text, not a block
EOF2
/usr/bin/python3 tools/docs_figures.py --check "$T/page.md" > "$T/out" 2>&1
grep -q "^  $T/page.md:5: shown:   energy   99.99 Wh" "$T/out" &&
  grep -q "^  $T/page.md:5: printed: energy   24.39 Wh" "$T/out" &&
  grep -q "^  $T/page.md:7: no printed line has the shape of: no such line 1" "$T/out" &&
  grep -q "^FAIL docs_figures/.*page.md:9 (the marker is not followed by a fenced block)" "$T/out" &&
  echo "PASS docs_figures/checker-names-file-and-line" ||
  { echo "FAIL docs_figures/checker-names-file-and-line"; sed 's/^/    /' "$T/out"; }
/usr/bin/python3 tools/docs_figures.py --update "$T/page.md" > /dev/null 2>&1
grep -q '^energy   24.39 Wh$' "$T/page.md" && echo "PASS docs_figures/update-rewrites-the-figure" ||
  echo "FAIL docs_figures/update-rewrites-the-figure: $(sed -n 5p "$T/page.md")"
exit 0
