#!/bin/sh
# montecarlo.sh - the ratio of issue 45 item 2: CPU time of an estimate
# with 10,000 Monte Carlo draws over one estimate of the same analysed
# graph (bench/montecarlo.c; the README's ResNet-50, 90 epochs, 8 x A100
# job).  Target: at most 20.  A ratio, not a timed test (make bench).
#   sh bench/montecarlo.sh [REPS]      (after make)
set -eu
cd "$(dirname "$0")/.."
B=build/bench
mkdir -p $B
LIBS="$(pkg-config --libs libprotobuf-c yaml-0.1 libcjson) -lm"
cc -O2 -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Iinclude -Isrc bench/montecarlo.c build/libjoulecast.a $LIBS \
  -o $B/montecarlo
$B/montecarlo hwdb models/resnet50.onnx "${1:-20}"
