#!/usr/bin/env python3
"""accuracy_timm.py - the timm framework-throughput set of `make accuracy`
(issue #30 items 1, 2 and 5): timm's own benchmark of PyTorch eager,
torch.compile and training throughput on an RTX 3090 and an RTX 4090,
and fp32 torch.compile inference at batch 1 on an Intel Core i9-10940X
and an Intel Core i7-12700H (../shared/data/calibration/timm/, huggingface/pytorch-image-models
results/ at commit aa4b585), matched to the torchvision graphs of
tests/models/torchvision/ and predicted by the joulecast CLI, scored
in-sample and cross-validated (tools/crossval.py) leave-one-device-out
and leave-one-family-out.

Rows: tests/accuracy/timm.csv (the matched rows copied from the
calibration files, one per graph, device and runtime; `rows` below
rebuilds it).  A row matches a graph when torchvision-timm.tsv maps the
names, the input size equals the graph's (tests/models/torchvision/
EXPORT.tsv) and timm's infer_gmacs is within 7 % of torchvision's
published GMACs (GMACS.tsv); training rows (no MACs in the file) match by
name, input size and parameter count within 7 %.

How a row is predicted (RECIPE, the same for every row):
  joulecast estimate tests/models/torchvision/G.onnx --device D
      --precision P --runtime pytorch|torch-compile --batch B
      --requests B --pue 1 --ci 400                      (inference)
  ... --train --samples B --epochs 1 --batch B           (training step;
      --runtime pytorch-1: the training file ran PyTorch 1.12, before SDPA)
  samples/s = B / predicted wall seconds.  P is the row's precision:
  fp16 for the GPUs' AMP (matrix kernels in fp16 with fp32 accumulate,
  the device's fp16 rate with fp32 accumulate; the rest in fp32/fp16 by
  op), fp32 for the CPU (its kernels are the CPU kernel path's,
  src/estimate/efficiency.h).

  python3 tools/accuracy_timm.py [--rows FILE] [--out DIR]
  python3 tools/accuracy_timm.py rows    rebuild tests/accuracy/timm.csv
"""
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import crossval as cv  # noqa: E402

CAL = os.path.join(os.path.dirname(ac.ROOT), "shared", "data", "calibration", "timm")
if not os.path.isdir(CAL):
    CAL = "/work/shared/data/calibration/timm"
ZOO = os.path.join(ac.ROOT, "tests", "models", "torchvision")
ROWS = os.path.join(ac.ROOT, "tests", "accuracy", "timm.csv")
# calibration file -> (device id, runtime, mode, precision): AMP runs
# are fp16, the CPU file fp32 (its name says so)
FILES = {
    "benchmark-infer-amp-nchw-pt240-cu124-rtx3090.csv": ("nvidia-rtx-3090", "eager", "inference", "fp16"),
    "benchmark-infer-amp-nchw-pt240-cu124-rtx4090.csv": ("nvidia-rtx-4090", "eager", "inference", "fp16"),
    "benchmark-infer-amp-nchw-pt240-cu124-rtx4090-dynamo.csv": ("nvidia-rtx-4090", "compiled", "inference", "fp16"),
    "benchmark-train-amp-nchw-pt112-cu113-rtx3090.csv": ("nvidia-rtx-3090", "eager-pt1", "training", "fp16"),
    "benchmark-infer-fp32-nchw-pt240-cpu-i9_10940x-dynamo.csv": ("intel-core-i9-10940x", "compiled", "inference",
                                                                 "fp32"),
    "benchmark-infer-fp32-nchw-pt240-cpu-i7_12700h-dynamo.csv": ("intel-core-i7-12700h", "compiled", "inference",
                                                                 "fp32"),
}
FIELDS = ["id", "graph", "timm_model", "device", "runtime", "mode", "precision", "batch", "img_size",
          "samples_per_s", "family", "kind", "source"]
