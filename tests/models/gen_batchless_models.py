#!/usr/bin/python3
"""gen_batchless_models.py - writes three tiny ONNX models that have no
batch dim for --batch to bind (tests/golden/batch_binds_nothing): no
inputs at all (a Constant times a weight), a scalar input, and an input
whose first dim is fixed at 0.

Run with Debian's Python (its onnx package):
    /usr/bin/python3 tests/models/gen_batchless_models.py tests/models/batchless
The outputs are committed (each under 20 KB).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(graph, path):
    m = helper.make_model(graph, producer_name="joulecast-tests", opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)


def main(out):
    os.makedirs(out, exist_ok=True)
    w = numpy_helper.from_array(np.ones((4, 4), np.float32), "W")
    c = helper.make_node("Constant", [], ["c"], value=numpy_helper.from_array(np.ones((2, 4), np.float32)))
    save(helper.make_graph([c, helper.make_node("MatMul", ["c", "W"], ["y"])], "no_inputs", [],
                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])], [w]),
         os.path.join(out, "no_inputs.onnx"))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [])
    save(helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "scalar_input", [x],
                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])]),
         os.path.join(out, "scalar_input.onnx"))
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [0, 16])
    w = numpy_helper.from_array(np.ones((16, 16), np.float32), "W")
    save(helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"])], "zero_first_dim", [x],
                           [helper.make_tensor_value_info("y", TensorProto.FLOAT, [0, 16])], [w]),
         os.path.join(out, "zero_first_dim.onnx"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/models/batchless")
