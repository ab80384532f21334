#!/bin/sh
# docs_figures.sh - the command outputs README.md, docs/*.md and the man
# page show are what the build prints (issue 44 item 11): every block
# marked "<!-- output: COMMAND -->" is checked by tools/docs_figures.py
# against COMMAND's output with the release build and the bundled hwdb; a
# FAIL names FILE:LINE, the shown line and the printed one (`make
# docs-figures` rewrites them after a refit).  Prose figures too: each must
# be a figure of a checked block of its file (a hidden block, an HTML
# comment "<!-- output: COMMAND" + its output + "-->", serves prose alone)
# or be named with its source in a "<!-- sourced: FIGURE (WHERE) -->" of
# its paragraph.  The checker is shown to fail: a scratch page with a wrong
# figure, a missing line and a marker without a block gives FAILs naming
# their lines, and --update mends the figure; a page with prose figures
# no block prints fails naming each.
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

# prose figures (issue 44 item 11): a figure in prose must be a figure of a
# checked block of its file (rounded as the writer likes), or be named in a
# sourced: comment of its paragraph; a hidden block <!-- output: ... -->
# is checked like a shown one, and --update rewrites it and the prose that
# quoted its old figure.
cat > "$T/prose.md" <<'EOF2'
The calculator gives 24.4 Wh (rounded from the block), 11.59 gCO2e, and
a stale 25.87 Wh.

A published figure, 1,507 kWh, named with its source.
<!-- sourced: 1,507 kWh (Strubell et al. 2019) -->

The same figure in another paragraph, 1,507 kWh, without one.

<!-- output: joulecast ga --runtime 1h --cores 1 --memory 7 --ga-version 2.2 | grep -E "^(energy|carbon)"
energy   24.39 Wh
carbon   12.34 gCO2e
-->
The carbon, 12.34 gCO2e, as the hidden block had it.
EOF2
/usr/bin/python3 tools/docs_figures.py --check "$T/prose.md" > "$T/out" 2>&1
grep -q "^FAIL docs_figures/.*prose.md:prose: 3 prose figure" "$T/out" &&
  grep -q "^  $T/prose.md:2: 25.87 Wh is in no checked output" "$T/out" &&
  grep -q "^  $T/prose.md:7: 1,507 kWh is in no checked output" "$T/out" &&
  grep -q "^  $T/prose.md:13: 12.34 gCO2e is in no checked output" "$T/out" &&
  ! grep -q "prose.md:1: \|prose.md:4: " "$T/out" &&
  grep -q "^  $T/prose.md:11: printed: carbon   11.59 gCO2e" "$T/out" &&
  echo "PASS docs_figures/prose-figure-not-printed-names-file-and-line" ||
  { echo "FAIL docs_figures/prose-figure-not-printed-names-file-and-line"; sed 's/^/    /' "$T/out"; }
/usr/bin/python3 tools/docs_figures.py --update "$T/prose.md" > "$T/out" 2>&1
grep -q '^carbon   11.59 gCO2e$' "$T/prose.md" && grep -q '^The carbon, 11.59 gCO2e, as' "$T/prose.md" &&
  grep -q "^  $T/prose.md:2: 25.87 Wh is in no checked output" "$T/out" &&
  echo "PASS docs_figures/update-rewrites-hidden-block-and-its-prose" ||
  { echo "FAIL docs_figures/update-rewrites-hidden-block-and-its-prose"; sed 's/^/    /' "$T/out" "$T/prose.md"; }
# a prose quote is mended only where the number moved everywhere the
# blocks print it: one row's 90% -> 91% beside another row's unchanged 90%
# leaves a prose "90%" as written (it may quote either, or neither: a
# nominal level)
if /usr/bin/python3 -c '
import sys
sys.path.insert(0, "tools")
import docs_figures as d
moved = [("| a | 90% | 1.5 |", "| a | 91% | 1.5 |"), ("| b | 80% | 2 |", "| b | 80% | 2 |")]
assert d.renames(moved) == {"90": "91"}, d.renames(moved)
both = [moved[0], ("| b | 90% | 2 |", "| b | 90% | 2 |")]
assert d.renames(both) == {}, d.renames(both)
'; then
  echo "PASS docs_figures/update-leaves-a-number-still-printed"
else
  echo "FAIL docs_figures/update-leaves-a-number-still-printed"
fi
exit 0