# model families (leave-one-family-out) and the two classes the issue
# scores separately (transformer-style blocks vs convolution nets)
FAMILY_PREFIX = [("wide_resnet", "resnet"), ("resnext", "resnet"), ("resnet", "resnet"),
                 ("vgg", "vgg"), ("densenet", "densenet"), ("inception", "inception"),
                 ("googlenet", "inception"), ("mobilenet", "mobilenet"), ("mnasnet", "mobilenet"),
                 ("efficientnet_v2", "efficientnet"), ("efficientnet", "efficientnet"),
                 ("regnet", "regnet"), ("convnext", "convnext"), ("vit", "vit"),
                 ("swin", "swin"), ("maxvit", "maxvit"), ("shufflenet", "shufflenet"),
                 ("squeezenet", "squeezenet"), ("alexnet", "alexnet")]
TRANSFORMER = {"vit", "swin", "maxvit", "convnext"}


def family(graph):
    for p, f in FAMILY_PREFIX:
        if graph.startswith(p):
            return f
    return graph


def _tsv(path):
    with open(path) as f:
        return list(csv.DictReader([l for l in f if not l.startswith("#")], delimiter="\t"))


def build_rows(files=None):
    """Matched rows from the calibration files (files: {file: (device,
    runtime, mode, precision)}, default FILES; see the module comment)."""
    names = {r["torchvision"]: r["timm"] for r in _tsv(os.path.join(CAL, "torchvision-timm.tsv"))}
    inputs = {r["name"]: int(r["input"]) for r in _tsv(os.path.join(ZOO, "EXPORT.tsv"))}
    gmacs = {r["model"]: float(r["gmacs"]) for r in _tsv(os.path.join(ZOO, "GMACS.tsv"))}
    params = {}
    out = []
    for fn, (dev, rt, mode, prec) in (files or FILES).items():
        by = {}
        with open(os.path.join(CAL, fn)) as f:
            for r in csv.DictReader(f):
                size = r.get("infer_img_size") or r.get("train_img_size")
                by[(r["model"], int(size))] = r
        for tv, tm in sorted(names.items()):
            if tv not in inputs or not os.path.exists(os.path.join(ZOO, tv + ".onnx")):
                continue
            r = by.get((tm, inputs[tv]))
            if r is None:
                continue
            if mode == "inference":
                if int(r["infer_img_size"]) != inputs[tv]:
                    continue
                if abs(float(r["infer_gmacs"]) / gmacs[tv] - 1) > 0.07:
                    continue
                params[tv] = float(r["param_count"])
                b, s = r["infer_batch_size"], r["infer_samples_per_sec"]
            else:
                if int(r["train_img_size"]) != inputs[tv]:
                    continue
                p = params.get(tv)
                if p is None or abs(float(r["param_count"]) / p - 1) > 0.07:
                    continue
                b, s = r["train_batch_size"], r["train_samples_per_sec"]
            out.append({"id": "%s-%s-%s-%s" % (tv, dev.replace("nvidia-", ""), rt, mode), "graph": tv,
                        "timm_model": tm, "device": dev, "runtime": rt, "mode": mode, "precision": prec, "batch": b,
                        "img_size": inputs[tv], "samples_per_s": s, "family": family(tv),
                        "kind": "transformer" if family(tv) in TRANSFORMER else "cnn",
                        "source": "huggingface/pytorch-image-models@aa4b585 results/" + fn})
    return out


