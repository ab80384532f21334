#!/usr/bin/env python3
"""fit_training_step.py - fits train_goodput (hwdb/training.yaml), the share
of a pre-training run's device time spent in productive steps, to the
device-hours rows of ../shared/data/calibration/training-runs.yaml (copied
with their sources and shapes to tests/accuracy/training-runs.csv), and
scores the training step model leave-one-run-family-out with
tools/crossval.py.

Each row runs once as the step model sees it:
    joulecast estimate --train --params N --layers L --hidden H --heads A
        --seq S --batch B --tokens D --device X --count G
(the layout, the step by mechanism and the goodput in the database); its
device-hours scale as 1 / goodput, so a fold's prediction with goodput g is
the row's device-hours x g0 / g.  The fit is the g that makes the mean log
residual of the fold's rows 0, at most 1 (a share).  Rows whose cluster size
the source does not publish are not predicted (the step model needs it).

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


def base(row):
    """(device-hours central, goodput used) of the row at the database's
    constants, or (None, reason)."""
    if row["id"] in _cache:
        return _cache[row["id"]]
    if not row.get("count") or not row.get("layers") or not row.get("batch"):
        out = (None, "cluster size or global batch not published: the step model needs --count and --batch")
    else:
        js, err = ac.run_jc(recipe(row))
        if js is None:
            out = (None, err)
        else:
            out = ((js["results"]["device_hours"]["central"], js["train_step"]["goodput"]["central"]), None)
    _cache[row["id"]] = out
    return out


def step_rows(rows=None):
    rows = rows if rows is not None else ac.read_rows(ROWS)
    return [r for r in rows if r["set"] == "device_hours"]


def fit(rows):
    logs = []
    for r in rows:
        b, _ = base(r)
        if b is None:
            continue
        dh, g0 = b
        logs.append(math.log(dh * g0 / float(r["measured"])))
    if not logs:
        return {"train_goodput": 0.9}
    g = math.exp(sum(logs) / len(logs))
    return {"train_goodput": min(1.0, g)}


def predict(params, row):
    b, _ = base(row)
    if b is None:
        return None
    dh, g0 = b
    return dh * g0 / params["train_goodput"]


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
    g = res["in_sample"]["params"]["train_goodput"]
    rf = res["schemes"]["family"]["range_factors"]
    # device-hours x low_factor .. x high_factor: goodput / high .. / low
    lo, hi = g / rf["high_factor"], min(1.0, g / rf["low_factor"])
    print("train_goodput = %.4g [%.4g-%.4g] (in-sample; range from the held-out families' residuals)" % (g, lo, hi))
    if a.write:
        fc.write_constant("train_goodput", g, lo, hi, path=TRAINING_YAML)
        print("wrote hwdb/training.yaml")
    return 0


if __name__ == "__main__":
    sys.exit(main())
