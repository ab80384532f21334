#!/usr/bin/env python3
"""fit_power.py - fits the GPU power coefficients: power_k_memory_gpu to
the measured system power per P100 of the Patterson et al. 2021 Table 1
training rows (tests/accuracy/training-runs.csv, at their achieved
utilisation), then power_k_compute_gpu to the measured AC wall power of
the MLPerf Inference v1.1 rows
(tests/accuracy/mlperf-v1.1.csv, copied from ../shared/data/calibration/
mlperf-inference-v1.1.yaml), and the TPU compute coefficient
power_k_compute_tpu to the Patterson et al. 2021 TPU v2 rows
(tests/accuracy/training-runs.csv).

GPU: the fit is tools/accuracy_mlperf.py's (power_fit): at the engine
efficiency fitted to the rows' throughput (BERT at its sourced mean
sequence), the k_c at
which the median of ln(predicted / measured J/sample) is 0; every row is
predicted through the CLI with the harness's recipe (its MaxQ power
limits, the sourced host classes and the DRAM energy per bit of the
device's memory type).  low/high = the spread of k_c over the
leave-one-device-out folds (the folds `make accuracy` publishes; the
leave-one-benchmark-out values are printed).  Nothing else is fitted here: the host classes
(host_class_*) and the memory energy (mem_pj_per_bit_*) are sourced.

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

def p100_rows():
    return [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
            if r["device"] == "nvidia-tesla-p100" and r["system_w_per_device"]]


def p100_log_error(ov, km):
    """Median ln(predicted / measured system power per P100) of the Patterson
    Table 1 P100 training rows at their achieved utilisation (the time
    the matrix units wait is memory-bound work: k_m's evidence)."""
    e = []
    for r in p100_rows():
        js, err = ac.run_jc(["estimate", "--train", "--flops", r["total_flops"], "--device", r["device"],
                             "--count", r["count"], "--utilization", "%.4f" % (float(r["achieved_tflops"]) / 18.7),
                             "--pue", "1", "--ci", "400"] + ov.set({"power_k_memory_gpu": km}))
        if js is None:
            raise SystemExit("fit: %s: %s" % (r["id"], err))
        res = js["results"]
        w = res["energy_it_kwh"]["central"] / res["wall_hours"]["central"] * 1000 / float(r["count"])
        e.append(math.log(w / float(r["system_w_per_device"])))
    return ac.median(e)


def fit_km():
    """power_k_memory_gpu from the three Patterson P100 rows (bisection of
    the median log error in [0, 4]; low/high = the per-row values' range)."""
    import fit_common as fc_
    ov = fc_.Overlay()
    try:
        k = fc_.bisect(lambda x: p100_log_error(ov, x), 0.0, 4.0, steps=10)
    finally:
        ov.close()
    print("power_k_memory_gpu = %.3f (median of the %d Patterson P100 rows)" % (k, len(p100_rows())))
    return round(k, 3)


def fit_tpu():
    """power_k_compute_tpu from the Patterson TPU v2 rows: per row,
    activity a = (system W per chip - host_class_tpu_w - idle) / (TDP - idle)
    and u = achieved / peak, so k = -ln(1 - a) / u; median and p10/p90."""
    rows = [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
            if r["device"] == "google-tpu-v2" and r["system_w_per_device"]]
    js, err = ac.run_jc(["estimate", "--train", "--params", "2e8", "--tokens", "1e9", "--device", "google-tpu-v2",
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


def fit_gpu():
    """(k_c, low, high): the all-row fit; low/high its spread over the
    leave-one-device-out folds (the leave-one-benchmark-out folds are
    printed)."""
    rows = mp.predictable(ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv")))
    per = mp.per_row_fits(rows)
    pred = mp.Predictor()
    spread = {}
    try:
        fit = mp.fold_fit(per, pred)
        allp = fit(rows)
        for name, keyf in (("device", lambda r: r["device"]), ("benchmark", lambda r: r["benchmark"])):
            for k in sorted({keyf(r) for r in rows}):
                fp = fit([r for r in rows if keyf(r) != k])
                print("  fold without %-28s k_c %.4g (eta %.4g)" % (k, fp[mp.POWER_K], fp[mp.ETA]))
                spread.setdefault(name, []).append(fp[mp.POWER_K])
    finally:
        pred.close()
    k = allp[mp.POWER_K]
    lo, hi = min(spread["device"] + [k]), max(spread["device"] + [k])
    print("power_k_compute_gpu = %.4g [%.4g-%.4g over the device folds; %.4g-%.4g over the benchmark folds] "
          "(%d rows; eta %.4g)" % (k, lo, hi, min(spread["benchmark"]), max(spread["benchmark"]),
                                   len(rows), allp[mp.ETA]))
    return k, lo, hi


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
    km = fit_km()
    if a.write:
        fc.write_constant("power_k_memory_gpu", km, km, km)
    kgpu = fit_gpu()
    if a.write:
        fc.write_constant("power_k_compute_gpu", *kgpu)
        print("wrote hwdb/energy-model.yaml")


if __name__ == "__main__":
    main()
