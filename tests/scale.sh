#!/bin/sh
# scale.sh - scale and overflow checks of `make test` (ASan+UBSan CLI):
# count arithmetic that overflows 64 bits is an error (exit 7) naming the
# node, for `count` and `estimate`, whether the MACs overflow
# (tests/scale/absurd_dims.onnx) or only the byte counts do
# (absurd_bytes.onnx); a function bomb stops at the expansion budget
# (function_bomb.onnx); and the generated LLM-scale graphs, when
# bench/gen_models.py has made them, count without a partial result.
# Models: tests/scale/gen_absurd.py.  Prints PASS/FAIL lines.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
T=$(mktemp -d "${TMPDIR:-/tmp}/jc_scale.XXXXXX") || exit 1   # private: make test runs may overlap
trap 'rm -rf "$T"' EXIT

expect_overflow() {  # name file node args...
  name=$1; f=$2; node=$3; shift 3
  "$JC" "$@" > $T/out 2> $T/err
  rc=$?
  if [ $rc -eq 7 ] && grep -q "node '$node'" $T/err && grep -q "overflows 64 bits" $T/err; then
    echo "PASS $name"
  else
    echo "FAIL $name: exit $rc (want 7), stderr: $(head -c 300 $T/err)"
  fi
}

expect_overflow "count: MACs of [2^20,2^30]x[2^30,2^20] overflow, named" \
  tests/scale/absurd_dims.onnx absurd_matmul count tests/scale/absurd_dims.onnx
expect_overflow "count: bytes of a [2^31,2^31] float tensor overflow, named" \
  tests/scale/absurd_bytes.onnx absurd_relu count tests/scale/absurd_bytes.onnx
expect_overflow "count --json: overflow is still an error" \
  tests/scale/absurd_dims.onnx absurd_matmul count tests/scale/absurd_dims.onnx --json
expect_overflow "estimate: overflow refused, named" \
  tests/scale/absurd_dims.onnx absurd_matmul estimate tests/scale/absurd_dims.onnx --device a100 --requests 10

# the node before the overflowing one is fine on its own: the error is not
# a blanket refusal of large dims
"$JC" count tests/scale/absurd_dims.onnx --per-node > /dev/null 2> $T/err
if grep -q "small_relu" $T/err; then echo "FAIL overflow blamed on the wrong node: $(cat $T/err)"
else echo "PASS overflow names only the node that overflows"; fi

# a 2 KB file of nested functions that expands to 2^23 nodes: refused at
# the analysis's expansion budget, not allocated (release build: the
# budget is 500,000 nodes, slow under ASan)
JCR=${JC_RELEASE:-build/joulecast}
"$JCR" count tests/scale/function_bomb.onnx > $T/out 2> $T/err
rc=$?
if [ $rc -eq 7 ] && grep -q "expands to more than" $T/err; then echo "PASS function bomb refused at the expansion budget"
else echo "FAIL function bomb: exit $rc (want 7), $(head -c 300 $T/err)"; fi

# LLM-scale graphs from bench/gen_models.py (only when generated)
for f in build/bench/llama7b.onnx build/bench/llama70b.onnx; do
  [ -f "$f" ] || continue
  "$JC" count "$f" --batch 1 --dim sequence=128 --json > $T/out 2> $T/err
  rc=$?
  if [ $rc -eq 0 ] && grep -q '"partial":false' $T/out; then echo "PASS count $f: complete"
  else echo "FAIL count $f: exit $rc, $(head -c 300 $T/err)"; fi
done
