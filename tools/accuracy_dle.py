#!/usr/bin/env python3
"""accuracy_dle.py - the DeepLearningExamples V100 training set of `make
accuracy` (issue 39, "Done when": the vendor-tuned stack's training rows on
a device the model was not fitted on).

Rows: tests/accuracy/dle-v100-train.csv, the V100 training rows of
../shared/data/calibration/dle-v100-t4.yaml (NVIDIA DeepLearningExamples at
729963d: NGC containers, AMP, DALI; aggregate samples/s over the row's
GPUs) whose model the project has, copied with their sources by --import;
the other models' rows are counted as not modelled.

How a row is predicted: one epoch of a training request on the row's GPUs
(DGX-1: V100 SXM2), its precision (FP32, or AMP as fp16) and global batch
(the launch configuration's batch per GPU x GPUs), through the CLI:

  resnet50    joulecast estimate models/resnet50.onnx --train
                  --samples 1281167 --epochs 1 --batch B ...
  bert-large  joulecast estimate models/bert_large.onnx --dim sequence=L
                  --train --samples N --epochs 1 --batch B ...
              (pre-training at 128 and 512 tokens: batch per GPU = the
              launcher's train_batch_size, accumulated in micro-batches;
              SQuAD fine-tuning at 384; the MLM and NSP heads, about 2 %
              of the work, are not in the graph)

samples/s = samples / predicted wall seconds.  The runtime profile is the
vendor-tuned CNN/transformer stack's where the CLI has one
(`--runtime cnn-tuned`), else the default, named in the table.  No
constant is fitted to these rows, and none of the kernel constants is
fitted to a V100 (tools/fit_timm.py fits RTX 3090/4090 rows): every row is
predicted by a fit that leaves its device out.

  python3 tools/accuracy_dle.py [--rows FILE] [--out DIR]
  python3 tools/accuracy_dle.py --import ../shared/data/calibration/dle-v100-t4.yaml
"""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402

ROWS = os.path.join(ac.ROOT, "tests", "accuracy", "dle-v100-train.csv")
MODELS = {"resnet50": "ResNet-50 v1.5", "bert-large": "BERT-large"}
DEVICES = {"V100 16GB": "nvidia-v100-sxm2-16gb", "V100 32GB": "nvidia-v100-sxm2-32gb"}   # DGX-1: SXM2 parts
PRECISION = {"FP32": "fp32", "AMP": "fp16"}
COLUMNS = ("id", "model", "workload", "system", "gpu", "gpu_count", "precision", "batch_per_gpu", "batch_source",
           "seq_len", "throughput", "unit", "container", "source")
TUNED = "cnn-tuned"


