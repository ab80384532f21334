#!/usr/bin/env python3
"""accuracy_mlperf.py - the MLPerf Inference v1.1 set of `make accuracy`.

Predicts the energy per sample (J/sample, AC wall power of the whole
system, PUE 1) of every row of tests/accuracy/mlperf-v1.1.csv (copied row
by row from ../shared/data/calibration/mlperf-inference-v1.1.yaml) by
running the joulecast CLI with JSON output, and scores it against the
measured wall power / throughput (tools/accuracy_common.py).

How a row is predicted (the RECIPE below, the same for every row):
  joulecast estimate MODEL --device D --count G [--host H] --precision int8
      --batch B --requests R --pue 1 --ci 400 [RECIPE extra flags]
  MODEL: models/resnet50.onnx (ResNet-50 v1.5 at 224x224) or
  models/bert_large.onnx bound at the benchmark's sequence length;
  int8 is the precision of the closed-division submissions.
  --host names the system when the hwdb has it (DGX A100, DGX Station A100);
  otherwise --hosts 1: one whole server of the device count's system class
  (sourced, not fitted: hwdb/energy-model.yaml host_class_*).
  --power-limit W where the row gives the MaxQ submission's GPU power
  limit (column power_limit_w, from the submission's configuration).

  python3 tools/accuracy_mlperf.py [--rows FILE] [--out DIR]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402

# BERT-99 runs SQuAD v1.1 at max_seq_len 384, but the TensorRT
# submissions run unpadded, variable-length kernels and the calibration
# file gives no mean sequence length: the effective sequence length is
# fitted to the BERT rows by tools/fit_efficiency.py (tests/accuracy/
# mlperf-fitted.json), which makes the BERT throughput in-sample.
FITTED = os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-fitted.json")


def bert_seq():
    try:
        with open(FITTED) as f:
            return int(json.load(f)["bert_effective_sequence"])
    except (OSError, ValueError, KeyError):
        return 384


def model_args(bench, seq=None):
    """The workload of each benchmark (what is fixed by the MLPerf rules)."""
    if bench == "resnet50":
        return ["models/resnet50.onnx"]
    return ["models/bert_large.onnx", "--dim", "sequence=%d" % (seq or bert_seq())]
# batch of the prediction: Offline is throughput-bound (a large batch);
# Server batches fewer queries under its latency bound.
BATCH = {"Offline": 256, "Server": 64}
# systems the hwdb names (exact match on the row's system text)
HOSTS = {
    "NVIDIA DGX A100 (8x A100-SXM-80GB, MaxQ, TensorRT)": "nvidia-dgx-a100",
    "NVIDIA DGX Station A100 (4x A100-SXM-80GB, MaxQ, TensorRT)": "nvidia-dgx-station-a100",
}
EXTRA = ["--runtime", "engine"]   # TensorRT submissions: the inference-engine profile


def recipe(row, seq=None):
    """The joulecast arguments for one row, or (None, reason)."""
    if not row["device"]:
        return None, "accelerator %s is not in the hwdb" % row["accelerator"]
    b = BATCH[row["scenario"]]
    args = ["estimate"] + model_args(row["benchmark"], seq) + [
        "--device", row["device"], "--count", row["devices"], "--precision", "int8",
        "--batch", str(b), "--requests", str(b * 64), "--pue", "1", "--ci", "400"]
    if row.get("power_limit_w"):   # the MaxQ submission's stated GPU power limit
        args += ["--power-limit", row["power_limit_w"]]
    host = HOSTS.get(row["system"])
    if host:
        args += ["--host", host]
    else:   # one whole server of the device's system class, as metered at the wall
        args += ["--hosts", "1"]
    return args + EXTRA, None


def predict(row, extra=(), seq=None):
    """(JSON result, None) or (None, reason) for one row."""
    args, why = recipe(row, seq)
    if args is None:
        return None, why
    js, err = ac.run_jc(args + list(extra))
    if js is None:
        return None, "joulecast: " + (err[len("joulecast: "):] if err.startswith("joulecast: ") else err)
    return js, None


def samples_per_s(js):
    """Predicted throughput of the system (samples / wall seconds)."""
    w = js["results"]["wall_hours"]["central"]
    return js["work"]["samples"] / (w * 3600.0)


def score_rows(rows, extra=()):
    out = []
    for row in rows:
        r = {"id": row["id"], "measured": float(row["j_per_sample"]),
             "group": "%s %s" % (row["benchmark"], row["scenario"])}
        js, why = predict(row, extra)
        if js is None:
            r["reason"] = why
            out.append(r)
            continue
        j = js["results"]["j_per_sample"]
        if j is None or j.get("central") is None:
            r["reason"] = "joulecast gives no J/sample"
        else:
            r.update(low=j["low"], central=j["central"], high=j["high"])
            hw = js["results"].get("implied_utilization") or {}
            r["note"] = "throughput %+.0f%%" % (100 * (samples_per_s(js) / float(row["samples_per_s"]) - 1))
            if hw.get("central") is not None:
                r["note"] += ", implied utilisation %.2f" % hw["central"]
        out.append(r)
    return out


# Constants fitted to these rows: the engine efficiency and the BERT
# effective sequence (throughput, tools/fit_efficiency.py's rule) and the
# GPU power coefficient k_compute (wall power, tools/fit_power.py); the
# host classes and the DRAM energy per bit are sourced, not fitted.
N_FITTED = 3
POWER_K = "power_k_compute_gpu"
FOLD_ROWS = os.path.join(ac.ROOT, "build", "fit", "mlperf-rows.json")


def _ratio(row, ov, eta, seq=None):
    js, err = predict(row, ov.set({"runtime_engine_eta_matrix": eta}), seq)
    if js is None:
        raise SystemExit("accuracy_mlperf: %s: %s" % (row["id"], err))
    return samples_per_s(js) / float(row["samples_per_s"])


def per_row_fits(rows):
    """Per row, the value of each throughput constant that matches its
    measured samples/s (bisection through the CLI, as fit_efficiency.py):
    ResNet-50 rows: eta; BERT rows: eta at the benchmark's 384 tokens and
    the sequence at the ResNet rows' median eta.  Cached in build/fit/
    while the binary predicts every row's throughput the same."""
    import fit_common as fc
    # the cache holds while the binary predicts every row the same
    probe = {}
    for r in rows:
        js, _ = predict(r)
        probe[r["id"]] = samples_per_s(js) if js else None
    key = json.dumps(probe, sort_keys=True)
    try:
        with open(FOLD_ROWS) as f:
            c = json.load(f)
        if c["key"] == key:
            return c["rows"]
    except (OSError, ValueError, KeyError):
        pass
    ov = fc.Overlay()
    out = {}
    try:
        res = [r for r in rows if r["benchmark"] == "resnet50"]
        for r in res:
            out[r["id"]] = {"eta": fc.bisect(lambda x, r=r: _ratio(r, ov, x) - 1, 0.05, 1.0, steps=12)}
        e0 = ac.median([out[r["id"]]["eta"] for r in res])
        for r in [r for r in rows if r["benchmark"] == "bert-99"]:
            out[r["id"]] = {
                "eta384": fc.bisect(lambda x, r=r: _ratio(r, ov, x, 384) - 1, 0.05, 1.0, steps=12),
                "seq": fc.bisect(lambda x, r=r: _ratio(r, ov, e0, int(round(x))) - 1, 32, 384, steps=9,
                                 increasing=False)}
    finally:
        ov.close()
    fc.save_cache(FOLD_ROWS, key, "rows", out)
    return out


