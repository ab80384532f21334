#!/bin/sh
# gen_man.sh - generates the joulecast(1) man page from the program's own
# help text, so the page cannot drift from the options the commands take:
#   sh tools/gen_man.sh build/joulecast man/joulecast.1.in > build/man/joulecast.1
# The template holds the hand-written prose (name, description, exit
# status, environment, files); its line "@COMMANDS@" becomes one .SS
# subsection per command, converted from `joulecast help COMMAND`, in the
# order of `joulecast --help`; "@VERSION@" becomes the program version.
# Conversion: "usage:" blocks and indented non-option lines stay
# verbatim (.nf), option lines "  --opt ARG   text" become .TP entries
# (deeper-indented lines continue the text), other lines are filled
# prose.  Hyphens, backslashes and leading dots are escaped for roff.
set -eu
export LC_ALL=C
JC=$1
TEMPLATE=$2
version=$("$JC" --version | sed -n '1s/^joulecast //p')
[ -n "$version" ] || { echo "gen_man.sh: '$JC --version' printed no version" >&2; exit 1; }
# commands as `joulecast --help` lists them: "  NAME  summary" lines
# between "commands:" and the next blank line ("help" has its own
# section in the template)
cmds=$("$JC" --help | awk '/^commands:/{on=1; next} on && /^$/{exit} on && /^  [a-z]/ && $1 != "help" {print $1}')
[ -n "$cmds" ] || { echo "gen_man.sh: '$JC --help' lists no commands" >&2; exit 1; }

roff_cmd() {  # command name -> roff subsection on stdout
  summary=$("$JC" --help | awk -v c="$1" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
  printf '.SS "%s"\n' "$1"
  printf '%s\n' "$summary" | sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/^[.'"'"']/\\\&&/'
  printf '.PP\n'
  "$JC" help "$1" | awk '
    function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); if (s ~ /^[.\047]/) s = "\\&" s; return s }
    function endverb() { if (verb) { print ".fi"; verb = 0 } }
    function endopt() { opt = 0 }
    BEGIN { verb = 0; opt = 0; usage = 0 }
    /^usage: / { endopt(); print ".nf"; verb = 1; usage = 1; sub(/^usage: /, ""); print esc($0); next }
    /^$/ { endverb(); endopt(); usage = 0; print ".PP"; next }
    usage { print esc($0); next }
    /^  +-/ {
      endverb()
      line = $0; sub(/^ +/, "", line)
      spec = line; text = ""
      if (match(line, /   */)) { spec = substr(line, 1, RSTART - 1); text = substr(line, RSTART + RLENGTH) }
      print ".TP"; print ".B " esc(spec)
      if (text != "") print esc(text)
      opt = 1; next
    }
    opt && /^    / { line = $0; sub(/^ +/, "", line); print esc(line); next }
    /^ / { endopt(); if (!verb) { print ".nf"; verb = 1 } print esc($0); next }
    { endverb(); endopt(); print esc($0) }
    END { endverb() }'
}

while IFS= read -r line; do
  case "$line" in
    @COMMANDS@) for c in $cmds; do roff_cmd "$c"; done ;;
    *@VERSION@*) printf '%s\n' "$line" | sed "s/@VERSION@/$version/" ;;
    *) printf '%s\n' "$line" ;;
  esac
done < "$TEMPLATE"
