#!/usr/bin/env python3
"""fit_efficiency.py - fits the engine runtime profile's matrix efficiency
and the BERT rows' effective sequence length to the measured throughput
of the MLPerf Inference v1.1 rows (tests/accuracy/mlperf-v1.1.csv, copied
from ../shared/data/calibration/mlperf-inference-v1.1.yaml).

1. runtime_engine_eta_matrix: for every ResNet-50 row, the value that
   makes the predicted samples/s equal the measured one (bisection through
   the CLI, the harness's own recipe with its power limits); central =
   their median, low/high = their 10th / 90th percentiles.  Written into
   hwdb/energy-model.yaml.
2. With that efficiency, the BERT-99 rows' effective sequence length: per
   row the length that matches the measured samples/s; the median is
   written to tests/accuracy/mlperf-fitted.json (the harness reads it).

  python3 tools/fit_efficiency.py [--write]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402


def main():
    """The per-row values are tools/accuracy_mlperf.py's (per_row_fits: the
    bisections through the CLI, cached), their medians its throughput_fit:
    one implementation for this script and the cross-validation folds."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted values")
    a = ap.parse_args()
    rs = mp.predictable(ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv")))
    per = mp.per_row_fits(rs)
    fit = mp.throughput_fit(per, rs)
    eta = [per[r["id"]]["eta"] for r in rs if r["benchmark"] == "resnet50"]
    seqs = [per[r["id"]]["seq"] for r in rs if r["benchmark"] == "bert-99"]
    for r in rs:
        print("  %-70s %s" % (r["id"], " ".join("%s %.3f" % kv for kv in sorted(per[r["id"]].items()))))
    c = fit["runtime_engine_eta_matrix"]
    lo, hi = fc.percentile(eta, 0.1), fc.percentile(eta, 0.9)
    print("runtime_engine_eta_matrix = %.4f [%.4f-%.4f] (%d ResNet-50 rows)" % (c, lo, hi, len(eta)))
    S = int(round(fit["bert_effective_sequence"]))
    print("BERT effective sequence = %d [%.0f-%.0f] (%d BERT rows)" % (
        S, fc.percentile(seqs, 0.1), fc.percentile(seqs, 0.9), len(seqs)))
    if a.write:
        fc.write_constant("runtime_engine_eta_matrix", round(c, 4), round(lo, 4), round(hi, 4))
        with open(mp.FITTED, "w") as f:
            json.dump({"bert_effective_sequence": S,
                       "bert_effective_sequence_p10_p90": [round(fc.percentile(seqs, 0.1)),
                                                           round(fc.percentile(seqs, 0.9))],
                       "fitted_by": "tools/fit_efficiency.py",
                       "fitted_to": "the MLPerf Inference v1.1 power results (mlcommons/inference_results_v1.1@7fc43356) bert-99 rows "
                                    "(tests/accuracy/mlperf-v1.1.csv): measured samples/s",
                       "runtime_engine_eta_matrix": round(c, 4)}, f, indent=1, sort_keys=True)
            f.write("\n")
        print("wrote hwdb/energy-model.yaml (runtime_engine_eta_matrix) and %s" % mp.FITTED)


if __name__ == "__main__":
    main()
