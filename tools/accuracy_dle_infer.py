#!/usr/bin/env python3
"""accuracy_dle_infer.py - the DeepLearningExamples V100/T4 inference set of
`make accuracy` (issue 41 item 2: per-op framework cost at small batch).

Rows: tests/accuracy/dle-infer.csv, the inference rows of
../shared/data/calibration/dle-v100-t4.yaml (NVIDIA DeepLearningExamples
at 729963d: the vendor's eager PyTorch 1.x in the 21.03-22.10 NGC
containers, `main.py --evaluate` via launch.py benchmark_inference, one
GPU, batch 1-256, FP32 and AMP) on one V100 16GB and one T4, for the
networks the project has a graph of, copied with their sources by
--import.  The inference set beside the training set of
tools/accuracy_dle.py (its rows and script are another's).

How a row is predicted:

  joulecast estimate G.onnx --device D --precision P --runtime pytorch-1
      --batch B --requests B --pue 1 --ci 400

G: ResNet-50 and EfficientNet-B0/B4 are tests/models/torchvision/'s;
ResNeXt101-32x4d, SE-ResNeXt101-32x4d and EfficientNet-WideSE-B0/B4 are
tests/models/dle/'s (tools/export_dle_zoo.py, the architectures the
calibration file describes); D: the DGX-1's V100 SXM2 16GB or the T4; P:
fp32, or fp16 for AMP; samples/s = B / predicted wall seconds.  The
per-op host costs of eager PyTorch 1.x (runtime_eager_pt1_op_*_s) are
cross-validated leave-one-device-out: each row is predicted with the fit
of tools/fit_op_cost.py on the other device's rows (an override layer);
the other constants are the hwdb's (fitted to timm, not to these rows).

  python3 tools/accuracy_dle_infer.py [--rows FILE] [--out DIR]
  /usr/bin/python3 tools/accuracy_dle_infer.py --import ../shared/data/calibration/dle-v100-t4.yaml
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402

ROWS = os.path.join(ac.ROOT, "tests", "accuracy", "dle-infer.csv")
TV = os.path.join("tests", "models", "torchvision")
DLE = os.path.join("tests", "models", "dle")
GRAPHS = {"resnet50": os.path.join(TV, "resnet50.onnx"),
          "efficientnet-b0": os.path.join(TV, "efficientnet_b0.onnx"),
          "efficientnet-b4": os.path.join(TV, "efficientnet_b4.onnx"),
          "resnext101-32x4d": os.path.join(DLE, "resnext101_32x4d.onnx"),
          "se-resnext101-32x4d": os.path.join(DLE, "se_resnext101_32x4d.onnx"),
          "efficientnet-widese-b0": os.path.join(DLE, "efficientnet_widese_b0.onnx"),
          "efficientnet-widese-b4": os.path.join(DLE, "efficientnet_widese_b4.onnx")}
DEVICES = {"V100 16GB": "nvidia-v100-sxm2-16gb", "T4": "nvidia-t4"}
PRECISION = {"FP32": "fp32", "AMP": "fp16"}
COLUMNS = ("id", "model", "system", "gpu", "precision", "batch", "image_size", "throughput", "unit", "container",
           "source")
SMALL = 16


def recipe(row, extra):
    return ["estimate", GRAPHS[row["model"]], "--device", DEVICES[row["gpu"]], "--precision",
            PRECISION[row["precision"]], "--runtime", "pytorch-1", "--batch", row["batch"], "--requests",
            row["batch"], "--pue", "1", "--ci", "400"] + list(extra)


def predict(row, extra):
    js, err = ac.run_jc(recipe(row, extra))
    if js is None:
        return None, err
    w = js["results"]["wall_hours"]
    b = float(row["batch"])
    return {"low": b / (3600 * w["high"]), "central": b / (3600 * w["central"]), "high": b / (3600 * w["low"])}, None


def fold_layers(rows):
    """{device: override args} of the fits that leave each device out."""
    import fit_common as fc
    import fit_op_cost as foc
    f = foc.folds(rows, lambda r: recipe(r, []), fc.read_constant(foc.LAUNCH))
    layers = {}
    for dev in DEVICES:
        if dev in f:
            ov = fc.Overlay()
            layers[dev] = (ov, ov.set({foc.IDS[k]: v for k, v in f[dev].items()}), f[dev])
    return layers


def main():
    a = ac.set_cli(__doc__, ROWS, "DLE_YAML")
    if a.imp:
        return import_rows(a.imp, a.rows)
    rows = [r for r in ac.read_rows(a.rows)]
    modelled = [r for r in rows if r["model"] in GRAPHS]
    layers = fold_layers(modelled)
    out, small = [], []
    for row in rows:
        r = {"id": row["id"], "measured": float(row["throughput"]),
             "group": "%s %s%s" % (row["gpu"], row["precision"], " batch<=16" if int(row["batch"]) <= SMALL else "")}
        if row["model"] not in GRAPHS:
            r["reason"] = "not modelled: no %s graph" % row["model"]
        else:
            p, why = predict(row, layers[row["gpu"]][1])
            if p is None:
                r["reason"] = why
            else:
                r.update(p, note="%s batch %s (fit leaving the %s out)" % (row["model"], row["batch"], row["gpu"]))
        out.append(r)
    for ov, _, _ in layers.values():
        ov.close()
    for r, row in zip(out, rows):
        if r.get("central") is not None and int(row["batch"]) <= SMALL:
            small.append(abs(r["central"] / r["measured"] - 1))
    fits = "; ".join("leaving the %s out: %s" % (dev, ", ".join("%s %.1f us" % (k, v * 1e6) for k, v in h.items()))
                     for dev, (_, _, h) in sorted(layers.items()))
    extra = ["- Leave-one-device-out median |error| at batch 1-%d: %s over %d rows (target <= 20%%)." % (
        SMALL, ac.pct(ac.median(small)).lstrip("+"), len(small)),
        "- The folds' per-op host costs (tools/fit_op_cost.py): %s." % fits, ""]
    how = ("`joulecast estimate G --device D --precision P --runtime pytorch-1 --batch B --requests B`, samples/s = "
           "B / predicted wall seconds; G the row's network (tests/models/torchvision, tests/models/dle), D the "
           "V100 SXM2 16GB (DGX-1) or the T4, P fp32 or fp16 (AMP); eager PyTorch 1.x's per-op host costs from the "
           "fit (tools/fit_op_cost.py, rows at batch <= %d) that leaves the row's device out" % SMALL)
    ac.write_set("dle_infer", "DeepLearningExamples V100/T4 inference throughput (vendor's eager PyTorch 1.x)",
                 "samples/s", how,
                 "single-GPU inference samples/s as the DeepLearningExamples READMEs print them (commit 729963d; "
                 "rows tests/accuracy/dle-infer.csv); no energy.", out, out_dir=a.out,
                 targets="leave-one-device-out median |error| <= 20% at batch 1-16 (issue 41)", extra_lines=extra)
    for line in extra:
        print(line)
    return 0


def import_rows(src, dst):
    """tests/accuracy/dle-infer.csv: every V100 16GB / T4 inference row."""
    import yaml
    d = yaml.safe_load(open(src))
    n = 0
    with open(dst, "w", newline="") as f:
        f.write("# NVIDIA DeepLearningExamples (commit %s) V100 16GB / T4 inference throughput, copied row by row\n"
                "# from the calibration set's dle-v100-t4.yaml by tools/accuracy_dle_infer.py --import (rows\n"
                "# flagged summary_duplicate left out). throughput: samples/s as printed (Throughput Avg);\n"
                "# batch: the table's batch size; source: README:line.\n" % d["meta"]["commit"][:7])
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in d["rows"]:
            if r["task"] != "inference" or r["gpu"] not in DEVICES or r.get("unit") != "images/s" or \
                    r["precision"] not in PRECISION or "summary_duplicate" in (r.get("flags") or []):
                continue
            w.writerow((r["id"], r["model"], r["system"], r["gpu"], r["precision"], r["batch_size_per_gpu"],
                        (r.get("input") or {}).get("image_size", ""), r["throughput"], r["unit"],
                        (r.get("conditions") or {}).get("container", ""),
                        "%s:%s" % (r["source"]["readme"], r["source"]["line"])))
            n += 1
    print("wrote %s (%d rows)" % (os.path.relpath(dst, ac.ROOT), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
