#!/usr/bin/env python3
"""fit_jop.py - the one fitted constant of the joules-per-op method (issue
#30: no constant keyed by a device): jop_op_energy_scale k, pooled over
every device of the MLPerf Inference v1.1 rows (tests/accuracy/
mlperf-v1.1.csv, copied from ../shared/data/calibration/
mlperf-inference-v1.1.yaml).  A device enters only through its specs:

  device energy = idle W x time + k x ops x e_op + bytes x e_byte

e_op is the device's spec-derived energy per operation at the run's
precision, (tdp_w - idle_w) / dense peak (hwdb/devices
energy.pj_per_flop, derived by tools/gen_hwdb.py), e_byte its energy per
byte from its memory type where the hwdb has one; k says how much more
dynamic energy a counted operation costs in a measured system than that
full-load figure (below-peak power that does not fall in proportion,
work the counted ops leave out).  k is the value at which the median of
ln(predicted / measured J/sample) over the rows given is 0 (the rule of
the roofline's power fit in tools/accuracy_mlperf.py).  J/sample is
linear in k, so each row is predicted twice through the CLI (k = 1 and
k = 2, an override layer) and every trial k after that is arithmetic.

tools/crossval.py refits k without each device (leave-one-device-out) and
without each benchmark (leave-one-benchmark-out); the in-sample value is
written with low/high = the smallest and largest leave-one-device-out
fold's value, and the derived text names the rows and the folds.

  python3 tools/fit_jop.py [--write]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

CID = "jop_op_energy_scale"
METHOD = ["--method", "joules-per-op"]
K_LO, K_HI = 0.1, 10.0


def _j(row, layer):
    js, _ = mp.predict(row, layer + METHOD)
    j = js and js["results"]["j_per_sample"]
    return j["central"] if j and j.get("central") is not None else None


def linear_parts(rows):
    """{row id: (a, b)} with predicted J/sample = a + b k, from the CLI at
    k = 1 and k = 2; rows the CLI cannot predict are left out."""
    ov = fc.Overlay()
    try:
        j1 = {r["id"]: _j(r, ov.set({CID: 1.0})) for r in rows}
        j2 = {r["id"]: _j(r, ov.set({CID: 2.0})) for r in rows}
    finally:
        ov.close()
    return {i: (2 * j1[i] - j2[i], j2[i] - j1[i]) for i in j1 if j1[i] and j2[i]}


def make_fit(parts):
    """crossval's fit: k from the rows given only (a bound when their
    median error keeps one sign over [K_LO, K_HI])."""
    def med_log(rows, k):
        return ac.median([math.log((parts[r["id"]][0] + parts[r["id"]][1] * k) / float(r["j_per_sample"]))
                          for r in rows if r["id"] in parts])

    def fit(rows):
        lo, hi = K_LO, K_HI
        if med_log(rows, lo) >= 0:
            return {CID: lo}
        if med_log(rows, hi) <= 0:
            return {CID: hi}
        for _ in range(40):   # bisection in ln k: J/sample rises with k
            mid = math.sqrt(lo * hi)
            if med_log(rows, mid) > 0:
                hi = mid
            else:
                lo = mid
        return {CID: round(math.sqrt(lo * hi), 4)}
    return fit


def crossvalidate(rows, parts=None):
    """tools/crossval.py over the predictable rows; returns (res, rows)."""
    import crossval as cv
    rs = mp.predictable(rows)
    parts = parts or linear_parts(rs)

    def predict(p, r):
        ab = parts.get(r["id"])
        return None if ab is None else ab[0] + ab[1] * p[CID]
    res = cv.run(rs, make_fit(parts), predict, lambda r: float(r["j_per_sample"]),
                 {"device": lambda r: r["device"], "family": lambda r: r["benchmark"]}, n_params=1)
    return res, rs


def measured_lines(rows):
    """Markdown lines for the mlperf_jop page (issue 41 item 5): the
    devices whose hwdb entries carry measured energies
    (tools/hwdb_input/measured_energy.csv: energy.pj_per_flop_tensor,
    dram_pj_per_byte, static_w, which the method charges as they are,
    without jop_op_energy_scale) and the MLPerf Inference rows (v1.1 given,
    v3.1 read here) on them: the rows where the measured values are scored
    beside the derived ones.  None of them has a row today (the lines say
    so); scoring both ways needs a row on such a device."""
    src = os.path.join(ac.ROOT, "tools", "hwdb_input", "measured_energy.csv")
    devs = sorted({r["device"] for r in ac.read_rows(src)})
    v31 = ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v3.1.csv"))
    on = [r for r in list(rows) + v31 if r.get("device") in devs]
    seen = sorted({r.get("device") for r in list(rows) + v31 if r.get("device")})
    lines = ["**Measured energies (issue 41 item 5).** Devices whose hwdb entries carry a measured or "
             "per-instruction energy (charged as it is, without jop_op_energy_scale): %s. MLPerf Inference rows on "
             "them: %d of %d (v1.1 and v3.1 calibration rows, whose devices are %s)%s" % (
                 ", ".join(devs), len(on), len(rows) + len(v31), ", ".join(seen),
                 ": no row scores the measured values against the derived ones; every row here uses the derived "
                 "energy x jop_op_energy_scale." if not on else "."), ""]
    return lines


def derived_text(res, rs):
    folds = res["schemes"]["device"]["folds"]
    fam = res["schemes"]["family"]["folds"]
    devs = sorted({r["device"] for r in rs})
    return ("fitted to the MLPerf Inference v1.1 power results (mlcommons/inference_results_v1.1@7fc43356) rows "
            "(the %d rows of tests/accuracy/mlperf-v1.1.csv on %d devices: %s; AC wall power at PUE 1, hosts from the "
            "sourced host_class_* constants or the DGX host entries) by tools/fit_jop.py: one value for every device, "
            "the k at which the median ln(predicted / measured J/sample) of the joules-per-op method is 0, where a "
            "device's dynamic energy is k x ops x its spec-derived energy per op ((tdp_w - idle_w) / dense peak) + "
            "bytes x its memory type's energy per byte; low/high = the smallest and largest leave-one-device-out "
            "fold's value (%s); leave-one-benchmark-out folds: %s" % (
                len(rs), len(devs), ", ".join(devs),
                ", ".join("without %s %.3g" % (f["key"], f["params"][CID]) for f in folds),
                ", ".join("without %s %.3g" % (f["key"], f["params"][CID]) for f in fam)))


def main():
    import crossval as cv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the value into hwdb/energy-model.yaml")
    a = ap.parse_args()
    rows = ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
    res, rs = crossvalidate(rows)
    for line in cv.report(res, "joules-per-op J/sample, %s" % CID):
        print(line)
    k = res["in_sample"]["params"][CID]
    ks = [f["params"][CID] for f in res["schemes"]["device"]["folds"]]
    print("%s = %.4g (leave-one-device-out %.4g .. %.4g)" % (CID, k, min(ks), max(ks)))
    if a.write:
        fc.write_constant(CID, k, min(ks + [k]), max(ks + [k]))
        fc.write_text(CID, "derived", derived_text(res, rs))
        print("wrote %s in hwdb/energy-model.yaml" % CID)


if __name__ == "__main__":
    main()
