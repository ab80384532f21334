#!/bin/sh
# readme_examples.sh - runs every command of README.md's ```sh blocks that
# starts with "joulecast " (continuation lines ending in "\" joined), with
# the joulecast under test first on PATH, from the repository root; a
# non-zero exit fails.  A command naming a file that is not in the
# repository (a word ending in .onnx/.yaml/.yml/.json that does not exist)
# is skipped, and the skip is reported.  So the README cannot go stale.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-$PWD/build/joulecast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin" && ln -s "$JC" "$T/bin/joulecast"
# one command per line of $T/cmds
awk '
  /^```sh[[:space:]]*$/ { on = 1; next }
  /^```/ { on = 0; cont = 0; next }
  !on { next }
  {
    line = $0
    if (cont) { buf = buf " " line }
    else if (line ~ /^joulecast /) { buf = line }
    else next
    if (buf ~ /\\$/) { sub(/\\$/, "", buf); cont = 1; next }
    cont = 0; gsub(/[[:space:]]+/, " ", buf); print buf
  }' README.md > "$T/cmds"
n=$(wc -l < "$T/cmds")
[ "$n" -gt 0 ] && echo "PASS readme/found-$n-examples" || echo "FAIL readme/no-examples-found"
i=0
while IFS= read -r cmd; do
  i=$((i + 1))
  name=$(printf '%s' "$cmd" | cut -d' ' -f2)
  skip=""
  for w in $cmd; do
    case "$w" in
      \#*) break ;;
      *.onnx|*.yaml|*.yml|*.json) [ -e "$w" ] || skip="$w" ;;
    esac
  done
  if [ -n "$skip" ]; then
    echo "  skipped readme/$i-$name: $skip is not in the repository (not counted)"
    continue
  fi
  if PATH="$T/bin:$PATH" sh -c "$cmd" > "$T/out" 2> "$T/err" < /dev/null; then
    echo "PASS readme/$i-$name"
  else
    echo "FAIL readme/$i-$name: exit $?: $cmd"
    head -n 3 "$T/err" | sed 's/^/    /'
  fi
done < "$T/cmds"
exit 0
