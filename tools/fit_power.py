#!/usr/bin/env python3
"""fit_power.py - fits the GPU power coefficients (power_k_compute_gpu,
power_k_memory_gpu) and the host power of the server classes
(host_class_server2_w, _server4_w, _server8_w) to the measured AC wall
power of the MLPerf Inference v1.1 rows (tests/accuracy/mlperf-v1.1.csv,
copied from ../shared/data/calibration/mlperf-inference-v1.1.yaml) and
the measured system power per P100 of the Patterson et al. 2021 Table 1
rows (tests/accuracy/training-runs.csv, from ../shared/data/calibration/
training-runs.yaml); and the TPU compute coefficient power_k_compute_tpu
to the Patterson TPU v2 rows.  The objective is the mean of the two
sets' mean squared log errors.

For each (k_c, k_m) of a grid, every row is predicted through the CLI
with the harness's recipe (tools/accuracy_mlperf.py); the devices' power
G * P_dev comes from the prediction, and each class's host power is the
median over its rows of (measured wall power - G * P_dev).  Rows whose
system the hwdb names (DGX A100, DGX Station A100) keep their own host
entry and count in the objective only.  The objective is the mean squared
log error of the predicted wall power.  low/high of every fitted value =
the 10th / 90th percentiles of the per-row values.

  python3 tools/fit_power.py [--write]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

CLASS = {"server-2": "host_class_server2_w", "server-4": "host_class_server4_w",
         "server-8": "host_class_server8_w"}


def klass(row):
    g = int(row["devices"])
    return "server-2" if g <= 2 else "server-4" if g <= 4 else "server-8"


def evaluate(rs, ov, kc, km):
    """Per row: (row, G*P_dev, host power predicted by a named host or None)."""
    out = []
    for r in rs:
        js, err = mp.predict(r, ov.set({"power_k_compute_gpu": kc, "power_k_memory_gpu": km}))
        if js is None:
            raise SystemExit("fit: %s: %s" % (r["id"], err))
        res = js["results"]
        T = res["wall_hours"]["central"]
        pdev = res["energy_device_kwh"]["central"] / T * 1000.0
        named = js["hardware"].get("host")
        phost = res["energy_host_kwh"]["central"] / T * 1000.0 if named else None
        uc = (res.get("implied_utilization") or {}).get("central") or 0.0
        out.append((r, pdev, phost, uc))
    return out


def p100_rows():
    return [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "training-runs.csv"))
            if r["device"] == "nvidia-tesla-p100" and r["system_w_per_device"]]


def p100_msle(ov, kc, km):
    """Mean squared log error of the system power per accelerator of the
    Patterson P100 training rows (at their achieved utilisation), the
    GPU evidence for k_m: training without a graph spends the time the
    matrix units wait in memory-bound work."""
    se = []
    for r in p100_rows():
        js, err = ac.run_jc(["estimate", "--train", "--flops", r["total_flops"], "--device", r["device"],
                             "--count", r["count"], "--utilization", "%.4f" % (
                                 float(r["achieved_tflops"]) / 18.7), "--pue", "1", "--ci", "400"]
                            + ov.set({"power_k_compute_gpu": kc, "power_k_memory_gpu": km}))
        if js is None:
            raise SystemExit("fit: %s: %s" % (r["id"], err))
        res = js["results"]
        w = (res["energy_it_kwh"]["central"] / res["wall_hours"]["central"]) * 1000 / float(r["count"])
        se.append(math.log(w / float(r["system_w_per_device"])) ** 2)
    return sum(se) / len(se)


def score(ev):
    hosts = {}
    for r, pdev, phost, _ in ev:
        if phost is None:
            hosts.setdefault(klass(r), []).append(float(r["wall_power_w"]) - pdev)
    med = {k: ac.median(v) for k, v in hosts.items()}
    se = 0.0
    for r, pdev, phost, _ in ev:
        h = phost if phost is not None else med[klass(r)]
        pred = pdev + max(h, 0.0)
        se += math.log(pred / float(r["wall_power_w"])) ** 2
    return se / len(ev), med, hosts


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted values")
    ap.add_argument("--tpu-only", action="store_true", help="fit only the TPU coefficient")
    ap.add_argument("--kc", type=float, default=None, help="evaluate this k_c only (no grid)")
    ap.add_argument("--km", type=float, default=None, help="evaluate this k_m only (no grid)")
    a = ap.parse_args()
    rs = [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
          if mp.recipe(r)[0] is not None and r["device"] != "nvidia-jetson-agx-xavier"]
    ktpu = fit_tpu()
    if a.tpu_only:
        if a.write:
            fc.write_constant("power_k_compute_tpu", *ktpu)
        return
    ov = fc.Overlay()
    best = None
    try:
        kcs = (a.kc,) if a.kc is not None else (1, 1.5, 2, 3, 4)
        kms = (a.km,) if a.km is not None else (0, 0.5, 1, 1.5, 2)
        for kc in kcs:
            for km in kms:
                ev = evaluate(rs, ov, kc, km)
                msle_m, med, hosts = score(ev)
                msle_p = p100_msle(ov, kc, km)
                msle = 0.5 * (msle_m + msle_p)
                print("  k_c %-4g k_m %-4g  rms log error MLPerf %.3f P100 %.3f  hosts %s" % (
                    kc, km, math.sqrt(msle_m), math.sqrt(msle_p),
                    " ".join("%s %.0f" % kv for kv in sorted(med.items()))))
                if best is None or msle < best[0]:
                    best = (msle, kc, km, med, hosts, ev)
        msle, kc, km, med, hosts, ev = best
        print("best: k_c %g k_m %g rms log error %.3f" % (kc, km, math.sqrt(msle)))
        for k, v in sorted(hosts.items()):
            print("  %s %.0f W [%.0f-%.0f] (%d rows)" % (k, med[k], fc.percentile(v, 0.1),
                                                        fc.percentile(v, 0.9), len(v)))
        # range of k_c: the p10 / p90 of (needed / predicted device power) over
        # the rows, mapped to k_c at the rows' median compute utilisation
        per, us = [], []
        for r, pdev, phost, uc in ev:
            h = phost if phost is not None else med[klass(r)]
            per.append((float(r["wall_power_w"]) - h) / pdev)
            us.append(uc)
        lo_f, hi_f = fc.percentile(per, 0.1), fc.percentile(per, 0.9)
        ub = ac.median(us)
        f0 = 1 - math.exp(-(kc * ub))

        def k_for(ratio):
            f = min(0.99, max(0.01, f0 * ratio))
            return -math.log(1 - f) / ub
        klo, khi = k_for(lo_f), k_for(hi_f)
        print("device power needed / predicted: p10 %.2f p90 %.2f -> k_c [%.2f-%.2f] at median u_c %.2f" % (
            lo_f, hi_f, klo, khi, ub))
        if a.write:
            fc.write_constant("power_k_compute_gpu", kc, klo, khi)
            fc.write_constant("power_k_memory_gpu", km, 0.5 * km, 2 * km if km > 0 else 1.0)
            for k, cid in CLASS.items():
                if k in med:
                    v = hosts[k]
                    fc.write_constant(cid, med[k], max(0.0, fc.percentile(v, 0.1)), fc.percentile(v, 0.9))
            fc.write_constant("power_k_compute_tpu", *ktpu)
            print("wrote hwdb/energy-model.yaml")
    finally:
        ov.close()


if __name__ == "__main__":
    main()
