#!/usr/bin/env python3
"""fit_cpu.py - fits the CPU runtime profiles' two constants each (the
matrix efficiency cpu_<r>_eta_matrix and the per-kernel call cost
cpu_<r>_call_s in hwdb/energy-model.yaml; runtimes.def's CPU rows, issue
42 item 5) to measured CPU inference: the CPU rows of tools/accuracy_cpu.py
(timm's fp32 torch.compile batch-1 runs on two CPUs and the CPU-only
closed-division MLPerf Inference v3.1/v4.0 results of ResNet-50, BERT and RetinaNet).

Every row is predicted by the joulecast CLI (tools/accuracy_cpu.py's
recipe) on a grid of its profile's matrix efficiency (ETA_GRID, at the
call cost CALL_BASE; the time is piecewise linear in 1 / eta between the
grid points) and once more at the middle eta with the call cost CALL_SLICE
(the time is exactly linear in the call cost: it adds to every kernel).
A fit interpolates that grid and minimises the mean |ln(predicted /
measured)| over the rows it is given, per profile (a coarse grid search
refined by a pattern search inside the bounds).  The grid is cached per
row in build/fit/cpu-grid.json (JC_FIT_CPU_CACHE overrides the path) while
the recipe is the same and the binary predicts the row's first point the
same (one run per cached row checks it).

torch.compile's constants are the shared cpu_kernel_eta_matrix and
cpu_kernel_call_s, which tools/fit_timm.py writes (its CPU stage); this
script fits them per fold for the cross-validation alone and writes only
the profiles' own constants.  OpenVINO and llama.cpp have no rows: their
constants stay a named prior (ONNX Runtime's fit), marked uncalibrated.

  python3 tools/fit_cpu.py [--write]   fit on every row; --write stores the
                                       values in hwdb/energy-model.yaml
"""
import argparse
import concurrent.futures
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_common as fc  # noqa: E402

ETA_GRID = [0.05, 0.15, 0.4, 1.0]
CALL_BASE, CALL_SLICE = 1e-6, 100e-6
BOUNDS = {"eta": (0.05, 1.0), "call": (1e-6, 3e-4)}
# the profiles (--runtime) and their constant ids
CONSTS = {
    "torch-compile": ("cpu_kernel_eta_matrix", "cpu_kernel_call_s"),
    "pytorch": ("cpu_kernel_eta_matrix", "cpu_kernel_call_s"),
    "onnxruntime": ("cpu_ort_eta_matrix", "cpu_ort_call_s"),
    "ipex": ("cpu_ipex_eta_matrix", "cpu_ipex_call_s"),
    "tensorflow": ("cpu_tf_eta_matrix", "cpu_tf_call_s"),
}
WRITES = ["onnxruntime", "ipex", "tensorflow"]
# uncalibrated profiles: their constants are ONNX Runtime's fit (a prior)
PRIOR_OF = {"openvino": "onnxruntime", "llama.cpp": "onnxruntime"}
CACHE = os.environ.get("JC_FIT_CPU_CACHE") or os.path.join(ac.ROOT, "build", "fit", "cpu-grid.json")
CACHE_FORMAT = "cpu-grid per row 1"


def _predict_s(recipe, row, consts):
    """Seconds per sample of the row's recipe with the given constants."""
    ov = fc.Overlay()
    try:
        js, err = ac.run_jc(recipe(row) + ov.set(consts))
    finally:
        ov.close()
    if js is None:
        return None
    return js["results"]["wall_hours"]["central"] * 3600 / float(row["samples"])


def grid_row(recipe, row):
    """[t(eta) for eta in ETA_GRID] at CALL_BASE, and dt/dcall (s per s):
    seconds per sample; None when the run fails."""
    eta_id, call_id = CONSTS[row["runtime"]]
    ts = []
    for e in ETA_GRID:
        t = _predict_s(recipe, row, {eta_id: e, call_id: CALL_BASE})
        if t is None:
            return None
        ts.append(t)
    mid = ETA_GRID[1]
    t2 = _predict_s(recipe, row, {eta_id: mid, call_id: CALL_SLICE})
    if t2 is None:
        return None
    return {"t": ts, "slope": (t2 - ts[1]) / (CALL_SLICE - CALL_BASE)}


def _same_first_point(recipe, row, g):
    """Whether the row's prediction at the grid's first point is the cached one."""
    eta_id, call_id = CONSTS[row["runtime"]]
    t0 = _predict_s(recipe, row, {eta_id: ETA_GRID[0], call_id: CALL_BASE})
    return t0 is not None and abs(t0 / g["t"][0] - 1) <= 1e-9


def grid(rows, recipe, jobs=2):
    """Each row's grid, by id (cached in CACHE)."""
    try:
        cache = json.load(open(CACHE))
        if cache.get("format") != CACHE_FORMAT:
            cache = {}
    except (OSError, ValueError):
        cache = {}
    cache["format"] = CACHE_FORMAT
    spec = json.dumps([ETA_GRID, CALL_BASE, CALL_SLICE])
    todo = [r for r in rows if (cache.get(r["id"]) or {}).get("spec") != spec + json.dumps(recipe(r))
            or not cache[r["id"]].get("g")]
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        # a cached row is kept while this binary and hwdb predict its first
        # grid point the same (the recipe alone does not say the model moved)
        kept = [r for r in rows if r not in todo]
        for r, same in zip(kept, ex.map(lambda r: _same_first_point(recipe, r, cache[r["id"]]["g"]), kept)):
            if not same:
                todo.append(r)
        for r, g in zip(todo, ex.map(lambda r: grid_row(recipe, r), todo)):
            cache[r["id"]] = {"spec": spec + json.dumps(recipe(r)), "g": g}
    os.makedirs(os.path.dirname(CACHE), exist_ok=True)
    with open(CACHE, "w") as f:
        json.dump(cache, f)
    return {r["id"]: cache[r["id"]]["g"] for r in rows}


