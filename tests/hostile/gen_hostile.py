#!/usr/bin/python3
"""gen_hostile.py - writes the hostile-input reproductions of issue 27 (tests/hostile.sh runs
them through the ASan+UBSan CLI and checks the exit code and message).
Each model is one node with a value the ONNX spec allows to be written but
not to be meaningful: an equation with 200 ellipses, batch_dims=-300,
pads of INT64_MAX, a blocksize of 2^32, rank-0 inputs to ops that need a
matrix.  None is checked with onnx.checker (several are invalid on
purpose).  Run with Debian's /usr/bin/python3 (python3-onnx) from the
repository root; the files are committed, so the suite does not need to
run this."""
import os
import onnx
from onnx import TensorProto, helper

OUT = "tests/hostile"
I64MAX = 2 ** 63 - 1
I64MIN = -2 ** 63
F = TensorProto.FLOAT


def vi(name, shape, dt=F):
    return helper.make_tensor_value_info(name, dt, shape)


def save(fname, nodes, inputs, outputs, opset=17, inits=(), domain_opsets=()):
    g = helper.make_graph(nodes, fname.split(".")[0], inputs, outputs, initializer=list(inits))
    ops = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in domain_opsets]
    m = helper.make_model(g, opset_imports=ops, producer_name="joulecast-tests")
    m.ir_version = 8
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(m.SerializeToString())


def i64(name, vals, dims=None):
    return helper.make_tensor(name, TensorProto.INT64, [len(vals)] if dims is None else dims, vals)


# 1. Einsum: 200 ellipses in one term (wrote past lab[k][32])
save("einsum_ellipses.onnx", [helper.make_node("Einsum", ["x"], ["y"], name="many_ellipses",
                                               equation="..." * 200 + "->")],
     [vi("x", [2, 3])], [vi("y", None)], opset=12)
# ... and 40 letters in a term of a rank-2 input
save("einsum_letters.onnx", [helper.make_node("Einsum", ["x"], ["y"], name="many_letters",
                                              equation="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN->a")],
     [vi("x", [2, 3])], [vi("y", None)], opset=12)
# 2. GatherND with batch_dims=-300
save("gathernd_batch_dims.onnx", [helper.make_node("GatherND", ["x", "i"], ["y"], name="gnd", batch_dims=-300)],
     [vi("x", [2, 3, 4]), vi("i", [2, 1], TensorProto.INT64)], [vi("y", None)], opset=13)
# 3. Attention-23 with a rank-0 and a rank-1 q
for r, shape in ((0, []), (1, [8])):
    save(f"attention23_rank{r}.onnx",
         [helper.make_node("Attention", ["q", "k", "v"], ["y"], name=f"attn_rank{r}")],
         [vi("q", shape), vi("k", [1, 4, 8]), vi("v", [1, 4, 8])], [vi("y", None)], opset=23)
# 4. Det and GridSample on a scalar
save("det_scalar.onnx", [helper.make_node("Det", ["x"], ["y"], name="det0")], [vi("x", [])], [vi("y", None)])
save("gridsample_scalar.onnx", [helper.make_node("GridSample", ["x", "g"], ["y"], name="gs0")],
     [vi("x", []), vi("g", [])], [vi("y", None)], opset=16)
# GridSample of rank 1 and of rank 34
save("gridsample_rank1.onnx", [helper.make_node("GridSample", ["x", "g"], ["y"], name="gs1")],
     [vi("x", [2]), vi("g", [2])], [vi("y", None)], opset=16)
save("gridsample_rank34.onnx", [helper.make_node("GridSample", ["x", "g"], ["y"], name="gs34")],
     [vi("x", [1] * 34), vi("g", [1] * 34)], [vi("y", None)], opset=16)
# 5. Mod folding INT64_MIN % -1 (SIGFPE); the folded value feeds a Reshape
save("mod_int64_min.onnx",
     [helper.make_node("Mod", ["a", "b"], ["m"], name="mod_min"),
      helper.make_node("Add", ["m", "one"], ["s"], name="plus_one"),
      helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
     [vi("x", [1])], [vi("y", None)], opset=13,
     inits=[i64("a", [I64MIN]), i64("b", [-1]), i64("one", [1])])
# 6. DepthToSpace and SpaceToDepth with blocksize 2^32 (b*b wrapped to 0)
save("depthtospace_2pow32.onnx", [helper.make_node("DepthToSpace", ["x"], ["y"], name="d2s", blocksize=2 ** 32)],
     [vi("x", [1, 4, 2, 2])], [vi("y", None)], opset=13)
save("spacetodepth_2pow32.onnx", [helper.make_node("SpaceToDepth", ["x"], ["y"], name="s2d", blocksize=2 ** 32)],
     [vi("x", [1, 4, 2 ** 33, 2 ** 33])], [vi("y", None)], opset=13)
# 8. Conv with pads of INT64_MAX (the output size wrapped to 4x4)
save("conv_pads_int64max.onnx",
     [helper.make_node("Conv", ["x", "w"], ["y"], name="conv_pads", pads=[I64MAX, I64MAX, I64MAX, I64MAX])],
     [vi("x", [1, 3, 8, 8]), vi("w", [4, 3, 3, 3])], [vi("y", None)])
save("convtranspose_strides.onnx",
     [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="convt", strides=[I64MAX, 1])],
     [vi("x", [1, 3, 8, 8]), vi("w", [3, 4, 3, 3])], [vi("y", None)])
