#!/usr/bin/env python3
"""fit_serving.py - fits the serving model's constants (hwdb/serving.yaml,
the block between "BEGIN fitted" and "END fitted") to the calibration rows
of tests/accuracy/serving-rows.yaml (copied from
../shared/data/calibration/llm-serving.yaml: ML.ENERGY v2 and v3, GPU
energy only), and cross-validates them.

The model itself is joulecast: every evaluation runs the library (through
the Python binding) on every row with the candidate constants in a private
copy of the database, so the fit and the product are one implementation.
Each constant has one value for every device and runtime.

  1. time: the six constants of TIME by Levenberg-Marquardt on the
     squared log error of the output throughput (tokens/s).  Not here:
     the host time of an eager kernel launch (runtime_eager_launch_s of
     hwdb/energy-model.yaml, sourced), which these rows do not inform:
     with the other constants at their fit, the loss moves by 1e-4 of
     itself between 2 and 20 us (prefill steps are not launch-bound);
  2. power: not here: the device power constants (power_k_*_gpu of
     hwdb/energy-model.yaml) are one set for every path, fitted by
     tools/fit_power.py to these rows' GPU power and the MLPerf rows' wall
     power together; each fold here predicts its energy with the power
     fold of tests/accuracy/power-folds.json that left out the same rows
     (the hwdb's values where that file has no such fold);
  3. folds: the time fit without each device's rows (leave one device
     out) and without each model family's rows (leave one family out);
     each fold's constants predict its held-out rows.  The held-out
     residuals (predicted / measured) of every fold give the range: its
     ends are the nominal 90 % conformal interval (tools/crossval.py) of time and of J/token
     (serving_range_time, serving_range_energy), and each constant's
     low-high is its spread across the folds.  The fold constants go to
     tests/accuracy/serving-folds.json, which tools/accuracy_serving.py
     replays to publish the cross-validated error and coverage.

Usage: nice -n 10 python3 tools/fit_serving.py [--jobs N] [--evals N] [--write]
Prints the fit and its cross-validation; --write stores them in
hwdb/serving.yaml (then `make` rebuilds the snapshot) and
tests/accuracy/serving-folds.json.  The all-row fit starts from TIME's
initial values and every fit runs Levenberg-Marquardt to convergence, so
a rerun on the same rows reproduces the stored values.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serving_rows as S  # noqa: E402
import fit_common as fc  # noqa: E402

HWDB = os.path.join(S.ROOT, "hwdb", "serving.yaml")
FOLDS = os.path.join(S.ROOT, "tests", "accuracy", "serving-folds.json")
# name, initial, lower and upper bound (physically plausible ranges, so a
# constant cannot soak up what the model lacks), unit, what bounds it
TIME = [("serving_gemm_mfu", 0.6, 0.3, 0.85, "1", "fraction of the dense peak a large GEMM reaches"),
        ("serving_stream_mbu", 0.8, 0.5, 0.95, "1", "fraction of the memory bandwidth a streaming kernel reaches"),
        ("serving_kernel_floor_s", 4e-6, 1e-6, 1e-5, "s", "a kernel's launch gap, ramp and tail under CUDA graphs, and the small kernels (norms, rotary, activations) the roofline leaves out: a few us each, at most 10 us"),
        ("serving_host_seq_s", 3e-4, 1e-6, 1e-3, "s", "the engine loop's Python work per running sequence per step (scheduling, input preparation, sampling bookkeeping): tens to hundreds of us"),
        ("serving_host_step_s", 2e-3, 1e-5, 1e-2, "s", "the engine loop's Python work per step whatever the batch (scheduler pass, input tensors, sampler): a few ms at most"),
        ("serving_host_worker_s", 5e-3, 1e-5, 2e-2, "s", "one more worker process per step of a runtime that sends every step's inputs to each worker: the v2 rows' step time at a fixed batch grows by 8-9 ms per further worker (docs/workflow-serving.md)")]
TIME_IDS = [p[0] for p in TIME]
# the shared device power constants (tools/fit_power.py): the serving
# rows' share of their fit is counted with them
POWER_IDS = ["power_k_compute_gpu", "power_k_memory_gpu"]


def power_folds():
    """tools/fit_power.py's folds of the serving rows (fit_common.power_folds)."""
    return fc.power_folds("serving")


def fold_power(left_out):
    """The power constants of the fold that left out those rows; None (the
    hwdb's values, said on stderr) without tools/fit_power.py's file; an
    error when the file has no such fold (the rows changed since it ran)."""
    power = power_folds()
    if not power:
        print("fit_serving: no %s: the folds use the hwdb's device power constants (run tools/fit_power.py)"
              % os.path.relpath(fc.POWER_FOLDS, S.ROOT), file=sys.stderr)
        return None
    if left_out not in power:
        raise SystemExit("fit_serving: %s has no power fold leaving out these %d rows (the rows changed since "
                         "tools/fit_power.py wrote it); rerun tools/fit_power.py --write"
                         % (os.path.relpath(fc.POWER_FOLDS, S.ROOT), len(left_out)))
    return power[left_out]


