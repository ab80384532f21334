#!/usr/bin/python3
"""gen_opsweep.py - the op sweep of issue 27: for every op form of
src/analysis/ops/ops.def, one-node models with
  * input ranks 0, 1, 4 and the rank limits of the rule families plus one
    (17, 33, 65), every input the same rank;
  * each integer attribute of the op's ONNX schema (or, for ops Debian's
    onnx does not describe, every attribute name the rules read) set to
    0, 1, -1, INT64_MIN, INT64_MAX, 2^32, -2^32, and integer lists of 1,
    2, 4 or 8 such values, and a huge list (4,096 entries);
  * each float attribute set to 0, -1, 1e308, -1e308, inf, nan;
  * each input that may be int64 given as an int64 constant (an
    initializer) of 0, 1 or 4 extreme values, or a scalar.
Models are written as <out>/<NNNNN>_<op>_<case>.onnx.  With --sample K
only each op's first case (rank 0) and every K-th after it are written
(deterministic: the same K gives the same files; every op is in it).  tests/opsweep.sh runs them through the fuzz target code
(tests/fuzz/fuzz_onnx.c) built with ASan+UBSan: every status is accepted,
a crash or sanitizer report is a finding.
With --random SEED N the sweep is randomised instead (the long-run mode of
`make fuzz-opsweep`): N models, each a random op of ops.def with several
attributes set at once from a wider pool (small values, extremes, values
near 2^31 and 2^62), random int64 constants of 0-8 values, inputs of
random rank 0-8 with dims 0, 1, small, huge or symbolic, random element
types and omitted optional inputs.  The same SEED gives the same files.
Run with Debian's /usr/bin/python3 (python3-onnx):
  /usr/bin/python3 tests/opsweep/gen_opsweep.py OUTDIR [--sample K | --random SEED N]"""
import glob
import os
import random
import re
import sys

import onnx
from onnx import TensorProto, defs, helper

I64MIN, I64MAX = -2 ** 63, 2 ** 63 - 1
INTS = [0, 1, -1, I64MIN, I64MAX, 2 ** 32, -2 ** 32]
FLOATS = [0.0, -1.0, 1e308, -1e308, float("inf"), float("nan")]
RANKS = [0, 1, 4, 17, 33, 65]
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..", "src", "analysis", "ops")


def registry():
    ops = []
    with open(os.path.join(SRC, "ops.def")) as f:
        for m in re.finditer(r'^OP\("([^"]*)",\s*"([^"]+)",\s*(\d+)', f.read(), re.M):
            ops.append((m.group(1), m.group(2), int(m.group(3))))
    return ops


def rule_attr_names():
    """Every attribute name an op rule reads (for ops without a schema)."""
    names = set()
    for p in glob.glob(os.path.join(SRC, "ops_*.c")):
        with open(p) as f:
            names.update(re.findall(r'op_attr(?:_i|_ints|_f|_s)?\(c,\s*"([^"]+)"', f.read()))
    return sorted(names)


def schema(domain, op, since):
    try:
        return defs.get_schema(op, max(since, 1), domain)
    except Exception:
        return None


def input_specs(sc):
    """[(name, may_be_int64, may_be_float)] for the schema's inputs, or None."""
    if sc is None:
        return None
    cons = {t.type_param_str: set(t.allowed_type_strs) for t in sc.type_constraints}
    out = []
    for i in sc.inputs:
        allowed = cons.get(i.typeStr, {i.typeStr})
        out.append((i.name or "x", "tensor(int64)" in allowed, any("float" in a for a in allowed)))
    return out


def attr_specs(sc, fallback):
    if sc is None:
        return [(n, "int") for n in fallback] + [(n, "ints") for n in fallback]
    A = defs.OpSchema.AttrType
    out = []
    for name, a in sorted(sc.attributes.items()):
        if a.type == A.INT:
            out.append((name, "int"))
        elif a.type == A.INTS:
            out.append((name, "ints"))
        elif a.type == A.FLOAT:
            out.append((name, "float"))
        elif a.type == A.FLOATS:
            out.append((name, "floats"))
    return out