save("maxpool_pads.onnx",
     [helper.make_node("MaxPool", ["x"], ["y"], name="pool_pads", kernel_shape=[2, 2],
                       pads=[I64MAX, 0, I64MAX, 0])],
     [vi("x", [1, 3, 8, 8])], [vi("y", None)])
save("maxpool_dilation.onnx",
     [helper.make_node("MaxPool", ["x"], ["y"], name="pool_dil", kernel_shape=[I64MAX, 2],
                       dilations=[I64MAX, 1])],
     [vi("x", [1, 3, 8, 8])], [vi("y", None)])
save("maxunpool_strides.onnx",
     [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool", kernel_shape=[2, 2], strides=[I64MAX, 2])],
     [vi("x", [1, 3, 8, 8]), vi("i", [1, 3, 8, 8], TensorProto.INT64)], [vi("y", None)])
save("convtranspose_group.onnx",
     [helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="convt_group", group=I64MAX)],
     [vi("x", [1, 3, 8, 8]), vi("w", [3, 4, 3, 3])], [vi("y", None)])
save("deformconv_pads.onnx",
     [helper.make_node("DeformConv", ["x", "w", "off"], ["y"], name="deform", pads=[I64MAX, 0, I64MAX, 0])],
     [vi("x", [1, 3, 8, 8]), vi("w", [4, 3, 3, 3]), vi("off", [1, 18, 6, 6])], [vi("y", None)], opset=19)
save("qlinearconv_pads.onnx",
     [helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["y"], name="qconv",
                       pads=[I64MAX, 0, I64MAX, 0])],
     [vi("x", [1, 3, 8, 8], TensorProto.UINT8), vi("xs", []), vi("xz", [], TensorProto.UINT8),
      vi("w", [4, 3, 3, 3], TensorProto.UINT8), vi("ws", []), vi("wz", [], TensorProto.UINT8), vi("ys", []),
      vi("yz", [], TensorProto.UINT8)], [vi("y", None)], opset=10)
# Slice with step INT64_MIN (negated)
save("slice_step_int64min.onnx",
     [helper.make_node("Slice", ["x", "st", "en", "ax", "sp"], ["y"], name="slice_min")],
     [vi("x", [10, 4])], [vi("y", None)], opset=13,
     inits=[i64("st", [9]), i64("en", [I64MIN]), i64("ax", [0]), i64("sp", [I64MIN])])
# Resize with a scale of 1e30 (converted to int64 out of range)
save("resize_scale_huge.onnx",
     [helper.make_node("Resize", ["x", "", "sc"], ["y"], name="resize_huge")],
     [vi("x", [1, 3, 8, 8])], [vi("y", None)], opset=13,
     inits=[helper.make_tensor("sc", F, [4], [1.0, 1.0, 1e30, 1e30])])
# CenterCropPad of a scalar (memcpy from NULL)
save("centercrop_scalar.onnx",
     [helper.make_node("CenterCropPad", ["x", "s"], ["y"], name="crop0")],
     [vi("x", [])], [vi("y", None)], opset=18, inits=[i64("s", [], dims=[0])])