RANGES = [("serving_range_time", "time"), ("serving_range_energy", "j")]


def block_lines(values, ranges=None):
    out = ["  # ---- BEGIN fitted (candidate of tools/fit_serving.py)"]
    for name, v in values.items():
        if name not in TIME_IDS:
            continue
        unit = next(p[4] for p in TIME if p[0] == name)
        out.append("  - {id: %s, value: %.9g, low: %.9g, high: %.9g, unit: \"%s\", source: mlenergy-fit}"
                   % (name, v, v, v, unit))
    for name, _ in RANGES:
        lo, hi = (ranges or {}).get(name, (1, 1))
        out.append("  - {id: %s, value: 1, low: %.9g, high: %.9g, unit: \"1\", source: mlenergy-fit}" % (name, lo, hi))
    return out


def squash(z, lo, hi):
    """Unbounded z to (lo, hi), log-spaced for positive bounds."""
    s = 1 / (1 + math.exp(-z))
    if lo > 0:
        return math.exp(math.log(lo) + s * (math.log(hi) - math.log(lo)))
    return lo + s * (hi - lo)


def unsquash(v, lo, hi):
    s = (math.log(v) - math.log(lo)) / (math.log(hi) - math.log(lo)) if lo > 0 else (v - lo) / (hi - lo)
    s = min(1 - 1e-6, max(1e-6, s))
    return math.log(s / (1 - s))


def tps_error(p, r):
    """The time fit's residual of one row: ln(predicted / measured tokens/s)."""
    return math.log(p["tps"] / r["tokens_per_s"])


def mean_sq(res, rows, loss=tps_error):
    """The fits' loss: the mean squared residual over the rows the model
    predicts, plus 1 per row it refuses (so a refusal never pays)."""
    err = [loss(p, r) for p, r in zip(res, rows) if "error" not in p]
    return sum(e * e for e in err) / max(1, len(err)) + sum(1 for p in res if "error" in p)


class Fitter:
    def __init__(self, jobs, evals):
        self.runner = S.Runner(jobs=jobs)
        self.evals = evals

    def run(self, rows, values, ranges=None):
        power = {k: v for k, v in values.items() if k in POWER_IDS} or None
        self.runner.set_constants(block_lines(values, ranges), power=power)
        return self.runner.run(rows)

    def stage(self, rows, params, fixed, loss, start, evals):
        def vals(z):
            v = dict(fixed)
            v.update({p[0]: squash(zi, p[2], p[3]) for p, zi in zip(params, z)})
            return v

        def g(z):
            res = self.run(rows, vals(z))
            return mean_sq(res, rows, loss), [0.0 if "error" in p else loss(p, row) for p, row in zip(res, rows)]
        z0 = [unsquash(start.get(p[0], p[1]), p[2], p[3]) for p in params]
        z, best, used, ok = fc.levenberg_marquardt(g, z0, evals)
        print("  Levenberg-Marquardt: %d evaluations, %s" % (used, "converged" if ok else "NOT converged (--evals)"),
              file=sys.stderr)
        return vals(z), best

    def fit(self, rows, start, evals, power=None):
        """The time constants fitted to rows; power: the fold's device power
        constants (tools/fit_power.py), added to the result as they are."""
        v, lt = self.stage(rows, TIME, dict(power or {}), tps_error, start, evals)
        print("  fit over %d rows: time loss %.4f" % (len(rows), lt), file=sys.stderr)
        return v


class Cached:
    """fit(train) and predict(params, row) for tools/crossval.py: fits are
    memoised by the rows they were given (the time and the energy
    cross-validations share them), predictions by the constants."""

    def __init__(self, F, start, evals, fold_evals, stored=None):
        self.F, self.start, self.evals, self.fold_evals = F, start, evals, fold_evals
        self.fits = {}
        self.stored = stored      # {frozenset of ids left out: constants}: replay, no fitting
        self.all_ids = None
        self.preds = {}
        self.cur = None

    def fit(self, train):
        ids = frozenset(r["id"] for r in train)
        if ids not in self.fits:
            if self.stored is not None:
                self.fits[ids] = self.stored[frozenset(self.all_ids - ids)]
            else:
                full = len(ids) == len(self.all_ids)
                print("fit: %d rows (%d left out)" % (len(ids), len(self.all_ids) - len(ids)), file=sys.stderr)
                base = self.fits.get(frozenset(self.all_ids), self.start)
                power = fold_power(frozenset(self.all_ids - ids))
                self.fits[ids] = self.F.fit(train, base, self.evals if full else self.fold_evals, power)
        return self.fits[ids]

    def result(self, params, row):
        key = tuple(sorted(params.items()))
        if key != self.cur:
            self.cur = key
            self.preds = {}
        if row["id"] not in self.preds:
            # every row at once with these constants (one snapshot)
            res = self.F.run(self.rows, params, RANGE_NONE)
            self.preds = {r["id"]: p for r, p in zip(self.rows, res)}
        return self.preds[row["id"]]

    def predict_j(self, params, row):
        p = self.result(params, row)
        return None if "error" in p else p["j_tok"]["central"]

    def predict_time(self, params, row):
        p = self.result(params, row)
        return None if "error" in p else 1 / p["tps"]


