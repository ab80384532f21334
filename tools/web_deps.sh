#!/bin/sh
# web_deps.sh - builds the C libraries joulecast needs (cJSON, libyaml,
# protobuf-c's runtime) for WebAssembly with emcc, from Debian's own
# source packages: `apt-get source` fetches each (its files checked
# against the signed Sources index of the archive; dpkg-source unpacks
# and applies Debian's patches), the version being the one the installed
# -dev package was built from.  Nothing is vendored in the repository.
#   sh tools/web_deps.sh OUTDIR
# writes OUTDIR/lib/lib{cjson,yaml,protobuf-c}.a, OUTDIR/include/ and
# OUTDIR/stamp (the versions); reruns are free while the stamp matches.
set -eu
out=${1:?usage: web_deps.sh OUTDIR}
EMCC=${EMCC:-emcc}
CFL="-O2 -w"

# source package and version of each library, as the native build uses it
ver() { dpkg-query -W -f='${source:Version}' "$1" 2>/dev/null || true; }
want="cjson=$(ver libcjson-dev) libyaml=$(ver libyaml-dev) protobuf-c=$(ver libprotobuf-c-dev)"
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$want" ] &&
   [ -f "$out/lib/libcjson.a" ] && [ -f "$out/lib/libyaml.a" ] && [ -f "$out/lib/libprotobuf-c.a" ]; then
  exit 0
fi
command -v "$EMCC" >/dev/null 2>&1 || { echo "web_deps: $EMCC not found (make deps installs emscripten)" >&2; exit 1; }
command -v apt-get >/dev/null 2>&1 || { echo "web_deps: apt-get not found (Debian's source packages are needed)" >&2; exit 1; }

rm -rf "$out/src" "$out/lib" "$out/include" "$out/stamp"
mkdir -p "$out/src" "$out/lib" "$out/include/cjson" "$out/include/protobuf-c" "$out/obj"
for p in $want; do
  name=${p%%=*}; v=${p#*=}
  spec=$name; [ -n "$v" ] && spec="$name=$v"
  echo "web_deps: apt-get source $spec" >&2
  # -q: one line per file; the archive's checksums are verified by apt
  (cd "$out/src" && apt-get source -q --only-source "$spec" >&2) || {
    echo "web_deps: apt-get source $spec failed: is a deb-src entry configured? (make deps adds one)" >&2
    exit 1; }
done
src=$out/src
cj=$(ls -d "$src"/cjson-*/ | head -1)
ym=$(ls -d "$src"/libyaml-*/ | head -1)
pb=$(ls -d "$src"/protobuf-c-*/ | head -1)

# cJSON: one file
cp "$cj/cJSON.h" "$out/include/cjson/cJSON.h"
$EMCC $CFL -c "$cj/cJSON.c" -o "$out/obj/cJSON.o"
emar rcs "$out/lib/libcjson.a" "$out/obj/cJSON.o"

# libyaml: src/*.c with the version its configure would define
yv=$(basename "$ym" | sed 's/^libyaml-//')
ymaj=$(echo "$yv" | cut -d. -f1); ymin=$(echo "$yv" | cut -d. -f2); ypat=$(echo "$yv" | cut -d. -f3)
cp "$ym/include/yaml.h" "$out/include/yaml.h"
for f in "$ym"/src/*.c; do
  $EMCC $CFL -DYAML_VERSION_MAJOR="$ymaj" -DYAML_VERSION_MINOR="$ymin" -DYAML_VERSION_PATCH="$ypat" \
    -DYAML_VERSION_STRING="\"$yv\"" -I"$ym/include" -c "$f" -o "$out/obj/yaml_$(basename "$f" .c).o"
done
emar rcs "$out/lib/libyaml.a" "$out"/obj/yaml_*.o

# protobuf-c: the runtime (the generated onnx.pb-c.c is built by make web)
cp "$pb/protobuf-c/protobuf-c.h" "$out/include/protobuf-c/protobuf-c.h"
$EMCC $CFL -I"$pb" -c "$pb/protobuf-c/protobuf-c.c" -o "$out/obj/protobuf-c.o"
emar rcs "$out/lib/libprotobuf-c.a" "$out/obj/protobuf-c.o"

echo "$want" > "$out/stamp"
echo "web_deps: built $want for wasm into $out" >&2
