#!/usr/bin/env python3
"""fit_timm.py - fits the framework runtimes' kernel efficiencies
(kernel_eta_matrix, kernel_eta_bw, kernel_eta_vector and
kernel_eta_backward in hwdb/energy-model.yaml; shared by the eager
PyTorch, eager PyTorch 1.x and torch.compile profiles) to timm's measured
throughput (tests/accuracy/timm.csv, matched from
../shared/data/calibration/timm/ by tools/accuracy_timm.py rows).

Every row is predicted by the joulecast CLI (tools/accuracy_timm.py's
recipe) on a grid of the three forward constants (in 1/eta, where a
kernel's time is linear); a fit interpolates that grid (multilinear) and
minimises the mean |ln(predicted / measured)| over the rows it is given
(Nelder-Mead inside the grid).  kernel_eta_backward divides the time of
every backward kernel, so a training row's time is exactly linear in its
inverse: training rows are predicted on a second grid slice (at
kernel_eta_backward = 0.5) and interpolated in 1/eta_backward.  A fold
without training rows cannot fit kernel_eta_backward and keeps its prior,
1 (backward kernels as fast as the forward kernel model says).  The
GPU rows alone fit the shared constants and the CPU rows alone the CPU
kernel path's two (make_fit: one stage per kernel path).  The grid is
cached per row in build/fit/timm-grid.json and a row's values reused
while the binary predicts its first point the same (--regrid forces a
new grid); the cross-validation of `make accuracy`
(tools/accuracy_timm.py) refits on it once per fold.

  python3 tools/fit_timm.py [--write]   fit on every row; --write stores the
                                        values in hwdb/energy-model.yaml
                                        with their spread over the
                                        leave-one-device-out and
                                        leave-one-family-out refits, and
                                        as low/high the central scaled by
                                        the leave-one-device-out range
                                        factors (nominal 90 % conformal
                                        interval, tools/crossval.py)
"""
import argparse
import itertools
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_timm as at  # noqa: E402
import fit_common as fc  # noqa: E402

PARAMS = ["kernel_eta_matrix", "kernel_eta_bw", "kernel_eta_vector"]
BWD = "kernel_eta_backward"
# the CPU kernel path (a CPU row's device is a CPU): its matrix efficiency
# takes kernel_eta_matrix's grid axis (a CPU row does not read
# kernel_eta_matrix, a GPU row not this one: one overlay sets both), and
# its per-kernel call cost adds to each kernel (exactly linear: a second
# slice, as kernel_eta_backward's for the training rows)
CPU_ETA = "cpu_kernel_eta_matrix"
CALL = "cpu_kernel_call_s"
FIT = PARAMS + [BWD, CPU_ETA, CALL]
# the grid reaches past 1 in eta_matrix so that the fit's bound, 1 (no
# kernel beats the datasheet peak), is interpolated, not extrapolated
GRID = {
    "kernel_eta_matrix": [0.7, 0.9, 1.15],
    "kernel_eta_bw": [0.7, 0.85, 1.0],
    "kernel_eta_vector": [0.05, 0.12, 0.4],
}
BWD_SLICE = 0.5           # the second slice's kernel_eta_backward
BWD_BOUNDS = (0.4, 1.0)   # the fit's range of kernel_eta_backward
BWD_PRIOR = 1.0
# cpu_kernel_eta_matrix on kernel_eta_matrix's axis: its lower end (and
# the fit's bound) far below the CPU rows' fit, so that no fold stops there
CPU_GRID = [0.1, 0.3, 1.0]
CALL_BASE, CALL_SLICE = 5e-6, 50e-6
# priors where a fold has no CPU row: the datasheet peak, and the per-kernel
# host cost of a kernel invoked from Python, eager PyTorch's per-op dispatch
# (runtime_eager_launch_s, read from the hwdb below): torch.compile's
# default wrapper on a CPU is Python code that invokes each generated and
# external kernel (PyTorch's Inductor C++ wrapper tutorial)
EAGER_LAUNCH = "runtime_eager_launch_s"
PRIOR = {BWD: BWD_PRIOR, CPU_ETA: 1.0}
# the fit's bounds: the grid's, except eta_matrix at most 1.  The rows push
# it there: the peak is the datasheet's at the rated boost clock, which the
# GeForce cards of these rows exceed while power and temperature allow;
# the constant is shared with datacentre parts that do not, so it is not
# allowed past the peak
BOUNDS = {p: (min(GRID[p]), max(GRID[p])) for p in PARAMS}
BOUNDS["kernel_eta_matrix"] = (min(GRID["kernel_eta_matrix"]), 1.0)
BOUNDS[BWD] = BWD_BOUNDS
BOUNDS[CPU_ETA] = (min(CPU_GRID), 1.0)
BOUNDS[CALL] = (1e-6, 1e-4)
CACHE = os.path.join(ac.ROOT, "build", "fit", "timm-grid.json")
CACHE_CPU = os.path.join(ac.ROOT, "build", "fit", "timm-grid-cpu.json")


