#!/usr/bin/python3
"""gen_identity_models.py - writes the small ONNX models that pin down the
graph identity (jc_model.graph_sha256, tests/unit/test_request.c): one
MatMul with a 64 x 64 float weight, three times over:
  same_a.onnx       weights all 1
  same_b.onnx       weights all 2: same graph, same size, other weights
  renamed.onnx      weights all 1, the node named differently (same size)
plus typed_a.onnx / typed_b.onnx, the weight in float_data instead of
raw_data (values 1 and 2).

Run with Debian's Python (its onnx package):
    /usr/bin/python3 tests/models/gen_identity_models.py tests/models/identity
The outputs are committed (each under 20 KB).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(value, node_name, typed):
    a = np.full((64, 64), value, np.float32)
    if typed:
        w = helper.make_tensor("W", TensorProto.FLOAT, [64, 64], a.flatten().tolist(), raw=False)
    else:
        w = numpy_helper.from_array(a, "W")
    g = helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"], name=node_name)], "identity",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 64])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 64])], [w])
    m = helper.make_model(g, producer_name="joulecast-tests", opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def main(out):
    os.makedirs(out, exist_ok=True)
    onnx.save(model(1, "mm_a", False), os.path.join(out, "same_a.onnx"))
    onnx.save(model(2, "mm_a", False), os.path.join(out, "same_b.onnx"))
    onnx.save(model(1, "mm_b", False), os.path.join(out, "renamed.onnx"))
    onnx.save(model(1, "mm_a", True), os.path.join(out, "typed_a.onnx"))
    onnx.save(model(2, "mm_a", True), os.path.join(out, "typed_b.onnx"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/models/identity")
