#!/usr/bin/env python3
"""fit_training_step.py - fits train_step_eta (hwdb/training.yaml), the share
of the kernel model's speed the compute of a training step reaches (what
the step's mechanisms miss: clocks under sustained load, stragglers,
framework work between kernels), to the device-hours rows of
../shared/data/calibration/training-runs.yaml (copied with their sources
and shapes to tests/accuracy/training-runs.csv), and scores the training
step model leave-one-run-family-out with tools/crossval.py.  The goodput
is not fitted: it is the stated assumption by run length
(train_goodput_short / _long), so the step's own error shows here.

Each row runs once as the step model sees it:
    joulecast estimate --train --params N --layers L --hidden H --heads A
        --seq S --batch B --tokens D --device X --count G
(the layout, the step by mechanism, the goodput by run length); its
compute parts (GEMMs, attention, elementwise traffic, teacher, and the
pipeline bubble they fill) scale as 1 / eta, the rest (communication,
optimizer, checkpoints) does not, so a fold's prediction with eta is
device-hours x (c eta0 / eta + 1 - c), c the compute share of the row's
productive step.  The fit is the eta that makes the mean log residual of
the fold's rows 0, at most 1.  Rows whose cluster size the source does not
publish are not predicted (the step model needs it).

  python3 tools/fit_training_step.py [--write]   print the fit and the
                                                 cross-validation; --write
                                                 writes value/low/high
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import crossval as cv  # noqa: E402
import fit_common as fc  # noqa: E402

ROWS = os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv")
TRAINING_YAML = os.path.join(ac.ROOT, "hwdb", "training.yaml")


def family(row):
    """The run family: LLaMA-1, Llama 2, Llama 3.x, BLOOM (the id's prefix)."""
    rid = row["id"]
    for pre in ("llama1", "llama2", "llama3", "bloom"):
        if rid.startswith(pre):
            return pre
    return rid


def recipe(row):
    return ["estimate", "--train", "--params", row["params"], "--layers", row["layers"], "--hidden", row["hidden"],
            "--heads", row["heads"], "--seq", row["seq"], "--batch", row["batch"], "--tokens", row["tokens"],
            "--device", row["device"], "--count", row["count"], "--pue", row["pue"] or "1", "--ci", "400"]


_cache = {}
COMPUTE_PARTS = ("gemm", "attention", "memory", "teacher", "pp_bubble")


def base(row):
    """(device-hours central, eta used, compute share of the productive
    step) of the row at the database's constants, or (None, reason)."""
    if row["id"] in _cache:
        return _cache[row["id"]]
    if not row.get("count") or not row.get("layers") or not row.get("batch"):
        out = (None, "cluster size or global batch not published: the step model needs --count and --batch")
    else:
        js, err = ac.run_jc(recipe(row))
        if js is None:
            out = (None, err)
        else:
            ts = js["train_step"]
            parts = {p["name"]: p["s"] for p in ts["parts"]}
            prod = ts["step_s"] - parts.get("lost", 0)
            c = sum(parts.get(k, 0) for k in COMPUTE_PARTS) / prod
            eta0 = next(a["value"]["central"] for a in js["assumptions"] if a["key"] == "train_step_eta")
            out = ((js["results"]["device_hours"]["central"], eta0, c), None)
    _cache[row["id"]] = out
    return out


def step_rows(rows=None):
    rows = rows if rows is not None else ac.read_rows(ROWS)
    return [r for r in rows if r["set"] == "device_hours"]


def _scaled(b, eta):
    dh, eta0, c = b
    return dh * (c * eta0 / eta + 1 - c)


def fit(rows):
    bs = [(base(r)[0], float(r["measured"])) for r in rows]
    bs = [(b, m) for b, m in bs if b is not None]
    if not bs:
        return {"train_step_eta": 1.0}

    def mean_log(eta):
        return sum(math.log(_scaled(b, eta) / m) for b, m in bs) / len(bs)
    lo, hi = 0.02, 1.0
    if mean_log(hi) >= 0:
        return {"train_step_eta": 1.0}
    for _ in range(60):   # mean_log falls as eta rises
        mid = (lo + hi) / 2
        if mean_log(mid) > 0:
            lo = mid
        else:
            hi = mid
    return {"train_step_eta": (lo + hi) / 2}


def predict(params, row):
    b, _ = base(row)
    if b is None:
        return None
    return _scaled(b, params["train_step_eta"])


def measured(row):
    return float(row["measured"])


def crossvalidate(rows=None):
    rows = step_rows(rows)
    return rows, cv.run(rows, fit, predict, measured, keys={"family": family}, n_params=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows, res = crossvalidate()
    for line in cv.report(res, "training step model: device-hours, leave one run family out"):
        print(line)
    for r in rows:
        b, why = base(r)
        if b is None:
            print("  not predicted: %s (%s)" % (r["id"], why))
    e = res["in_sample"]["params"]["train_step_eta"]
    rf = res["schemes"]["family"]["range_factors"]
    # device-hours x low_factor .. x high_factor, about 1 / eta: eta / high .. / low
    lo, hi = e / rf["high_factor"], min(1.0, e / rf["low_factor"])
    print("train_step_eta = %.4g [%.4g-%.4g] (in-sample; range from the held-out families' residuals)" % (e, lo, hi))
    if a.write:
        fc.write_constant("train_step_eta", e, lo, hi, path=TRAINING_YAML)
        print("wrote hwdb/training.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
