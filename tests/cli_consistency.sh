#!/bin/sh
# cli_consistency.sh - keeps the command table, --help, the man page, the
# README, the completion and the CLI conventions in agreement:
#  - every command of src/cli/commands.def (the command table) is listed by `joulecast
#    --help`, has `joulecast help CMD` (the same text as `CMD --help`) and
#    a section in build/man/joulecast.1;
#  - every long option a command's help lists is in its man section and
#    vice versa; every command that loads the hardware database takes
#    --hwdb; the man page formats without groff warnings;
#  - the exit codes of joulecast.h's jc_status, the README table and the
#    man page's EXIT STATUS are the same;
#  - --version reports JC_VERSION and hwdb/VERSION; "-" reads a model from
#    standard input; nothing writes terminal escape sequences (NO_COLOR);
#  - bash completion offers commands, options and device ids.
# The man page is generated from the help text (tools/gen_man.sh), so a
# difference here means the generator lost something.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-$PWD/build/joulecast}
MAN=build/man/joulecast.1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS cli/$1"; }
ko() { echo "FAIL cli/$1${2:+: $2}"; }

[ -f "$MAN" ] || { ko man-built "$MAN missing (make man)"; exit 0; }

# roff source of one .SS section, unescaped: \- -> -, \e -> \ .
man_section() {
  awk -v s="$1" '/^\.SS /{ on = ($0 == ".SS \"" s "\"") ; next } /^\.SH /{ on = 0 } on' "$MAN" |
    sed -e 's/\\-/-/g' -e 's/\\e/\\/g'
}
opts_of() { grep -o -- '--[a-z][a-z0-9-]*' | sort -u; }

cmds=$(sed -n 's/^CLI_COMMAND(\([a-z][a-z_]*\),.*/\1/p' src/cli/commands.def)
[ -n "$cmds" ] && ok table-parsed || ko table-parsed "no command found in src/cli/commands.def"
"$JC" --help > "$T/help" 2>&1
listed=$(awk '/^commands:/{on=1; next} on && /^$/{exit} on && /^  [a-z]/{print $1}' "$T/help")
for c in $cmds; do
  printf '%s\n' "$listed" | grep -qx "$c" && ok "listed/$c" || ko "listed/$c" "'$c' missing from joulecast --help"
  if "$JC" help "$c" > "$T/h.$c" 2>&1 && [ -s "$T/h.$c" ]; then
    "$JC" "$c" --help > "$T/h2.$c" 2>&1
    cmp -s "$T/h.$c" "$T/h2.$c" && ok "help/$c" || ko "help/$c" "'help $c' and '$c --help' differ"
  else
    ko "help/$c" "'joulecast help $c' failed or printed nothing"
  fi
  grep -qx ".SS \"$c\"" "$MAN" || { ko "man-section/$c" "no .SS \"$c\" in $MAN"; continue; }
  ok "man-section/$c"
  opts_of < "$T/h.$c" > "$T/o.help"
  man_section "$c" | opts_of > "$T/o.man"
  d1=$(comm -23 "$T/o.help" "$T/o.man" | tr '\n' ' ')
  d2=$(comm -13 "$T/o.help" "$T/o.man" | tr '\n' ' ')
  [ -z "$d1$d2" ] && ok "man-options/$c" ||
    ko "man-options/$c" "in help only: ${d1:-none}; in man only: ${d2:-none}"
  # a command that loads the database takes --hwdb
  f=src/cli/cmd_$c.c
  if [ -f "$f" ] && grep -q 'cli_hwdb_open' "$f"; then
    grep -qx -- '--hwdb' "$T/o.help" && ok "hwdb-option/$c" || ko "hwdb-option/$c" "loads the hwdb but its help lists no --hwdb"
  fi
done
for c in $listed; do
  [ "$c" = help ] && continue
  printf '%s\n' "$cmds" | grep -qx "$c" || ko "listed-only/$c" "--help lists '$c' but src/cli/commands.def has no such command"
done
"$JC" help no-such-command > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok help-unknown || ko help-unknown "exit $rc, expected 2"
"$JC" no-such-command > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok unknown-command || ko unknown-command "exit $rc, expected 2"

w=$(groff -man -ww -z "$MAN" 2>&1)
[ -z "$w" ] && ok man-groff-clean || ko man-groff-clean "$(printf '%s' "$w" | head -n 3)"
man -l "$MAN" > "$T/rendered" 2>/dev/null || groff -man -Tascii "$MAN" > "$T/rendered"
grep -q 'EXIT STATUS' "$T/rendered" && grep -q 'NO_COLOR' "$T/rendered" && ok man-renders || ko man-renders

# exit codes: header enum, README table, man page
hdr=$(awk '/^typedef enum jc_status/{on=1; next} on && /^}/{exit} on' include/joulecast/base.h |
  sed -n 's/^ *JC_[A-Z_]* = \([0-9][0-9]*\).*/\1/p' | sort -n | tr '\n' ' ')
