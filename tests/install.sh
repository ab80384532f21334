#!/bin/sh
# install.sh - `make install` / `make uninstall` into a temporary DESTDIR:
# the layout (CLI, libjoulecast.so with its soname links, .a, header,
# joulecast.pc, share/joulecast/hwdb and its snapshot, man page, bash and
# zsh completion),
# the installed CLI run from another working directory finding the
# installed hwdb (not the source tree's: a marker written into the
# installed hwdb/VERSION must show in --version), a C program built with
# `pkg-config --cflags --libs joulecast` (and statically) calling the API,
# and an uninstall that leaves no file behind.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
SRC=$PWD
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
D=$T/dest
P=/opt/jc-test
R=$D$P
ok() { echo "PASS install/$1"; }
ko() { echo "FAIL install/$1${2:+: $2}"; }
unset JOULECAST_HWDB JOULECAST_HWDB_DIR

if make --no-print-directory -s install DESTDIR="$D" PREFIX="$P" > "$T/log" 2>&1; then
  ok make-install
else
  ko make-install "$(tail -n 5 "$T/log" | tr '\n' '|')"; exit 0
fi
v=$(sed -n 's/^#define JC_VERSION "\(.*\)"/\1/p' include/joulecast.h)
missing=""
for f in bin/joulecast lib/libjoulecast.a lib/libjoulecast.so.$v include/joulecast.h include/joulecast/bind.h \
         lib/pkgconfig/joulecast.pc share/joulecast/hwdb/VERSION share/joulecast/hwdb/devices/nvidia.yaml share/joulecast/hwdb.snap \
         share/man/man1/joulecast.1 share/bash-completion/completions/joulecast \
         share/zsh/site-functions/_joulecast; do
  [ -f "$R/$f" ] || missing="$missing $f"
done
[ -z "$missing" ] && ok layout || ko layout "missing:$missing"
[ "$(readlink "$R/lib/libjoulecast.so.0")" = "libjoulecast.so.$v" ] &&
  [ "$(readlink "$R/lib/libjoulecast.so")" = "libjoulecast.so.0" ] && ok soname-links ||
  ko soname-links "$(ls -l "$R/lib" | tr '\n' '|')"