# the cache's format: {row id: {"spec": _spec(row), "t": [...]}}
CACHE_FORMAT = "timm-grid per row 2"


def _spec(r):
    """What a row's grid values depend on besides the binary: the axes
    and slices of the grid its kernel path is evaluated on."""
    if _cpu(r):
        return json.dumps([GRID, CPU_GRID, CALL_BASE, CALL_SLICE], sort_keys=True)
    return json.dumps([GRID, BWD_SLICE] if _training(r) else [GRID], sort_keys=True)


def _training(r):
    return r["mode"] == "training"


def _cpu(r):
    return r.get("precision") == "fp32" and not r["device"].startswith("nvidia-")


def device_class(r):
    """A row's kernel path, the class crossval scores it in: "CPU" or "GPU"."""
    return "CPU" if _cpu(r) else "GPU"


def _free(rows):
    """The constants these rows inform."""
    return PARAMS + ([BWD] if any(_training(r) for r in rows) else []) + (
        [CPU_ETA, CALL] if any(_cpu(r) for r in rows) else [])


def _points():
    return list(itertools.product(*[GRID[p] for p in PARAMS]))


def _eval_point(rows, ov, pt, ex, bwd=1.0, call=CALL_BASE):
    v = dict(zip(PARAMS, pt))
    v[BWD] = bwd
    v[CPU_ETA] = CPU_GRID[GRID[PARAMS[0]].index(pt[0])]
    v[CALL] = call
    extra = ov.set(v)

    def one(r):
        p, err = at.predict(r, extra)
        if p is None:
            raise SystemExit("fit_timm: %s: %s" % (r["id"], err))
        return 1.0 / p[1]
    return list(ex.map(one, rows))


def grid(rows, verbose=True, regrid=False, cache=CACHE):
    """{row id: [t at each grid point]}: predicted seconds per sample at
    kernel_eta_backward = 1; a training row's list continues with the same
    points at BWD_SLICE, a CPU row's with the points at CALL_SLICE.  A
    row's cached values are reused when its grid is the same (_spec) and
    the binary still predicts its first point the same (the model
    unchanged for it), else recomputed: a change to one kernel path
    recomputes that path's rows alone (--regrid: every row)."""
    from concurrent.futures import ThreadPoolExecutor
    pts = _points()
    ov = fc.Overlay()
    old = fc.load_cache(cache, CACHE_FORMAT, "rows") or {}
    out = {}
    try:
        with ThreadPoolExecutor(max_workers=2) as ex:
            probe = _eval_point(rows, ov, pts[0], ex)
            todo = []
            for r, t in zip(rows, probe):
                c = old.get(r["id"])
                if (not regrid and c and c.get("spec") == _spec(r) and c.get("t") and t > 0
                        and abs(c["t"][0] / t - 1) < 1e-9):
                    out[r["id"]] = c["t"]
                else:
                    out[r["id"]] = [t]
                    todo.append(r)
            if not todo:
                return out
            if verbose:
                print("  grid: %d of %d rows to predict" % (len(todo), len(rows)), flush=True)
            for n, pt in enumerate(pts[1:], 2):
                for r, t in zip(todo, _eval_point(todo, ov, pt, ex)):
                    out[r["id"]].append(t)
                if verbose:
                    print("  grid point %d/%d %s" % (n, len(pts), pt), flush=True)
            tr = [r for r in todo if _training(r)]
            for n, pt in enumerate(pts if tr else [], 1):
                for r, t in zip(tr, _eval_point(tr, ov, pt, ex, BWD_SLICE)):
                    out[r["id"]].append(t)
                if verbose:
                    print("  training slice point %d/%d %s" % (n, len(pts), pt), flush=True)
            cr = [r for r in todo if _cpu(r)]
            for n, pt in enumerate(pts if cr else [], 1):
                for r, t in zip(cr, _eval_point(cr, ov, pt, ex, call=CALL_SLICE)):
                    out[r["id"]].append(t)
    finally:
        ov.close()
    old.update({r["id"]: {"spec": _spec(r), "t": out[r["id"]]} for r in rows})
    fc.save_cache(cache, CACHE_FORMAT, "rows", old)
    return out


