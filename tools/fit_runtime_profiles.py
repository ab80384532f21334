#!/usr/bin/env python3
"""fit_runtime_profiles.py - fits the constants of two runtime profiles
from training throughput.  First (the default, --profile cnn-tuned) the
vendor-tuned CNN stack's (--runtime cnn-tuned: runtime_cnn_tuned_eta_tensor,
the achievable fraction of the dense tensor-core peak of its fused cuDNN
kernels at 16 bits; at FP32 it runs at the frameworks' kernel_eta_matrix) to
the training throughput of NVIDIA's tuned stacks in the calibration set:

  - DeepLearningExamples on DGX-1 V100 (tests/accuracy/dle-v100-train.csv,
    copied from ../shared/data/calibration/dle-v100-t4.yaml): ResNet-50 and
    BERT-large, FP32 and AMP, 1 and 8 GPUs;
  - MLPerf Training v4.0/v4.1 ResNet-50 in NVIDIA's containers
    (tests/accuracy/mlperf-training.csv, copied from
    ../shared/data/calibration/mlperf-training-v4.0-v4.1.csv), the rows
    tools/accuracy_training_mlperf.py runs with --runtime cnn-tuned.

For every row, the value that makes the prediction equal the measurement
(bisection through the CLI with the harnesses' own recipes, a trial value
in an override layer); a fit from a set of rows is the median of their
values.  The value written is the fit over every row; low / high are the
10th / 90th percentiles of the per-row values.  The harnesses cross-
validate with the same per-row values (fit_from): the DLE rows (all on
V100) are predicted by the fit that leaves the V100 out (the MLPerf rows),
the MLPerf rows by leave-one-benchmark-out (the DLE rows) and
leave-one-system-out folds.  Per-row values are cached in build/fit/.

The second profile it fits (--profile tinygrad): tinygrad's
(runtime_tinygrad_eta_tensor, the achievable fraction of the dense 16-bit
peak of tinygrad's own matrix kernels) to the MLPerf Training v4.1 BERT
rows tinygrad ran (tinybox green, 6x RTX 4090; tinybox red, 6x RX 7900
XTX: the rows tools/accuracy_training_mlperf.py runs with --runtime
tinygrad), the same way: per-row values by bisection, the fit their
median; cross-validated by leaving each system out (green from red, red
from green).

  python3 tools/fit_runtime_profiles.py [--profile cnn-tuned|tinygrad] [--write]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_common as fc  # noqa: E402

ETA = "runtime_cnn_tuned_eta_tensor"
CACHE = os.path.join(ac.ROOT, "build", "fit", "runtime_profiles.json")
TG_ETA = "runtime_tinygrad_eta_tensor"
TG_CACHE = os.path.join(ac.ROOT, "build", "fit", "runtime_tinygrad.json")
TG_DERIVED = ("fitted to the MLPerf Training v4.1 BERT rows tinygrad ran (tests/accuracy/mlperf-training.csv: tinycorp "
              "tinybox green, 6x RTX 4090, and tinybox red, 6x Radeon RX 7900 XTX; every sample computed at its 512 "
              "padded tokens, as tinygrad's implementation feeds it) by tools/fit_runtime_profiles.py --profile "
              "tinygrad: the median of the per-row values that make the predicted time to train the measured one "
              "(%s); range = the two per-row values. Cross-validated leaving each system out: green from red's value, "
              "red from green's; docs/accuracy/training_mlperf.md")
DERIVED = ("fitted to the training throughput of NVIDIA's tuned stacks: the DeepLearningExamples V100 rows "
           "(tests/accuracy/dle-v100-train.csv, its %d AMP rows) and the MLPerf Training v4.0/v4.1 ResNet-50 rows in "
           "NVIDIA's containers (tests/accuracy/mlperf-training.csv, %d rows) by tools/fit_runtime_profiles.py: the "
           "median of the per-row values that make the predicted throughput (time to train) the measured one; "
           "range = the 10th-90th percentile of the per-row values. Cross-validated: the DLE rows from the MLPerf "
           "rows' median (%.4f, no V100 row), the MLPerf rows from the DLE rows' (%.4f, no MLPerf row); "
           "docs/accuracy/dle.md, training_mlperf.md")


def dle_rows():
    import accuracy_dle as dle
    rows = [r for r in ac.read_rows(dle.ROWS) if r["model"] in dle.MODELS and dle.PRECISION[r["precision"]] != "fp32"]
    return [("dle", r) for r in rows]


def mlperf_rows(runtime="cnn-tuned"):
    """The MLPerf Training rows tools/accuracy_training_mlperf.py runs with
    --runtime RUNTIME (and a time to train), as ("mlperf", row)."""
    import accuracy_training_mlperf as tm
    kept, _ = tm.count_once(ac.read_rows(tm.ROWS))
    out = []
    for r in kept:
        if r["benchmark"] not in tm.PROFILE_BENCHMARKS.get(runtime, ()) or not r["time_to_train_min"]:
            continue
        args, _ = tm.recipe(r)
        if args and runtime in args:
            out.append(("mlperf", r))
    return out


def ratio(kind, row, layer):
    """predicted / measured speed of one row with the trial layer."""
    if kind == "dle":
        import accuracy_dle as dle
        js, err = ac.run_jc(dle.recipe(row, ["--runtime", "cnn-tuned"]) + layer)
        if js is None:
            raise SystemExit("fit_runtime_profiles: %s: %s" % (row["id"], err))
        w = js["results"]["wall_hours"]["central"]
        n = js["work"]["samples"] * js["work"].get("epochs", 1)
        return n / (3600 * w) / float(row["throughput"])
    import accuracy_training_mlperf as tm
    args, why = tm.recipe(row)
    js, err = ac.run_jc(args + layer)
    if js is None:
        raise SystemExit("fit_runtime_profiles: %s: %s" % (row["id"], err))
    return tm.measured(row) / (60 * js["results"]["wall_hours"]["central"])


def per_row(profile="cnn-tuned"):
    """{row id: value} over the profile's rows: cnn-tuned, every DLE and
    MLPerf tuned-stack row; tinygrad, the MLPerf rows tinygrad ran (cached
    while the rows and the binary's default predictions stay the same)."""
    if profile == "tinygrad":
        eta, cache, rows = TG_ETA, TG_CACHE, mlperf_rows("tinygrad")
    else:
        eta, cache, rows = ETA, CACHE, dle_rows() + mlperf_rows()
    probe = {}
    ov = fc.Overlay()
    try:
        base = ov.set({eta: 0.75})
        probe = {r["id"]: round(ratio(k, r, base), 6) for k, r in rows}
        key = json.dumps(probe, sort_keys=True)
        cached = fc.load_cache(cache, key, "rows")
        if cached is not None:
            return cached
        out = {}
        for k, r in rows:
            out[r["id"]] = {"set": k, "eta": fc.bisect(lambda x, k=k, r=r: ratio(k, r, ov.set({eta: x})) - 1,
                                                       0.05, 1.0, steps=12)}
    finally:
        ov.close()
    fc.save_cache(cache, key, "rows", out)
    return out


def fit_from(per, ids):
    """The fit from the rows of those ids: the median of their values."""
    v = [per[i]["eta"] for i in ids if i in per]
    return ac.median(v) if v else None


def main_tinygrad(write):
    """--profile tinygrad: the fit, each system's value and the other's
    prediction from it."""
    per = per_row("tinygrad")
    for i, d in sorted(per.items()):
        print("  %-60s eta %.4f" % (i, d["eta"]))
    ids = sorted(per)
    if not ids:
        raise SystemExit("fit_runtime_profiles: no MLPerf row runs --runtime tinygrad")
    c = fit_from(per, ids)
    eta = [per[i]["eta"] for i in ids]
    print("%s = %.4f [%.4f-%.4f] over %d rows; leaving a system out: %s" % (
        TG_ETA, c, min(eta), max(eta), len(ids),
        ", ".join("%s from the others %.4f" % (i, fit_from(per, [j for j in ids if j != i]) or float("nan"))
                  for i in ids)))
    if write:
        fc.write_constant(TG_ETA, round(c, 4), round(min(eta), 4), round(max(eta), 4))
        fc.write_text(TG_ETA, "derived", TG_DERIVED % ", ".join("%s %.4f" % (i, per[i]["eta"]) for i in ids))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted value into hwdb/energy-model.yaml")
    ap.add_argument("--profile", choices=("cnn-tuned", "tinygrad"), default="cnn-tuned",
                    help="the profile whose constant is fitted (default cnn-tuned)")
    a = ap.parse_args()
    if a.profile == "tinygrad":
        return main_tinygrad(a.write)
    per = per_row()
    for i, d in sorted(per.items()):
        print("  %-6s %-80s eta %.3f" % (d["set"], i, d["eta"]))
    ids = list(per)
    c = fit_from(per, ids)
    d_ids = [i for i in ids if per[i]["set"] == "dle"]
    m_ids = [i for i in ids if per[i]["set"] == "mlperf"]
    eta = [per[i]["eta"] for i in ids]
    lo, hi = fc.percentile(eta, 0.1), fc.percentile(eta, 0.9)
    fm, fd = fit_from(per, m_ids), fit_from(per, d_ids)
    print("%s = %.4f [%.4f-%.4f] over %d rows; from the MLPerf rows alone %.4f, from the DLE rows alone %.4f"
          % (ETA, c, lo, hi, len(ids), fm, fd))
    if a.write:
        fc.write_constant(ETA, round(c, 4), round(lo, 4), round(hi, 4))
        fc.write_text(ETA, "derived", DERIVED % (len(d_ids), len(m_ids), fm, fd))
    return 0


if __name__ == "__main__":
    sys.exit(main())