RANGE_NONE = {n: (1, 1) for n, _ in RANGES}
KEYS = {"device": lambda r: S.DEVICES.get(r["gpu"]), "family": S.family}


def crossvalidate(C, rows):
    """(energy, time) results of tools/crossval.py over rows."""
    import crossval as cv
    C.all_ids = frozenset(r["id"] for r in rows)
    C.rows = rows
    n = len(TIME) + len(POWER_IDS)
    ej = cv.run(rows, C.fit, C.predict_j, lambda r: r["j_per_output_token"], KEYS, n)
    et = cv.run(rows, C.fit, C.predict_time, lambda r: 1 / r["tokens_per_s"], KEYS, n)
    return ej, et


def range_factors(res):
    """The range of a device or family without rows: the widest of the
    schemes' factors (tools/crossval.py range_factors)."""
    lo = min(s["range_factors"]["low_factor"] for s in res["schemes"].values())
    hi = max(s["range_factors"]["high_factor"] for s in res["schemes"].values())
    return lo, hi


def bound_probes(F, rows, full):
    """{constant: note} for each fitted constant within 2 % of a bound: the
    time loss with it 20 % past that bound (the others as fitted), so the
    hwdb says how much the bound holds the fit back."""
    def loss(v):
        return mean_sq(F.run(rows, v), rows)
    out, base = {}, None
    for name, _, lo, hi, _, _ in TIME:
        v = full[name]
        side = "upper" if v > hi / 1.02 else "lower" if v < lo * 1.02 else None
        if side is None:
            continue
        base = base if base is not None else loss(full)
        past = loss(dict(full, **{name: hi * 1.2 if side == "upper" else lo / 1.2}))
        why = ("the loss rises past the bound, so the rows' own optimum lies at about the bound, which does not hold it"
               if past > base else "the loss falls past the bound: the bound holds it, the rows want more")
        out[name] = ("; at its %s bound: 20%% past it the rows' time loss changes by %+.1f%% (%.5f -> %.5f): %s"
                     % (side, 100 * (past / base - 1), base, past, why))
    return out


def write_block(values, spread, ranges, nrows, fold_note, edges=None):
    text = open(HWDB).read()
    begin = text.index("  # ---- BEGIN fitted")
    end = text.index("  # ---- END fitted ----")
    lines = ["  # ---- BEGIN fitted (written by tools/fit_serving.py; do not edit by hand) ----"]
    for p in TIME:
        v = values[p[0]]
        lo, hi = spread[p[0]]
        lines += ["  - id: %s" % p[0], "    value: %.4g" % v, "    low: %.4g" % min(lo, v), "    high: %.4g" % max(hi, v),
                  "    unit: \"%s\"" % p[4], "    source: mlenergy-fit",
                  "    derived: \"fitted to the %d rows of the ML.ENERGY leaderboard v2/v3 measurements (ml-energy/leaderboard-v2@c3af7f31, ml-energy/leaderboard@0cd52dab) (copied in "
                  "tests/accuracy/serving-rows.yaml) by tools/fit_serving.py, output tokens/s; bounds %g-%g (%s); low-high: its "
                  "spread over the %s%s\"" % (nrows, p[2], p[3], p[5], fold_note, (edges or {}).get(p[0], ""))]
    for name, key in RANGES:
        lo, hi = ranges[name]
        lines += ["  - id: %s" % name, "    value: 1", "    low: %.4g" % lo, "    high: %.4g" % hi, "    unit: \"1\"",
                  "    source: mlenergy-fit",
                  "    derived: \"the range of the serving %s as factors of the central value: the nominal 90%% conformal interval of "
                  "|ln(predicted/measured)| over the held-out rows of the %s (measured, not a target)\""
                  % ("time" if key == "time" else "GPU J per output token", fold_note)]
    text = text[:begin] + "\n".join(lines) + "\n" + text[end:]
    with open(HWDB, "w") as f:
        f.write(text)


