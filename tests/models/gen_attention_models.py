#!/usr/bin/python3
"""gen_attention_models.py - writes the tiny ONNX models of the
hand-computed attention, rotary, normalisation and softmax count tests
(tests/unit/test_cost_attention.c), one node each with fixed shapes so the
counts can be worked out by hand from the shapes below.

Run with Debian's Python (its onnx package):
    /usr/bin/python3 tests/models/gen_attention_models.py tests/models/cost
The outputs are committed (each under 2 KB); rerunning rewrites them.
The models are not checked by onnx.checker: the com.microsoft and
opset-23 ops are not in Debian's onnx schema set; joulecast reads them.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(name, node, inputs, outputs, inits=(), opset=17, ms=False):
    g = helper.make_graph([node], name, inputs, outputs, initializer=list(inits))
    ops = [helper.make_opsetid("", opset)]
    if ms:
        ops.append(helper.make_opsetid("com.microsoft", 1))
    m = helper.make_model(g, producer_name="joulecast-tests", opset_imports=ops)
    m.ir_version = 8
    return m


def f32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def i64(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.INT64, shape)


def i32(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.INT32, shape)


def const(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def build():
    out = {}
    # com.microsoft Attention: X [B=2, S=4, Din=8], W [8, 3D=24], bias [24], 2 heads (dk = dv = 4)
    out["ms_attention"] = model(
        "ms_attention",
        helper.make_node("Attention", ["X", "W", "Bias"], ["Y"], domain="com.microsoft", num_heads=2),
        [f32("X", [2, 4, 8])], [f32("Y", [2, 4, 8])],
        [const("W", np.zeros((8, 24), dtype=np.float32)), const("Bias", np.zeros(24, dtype=np.float32))],
        ms=True)
    # MultiHeadAttention: Q [B=2, S=4, D=8], K/V [2, L=6, 8], 2 heads
    out["ms_mha"] = model(
        "ms_mha",
        helper.make_node("MultiHeadAttention", ["Q", "K", "V"], ["Y"], domain="com.microsoft", num_heads=2),
        [f32("Q", [2, 4, 8]), f32("K", [2, 6, 8]), f32("V", [2, 6, 8])], [f32("Y", [2, 4, 8])], ms=True)
    # GroupQueryAttention: Q [B=1, S=3, D=8], K/V [1, 3, 4], past K/V [1, kvh=1, P=2, dh=4]; 2 heads
    out["ms_gqa"] = model(
        "ms_gqa",
        helper.make_node("GroupQueryAttention",
                         ["Q", "K", "V", "past_key", "past_value", "seqlens_k", "total_seq"],
                         ["Y", "present_key", "present_value"], domain="com.microsoft",
                         num_heads=2, kv_num_heads=1),
        [f32("Q", [1, 3, 8]), f32("K", [1, 3, 4]), f32("V", [1, 3, 4]),
         f32("past_key", [1, 1, 2, 4]), f32("past_value", [1, 1, 2, 4]),
         i32("seqlens_k", [1]), i32("total_seq", [1])],
        [f32("Y", [1, 3, 8]), f32("present_key", [1, 1, 5, 4]), f32("present_value", [1, 1, 5, 4])], ms=True)
    # RotaryEmbedding (com.microsoft): X [1, 3, 8], position ids [1, 3], caches [16, 2]
    out["ms_rotary"] = model(
        "ms_rotary",
        helper.make_node("RotaryEmbedding", ["X", "pos", "cos", "sin"], ["Y"], domain="com.microsoft"),
        [f32("X", [1, 3, 8]), i64("pos", [1, 3])], [f32("Y", [1, 3, 8])],
        [const("cos", np.ones((16, 2), dtype=np.float32)), const("sin", np.zeros((16, 2), dtype=np.float32))],
        ms=True)
    # opset-23 Attention, 4-D: Q [B=1, H=2, Sq=3, dk=4], K/V [1, 2, T=5, 4]
    out["attention23"] = model(
        "attention23", helper.make_node("Attention", ["Q", "K", "V"], ["Y"]),
        [f32("Q", [1, 2, 3, 4]), f32("K", [1, 2, 5, 4]), f32("V", [1, 2, 5, 4])], [f32("Y", [1, 2, 3, 4])],
        opset=23)
    # norms over X [2, 3, 4] (6 rows of 4), softmax over X [2, 5]
    out["layernorm"] = model(
        "layernorm", helper.make_node("LayerNormalization", ["X", "scale", "bias"], ["Y"], axis=-1),
        [f32("X", [2, 3, 4])], [f32("Y", [2, 3, 4])],
        [const("scale", np.ones(4, dtype=np.float32)), const("bias", np.zeros(4, dtype=np.float32))])
    out["rmsnorm23"] = model(
        "rmsnorm23", helper.make_node("RMSNormalization", ["X", "scale"], ["Y"], axis=-1),
        [f32("X", [2, 3, 4])], [f32("Y", [2, 3, 4])], [const("scale", np.ones(4, dtype=np.float32))], opset=23)
    out["ms_simplified_ln"] = model(
        "ms_simplified_ln",
        helper.make_node("SimplifiedLayerNormalization", ["X", "scale"], ["Y"], domain="com.microsoft", axis=-1),
        [f32("X", [2, 3, 4])], [f32("Y", [2, 3, 4])], [const("scale", np.ones(4, dtype=np.float32))], ms=True)
    out["softmax"] = model(
        "softmax", helper.make_node("Softmax", ["X"], ["Y"], axis=-1),
        [f32("X", [2, 5])], [f32("Y", [2, 5])])
    out["logsoftmax"] = model(
        "logsoftmax", helper.make_node("LogSoftmax", ["X"], ["Y"], axis=-1),
        [f32("X", [2, 5])], [f32("Y", [2, 5])])
    return out


def main():
    dst = sys.argv[1] if len(sys.argv) > 1 else "tests/models/cost"
    os.makedirs(dst, exist_ok=True)
    for name, m in sorted(build().items()):
        with open(os.path.join(dst, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())


if __name__ == "__main__":
    main()
