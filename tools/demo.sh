#!/bin/sh
# demo.sh - what `make demo` shows: a real run of joulecast on a model in
# models/ with the bundled hwdb/.  Each step prints the command it runs.
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=build/joulecast
run() { printf '\n$ %s\n' "$*"; "$@"; }
run $JC inspect models/resnet50.onnx
if $JC help count >/dev/null 2>&1; then
  run $JC count models/resnet50.onnx --dim batch=1
fi
