"""parity.py - the same request through every front end gives the same
figures (issue #14 item 8): `estimate` from the file and from `-`
(standard input), the Python binding (python/joulecast, ctypes over
build/libjoulecast.so), `compare` (the model's row) and `sweep` (the one
grid point), each without and with --batch, with --op-rules for a
model with a custom op, and a data-parallel training job (the model is
counted at one device's share of the step batch by every front end).  Prints one PASS/FAIL line per case and front end.
Run by tests/parity.sh with $JC (the CLI) and $JOULECAST_LIB set."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import joulecast  # noqa: E402

JC = os.environ.get("JC", "build/joulecast")
FIGS = ("wall_hours", "energy_kwh", "co2_kg")
PLACE = ["--device", "a100", "--region", "FR", "--requests", "1000"]
PLACE_KW = {"device": "a100", "region": "FR", "requests": 1000}
TRAIN = ["--device", "a100", "--region", "FR", "--train", "--samples", "10000", "--epochs", "1", "--count", "8"]
TRAIN_KW = {"device": "a100", "region": "FR", "train": True, "samples": 10000, "epochs": 1, "count": 8}
CASES = [
    # name, model, extra CLI options, the same as binding keywords
    ("resnet18", "models/resnet18.onnx", [], {}),
    ("resnet18_batch8", "models/resnet18.onnx", ["--batch", "8"], {"batch": 8}),
    ("bert_dims", "models/bert_base.onnx", ["--batch", "4", "--dim", "sequence=64"],
     {"batch": 4, "dims": {"sequence": 64}}),
    ("custom_op_rules", "tests/models/cost/custom_fused_dense.onnx",
     ["--op-rules", "tests/models/rules/fused_dense.yaml"],
     {"op_rules": "tests/models/rules/fused_dense.yaml"}),
    ("resnet18_train_dp8", "models/resnet18.onnx", ["--batch", "64"], {"batch": 64}, TRAIN, TRAIN_KW),
]


def run(args, stdin=None):
    p = subprocess.run([JC] + args, stdin=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()[:300]))
    return json.loads(p.stdout)


def from_estimate(d):
    r = d["results"]
    return {"wall_hours": r["wall_hours"], "energy_kwh": r["energy_facility_kwh"],
            "co2_kg": r["co2_location_kg"], "batch": d["work"]["batch"]}


def same(a, b):
    for k in FIGS:
        for end in ("low", "central", "high"):
            x, y = a[k][end], b[k][end]
            if x != y and abs(x - y) > 1e-12 * max(abs(x), abs(y)):
                return "%s.%s %r != %r" % (k, end, x, y)
    if a["batch"] != b["batch"]:
        return "batch %r != %r" % (a["batch"], b["batch"])
    return None


def report(name, ref, got):
    if isinstance(got, Exception):
        print("  %s: %s" % (name, got))
        print("FAIL parity/%s" % name)
        return
    why = same(ref, got)
    if why:
        print("  %s: %s" % (name, why))
    print("%s parity/%s" % ("FAIL" if why else "PASS", name))


def main():
    for case in CASES:
        name, model, opts, kw = case[:4]
        place, place_kw = case[4:] if len(case) > 4 else (PLACE, PLACE_KW)
        where = [o for o in place if o not in ("--device", "--region", "a100", "FR")]
        try:
            ref = from_estimate(run(["estimate", model] + opts + place + ["--json"]))
        except Exception as e:  # noqa: BLE001 - reported as a failure
            print("  estimate: %s" % e)
            print("FAIL parity/%s/estimate" % name)
            continue
        print("PASS parity/%s/estimate (batch %s, %.6g kWh)" % (name, ref["batch"], ref["energy_kwh"]["central"]))
        fronts = {}
        try:
            with open(model, "rb") as f:
                fronts["stdin"] = from_estimate(run(["estimate", "-"] + opts + place + ["--json"], stdin=f))
        except Exception as e:  # noqa: BLE001
            fronts["stdin"] = e
        try:
            fronts["python"] = from_estimate(joulecast.estimate(model=model, **place_kw, **kw))
        except Exception as e:  # noqa: BLE001
            fronts["python"] = e
        try:
            d = run(["compare", model, "models/tiny_cnn.onnx"] + opts + place + ["--json"])
            row = d["models"][0]
            fronts["compare"] = {k: row[k] for k in FIGS}
            fronts["compare"]["batch"] = row["batch"]
        except Exception as e:  # noqa: BLE001
            fronts["compare"] = e
        try:
            sw = [o for o in opts]
            d = run(["sweep", model] + sw + ["--devices", "a100", "--regions", "FR"] + where + ["--json"])
            row = d["entries"][0]
            fronts["sweep"] = {k: row[k] for k in FIGS}
            fronts["sweep"]["batch"] = row["batch"]
        except Exception as e:  # noqa: BLE001
            fronts["sweep"] = e
        for front, got in fronts.items():
            report("%s/%s" % (name, front), ref, got)


main()
