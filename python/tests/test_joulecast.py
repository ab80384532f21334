"""test_joulecast.py - unit tests of the Python package (python/joulecast):
the dicts it returns equal the CLI's --json output for the same options,
errors raise joulecast.Error with the library's diagnostic and status,
every option the CLI's --help lists is a key the bindings accept, and the
library's memory is released through jc_free.  Run from the repository
root by tests/python.sh (JC_RELEASE names the CLI to compare with)."""

import json
import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))
import joulecast  # noqa: E402

JC = os.environ.get("JC_RELEASE", os.path.join(ROOT, "build", "joulecast"))

# options of each command that only shape the CLI's output or exit status:
# the bindings always return the whole --json document (so no format,
# per-node or top), and a budget gate is a comparison on the returned dict
OUTPUT_ONLY = {
    "count": {"json", "csv", "per-node", "top"},
    "estimate": {"json", "csv", "format", "project", "html", "max-kwh", "max-kgco2e", "on"},
    "ga": {"json"},
}


def cli_json(*args):
    out = subprocess.run([JC] + list(args), cwd=ROOT, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return json.loads(out.stdout.decode())


def help_options(cmd):
    out = subprocess.run([JC, "help", cmd], check=True, stdout=subprocess.PIPE)
    return set(re.findall(r"--([a-z][a-z0-9-]*)", out.stdout.decode()))


class SameAsCli(unittest.TestCase):
    def setUp(self):
        os.chdir(ROOT)

    def test_count_equals_cli(self):
        got = joulecast.count("models/resnet50.onnx", batch=1)
        self.assertEqual(got, cli_json("count", "models/resnet50.onnx", "--batch", "1", "--json"))
        self.assertEqual(got["totals"]["macs"], 4089184256)  # torchvision's 4.09 GMACs

    def test_count_dims_equal_cli(self):
        got = joulecast.count("models/bert_base.onnx", dims={"batch": 1, "sequence": 128})
        self.assertEqual(got, cli_json("count", "models/bert_base.onnx", "--dim", "batch=1",
                                       "--dim", "sequence=128", "--json"))
        self.assertFalse(got["partial"])

    def test_estimate_train_equals_cli(self):
        got = joulecast.estimate(model="models/resnet50.onnx", device="a100", count=8,
                                 region="US-CA",
                                 train={"samples": 1281167, "epochs": 90, "batch": 256})
        want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167",
                        "--epochs", "90", "--batch", "256", "--device", "a100", "--count", "8",
                        "--region", "US-CA", "--json")
        self.assertEqual(got, want)
        self.assertEqual(got["mode"], "training")

    def test_estimate_6nd_equals_cli(self):
        got = joulecast.estimate(device="h100", count=1024, region="US",
                                 train={"params": 7e9, "tokens": 2e12})
        want = cli_json("estimate", "--train", "--params", "7e9", "--tokens", "2e12",
                        "--device", "h100", "--count", "1024", "--region", "US", "--json")
        self.assertEqual(got, want)

    def test_estimate_infer_equals_cli(self):
        got = joulecast.estimate(model="models/bert_base.onnx", dims={"sequence": 128},
                                 device="a100", region="FR",
                                 infer={"batch": 32, "requests": 1000000})
        want = cli_json("estimate", "models/bert_base.onnx", "--dim", "sequence=128",
                        "--batch", "32", "--requests", "1000000", "--device", "a100",
                        "--region", "FR", "--json")
        self.assertEqual(got, want)
        self.assertEqual(got["mode"], "inference")

    def test_ga_equals_cli_and_calculator(self):
        got = joulecast.ga(runtime="1h", cores=1, memory=7, pue=1.67)
        self.assertEqual(got, cli_json("ga", "--runtime", "1h", "--cores", "1", "--memory", "7",
                                       "--pue", "1.67", "--json"))
        # the calculator's own figure for this job: 24.39 Wh, 11.59 gCO2e
        self.assertAlmostEqual(got["energy_wh"], 24.39, places=2)
        self.assertAlmostEqual(got["carbon_g"], 11.59, places=2)


