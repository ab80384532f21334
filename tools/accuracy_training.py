#!/usr/bin/env python3
"""accuracy_training.py - the training set of `make accuracy`.

Rows: tests/accuracy/training-runs.csv (copied row by row from
../shared/data/calibration/training-runs.yaml with their sources).

  energy        training energy from FLOPs for the runs with a measured
                (Patterson et al. 2021) or stated (OPT-175B) power:
                joulecast estimate --train --flops F --device D --count G
                    --pue P
                (the published FLOPs at the device's utilisation; --params
                would run the training step model on a derived shape);
                compared with the published energy in its scope (system
                energy x PUE, or GPU energy).
  device_hours  device-hours of LLaMA-1, Llama 2, Llama 3.1 405B and
                BLOOM pre-training from the training step model:
                joulecast estimate --train --params N --layers L --hidden H
                    --heads A --seq S --batch B --tokens D --device X --count G
                cross-validated leave one run family out by
                tools/fit_training_step.py (tools/crossval.py): each
                family's rows predicted with train_step_eta fitted to the
                other families (the goodput is the stated assumption by
                run length, not fitted)

  python3 tools/accuracy_training.py [--rows FILE] [--out DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_training_step as fts  # noqa: E402


def recipe(row):
    return ["estimate", "--train", "--flops", "%.6g" % float(row["total_flops"]),
            "--device", row["device"], "--count", row["count"], "--pue", row["pue"], "--ci", "400"]


def predict(row, extra=()):
    js, err = ac.run_jc(recipe(row) + list(extra))
    if js is None:
        return None, err
    res = js["results"]
    key = "energy_device_kwh" if row["scope"].startswith("GPU energy") else "energy_facility_kwh"
    return res[key], None


def device_hours_set(rows, out_dir):
    """The device-hours rows, leave-one-run-family-out (crossval.py)."""
    drows, res = fts.crossvalidate(rows)
    held = {d["row"]["id"]: d for d in res["schemes"]["family"]["rows"]}
    out = []
    for row in drows:
        r = {"id": row["id"], "measured": float(row["measured"]), "group": fts.family(row), "note": row["scope"]}
        d = held.get(row["id"])
        if d is None or d.get("central") is None:
            r["reason"] = fts.base(row)[1] or "no figure"
        else:
            r.update(low=d["low"], central=d["central"], high=d["high"])
        out.append(r)
    g = res["in_sample"]["params"]["train_step_eta"]
    how = ("`joulecast estimate --train --params N --layers L --hidden H --heads A --seq S --batch B --tokens D "
           "--device X --count G` (the shape, global batch and cluster the sources publish: "
           "tests/accuracy/training-runs.csv): the training step model lays the run out and times one step by "
           "mechanism; each run family (LLaMA-1, Llama 2, Llama 3.x, BLOOM) is predicted with `train_step_eta` "
           "(the share of the kernel model's speed a step's compute reaches; the goodput is the stated "
           "assumption by run length) fitted to the other families by tools/fit_training_step.py (tools/crossval.py; in-sample %.3g, "
           "over the folds %.3g-%.3g), its range from the other families' residuals. Rows without a published "
           "cluster size are not predicted." % (
               g, min(f["params"]["train_step_eta"] for f in res["schemes"]["family"]["folds"]),
               max(f["params"]["train_step_eta"] for f in res["schemes"]["family"]["folds"])))
    ac.write_set("training_device_hours", "Device-hours of pre-training runs from the training step model "
                 "(leave one run family out)", "GPU-hours", how,
                 "as published by each source (tests/accuracy/training-runs.csv, column scope): GPU-hours of "
                 "the LLaMA-1 paper, the Llama 2 and Llama 3.1 model cards and the BLOOM paper.",
                 out, out_dir=out_dir, targets="median |error| <= 15%, none beyond +-35% (issue #26)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    rows = ac.read_rows(a.rows)
    device_hours_set(rows, a.out)
    for sname, title, unit, target in (
            ("training_energy", "Training energy from FLOPs (measured or stated power)", "kWh",
             "median |error| <= 15% (issue #17)"),):
        out = []
        for row in rows:
            if ("training_" + row["set"]) != sname:
                continue
            r = {"id": row["id"], "measured": float(row["measured"]), "group": row["device"],
                 "note": row["scope"]}
            v, err = predict(row)
            if v is None or v.get("central") is None:
                r["reason"] = err or "no figure"
            else:
                r.update(low=v["low"], central=v["central"], high=v["high"])
            out.append(r)
        how = ("`joulecast estimate --train --flops F --device D --count G --pue P` "
               "(F = the published FLOPs); the time follows from the device's large-model utilisation, "
               "the power from the device power model and the host of its system class.")
        ac.write_set(sname, title, unit, how,
                     "as published by each source (tests/accuracy/training-runs.csv, column scope): Patterson "
                     "et al. 2021 energies are measured system power per accelerator x hours x PUE; OPT-175B "
                     "is GPU-hours x 400 W.",
                     out, out_dir=a.out, targets=target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
