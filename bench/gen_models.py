#!/usr/bin/python3
"""gen_models.py - generates the benchmark models of bench/run.sh into build/bench/ (never
committed).  Run with Debian's /usr/bin/python3 (python3-onnx, numpy,
torch 1.13 for the transformer only).

  transformer  BERT-large shaped encoder (24 layers, d=1024, 16 heads,
               ff 4096; 335 M parameters) exported by torch with every
               weight inside one file: bert_large.full.onnx (~1.34 GB).
  llm          Llama decoders written with onnx.helper in the style of a
               torch export (dynamic batch and sequence, shape arithmetic
               through Shape/Gather/Concat and Constant nodes, RMSNorm,
               RoPE, SwiGLU, causal mask); every weight is external data
               (float16) in <name>.weights, which is NOT written:
               llama7b.onnx  (Llama-2-7B shapes: 32 layers, d=4096, 32
                              heads, ff 11008, vocab 32000; ~4,300 nodes)
               llama70b.onnx (Llama-2-70B shapes: 80 layers, d=8192, 64
                              heads, 8 KV heads, ff 28672; >10,000 nodes)
  nas          1,000 small CNN variants, architecture-search style (random
               depth, widths, kernels, strides, pooling, residuals), weights
               inside: nas/cand_0000.onnx ... (seeded, reproducible).
  chain        generated graphs of N nodes (MatMul/Add/Relu/LayerNorm
               blocks on [batch, 16]): chain_10000.onnx, chain_100000.onnx.
  sparse       a >2 GB ModelProto written as a sparse file: one float32
               initializer whose raw_data spans 2.2 GB (holes on disk), then
               a MatMul node after the 2 GB mark: huge_sparse.onnx.

usage: bench/gen_models.py [--out build/bench] WHAT...
"""
import argparse
import os
import random
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 14


def const_node(nodes, name, values, dtype=np.int64):
    """A torch-style Constant node holding a small int64 tensor."""
    arr = np.array(values, dtype=dtype)
    t = numpy_helper.from_array(arr, name + "_value")
    nodes.append(helper.make_node("Constant", [], [name], name=name + "_node", value=t))
    return name


# ---------------------------------------------------------------------------
# LLM: Llama-7B shapes, external weights that are not present
# ---------------------------------------------------------------------------

class Ext:
    """Initializers whose data lives in an external file that is never
    written; offsets advance as a real export's would."""

    def __init__(self, location):
        self.location, self.offset, self.inits = location, 0, []

    def add(self, name, dims, dtype=TensorProto.FLOAT16):
        t = TensorProto()
        t.name = name
        t.data_type = dtype
        t.dims.extend(dims)
        t.data_location = TensorProto.EXTERNAL
        n = int(np.prod(dims)) * (2 if dtype == TensorProto.FLOAT16 else 4)
        for k, v in (("location", self.location), ("offset", str(self.offset)),
                     ("length", str(n))):
            e = t.external_data.add()
            e.key, e.value = k, v
        self.offset += n
        self.inits.append(t)
        return name