def throughput_fit(per, rows):
    """The throughput constants from the rows given (the medians of their
    per-row values, as fit_efficiency.py); a fold without ResNet-50 rows
    takes eta from the BERT rows at 384 tokens, a fold without BERT rows
    the benchmark's 384 tokens."""
    res = [per[r["id"]]["eta"] for r in rows if r["benchmark"] == "resnet50"]
    bert = [per[r["id"]] for r in rows if r["benchmark"] == "bert-99"]
    if res:
        return {"runtime_engine_eta_matrix": ac.median(res),
                "bert_effective_sequence": ac.median([b["seq"] for b in bert]) if bert else 384.0}
    return {"runtime_engine_eta_matrix": ac.median([b["eta384"] for b in bert]),
            "bert_effective_sequence": 384.0}


class Predictor:
    """J/sample of a row at trial constants, through the CLI (an overlay
    layer per distinct set of constants, memoised)."""

    def __init__(self):
        import fit_common as fc
        self.fc, self.layers, self.memo = fc, {}, {}

    def j(self, params, row):
        key = (params["runtime_engine_eta_matrix"], params.get(POWER_K), params["bert_effective_sequence"], row["id"])
        if key not in self.memo:
            ck = {"runtime_engine_eta_matrix": params["runtime_engine_eta_matrix"]}
            if params.get(POWER_K) is not None:
                ck[POWER_K] = params[POWER_K]
            lk = tuple(sorted(ck.items()))
            if lk not in self.layers:
                ov = self.fc.Overlay()
                self.layers[lk] = (ov, ov.set(ck))
            js, _ = predict(row, self.layers[lk][1], int(round(params["bert_effective_sequence"])))
            j = js and js["results"]["j_per_sample"]
            self.memo[key] = j["central"] if j and j.get("central") is not None else None
        return self.memo[key]

    def close(self):
        for ov, _ in self.layers.values():
            ov.close()


