#!/usr/bin/python3
"""gen_wide.py - (OUT N) writes a chain of N Relu nodes to OUT (tests/hostile.sh:
count --json summarises the per-node list past JC_NODE_DETAIL_MAX nodes).
Run with Debian's /usr/bin/python3 (python3-onnx)."""
import sys
import onnx
from onnx import TensorProto, helper
n = int(sys.argv[2])
nodes = [helper.make_node("Relu", ["x" if i == 0 else f"v{i-1}"], [f"v{i}" if i < n - 1 else "y"], name=f"n{i}") for i in range(n)]
g = helper.make_graph(nodes, "wide", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)])
m.ir_version = 8
open(sys.argv[1], "wb").write(m.SerializeToString())
