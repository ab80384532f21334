#!/usr/bin/python3
"""gen_absurd.py - writes the test models for count arithmetic that overflows 64 bits
(tests/scale.sh checks that `joulecast count` and `estimate` refuse them
with exit 7, JC_ERR_RANGE, naming the node):

  absurd_dims.onnx   Relu 'small_relu' on [2^20, 2^30] (fits), then
                     MatMul 'absurd_matmul' [2^20, 2^30] x [2^30, 2^20]:
                     2^70 MACs.
  absurd_bytes.onnx  Relu 'absurd_relu' on float [2^31, 2^31]: 2^62
                     elements fit in 64 bits, their 2^64 bytes do not.
  function_bomb.onnx nested model-local functions that expand to 2^23
                     nodes: the analysis stops at its budget (exit 7).

Run with Debian's /usr/bin/python3 (python3-onnx) from the repository root."""
import onnx
from onnx import TensorProto, helper


def save(nodes, inputs, outputs, path):
    g = helper.make_graph(nodes, "absurd",
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], producer_name="joulecast-tests")
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, path)


save([helper.make_node("Relu", ["a"], ["r"], name="small_relu"),
      helper.make_node("MatMul", ["r", "b"], ["y"], name="absurd_matmul")],
     [("a", [2 ** 20, 2 ** 30]), ("b", [2 ** 30, 2 ** 20])], [("y", [2 ** 20, 2 ** 20])],
     "tests/scale/absurd_dims.onnx")
save([helper.make_node("Relu", ["a"], ["y"], name="absurd_relu")],
     [("a", [2 ** 31, 2 ** 31])], [("y", [2 ** 31, 2 ** 31])],
     "tests/scale/absurd_bytes.onnx")

# function_bomb.onnx: f0 = Relu; f_i calls f_(i-1) twice; the graph calls
# f_23 once: 2^23 nodes once expanded from a 2 KB file.  The analysis must
# stop at its expansion budget with exit 7 instead of allocating without
# bound.
D = 24
funcs = [helper.make_function("bomb", "f0", ["x"], ["y"], [helper.make_node("Relu", ["x"], ["y"])],
                              [helper.make_opsetid("", 14)])]
for i in range(1, D):
    funcs.append(helper.make_function(
        "bomb", f"f{i}", ["x"], ["y"],
        [helper.make_node(f"f{i - 1}", ["x"], ["t"], domain="bomb"),
         helper.make_node(f"f{i - 1}", ["t"], ["y"], domain="bomb")],
        [helper.make_opsetid("", 14), helper.make_opsetid("bomb", 1)]))
g = helper.make_graph([helper.make_node(f"f{D - 1}", ["x"], ["y"], domain="bomb", name="top")], "bomb",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("bomb", 1)],
                      functions=funcs, producer_name="joulecast-tests")
m.ir_version = 8
onnx.save(m, "tests/scale/function_bomb.onnx")