def interp(row, tvals, params):
    """One row's time at params: multilinear in the forward constants'
    1/eta (a CPU row: cpu_kernel_eta_matrix's in place of
    kernel_eta_matrix's), linear in 1/kernel_eta_backward (training rows)
    or in cpu_kernel_call_s (CPU rows)."""
    n = len(_points())
    cpu = _cpu(row)
    t1 = _interp3(tvals[:n], params, cpu)
    if len(tvals) <= n:
        return t1
    t2 = _interp3(tvals[n:2 * n], params, cpu)
    if cpu:
        xb, x1, x2 = params.get(CALL, PRIOR[CALL]), CALL_BASE, CALL_SLICE
    else:
        xb, x1, x2 = 1.0 / params.get(BWD, BWD_PRIOR), 1.0, 1.0 / BWD_SLICE
    return t1 + (t2 - t1) * (xb - x1) / (x2 - x1)


def _interp3(tvals, params, cpu=False):
    """Multilinear interpolation of one grid slice at params (in 1/eta)."""
    axes = [CPU_GRID if cpu and p == PARAMS[0] else GRID[p] for p in PARAMS]
    idx, wts = [], []
    for ax, p in zip(axes, PARAMS):
        if len(ax) == 1:   # a held constant (--cpu): one value, no weight
            idx.append(0)
            wts.append(0.0)
            continue
        x = 1.0 / params.get(CPU_ETA, PRIOR[CPU_ETA]) if cpu and p == PARAMS[0] else 1.0 / params[p]
        xs = [1.0 / v for v in ax]   # decreasing
        j = 0
        while j < len(xs) - 2 and x < xs[j + 1]:
            j += 1
        w = (x - xs[j]) / (xs[j + 1] - xs[j])
        idx.append(j)
        wts.append(w)
    dims = [len(a) for a in axes]
    t = 0.0
    for corner in itertools.product((0, 1), repeat=len(PARAMS)):
        w, flat = 1.0, 0
        if any(c and dims[d] == 1 for d, c in enumerate(corner)):
            continue
        for d, (c, j, ww) in enumerate(zip(corner, idx, wts)):
            w *= ww if c else 1 - ww
            flat = flat * dims[d] + j + c
        t += w * tvals[flat]
    return t


def loss(rows, g, params):
    s = 0.0
    for r in rows:
        t = interp(r, g[r["id"]], params)
        s += abs(math.log((1.0 / t) / at.measured(r)))
    return s / len(rows)


def nelder_mead(f, x0, step=0.08, iters=300):
    n = len(x0)
    pts = [list(x0)] + [[x0[j] + (step if j == i else 0) for j in range(n)] for i in range(n)]
    vals = [f(p) for p in pts]
    for _ in range(iters):
        order = sorted(range(n + 1), key=lambda i: vals[i])
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        c = [sum(p[j] for p in pts[:-1]) / n for j in range(n)]
        xr = [c[j] + (c[j] - pts[-1][j]) for j in range(n)]
        fr = f(xr)
        if fr < vals[0]:
            xe = [c[j] + 2 * (c[j] - pts[-1][j]) for j in range(n)]
            fe = f(xe)
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = [c[j] + 0.5 * (pts[-1][j] - c[j]) for j in range(n)]
            fcv = f(xc)
            if fcv < vals[-1]:
                pts[-1], vals[-1] = xc, fcv
            else:
                for i in range(1, n + 1):
                    pts[i] = [pts[0][j] + 0.5 * (pts[i][j] - pts[0][j]) for j in range(n)]
                    vals[i] = f(pts[i])
        if max(vals) - min(vals) < 1e-7:
            break
    return pts[0], vals[0]


