#!/usr/bin/env python3
"""fit_serving.py - fits the serving model's constants (hwdb/serving.yaml,
the block between "BEGIN fitted" and "END fitted") to the calibration rows
of tests/accuracy/serving-rows.yaml (copied from
../shared/data/calibration/llm-serving.yaml: ML.ENERGY v2 and v3, GPU
energy only).

The model itself is joulecast: every evaluation runs
`joulecast estimate --generate` on every row of a group with the candidate
constants in an override layer (--hwdb), so the fit and the product are one
implementation.

  1. time, per (runtime, device) group: prefill MFU, decode MBU, decode
     MFU, per-step and per-sequence runtime overheads and the all-reduce
     latency, by Nelder-Mead on the squared log error of the output
     throughput (tokens/s);
  2. power, per device: the coefficients k_c, k_m and a_launch of the
     device power model of src/estimate/power.h (busy: 1 - exp(-(k_c u_c +
     k_m u_m)); launch-bound while the runtime runs), by Nelder-Mead on the
     squared log error of the measured GPU power per device at the fitted
     times;
  3. ranges: one relative spread per device applied to every fitted
     constant (efficiencies up, overheads and power down for the low
     corner), the smallest that puts 80% of the group's measured J/token
     inside low-high.  In-sample by construction: the harness
     (tools/accuracy_serving.py) says so.

Usage: python3 tools/fit_serving.py [--jobs N] [--evals N]
Writes hwdb/serving.yaml in place; then `make` rebuilds the snapshot.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serving_rows as S  # noqa: E402

HWDB = os.path.join(S.ROOT, "hwdb", "serving.yaml")
GROUPS = [("vllm-0.11", "nvidia-h100-sxm5", lambda r: r["software"].startswith("vLLM 0.11")),
          ("vllm-0.5", "nvidia-h100-sxm5", lambda r: r["software"].startswith("vLLM v0.5") and "H100" in r["gpu"]),
          ("vllm-0.5", "nvidia-a100-sxm4-40gb", lambda r: r["software"].startswith("vLLM v0.5") and "A100" in r["gpu"])]
# name, initial, lower bound, upper bound, unit
# (efficiency bounds: physically plausible ranges, so a constant cannot soak
# up what the model lacks: prefill 0.15-0.75 of dense peak, decode 0.3-0.92 of
# peak bandwidth, 0.15-0.8 of peak on decode matrix work)
TIME = [("serving_prefill_mfu", 0.45, 0.15, 0.75, "1"), ("serving_decode_mbu", 0.7, 0.3, 0.92, "1"),
        ("serving_decode_mfu", 0.5, 0.15, 0.8, "1"), ("serving_step_overhead_s", 0.002, 1e-5, 0.05, "s"),
        ("serving_seq_overhead_s", 2e-5, 1e-7, 1e-3, "s"), ("serving_link_latency_s", 1e-5, 1e-7, 2e-4, "s")]
POWER = ["serving_power_k_compute", "serving_power_k_memory", "serving_power_a_launch"]
EFFICIENCY = {"serving_prefill_mfu", "serving_decode_mbu", "serving_decode_mfu"}


def block_lines(entries):
    out = ["  # ---- BEGIN fitted (candidate of tools/fit_serving.py)"]
    for key, (v, lo, hi, unit) in entries.items():
        out.append("  - {id: %s, value: %.9g, low: %.9g, high: %.9g, unit: \"%s\", source: mlenergy-fit}"
                   % (key, v, min(lo, v), max(hi, v), unit))
    return out


PRIORS = {"serving_prefill_mfu": (0.45, 0.3, 0.6, "1"), "serving_decode_mbu": (0.7, 0.5, 0.85, "1"),
          "serving_decode_mfu": (0.5, 0.35, 0.65, "1"), "serving_step_overhead_s": (0.002, 0.001, 0.004, "s"),
          "serving_seq_overhead_s": (2e-5, 1e-5, 4e-5, "s"), "serving_link_latency_s": (1e-5, 5e-6, 2e-5, "s"),
          "serving_power_k_compute": (2.0, 1.5, 2.5, "1"), "serving_power_k_memory": (1.0, 0.7, 1.3, "1"),
          "serving_power_a_launch": (0.2, 0.1, 0.3, "1")}


class Fitter:
    def __init__(self, jobs, evals):
        self.runner = S.Runner(jobs=jobs)
        self.evals = evals
        self.fixed = {}      # key -> (v, lo, hi, unit) held in every layer

    def run(self, rows, entries):
        allv = dict(PRIORS)
        allv.update(self.fixed)
        allv.update(entries)
        self.runner.set_constants(block_lines(allv))
        return self.runner.run(rows)

    def time_entries(self, rt, dev, x):
        return {"%s.%s.%s" % (n, rt, dev): (v, v, v, u) for (n, _, _, _, u), v in zip(TIME, x)}

    def fit_time(self, rt, dev, rows):
        lo = np.array([t[2] for t in TIME])
        hi = np.array([t[3] for t in TIME])
        x0 = np.log(np.array([t[1] for t in TIME]))

        def f(z):
            x = np.exp(np.clip(z, np.log(lo), np.log(hi)))
            res = self.run(rows, self.time_entries(rt, dev, x))
            err = [math.log(p["tps"] / r["tokens_per_s"]) for p, r in zip(res, rows) if "error" not in p]
            bad = sum(1 for p in res if "error" in p)
            return sum(e * e for e in err) / max(1, len(err)) + bad
        z = nelder_mead(f, x0, self.evals)
        return np.exp(np.clip(z, np.log(lo), np.log(hi)))


def nelder_mead(f, x0, max_evals, step=0.4):
    n = len(x0)
    pts = [x0.copy()]
    for i in range(n):
        p = x0.copy()
        p[i] += step
        pts.append(p)
    vals = [f(p) for p in pts]
    evals = n + 1
    while evals < max_evals:
        order = np.argsort(vals)
        pts = [pts[i] for i in order]
        vals = [vals[i] for i in order]
        c = np.mean(pts[:-1], axis=0)
        xr = c + (c - pts[-1])
        fr = f(xr)
        evals += 1
        if fr < vals[0]:
            xe = c + 2 * (c - pts[-1])
            fe = f(xe)
            evals += 1
            pts[-1], vals[-1] = (xe, fe) if fe < fr else (xr, fr)
        elif fr < vals[-2]:
            pts[-1], vals[-1] = xr, fr
        else:
            xc = c + 0.5 * (pts[-1] - c)
            fc = f(xc)
            evals += 1
            if fc < vals[-1]:
                pts[-1], vals[-1] = xc, fc
            else:
                for i in range(1, n + 1):
                    pts[i] = pts[0] + 0.5 * (pts[i] - pts[0])
                    vals[i] = f(pts[i])
                    evals += 1
        print("  evals %d  loss %.4f" % (evals, min(vals)), file=sys.stderr)
    return pts[int(np.argmin(vals))]


def activity(kc, km, uc, um):
    """The busy activity of src/estimate/power.h (jc_power_activity), mirrored
    here only to fit its coefficients; the harness runs joulecast itself."""
    return 1 - math.exp(-(kc * min(1, max(0, uc)) + km * min(1, max(0, um))))


def device_power_fit(rows, res, evals=300):
    """k_c, k_m, a_launch of one device: Nelder-Mead on the squared log error
    of the measured W per GPU, prefill busy at (u_pre, 0), decode busy at
    (u_c, u_m) for its busy share and launch-bound for the rest."""
    data = [(r, p) for r, p in zip(rows, res) if "error" not in p]

    def model(x, p):
        kc, km, al = math.exp(x[0]), math.exp(x[1]), 1 / (1 + math.exp(-x[2]))
        a_pre = activity(kc, km, p["upre"], 0)
        a_dec = p["gshare"] * activity(kc, km, p["uf"], p["ub"]) + (1 - p["gshare"]) * al
        a = p["tshare"] * a_pre + (1 - p["tshare"]) * a_dec
        return p["idle_w"] + (p["tdp_w"] - p["idle_w"]) * a

    def f(x):
        return sum(math.log(model(x, p) / S.measured_power_per_gpu(r)) ** 2 for r, p in data) / len(data)
    x = nelder_mead(f, np.array([math.log(2.0), math.log(1.0), -1.0]), evals, step=0.5)
    return [math.exp(x[0]), math.exp(x[1]), 1 / (1 + math.exp(-x[2]))]


def write_block(entries, notes):
    text = open(HWDB).read()
    begin = text.index("  # ---- BEGIN fitted")
    end = text.index("  # ---- END fitted ----")
    lines = ["  # ---- BEGIN fitted (written by tools/fit_serving.py; do not edit by hand) ----"]
    for key, (v, lo, hi, unit, how) in entries.items():
        lines += ["  - id: %s" % key, "    value: %.4g" % v, "    low: %.4g" % lo, "    high: %.4g" % hi,
                  "    unit: \"%s\"" % unit, "    source: mlenergy-fit", "    derived: \"%s\"" % how]
    for n in notes:
        lines.append("  # " + n)
    text = text[:begin] + "\n".join(lines) + "\n" + text[end:]
    with open(HWDB, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--evals", type=int, default=120)
    ap.add_argument("--coverage", type=float, default=0.85)
    ap.add_argument("--power-only", action="store_true",
                    help="keep the time constants of hwdb/serving.yaml (central values); refit power and ranges")
    args = ap.parse_args()
    rows = S.load_rows()
    F = Fitter(args.jobs, args.evals)
    out = {}
    notes = []
    fitted_time = {}
    have = {}
    if args.power_only:
        import yaml
        for c in yaml.safe_load(open(HWDB))["constants"]:
            have[c["id"]] = c["value"]
    for rt, dev, sel in GROUPS:
        g = [r for r in rows if sel(r) and S.config_for(r) is not None]
        if args.power_only:
            x = np.array([float(have["%s.%s.%s" % (t[0], rt, dev)]) for t in TIME])
        else:
            print("time fit %s %s: %d rows" % (rt, dev, len(g)), file=sys.stderr)
            x = F.fit_time(rt, dev, g)
        fitted_time[(rt, dev)] = x
        F.fixed.update(F.time_entries(rt, dev, x))
    # power per device over all its rows, at the fitted times
    power = {}
    for dev in sorted({d for _, d, _ in GROUPS}):
        g = [r for r in rows if S.DEVICES.get(r["gpu"]) == dev and S.config_for(r) is not None]
        res = F.run(g, {})
        coef = device_power_fit(g, res)
        power[dev] = coef
        for n, v in zip(POWER, coef):
            F.fixed["%s.%s" % (n, dev)] = (v, v, v, "1")
        print("power %s: %s (%d rows)" % (dev, coef, len(g)), file=sys.stderr)
    # ranges: one spread per device
    spread = {}
    for dev in sorted(power):
        g = [r for r in rows if S.DEVICES.get(r["gpu"]) == dev and S.config_for(r) is not None]
        lo_f, hi_f = 0.0, 1.0
        for _ in range(9):
            mid = (lo_f + hi_f) / 2
            ents = ranged(F, dev, mid, fitted_time, power)
            res = F.run(g, ents)
            inside = [p["j_tok"]["low"] <= r["j_per_output_token"] <= p["j_tok"]["high"]
                      for p, r in zip(res, g) if "error" not in p]
            cov = sum(inside) / max(1, len(inside))
            print("spread %s %.3f: coverage %.2f" % (dev, mid, cov), file=sys.stderr)
            if cov >= args.coverage:
                hi_f = mid
            else:
                lo_f = mid
        spread[dev] = hi_f
        F.fixed.update(ranged(F, dev, hi_f, fitted_time, power))
    n_rows = {dev: sum(1 for r in rows if S.DEVICES.get(r["gpu"]) == dev) for dev in power}
    for key, (v, lo, hi, unit) in F.fixed.items():
        dev = key.split(".")[-1]
        grp = [g for g in GROUPS if key.endswith("%s.%s" % (g[0], g[1]))]
        what = ("output tokens/s of the %s rows on %s (Nelder-Mead on squared log error)" % grp[0][:2]
                if grp else "measured GPU power of the %d %s rows (Nelder-Mead on squared log error at the fitted times)" % (n_rows[dev], dev))
        out[key] = (v, lo, hi, unit, "fitted to the ML.ENERGY leaderboard v2/v3 measurements (ml-energy/leaderboard-v2@c3af7f31, ml-energy/leaderboard@0cd52dab) rows (copied in "
                    "tests/accuracy/serving-rows.yaml) by tools/fit_serving.py: %s; low-high: relative spread %.3f, "
                    "the smallest covering %d%% of the device's rows in J/token" % (what, spread[dev], 100 * args.coverage))
    # generic fallbacks for other devices and runtimes: the H100 vllm-0.11 figures
    for (n, _, _, _, u), v in zip(TIME, fitted_time[("vllm-0.11", "nvidia-h100-sxm5")]):
        k = "%s.vllm-0.11.nvidia-h100-sxm5" % n
        out[n] = out[k][:4] + ("fallback for devices without a fit of their own: the value of %s" % k,)
    for n in POWER:
        k = "%s.nvidia-h100-sxm5" % n
        out[n] = out[k][:4] + ("fallback for devices without a fit of their own: the value of %s" % k,)
    out["serving_step_overhead_s.vllm-0.5"] = out["serving_step_overhead_s.vllm-0.5.nvidia-h100-sxm5"][:4] + (
        "fallback for vllm-0.5 on other devices: the H100 value",)
    out["serving_seq_overhead_s.vllm-0.5"] = out["serving_seq_overhead_s.vllm-0.5.nvidia-h100-sxm5"][:4] + (
        "fallback for vllm-0.5 on other devices: the H100 value",)
    write_block(out, [])
    print("wrote %s" % HWDB, file=sys.stderr)


def ranged(F, dev, f, fitted_time, power):
    ents = {}
    for (rt, d), x in fitted_time.items():
        if d != dev:
            continue
        for (n, _, _, hiB, u), v in zip(TIME, x):
            if n in EFFICIENCY:
                lo, hi = v / (1 + f), min(hiB, v * (1 + f))
            else:
                lo, hi = v / (1 + f), v * (1 + f)
            ents["%s.%s.%s" % (n, rt, dev)] = (v, lo, hi, u)
    for n, v in zip(POWER, power[dev]):
        hi = v * (1 + f)
        if n == "serving_power_a_launch":
            hi = min(1.0, hi)
        ents["%s.%s" % (n, dev)] = (v, v / (1 + f), hi, "1")
    return ents


if __name__ == "__main__":
    main()
