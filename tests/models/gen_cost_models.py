#!/usr/bin/python3
"""gen_cost_models.py - writes the tiny ONNX models of the hand-computed
count tests (tests/unit/test_cost.c) and of the --op-rules tests.

Run with Debian's Python (its onnx package):
    /usr/bin/python3 tests/models/gen_cost_models.py tests/models/cost
The outputs are committed (each well under 10 KB); rerunning the script
rewrites them byte for byte.  Every model has fixed shapes, so the counts
in test_cost.c can be worked out by hand from the shapes given here.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13


def model(name, nodes, inputs, outputs, inits=(), opset=OPSET, extra_opsets=()):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    ops = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    m = helper.make_model(g, producer_name="joulecast-tests", opset_imports=ops)
    m.ir_version = 8
    return m


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def const(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def build():
    out = {}
    # Resize X[1,3,4,4] -> Y[1,3,8,8] (192 outputs) by scales, each mode.
    for mode in ("nearest", "linear", "cubic"):
        out["resize_" + mode] = model(
            "resize_" + mode,
            [helper.make_node("Resize", ["X", "", "scales"], ["Y"], mode=mode)],
            [f32("X", [1, 3, 4, 4])], [f32("Y", [1, 3, 8, 8])],
            [const("scales", np.array([1, 1, 2, 2], dtype=np.float32))])
    # Einsum with three operands: i=2 j=3 k=4 l=5.
    out["einsum_3ops"] = model(
        "einsum_3ops",
        [helper.make_node("Einsum", ["A", "B", "C"], ["Y"], equation="ij,jk,kl->il")],
        [f32("A", [2, 3]), f32("B", [3, 4]), f32("C", [4, 5])], [f32("Y", [2, 5])])
    # 1-D MatMul cases: vector @ matrix, batched matrix @ vector, dot.
    out["matmul_1d"] = model(
        "matmul_1d",
        [helper.make_node("MatMul", ["v3", "M34"], ["Y1"]),
         helper.make_node("MatMul", ["B234", "v4"], ["Y2"]),
         helper.make_node("MatMul", ["v4", "v4b"], ["Y3"])],
        [f32("v3", [3]), f32("M34", [3, 4]), f32("B234", [2, 3, 4]), f32("v4", [4]), f32("v4b", [4])],
        [f32("Y1", [4]), f32("Y2", [2, 3]), f32("Y3", [])])
    # Gemm: alpha and beta other than 1, C broadcast from [N], transB.
    out["gemm_alpha_beta"] = model(
        "gemm_alpha_beta",
        [helper.make_node("Gemm", ["A", "B", "C"], ["Y"], alpha=0.5, beta=2.0, transB=1)],
        [f32("A", [2, 3]), f32("B", [4, 3]), f32("C", [4])], [f32("Y", [2, 4])])
    # Gemm without C.
    out["gemm_no_c"] = model(
        "gemm_no_c",
        [helper.make_node("Gemm", ["A", "B"], ["Y"])],
        [f32("A", [2, 3]), f32("B", [3, 4])], [f32("Y", [2, 4])])
    # Grouped, strided ConvTranspose: X[1,4,3,3], W[4,2,3,3], group 2 -> 4 channels.
    out["convtranspose_grouped"] = model(
        "convtranspose_grouped",
        [helper.make_node("ConvTranspose", ["X", "W"], ["Y"], group=2, strides=[2, 2])],
        [f32("X", [1, 4, 3, 3])], [f32("Y", [1, 4, 7, 7])],
        [const("W", np.zeros((4, 2, 3, 3), dtype=np.float32))])
    # Grouped + dilated + padded Conv with bias: X[1,4,6,6], W[6,2,3,3], group 2,
    # dilation 2, pads 2 -> Y[1,6,6,6].
    out["conv_group_dilated"] = model(
        "conv_group_dilated",
        [helper.make_node("Conv", ["X", "W", "b"], ["Y"], group=2, dilations=[2, 2], pads=[2, 2, 2, 2])],
        [f32("X", [1, 4, 6, 6])], [f32("Y", [1, 6, 6, 6])],
        [const("W", np.zeros((6, 2, 3, 3), dtype=np.float32)), const("b", np.zeros(6, dtype=np.float32))])
    # RNN family without bias (W, R only), S=2 N=1 I=3 H=4.
    for op, gates in (("RNN", 1), ("GRU", 3), ("LSTM", 4)):
        for bias in (False, True):
            ins = ["X", "W", "R"] + (["B"] if bias else [])
            inits = [const("W", np.zeros((1, gates * 4, 3), dtype=np.float32)),
                     const("R", np.zeros((1, gates * 4, 4), dtype=np.float32))]
            if bias:
                inits.append(const("B", np.zeros((1, 2 * gates * 4), dtype=np.float32)))
            nm = op.lower() + ("_bias" if bias else "_nobias")
            out[nm] = model(nm, [helper.make_node(op, ins, ["Y"], hidden_size=4)],
                            [f32("X", [2, 1, 3])], [f32("Y", [2, 1, 1, 4])], inits)
    # Pooling: MaxPool with pads and ceil_mode, AveragePool counting pads.
    out["maxpool_pads_ceil"] = model(
        "maxpool_pads_ceil",
        [helper.make_node("MaxPool", ["X"], ["Y"], kernel_shape=[3, 3], strides=[2, 2],
                          pads=[1, 1, 1, 1], ceil_mode=1)],
        [f32("X", [1, 2, 6, 6])], [f32("Y", [1, 2, 4, 4])])
    out["avgpool_pads"] = model(
        "avgpool_pads",
        [helper.make_node("AveragePool", ["X"], ["Y"], kernel_shape=[2, 2], pads=[1, 1, 1, 1],
                          count_include_pad=1)],
        [f32("X", [1, 1, 4, 4])], [f32("Y", [1, 1, 5, 5])])
    # A custom op for --op-rules: com.example:FusedDense(X[2,8,16], W[16,32])
    # -> Y[2,8,32], then Relu.
    out["custom_fused_dense"] = model(
        "custom_fused_dense",
        [helper.make_node("FusedDense", ["X", "W"], ["H"], domain="com.example", activation="none", units=32),
         helper.make_node("Relu", ["H"], ["Y"])],
        [f32("X", [2, 8, 16])], [f32("Y", [2, 8, 32])],
        [const("W", np.zeros((16, 32), dtype=np.float32))],
        extra_opsets=[("com.example", 1)])
    out.update(control_flow_models())
    return out


def loop_body(name, nodes, x_shape):
    """A Loop body (iteration, cond, x) -> (cond, y)."""
    return helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"])] + nodes, name,
        [helper.make_tensor_value_info("iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []), f32("x", x_shape)],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), f32("y", x_shape)])


def control_flow_models():
    """Models of #18 items 9 and 19 (test_cost.c, golden cases)."""
    out = {}
    # Loop of 3 trips whose body multiplies by the main graph's W[4,4]
    # twice: W is an outer-scope initializer (16 params, 64 bytes, counted
    # once); 3 x 2 x 16 = 96 MACs.
    body = loop_body("body", [helper.make_node("MatMul", ["x", "W"], ["h"]),
                              helper.make_node("MatMul", ["h", "W"], ["y"])], [1, 4])
    out["loop_outer_weight"] = model(
        "loop_outer_weight",
        [helper.make_node("Loop", ["M", "", "X"], ["Y"], body=body)],
        [f32("X", [1, 4])], [f32("Y", [1, 4])],
        [const("M", np.array(3, dtype=np.int64)),
         const("W", (np.arange(16, dtype=np.float32) / 16).reshape(4, 4))])
    # Loop with the constant trip count 2^62 and no condition: the body's
    # one Add runs 2^62 times (4,611,686,018,427,387,904 FLOPs, fits int64).
    body = loop_body("body", [helper.make_node("Add", ["x", "x"], ["y"])], [1])
    out["loop_trips_2p62"] = model(
        "loop_trips_2p62",
        [helper.make_node("Loop", ["M", "", "X"], ["Y"], body=body)],
        [f32("X", [1])], [f32("Y", [1])],
        [const("M", np.array(2 ** 62, dtype=np.int64))])
    # A while loop as PyTorch writes it: M = INT64_MAX and a condition the
    # body recomputes (sum(y) < 100): the trip count depends on data.
    body = helper.make_graph(
        [helper.make_node("Add", ["x", "x"], ["y"]),
         helper.make_node("ReduceSum", ["y"], ["s"], keepdims=0),
         helper.make_node("Less", ["s", "limit"], ["cond_out"])], "body",
        [helper.make_tensor_value_info("iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []), f32("x", [4])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), f32("y", [4])])
    out["loop_while"] = model(
        "loop_while",
        [helper.make_node("Loop", ["M", "C", "X"], ["Y"], body=body)],
        [f32("X", [4])], [f32("Y", [4])],
        [const("M", np.array(2 ** 63 - 1, dtype=np.int64)), const("C", np.array(True)),
         const("limit", np.array(100, dtype=np.float32))])
    # A cycle: A = Add(X, B), B = Relu(A) (not a valid ONNX graph).
    out["cyclic"] = model(
        "cyclic",
        [helper.make_node("Add", ["X", "B"], ["A"], name="add"),
         helper.make_node("Relu", ["A"], ["B"], name="relu")],
        [f32("X", [2])], [f32("A", [2])])
    return out


def main():
    dest = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "cost")
    os.makedirs(dest, exist_ok=True)
    for name, m in sorted(build().items()):
        if name not in ("custom_fused_dense", "cyclic"):
            onnx.checker.check_model(m, full_check=True)
        path = os.path.join(dest, name + ".onnx")
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        print(path, os.path.getsize(path))


if __name__ == "__main__":
    main()