readme=$(sed -n 's/^| \([0-9][0-9]*\) |.*/\1/p' README.md | sort -n | tr '\n' ' ')
manc=$(awk '/^\.SH EXIT STATUS/{on=1; next} /^\.SH /{on=0} on && /^\.B [0-9]+$/{print $2}' "$MAN" | sort -n | tr '\n' ' ')
[ -n "$hdr" ] && [ "$hdr" = "$readme" ] && [ "$hdr" = "$manc" ] && ok exit-codes ||
  ko exit-codes "joulecast/base.h: $hdr; README: $readme; man: $manc"

# --version
want_v=$(sed -n 's/^#define JC_VERSION "\(.*\)"/\1/p' include/joulecast.h)
want_d=$(head -n 1 hwdb/VERSION 2>/dev/null)
"$JC" --version > "$T/v" 2>&1
[ "$(sed -n 1p "$T/v")" = "joulecast $want_v" ] && ok version || ko version "$(sed -n 1p "$T/v")"
[ -n "$want_d" ] && grep -qx "hwdb      $want_d" "$T/v" && ok version-hwdb || ko version-hwdb "$(cat "$T/v" | tr '\n' '|')"
grep -qx "hwdb-dir  $PWD/hwdb" "$T/v" && ok version-hwdb-dir || ko version-hwdb-dir "$(sed -n 3p "$T/v")"

# "-": the model from standard input gives the same report as the file
"$JC" inspect models/resnet50.onnx | sed 1d > "$T/a"
"$JC" inspect - < models/resnet50.onnx > "$T/b"
[ "$(sed -n 1p "$T/b" | awk '{print $2}')" = "<stdin>" ] && sed 1d "$T/b" | cmp -s - "$T/a" &&
  ok stdin-inspect || ko stdin-inspect
"$JC" count models/tiny_cnn.onnx --batch 2 --json | sed 's/"models\/tiny_cnn.onnx"/"<stdin>"/' > "$T/a"
"$JC" count - --batch 2 --json < models/tiny_cnn.onnx > "$T/b"
cmp -s "$T/a" "$T/b" && ok stdin-count || ko stdin-count "$(diff "$T/a" "$T/b" | head -n 4 | tr '\n' '|')"
"$JC" estimate - --train --samples 1000 --epochs 1 --batch 8 --device a100 --region FR --json \
  < models/tiny_cnn.onnx > "$T/b" 2> "$T/e" && grep -q '"mode":[[:space:]]*"training"' "$T/b" &&
  ok stdin-estimate || ko stdin-estimate "$(head -n 2 "$T/e")"
"$JC" inspect - < /dev/null > /dev/null 2> "$T/e"; rc=$?
[ $rc = 4 ] && grep -q 'stdin' "$T/e" && ok stdin-empty || ko stdin-empty "exit $rc: $(cat "$T/e")"

# no escape sequences, with or without NO_COLOR, anywhere
esc=$(printf '\033')
bad=""
for args in "--help" "--version" "inspect models/tiny_cnn.onnx" "count models/tiny_cnn.onnx --batch 1" \
            "estimate models/tiny_cnn.onnx --batch 8 --requests 1000 --device a100 --region FR" \
            "hw show a100" "region show FR" "hwdb check" "ga --runtime 1h --cores 1" \
            "estimate --device a1000 --flops 1"; do
  for nc in "" 1; do
    # shellcheck disable=SC2086
    NO_COLOR=$nc "$JC" $args > "$T/out" 2>&1
    grep -q "$esc" "$T/out" && bad="$bad [$args]"
  done
done
[ -z "$bad" ] && ok no-escape-codes || ko no-escape-codes "escape sequence in:$bad"
if grep -rn '\\033\|\\x1[bB]\|\\e\[' src include > "$T/g"; then
  ko no-escape-in-source "$(head -n 2 "$T/g")"
else
  ok no-escape-in-source
fi

# every key of src/job/job_keys.def is an option of estimate (the CLI
# holds all of the library's job keys: no cap drops the later ones)
"$JC" estimate --help > "$T/esthelp" 2>&1
miss=""
for k in $(sed -n 's/^JOB_KEY("\([a-z0-9-]*\)".*/\1/p' src/job/job_keys.def); do
  grep -q -- "--$k\b" "$T/esthelp" || miss="$miss $k"
done
[ -z "$miss" ] && ok every-job-key-an-option || ko every-job-key-an-option "not in estimate --help:$miss"

# bash completion (dynamic: reads the program's own help)
if command -v bash > /dev/null; then
  comp() {  # words... -> completions offered for the last word
    bash -c '. completion/joulecast.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _joulecast; printf "%s\n" "${COMPREPLY[@]}"' _ "$@"
  }
  comp "$JC" est | grep -qx estimate && ok completion-command || ko completion-command
  comp "$JC" estimate --dev | grep -qx -- --device && ok completion-option || ko completion-option
  comp "$JC" estimate --device nvidia-a100 | grep -q '^nvidia-a100' && ok completion-device || ko completion-device
  comp "$JC" ga --run | grep -qx -- --runtime && ok completion-ga-option || ko completion-ga-option
fi
grep -q '^#compdef joulecast' completion/_joulecast && ok completion-zsh-header || ko completion-zsh-header
exit 0