def time_at(g, eta, call):
    """Seconds per sample at (eta, call), interpolated in 1 / eta."""
    x = [1.0 / e for e in ETA_GRID]   # decreasing
    u = 1.0 / eta
    i = 0
    while i < len(x) - 2 and u < x[i + 1]:
        i += 1
    w = (u - x[i]) / (x[i + 1] - x[i])
    t = g["t"][i] + w * (g["t"][i + 1] - g["t"][i])
    return max(t + (call - CALL_BASE) * g["slope"], 1e-12)


def loss(rows, grids, eta, call):
    errs = [abs(math.log(time_at(grids[r["id"]], eta, call) * float(r["measured"]))) for r in rows
            if grids.get(r["id"])]
    return sum(errs) / len(errs) if errs else float("inf")


def fit(rows, grids):
    """(eta, call) minimising the mean |ln(predicted / measured)| of rows
    (throughput rows: measured samples/s); None without rows."""
    rows = [r for r in rows if grids.get(r["id"])]
    if not rows:
        return None
    lo_e, hi_e = BOUNDS["eta"]
    lo_c, hi_c = BOUNDS["call"]
    best = None
    for i in range(13):
        e = lo_e * (hi_e / lo_e) ** (i / 12)
        for j in range(13):
            c = lo_c * (hi_c / lo_c) ** (j / 12)
            v = loss(rows, grids, e, c)
            if best is None or v < best[0]:
                best = (v, e, c)
    _, e, c = best
    step = 0.25   # in ln units
    while step > 0.002:
        moved = False
        for de, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            e2 = min(max(e * math.exp(de * step), lo_e), hi_e)
            c2 = min(max(c * math.exp(dc * step), lo_c), hi_c)
            v = loss(rows, grids, e2, c2)
            if v < best[0] - 1e-12:
                best, e, c, moved = (v, e2, c2), e2, c2, True
        if not moved:
            step /= 2
    return e, c


def main():
    import accuracy_cpu as acpu
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    rows = [r for r in acpu.rows() if not r.get("reason") and not r.get("gptj")]   # GPT-J: no CPU constant enters it
    grids = grid(rows, acpu.recipe)
    fitted = {}
    for rt in CONSTS:
        rs = [r for r in rows if r["runtime"] == rt]
        f = fit(rs, grids)
        if f:
            fitted[rt] = f
            print("%-14s rows %3d  eta %.4g  call %.4g us  mean |ln| %.3f" % (
                rt, len(rs), f[0], 1e6 * f[1], loss(rs, grids, *f)))
    if a.write:
        for rt in WRITES + list(PRIOR_OF):
            src = PRIOR_OF.get(rt, rt)
            if src not in fitted:
                continue
            e, c = fitted[src]
            eid, cid = CONSTS.get(rt) or acpu.PROFILE_CONSTS[rt]
            n = sum(1 for r in rows if r["runtime"] == src)
            fc.write_constant(eid, e)
            fc.write_constant(cid, c)
            cpus = sorted({r["cpu"] for r in rows if r["runtime"] == src})
            if rt in PRIOR_OF:
                why = ("uncalibrated: no measured %s rows in the calibration set; a named prior, ONNX Runtime's "
                       "fit (cpu_ort_*) by tools/fit_cpu.py, until rows exist" % rt)
                fc.write_text(eid, "derived", why)
                fc.write_text(cid, "derived", why)
            else:
                why = ("fitted to the %d %s rows of tools/accuracy_cpu.py (%s; the CPU-only closed-division MLPerf "
                       "Inference v3.1/v4.0 results, the calibration set's mlperf-inference-cpu-closed-v3.1-v4.0.csv, "
                       "ResNet-50, BERT and RetinaNet, all cores and the recipe's batch) by tools/fit_cpu.py: with its "
                       "call cost the value minimising the mean |ln(predicted / measured)|; cross-validated "
                       "leave-one-CPU-out in docs/accuracy/cpu.md" % (n, rt, ", ".join(cpus)))
                if e >= BOUNDS["eta"][1] or c <= BOUNDS["call"][0]:
                    why += ("; at the fit's bound (eta 1: the datasheet peak at the base clock; call 1 us): the rows ask "
                            "for a faster kernel model than the peak at base clock gives (the all-core turbo is above it)")
                fc.write_text(eid, "derived", why)
                fc.write_text(cid, "derived", why)
            if rt not in PRIOR_OF and (e >= BOUNDS["eta"][1] or c <= BOUNDS["call"][0]):
                print("%s: at the fit's bound (eta %.4g, call %.4g us): the rows ask for a faster kernel model" % (
                    rt, e, 1e6 * c))
        print("wrote %s" % fc.EM)
    return 0


if __name__ == "__main__":
    sys.exit(main())
