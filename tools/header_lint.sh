#!/bin/sh
# header_lint.sh - the file-header check of tools/lint.sh (issue 38 item 7:
# true comments).  The header of a file (the comment that opens it: C's
# first /* */ block, the leading # lines of a script, a Python module's
# docstring) starts "NAME - purpose", NAME the file's own name (a package's
# __init__.py: the package's); a file of src/ also says its stage, "NAME
# (STAGE) - purpose", STAGE its folder under src/ (src/report/html/page.c:
# "report/html"; the CLI: "cli"), and include/joulecast.h says "(public
# API)".  Every source file the header names (under src/, include/, tests/,
# tools/, web/, python/ or bench/, ending .c .h .def .sh .py .awk .inc; a
# pattern in capitals such as cmd_NAME.c excepted) must exist, and every
# jc_/jci_ function it names with "()" must be defined in src/ or include/:
# a moved file or a renamed function shows as a stale header.
#
#   sh tools/header_lint.sh           the repository's files (git ls-files)
#   sh tools/header_lint.sh FILE...   those files (paths from the root)
# Prints one line per problem, "FILE: what"; exit status 1 when any.
set -u
export LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ $# -gt 0 ]; then
  printf '%s\n' "$@" > "$tmp/files"
else
  git ls-files 'src/*' 'include/*' 'tests/*' 'tools/*' 'bench/*' 'python/*' 'web/*.c' 2>/dev/null |
    grep -E '\.(c|h|def|sh|py|awk|inc)$' |
    grep -vE '^tests/(golden|data|models|hwdb|fuzz/seeds|fuzz/regress)/' > "$tmp/files"
fi
# the jc_/jci_ names the code uses (comment lines left out: a header that
# names a function does not define it)
{ git grep -hE 'jci?_' -- src include 2>/dev/null || grep -rhE 'jci?_' src include 2>/dev/null; } |
  grep -v '^[[:space:]]*\(\*\|/\*\|//\)' | grep -oE '\bjci?_[A-Za-z0-9_]+' | sort -u > "$tmp/ids"
# one pass: "BAD file: why" lines, and "REF file path|id" lines to check
xargs awk '
  function done_file() {
    if (F == "") return
    n = F; sub(/.*\//, "", n)
    if (n == "__init__.py") { n = F; sub(/\/[^\/]*$/, "", n); sub(/.*\//, "", n) }
    s = ""
    if (F ~ /^src\//) { s = F; sub(/^src\//, "", s); sub(/\/[^\/]*$/, "", s) }
    if (F ~ /^include\//) s = "public API"
    want = s != "" ? n " (" s ") - " : n " - "
    if (index(first, want) != 1 && !(s == "" && index(first, n " (") == 1 && first ~ /^[^ ]+ \([^)]*\) - /))
      printf "BAD %s: the header should start \"%s...\", it starts \"%s\"\n", F, want, substr(first, 1, 60)
    t = text
    while (match(t, /(src|include|tests|tools|web|python|bench)\/[A-Za-z0-9_.\/-]*\.(c|h|def|sh|py|awk|inc)([^A-Za-z0-9_]|$)/)) {
      p = substr(t, RSTART, RLENGTH); sub(/[^A-Za-z0-9_]$/, "", p)
      print "REF " F " " p; t = substr(t, RSTART + RLENGTH)
    }
    t = text
    while (match(t, /jci?_[A-Za-z0-9_]+\(\)/)) {
      print "FUN " F " " substr(t, RSTART, RLENGTH - 2); t = substr(t, RSTART + RLENGTH)
    }
  }
  FNR == 1 { done_file(); F = FILENAME; mode = ""; first = ""; text = ""; over = 0 }
  over { next }
  FNR == 1 && /^#!/ { next }
  mode == "" && /^\/\*/ { mode = "c"; sub(/^\/\*[ \t]*/, "") }
  mode == "" && /^"""/ { mode = "py"; sub(/^"""/, "") }
  mode == "" && /^#/ { mode = "sh" }
  mode == "" { if (FNR > 3) over = 1; next }
  mode == "sh" && !/^#/ { over = 1; next }
  { line = $0; sub(/^[ \t]*(\*|#)?[ \t]*/, "", line)
    if (line != "" || first != "") { if (first == "") first = line; text = text " " line }
    if ((mode == "c" && /\*\//) || (mode == "py" && /"""/)) over = 1 }
  END { done_file() }' < "$tmp/files" > "$tmp/raw"
sed -n 's/^BAD //p' "$tmp/raw" > "$tmp/out"
grep '^REF ' "$tmp/raw" | sort -u | while read -r _ f p; do
  case "$p" in *[A-Z][A-Z]*) continue ;; esac   # a pattern: cmd_NAME.c
  [ -e "$p" ] || echo "$f: names $p, which does not exist" >> "$tmp/out"
done
grep '^FUN ' "$tmp/raw" | sort -u | while read -r _ f id; do
  grep -qx "$id" "$tmp/ids" || echo "$f: names $id(), which src/ and include/ do not define" >> "$tmp/out"
done
cat "$tmp/out"
[ ! -s "$tmp/out" ]
