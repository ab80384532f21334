#!/usr/bin/python3
"""gen_weights.py - writes the two files of the weights bench (bench/run.sh,
section `weights`): the same two-layer MLP (x[batch, 8192] -> MatMul W1
[8192, 16384] -> Relu -> MatMul W2 [16384, 8192]), once with its 1.07 GB of
float32 weights inside the file (raw_data) and once graph-only (the weights
external, in a file that is not written).  The big file is streamed to disk
(zeros), never held in memory.  Never committed: bench/run.sh writes them
into a temporary folder and removes them.

    /usr/bin/python3 bench/gen_weights.py OUT_DIR
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

from gen_models import varint   # the protobuf varint of the sparse generator

DIMS = {"W1": [8192, 16384], "W2": [16384, 8192]}


def tag(field, wire):
    return varint(field << 3 | wire)


def graph(weights):
    nodes = [helper.make_node("MatMul", ["x", "W1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("MatMul", ["r", "W2"], ["y"])]
    return helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8192])],
                             [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 8192])], weights)


def model(g):
    m = helper.make_model(g, producer_name="joulecast-bench", opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    return m


def write_graph_only(path):
    ws = []
    for name, dims in DIMS.items():
        t = onnx.TensorProto(name=name, data_type=TensorProto.FLOAT, dims=dims)
        t.data_location = TensorProto.EXTERNAL
        t.external_data.add(key="location", value="absent-weights.bin")
        ws.append(t)
    onnx.save(model(graph(ws)), path)


def write_full(path):
    # tensors without their raw_data, serialized; raw_data (field 9) is
    # appended to each as a streamed field
    heads = []
    for name, dims in DIMS.items():
        t = onnx.TensorProto(name=name, data_type=TensorProto.FLOAT, dims=dims).SerializeToString()
        n = 4 * dims[0] * dims[1]
        raw_hdr = tag(9, 2) + varint(n)
        heads.append((t, raw_hdr, n))
    g_rest = graph([]).SerializeToString()
    inits = [tag(5, 2) + varint(len(t) + len(h) + n) + t + h for t, h, n in heads]
    g_len = len(g_rest) + sum(len(i) + n for i, (_, _, n) in zip(inits, heads))
    m_rest = model(onnx.GraphProto()).SerializeToString()
    chunk = bytes(1 << 24)
    with open(path, "wb") as f:
        f.write(m_rest.replace(tag(7, 2) + varint(0), b""))   # the empty graph field, if written
        f.write(tag(7, 2) + varint(g_len))
        f.write(g_rest)
        for i, (_, _, n) in zip(inits, heads):
            f.write(i)
            while n:
                k = min(n, len(chunk))
                f.write(chunk[:k])
                n -= k


def main(out):
    os.makedirs(out, exist_ok=True)
    write_graph_only(os.path.join(out, "graph_only.onnx"))
    write_full(os.path.join(out, "full.onnx"))


if __name__ == "__main__":
    main(sys.argv[1])