def power_fit(pred, params, rows, lo=0.3, hi=10.0):
    """k_compute from the rows given: the value at which the median of
    ln(predicted / measured J/sample) is 0 at the rows' throughput constants
    (J/sample rises with k; regula falsi in ln k, Illinois variant, from
    k = 1 and 4, within [lo, hi]; a bound when the rows' median error has
    one sign over the whole of it)."""
    import math
    from concurrent.futures import ThreadPoolExecutor

    def f(z):
        p = dict(params, **{POWER_K: round(math.exp(z), 5)})
        with ThreadPoolExecutor(max_workers=3) as ex:
            js = list(ex.map(lambda r: pred.j(p, r), rows))
        return ac.median([math.log(j / float(r["j_per_sample"])) for j, r in zip(js, rows) if j])
    # no root inside the bounds: the bound the rows push towards
    if f(math.log(lo)) >= 0:
        return lo
    if f(math.log(hi)) <= 0:
        return hi
    a, b = math.log(1.0), math.log(4.0)
    fa, fb = f(a), f(b)
    side = 0
    for _ in range(8):
        if fa == fb:
            break
        c = b - fb * (b - a) / (fb - fa)
        c = min(math.log(hi), max(math.log(lo), c))
        fc_ = f(c)
        if abs(fc_) < 0.002:
            b = c
            break
        if fc_ * fb < 0:
            a, fa = b, fb
            side = 0
        else:
            side += 1
            if side >= 2:
                fa *= 0.5
        b, fb = c, fc_
    return round(math.exp(b), 5)


def fold_fit(per, pred):
    """crossval's fit: the throughput constants, then k_compute at them,
    from the rows given only."""
    def fit(rows):
        p = throughput_fit(per, rows)
        p[POWER_K] = power_fit(pred, p, rows)
        return p
    return fit


def predictable(rows):
    return [r for r in rows if recipe(r)[0] is not None and r["device"] != "nvidia-jetson-agx-xavier"]


def crossvalidate(rows):
    """tools/crossval.py over the predictable rows: leave-one-device-out
    (accelerator) and leave-one-benchmark-out (model family); every fold
    refits the engine efficiency, the BERT effective sequence and the GPU
    power coefficient k_compute without its rows."""
    import crossval as cv
    rs = predictable(rows)
    per = per_row_fits(rs)
    pred = Predictor()
    try:
        res = cv.run(rs, fold_fit(per, pred), pred.j, lambda r: float(r["j_per_sample"]),
                     {"device": lambda r: r["device"], "family": lambda r: r["benchmark"]},
                     n_params=N_FITTED)
    finally:
        pred.close()
    for line in cv.report(res, "MLPerf v1.1 J/sample"):
        print(line)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
    ap.add_argument("--out", default=None, help="write the table here instead of docs/accuracy/")
    ap.add_argument("--roofline-only", action="store_true", help="skip the joules-per-op set")
    ap.add_argument("--no-cv", action="store_true", help="skip the cross-validation")
    a = ap.parse_args()
    rows = ac.read_rows(a.rows)
    how = ("`joulecast estimate` of the benchmark's network (models/resnet50.onnx; models/bert_large.onnx "
           "at the effective sequence length %d fitted to the BERT rows, see tools/fit_efficiency.py) on "
           "the row's accelerator and count, int8, batch %d (Offline) / %d (Server), PUE 1; J/sample = "
           "predicted facility (= wall at PUE 1) energy / samples. The systems the hwdb names (DGX A100, "
           "DGX Station A100) are given with --host, the others take one whole host of their system class "
           "(sourced host_class_* constants, not fitted); rows whose GPU power limit the submission published "
           "(MaxQ configurations, the XE8545's 500 W parts) run with --power-limit; "
           "extra flags: %s." % (bert_seq(), BATCH["Offline"], BATCH["Server"], " ".join(EXTRA) or "none"))
    scope = ("AC wall power of the whole system under test (accelerators, host CPUs, memory, fans, PSU "
             "losses), SPEC PTDaemon, as recomputed by the calibration file from the raw power logs; "
             "J/sample = average wall power / samples per second.")
    cvs = None
    if not a.no_cv:
        res = crossvalidate(rows)
        cvs = ac.cv_summary(res, {"group": lambda r: "%s %s" % (r["benchmark"], r["scenario"])})
        how += (" Cross-validated: each fold refits the engine efficiency, the BERT effective sequence and "
                "the GPU power coefficient k_compute without its accelerator or benchmark; the host classes "
                "and the DRAM energy per bit are sourced, not fitted.")
    ac.write_set("mlperf", "MLPerf Inference v1.1 (ResNet-50, BERT-99; Offline, Server)", "J/sample",
                 how + " Method: roofline (device power from utilisation).", scope, score_rows(rows),
                 out_dir=a.out, cv=cvs,
                 targets="leave-one-device-out median |error| of J/sample <= 15% (issue #30)")
    if not a.roofline_only:
        ac.write_set("mlperf_jop", "MLPerf Inference v1.1, joules-per-op method", "J/sample",
                     how + " Method: --method joules-per-op (device idle power + measured energy per int8 "
                     "operation, tools/fit_jop.py).", scope,
                     score_rows(rows, ["--method", "joules-per-op"]), out_dir=a.out,
                     targets="scored beside the roofline method (issue #17 item 4)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
