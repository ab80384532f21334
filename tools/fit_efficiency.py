#!/usr/bin/env python3
"""fit_efficiency.py - fits the engine runtime profile's matrix efficiency
and the BERT rows' effective sequence length to the measured throughput
of the MLPerf Inference v1.1 rows (tests/accuracy/mlperf-v1.1.csv, copied
from ../shared/data/calibration/mlperf-inference-v1.1.yaml).

1. runtime_engine_eta_matrix: for every ResNet-50 row, the value that
   makes the predicted samples/s equal the measured one (bisection through
   the CLI, the harness's own recipe); central = their median, low/high =
   their 10th / 90th percentiles.  Written into hwdb/energy-model.yaml.
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


def rows():
    return [r for r in ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
            if mp.recipe(r)[0] is not None and r["device"] != "nvidia-jetson-agx-xavier"]


def ratio(row, ov, consts, seq=None):
    js, err = mp.predict(row, ov.set(consts), seq)
    if js is None:
        raise SystemExit("fit: %s: %s" % (row["id"], err))
    return mp.samples_per_s(js) / float(row["samples_per_s"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the fitted values")
    a = ap.parse_args()
    ov = fc.Overlay()
    try:
        rs = rows()
        eta = []
        for r in [r for r in rs if r["benchmark"] == "resnet50"]:
            e = fc.bisect(lambda x: ratio(r, ov, {"runtime_engine_eta_matrix": x}) - 1, 0.05, 1.0, steps=12)
            eta.append(e)
            print("  %-70s eta %.3f" % (r["id"], e))
        c = ac.median(eta)
        lo, hi = fc.percentile(eta, 0.1), fc.percentile(eta, 0.9)
        print("runtime_engine_eta_matrix = %.3f [%.3f-%.3f] (%d ResNet-50 rows)" % (c, lo, hi, len(eta)))
        seqs = []
        for r in [r for r in rs if r["benchmark"] == "bert-99"]:
            def f(x, r=r):
                return ratio(r, ov, {"runtime_engine_eta_matrix": c}, seq=int(round(x))) - 1
            sq = fc.bisect(f, 32, 384, steps=9, increasing=False)
            seqs.append(sq)
            print("  %-70s effective sequence %.0f" % (r["id"], sq))
        S = int(round(ac.median(seqs)))
        print("BERT effective sequence = %d [%.0f-%.0f] (%d BERT rows)" % (
            S, fc.percentile(seqs, 0.1), fc.percentile(seqs, 0.9), len(seqs)))
        if a.write:
            fc.write_constant("runtime_engine_eta_matrix", c, lo, hi)
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
    finally:
        ov.close()


if __name__ == "__main__":
    main()
