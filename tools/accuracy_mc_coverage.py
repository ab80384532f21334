#!/usr/bin/env python3
"""accuracy_mc_coverage.py - calibrated coverage of the Monte Carlo
percentiles (issue 45 item 2): how often a measured value falls inside
joulecast's p5-p95 (`estimate --draws`), counted on cross-validation folds,
so that no constant of a row's prediction was fitted to that row.

The rows are the MLPerf Inference v1.1 set's (tools/accuracy_mlperf.py,
tests/accuracy/mlperf-v1.1.csv: AC wall energy per sample), predicted as
that script predicts them (its recipe, imported, not copied), one
leave-one-device-out fold at a time: the fold's constants are the ones
accuracy_mlperf.py's folds use (the engine efficiency, the median of the
other devices' per-row values; the GPU power constants of the
tools/fit_power.py fold that left the same rows out), each with a range
drawn from the fold's own rows where the fit has one (the engine
efficiency: the 10th-90th percentile of the other devices' per-row
values, tools/fit_efficiency.py's rule) and else the hwdb's relative range
about the fold's value (power_k_*: their spread over tools/fit_power.py's
folds).  Each held-out row runs with --draws 2000 --seed 1; its J/sample
percentiles are the facility energy's over the work's samples.  The set's
coverage is the share of rows whose measured J/sample lies inside p5-p95
(nominally 90%: not tuned to it); beside it, the coverage of the corner
(low-high) range of the same fold runs.

    python3 tools/accuracy_mc_coverage.py [--out DIR] [--draws N]

Writes docs/accuracy/mc_coverage.md and build/accuracy/mc_coverage.json
(tools/accuracy_common.py write_set: the low-high columns are p5-p95).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as am  # noqa: E402
import fit_common as fc  # noqa: E402

SEED = 1
MODEL_FILE = os.path.join(ac.ROOT, "hwdb", "energy-model.yaml")


def hwdb_range(cid):
    """(value, low, high) of constant cid in hwdb/energy-model.yaml."""
    with open(MODEL_FILE) as f:
        m = fc.entry(f.read(), cid)
    if not m:
        raise SystemExit("accuracy_mc_coverage: no constant %s in %s" % (cid, MODEL_FILE))
    num = lambda k: float(re.search(r"^    %s: ([-+0-9.eE]+)$" % k, m.group(2), re.M).group(1))
    return num("value"), num("low"), num("high")


def fold_constants(per, fit, train):
    """The fold's constants with ranges (Overlay.set's (low, value, high))."""
    p = fit(train)
    etas = [per[r["id"]]["eta"] for r in train]
    out = {am.ETA: (fc.percentile(etas, 0.1), p[am.ETA], fc.percentile(etas, 0.9))}
    for cid in am.POWER_IDS:
        v, lo, hi = hwdb_range(cid)
        c = p.get(cid, v)
        out[cid] = (c * lo / v, c, c * hi / v)
    return out


def fold_rows(held, layer, draws):
    """The scored rows of one fold's held-out rows."""
    out = []
    for row in held:
        r = {"id": row["id"], "measured": float(row["j_per_sample"]),
             "group": "%s %s" % (row["benchmark"], row["scenario"])}
        js, why = am.predict(row, layer + ["--draws", str(draws), "--seed", str(SEED)])
        mc = js and js.get("montecarlo")
        if not mc:
            r["reason"] = why or "no Monte Carlo percentiles in the result"
            out.append(r)
            continue
        n = js["work"]["samples"]
        jps = lambda kwh: kwh * 3.6e6 / n   # J per kWh
        e = mc["energy_facility_kwh"]
        j = js["results"]["j_per_sample"]
        inside = j["low"] <= r["measured"] <= j["high"]
        top = (js.get("sensitivity") or [{}])[0].get("key", "n/a")
        r.update(low=jps(e["p5"]), central=j["central"], high=jps(e["p95"]),
                 note="p50 %s; corner range [%s-%s] %s; top driver %s" % (
                     ac.fmt(jps(e["p50"])), ac.fmt(j["low"]), ac.fmt(j["high"]), "in" if inside else "out", top),
                 corner_inside=inside)
        out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
    ap.add_argument("--out", default=None, help="write the table here instead of docs/accuracy/")
    ap.add_argument("--draws", type=int, default=2000)
    a = ap.parse_args()
    rows = ac.read_rows(a.rows)
    rs = am.predictable(rows)
    per = am.per_row_fits(rs)
    fit = am.fold_fit(per, None)
    out = [{"id": r["id"], "measured": float(r["j_per_sample"]), "group": "%s %s" % (r["benchmark"], r["scenario"]),
            "reason": am.recipe(r)[1]} for r in rows if am.recipe(r)[0] is None]
    for dev in sorted({r["device"] for r in rs}):
        train = [r for r in rs if r["device"] != dev]
        consts = fold_constants(per, fit, train)
        ov = fc.Overlay()
        try:
            out += fold_rows([r for r in rs if r["device"] == dev], ov.set(consts), a.draws)
        finally:
            ov.close()
    scored = [r for r in out if r.get("central") is not None]
    corner = sum(1 for r in scored if r["corner_inside"]) / float(len(scored)) if scored else None
    extra = ["**Coverage of the two ranges on the same fold runs** (%d rows): Monte Carlo p5-p95 (nominally "
             "90%%) %s; the corner range (every input at its bound at once) %s." % (
                 len(scored), "n/a" if not scored else "%.0f%%" % (100.0 * sum(
                     1 for r in scored if r["low"] <= r["measured"] <= r["high"]) / len(scored)),
                 "n/a" if corner is None else "%.0f%%" % (100 * corner)), ""]
    for r in out:
        r.pop("corner_inside", None)
    how = ("each row as tools/accuracy_mlperf.py predicts it (its recipe: the benchmark's network on the row's "
           "accelerator and count, int8, the scenario's batch, PUE 1, the system's host), run by its "
           "leave-one-device-out fold with `--draws %d --seed %d`: the fold's engine efficiency is the median "
           "of the other devices' per-row values with their 10th-90th percentile as its range "
           "(tools/fit_efficiency.py's rule on the fold's rows), the GPU power constants are the "
           "tools/fit_power.py fold that left the same rows out, with the hwdb's relative range about them "
           "(their spread over that fit's folds); every other ranged input as the estimate has it. "
           "Predicted = the fold's central J/sample; low-high = the Monte Carlo p5-p95 of the facility "
           "energy over the samples (J/sample); 'in range' = inside p5-p95." % (a.draws, SEED))
    scope = ("AC wall power of the whole system under test (accelerators, host CPUs, memory, fans, PSU losses), "
             "SPEC PTDaemon, J/sample = average wall power / samples per second (tests/accuracy/mlperf-v1.1.csv).")
    ac.write_set("mc_coverage", "Monte Carlo p5-p95 coverage on the folds (MLPerf Inference v1.1 J/sample)",
                 "J/sample", how, scope, out, out_dir=a.out, extra_lines=extra,
                 targets="the measured value inside p5-p95 for about 90% of the rows, measured on the folds, "
                         "not tuned (issue 45 item 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