def make_fit(g, fixed=None):
    """fit(rows) -> {constant: value} on grid g (crossval's fit function).
    Two stages, one per kernel path: the GPU rows alone fit the shared
    forward constants (and kernel_eta_backward where training rows are
    among them); then the CPU rows alone fit the CPU kernel path's two
    constants, the shared ones held at the first stage's values.  A CPU
    row so informs only the CPU path's constants: the GPU rows' fit is
    the same with or without the CPU rows.  Rows without a training row
    leave kernel_eta_backward at its prior, rows without a CPU row the
    CPU path's constants at theirs; the constants in `fixed` ({id:
    value}) are held, not fitted."""
    fixed = dict(fixed or {})

    def fit(rows):
        gpu = [r for r in rows if not _cpu(r)]
        cpu = [r for r in rows if _cpu(r)]
        out = dict(fixed)
        if gpu:
            out.update(_fit_stage(g, gpu, [p for p in _free(gpu) if p not in out], out))
        if cpu:
            out.update(_fit_stage(g, cpu, [p for p in (CPU_ETA, CALL) if p not in out], out))
        for p, v in PRIOR.items():
            out.setdefault(p, v)
        return out
    return fit


def _fit_stage(g, rows, free, held):
    """{constant: value} of the constants `free` minimising the loss over
    rows, the constants in `held` at their values (Nelder-Mead inside
    BOUNDS, a penalty past them)."""
    if not free:
        return {}
    lo = {p: b[0] for p, b in BOUNDS.items()}
    hi = {p: b[1] for p, b in BOUNDS.items()}
    x0 = {"kernel_eta_matrix": 0.9, "kernel_eta_bw": 0.85, "kernel_eta_vector": 0.12, BWD: 0.8,
          CPU_ETA: 0.4, CALL: 20e-6}
    # the call cost in units of 10 us: a step comparable to the etas'
    scale = {CALL: 1e-5}

    def clamp(x):
        return {p: min(max(v * scale.get(p, 1), lo[p]), hi[p]) for p, v in zip(free, x)}

    def f(x):
        pr = dict(held, **clamp(x))
        pen = sum(abs(v - pr[p] / scale.get(p, 1)) * 10 for p, v in zip(free, x))
        return loss(rows, g, pr) + pen
    x, _ = nelder_mead(f, [x0[p] / scale.get(p, 1) for p in free])
    return clamp(x)


SOURCE = ("fitted to timm's benchmark rows (huggingface/pytorch-image-models results/ at commit aa4b585: "
          "measured samples/s on an RTX 3090 and an RTX 4090, PyTorch 2.4 eager and torch.compile inference, "
          "PyTorch 1.12 eager training; the %d GPU rows matched to tests/models/torchvision graphs, listed in "
          "tests/accuracy/timm.csv) by tools/fit_timm.py: the value minimising the mean |ln(predicted / "
          "measured)| over the GPU rows jointly with the other kernel_eta constants (the CPU rows inform only the "
          "CPU kernel path's constants; tools/crossval.py folds in docs/accuracy.md)")


def hwdb_values(ids, path=fc.EM):
    """{id: value} of constants in hwdb/energy-model.yaml."""
    out, cur = {}, None
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t.startswith("- id: "):
                cur = t[6:].strip()
            elif cur in ids and cur not in out and t.startswith("value: "):
                out[cur] = float(t[7:])
    return out


PRIOR[CALL] = hwdb_values([EAGER_LAUNCH])[EAGER_LAUNCH]