def gen_llm(out, name="llama7b", layers=32, d=4096, heads=32, kv_heads=32, ff=11008,
            vocab=32000, max_pos=4096):
    dh = d // heads
    nodes, ext = [], Ext(name + ".weights")
    uid = [0]

    def u(p):
        uid[0] += 1
        return f"/{p}_{uid[0]}"

    def node(op, ins, n_out=1, **attrs):
        name = u(op)
        outs = [f"{name}_out{i}" for i in range(n_out)]
        nodes.append(helper.make_node(op, ins, outs, name=name, **attrs))
        return outs[0] if n_out == 1 else outs

    def dim_of(x, i):
        """Shape(x)[i] as a 1-D tensor, the way torch exports x.size(i)."""
        s = node("Shape", [x])
        idx = const_node(nodes, u("Constant"), i)
        g = node("Gather", [s, idx], axis=0)
        ax = const_node(nodes, u("Constant"), [0])
        return node("Unsqueeze", [g, ax])

    def reshape(x, parts):
        """parts: ints (constants) or 1-D tensors from dim_of."""
        cat = []
        for p in parts:
            cat.append(const_node(nodes, u("Constant"), [p]) if isinstance(p, int) else p)
        shape = node("Concat", cat, axis=0)
        return node("Reshape", [x, shape])

    def rmsnorm(x, w):
        # HF casts to float32 for the variance
        xf = node("Cast", [x], to=TensorProto.FLOAT)
        two = const_node(nodes, u("Constant"), 2.0, np.float32)
        p = node("Pow", [xf, two])
        m = node("ReduceMean", [p], axes=[-1], keepdims=1)
        eps = const_node(nodes, u("Constant"), 1e-6, np.float32)
        a = node("Add", [m, eps])
        s = node("Sqrt", [a])
        one = const_node(nodes, u("Constant"), 1.0, np.float32)
        r = node("Div", [one, s])
        y = node("Mul", [xf, r])
        y = node("Cast", [y], to=TensorProto.FLOAT16)
        return node("Mul", [w, y])

    def slice_last(x, start, end):
        st = const_node(nodes, u("Constant"), [start])
        en = const_node(nodes, u("Constant"), [end])
        ax = const_node(nodes, u("Constant"), [-1])
        sp = const_node(nodes, u("Constant"), [1])
        return node("Slice", [x, st, en, ax, sp])

    def rope(x, cos, sin):
        x1 = slice_last(x, 0, dh // 2)
        x2 = slice_last(x, dh // 2, 2 ** 62)
        rot = node("Concat", [node("Neg", [x2]), x1], axis=-1)
        return node("Add", [node("Mul", [x, cos]), node("Mul", [rot, sin])])

    ids = "input_ids"
    emb = ext.add("model.embed_tokens.weight", [vocab, d])
    cos_c = ext.add("model.rotary_emb.cos_cached", [max_pos, dh])
    sin_c = ext.add("model.rotary_emb.sin_cached", [max_pos, dh])
    h = node("Gather", [emb, ids], axis=0)
    # positions 0..seq-1 and the causal mask, once
    seq = dim_of(ids, 1)
    seq_s = node("Squeeze", [seq, const_node(nodes, u("Constant"), [0])])
    zero = const_node(nodes, u("Constant"), 0)
    onec = const_node(nodes, u("Constant"), 1)
    pos = node("Range", [zero, seq_s, onec])
    cos = node("Unsqueeze", [node("Unsqueeze", [node("Gather", [cos_c, pos], axis=0),
                                                const_node(nodes, u("Constant"), [0])]),
                             const_node(nodes, u("Constant"), [0])])
    sin = node("Unsqueeze", [node("Unsqueeze", [node("Gather", [sin_c, pos], axis=0),
                                                const_node(nodes, u("Constant"), [0])]),
                             const_node(nodes, u("Constant"), [0])])
    mshape = node("Concat", [seq, seq], axis=0)
    neg = helper.make_tensor("neg_value", TensorProto.FLOAT16, [1], [-65504.0])
    full = node("ConstantOfShape", [mshape], value=neg)
    mask = node("Trilu", [full, const_node(nodes, u("Constant"), 1)], upper=1)
    mask = node("Unsqueeze", [mask, const_node(nodes, u("Constant"), [0, 1])])
    scale = const_node(nodes, u("Constant"), float(np.sqrt(dh)), np.float16)

    for i in range(layers):
        p = f"model.layers.{i}."
        x = rmsnorm(h, ext.add(p + "input_layernorm.weight", [d]))
        b, s = dim_of(x, 0), dim_of(x, 1)
        q = node("MatMul", [x, ext.add(p + "self_attn.q_proj.weight", [d, d])])
        k = node("MatMul", [x, ext.add(p + "self_attn.k_proj.weight", [d, kv_heads * dh])])
        v = node("MatMul", [x, ext.add(p + "self_attn.v_proj.weight", [d, kv_heads * dh])])
        q = node("Transpose", [reshape(q, [dim_of(q, 0), dim_of(q, 1), heads, dh])], perm=[0, 2, 1, 3])
        k = node("Transpose", [reshape(k, [dim_of(k, 0), dim_of(k, 1), kv_heads, dh])], perm=[0, 2, 1, 3])
        v = node("Transpose", [reshape(v, [dim_of(v, 0), dim_of(v, 1), kv_heads, dh])], perm=[0, 2, 1, 3])
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        if kv_heads < heads:   # grouped-query attention: repeat_kv
            rep = heads // kv_heads

            def repeat_kv(t):
                e = node("Unsqueeze", [t, const_node(nodes, u("Constant"), [2])])
                shp = node("Concat", [dim_of(t, 0), const_node(nodes, u("Constant"), [kv_heads]),
                                      const_node(nodes, u("Constant"), [rep]), dim_of(t, 2),
                                      const_node(nodes, u("Constant"), [dh])], axis=0)
                e = node("Expand", [e, shp])
                return reshape(e, [dim_of(t, 0), heads, dim_of(t, 2), dh])
            k, v = repeat_kv(k), repeat_kv(v)
        kt = node("Transpose", [k], perm=[0, 1, 3, 2])
        sc = node("Div", [node("MatMul", [q, kt]), scale])
        sc = node("Add", [sc, mask])
        sc = node("Cast", [node("Softmax", [node("Cast", [sc], to=TensorProto.FLOAT)], axis=-1)],
                  to=TensorProto.FLOAT16)
        o = node("Transpose", [node("MatMul", [sc, v])], perm=[0, 2, 1, 3])
        o = reshape(o, [b, s, d])
        o = node("MatMul", [o, ext.add(p + "self_attn.o_proj.weight", [d, d])])
        h = node("Add", [h, o])
        x = rmsnorm(h, ext.add(p + "post_attention_layernorm.weight", [d]))
        g = node("MatMul", [x, ext.add(p + "mlp.gate_proj.weight", [d, ff])])
        g = node("Mul", [g, node("Sigmoid", [g])])
        up = node("MatMul", [x, ext.add(p + "mlp.up_proj.weight", [d, ff])])
        dn = node("MatMul", [node("Mul", [g, up]), ext.add(p + "mlp.down_proj.weight", [ff, d])])
        h = node("Add", [h, dn])
    h = rmsnorm(h, ext.add("model.norm.weight", [d]))
    logits = node("MatMul", [h, ext.add("lm_head.weight", [d, vocab])])
    nodes.append(helper.make_node("Identity", [logits], ["logits"], name="/output"))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(ids, TensorProto.INT64, ["batch", "sequence"])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT16, ["batch", "sequence", vocab])],
        initializer=ext.inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                          producer_name="joulecast-bench")
    m.ir_version = 8
    path = os.path.join(out, name + ".onnx")
    onnx.save(m, path)
    print(f"llm: {path} ({layers} layers, d={d}): {len(nodes)} nodes, {len(ext.inits)} initializers, "
          f"{ext.offset / 1e9:.1f} GB of external weights (not written)")