def write_model(path, domain, op, since, names, inputs, inits, nout, attrs, producer):
    """One node of op over input names (graph inputs and initializers), nout outputs."""
    outs = [f"out{k}" for k in range(nout)]
    node = helper.make_node(op, names, outs, name=f"n_{op}", domain=domain, **attrs)
    g = helper.make_graph([node], "sweep", inputs, [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                                                    for o in outs], initializer=inits)
    opsets = [helper.make_opsetid("", since if domain == "" else 17)]
    if domain:
        opsets.append(helper.make_opsetid(domain, since))
    m = helper.make_model(g, opset_imports=opsets, producer_name=producer)
    m.ir_version = 8
    with open(path, "wb") as f:
        f.write(m.SerializeToString())


def typical_shape(r):
    if r == 0:
        return []
    if r <= 4:
        return [1, 3, 8, 8][-r:] if r < 4 else [1, 3, 8, 8]
    return [1] * r


class Gen:
    def __init__(self, out, sample):
        self.out, self.sample, self.n, self.written = out, sample, 0, 0

    def emit(self, domain, op, since, tag, nin, rank=4, attrs=None, consts=None, nout=1):
        self.n += 1
        self.k += 1   # case of this op: the sample takes each op's first (rank 0) and every K-th after
        if self.sample > 1 and (self.k - 1) % self.sample:
            return
        consts = consts or {}
        inputs, inits, names = [], [], []
        for k in range(nin):
            nm = f"in{k}"
            names.append(nm)
            if k in consts:
                vals, dims = consts[k]
                inits.append(helper.make_tensor(nm, TensorProto.INT64, dims, vals))
            else:
                inputs.append(helper.make_tensor_value_info(nm, TensorProto.FLOAT, typical_shape(rank)))
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{self.n:05d}_{op}_{tag}")[:120]
        write_model(os.path.join(self.out, safe + ".onnx"), domain, op, since, names, inputs, inits, nout,
                    attrs or {}, "joulecast-opsweep")
        self.written += 1

    def op(self, domain, op, since, fallback):
        self.k = 0
        sc = schema(domain, op, since)
        ins = input_specs(sc)
        nin = len(ins) if ins else 3
        nout = max(1, len(sc.outputs)) if sc else 1
        for r in RANKS:
            self.emit(domain, op, since, f"rank{r}", nin, rank=r, nout=nout)
            if ins and nin > 1:
                self.emit(domain, op, since, f"rank{r}_first", 1, rank=r, nout=nout)
        for name, kind in attr_specs(sc, fallback):
            if kind == "int":
                for v in INTS:
                    self.emit(domain, op, since, f"{name}_{v}", nin, attrs={name: v}, nout=nout)
            elif kind == "ints":
                for v in INTS:
                    for n in (1, 2, 4, 8):
                        self.emit(domain, op, since, f"{name}_{n}x{v}", nin, attrs={name: [v] * n}, nout=nout)
                self.emit(domain, op, since, f"{name}_huge", nin, attrs={name: [2] * 4096}, nout=nout)
                self.emit(domain, op, since, f"{name}_huge_max", nin, attrs={name: [I64MAX] * 4096}, nout=nout)
            elif kind == "float":
                for v in FLOATS:
                    self.emit(domain, op, since, f"{name}_{v}", nin, attrs={name: v}, nout=nout)
            elif kind == "floats":
                for v in FLOATS:
                    self.emit(domain, op, since, f"{name}_4x{v}", nin, attrs={name: [v] * 4}, nout=nout)
        int_inputs = [k for k, (_, i64, _f) in enumerate(ins)] if ins else list(range(1, nin))
        if ins:
            int_inputs = [k for k, (_, i64, _f) in enumerate(ins) if i64]
        for k in int_inputs:
            self.emit(domain, op, since, f"in{k}_empty", nin, consts={k: ([], [0])}, nout=nout)
            for v in INTS:
                self.emit(domain, op, since, f"in{k}_scalar{v}", nin, consts={k: ([v], [])}, nout=nout)
                for n in (1, 4):
                    self.emit(domain, op, since, f"in{k}_{n}x{v}", nin, consts={k: ([v] * n, [n])}, nout=nout)
            self.emit(domain, op, since, f"in{k}_mixed", nin, consts={k: ([I64MIN, -1, 0, I64MAX], [4])},
                      nout=nout)


