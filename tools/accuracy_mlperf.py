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
  models/bert_large.onnx bound at SQuAD v1.1's mean unpadded sequence
  (BERT_SEQ, sourced);
  int8 is the precision of the closed-division submissions.
  --host names the system when the hwdb has it (DGX A100, DGX Station A100,
  DGX H100, and the v3.1 systems from their own descriptions: HOSTS);
  otherwise --hosts 1: one whole server of the device count's system class
  (sourced, not fitted: hwdb/energy-model.yaml host_class_*).
  --power-limit W where the row gives the MaxQ submission's GPU power
  limit (column power_limit_w, from the submission's configuration).
  --runtime: the vendor's engine (VENDOR_RUNTIME: tensorrt for NVIDIA,
  qaic for Qualcomm's Cloud AI 100), each with its own fitted efficiency.

The v3.1 rows are tools/accuracy_mlperf_v31.py's set (the same recipe).

  python3 tools/accuracy_mlperf.py [--rows FILE] [--out DIR]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import fit_common as fc  # noqa: E402

# BERT-99 runs SQuAD v1.1 at max_seq_len 384, and the TensorRT
# submissions run unpadded, variable-length kernels, so a sample costs its
# own token count.  BERT_SEQ is that count's mean, sourced, not fitted:
# Zhang, Wang, Jin, Cao, "Reducing BERT Computation by Padding Removal and
# Curriculum Learning", ISPASS 2021 (doi:10.1109/ispass51385.2021.00025):
# padding is 54% of the input tokens of SQuAD v1.1 at max sequence length
# 384, so the mean sequence is (1 - 0.54) x 384 = 176.6 tokens (177; the
# rounded 54% allows 174.7-178.6).  The paper does not say which split it
# counted; the MLPerf set is the dev split (10,833 features, doc stride
# 128).  Running every sample at the mean length is exact for the linear
# layers; attention's L^2 terms are about 3% of BERT-Large's work at that
# length (L / 6d, d = 1024), so the spread of L moves a sample's cost by
# well under that.
BERT_SEQ = 177


def model_args(bench, seq=None):
    """The workload of each benchmark (what is fixed by the MLPerf rules);
    BERT-99 and BERT-99.9 run the same network (BERT-Large)."""
    if bench == "resnet50":
        return ["models/resnet50.onnx"]
    return ["models/bert_large.onnx", "--dim", "sequence=%d" % (seq or BERT_SEQ)]
# batch of the prediction: Offline is throughput-bound (a large batch);
# Server batches fewer queries under its latency bound; SingleStream and
# MultiStream take the scenario's own batch (--scenario: 1 and 8 samples
# per query, MLPerf Inference rules).
BATCH = {"Offline": 256, "Server": 64}
SCENARIO = {"Offline": "offline", "Server": "server", "SingleStream": "singlestream", "MultiStream": "multistream"}
# systems the hwdb names (exact match on the row's system text)
HOSTS = {
    "NVIDIA DGX A100 (8x A100-SXM-80GB, MaxQ, TensorRT)": "nvidia-dgx-a100",
    "NVIDIA DGX Station A100 (4x A100-SXM-80GB, MaxQ, TensorRT)": "nvidia-dgx-station-a100",
    "NVIDIA DGX H100 (8x H100-SXM-80GB, MaxQ, TensorRT)": "nvidia-dgx-h100",
    # the v3.1 systems, each from its own description (tools/hwdb_input/mlperf_systems.csv)
    "Gigabyte G482-Z54 (8x H100-PCIe-80GB, MaxQ, TensorRT)": "gigabyte-g482-z54-h100-pcie",
    "Dell PowerEdge XR5610 (1x L4, MaxQ, TensorRT)": "dell-xr5610-l4",
    "PCSPECIALIST AMD AM5 PC with Nvidia RTX 4090": "pcspecialist-am5-rtx4090",
    "HPE ProLiant e920d (4x QAIC100 Standard)": "hpe-e920d-qaic-std",
    "GIGABYTE G292-Z43 (16x QAIC100 Pro, EE)": "gigabyte-g292-z43-qaic-pro",
    "GIGABYTE R282-Z93 (5x QAIC100 Pro, EE)": "gigabyte-r282-z93-qaic-pro",
    "GIGABYTE R282-Z93 (8x QAIC100 Pro, EE)": "gigabyte-r282-z93-qaic-pro",
    "Lenovo ThinkEdge SE450 Edge Server (4x QAIC100 Standard)": "lenovo-se450-qaic-std",
}
EXTRA = ["--runtime", "engine"]   # TensorRT submissions: the inference-engine profile
# each vendor's inference engine: its runtime profile (src/estimate/runtimes.def) and the
# profile's matrix-efficiency constant the throughput fit refits (issue 41: Qualcomm's
# compiler has its own profile, not TensorRT's)
VENDOR_RUNTIME = {"NVIDIA": (EXTRA, "runtime_engine_eta_matrix"),
                  "QUALCOMM": (["--runtime", "qaic"], "runtime_qaic_eta_matrix")}
# The precision a submission runs: int8 (closed-division ResNet-50 and
# BERT-99); BERT-99.9's accuracy target needs fp16 (Cloud AI 100 and RTX
# 4090 rows: 1.8-2.5x slower than their BERT-99) except on Hopper, whose
# BERT engines run FP8 for both targets (NVIDIA Technical Blog, "NVIDIA
# Hopper Sweeps AI Inference Benchmarks in MLPerf Debut", 2022: FP8 through
# the Transformer Engine at BERT's 99.9% target).
HOPPER = ("nvidia-h100-pcie", "nvidia-h100-sxm5")
# How a vendor's BERT program runs the SQuAD samples, where it does not run
# them one by one at their own length (NVIDIA's TensorRT engines: unpadded,
# variable-length, BERT_SEQ above).  Qualcomm's submissions (the KILT harness,
# krai/ck-qaic: program/packed-bert-qaic-loadgen packs the samples into
# 384-token segments, pack.cpp; package/model-qaic-compile-bert/install.sh
# compiles BERT with -onnx-define-symbol=batch_size,1 and seg_length,384 on 4
# AI cores with -aic-ddr-to-multicast: one 384-token pack per program
# invocation, the weights streamed from the card's DRAM for each) are run as
# that program: BERT at sequence 384, batch 1 per card.  Offline and Server
# queue samples for the packer, so a pack holds PACK_TOKENS / BERT_SEQ =
# 2.17 samples (every slot filled: an upper bound of the packer's fill);
# SingleStream has one sample per query, so its pack holds one.
PACKED = {"QUALCOMM": 384}


# How many of the card's AI cores one program instance runs on, where the
# vendor's harness compiles it for fewer than the card has: Qualcomm's BERT
# (krai/ck-qaic package/model-qaic-compile-bert/install.sh: qaic-exec
# -aic-num-cores=4, int8 and fp16 alike).  Offline and Server run as many
# instances as the card's cores hold, so the card is full; a SingleStream
# query is one pack on ONE instance: its compute takes cores / 4 times the
# whole card's (program_query), and the system's static power (the idle
# cards, the host at its usage) is paid over that longer query.
PROGRAM_CORES = {"QUALCOMM": 4}


def pack(row):
    """(pack length, samples per pack) of a packed-BERT row, or None."""
    n = PACKED.get(vendor(row))
    if not n or not row["benchmark"].startswith("bert"):
        return None
    return n, (n / float(BERT_SEQ) if row["scenario"] in BATCH else 1.0)


def precision(row):
    if row["benchmark"].startswith("bert") and row["device"] in HOPPER:
        return "fp8"
    return "fp16" if row["benchmark"] == "bert-99.9" else "int8"


def batch_args(row):
    """--batch for Offline/Server, the scenario's own batch otherwise."""
    b = BATCH.get(row["scenario"])
    if b:
        return ["--batch", str(b), "--requests", str(b * 64)]
    return ["--requests", "512"]


def vendor(row):
    """The accelerator's vendor, as the row's accelerator text starts."""
    return row["accelerator"].split(" ")[0].upper()


def eta_id(row):
    """The matrix-efficiency constant of the row's runtime profile."""
    return VENDOR_RUNTIME[vendor(row)][1]


def recipe(row, seq=None):
    """The joulecast arguments for one row, or (None, reason)."""
    if not row["device"]:
        return None, "accelerator %s is not in the hwdb" % row["accelerator"]
    if vendor(row) not in VENDOR_RUNTIME:
        return None, "no runtime profile models %s's inference engine (profiles: %s)" % (
            row["accelerator"], ", ".join(" ".join(v[0]) for v in VENDOR_RUNTIME.values()))
    pk = pack(row)
    args = ["estimate"] + model_args(row["benchmark"], pk[0] if pk else seq) + [
        "--device", row["device"], "--count", row["devices"], "--precision", precision(row)] + (
        ["--batch", "1", "--requests", "1024"] if pk and row["scenario"] in BATCH else batch_args(row)) + [
        "--pue", "1", "--ci", "400", "--scenario", SCENARIO[row["scenario"]]]
    if row.get("power_limit_w"):   # the MaxQ submission's stated GPU power limit
        args += ["--power-limit", row["power_limit_w"]]
    host = HOSTS.get(row["system"])
    if host:
        args += ["--host", host]
    elif int(row["devices"]) <= 8:   # one whole server of the device's system class, as metered at the wall
        args += ["--hosts", "1"]
    # more than 8 accelerators in one server (a 16-card Cloud AI 100 box): no
    # class holds them; the device count's share of 8-device servers
    return args + VENDOR_RUNTIME[vendor(row)][0], None


def predict(row, extra=(), seq=None):
    """(JSON result, None) or (None, reason) for one row."""
    args, why = recipe(row, seq)
    if args is None:
        return None, why
    js, err = ac.run_jc(args + list(extra))
    if js is None:
        return None, err
    pk = pack(row)
    if pk and row["scenario"] not in BATCH and PROGRAM_CORES.get(vendor(row)):
        js, err = program_query(row, args, extra, js)
        if js is None:
            return None, err
    if pk and pk[1] != 1.0:   # a pass is one pack of pk[1] samples (PACKED)
        js["work"]["samples"] *= pk[1]
        j = js["results"].get("j_per_sample") or {}
        for k in ("low", "central", "high"):
            if j.get(k) is not None:
                j[k] /= pk[1]
    return js, None


_CORES = {}


def device_cores(dev):
    """The device's core count (hwdb sm_count: a Cloud AI 100's AI cores), or None."""
    if dev not in _CORES:
        js, _ = ac.run_jc(["hw", "show", dev])
        _CORES[dev] = ((js or {}).get("sm_count") or {}).get("value")
    return _CORES[dev]


def program_query(row, args, extra, js):
    """A one-query-at-a-time row whose program runs on PROGRAM_CORES of the
    card's cores (PROGRAM_CORES): the query's time is the larger of the
    whole card's (js, memory-bound: the weights stream once either way) and
    the card's time for cores / PROGRAM_CORES such queries at once (its
    compute at the instance's share of the cores); the extra time is paid
    at the system's static power of js (idle devices + host), its dynamic
    energy is the query's own.  (JSON result, None) or (None, reason)."""
    cores = device_cores(row["device"])
    k = (cores or 0) / PROGRAM_CORES[vendor(row)]
    if not k > 1:
        return js, None
    i = args.index("--scenario")
    js_k, err = ac.run_jc(args[:i] + ["--scenario", "offline", "--batch", "%g" % k] + args[i + 2:] + list(extra))
    if js_k is None:
        return None, err
    res = js["results"]
    t1, tk = res["latency_s"]["central"], js_k["results"]["latency_s"]["central"]
    wall = res["wall_hours"]["central"] * 3600.0
    p_static = (res["energy_idle_kwh"]["central"] + res["energy_host_kwh"]["central"]) * 3.6e6 / wall
    extra_j = p_static * max(tk - t1, 0.0)
    for key in ("low", "central", "high"):
        if res["j_per_sample"].get(key) is not None:
            res["j_per_sample"][key] += extra_j
    res["latency_s"]["central"] = max(t1, tk)
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
            lat = js["results"].get("latency_s") or {}
            if row.get("samples_per_s"):
                r["note"] = "throughput %+.0f%%" % (100 * (samples_per_s(js) / float(row["samples_per_s"]) - 1))
            elif row.get("p90_latency_ms"):   # SingleStream: the query latency against the measured p90
                r["note"] = "latency %+.0f%% of the p90" % (100 * (lat["central"] * 1e3 / float(row["p90_latency_ms"]) - 1))
            else:
                r["note"] = "latency %.3g ms a query" % (lat["central"] * 1e3)
            if hw.get("central") is not None:
                r["note"] += ", implied utilisation %.2f" % hw["central"]
            if row.get("maxq_setting"):   # what the MaxQ run set (v3.1 rows): a power limit is run, clocks are not
                r["note"] += "; MaxQ: %s%s" % (row["maxq_setting"], "" if row.get("power_limit_w") else " (not modelled)")
        out.append(r)
    return out


# Constants fitted to these rows: the engine efficiency (throughput,
# tools/fit_efficiency.py's rule).  The device power constants
# (power_k_compute_gpu, power_k_memory_gpu) are the ones every path uses,
# fitted by tools/fit_power.py to these rows' wall power and the ML.ENERGY
# serving rows' GPU power together (367 rows); each fold replays the power
# fold of tests/accuracy/power-folds.json that left out the same rows.  The
# BERT sequence (BERT_SEQ), the host classes and the DRAM energy per bit
# are sourced, not fitted.
N_FITTED = 1
ETA = "runtime_engine_eta_matrix"
POWER_IDS = ("power_k_compute_gpu", "power_k_memory_gpu")
FOLD_ROWS = os.path.join(ac.ROOT, "build", "fit", "mlperf-rows.json")


def power_folds():
    """tools/fit_power.py's folds of these rows (fit_common.power_folds)."""
    return fc.power_folds("mlperf")


def _run(row, ov, eta):
    js, err = predict(row, ov.set({eta_id(row): eta}))
    if js is None:
        raise SystemExit("accuracy_mlperf: %s: %s" % (row["id"], err))
    return js


def _ratio(row, ov, eta):
    return samples_per_s(_run(row, ov, eta)) / float(row["samples_per_s"])


# A row whose predicted time stays memory-bound even at a matrix efficiency
# of 1 (at least this share of it: e.g. BERT on a Cloud AI 100, whose
# weights stream from the card's DRAM for every 384-token pack, PACKED)
# measures the memory path, not the matrix efficiency: its per-row value
# only says where compute would start to bind, so the throughput fit leaves
# it out (throughput_fit).
MEMORY_BOUND_SHARE = 0.9


def _memory_share(row, ov):
    """The memory-bound share of the row's time at a matrix efficiency of 1."""
    return (_run(row, ov, 1.0)["results"].get("bound_share") or {}).get("memory") or 0.0


def per_row_fits(rows, cache=FOLD_ROWS):
    """Per row, the engine efficiency that matches its measured samples/s
    (bisection through the CLI, BERT at BERT_SEQ) and the memory-bound
    share of its time at an efficiency of 1: {row id: {"eta": x, "mem1":
    share}}.  Cached in build/fit/ while the binary predicts every row's
    throughput the same."""
    probe = {}
    for r in rows:
        js, _ = predict(r)
        probe[r["id"]] = samples_per_s(js) if js else None
    key = json.dumps({"samples_per_s": probe, "fields": ["eta", "mem1"]}, sort_keys=True)
    cached = fc.load_cache(cache, key, "rows")
    if cached is not None:
        return cached
    ov = fc.Overlay()
    try:
        out = {r["id"]: {"eta": fc.bisect(lambda x, r=r: _ratio(r, ov, x) - 1, 0.05, 1.0, steps=12),
                         "mem1": _memory_share(r, ov)} for r in rows}
    finally:
        ov.close()
    fc.save_cache(cache, key, "rows", out)
    return out


def throughput_fit(per, rows):
    """The engine efficiency of each runtime profile from the rows given
    that run it: the median of their per-row values (both benchmarks; as
    fit_efficiency.py), leaving out the rows that stay memory-bound at an
    efficiency of 1 (MEMORY_BOUND_SHARE; all of them where no other row
    runs the profile); a profile none of the rows runs is not fitted."""
    out = {}
    for k in sorted({eta_id(r) for r in rows}):
        mine = [r for r in rows if eta_id(r) == k]
        ident = [r for r in mine if per[r["id"]].get("mem1", 0.0) < MEMORY_BOUND_SHARE] or mine
        out[k] = ac.median([per[r["id"]]["eta"] for r in ident])
    return out


class Predictor:
    """J/sample of a row at trial constants, through the CLI (an overlay
    layer per distinct set of constants, memoised)."""

    def __init__(self):
            self.fc, self.layers, self.memo = fc, {}, {}

    def j(self, params, row):
        ck = dict(params)
        key = (tuple(sorted(ck.items())), row["id"])
        if key not in self.memo:
            lk = tuple(sorted(ck.items()))
            if lk not in self.layers:
                ov = self.fc.Overlay()
                self.layers[lk] = (ov, ov.set(ck))
            js, _ = predict(row, self.layers[lk][1])
            j = js and js["results"]["j_per_sample"]
            self.memo[key] = j["central"] if j and j.get("central") is not None else None
        return self.memo[key]

    def close(self):
        for ov, _ in self.layers.values():
            ov.close()


def fold_fit(per, pred):
    """crossval's fit: the throughput constants from the rows given, and the
    device power constants of the power fold that left out the other rows
    (tools/fit_power.py; the hwdb's where it has none)."""
    stored = power_folds()

    def fit(rows):
        p = throughput_fit(per, rows)
        left = frozenset(per) - {r["id"] for r in rows}
        if left not in stored:
            raise SystemExit("accuracy_mlperf: %s has no power fold leaving out %s: the predictable rows "
                             "changed since tools/fit_power.py wrote it; rerun tools/fit_power.py --write"
                             % (os.path.relpath(fc.POWER_FOLDS, ac.ROOT), ", ".join(sorted(left)) or "no row"))
        p.update(stored[left])
        return p
    return fit


def power_rows():
    """Rows of the joint power fit (tools/fit_power.py), 0 without its file."""
    try:
        with open(fc.POWER_FOLDS) as f:
            return sum(json.load(f)["rows"].values())
    except (OSError, ValueError, KeyError):
        return 0


def predictable(rows):
    """The rows the harness can predict (a recipe for the row's device and
    benchmark); the others are listed as not predicted, with why."""
    return [r for r in rows if recipe(r)[0] is not None]


def crossvalidate(rows):
    """tools/crossval.py over the predictable rows: leave-one-device-out
    (accelerator) and leave-one-benchmark-out (model family); every fold
    refits the engine efficiency without its rows (BERT runs at the
    sourced BERT_SEQ in every fold) and takes the device power constants
    of the power fold that left them out (tools/fit_power.py)."""
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
    # the count crossval checks is the fit's own (the device power constants
    # are replayed from tools/fit_power.py's folds, counted against its rows)
    fitted = sorted(k for k in res["in_sample"]["params"] if k not in POWER_IDS)
    if len(fitted) != N_FITTED:
        raise SystemExit("accuracy_mlperf: the folds fit %d constants (%s), N_FITTED says %d"
                         % (len(fitted), ", ".join(fitted), N_FITTED))
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
           "at a sequence of %d tokens, SQuAD v1.1's mean unpadded length (Zhang et al., ISPASS 2021: 54%% "
           "of the tokens at 384 are padding; sourced, not fitted)) on "
           "the row's accelerator and count, int8, batch %d (Offline) / %d (Server), PUE 1; J/sample = "
           "predicted facility (= wall at PUE 1) energy / samples. The systems the hwdb names (DGX A100, "
           "DGX Station A100) are given with --host, the others take one whole host of their system class "
           "(sourced host_class_* constants, not fitted); rows whose GPU power limit the submission published "
           "(MaxQ configurations, the XE8545's 500 W parts) run with --power-limit; "
           "extra flags: %s." % (BERT_SEQ, BATCH["Offline"], BATCH["Server"], " ".join(EXTRA) or "none"))
    scope = ("AC wall power of the whole system under test (accelerators, host CPUs, memory, fans, PSU "
             "losses), SPEC PTDaemon, as recomputed by the calibration file from the raw power logs; "
             "J/sample = average wall power / samples per second.")
    cvs = res = None
    if not a.no_cv:
        res = crossvalidate(rows)
        cvs = ac.cv_summary(res, {"group": lambda r: "%s %s" % (r["benchmark"], r["scenario"])})
        how += (" Cross-validated: each fold refits the engine efficiency (to its rows' samples/s, both "
                "benchmarks) without its accelerator or benchmark and takes the device power constants "
                "(power_k_compute_gpu, power_k_memory_gpu: one set for every device and path) that tools/fit_power.py "
                "fitted without the same rows, to these rows' wall power and the ML.ENERGY serving rows' GPU power "
                "together (the fitted constant counted here is the throughput one; the power ones are counted "
                "against the %d rows of their joint fit); the BERT sequence, the host classes and the DRAM energy "
                "per bit are sourced, not fitted." % power_rows())
    ac.write_set("mlperf", "MLPerf Inference v1.1 (ResNet-50, BERT-99; Offline, Server)", "J/sample",
                 how + " Method: roofline (device power from utilisation).", scope, score_rows(rows),
                 out_dir=a.out, cv=cvs,
                 targets="leave-one-device-out median |error| of J/sample <= 15% (issue #30)")
    if not a.roofline_only:
        import fit_jop
        jcv = jres = None
        if not a.no_cv:
            jres, _ = fit_jop.crossvalidate(rows)
            jcv = ac.cv_summary(jres, {"group": lambda r: "%s %s" % (r["benchmark"], r["scenario"])})
        ac.write_set("mlperf_jop", "MLPerf Inference v1.1, joules-per-op method", "J/sample",
                     how + " Method: --method joules-per-op (device idle power + the device's spec-derived "
                     "energy per int8 operation, (TDP - idle) / peak, x jop_op_energy_scale, one constant for "
                     "every device fitted to these rows by tools/fit_jop.py; cross-validated: each fold refits "
                     "it without its accelerator or benchmark).", scope,
                     score_rows(rows, ["--method", "joules-per-op"]), out_dir=a.out, cv=jcv,
                     extra_lines=fit_jop.measured_lines(rows, jres, res), script="mlperf",
                     targets="scored beside the roofline method (issue #17 item 4); no constant keyed by a "
                     "device (issue #30)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