so=$(readelf -d "$R/lib/libjoulecast.so.$v" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$so" = libjoulecast.so.0 ] && ok soname || ko soname "'$so'"
n_src=$(cd hwdb && find . -name '*.yaml' | wc -l)
n_inst=$(cd "$R/share/joulecast/hwdb" && find . -name '*.yaml' | wc -l)
[ "$n_src" = "$n_inst" ] && ok hwdb-copied || ko hwdb-copied "$n_inst of $n_src yaml files"

# the installed CLI, from another working directory, uses the installed hwdb
mkdir -p "$T/elsewhere" && cp models/tiny_cnn.onnx "$T/elsewhere/"
echo "install-test-marker $$" > "$R/share/joulecast/hwdb/VERSION"
(cd "$T/elsewhere" && "$R/bin/joulecast" --version) > "$T/v" 2>&1
grep -qx "hwdb      install-test-marker $$" "$T/v" && grep -qx "hwdb-dir  $R/share/joulecast/hwdb" "$T/v" &&
  ok installed-hwdb-found || ko installed-hwdb-found "$(tr '\n' '|' < "$T/v")"
(cd "$T/elsewhere" && "$R/bin/joulecast" hw show a100) > "$T/hw" 2>&1
# cited relative to the database root, not by the install prefix (issue 28 item 10)
grep -q " hwdb/devices/nvidia.yaml" "$T/hw" && ! grep -q "$R/share" "$T/hw" && ok installed-hwdb-cited ||
  ko installed-hwdb-cited "$(head -n 3 "$T/hw" | tr '\n' '|')"
# the installed snapshot is found, used, and changes nothing in the output
(cd "$T/elsewhere" && "$R/bin/joulecast" hwdb info) > "$T/info" 2>&1
grep -qx "snapshot        $R/share/joulecast/hwdb.snap" "$T/info" && grep -q '^state           used' "$T/info" &&
  ok installed-snapshot-used || ko installed-snapshot-used "$(tr '\n' '|' < "$T/info")"
(cd "$T/elsewhere" && JOULECAST_HWDB_SNAPSHOT=off "$R/bin/joulecast" hw show a100) > "$T/hw-yaml" 2>&1
cmp -s "$T/hw" "$T/hw-yaml" && ok installed-snapshot-same-output || ko installed-snapshot-same-output
(cd "$T/elsewhere" && "$R/bin/joulecast" estimate tiny_cnn.onnx --batch 8 --requests 1000 \
   --device a100 --region FR) > "$T/est" 2>&1 && ok installed-estimate ||
  ko installed-estimate "$(head -n 3 "$T/est" | tr '\n' '|')"
man -l "$R/share/man/man1/joulecast.1" 2>/dev/null | grep -q 'EXIT STATUS' && ok man-page || ko man-page
bash -c ". '$R/share/bash-completion/completions/joulecast'; complete -p joulecast" > /dev/null 2>&1 &&
  ok bash-completion-loads || ko bash-completion-loads

# a C client through pkg-config (dynamic and static)
export PKG_CONFIG_PATH="$R/lib/pkgconfig"
pc="pkg-config --define-variable=prefix=$R"
[ "$($pc --modversion joulecast 2>&1)" = "$v" ] && ok pkg-config-version || ko pkg-config-version "$($pc --modversion joulecast 2>&1)"
# shellcheck disable=SC2046
if cc -std=c11 -Wall -Werror -o "$T/use_api" tests/install/use_api.c $($pc --cflags --libs joulecast) 2> "$T/cc"; then
  ok pkg-config-link
  (cd "$T/elsewhere" && LD_LIBRARY_PATH="$R/lib" "$T/use_api" tiny_cnn.onnx "$R/share/joulecast/hwdb") > "$T/api" 2>&1
  rc=$?
  lib=$(LD_LIBRARY_PATH="$R/lib" ldd "$T/use_api" | awk '/libjoulecast/{print $3}')
  [ "$lib" = "$R/lib/libjoulecast.so.0" ] && ok links-installed-so || ko links-installed-so "'$lib'"
  [ $rc = 0 ] && grep -q '"mode":[[:space:]]*"training"' "$T/api" && ok api-estimate || ko api-estimate "exit $rc: $(head -n 3 "$T/api" | tr '\n' '|')"
  # the API's count equals the installed CLI's
  want=$(cd "$T/elsewhere" && "$R/bin/joulecast" count tiny_cnn.onnx --batch 8 --json |
         sed -n 's/.*"totals":[[:space:]]*{[[:space:]]*"macs":[[:space:]]*\([0-9]*\).*/\1/p')
  [ -n "$want" ] && grep -qx "macs $want" "$T/api" && ok api-count-matches-cli ||
    ko api-count-matches-cli "cli '$want'; $(grep '^macs' "$T/api")"
else
  ko pkg-config-link "$(head -n 5 "$T/cc" | tr '\n' '|')"
fi
# shellcheck disable=SC2046
if cc -std=c11 -o "$T/use_api_static" tests/install/use_api.c $($pc --cflags joulecast) "$R/lib/libjoulecast.a" \
     $($pc --static --libs joulecast | sed 's/-ljoulecast//') 2> "$T/cc"; then
  (cd "$T/elsewhere" && "$T/use_api_static" tiny_cnn.onnx "$R/share/joulecast/hwdb") > /dev/null 2>&1 &&
    ! ldd "$T/use_api_static" | grep -q libjoulecast && ok static-link || ko static-link "static client failed"
else
  ko static-link "$(head -n 5 "$T/cc" | tr '\n' '|')"
fi

# uninstall leaves nothing
if make --no-print-directory -s uninstall DESTDIR="$D" PREFIX="$P" > "$T/log" 2>&1; then
  left=$(find "$D" \( -type f -o -type l \) | sed "s|^$D||" | head -n 5 | tr '\n' ' ')
  [ -z "$left" ] && ok uninstall-clean || ko uninstall-clean "left: $left"
  [ ! -d "$R/share/joulecast" ] && ok uninstall-share-dir || ko uninstall-share-dir "$R/share/joulecast remains"
else
  ko uninstall "$(tail -n 5 "$T/log" | tr '\n' '|')"
fi
exit 0
