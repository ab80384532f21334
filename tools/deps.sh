#!/bin/sh
# deps.sh - installs the Debian packages joulecast needs, or prints the
# exact command when not root.  `sh tools/deps.sh build|web|test|all`.
# Quiet and fast when everything is already installed (one dpkg-query).
# It changes the system only after saying so on stderr ("joulecast: about
# to ..."): apt-get install of the missing packages, and for the web
# toolchain (emscripten, and Debian's C library sources that
# tools/web_deps.sh fetches with `apt-get source`) a deb-src entry in
# /etc/apt/sources.list.d/joulecast-deb-src.sources plus apt-get update.
# `test` (make test) treats the web toolchain as optional: when it is
# missing and cannot be installed (not root, no network), make test goes on
# and tests/web.sh skips the page's cases (tests/expected_skips.txt);
# `web` and `all` (make web, make deps) fail instead.  JC_APT_DIR (default
# /etc/apt) is where the apt sources are read and written (tests use a
# scratch copy: tests/deps_offline.sh).
set -u
BUILD_PKGS="gcc make pkg-config libprotobuf-c-dev protobuf-c-compiler libyaml-dev libcjson-dev libonnx-dev"
TEST_PKGS="libonnx-testdata valgrind python3 python3-onnx python3-torch python3-torchvision python3-pandas python3-pip python3-venv python3-setuptools python3-wheel python3-pil chromium groff-base"
# make web: emscripten, and dpkg-dev for `apt-get source` (tools/web_deps.sh)
WEB_PKGS="emscripten dpkg-dev"
APT=${JC_APT_DIR:-/etc/apt}
case "${1:-all}" in
  build) want="$BUILD_PKGS"; web="" ;;
  web) want="$BUILD_PKGS"; web=required ;;
  test) want="$BUILD_PKGS $TEST_PKGS"; web=optional ;;
  all) want="$BUILD_PKGS $TEST_PKGS"; web=required ;;
  *) echo "usage: deps.sh build|web|test|all" >&2; exit 2 ;;
esac

# missing PKGS...: the packages of the list dpkg does not report installed
missing() {
  for p in "$@"; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
    case "$st" in *"ok installed"*) ;; *) printf ' %s' "$p" ;; esac
  done
}

# install PKGS...: apt-get install (as root, after saying so), else the
# command printed; 1 when they are not installed
install() {
  echo "joulecast: missing Debian packages:$*" >&2
  if [ "$(id -u)" = 0 ]; then
    echo "joulecast: about to run apt-get update and apt-get install -y$* (changes this system)" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "$@" >&2 || {
      echo "joulecast: apt-get install failed" >&2; return 1; }
  else
    echo "joulecast: run as root:  apt-get update && apt-get install -y$*" >&2
    return 1
  fi
}

# tools/web_deps.sh runs `apt-get source`: that needs a deb-src entry for
# the Debian archive the machine installs from (Debian images ship none).
# One is added, for the same archive and suite, when none is configured.
deb_src() {
  grep -qs '^[[:space:]]*deb-src[[:space:]]' "$APT/sources.list" "$APT"/sources.list.d/*.list && return 0
  grep -qsi '^Types:.*deb-src' "$APT"/sources.list.d/*.sources && return 0
  suite=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
  uri=$(sed -n 's/^URIs:[[:space:]]*\(.*debian\)\/*$/\1/p' "$APT"/sources.list.d/*.sources 2>/dev/null | head -1)
  [ -n "$uri" ] || uri=http://deb.debian.org/debian
  if [ -z "$suite" ] || [ "$(id -u)" != 0 ]; then
    echo "joulecast: make web needs a deb-src entry for $uri ${suite:-SUITE} main (apt-get source)" >&2
    return 1
  fi
  echo "joulecast: about to add $APT/sources.list.d/joulecast-deb-src.sources ($uri $suite, deb-src: the C library sources make web builds) and run apt-get update (changes this system)" >&2
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" "$suite" > "$APT/sources.list.d/joulecast-deb-src.sources"
  apt-get update -q >&2 || { echo "joulecast: apt-get update failed" >&2; return 1; }
}

m=$(missing $want)
if [ -n "$m" ]; then
  # shellcheck disable=SC2086
  install $m || exit 1
fi
[ -n "$web" ] || exit 0
m=$(missing $WEB_PKGS)
if [ -n "$m" ] && [ "$web" = optional ]; then
  echo "joulecast: make test also builds and checks the web page (tests/web.sh), which needs emscripten:" >&2
fi
# shellcheck disable=SC2086
if deb_src && { [ -z "$m" ] || install $m; }; then
  exit 0
fi
if [ "$web" = optional ]; then
  echo "joulecast: the web toolchain is not ready (above): make test goes on without it, and tests/web.sh skips the page's cases (SKIP web/..., allowed by tests/expected_skips.txt)" >&2
  exit 0
fi
exit 1