class Errors(unittest.TestCase):
    def setUp(self):
        os.chdir(ROOT)

    def test_unknown_device_suggests(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.estimate(device="a1000", flops=1e20)
        self.assertEqual(cm.exception.status, 6)
        self.assertIn("did you mean", cm.exception.message)

    def test_unknown_option(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.estimate(device="a100", flops=1e20, colour="red")
        self.assertEqual(cm.exception.status, 2)
        self.assertIn("'colour'", cm.exception.message)

    def test_malformed_number(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.estimate(device="a100", flops="lots")
        self.assertEqual(cm.exception.status, 2)
        self.assertIn("flops", cm.exception.message)

    def test_missing_model_file(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/no-such-model.onnx")
        self.assertEqual(cm.exception.status, 3)
        self.assertIn("no-such-model.onnx", cm.exception.message)

    def test_not_a_model(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("README.md")
        self.assertEqual(cm.exception.status, 4)

    def test_input_value_reaches_the_analysis(self):
        # the same diagnostic as `joulecast count ... --input-value A=1,2`
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("tests/models/cost/einsum_3ops.onnx", input_value="A=1,2")
        cli = subprocess.run([JC, "count", "tests/models/cost/einsum_3ops.onnx",
                              "--input-value", "A=1,2"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        self.assertEqual(cm.exception.status, cli.returncode)
        self.assertIn(cm.exception.message, cli.stderr.decode())

    def test_ga_needs_runtime_format(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.ga(runtime="soon", cores=1)
        self.assertEqual(cm.exception.status, 2)

    def test_train_and_infer_exclusive(self):
        with self.assertRaises(joulecast.Error):
            joulecast.estimate(device="a100", flops=1e20, train=True, infer=True)


class Keys(unittest.TestCase):
    """Every option of the CLI (but output formats) reaches the bindings."""

    def check(self, cmd):
        accepted = set(joulecast.keys(cmd))
        missing = help_options(cmd) - OUTPUT_ONLY[cmd] - accepted
        self.assertFalse(missing, "option(s) %s of 'joulecast %s' are not accepted by "
                         "jc_%s_json (src/bind/bind.c): add them there so Python's "
                         "joulecast.%s() takes them (or, for an output-format option, "
                         "to OUTPUT_ONLY in this file)" % (sorted(missing), cmd, cmd, cmd))

    def test_count_keys(self):
        self.check("count")

    def test_estimate_keys(self):
        self.check("estimate")

    def test_ga_keys(self):
        self.check("ga")

    def test_every_estimate_key_is_recognised(self):
        # a listed key given a malformed value fails on that value or later,
        # never as an unknown option
        for k in joulecast.keys("estimate"):
            try:
                joulecast._call("jc_run_estimate_json", None, [(k, "\x01")])
            except joulecast.Error as e:
                self.assertNotIn("unknown option", e.message, k)

    def test_unknown_command(self):
        with self.assertRaises(joulecast.Error):
            joulecast.keys("frobnicate")


class Snapshot(unittest.TestCase):
    """The default database opens from build/hwdb.snap (make writes it);
    the result is the same as with the YAML parse."""

    def setUp(self):
        os.chdir(ROOT)

    def test_snapshot_found(self):
        snap = joulecast.hwdb_snapshot()
        self.assertTrue(snap and snap.endswith(os.path.join("build", "hwdb.snap")), snap)

    def test_same_with_and_without(self):
        args = dict(model="models/resnet50.onnx", device="a100", region="US-CA",
                    infer={"requests": 1000000, "batch": 1})
        with_snap = joulecast.estimate(**args)
        os.environ["JOULECAST_HWDB_SNAPSHOT"] = "off"
        try:
            self.assertIsNone(joulecast.hwdb_snapshot())
            without = joulecast.estimate(**args)
            ga_without = joulecast.ga("12h", cores=8, region="FR")
        finally:
            del os.environ["JOULECAST_HWDB_SNAPSHOT"]
        self.assertEqual(with_snap, without)
        self.assertEqual(joulecast.ga("12h", cores=8, region="FR"), ga_without)

    def test_stale_or_bad_snapshot_falls_back(self):
        os.environ["JOULECAST_HWDB_SNAPSHOT"] = os.path.join(ROOT, "README.md")
        try:
            r = joulecast.estimate(model="models/tiny_cnn.onnx", device="a100", region="FR",
                                   infer={"requests": 1000, "batch": 8})
        finally:
            del os.environ["JOULECAST_HWDB_SNAPSHOT"]
        self.assertGreater(r["results"]["energy_facility_kwh"]["central"], 0)


class Memory(unittest.TestCase):
    def test_repeated_calls_do_not_grow(self):
        # 200 calls through jc_free: resident memory stays within 20 MB
        os.chdir(ROOT)

        def rss_kb():
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
            return 0
        for _ in range(20):
            joulecast.count("models/tiny_cnn.onnx", batch=1)
        before = rss_kb()
        for _ in range(200):
            joulecast.count("models/tiny_cnn.onnx", batch=1)
        self.assertLess(rss_kb() - before, 20000)


if __name__ == "__main__":
    unittest.main()