def replay_folds():
    """{frozenset of row ids left out: constants} of the stored serving
    folds (serving-folds.json's time constants with the power folds' device
    power constants); frozenset(): the all-row fit."""
    stored = json.load(open(FOLDS))
    replay = {frozenset(f["left_out"]): f["params"] for f in stored["folds"]}
    replay[frozenset()] = stored["all"]
    power = power_folds()
    missing = [k for k in replay if k not in power]
    if missing:
        raise SystemExit("fit_serving: %s has no power fold for %d of the stored serving folds (the rows "
                         "changed since tools/fit_power.py wrote it); rerun tools/fit_power.py --write"
                         % (os.path.relpath(fc.POWER_FOLDS, S.ROOT), len(missing)))
    return {k: dict(v, **power[k]) for k, v in replay.items()}


def refresh_energy_range(jobs=2):
    """After a refit of the device power constants (tools/fit_power.py):
    the stored folds replayed with their new power folds, and
    serving_range_energy (hwdb/serving.yaml, serving-folds.json) rewritten
    from their held-out J/token residuals, as main() writes it.  Returns the
    crossval result of J/token."""
    rows = [r for r in S.load_rows() if config_for_ok(r)]
    C = Cached(Fitter(jobs, 0), {}, 0, 0, stored=replay_folds())
    ej, _ = crossvalidate(C, rows)
    lo, hi = range_factors(ej)
    text = open(HWDB).read()
    i = text.index("  - id: serving_range_energy")
    j = text.index("    unit:", i)
    text = text[:i] + "  - id: serving_range_energy\n    value: 1\n    low: %.4g\n    high: %.4g\n" % (lo, hi) + text[j:]
    with open(HWDB, "w") as f:
        f.write(text)
    stored = json.load(open(FOLDS))
    stored["ranges"]["serving_range_energy"] = [lo, hi]
    with open(FOLDS, "w") as f:
        json.dump(stored, f, indent=1, sort_keys=True)
        f.write("\n")
    return ej


def config_for_ok(r):
    return S.config_for(r) is not None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--evals", type=int, default=1500, help="at most this many evaluations for the all-row fit")
    ap.add_argument("--fold-evals", type=int, default=800, help="... and for each fold's")
    ap.add_argument("--write", action="store_true",
                    help="write hwdb/serving.yaml's fitted block and tests/accuracy/serving-folds.json (else print only)")
    args = ap.parse_args()
    rows = [r for r in S.load_rows() if S.config_for(r) is not None]
    F = Fitter(args.jobs, args.evals)
    # the all-row fit starts from TIME's initial values, never from the last
    # fit, so that a rerun reproduces the stored constants; each fold starts
    # from the all-row fit (Cached.fit) and runs to convergence, so its start
    # decides its evaluations, not its result
    C = Cached(F, {}, args.evals, args.fold_evals)
    ej, et = crossvalidate(C, rows)
    full = ej["in_sample"]["params"]
    ranges = {"serving_range_energy": range_factors(ej), "serving_range_time": range_factors(et)}
    spread = {}
    for p in TIME:
        vals = [f["params"][p[0]] for s in ej["schemes"].values() for f in s["folds"]]
        spread[p[0]] = (min(vals), max(vals))
    folds = [(name, f["key"]) for name, s in ej["schemes"].items() for f in s["folds"]]
    note = ("%d folds (leave one device out: %s; leave one model family out: %s)"
            % (len(folds), ", ".join(k for n, k in folds if n == "device"),
               ", ".join(k for n, k in folds if n == "family")))
    import crossval as cv
    for line in cv.report(ej, "serving J/output token") + cv.report(et, "serving time per output token"):
        print(line)
    edges = bound_probes(F, rows, full)
    for p in TIME:
        v = full[p[0]]
        print("%s = %.4g (folds %.4g .. %.4g; bounds %g .. %g)%s" % (p[0], v, spread[p[0]][0], spread[p[0]][1],
                                                                    p[2], p[3], edges.get(p[0], "")))
    if not args.write:
        print("not written (--write stores them)", file=sys.stderr)
        return
    write_block(full, spread, ranges, len(rows), note, edges)
    ids = [r["id"] for r in rows]
    out = {"all": full, "ranges": {k: list(v) for k, v in ranges.items()},
           "folds": [{"scheme": name, "held_out": f["key"], "params": f["params"],
                      "left_out": sorted(set(ids) - set(r["id"] for r in rows if KEYS[name](r) != f["key"]))}
                     for name, s in ej["schemes"].items() for f in s["folds"]]}
    with open(FOLDS, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote %s and %s" % (os.path.relpath(HWDB, S.ROOT), os.path.relpath(FOLDS, S.ROOT)), file=sys.stderr)


if __name__ == "__main__":
    main()
