#!/bin/sh
# deps.sh - installs the Debian packages joulecast needs, or prints the
# exact command when not root.  `sh tools/deps.sh build|test|all`.
# Quiet and fast when everything is already installed (one dpkg-query).
set -u
BUILD_PKGS="gcc make pkg-config libprotobuf-c-dev protobuf-c-compiler libyaml-dev libcjson-dev libonnx-dev"
TEST_PKGS="libonnx-testdata valgrind python3 python3-onnx python3-torch python3-torchvision python3-pandas python3-pip python3-venv python3-setuptools python3-wheel python3-pil chromium groff-base"
# make web: emscripten, and dpkg-dev for `apt-get source` (tools/web_deps.sh)
WEB_PKGS="emscripten dpkg-dev"
case "${1:-all}" in
  build) want="$BUILD_PKGS" ;;
  web) want="$BUILD_PKGS $WEB_PKGS" ;;
  test|all) want="$BUILD_PKGS $TEST_PKGS $WEB_PKGS" ;;
  *) echo "usage: deps.sh build|web|test|all" >&2; exit 2 ;;
esac
# tools/web_deps.sh runs `apt-get source`: that needs a deb-src entry for
# the Debian archive the machine installs from (Debian images ship none).
# One is added, for the same archive and suite, when none is configured.
deb_src() {
  grep -qs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
  grep -qsi '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources && return 0
  suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  uri=$(sed -n 's/^URIs:[[:space:]]*\(.*debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  if [ -z "$suite" ] || [ "$(id -u)" != 0 ]; then
    echo "joulecast: make web needs a deb-src entry for $uri ${suite:-SUITE} main (apt-get source)" >&2
    return 1
  fi
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" "$suite" > /etc/apt/sources.list.d/joulecast-deb-src.sources
  echo "joulecast: added /etc/apt/sources.list.d/joulecast-deb-src.sources ($uri $suite, deb-src) for apt-get source" >&2
  apt-get update -q >&2 || { echo "joulecast: apt-get update failed" >&2; return 1; }
}
case " $want " in *" emscripten "*) deb_src || exit 1 ;; esac
missing=""
for p in $want; do
  st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
  case "$st" in *"ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0
echo "joulecast: missing Debian packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2 && apt-get install -y -q --no-install-recommends $missing >&2 || {
    echo "joulecast: apt-get install failed" >&2; exit 1; }
else
  echo "joulecast: run as root:  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