def runtime():
    """(runtime args, label): the vendor-tuned profile where the CLI lists
    it, its fitted constant at the fit that leaves the V100 out (the
    MLPerf Training ResNet-50 rows alone, tools/fit_runtime_profiles.py),
    in an override layer (closed by the caller: the last item)."""
    p = subprocess.run([ac.jc_path(), "estimate", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if TUNED in p.stdout:
        import fit_common as fc
        import fit_runtime_profiles as frp
        per = frp.per_row()
        eta = round(frp.fit_from(per, [i for i, d in per.items() if d["set"] == "mlperf"]), 4)
        ov = fc.Overlay()
        return (["--runtime", TUNED] + ov.set({frp.ETA: eta}), ov), \
            "the vendor-tuned stack's profile (--runtime %s), its %s at %.4f: the fit that leaves the V100 out " \
            "(the MLPerf Training ResNet-50 rows alone, tools/fit_runtime_profiles.py)" % (TUNED, frp.ETA, eta)
    return ([], None), "the default runtime (no vendor-tuned profile in this build: --runtime %s is not listed)" % TUNED


def recipe(row, rt):
    g = int(row["gpu_count"])
    batch = int(row["batch_per_gpu"]) * g
    common = ["--train", "--epochs", "1", "--batch", str(batch), "--device", DEVICES[row["gpu"]], "--count", str(g),
              "--precision", PRECISION[row["precision"]], "--pue", "1", "--ci", "400"] + rt
    if row["model"] == "resnet50":
        return ["estimate", "models/resnet50.onnx", "--samples", "1281167"] + common
    return ["estimate", "models/bert_large.onnx", "--dim", "sequence=%s" % row["seq_len"],
            "--samples", str(batch * 64)] + common


def predict(row, rt):
    js, err = ac.run_jc(recipe(row, rt))
    if js is None:
        return None, err
    w = js["results"]["wall_hours"]
    n = js["work"]["samples"] * js["work"].get("epochs", 1) if "samples" in js["work"] else None
    if not n:
        return None, "joulecast gives no sample count"
    # samples/s: the slowest time gives the lowest throughput
    return {"low": n / (3600 * w["high"]), "central": n / (3600 * w["central"]), "high": n / (3600 * w["low"])}, None


def main():
    a = ac.set_cli(__doc__, ROWS, "DLE_YAML")
    if a.imp:
        return import_rows(a.imp, a.rows)
    rows = ac.read_rows(a.rows)
    (rt, ov), rt_label = runtime()
    out = []
    for row in rows:
        r = {"id": row["id"], "measured": float(row["throughput"]),
             "group": "%s %s" % (MODELS.get(row["model"], row["model"]), row["precision"])}
        if row["model"] not in MODELS:
            r["reason"] = "not modelled: no %s graph in models/" % row["model"]
        else:
            p, why = predict(row, rt)
            if p is None:
                r["reason"] = why
            else:
                r.update(p, note="%s GPU(s), batch %s per GPU (%s)" % (row["gpu_count"], row["batch_per_gpu"],
                                                                       row["batch_source"]))
        out.append(r)
    how = ("one epoch of `joulecast estimate MODEL --train --batch B --device D --count G --precision P` on the row's "
           "V100 SXM2 GPUs (DGX-1), B the launch configuration's batch per GPU x G, P fp32 or fp16 (AMP); ResNet-50 "
           "as models/resnet50.onnx, BERT-large as models/bert_large.onnx at the row's sequence length; samples/s = "
           "samples / predicted wall time; %s. Each row is predicted by a fit that leaves its device out." % rt_label)
    nm = {}
    for row in rows:
        if row["model"] not in MODELS:
            nm[row["model"]] = nm.get(row["model"], 0) + 1
    extra = ["- Not modelled (no graph in models/): " + "; ".join(
        "%s %d rows" % kv for kv in sorted(nm.items(), key=lambda kv: (-kv[1], kv[0]))) + ".",
        "- Runtime profile: %s." % rt_label, ""]
    ac.write_set("dle", "DeepLearningExamples V100 training throughput (vendor-tuned PyTorch: NGC, AMP, DALI)",
                 "samples/s", how,
                 "aggregate training samples/s over the row's GPUs as the DeepLearningExamples READMEs print them "
                 "(commit 729963d; the rows: tests/accuracy/dle-v100-train.csv); "
                 "no energy.", out, out_dir=a.out,
                 targets="median |error| <= 20% with the vendor-tuned stack's profile, a fit that leaves the device "
                         "out (issue 39)", extra_lines=extra)
    for line in extra:
        print(line)
    if ov:
        ov.close()
    return 0


def batch_of(r):
    """(batch per GPU, where it comes from) from the launch configuration."""
    v = ((r.get("conditions") or {}).get("launch_config") or {}).get("values") or {}
    for k in ("batch_size", "train_batch_size", "train_batch_size_phase2"):
        if v.get(k):
            return int(v[k]), "launch configuration %s" % k
    return None, None


def import_rows(src, dst):
    """tests/accuracy/dle-v100-train.csv: every V100 training row of the
    calibration file that is not a summary duplicate."""
    import yaml
    d = yaml.safe_load(open(src))
    n = 0
    with open(dst, "w", newline="") as f:
        f.write("# NVIDIA DeepLearningExamples (commit %s) V100 training throughput, copied row by row from\n"
                "# the calibration set's dle-v100-t4.yaml by tools/accuracy_dle.py --import (rows flagged\n"
                "# summary_duplicate left out). throughput: aggregate samples/s over gpu_count GPUs as printed;\n"
                "# batch_per_gpu: the launcher's batch per GPU (batch_source names the key); source: README:line.\n"
                % d["meta"]["commit"][:7])
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for r in d["rows"]:
            if r["task"] != "train" or not r["gpu"].startswith("V100") or "summary_duplicate" in (r.get("flags") or []):
                continue
            b, bs = batch_of(r)
            inp = r.get("input") or {}
            w.writerow((r["id"], r["model"], r.get("workload", ""), r["system"], r["gpu"], r["gpu_count"],
                        r["precision"], b or "", bs or "", inp.get("seq_len", ""), r["throughput"], r["unit"],
                        (r.get("conditions") or {}).get("container", ""),
                        "%s:%s" % (r["source"]["readme"], r["source"]["line"])))
            n += 1
    print("wrote %s (%d rows)" % (os.path.relpath(dst, ac.ROOT), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
