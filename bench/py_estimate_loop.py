"""py_estimate_loop.py - benchmark driver (bench/run.sh): mean time of one
joulecast.estimate() call from Python (tiny_cnn inference on an A100 in
FR), the default hwdb opened from its snapshot vs JOULECAST_HWDB_SNAPSHOT=off
(the YAML parsed each call).  Prints "<snapshot_ms> <yaml_ms>"; the
snapshot figure is the mean of a run before and one after the YAML run."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "python"))
import joulecast  # noqa: E402


def run(n):
    t = time.perf_counter()
    for _ in range(n):
        joulecast.estimate(model="models/tiny_cnn.onnx", device="a100", region="FR",
                           infer={"requests": 1000, "batch": 8})
    return (time.perf_counter() - t) / n * 1e3


n = int(sys.argv[1]) if len(sys.argv) > 1 else 50
a = run(n)
os.environ["JOULECAST_HWDB_SNAPSHOT"] = "off"
b = run(n)
del os.environ["JOULECAST_HWDB_SNAPSHOT"]
c = run(n)
print("%.3f %.3f" % ((a + c) / 2, b))
