#!/usr/bin/env python3
"""fit_qaic.py - fits the Qualcomm Cloud AI SDK runtime profile's matrix
efficiency (runtime_qaic_eta_matrix, `--runtime qaic`, src/estimate/
runtimes.def h41 block) to the measured throughput of the Cloud AI 100
rows of the MLPerf Inference v3.1 set (tests/accuracy/mlperf-v3.1.csv,
Offline and Server: the scenarios that measure samples/s).

For every row, the value that makes the predicted samples/s equal the
measured one (bisection through the CLI with the set's own recipe,
tools/accuracy_mlperf.py per_row_fits; BERT as Qualcomm's harness runs
it, 384-token packs of the sourced mean SQuAD v1.1 sequence, PACKED);
central = the median over the rows that are not memory-bound at an
efficiency of 1 (throughput_fit), low/high = their 10th / 90th
percentiles.  The leave-one-hardware-out value (the Pro rows' fold from
the Standard rows and the other way round) is printed beside it: the
cross-validation of tools/accuracy_mlperf_v31.py refits it the same way
(accuracy_mlperf.throughput_fit).  --write stores it in
hwdb/energy-model.yaml.

  python3 tools/fit_qaic.py [--rows FILE] [--write]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

ETA = "runtime_qaic_eta_matrix"
CACHE = os.path.join(ac.ROOT, "build", "fit", "mlperf-rows-qaic.json")
DERIVED = ("fitted to the MLPerf Inference v3.1 power results (mlcommons/cm4mlperf-results@84d8b84c) Qualcomm "
           "Cloud AI 100 rows (the %d Offline and Server rows of tests/accuracy/mlperf-v3.1.csv on %s: measured "
           "samples/s; ResNet-50 int8, BERT-99 int8, BERT-99.9 fp16 at %d tokens, SQuAD v1.1's mean unpadded "
           "sequence, sourced in tools/accuracy_mlperf.py; BERT as Qualcomm's harness runs it, one 384-token pack of "
           "2.17 samples per program invocation) by tools/fit_qaic.py: the median of the per-row values that make "
           "the predicted samples per second the measured one, over the rows whose time is not memory-bound at "
           "an efficiency of 1 (%s of them: BERT's weights stream from the card's DRAM for every pack, so its "
           "rows measure the memory path); range = the 10th-90th percentile of those rows' values")


def qaic_rows(rows):
    """The rows that run the profile and measure throughput."""
    return [r for r in mp.predictable(rows) if mp.eta_id(r) == ETA and r.get("samples_per_s")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v3.1.csv"))
    ap.add_argument("--write", action="store_true", help="write the fitted value")
    a = ap.parse_args()
    rs = qaic_rows(ac.read_rows(a.rows))
    if not rs:
        raise SystemExit("fit_qaic: no row of %s runs --runtime qaic" % a.rows)
    per = mp.per_row_fits(rs, CACHE)
    eta = [per[r["id"]]["eta"] for r in rs if per[r["id"]]["mem1"] < mp.MEMORY_BOUND_SHARE] or [
        per[r["id"]]["eta"] for r in rs]
    for r in rs:
        print("  %-60s eta %.3f, memory-bound share at 1: %.2f" % (r["id"], per[r["id"]]["eta"], per[r["id"]]["mem1"]))
    c = mp.throughput_fit(per, rs)[ETA]
    lo, hi = fc.percentile(eta, 0.1), fc.percentile(eta, 0.9)
    folds = {}
    for name, key in (("hardware", "device"), ("benchmark", "benchmark")):
        folds[name] = ["without %s %.3f" % (k, mp.throughput_fit(per, [r for r in rs if r[key] != k])[ETA])
                       for k in sorted({r[key] for r in rs}) if any(r[key] != k for r in rs)]
    print("%s = %.4f [%.4f-%.4f] (%d rows); %s" % (ETA, c, lo, hi, len(rs), "; ".join(
        "leave-one-%s-out: %s" % (k, ", ".join(v)) for k, v in folds.items())))
    if a.write:
        devs = ", ".join(sorted({r["device"] for r in rs}))
        fc.write_constant(ETA, round(c, 4), round(lo, 4), round(hi, 4))
        n_id = sum(1 for r in rs if per[r["id"]].get("mem1", 0.0) < mp.MEMORY_BOUND_SHARE)
        fc.write_text(ETA, "derived", DERIVED % (len(rs), devs, mp.BERT_SEQ, n_id) + "; folds: " + "; ".join(
            "leave-one-%s-out %s" % (k, ", ".join(v)) for k, v in folds.items()))
        print("wrote hwdb/energy-model.yaml (%s)" % ETA)
    return 0


if __name__ == "__main__":
    sys.exit(main())
