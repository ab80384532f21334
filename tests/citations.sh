#!/bin/sh
# citations.sh - no user-facing file points into a folder the repository
# does not hold (issue 28 item 10): the hwdb, docs, README, man page,
# completion, sources, Python package and every golden output (what the
# CLI prints) must cite the publication, or the project's own copy under
# tests/, never ../shared/...  One PASS/FAIL line per tree.
set -u
cd "$(dirname "$0")/.."
for tree in hwdb docs README.md man completion src include python tests/golden tests/accuracy; do
  [ -e "$tree" ] || continue
  hits=$(grep -rln -e '\.\./shared' "$tree" 2>/dev/null | grep -v '__pycache__' || true)
  if [ -n "$hits" ]; then
    echo "  $tree cites ../shared in:"
    echo "$hits" | sed 's/^/    /'
    echo "FAIL citations/$tree"
  else
    echo "PASS citations/$tree"
  fi
done