def write_rows(rows, path=ROWS):
    with open(path, "w") as f:
        f.write("# timm benchmark rows matched to tests/models/torchvision graphs by tools/accuracy_timm.py rows\n"
                "# (copied from the calibration set's timm files; source: huggingface/pytorch-image-models\n"
                "# results/ at commit aa4b585, each row's file in `source`). samples_per_s: timm's measured\n"
                "# throughput at `batch` (NCHW; `precision` fp16: AMP on the GPUs, fp32 on the CPU; PyTorch 2.4\n"
                "# inference, 1.12 training).\n")
        w = csv.DictWriter(f, FIELDS, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


# the rows' runtime column (eager, compiled, eager-pt1) -> the profile's
# software name (the column keeps the former names: the rows' ids use them)
PROFILE = {"eager": "pytorch", "compiled": "torch-compile", "eager-pt1": "pytorch-1"}


def recipe(row):
    g = os.path.join("tests", "models", "torchvision", row["graph"] + ".onnx")
    b = str(row["batch"])
    a = ["estimate", g, "--device", row["device"], "--precision", row.get("precision") or "fp16", "--runtime", PROFILE[row["runtime"]],
         "--batch", b, "--pue", "1", "--ci", "400"]
    if row["mode"] == "training":
        return a + ["--train", "--samples", b, "--epochs", "1"]
    return a + ["--requests", b]


def predict(row, extra=()):
    """(samples/s low, central, high) or (None, reason)."""
    js, err = ac.run_jc(recipe(row) + list(extra))
    if js is None:
        return None, err
    w = js["results"]["wall_hours"]
    b = float(row["batch"])
    return (b / (w["high"] * 3600), b / (w["central"] * 3600), b / (w["low"] * 3600)), None


def measured(row):
    return float(row["samples_per_s"])


def group(row):
    return "%s %s %s" % (row["runtime"], row["mode"], row["device"].replace("nvidia-", ""))


def cv_predict():
    """crossval's predict(params, row): the CLI with the params as an
    override layer (one layer per parameter set, kept for the run)."""
    import fit_common as fc
    layers = {}

    def predict_row(params, row):
        key = tuple(sorted(params.items()))
        if key not in layers:
            ov = fc.Overlay()
            layers[key] = (ov, ov.set(dict(params)))
        p, _ = predict(row, layers[key][1])
        return None if p is None else p[1]

    def close():
        for ov, _ in layers.values():
            ov.close()
    return predict_row, close


def arch_ratios(fold_rows):
    """How well the model ranks architectures on one device (issue 44 item
    4): within each device, runtime and mode, each row's predicted over
    measured throughput divided by the geometric mean of that ratio over
    the group (the error that remains once a common scale is taken out:
    what a comparison between architectures on that device sees), and the
    ratio of each model to ResNet-50 where the group has it, predicted
    against measured.  fold_rows: the leave-one-device-out rows of
    crossval (each as the fold that left its device out predicted it).
    Returns Markdown lines."""
    groups = {}
    for d in fold_rows:
        if d.get("central"):
            r = d["row"]
            groups.setdefault((r["device"].replace("nvidia-", ""), r["runtime"], r["mode"]), []).append(d)
    lines = ["**Architecture ratios (cross-validated).** Comparing architectures on one device is the first "
             "use; a common error of the device's scale cancels in such a ratio. Per group: each row's "
             "predicted/measured throughput over the group's geometric mean of that quotient (median |error| "
             "of the architecture ratio), and each model against ResNet-50 measured in the same group "
             "(predicted ratio over measured ratio); rows as the leave-one-device-out fold predicted them.", "",
             "| group | rows | median abs error, ratio to the group | models vs ResNet-50 | median abs error "
             "vs ResNet-50 | ViT-B/16 : ResNet-50 time per sample, measured / predicted |",
             "|---|---:|---:|---:|---:|---|"]
    for key in sorted(groups):
        ds = groups[key]
        if len(ds) < 2:
            continue
        q = [d["central"] / d["measured"] for d in ds]
        gm = math.exp(sum(math.log(x) for x in q) / len(q))
        rel = sorted(abs(x / gm - 1) for x in q)
        ref = [d for d in ds if d["row"]["graph"] == "resnet50"]
        vs, vit = [], "n/a"
        if ref:
            r0 = ref[0]
            for d in ds:
                if d is r0:
                    continue
                vs.append(abs((d["central"] / r0["central"]) / (d["measured"] / r0["measured"]) - 1))
                if d["row"]["graph"] == "vit_b_16":
                    vit = "%.2fx / %.2fx" % (r0["measured"] / d["measured"], r0["central"] / d["central"])
        vs.sort()
        lines.append("| %s %s %s | %d | %s | %d | %s | %s |" % (
            key[0], key[1], key[2], len(ds), ac.pct(ac.median(rel)).lstrip("+"), len(vs),
            ac.pct(ac.median(vs)).lstrip("+") if vs else "n/a", vit))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cmd", nargs="?", default="score")
    ap.add_argument("--rows", default=ROWS)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    if a.cmd == "rows":
        rs = build_rows()
        write_rows(rs)
        print("wrote %s (%d rows)" % (ROWS, len(rs)))
        return 0
    import fit_timm as ft
    rows = ac.read_rows(a.rows)
    g = ft.grid(rows)
    pr, close = cv_predict()
    try:
        # GPU and CPU rows run different kernel paths: scored as two
        # classes, each row's range from its own class's other folds
        res = cv.run(rows, ft.make_fit(g), pr, measured,
                     {"device": lambda r: r["device"], "family": lambda r: r["family"]},
                     n_params=len(ft.FIT), strata=ft.device_class)
    finally:
        close()
    for line in cv.report(res, "timm"):
        print(line)
    # the published table: each row as its leave-one-device-out fold
    # predicted it, with the range the other folds' residuals give
    out = []
    for d in res["schemes"]["device"]["rows"]:
        row = d["row"]
        r = {"id": row["id"], "measured": d["measured"], "group": group(row),
             "note": "%s %s batch %s" % (row["family"], row["kind"], row["batch"])}
        if d.get("central") is None:
            r["reason"] = "not predicted"
        else:
            # no range where no other fold of the row's class measured one
            r.update(low=d.get("low"), central=d["central"], high=d.get("high"))
        out.append(r)
    ncpu = len({r["device"] for r in rows if ft.device_class(r) == "CPU"})
    notes = {}
    if ncpu == 1:
        notes["device class: CPU"] = (
            "one CPU device, so its leave-one-device-out fold is the prior: cpu_kernel_eta_matrix %.3g, "
            "cpu_kernel_call_s %.3g us, no range" % (ft.PRIOR[ft.CPU_ETA], 1e6 * ft.PRIOR[ft.CALL]))
    cvs = ac.cv_summary(res, {"device class": ft.device_class, "group": group,
                              "class": lambda r: "%s %s (%s)" % (r["runtime"], r["kind"], ft.device_class(r))},
                        notes)
    ac.write_set("timm", "timm framework throughput (RTX 3090/4090: eager, compiled, training; Core i9-10940X and "
                 "i7-12700H: compiled)", "samples/s",
                 "`joulecast estimate` of the torchvision graph on the row's device, --precision fp16 (GPUs, AMP) or "
                 "fp32 (the CPU, batch 1), "
                 "--runtime pytorch (eager PyTorch 2.4; rows 'eager'), torch-compile (rows 'compiled') or "
                 "pytorch-1 (training, eager PyTorch 1.12; rows 'eager-pt1'), --batch B (training: --train, one "
                 "step). The kernel efficiencies (kernel_eta_*, from the GPU rows alone; kernel_eta_backward from "
                 "the training rows alone, its prior 1 in a fold without them; the CPU kernel path's "
                 "cpu_kernel_eta_matrix and cpu_kernel_call_s from the CPU rows alone, the shared constants held "
                 "at the fold's GPU fit, their priors 1 (the datasheet peak) and %.3g us "
                 "(runtime_eager_launch_s: torch.compile's default wrapper invokes each kernel from Python) in a "
                 "fold without them) are "
                 "refitted per fold by tools/fit_timm.py; the table shows each row as predicted by the "
                 "leave-one-device-out fold that excluded its device, with the range from the held-out "
                 "residuals of the other folds' rows of its device class (GPU or CPU: the two kernel paths "
                 "are scored separately; a nominal 90%% conformal interval, tools/crossval.py). The two CPUs' "
                 "leave-one-device-out folds each fit the CPU constants to the other CPU's rows." % (1e6 * ft.PRIOR[ft.CALL]),
                 "wall-clock throughput of the forward (training: forward + backward + optimizer) pass "
                 "on one device (a GPU, or the CPU's cores); no energy.", out, out_dir=a.out, cv=cvs,
                 extra_lines=arch_ratios(res["schemes"]["device"]["rows"]) + [""],
                 targets="leave-one-device-out median |error| <= 15% (eager and compiled each); "
                         "transformers and CNNs in eager PyTorch each within 20% median (issue #30)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
