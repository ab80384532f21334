#!/usr/bin/env python3
"""accuracy_mlperf_v31.py - the MLPerf Inference v3.1 set of `make accuracy`
(issue 41): whole systems as metered, in every scenario.

Predicts the J/sample (AC wall power of the whole system, PUE 1) of every
row of tests/accuracy/mlperf-v3.1.csv (tools/mlperf_v31_rows.py copies the
measured rows, inferred = 0, from the calibration file) by the v1.1 set's
recipe (tools/accuracy_mlperf.py: the same networks, hosts and runtime
profile) with --scenario: Offline and Server at the v1.1 batches,
SingleStream 1 and MultiStream 8 samples per query, one query at a time.
Each row is scored; the v1.1 and v3.1 rows are cross-validated together,
leave-one-hardware-out (the accelerator: the Orin submissions under four
system names are one fold) and leave-one-benchmark-out, with the medians
by scenario, system kind and round.

  python3 tools/accuracy_mlperf_v31.py [--rows FILE] [--rows31 FILE] [--out DIR] [--no-cv]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as am  # noqa: E402
import fit_host_latency as fhl  # noqa: E402

FOLD_ROWS_ALL = os.path.join(ac.ROOT, "build", "fit", "mlperf-rows-v11-v31.json")


def kind(row):
    """The system kind a row's hardware is (the v3.1 rows carry it; the
    v1.1 rows by device and count as the host classes)."""
    if row.get("kind"):
        return row["kind"]
    n = int(row["devices"])
    if "jetson" in row["device"]:
        return "embedded"
    return "server2" if n <= 2 else "server4" if n <= 4 else "server8"


def family(row):
    """The network a benchmark runs (BERT-99 and BERT-99.9: BERT-Large)."""
    return "bert" if row["benchmark"].startswith("bert") else row["benchmark"]


def crossvalidate_all(rows11, rows31):
    """tools/crossval.py over the v1.1 and v3.1 rows together (issue 41):
    leave-one-hardware-out (the accelerator: every system and count of it,
    e.g. the Orin submissions under four names are one fold) and
    leave-one-benchmark-out (the network); every fold refits the engine
    efficiency to the Offline/Server rows it keeps (SingleStream and
    MultiStream rows measure no throughput) and takes the device power
    constants of tools/fit_power.py's fold that left out the same v1.1 rows
    (the v3.1 rows are in no power fit: out of sample in every fold)."""
    import crossval as cv
    rs = am.predictable(rows11) + am.predictable(rows31)
    per = am.per_row_fits([r for r in rs if r.get("samples_per_s")], FOLD_ROWS_ALL)
    v11 = frozenset(r["id"] for r in am.predictable(rows11))
    stored = am.power_folds()
    pred = am.Predictor()

    def fit(train):
        p = am.throughput_fit(per, [r for r in train if r["id"] in per])
        left = v11 - {r["id"] for r in train}
        if left not in stored:
            raise SystemExit("accuracy_mlperf: no power fold leaving out %s; rerun tools/fit_power.py --write"
                             % (", ".join(sorted(left)) or "no row"))
        p.update(stored[left])
        # the latency-bound scenarios' host usage, refitted to the fold's SingleStream / MultiStream rows
        # at the fold's other constants (tools/fit_host_latency.py)
        lat = fhl.latency_rows(train)
        u = fhl.fit_u(fhl.linear_parts(pred.j, p, lat), lat)
        if u is not None:
            p[fhl.U] = u
        return p
    # the fitted constants: each runtime profile's engine efficiency (TensorRT's; Qualcomm's compiler's
    # runtime_qaic_eta_matrix, whose hardware fold refits it to the other Cloud AI 100 variant's rows) and the
    # latency-bound scenarios' host usage (host_cpu_usage_latency_bound)
    n_fit = len({am.eta_id(r) for r in rs}) + (1 if fhl.latency_rows(rs) else 0)
    try:
        res = cv.run(rs, fit, pred.j, lambda r: float(r["j_per_sample"]),
                     {"hardware": lambda r: r["device"], "benchmark": family}, n_params=n_fit)
    finally:
        pred.close()
    for line in cv.report(res, "MLPerf v1.1 + v3.1 J/sample"):
        print(line)
    return res


def write_v31(a):
    """The v3.1 set (issue 41): the v3.1 rows' table, cross-validated
    together with the v1.1 rows (crossvalidate_all)."""
    r11, r31 = ac.read_rows(a.rows), ac.read_rows(a.rows31)
    cvs = None
    if not a.no_cv:
        res = crossvalidate_all(r11, r31)
        cvs = ac.cv_summary(res, {"scenario": lambda r: r["scenario"], "kind": kind,
                                  "round": lambda r: "v3.1" if r["id"].startswith("mlperf-v31") else "v1.1"})
    how = ("`joulecast estimate` of the benchmark's network (models/resnet50.onnx; models/bert_large.onnx at %d "
           "tokens, as the v1.1 set; BERT-99.9 the same network) with --scenario (offline, server at batch %d / %d; "
           "singlestream 1 and multistream 8 samples per query, one query at a time) on the row's accelerator and "
           "count, int8 (BERT-99.9 fp16; BERT on the H100 fp8, NVIDIA's Hopper engines), PUE 1; J/sample = "
           "predicted facility (= wall at PUE 1) energy / samples. Hosts: the systems the hwdb names with --host (DGX H100; "
           "the other datacentre, edge and workstation systems from their own MLPerf system descriptions: CPUs at TDP, "
           "memory, network adapters over the supply's efficiency, tools/hwdb_input/mlperf_systems.csv), the Jetson "
           "systems one whole host of their class (--hosts 1: carrier board and adapter); --runtime tensorrt "
           "(NVIDIA's engine) and --runtime qaic (Qualcomm's Cloud AI SDK, the Cloud AI 100 rows: its own "
           "matrix efficiency runtime_qaic_eta_matrix, tools/fit_qaic.py; its BERT program runs on 4 of the card's 16 AI "
           "cores (krai/ck-qaic: -aic-num-cores=4), so a SingleStream query, one program instance, takes the card's time "
           "for 4 such queries at once and pays the system's static power over it). MaxQ runs: the GPU power limit NVIDIA's "
           "v3.1 harness configuration set (DGX H100 300-450 W, the H100 PCIe server 210-305 W; the row's power_limit_source) "
           "with --power-limit; the XR5610's L4 runs at its default (its MaxQ class sets no limit); the Jetson MaxQ runs fix "
           "their clocks (GPU 510-714 MHz), which joulecast does not model: those rows run at the module's default clocks "
           "(the row's note). The host's usage: an inference engine's (host_cpu_usage_inference) in Offline and Server, the "
           "latency-bound scenarios' (host_cpu_usage_latency_bound, tools/fit_host_latency.py) in SingleStream and "
           "MultiStream. Method: roofline." % (am.BERT_SEQ, am.BATCH["Offline"], am.BATCH["Server"]))
    if cvs:
        how += (" Cross-validated over the v1.1 and v3.1 rows together: leave-one-hardware-out (the accelerator, "
                "every system and count of it: the Orin submissions under four names are one fold) and "
                "leave-one-benchmark-out (ResNet-50, BERT); each fold refits each runtime profile's engine "
                "efficiency (tensorrt, qaic) to the Offline/Server rows it keeps that run it (the fold without "
                "a Cloud AI 100 variant: the other variant's rows), the latency-bound scenarios' host usage to the "
                "SingleStream/MultiStream rows it keeps, and takes the device power constants tools/fit_power.py fitted "
                "without the same v1.1 rows (no v3.1 row is in any power fit).")
    scope = ("AC wall power of the whole system under test (SPEC PTDaemon), MLCommons' export of the official "
             "results (average system power, or energy per query for SingleStream and MultiStream); measured "
             "rows only (inferred = 0).")
    ac.write_set("mlperf_v31", "MLPerf Inference v3.1 (ResNet-50, BERT-99/-99.9; Offline, Server, SingleStream, "
                 "MultiStream)", "J/sample", how, scope, am.score_rows(r31), out_dir=a.out, cv=cvs,
                 targets="leave-one-hardware-out median |error| of J/sample <= 12% over v1.1 + v3.1; Offline, "
                 "Server and each system kind <= 20% (issue 41)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
    ap.add_argument("--rows31", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v3.1.csv"))
    ap.add_argument("--out", default=None, help="write the table here instead of docs/accuracy/")
    ap.add_argument("--no-cv", action="store_true", help="skip the cross-validation")
    write_v31(ap.parse_args())
    return 0


if __name__ == "__main__":
    sys.exit(main())
