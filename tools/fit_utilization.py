#!/usr/bin/env python3
"""fit_utilization.py - fits utilization_size_half_params, the model size
N_half in u(N) = u_device x 1 / (1 + N_half / N) used by --params jobs, to
the training rows of ../shared/data/calibration/training-runs.yaml
(copied to tests/accuracy/training-runs.csv): the utilisation each row
achieved (Patterson rows: the published achieved TFLOP/s / the hwdb peak;
LLaMA rows: 6ND / (device-hours x peak)) against u_device, the device's
large-model figure in hwdb (read through the CLI).

N_half minimises the mean squared log error over the rows (a grid from
1e6 to 1e10 parameters); low/high = the range of N_half whose error is
within 10% of the best.  Rows whose device has no published utilisation
(the P100, on the database's fallback) are left out.

  python3 tools/fit_utilization.py [--write]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_common as fc  # noqa: E402


def device_util(dev):
    """(u_device, peak FLOP/s, from a fallback?) from the CLI's assumptions."""
    # --flops: the device's utilisation as it stands (--train --params runs
    # the training step model, whose utilisation is its output)
    js, err = ac.run_jc(["estimate", "--train", "--flops", "6e21", "--device", dev,
                         "--ci", "400", "--pue", "1"])
    if js is None:
        raise SystemExit("fit: %s: %s" % (dev, err))
    a = {x["key"]: x for x in js["assumptions"]}
    u = a["utilization"]["value"]["central"]
    return u, a["device.peak_flops"]["value"]["central"] * 1e12, "FALLBACK" in a["utilization"]["label"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows = ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
    pts = []
    cache = {}
    for r in rows:
        dev = r["device"]
        if dev not in cache:
            cache[dev] = device_util(dev)
        ud, peak, fb = cache[dev]
        if fb or r["id"] == "opt-175b":
            continue   # no device figure / its GPU-hours are an assumption, not a measurement
        if r["set"] == "device_hours" and not r["id"].startswith(("llama1", "llama2")):
            continue   # the rows this constant was fitted to (the later ones score the training step model)
        n = float(r["params"])
        if r["set"] == "device_hours":
            u = 6 * n * float(r["tokens"]) / (float(r["measured"]) * 3600 * peak)
        elif r["achieved_tflops"]:
            u = float(r["achieved_tflops"]) * 1e12 / peak
        else:
            continue
        pts.append((r["id"], n, u, ud))

    def err(nh):
        return sum(math.log(ud / (1 + nh / n) / u) ** 2 for _, n, u, ud in pts) / len(pts)
    grid = [10 ** (6 + 0.1 * i) for i in range(41)]
    errs = [(err(g), g) for g in grid]
    best_e, best = min(errs)
    ok = [g for e, g in errs if e <= best_e * 1.1]
    for rid, n, u, ud in pts:
        print("  %-55s N %.3g achieved u %.3f device u %.3f predicted %.3f" % (rid, n, u, ud, ud / (1 + best / n)))
    print("utilization_size_half_params = %.3g [%.3g-%.3g] (rms log error %.3f, %d rows)" % (
        best, min(ok), max(ok), math.sqrt(best_e), len(pts)))
    if a.write:
        fc.write_constant("utilization_size_half_params", best, min(ok), max(ok))
        print("wrote hwdb/energy-model.yaml")


if __name__ == "__main__":
    main()