SOURCE_CPU = ("fitted to the %d CPU rows of timm's benchmark (huggingface/pytorch-image-models results/ at commit "
              "aa4b585, benchmark-infer-fp32-nchw-pt240-cpu-i9_10940x-dynamo.csv and "
              "benchmark-infer-fp32-nchw-pt240-cpu-i7_12700h-dynamo.csv: measured samples/s of fp32 torch.compile "
              "inference at batch 1 on an Intel Core i9-10940X and an Intel Core i7-12700H, matched to "
              "tests/models/torchvision graphs, listed in tests/accuracy/timm.csv) by tools/fit_timm.py (its second "
              "stage, the CPU rows alone; --cpu: that stage alone): with cpu_kernel_eta_matrix and cpu_kernel_call_s "
              "the values minimising the mean |ln(predicted / measured)|, the shared forward constants "
              "(kernel_eta_bw, kernel_eta_vector) held at the GPU rows' fit (their hwdb values); each CPU's "
              "leave-one-device-out fold fits them to the other CPU's rows (docs/accuracy/timm.md; per runtime with "
              "the MLPerf CPU rows: docs/accuracy/cpu.md)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--regrid", action="store_true", help="recompute the cached grid")
    ap.add_argument("--cpu", action="store_true",
                    help="the CPU kernel path's constants alone, on the CPU rows, the shared forward constants "
                         "held at their hwdb values (leave-one-family-out folds)")
    a = ap.parse_args()
    import crossval as cv
    rows = ac.read_rows(at.ROWS)
    keys = {"device": lambda r: r["device"], "family": lambda r: r["family"]}
    fixed, fitted, cache = None, FIT, CACHE
    if a.cpu:
        rows = [r for r in rows if _cpu(r)]
        fixed, fitted, cache = hwdb_values(PARAMS + [BWD]), [CPU_ETA, CALL], CACHE_CPU
        keys = {"family": keys["family"]}
        # the held forward constants: one grid value each (their hwdb value)
        for p in PARAMS[1:]:
            GRID[p] = [fixed[p]]
    g = grid(rows, regrid=a.regrid, cache=cache)
    fit = make_fit(g, fixed)
    res = cv.run(rows, fit, lambda p, r: 1.0 / interp(r, g[r["id"]], p), at.measured, keys,
                 n_params=len(fitted), strata=device_class)
    for line in cv.report(res, "timm%s (grid surrogate)" % (" CPU rows" if a.cpu else "")):
        print(line)
    best = res["in_sample"]["params"]
    def factors(p):
        """The range factors of constant p: its class's (GPU or CPU kernel
        path) leave-one-device-out ones, leave-one-family-out where its
        class has one device (no other fold of the class measured one)."""
        c = "CPU" if p in (CPU_ETA, CALL) else "GPU"
        ndev = len({r["device"] for r in rows if device_class(r) == c})
        for sc in ("device", "family") if ndev > 1 else ("family",):
            f = res["schemes"].get(sc, {}).get("range_factors_by", {}).get(c)
            if f and f["low_factor"] is not None:
                return sc, f
        raise SystemExit("fit_timm: no range factors for %s" % p)
    for p in fitted:
        sc, rf = factors(p)
        spread = {k: (min(f["params"][p] for f in s["folds"]), max(f["params"][p] for f in s["folds"]))
                  for k, s in res["schemes"].items()}
        at_bound = best[p] in BOUNDS[p]
        print("%s = %.4g (%s)%s" % (p, best[p], ", ".join(
            "%s folds %.4g .. %.4g" % (k, lo, hi) for k, (lo, hi) in spread.items()),
            "  AT A GRID BOUND" if at_bound else ""))
        if a.write:
            # the range: the central scaled by the leave-one-device-out
            # residual quantiles (a throughput scales with eta)
            # (an efficiency at most 1; the call cost, a time, scales inversely)
            if p == CALL:
                fc.write_constant(p, best[p], best[p] / rf["high_factor"], best[p] / rf["low_factor"])
            else:
                fc.write_constant(p, best[p], best[p] * rf["low_factor"], min(1.0, best[p] * rf["high_factor"]))
            ncls = sum(1 for r in rows if device_class(r) == ("CPU" if p in (CPU_ETA, CALL) else "GPU"))
            fc.write_text(p, "derived", (SOURCE_CPU if p in (CPU_ETA, CALL) else SOURCE) % ncls +
                "; spread of the refitted value: " + "; ".join(
                "leave-one-%s-out folds %.4g .. %.4g" % (k, lo, hi) for k, (lo, hi) in spread.items()) +
                "; low/high = the central x the leave-one-%s-out range factors of the %s rows (nominal 90%% "
                "conformal interval " % (sc, "CPU" if p in (CPU_ETA, CALL) else "GPU") +
                "of the held-out residuals, tools/crossval.py) "
                "x%.3f / x%.3f%s" % (rf["low_factor"], rf["high_factor"], " (inverse for a time)" if p == CALL
                                      else ", clamped at 1") +
                ("; at its bound 1 when the rows push past the datasheet peak (GeForce cards boost above "
                 "the rated clock the peak is computed at)" if p == "kernel_eta_matrix" else "") +
                ("; training rows only: a fold without them keeps the prior 1" if p == BWD else "") +
                ("; CPU rows only: a fold without them keeps the prior (%s)" % (
                    "1, the datasheet peak" if p == CPU_ETA else
                    "%.3g us, runtime_eager_launch_s" % (1e6 * PRIOR[CALL]))
                 if p in (CPU_ETA, CALL) else ""))
    if a.write:
        print("wrote hwdb/energy-model.yaml (%s)" % ", ".join(fitted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
