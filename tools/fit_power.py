#!/usr/bin/env python3
"""fit_power.py - fits the device power constants every path uses
(src/estimate/power.h: the estimate's roofline method, LLM serving and
training alike): the GPU activity coefficients power_k_compute_gpu (k_c)
and power_k_memory_gpu (k_m) of
    P = idle + (TDP - idle) (1 - exp(-(k_c u_c + k_m u_m))) + e_mem u_m BW,
at most the power limit, jointly to two sets of measured power, each
predicted in its own scope:
  - ML.ENERGY serving rows (tests/accuracy/serving-rows.yaml): GPU power
    only (Zeus/NVML), at the serving time constants of
    tests/accuracy/serving-folds.json (tools/fit_serving.py);
  - MLPerf Inference v1.1 rows (tests/accuracy/mlperf-v1.1.csv): AC wall
    power of the whole system = the devices + the sourced host (host
    classes of hwdb/energy-model.yaml, the DGX host entries), at the
    engine efficiency tools/accuracy_mlperf.py fits to their throughput
    (BERT at its sourced sequence; MaxQ rows at their published power
    limits).
The loss is the mean squared ln(predicted / measured power) over the rows
of both sets pooled (each row counts once).  Idle power, TDP, power limit
and the DRAM energy per bit (mem_pj_per_bit_*) are the devices' sourced
specs; activity_launch_bound is sourced (vadari2026); nothing here is
keyed by a device.

Every row is predicted by the library at each point of a grid of (k_c,
k_m) (GRID, log-spaced; build/fit/power-grid.json caches them while the
binary predicts the rows the same); a fit is the minimum of the pooled
loss with each row's ln(predicted power) interpolated bilinearly in (ln
k_c, ln k_m) between the grid's points, so every fold's fit costs no
further runs.  Folds (tools/crossval.py's schemes): leave one device out
and leave one model family out, over the devices and families of both
sets; each fold's constants (fitted without its rows) go to
tests/accuracy/power-folds.json, which tools/accuracy_serving.py and
tools/accuracy_mlperf.py replay.  The power folds take the serving rows'
times at the all-row serving time constants and the MLPerf rows' at the
all-row engine efficiency (the time constants' own folds are
the harnesses'): a held-out row never enters its fold's power fit.
value = the all-row fit; low/high = its spread over the folds.

The TPU compute coefficient power_k_compute_tpu is fitted to the
Patterson et al. 2021 TPU v2 rows (tests/accuracy/training-runs.csv).

  python3 tools/fit_power.py [--write] [--tpu-only]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

def fit_tpu():
    """power_k_compute_tpu from the Patterson TPU v2 rows: per row,
    activity a = (system W per chip - host_class_tpu_w - idle) / (TDP - idle)
    and u = achieved / peak, so k = -ln(1 - a) / u; median and p10/p90."""
    rows = [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
            if r["device"] == "google-tpu-v2" and r["system_w_per_device"]]
    js, err = ac.run_jc(["estimate", "--train", "--flops", "1.2e18", "--device", "google-tpu-v2",
                         "--ci", "400", "--pue", "1"])
    if js is None:
        raise SystemExit("fit: tpu: %s" % err)
    a = {x["key"]: x["value"]["central"] for x in js["assumptions"]}
    idle, tdp, peak = a["device.idle_w"], a["device.tdp_w"], a["device.peak_flops"] * 1e12
    host = a["host.power_w"]   # one chip (--count 1): the per-chip tpu-host class figure
    ks = []
    for r in rows:
        act = (float(r["system_w_per_device"]) - host - idle) / (tdp - idle)
        u = float(r["achieved_tflops"]) * 1e12 / peak
        k = -math.log(1 - act) / u
        ks.append(k)
        print("  %-55s activity %.3f u %.3f k_c %.3f" % (r["id"], act, u, k))
    k = ac.median(ks)
    print("power_k_compute_tpu = %.3f [%.3f-%.3f] (%d rows; host %.0f W/chip, idle %.1f W, TDP %.0f W)" % (
        k, min(ks), max(ks), len(ks), host, idle, tdp))
    return k, min(ks), max(ks)


IDS = ("power_k_compute_gpu", "power_k_memory_gpu")
# log-spaced points of (k_c, k_m); bounds: what the exponential activity
# can mean (k_c 2.2: activity 0.67 at half the peak; 11: 0.99 at 40 % of
# it; k_m 0.35: streaming at full bandwidth 0.30 of the dynamic range, 2.5:
# 0.92); a fit at a bound says so (fit_gpu)
GRID = ([2.2, 3.3, 5.0, 7.5, 11.0], [0.35, 0.6, 1.0, 1.6, 2.5])
GRID_CACHE = os.path.join(ac.ROOT, "build", "fit", "power-grid.json")
FOLDS = fc.POWER_FOLDS


def rows_of_both():
    """[(set, row, key dict, measured W)]: the serving rows (GPU power per
    device) and the predictable MLPerf rows (wall power of the system)."""
    import serving_rows as S
    out = []
    for r in S.load_rows():
        if S.config_for(r) is not None and S.DEVICES.get(r["gpu"]):
            out.append(("serving", r, {"device": S.DEVICES[r["gpu"]], "family": S.family(r)},
                        S.measured_power_per_gpu(r)))
    for r in mp.predictable(ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))):
        out.append(("mlperf", r, {"device": r["device"], "family": r["benchmark"]}, float(r["wall_power_w"])))
    return out


def mlperf_wall_w(js):
    """Predicted wall power of an MLPerf row's system (W: facility energy at
    PUE 1 over the wall time)."""
    res = js["results"]
    return res["energy_facility_kwh"]["central"] * 3.6e6 / (res["wall_hours"]["central"] * 3600.0)


def _probe_j(r):
    """The MLPerf row's J/sample at the hwdb's constants (None: not
    predicted): every row is probed, so a change to any row's host or
    device (not only the first row's) invalidates the cached grid."""
    js, _ = mp.predict(r)
    return js and js["results"]["j_per_sample"]["central"]


def grid_predictions(rows):
    """{row id: [[ln predicted W at GRID point (i, j)]]} through the library
    (serving: the Python binding; MLPerf: the CLI), cached in build/fit/."""
    import json
    import fit_serving as FS
    import serving_rows as S
    from concurrent.futures import ThreadPoolExecutor
    sv = [r for s, r, _, _ in rows if s == "serving"]
    ml = [r for s, r, _, _ in rows if s == "mlperf"]
    tfold = json.load(open(FS.FOLDS))["all"]
    tp = mp.throughput_fit(mp.per_row_fits(ml), ml)
    key = json.dumps({"grid": GRID, "serving_time": {k: v for k, v in sorted(tfold.items()) if not k.startswith("power_")},
                      "mlperf": tp, "probe": [len(sv), len(ml)] + [_probe_j(r) for r in ml]}, sort_keys=True)
    cached = fc.load_cache(GRID_CACHE, key, "pred")
    if cached is not None:
        return cached
    R = S.Runner(jobs=2)
    pred = {r["id"]: [[None] * len(GRID[1]) for _ in GRID[0]] for r in sv + ml}
    for i, kc in enumerate(GRID[0]):
        for j, km in enumerate(GRID[1]):
            pw = {IDS[0]: kc, IDS[1]: km}
            R.set_constants(FS.block_lines({k: v for k, v in tfold.items() if k in FS.TIME_IDS}), power=pw)
            for r, p in zip(sv, R.run(sv)):
                pred[r["id"]][i][j] = math.log(p["power"]) if "error" not in p else None
            ov = fc.Overlay()
            args = ov.set(dict(pw, **tp))
            try:
                with ThreadPoolExecutor(max_workers=3) as ex:
                    res = list(ex.map(lambda r: mp.predict(r, args)[0], ml))
            finally:
                ov.close()
            for r, js in zip(ml, res):
                pred[r["id"]][i][j] = math.log(mlperf_wall_w(js)) if js else None
            print("  grid k_c %.3g k_m %.3g done" % (kc, km), file=sys.stderr)
    fc.save_cache(GRID_CACHE, key, "pred", pred)
    return pred


def interp(g, x, y):
    """Bilinear interpolation of g[i][j] (over ln GRID) at (ln k_c, ln k_m) = (x, y)."""
    gx, gy = [math.log(v) for v in GRID[0]], [math.log(v) for v in GRID[1]]
    i = max(0, min(len(gx) - 2, sum(1 for v in gx if v <= x) - 1))
    j = max(0, min(len(gy) - 2, sum(1 for v in gy if v <= y) - 1))
    a = (x - gx[i]) / (gx[i + 1] - gx[i])
    b = (y - gy[j]) / (gy[j + 1] - gy[j])
    v = [g[i][j], g[i + 1][j], g[i][j + 1], g[i + 1][j + 1]]
    if any(z is None for z in v):
        return None
    return (1 - a) * (1 - b) * v[0] + a * (1 - b) * v[1] + (1 - a) * b * v[2] + a * b * v[3]


def loss(pred, rows, kc, km):
    x, y = math.log(kc), math.log(km)
    e = []
    for _, r, _, w in rows:
        p = interp(pred[r["id"]], x, y)
        if p is not None:
            e.append((p - math.log(w)) ** 2)
    return sum(e) / len(e)


def minimise(pred, rows, steps=60):
    """(k_c, k_m) minimising the pooled loss over the grid's box: the
    bilinear interpolant on a fine scan of (ln k_c, ln k_m), then a finer
    scan around its best point (numpy, vectorised over the scan)."""
    import numpy as np
    lx = np.log(GRID[0])
    ly = np.log(GRID[1])
    g = np.array([[[np.nan if v is None else v for v in row] for row in pred[r["id"]]] for _, r, _, _ in rows])
    lw = np.log([w for _, _, _, w in rows])[:, None]
    box = (lx[0], lx[-1], ly[0], ly[-1])
    best = None
    for _ in range(2):
        xs = np.linspace(box[0], box[1], steps + 1)
        ys = np.linspace(box[2], box[3], steps + 1)
        X, Y = [a.ravel() for a in np.meshgrid(xs, ys, indexing="ij")]
        i = np.clip(np.searchsorted(lx, X, side="right") - 1, 0, len(lx) - 2)
        j = np.clip(np.searchsorted(ly, Y, side="right") - 1, 0, len(ly) - 2)
        a = (X - lx[i]) / (lx[i + 1] - lx[i])
        b = (Y - ly[j]) / (ly[j + 1] - ly[j])
        v = ((1 - a) * (1 - b) * g[:, i, j] + a * (1 - b) * g[:, i + 1, j] + (1 - a) * b * g[:, i, j + 1]
             + a * b * g[:, i + 1, j + 1])
        L = np.nanmean((v - lw) ** 2, axis=0)
        k = int(np.nanargmin(L))
        if best is None or L[k] < best[0]:
            best = (float(L[k]), float(X[k]), float(Y[k]))
        dx, dy = 2 * (box[1] - box[0]) / steps, 2 * (box[3] - box[2]) / steps
        box = (max(lx[0], best[1] - dx), min(lx[-1], best[1] + dx), max(ly[0], best[2] - dy), min(ly[-1], best[2] + dy))
    return {IDS[0]: round(math.exp(best[1]), 4), IDS[1]: round(math.exp(best[2]), 4)}, best[0]


def fit_gpu():
    """(all-row constants, folds, rows): the joint fit and its folds."""
    rows = rows_of_both()
    pred = grid_predictions(rows)
    allp, l0 = minimise(pred, rows)
    for cid, g in zip(IDS, GRID):
        if not g[0] * 1.001 < allp[cid] < g[-1] / 1.001:
            print("  WARNING: %s = %g sits at the grid's bound [%g, %g]" % (cid, allp[cid], g[0], g[-1]))
    print("power: all %d rows (%d serving, %d MLPerf): k_c %.4g k_m %.4g (rms ln error %.3f)" % (
        len(rows), sum(1 for x in rows if x[0] == "serving"), sum(1 for x in rows if x[0] == "mlperf"),
        allp[IDS[0]], allp[IDS[1]], math.sqrt(l0)))
    for s in ("serving", "mlperf"):
        sub = [x for x in rows if x[0] == s]
        e = sorted(interp(pred[r["id"]], math.log(allp[IDS[0]]), math.log(allp[IDS[1]])) - math.log(w)
                   for _, r, _, w in sub)
        print("  %s rows: median ln(predicted / measured power) %+.3f" % (s, e[len(e) // 2]))
    folds = []
    for scheme in ("device", "family"):
        for s in ("serving", "mlperf"):
            for k in sorted({x[2][scheme] for x in rows if x[0] == s}):
                train = [x for x in rows if x[2][scheme] != k]
                p, _ = minimise(pred, train)
                left = sorted(x[1]["id"] for x in rows if x[2][scheme] == k)
                folds.append({"set": s, "scheme": scheme, "held_out": k, "left_out": left, "params": p})
                print("  fold without %-8s %-28s k_c %.4g k_m %.4g" % (scheme, k, p[IDS[0]], p[IDS[1]]))
    return allp, folds, rows


def write_gpu(allp, folds, rows):
    import json
    nsv = sum(1 for x in rows if x[0] == "serving")
    nml = len(rows) - nsv
    what = {IDS[0]: "k_c, the activity per unit of the achieved fraction of the dense peak",
            IDS[1]: "k_m, the on-chip activity per unit of the achieved fraction of the memory bandwidth (the "
                    "DRAM's own energy is mem_pj_per_bit_*)"}
    for cid in IDS:
        vals = [f["params"][cid] for f in folds]
        lo, hi = min(vals + [allp[cid]]), max(vals + [allp[cid]])
        fc.write_constant(cid, allp[cid], lo, hi)
        fc.write_text(cid, "derived", (
            "fitted to the ML.ENERGY leaderboard v2/v3 measurements (ml-energy/leaderboard-v2@c3af7f31, "
            "ml-energy/leaderboard@0cd52dab; %d rows of tests/accuracy/serving-rows.yaml, GPU power by Zeus/NVML at "
            "the serving model's fitted step times) and the MLPerf Inference v1.1 power results "
            "(mlcommons/inference_results_v1.1@7fc43356; %d rows of tests/accuracy/mlperf-v1.1.csv, AC wall power "
            "of the system = the devices + the sourced host, MaxQ rows at their published power limits, at the "
            "engine efficiency fitted to their throughput) together by tools/fit_power.py: %s in activity = "
            "1 - exp(-(k_c u_c + k_m u_m)); the minimum of the pooled mean squared ln(predicted / measured "
            "power), each row once; low/high = its spread over the %d leave-one-device-out and "
            "leave-one-family-out folds of both sets (tests/accuracy/power-folds.json)"
            % (nsv, nml, what[cid], len(folds))))
    with open(FOLDS, "w") as f:
        json.dump({"all": allp, "rows": {"serving": nsv, "mlperf": nml}, "folds": folds}, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted values")
    ap.add_argument("--tpu-only", action="store_true", help="fit only the TPU coefficient")
    a = ap.parse_args()
    ktpu = fit_tpu()
    if a.write:
        fc.write_constant("power_k_compute_tpu", *ktpu)
    if a.tpu_only:
        return
    allp, folds, rows = fit_gpu()
    if a.write:
        write_gpu(allp, folds, rows)
        print("wrote hwdb/energy-model.yaml and %s" % os.path.relpath(FOLDS, ac.ROOT))
        import fit_serving as FS
        FS.refresh_energy_range()
        print("rewrote serving_range_energy (hwdb/serving.yaml, %s) from the replayed folds"
              % os.path.relpath(FS.FOLDS, ac.ROOT))


if __name__ == "__main__":
    main()
