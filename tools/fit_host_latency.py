#!/usr/bin/env python3
"""fit_host_latency.py - fits host_cpu_usage_latency_bound, the share of
an inference host's CPUs busy under a latency-bound MLPerf scenario
(--scenario singlestream or multistream: one query in flight), to the
measured energy per query of the SingleStream and MultiStream rows of the
MLPerf Inference v3.1 set (tests/accuracy/mlperf-v3.1.csv: AC wall power
of the whole system, the only rows that meter a host in those scenarios).

A row's predicted J/sample is linear in the usage u (the host power is
idle/busy + (1 - idle/busy) x u of its busy figure over the same time,
src/estimate/site.c), so each row is predicted twice, at u = 0 and u = 1
(tools/accuracy_mlperf.py's recipe, through the CLI, at the other
constants the caller gives), and the fit is the u in [0, 1] that
minimises the mean squared ln(predicted / measured) over the rows,
J(u) = J0 + u (J1 - J0), on a grid of 0.001.  The value's range is its
spread over leave-one-hardware-out folds (each refitted without one
accelerator's rows); tools/accuracy_mlperf_v31.py refits it the same way
inside its cross-validation (fit_u on each fold's rows, at that fold's
other constants).  --write stores it in hwdb/energy-model.yaml.

  python3 tools/fit_host_latency.py [--rows FILE] [--write]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

U = "host_cpu_usage_latency_bound"
SCENARIOS = ("SingleStream", "MultiStream")
DERIVED = ("fitted to the MLPerf Inference v3.1 power results (mlcommons/cm4mlperf-results@84d8b84c) "
           "SingleStream and MultiStream rows (the %d measured rows of tests/accuracy/mlperf-v3.1.csv on %s: "
           "energy per query at the wall) by tools/fit_host_latency.py: the usage that minimises the mean squared "
           "ln(predicted / measured) J/sample, each row predicted by tools/accuracy_mlperf.py's recipe at the "
           "hwdb's other constants; range = its spread over leave-one-hardware-out folds (%s)")


def latency_rows(rows):
    """The rows a latency-bound scenario measures (the constant's rows)."""
    return [r for r in mp.predictable(rows) if r["scenario"] in SCENARIOS]


def linear_parts(pred_j, params, rows):
    """{row id: (J at u = 0, J at u = 1)} at the other constants params,
    pred_j(params, row) -> J/sample (None: not predicted, left out)."""
    out = {}
    for r in rows:
        j0, j1 = pred_j(dict(params, **{U: 0.0}), r), pred_j(dict(params, **{U: 1.0}), r)
        if j0 and j1:
            out[r["id"]] = (j0, j1)
    return out


def fit_u(parts, rows):
    """The least-squares u in [0, 1] (grid 0.001) over the rows with parts;
    None without such rows."""
    pts = [(parts[r["id"]], float(r["j_per_sample"])) for r in rows if r["id"] in parts]
    if not pts:
        return None
    if all(j1 == j0 for (j0, j1), _ in pts):   # no row's host moves with the usage: a fit would return 0 silently
        raise SystemExit("fit_host_latency: no row's J/sample depends on %s (a binary built before the constant "
                         "existed? rebuild with make)" % U)

    def loss(u):
        return sum(math.log((j0 + u * (j1 - j0)) / m) ** 2 for (j0, j1), m in pts)
    return min((k / 1000.0 for k in range(1001)), key=loss)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v3.1.csv"))
    ap.add_argument("--write", action="store_true", help="write the fitted value")
    a = ap.parse_args()
    rs = latency_rows(ac.read_rows(a.rows))
    if not rs:
        raise SystemExit("fit_host_latency: no SingleStream or MultiStream row in %s" % a.rows)
    pred = mp.Predictor()
    try:
        parts = linear_parts(pred.j, {}, rs)
    finally:
        pred.close()
    u = fit_u(parts, rs)
    folds = {}
    for dev in sorted({r["device"] for r in rs}):
        v = fit_u(parts, [r for r in rs if r["device"] != dev])
        if v is not None:
            folds[dev] = v
    for r in rs:
        j0, j1 = parts.get(r["id"], (None, None))
        if j0:
            print("  %-70s measured %.4g J, predicted %.4g at u = 0, %.4g at u = 1" % (r["id"], float(r["j_per_sample"]), j0, j1))
    lo, hi = min(folds.values()), max(folds.values())
    spread = ", ".join("without %s %.3f" % kv for kv in sorted(folds.items()))
    print("%s = %.3f [%.3f-%.3f] (%d rows); leave-one-hardware-out: %s" % (U, u, lo, hi, len(parts), spread))
    if a.write:
        fc.write_constant(U, round(u, 3), round(lo, 3), round(hi, 3))
        devs = ", ".join(sorted({r["device"] for r in rs if r["id"] in parts}))
        fc.write_text(U, "derived", DERIVED % (len(parts), devs, spread))
        print("wrote hwdb/energy-model.yaml (%s)" % U)
    return 0


if __name__ == "__main__":
    sys.exit(main())
