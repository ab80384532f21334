#!/bin/sh
# akeys.sh - every assumption key the estimate and serving code name
# literally (jci_bld_assume(b, "key", ...); constants recorded under their
# own hwdb id by jci_bld_const are the database's) is a line of the one table,
# src/estimate/assumption_keys.def, and every line of the table is used
# (a run with an unlisted key fails with an internal error; this finds it
# without needing a run that reaches it).  Prints PASS/FAIL lines.
set -u
cd "$(dirname "$0")/.."
used=$(mktemp) def=$(mktemp)
trap 'rm -f "$used" "$def"' EXIT
grep -rhoE 'jci_bld_assume\([^,()]*, "[a-zA-Z_.0-9]*"' src | sed 's/.*"\(.*\)"/\1/' | sort -u > "$used"
grep -oE '^AKEY(_FIGURE)?\([A-Z_0-9]+, "[^"]+"' src/estimate/assumption_keys.def | sed 's/.*"\(.*\)"/\1/' | sort -u > "$def"
missing=$(comm -23 "$used" "$def" | tr '\n' ' ')
if [ -n "$missing" ]; then
  echo "  keys used in src/ but not in src/estimate/assumption_keys.def: $missing"
  echo "FAIL akeys/listed"
else
  echo "PASS akeys/listed ($(wc -l < "$used") literal keys)"
fi
# every line of the table is named somewhere in src/
for k in $(comm -13 "$used" "$def"); do
  if grep -rq "\"$k\"" src --include=*.c; then echo "PASS akeys/used/$k"
  else echo "  $k is in the table but no source names it"; echo "FAIL akeys/used/$k"; fi
done
exit 0