# ---------------------------------------------------------------------------
# NAS: 1,000 small CNN variants
# ---------------------------------------------------------------------------

def gen_nas(out, count=1000, seed=1234):
    rng = random.Random(seed)
    d = os.path.join(out, "nas")
    os.makedirs(d, exist_ok=True)
    total = 0
    for n in range(count):
        nodes, inits = [], []

        def w(name, shape):
            inits.append(numpy_helper.from_array(np.zeros(shape, np.float32), name))
            return name

        x, c, hw = "input", 3, 32
        blocks = rng.randint(3, 8)
        for b in range(blocks):
            co = rng.choice([8, 16, 24, 32, 48, 64])
            k = rng.choice([1, 3, 5])
            st = 2 if (rng.random() < 0.3 and hw > 4) else 1
            y = f"c{b}"
            nodes.append(helper.make_node("Conv", [x, w(f"w{b}", [co, c, k, k]), w(f"b{b}", [co])], [y],
                                          name=f"conv{b}", kernel_shape=[k, k], strides=[st, st],
                                          pads=[k // 2] * 4))
            act = rng.choice(["Relu", "Sigmoid", "HardSwish", "Relu"])
            nodes.append(helper.make_node(act, [y], [y + "a"], name=f"act{b}"))
            y += "a"
            if st == 1 and co == c and rng.random() < 0.5:
                nodes.append(helper.make_node("Add", [x, y], [y + "r"], name=f"res{b}"))
                y += "r"
            if rng.random() < 0.25 and hw > 4:
                nodes.append(helper.make_node(rng.choice(["MaxPool", "AveragePool"]), [y], [y + "p"],
                                              name=f"pool{b}", kernel_shape=[2, 2], strides=[2, 2]))
                y += "p"
                hw //= 2
            if st == 2:
                hw = (hw + 1) // 2
            x, c = y, co
        nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"], name="gap"))
        nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"))
        nodes.append(helper.make_node("Gemm", ["flat", w("fc_w", [10, c]), w("fc_b", [10])], ["logits"],
                                      name="fc", transB=1))
        g = helper.make_graph(nodes, f"cand{n}",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 3, 32, 32])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", 10])],
                              initializer=inits)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="joulecast-bench")
        m.ir_version = 8
        p = os.path.join(d, f"cand_{n:04d}.onnx")
        onnx.save(m, p)
        total += os.path.getsize(p)
    print(f"nas: {count} models in {d}, {total / 1e6:.1f} MB in all")


