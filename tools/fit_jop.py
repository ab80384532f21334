#!/usr/bin/env python3
"""fit_jop.py - measured joules per operation (issue #17 item 4): for each
device metered by the MLPerf Inference v1.1 rows (tests/accuracy/
mlperf-v1.1.csv, copied from ../shared/data/calibration/
mlperf-inference-v1.1.yaml), the dynamic energy per int8 operation and per
byte of memory traffic, with the device's idle power as its static power:

  (wall W - host W) / G - idle W = e_op * (ops/s per device) + e_byte * (B/s per device)

ops and bytes per sample are the counted work of the harness's recipe
(the prediction's flops_total and bytes_total per sample), the rate is the
measured samples/s; host W is the system's hwdb host entry or its fitted
server class (host_class_server*_w).  Non-negative least squares per
device over its ResNet-50 and BERT rows; a device whose hwdb entry already
has an energy per byte (derived from its memory type) keeps it and only
the per-op term is fitted, so the method's two terms stay consistent.

Writes tools/jop_measured.json; tools/gen_hwdb.py turns it into
`measured:` energy.pj_per_flop.int8 / energy.pj_per_byte values of those
devices (naming the rows).  Then the joules-per-op method runs on measured
values for them, and tools/accuracy_mlperf.py --method joules-per-op
scores it.

  python3 tools/fit_jop.py [--write]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402

OUT = os.path.join(ac.ROOT, "tools", "jop_measured.json")


def nnls2(rows):
    """min sum (y - a x1 - b x2)^2 with a, b >= 0; rows = [(x1, x2, y)]."""
    s11 = sum(x1 * x1 for x1, _, _ in rows)
    s22 = sum(x2 * x2 for _, x2, _ in rows)
    s12 = sum(x1 * x2 for x1, x2, _ in rows)
    s1y = sum(x1 * y for x1, _, y in rows)
    s2y = sum(x2 * y for _, x2, y in rows)
    det = s11 * s22 - s12 * s12
    if det > 0:
        a = (s1y * s22 - s2y * s12) / det
        b = (s2y * s11 - s1y * s12) / det
        if a >= 0 and b >= 0:
            return a, b
    # one term only: the better of the two
    a1 = max(0.0, s1y / s11) if s11 > 0 else 0.0
    b2 = max(0.0, s2y / s22) if s22 > 0 else 0.0
    e1 = sum((y - a1 * x1) ** 2 for x1, _, y in rows)
    e2 = sum((y - b2 * x2) ** 2 for _, x2, y in rows)
    return (a1, 0.0) if e1 <= e2 else (0.0, b2)


def main():  # noqa: C901
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rs = [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
          if mp.recipe(r)[0] is not None and r["device"] != "nvidia-jetson-agx-xavier"]
    per = {}
    fixed_pb = {}
    for r in rs:
        js, err = mp.predict(r, ["--method", "joules-per-op"])
        if js is None:
            raise SystemExit("fit: %s: %s" % (r["id"], err))
        res, w = js["results"], js["work"]
        T = res["wall_hours"]["central"]
        host_w = res["energy_host_kwh"]["central"] / T * 1000.0
        a_ = {x["key"]: x for x in js["assumptions"]}
        idle = a_["device.idle_w"]["value"]["central"]
        g = float(r["devices"])
        rate = float(r["samples_per_s"]) / g
        ops = w["flops_total"] / w["samples"] * rate
        byt = w["bytes_total"] / w["samples"] * rate
        dyn = (float(r["wall_power_w"]) - host_w) / g - idle
        pb = a_.get("device.pj_per_byte")
        if pb is not None:
            # the device has a (derived) energy per byte: keep it, fit the per-op term
            dyn -= pb["value"]["central"] * 1e-12 * byt
            byt = 0.0
            fixed_pb[r["device"]] = pb["value"]["central"]
        per.setdefault(r["device"], []).append((ops, byt, dyn, r["id"]))
    out = {}
    for dev, pts in sorted(per.items()):
        e_op, e_b = nnls2([(x1, x2, y) for x1, x2, y, _ in pts])
        each = sorted((y - e_b * x2) / x1 * 1e12 for x1, x2, y, _ in pts if x1 > 0)
        lo = each[int(0.1 * (len(each) - 1))]
        hi = each[int(round(0.9 * (len(each) - 1)))]
        out[dev] = {"pj_per_op_int8": round(e_op * 1e12, 4), "pj_per_byte": round(e_b * 1e12, 3),
                    "pj_per_op_int8_p10_p90": [round(min(lo, e_op * 1e12), 4), round(max(hi, e_op * 1e12), 4)],
                    "pj_per_byte_kept": fixed_pb.get(dev), "rows": [i for _, _, _, i in pts]}
        print("%-24s %.3f pJ/int8 op, %.2f pJ/B (%d rows)" % (dev, e_op * 1e12, e_b * 1e12, len(pts)))
        for x1, x2, y, i in pts:
            print("    %-70s dyn %.0f W, fit %.0f W" % (i, y, e_op * x1 + e_b * x2))
    if a.write:
        with open(OUT, "w") as f:
            json.dump({"fitted_by": "tools/fit_jop.py",
                       "fitted_to": "the MLPerf Inference v1.1 power results (mlcommons/inference_results_v1.1@7fc43356; rows copied in tests/accuracy/mlperf-v1.1.csv)",
                       "devices": out}, f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote %s (run tools/gen_hwdb.py next)" % OUT)


if __name__ == "__main__":
    main()
