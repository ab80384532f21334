#!/bin/sh
# deps.sh - installs the Debian packages joulecast needs, or prints the
# exact command when not root.  `sh tools/deps.sh build|test|all`.
# Quiet and fast when everything is already installed (one dpkg-query).
set -u
BUILD_PKGS="gcc make pkg-config libprotobuf-c-dev protobuf-c-compiler libyaml-dev libcjson-dev libonnx-dev"
TEST_PKGS="libonnx-testdata valgrind python3 python3-onnx python3-torch python3-torchvision python3-pandas python3-pip python3-venv python3-setuptools python3-wheel chromium groff-base"
case "${1:-all}" in
  build) want="$BUILD_PKGS" ;;
  test|all) want="$BUILD_PKGS $TEST_PKGS" ;;
  *) echo "usage: deps.sh build|test|all" >&2; exit 2 ;;
esac
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