# ---------------------------------------------------------------------------
# chain: N-node graphs for the scale test
# ---------------------------------------------------------------------------

def gen_chain(out, n_nodes):
    nodes, inits = [], []
    x, i = "input", 0
    while len(nodes) < n_nodes:
        wn, bn, gn, be = f"w{i}", f"b{i}", f"g{i}", f"be{i}"
        inits.append(numpy_helper.from_array(np.zeros([16, 16], np.float32), wn))
        inits.append(numpy_helper.from_array(np.zeros([16], np.float32), bn))
        inits.append(numpy_helper.from_array(np.ones([16], np.float32), gn))
        inits.append(numpy_helper.from_array(np.zeros([16], np.float32), be))
        nodes.append(helper.make_node("MatMul", [x, wn], [f"m{i}"], name=f"matmul{i}"))
        nodes.append(helper.make_node("Add", [f"m{i}", bn], [f"a{i}"], name=f"add{i}"))
        nodes.append(helper.make_node("Relu", [f"a{i}"], [f"r{i}"], name=f"relu{i}"))
        nodes.append(helper.make_node("LayerNormalization", [f"r{i}", gn, be], [f"n{i}"],
                                      name=f"ln{i}", axis=-1))
        x, i = f"n{i}", i + 1
    g = helper.make_graph(nodes, f"chain{n_nodes}",
                          [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 16])],
                          [helper.make_tensor_value_info(x, TensorProto.FLOAT, ["batch", 16])],
                          initializer=inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], producer_name="joulecast-bench")
    m.ir_version = 8
    p = os.path.join(out, f"chain_{n_nodes}.onnx")
    onnx.save(m, p)
    print(f"chain: {p}: {len(nodes)} nodes, {os.path.getsize(p) / 1e6:.1f} MB")


# ---------------------------------------------------------------------------
# sparse: a >2 GB ModelProto without 2 GB of disk
# ---------------------------------------------------------------------------

def varint(v):
    b = bytearray()
    while True:
        c = v & 0x7F
        v >>= 7
        b.append(c | (0x80 if v else 0))
        if not v:
            return bytes(b)