# ---- randomised mode (--random SEED N) ------------------------------------
RINTS = INTS + [2, 3, 4, 7, 8, 16, 2 ** 31 - 1, 2 ** 31, -2 ** 31, 2 ** 62, -2 ** 62, I64MAX - 1, -3]
RDIMS = [0, 1, 1, 2, 3, 4, 7, 64, 2 ** 31 - 1, 2 ** 40, "N", "seq"]
RTYPES = [TensorProto.FLOAT, TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64,
          TensorProto.INT32, TensorProto.BOOL, TensorProto.UINT8, TensorProto.DOUBLE]


def rand_int(rng):
    return rng.choice(RINTS) if rng.random() < 0.7 else rng.randint(-10, 10)


def rand_attr(rng, kind):
    if kind == "int":
        return rand_int(rng)
    if kind == "ints":
        return [rand_int(rng) for _ in range(rng.choice([0, 1, 2, 3, 4, 6, 8, 16]))]
    if kind == "float":
        return rng.choice(FLOATS + [0.5, 2.0, 1e-30, -1e-30])
    return [rng.choice(FLOATS + [0.5, 2.0]) for _ in range(rng.choice([0, 1, 2, 4, 8]))]


def rand_shape(rng):
    r = rng.choice([0, 1, 2, 3, 4, 4, 4, 5, 6, 8])
    return [rng.choice(RDIMS) if rng.random() < 0.4 else rng.choice([1, 2, 3, 8]) for _ in range(r)]


def rand_model(rng, ops, fallback, path):
    domain, op, since = rng.choice(ops)
    sc = schema(domain, op, since)
    ins = input_specs(sc)
    nin = len(ins) if ins else rng.randint(1, 4)
    nin = max(0, nin - rng.choice([0, 0, 0, 1])) if nin else rng.randint(1, 3)
    nout = max(1, len(sc.outputs)) if sc else 1
    specs = attr_specs(sc, fallback)
    attrs = {n: rand_attr(rng, k) for n, k in rng.sample(specs, min(len(specs), rng.randint(0, 4)))}
    inputs, inits, names = [], [], []
    for k in range(nin):
        nm = f"in{k}"
        if rng.random() < 0.08:            # an omitted optional input
            names.append("")
            continue
        names.append(nm)
        if rng.random() < 0.3:             # an int64 constant
            n = rng.choice([0, 1, 1, 2, 4, 8])
            dims = [] if n == 1 and rng.random() < 0.5 else [n]
            inits.append(helper.make_tensor(nm, TensorProto.INT64, dims, [rand_int(rng) for _ in range(n)]))
        else:
            inputs.append(helper.make_tensor_value_info(nm, rng.choice(RTYPES), rand_shape(rng)))
    write_model(path, domain, op, since, names, inputs, inits, nout, attrs, "joulecast-opsweep-random")


def main_random(out, seed, n):
    rng = random.Random(seed)
    ops, fallback = registry(), rule_attr_names()
    for i in range(n):
        rand_model(rng, ops, fallback, os.path.join(out, f"r{seed}_{i:06d}.onnx"))
    print(f"gen_opsweep: {n} of {n} models written to {out} (random, seed {seed})")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    if len(sys.argv) > 4 and sys.argv[2] == "--random":
        os.makedirs(out, exist_ok=True)
        return main_random(out, int(sys.argv[3]), int(sys.argv[4]))
    sample = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--sample" else 1
    os.makedirs(out, exist_ok=True)
    g = Gen(out, sample)
    fallback = rule_attr_names()
    for domain, op, since in registry():
        g.op(domain, op, since, fallback)
    print(f"gen_opsweep: {g.written} of {g.n} models written to {out}")


if __name__ == "__main__":
    main()
