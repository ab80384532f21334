#!/usr/bin/env python3
"""accuracy_workstation.py - the workstation case of `make accuracy`
(issue #17): ResNet-18, one ImageNet epoch, one RTX 2080 SUPER in an
i9-9900K desktop, whole machine at the wall (tests/accuracy/workstation.csv).
A validation row: nothing is fitted to it.

  joulecast estimate models/resnet18.onnx --train --samples S --epochs 1
      --batch 128 --device nvidia-rtx-2080-super --pue 1
  (default runtime eager, default precision fp32 - the card has no tensor
  rate in the hwdb -, default host: the desktop-workstation class)

Target: within a factor of 2 of the measurement, with the measurement
inside the low-high range.

  python3 tools/accuracy_workstation.py [--rows FILE] [--out DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "workstation.csv"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    out = []
    for row in ac.read_rows(a.rows):
        r = {"id": row["id"], "measured": float(row["measured_kwh"]), "group": "workstation",
             "note": row["scope"]}
        js, err = ac.run_jc(["estimate", "models/resnet18.onnx", "--train", "--samples", row["samples"],
                             "--epochs", row["epochs"], "--batch", row["batch"], "--device", row["device"],
                             "--pue", "1", "--ci", "400"])
        if js is None:
            r["reason"] = err
        else:
            e = js["results"]["energy_facility_kwh"]
            r.update(low=e["low"], central=e["central"], high=e["high"])
            f = e["central"] / r["measured"]
            r["note"] += "; factor %.2f of the measurement (target: within 2, measurement in range)" % f
        out.append(r)
    ac.write_set("workstation", "Workstation: ResNet-18 ImageNet epoch, RTX 2080 SUPER desktop", "kWh",
                 "`joulecast estimate models/resnet18.onnx --train --samples 1281167 --epochs 1 --batch 128 "
                 "--device nvidia-rtx-2080-super --pue 1` (eager runtime, fp32, desktop-workstation host "
                 "class by default).",
                 "the whole desktop at the wall (GPU, CPU, board, PSU losses) over one epoch.",
                 out, out_dir=a.out,
                 targets="within a factor of 2 of 160 Wh, 160 Wh inside the range (validation, not fitted)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