# 10. Terminal control bytes in names: ESC (colour), OSC title, BEL, CR,
# an embedded newline forging a report line, U+202E (right-to-left override)
EVIL = "relu\x1b[31mRED\x1b]0;pwned\x07\rCR\nFORGED totals 0 MACs\u202egnp.exe"
g = helper.make_graph([helper.make_node("Relu", ["x"], [EVIL], name=EVIL)], "graph\x1b[2J",
                      [vi("x", [1, 4])], [vi(EVIL, [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], producer_name="prod\x1b]0;t\x07")
m.ir_version = 8
with open(os.path.join(OUT, "control_bytes.onnx"), "wb") as f:
    f.write(m.SerializeToString())
# 11. CSV formula cells: node names that a spreadsheet would run
g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"], name="=HYPERLINK(\"http://x\",\"y\")"),
                       helper.make_node("Relu", ["r"], ["s"], name="+1+1"),
                       helper.make_node("Relu", ["s"], ["t"], name="-2"),
                       helper.make_node("Relu", ["t"], ["y"], name="@SUM(A1)")], "csv",
                      [vi("x", [1, 4])], [vi("y", [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 14)], producer_name="joulecast-tests")
m.ir_version = 8
with open(os.path.join(OUT, "csv_formulas.onnx"), "wb") as f:
    f.write(m.SerializeToString())
# 12. Nested If: each If's two branches hold an If, DEPTH deep: 2^DEPTH - 1
# nodes (9 levels here: 511; the cap test lowers JOULECAST_MAX_NODES)
def nested_if(depth, tag):
    if depth == 0:
        return helper.make_graph([helper.make_node("Relu", ["x"], [f"r{tag}"])], f"leaf{tag}", [],
                                 [vi(f"r{tag}", [1, 4])])
    node = helper.make_node("If", ["c"], [f"y{tag}"], name=f"if{tag}",
                            then_branch=nested_if(depth - 1, tag + "t"), else_branch=nested_if(depth - 1, tag + "e"))
    return helper.make_graph([node], f"g{tag}", [], [vi(f"y{tag}", [1, 4])])


g = nested_if(9, "")
g = helper.make_graph(list(g.node), "nested_if", [vi("x", [1, 4]), vi("c", [], TensorProto.BOOL)],
                      [vi("y", [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="joulecast-tests")
m.ir_version = 8
with open(os.path.join(OUT, "nested_if.onnx"), "wb") as f:
    f.write(m.SerializeToString())

# ---- issue 43 item 14: invalid models that were counted (the ONNX
# checker's SSA, defined-input and type rules; shape inference's inner
# dimension); each is refused with exit 4 naming the node and the value
save("ssa_two_writers.onnx",
     [helper.make_node("Relu", ["x"], ["y"], name="relu_a"), helper.make_node("Relu", ["x"], ["y"], name="relu_b")],
     [vi("x", [2, 2])], [vi("y", [2, 2])])
save("output_unproduced.onnx", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", [2, 2])], [vi("y", [2, 2]), vi("ghost", [2, 2])])
save("input_undefined.onnx", [helper.make_node("Add", ["x", "nowhere"], ["y"], name="add_undef")],
     [vi("x", [2, 2])], [vi("y", [2, 2])])
# a subgraph may read its enclosing graph's values; not a name defined nowhere
then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"], name="then_relu")], "then", [], [vi("t", [2, 2])])
else_g = helper.make_graph([helper.make_node("Relu", ["nowhere"], ["e"], name="else_relu")], "else", [],
                           [vi("e", [2, 2])])
save("subgraph_input_undefined.onnx",
     [helper.make_node("If", ["c"], ["y"], name="if0", then_branch=then_g, else_branch=else_g)],
     [vi("x", [2, 2]), vi("c", [], TensorProto.BOOL)], [vi("y", [2, 2])])
save("matmul_string.onnx", [helper.make_node("MatMul", ["a", "b"], ["y"], name="mm_str")],
     [vi("a", [2, 3], TensorProto.STRING), vi("b", [3, 4], TensorProto.STRING)], [vi("y", None)])
save("gemm_inner_mismatch.onnx", [helper.make_node("Gemm", ["a", "b"], ["y"], name="gemm_k")],
     [vi("a", [2, 3]), vi("b", [4, 5])], [vi("y", None)])
save("matmul_inner_mismatch.onnx", [helper.make_node("MatMul", ["a", "b"], ["y"], name="mm_k")],
     [vi("a", [8, 2, 3]), vi("b", [4, 5])], [vi("y", None)])
save("gemm_alpha_nan.onnx", [helper.make_node("Gemm", ["a", "b"], ["y"], name="gemm_nan", alpha=float("nan"))],
     [vi("a", [2, 3]), vi("b", [3, 5])], [vi("y", None)])
save("opset_int64max.onnx", [helper.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", [2, 2])], [vi("y", [2, 2])], opset=I64MAX)
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name="relu_noopset")], "noopset", [vi("x", [2, 2])],
                      [vi("y", [2, 2])])
m = helper.make_model(g, producer_name="joulecast-tests")
del m.opset_import[:]
m.ir_version = 8
with open(os.path.join(OUT, "opset_none.onnx"), "wb") as f:
    f.write(m.SerializeToString())
