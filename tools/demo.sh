#!/bin/sh
# demo.sh - what `make demo` shows: real runs of joulecast on models in
# models/ with the bundled hwdb/.  Each step prints the command it runs.
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=build/joulecast
run() { printf '\n$ %s\n' "$*"; "$@"; }
run $JC inspect models/resnet50.onnx
run $JC count models/resnet50.onnx --batch 1 --top 5
run $JC estimate models/resnet50.onnx --train --samples 1281167 --epochs 90 \
    --batch 256 --host dgx-a100-640gb --region US-CA
run $JC estimate models/bert_base.onnx --dim sequence=128 --batch 32 \
    --requests 1000000 --device a100 --region FR
