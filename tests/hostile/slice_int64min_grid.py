#!/usr/bin/env python3
"""slice_int64min_grid.py - issue 43 item 15: Slice with step INT64_MIN.

Writes OUT.onnx, one graph of Slice nodes with steps = [INT64_MIN] over
every pair of starts and ends from {INT64_MIN, INT64_MAX, -11, -1, 0, 3, 9}
on a [10, 4] input, an empty [0, 3] input, and a rank-1 shape vector whose
values are folded (Shape of a rank-10 tensor), and OUT.json, each node's
output shape by the operator's text (starts and ends made non-negative by
adding the dim, then clamped to [0, dim-1] and [-1, dim-1] for a negative
step) as onnx's own shape inference (strict mode) gives it, except on the
empty axis: there the clamp ranges are empty and onnx infers one row of
none, so the expected shape is the empty one (numpy's, and the only
possible one).  (numpy slicing, which the reference evaluator uses,
differs from the text where a start below -dim clamps to -1, not 0.)
tests/hostile.sh compares joulecast's count --json with it: 0 or 1 rows,
never a size from an overflowing |step|, never a row of an empty axis.

usage: slice_int64min_grid.py OUT   (Debian's /usr/bin/python3 with python3-onnx)
"""
import itertools
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

MIN, MAX = -2**63, 2**63 - 1
VALS = [MIN, MAX, -11, -1, 0, 3, 9]


def main():
    out = sys.argv[1]
    inits = [numpy_helper.from_array(np.array([MIN], np.int64), "step"),
             numpy_helper.from_array(np.array([0], np.int64), "axis")]
    nodes = [helper.make_node("Shape", ["v10"], ["shape10"], name="shape10")]
    names = []
    for k, (s, e) in enumerate(itertools.product(VALS, VALS)):
        inits += [numpy_helper.from_array(np.array([s], np.int64), "s%d" % k),
                  numpy_helper.from_array(np.array([e], np.int64), "e%d" % k)]
        for src in ("x", "empty", "shape10"):
            name = "slice_%s_%d" % (src, k)
            nodes.append(helper.make_node("Slice", [src, "s%d" % k, "e%d" % k, "axis", "step"], [name + "_y"],
                                          name=name))
            names.append(name)
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [10, 4]),
              helper.make_tensor_value_info("empty", TensorProto.FLOAT, [0, 3]),
              helper.make_tensor_value_info("v10", TensorProto.FLOAT, [2] * 10)]
    outputs = [helper.make_tensor_value_info(n + "_y", TensorProto.INT64 if "shape10" in n else TensorProto.FLOAT, None)
               for n in names]
    g = helper.make_graph(nodes, "slice_int64min_grid", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="joulecast-tests")
    m.ir_version = 8
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    shapes = {}
    for vi in inferred.graph.output:
        name = vi.name[:-2]
        shapes[name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
        if name.startswith("slice_empty_"):
            shapes[name][0] = 0
    onnx.save(m, out + ".onnx")
    with open(out + ".json", "w") as f:
        json.dump(shapes, f)


if __name__ == "__main__":
    main()
