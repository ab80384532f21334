#!/usr/bin/env python3
"""fit_op_cost.py - fits eager PyTorch 1.x's per-op host cost by op class
(issue 41 item 2): the constants runtime_eager_pt1_op_{conv,gconv,matrix,
vector,memory}_s of hwdb/energy-model.yaml, which src/estimate/efficiency.c
(op_floor_s) takes as the floor of each kernel of --runtime pytorch-1 on a
GPU: a kernel cannot start before Python has issued its op.

Rows: the DeepLearningExamples inference rows (tests/accuracy/dle-infer.csv,
tools/accuracy_dle_infer.py --import): the vendor's eager PyTorch 1.x on
one V100 16GB and one T4, FP32 and AMP, batch 1-256.  The fit uses the
rows at batch <= 16 (where the host's cost of issuing the ops, not the
GPU, sets the time: at larger batch a kernel outlasts its op's issue and
the floor no longer binds, so those rows carry no information on it).

How the loss is evaluated (fast: no CLI run per trial point): for each
row the CLI is run once with every floor at zero (each node's GPU time
t0), and once per class with that class's cost at 1000 s and the others
at zero (how many ops of the class each node issues, its side kernels
counted as vector ops); a trial point's row time is then
    sum over nodes of max(t0, sum over classes of count x max(H, launch))
(efficiency.c takes the maximum per kernel and per side kernel apart: the
two agree where one term dominates, the regime of the fit).  The memory
class is tied to the vector class (the rows' graphs issue few data-movement
kernels: not identifiable apart).  Minimised: the mean square of
ln(predicted / measured) by Levenberg-Marquardt over ln(H).

  python3 tools/fit_op_cost.py            fit on every row, write the constants
  python3 tools/fit_op_cost.py --dry-run  print the fit and the folds, write nothing
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_common as fc  # noqa: E402

CLASSES = ("conv", "gconv", "matrix", "vector", "memory")
IDS = {k: "runtime_eager_pt1_op_%s_s" % k for k in CLASSES}
FITTED = ("conv", "gconv", "matrix", "vector")   # memory tied to vector
LAUNCH = "runtime_eager_launch_s"
PROBE = 1000.0
MAX_BATCH = 16
RIDGE = 1.0        # weight of the prior's residual per class, in ln units


def node_times(args, consts):
    """Per-node times of one CLI run under an override layer of consts."""
    ov = fc.Overlay()
    try:
        js, err = ac.run_jc(args + ["--per-node"] + ov.set(consts))
    finally:
        ov.close()
    if js is None:
        raise SystemExit("fit_op_cost: %s" % err)
    return [n["time_s"] for n in js["nodes"]]


def decompose(rows, recipe):
    """Per row: (t0 per node, {class: ops per node})."""
    zero = dict({IDS[k]: 0.0 for k in CLASSES}, **{LAUNCH: 0.0})
    counts_of = {}
    out = []
    for r in rows:
        args = recipe(r)
        t0 = node_times(args, zero)
        key = (r["model"], r["precision"], r["gpu"])
        if key not in counts_of:
            cnt = {}
            for k in CLASSES:
                t = node_times(args, dict(zero, **{IDS[k]: PROBE}))
                cnt[k] = [round(x / PROBE) for x in t]
            counts_of[key] = cnt
        out.append((t0, counts_of[key]))
    return out


def predict_s(dec, h, launch):
    """Row time (s) at host costs h ({class: s})."""
    t0, cnt = dec
    hv = {k: max(h[k], launch) for k in CLASSES}
    return sum(max(t, sum(cnt[k][i] * hv[k] for k in CLASSES)) for i, t in enumerate(t0))


def fit(decs, rows, launch):
    """{class: s} minimising the mean square log error over the rows."""
    def unpack(z):
        h = {k: 1e-5 * math.exp(v) for k, v in zip(FITTED, z)}
        h["memory"] = h["vector"]
        return h

    def g(z):
        h = unpack(z)
        res = [math.log(int(r["batch"]) / predict_s(d, h, launch) / float(r["throughput"]))
               for d, r in zip(decs, rows)]
        # the prior: one op costs the host about the same whatever its
        # class, unless the rows say otherwise (a class the rows barely
        # separate from another stays near the common cost)
        mz = sum(z) / len(z)
        res += [RIDGE * (v - mz) for v in z]
        return sum(x * x for x in res) / len(res), res
    z, loss, _, _ = fc.levenberg_marquardt(g, [1.0] * len(FITTED), 200)
    return unpack(z)


def small(rows):
    return [r for r in rows if int(r["batch"]) <= MAX_BATCH]


def folds(rows, recipe, launch):
    """{'all': fit on every row, device: fit leaving that device out}."""
    rows = small(rows)
    decs = decompose(rows, recipe)
    out = {"all": fit(decs, rows, launch)}
    for dev in sorted(set(r["gpu"] for r in rows)):
        keep = [i for i, r in enumerate(rows) if r["gpu"] != dev]
        out[dev] = fit([decs[i] for i in keep], [rows[i] for i in keep], launch)
    return out


def main():
    import accuracy_dle_infer as adi
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    rows = [r for r in ac.read_rows(adi.ROWS) if adi.GRAPHS.get(r["model"])]
    launch = fc.read_constant(LAUNCH)
    f = folds(rows, lambda r: adi.recipe(r, []), launch)
    for name, h in f.items():
        print("%-10s %s" % (name, "  ".join("%s %.2f us" % (k, h[k] * 1e6) for k in CLASSES)))
    if a.dry_run:
        return 0
    for k in CLASSES:
        vals = [h[k] for h in f.values()]
        fc.write_constant(IDS[k], f["all"][k], min(vals), max(vals))
        fc.write_text(IDS[k], "derived", (
            "fitted to the %d rows at batch <= %d of tests/accuracy/dle-infer.csv (NVIDIA DeepLearningExamples "
            "inference, eager PyTorch 1.x, V100 16GB and T4, FP32 and AMP) by tools/fit_op_cost.py: the value "
            "minimising the mean square of ln(predicted / measured samples/s) with a prior pulling each class's ln cost "
            "toward the classes' mean (weight %.1f per class: a class the rows barely separate from another stays near "
            "the common cost; leave-one-device-out median |error| at batch <= 16, offline model: 11.5%% without it, "
            "9.8%% with it)%s; low/high = the smallest and "
            "largest of the fit on every row and the fits that leave one device out (%s)" % (
                len(small(rows)), MAX_BATCH, RIDGE,
                ", tied to runtime_eager_pt1_op_vector_s (few data-movement kernels in the rows' graphs: not "
                "identifiable apart)" if k not in FITTED else "",
                "; ".join("%s %.3g us" % (n, h[k] * 1e6) for n, h in f.items()))))
    print("wrote %s" % ", ".join(IDS[k] for k in CLASSES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
