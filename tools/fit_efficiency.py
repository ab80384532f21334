#!/usr/bin/env python3
"""fit_efficiency.py - fits the engine runtime profile's matrix efficiency
(runtime_engine_eta_matrix, the TensorRT profile) to the measured
throughput of the MLPerf Inference v1.1 rows (tests/accuracy/
mlperf-v1.1.csv, copied from ../shared/data/calibration/
mlperf-inference-v1.1.yaml), ResNet-50 and BERT-99 alike.

For every row, the value that makes the predicted samples/s equal the
measured one (bisection through the CLI, the harness's own recipe with
its power limits; BERT at the sourced mean SQuAD v1.1 sequence,
tools/accuracy_mlperf.py BERT_SEQ); central = their median, low/high =
their 10th / 90th percentiles.  --write stores them in
hwdb/energy-model.yaml.  The cross-validation folds of `make accuracy`
refit it the same way (tools/accuracy_mlperf.py throughput_fit).

  python3 tools/fit_efficiency.py [--write]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402


DERIVED = ("fitted to the MLPerf Inference v1.1 power results (mlcommons/inference_results_v1.1@7fc43356) "
           "ResNet-50 and BERT-99 rows (the %d predicted rows of tests/accuracy/mlperf-v1.1.csv: measured "
           "samples/s; MaxQ rows at their published GPU power limit; BERT at %d tokens, SQuAD v1.1's mean "
           "unpadded sequence, sourced in tools/accuracy_mlperf.py) by tools/fit_efficiency.py: the median "
           "of the per-row values that make the predicted samples per second the measured one; range = the "
           "10th-90th percentile of the per-row values")


def main():
    """The per-row values are tools/accuracy_mlperf.py's (per_row_fits: the
    bisections through the CLI, cached), their median its throughput_fit:
    one implementation for this script and the cross-validation folds."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted value")
    a = ap.parse_args()
    rs = mp.predictable(ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv")))
    per = mp.per_row_fits(rs)
    c = mp.throughput_fit(per, rs)[mp.ETA]
    eta = [per[r["id"]]["eta"] for r in rs]
    for r in rs:
        print("  %-70s eta %.3f" % (r["id"], per[r["id"]]["eta"]))
    for b in sorted({r["benchmark"] for r in rs}):
        print("  median of the %s rows: %.4f" % (b, ac.median([per[r["id"]]["eta"] for r in rs
                                                              if r["benchmark"] == b])))
    lo, hi = fc.percentile(eta, 0.1), fc.percentile(eta, 0.9)
    spread = {}
    for name, key in (("device", "device"), ("benchmark", "benchmark")):
        v = [mp.throughput_fit(per, [r for r in rs if r[key] != k])[mp.ETA] for k in sorted({r[key] for r in rs})]
        spread[name] = (min(v), max(v))
    print("%s = %.4f [%.4f-%.4f] (%d rows; %s)" % (mp.ETA, c, lo, hi, len(eta), "; ".join(
        "leave-one-%s-out folds %.4f-%.4f" % (k, *v) for k, v in spread.items())))
    if a.write:
        fc.write_constant(mp.ETA, round(c, 4), round(lo, 4), round(hi, 4))
        fc.write_text(mp.ETA, "derived", DERIVED % (len(eta), mp.BERT_SEQ) + "; spread over the cross-validation "
                      "folds (docs/accuracy.md): " + ", ".join("leave-one-%s-out %.3f-%.3f" % (k, *v)
                                                                for k, v in spread.items()))
        print("wrote hwdb/energy-model.yaml (%s)" % mp.ETA)


if __name__ == "__main__":
    main()