def field(num, wt, payload):
    tag = varint(num << 3 | wt)
    if wt == 2:
        return tag + varint(len(payload)) + payload
    return tag + varint(payload)


def gen_sparse(out, elems=550_000_000):
    """ModelProto{ir_version 8, opset 14, graph{initializer W (float32
    [elems/64, 64], raw_data = holes), node MatMul(x, W'), inputs}} with the
    initializer first so every later byte lies beyond 2 GB."""
    rows = elems // 64
    raw_len = rows * 64 * 4
    # TensorProto of W without raw_data, then the raw_data tag and length
    head = field(1, 0, rows) + field(1, 0, 64) + field(2, 0, 1) + field(8, 2, b"W")
    raw_hdr = varint(9 << 3 | 2) + varint(raw_len)
    tensor_len = len(head) + len(raw_hdr) + raw_len
    # the rest of the graph: a small weight, a node using both, inputs/outputs
    small = numpy_helper.from_array(np.zeros([64, 8], np.float32), "V").SerializeToString()
    n1 = helper.make_node("MatMul", ["x", "W"], ["y"], name="after_2GB_matmul").SerializeToString()
    n2 = helper.make_node("MatMul", ["y", "V"], ["z"], name="after_2GB_matmul2").SerializeToString()
    vi_x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", rows]).SerializeToString()
    vi_z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["batch", 8]).SerializeToString()
    tail = (field(5, 2, small) + field(1, 2, n1) + field(1, 2, n2) + field(2, 2, b"huge") +
            field(11, 2, vi_x) + field(12, 2, vi_z))
    init_hdr = varint(5 << 3 | 2) + varint(tensor_len)
    graph_len = len(init_hdr) + tensor_len + len(tail)
    opset = helper.make_opsetid("", OPSET).SerializeToString()
    model_head = field(1, 0, 8) + field(8, 2, opset) + varint(7 << 3 | 2) + varint(graph_len)
    p = os.path.join(out, "huge_sparse.onnx")
    with open(p, "wb") as f:
        f.write(model_head + init_hdr + head + raw_hdr)
        f.seek(raw_len, os.SEEK_CUR)          # a hole: no disk blocks
        f.write(tail)
    st = os.stat(p)
    print(f"sparse: {p}: {st.st_size / 1e9:.2f} GB apparent, {st.st_blocks * 512 / 1e6:.1f} MB on disk")


def gen_transformer(out):
    import torch
    torch.set_num_threads(1)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
    import torch
    import export  # models/export.py
    torch.manual_seed(0)
    model = export.BertBase(d=1024, layers=24, heads=16, ff=4096)
    export.decorrelate_(model)
    model.eval()
    params = sum(p.numel() for p in model.parameters())
    p = os.path.join(out, "bert_large.full.onnx")
    torch.onnx.export(model, (torch.randint(0, 30522, (1, 128), dtype=torch.int64),), p,
                      opset_version=OPSET, do_constant_folding=True,
                      input_names=["input_ids"], output_names=["last_hidden_state", "pooler_output"],
                      dynamic_axes={"input_ids": {0: "batch", 1: "sequence"},
                                    "last_hidden_state": {0: "batch", 1: "sequence"},
                                    "pooler_output": {0: "batch"}})
    print(f"transformer: {p}: {params:,} parameters, {os.path.getsize(p) / 1e9:.2f} GB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("what", nargs="+", choices=["transformer", "llm", "nas", "chain", "sparse"])
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for w in a.what:
        if w == "transformer":
            gen_transformer(a.out)
        elif w == "llm":
            gen_llm(a.out)
            gen_llm(a.out, name="llama70b", layers=80, d=8192, heads=64, kv_heads=8, ff=28672)
        elif w == "nas":
            gen_nas(a.out)
        elif w == "chain":
            gen_chain(a.out, 10000)
            gen_chain(a.out, 100000)
        elif w == "sparse":
            gen_sparse(a.out)


if __name__ == "__main__":
    main()
