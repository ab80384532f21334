"""test_joulecast.py - tests of the pip-installed Python package: every
function returns the document the CLI prints for the same options (count,
estimate, statement, compare, sweep, ga, hw, region; the HTML report too),
errors raise joulecast.Error with the CLI's exit code and the
diagnostic's file, YAML line:col and node, every option the CLI's --help
lists is a key the bindings accept, the package comes from the venv it was
installed into (not the source tree), pandas and torch are not imported by
`import joulecast`, results are dicts with to_frame(), and the library's
memory is released.  Run by tests/python.sh with the venv's python, from
a temporary working directory (JC_SRC: the checkout, JC_RELEASE: the CLI).
"""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import joulecast

ROOT = os.environ.get("JC_SRC") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
JC = os.environ.get("JC_RELEASE", os.path.join(ROOT, "build", "joulecast"))

# a working directory outside the checkout, with its models and test data
# linked, so relative model paths read the same in both outputs
WORK = tempfile.mkdtemp(prefix="joulecast-pytest-")
atexit.register(shutil.rmtree, WORK, True)
for _d in ("models", "tests", "README.md"):
    os.symlink(os.path.join(ROOT, _d), os.path.join(WORK, _d))

# options of each command that only shape the CLI's output or exit status:
# the bindings return the whole --json document (so no format, per-node
# table size or CSV), and a budget gate is a comparison on the dict
OUTPUT_ONLY = {
    "count": {"json", "csv", "per-node", "top"},
    "estimate": {"json", "csv", "format", "project", "max-kwh", "max-kgco2e", "on", "top"},
    "ga": {"json"},
    "statement": set(),
    "compare": {"json", "csv"},
    "sweep": {"json", "csv"},
    "hw": {"json"},
    "region": {"json"},
    "calibrate": {"json"},
}


def cli_env():
    """The CLI reading the package's hwdb (and snapshot), so sources name
    the same files in both documents."""
    env = dict(os.environ)
    env["JOULECAST_HWDB_DIR"] = joulecast.hwdb_dir()
    snap = joulecast.hwdb_snapshot()
    env["JOULECAST_HWDB_SNAPSHOT"] = snap if snap else "off"
    return env


def cli_run(*args):
    return subprocess.run([JC] + list(args), cwd=WORK, env=cli_env(),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def cli_text(*args):
    out = cli_run(*args)
    if out.returncode != 0:
        raise AssertionError("CLI %s failed: %s" % (args, out.stderr.decode()))
    return out.stdout.decode()


def cli_json(*args):
    return json.loads(cli_text(*args))


def help_options(cmd):
    out = subprocess.run([JC, "help", cmd], check=True, stdout=subprocess.PIPE)
    return set(re.findall(r"--([a-z][a-z0-9-]*)", out.stdout.decode()))


class InWork(unittest.TestCase):
    def setUp(self):
        os.chdir(WORK)


class Installed(InWork):
    def test_package_from_the_venv(self):
        prefix = os.path.realpath(sys.prefix) + os.sep
        self.assertNotEqual(sys.prefix, sys.base_prefix, "not run in a venv")
        for p in (joulecast.__file__, joulecast.library_path(), joulecast.hwdb_dir()):
            self.assertTrue(os.path.realpath(p).startswith(prefix), p)
        self.assertFalse(os.path.realpath(joulecast.__file__).startswith(
            os.path.realpath(ROOT) + os.sep), "imported from the source tree")

    def test_version_is_the_c_library_version(self):
        with open(os.path.join(ROOT, "include", "joulecast.h")) as f:
            want = re.search(r'#define JC_VERSION "([^"]+)"', f.read()).group(1)
        self.assertEqual(joulecast.__version__, want)
        out = subprocess.run([JC, "--version"], stdout=subprocess.PIPE).stdout.decode()
        self.assertIn(want, out)

    def test_import_loads_neither_pandas_nor_torch(self):
        out = subprocess.run([sys.executable, "-c", "import sys, joulecast; "
                              "print(sorted(m for m in ('pandas', 'torch', 'numpy') "
                              "if m in sys.modules))"], cwd="/", stdout=subprocess.PIPE)
        self.assertEqual(out.stdout.decode().strip(), "[]")


class SameAsCli(InWork):
    def test_count_equals_cli(self):
        got = joulecast.count("models/resnet50.onnx", batch=1)
        self.assertEqual(got, cli_json("count", "models/resnet50.onnx", "--batch", "1", "--json"))
        self.assertEqual(got["totals"]["macs"], 4089184256)  # torchvision's 4.09 GMACs

    def test_count_dims_equal_cli(self):
        got = joulecast.count("models/bert_base.onnx", dims={"batch": 1, "sequence": 128})
        self.assertEqual(got, cli_json("count", "models/bert_base.onnx", "--dim", "batch=1",
                                       "--dim", "sequence=128", "--json"))
        self.assertFalse(got["partial"])

    def test_count_batch_binding_conflict_refused_as_cli(self):
        # --batch and a --dim / --input that binds the batch dim otherwise:
        # the request path refuses both, for the binding as for the CLI
        # (the binding used to count silently at the --dim value)
        for kw, args in (({"batch": 8, "dims": {"batch": 4}}, ("--batch", "8", "--dim", "batch=4")),
                         ({"batch": 8, "inputs": {"input": [4, 3, 224, 224]}},
                          ("--batch", "8", "--input", "input=4x3x224x224"))):
            with self.assertRaises(joulecast.Error) as cm:
                joulecast.count("models/resnet18.onnx", **kw)
            out = cli_run("count", "models/resnet18.onnx", *args, "--json")
            self.assertEqual((cm.exception.exit_code, out.returncode), (2, 2), kw)
            self.assertIn(cm.exception.message, out.stderr.decode())
            self.assertIn("disagree", cm.exception.message)

    def test_estimate_done_when_equals_cli(self):
        got = joulecast.estimate(model=os.path.join(ROOT, "models/resnet50.onnx"), batch=8,
                                 requests=1000, device="a100", region="FR")
        want = cli_json("estimate", os.path.join(ROOT, "models/resnet50.onnx"), "--batch", "8",
                        "--requests", "1000", "--device", "a100", "--region", "FR", "--json")
        self.assertEqual(got, want)

    def test_estimate_train_equals_cli(self):
        got = joulecast.estimate(model="models/resnet50.onnx", device="a100", count=8,
                                 region="US-CA",
                                 train={"samples": 1281167, "epochs": 90, "batch": 256})
        want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167",
                        "--epochs", "90", "--batch", "256", "--device", "a100", "--count", "8",
                        "--region", "US-CA", "--json")
        self.assertEqual(got, want)
        self.assertEqual(got["mode"], "training")

    def test_format_number_is_the_reports_rule(self):
        # the library's one number rule: hand-written cases, then a figure of
        # the JSON written as the statement writes it
        for v, want in ((3.2, "3.2"), (2039, "2,039"), (3324550.4, "3,324,550"),
                        (6.983e-05, "6.983e-05"), (float("nan"), "n/a"), (None, "n/a")):
            self.assertEqual(joulecast.format_number(v), want, v)
        job = dict(device="h100", count=1024, region="US", train={"params": 7e9, "tokens": 2e12})
        kwh = joulecast.estimate(**job)["results"]["energy_facility_kwh"]["central"]
        self.assertIn("%s kWh of facility energy" % joulecast.format_number(kwh),
                      joulecast.statement(**job))

    def test_estimate_6nd_equals_cli(self):
        got = joulecast.estimate(device="h100", count=1024, region="US",
                                 train={"params": 7e9, "tokens": 2e12})
        want = cli_json("estimate", "--train", "--params", "7e9", "--tokens", "2e12",
                        "--device", "h100", "--count", "1024", "--region", "US", "--json")
        self.assertEqual(got, want)

    def test_estimate_train_step_equals_cli(self):
        # the training step model from a config (MoE): layout, step, MFU
        cfg = "tests/serving/configs/qwen3-30b-a3b.json"
        got = joulecast.estimate(device="h100", count=256, region="US", hf_config=cfg,
                                 train={"tokens": 1e12, "seq": 4096})
        want = cli_json("estimate", "--train", "--hf-config", cfg, "--tokens", "1e12", "--seq", "4096",
                        "--device", "h100", "--count", "256", "--region", "US", "--json")
        self.assertEqual(got, want)
        t = got["train_step"]
        self.assertEqual((t["model_type"], t["tp"] * t["pp"] * t["dp"] * t["cp"]), ("qwen3_moe", 256))
        self.assertGreater(t["ep"], 1)
        self.assertAlmostEqual(t["utilization"]["central"], t["mfu"]["central"] * t["goodput"]["central"])

    def test_estimate_dp_overlap_equals_cli(self):
        # --dp-overlap (issue 39): the keyword, the CLI and the assumption
        # agree; the gradient all-reduce after the backward (0) is exposed
        train = {"params": 175e9, "layers": 96, "hidden": 12288, "heads": 96, "seq": 2048, "tokens": 1.2e9,
                 "batch": 2048}
        got = joulecast.estimate(device="h100", count=512, region="US", dp_overlap=0, train=train)
        want = cli_json("estimate", "--train", "--params", "175e9", "--layers", "96", "--hidden", "12288",
                        "--heads", "96", "--seq", "2048", "--tokens", "1.2e9", "--batch", "2048",
                        "--dp-overlap", "0", "--device", "h100", "--count", "512", "--region", "US", "--json")
        self.assertEqual(got, want)
        a = {x["key"]: x for x in got["assumptions"]}
        self.assertEqual((a["parallel.dp_overlap"]["value"]["central"], a["parallel.dp_overlap"]["origin"]), (0, "user"))
        base = joulecast.estimate(device="h100", count=512, region="US", train=train)
        dp = lambda r: {p["name"]: p["s"] for p in r["train_step"]["parts"]}.get("dp_exposed", 0)
        self.assertGreater(dp(got), dp(base))

    def test_estimate_eval_checkpoint_equals_cli(self):
        # evaluation and checkpoints of the job (issue 39): keywords, the
        # step breakdown's parts and the assumptions, as the CLI prints them
        got = joulecast.estimate(device="h100", count=512, region="US", eval_every=100000, eval_samples=5000,
                                 checkpoint_every=50, storage_gbs=100,
                                 train={"params": 175e9, "layers": 96, "hidden": 12288, "heads": 96,
                                        "seq": 2048, "tokens": 1.2e9, "batch": 2048})
        want = cli_json("estimate", "--train", "--params", "175e9", "--layers", "96", "--hidden", "12288",
                        "--heads", "96", "--seq", "2048", "--tokens", "1.2e9", "--batch", "2048",
                        "--eval-every", "100000", "--eval-samples", "5000", "--checkpoint-every", "50",
                        "--storage-gbs", "100", "--device", "h100", "--count", "512", "--region", "US", "--json")
        self.assertEqual(got, want)
        parts = {p["name"]: p["s"] for p in got["train_step"]["parts"]}
        a = {x["key"]: x["value"]["central"] for x in got["assumptions"]}
        self.assertAlmostEqual(a["train.eval"], 0.05)
        self.assertAlmostEqual(a["train.checkpoint_gb"], 14 * 175e9 / 1e9)
        self.assertAlmostEqual(parts["checkpoint"], a["train.checkpoint_s"] / 50)
        self.assertAlmostEqual(parts["evaluation"], 0.05 * (parts["gemm"] + parts["attention"] + parts["memory"]) / 3,
                               delta=1e-9 * parts["gemm"])

    def test_estimate_finetune_equals_cli(self):
        # fine-tuning keywords (issue 40): LoRA rank 16 on the attention
        # projections of Llama-3.1-8B, the JSON's trainable and frozen counts
        cfg = "tests/serving/configs/llama-3.1-8b.json"
        got = joulecast.estimate(device="h100", count=8, region="US", hf_config=cfg, finetune="lora",
                                 lora_rank=16, lora_targets="q_proj,k_proj,v_proj,o_proj",
                                 train={"samples": 1000, "seq": 8192, "batch": 8})
        want = cli_json("estimate", "--train", "--hf-config", cfg, "--finetune", "lora", "--lora-rank", "16",
                        "--lora-targets", "q_proj,k_proj,v_proj,o_proj", "--samples", "1000", "--seq", "8192",
                        "--batch", "8", "--device", "h100", "--count", "8", "--region", "US", "--json")
        self.assertEqual(got, want)
        t = got["train_step"]
        self.assertEqual((t["finetune"], t["params_trainable"]), ("lora", 32 * 16 * (8192 + 2 * 5120 + 8192)))
        self.assertEqual(t["params_frozen"], t["params_total"])

    def test_estimate_sensitivity_equals_cli(self):
        # issue 45: the sensitivity table and --pin as keywords
        job = dict(device="a100", count=8, region="US-CA", sensitivity=True,
                   train={"samples": 1281167, "epochs": 90, "batch": 256})
        got = joulecast.estimate("models/resnet50.onnx", **job)
        want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "90",
                        "--batch", "256", "--device", "a100", "--count", "8", "--region", "US-CA",
                        "--sensitivity", "--json")
        self.assertEqual(got, want)
        top = got["sensitivity"][0]
        job.pop("sensitivity")
        high = joulecast.estimate("models/resnet50.onnx", pin="%s=high" % top["key"], **job)
        self.assertEqual(high["results"]["co2_location_kg"]["central"], top["co2_kg"]["at_high"])
        # the Monte Carlo percentiles: the same seed gives the CLI's figures bit for bit
        mc = joulecast.estimate("models/resnet50.onnx", draws=2000, seed=11, **job)["montecarlo"]
        want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "90",
                        "--batch", "256", "--device", "a100", "--count", "8", "--region", "US-CA",
                        "--draws", "2000", "--seed", "11", "--json")["montecarlo"]
        self.assertEqual(mc, want)

    def test_estimate_cost_water_equals_cli(self):
        # issue 45: cost and water as keywords; cost = instances x hours x price,
        # water = kWh x factor, unknown is None (null), never 0
        job = dict(host="p4d.24xlarge", region="aws:us-east-1", grid_water=1.5,
                   train={"samples": 1281167, "epochs": 1, "batch": 256})
        got = joulecast.estimate("models/resnet50.onnx", **job)
        want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "1",
                        "--batch", "256", "--host", "p4d.24xlarge", "--region", "aws:us-east-1",
                        "--grid-water", "1.5", "--json")
        self.assertEqual(got, want)
        r, c, w = got["results"], got["cost"], got["water"]
        self.assertEqual((c["basis"], c["currency"], c["instances"]), ("on-demand", "USD", 1))
        self.assertAlmostEqual(c["total"]["central"], c["rate"] * r["wall_hours"]["central"], delta=1e-9)
        self.assertAlmostEqual(w["offsite_l"]["central"], 1.5 * r["energy_facility_kwh"]["central"], delta=1e-9)
        self.assertAlmostEqual(w["total_l"]["central"], w["onsite_l"]["central"] + w["offsite_l"]["central"],
                               delta=1e-9)
        none = joulecast.estimate("models/resnet50.onnx", device="a100", region="SG",
                                  train={"samples": 1281167, "epochs": 1, "batch": 256})
        self.assertIsNone(none["cost"]["total"])
        self.assertIsNone(none["results"]["water_l"])
        mine = joulecast.estimate("models/resnet50.onnx", device="a100", region="US-CA", price="2.5",
                                  currency="EUR", train={"samples": 1281167, "epochs": 1, "batch": 256})
        self.assertEqual((mine["cost"]["currency"], mine["cost"]["source"]), ("EUR", "--price"))

    def test_estimate_cost_gcp_azure_equals_cli(self):
        # issue 45: a GCP and an Azure instance priced by the hwdb (us-central1,
        # eastus): cost = hours x the instance's price, its source named, the
        # on-site water by the provider's fleet WUE; the CLI's JSON exactly
        for host, region, repo, prov in (("a2-highgpu-8g", "gcp:us-central1", "karpenter-provider-gcp", "gcp"),
                                         ("Standard_ND96asr_v4", "azure:eastus", "karpenter-provider-azure", "azure")):
            got = joulecast.estimate("models/resnet50.onnx", host=host, region=region,
                                     train={"samples": 1281167, "epochs": 1, "batch": 256})
            want = cli_json("estimate", "models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "1",
                            "--batch", "256", "--host", host, "--region", region, "--json")
            self.assertEqual(got, want)
            r, c, w = got["results"], got["cost"], got["water"]
            self.assertEqual((c["basis"], c["currency"], c["instances"], c["region"]), ("on-demand", "USD", 1, region))
            self.assertIn(repo, c["source"])
            self.assertGreater(c["rate"], 1)
            for k in ("low", "central", "high"):
                self.assertAlmostEqual(c["total"][k], c["rate"] * r["wall_hours"][k], delta=1e-9 * c["total"][k])
                self.assertAlmostEqual(w["onsite_l"][k], w["wue_l_per_kwh"] * r["energy_it_kwh"][k],
                                       delta=1e-9 * w["onsite_l"][k])
            self.assertTrue(w["wue_source"].startswith(prov + "'s fleet figure"), w["wue_source"])

    def test_estimate_infer_equals_cli(self):
        got = joulecast.estimate(model="models/bert_base.onnx", dims={"sequence": 128},
                                 device="a100", region="FR",
                                 infer={"batch": 32, "requests": 1000000})
        want = cli_json("estimate", "models/bert_base.onnx", "--dim", "sequence=128",
                        "--batch", "32", "--requests", "1000000", "--device", "a100",
                        "--region", "FR", "--json")
        self.assertEqual(got, want)
        self.assertEqual(got["mode"], "inference")

    def test_estimate_scenario_equals_cli(self):
        # MLPerf scenarios (issue 41): singlestream runs one sample per query
        # and reports a query's latency; a conflicting batch is refused
        got = joulecast.estimate(model="models/resnet50.onnx", device="l4", region="FR",
                                 scenario="singlestream", infer={"requests": 100})
        want = cli_json("estimate", "models/resnet50.onnx", "--scenario", "singlestream", "--requests", "100",
                        "--device", "l4", "--region", "FR", "--json")
        self.assertEqual(got, want)
        self.assertEqual((got["work"]["batch"], got["results"]["scenario"]), (1, "singlestream"))
        lat = got["results"]["latency_s"]
        self.assertAlmostEqual(lat["central"], got["results"]["wall_hours"]["central"] * 3600 / 100)
        with self.assertRaises(joulecast.Error):
            joulecast.estimate(model="models/resnet50.onnx", device="l4", region="FR", scenario="singlestream",
                               infer={"requests": 100, "batch": 4})
        # one query at a time: four devices take as long as one (three idle)
        four = joulecast.estimate(model="models/resnet50.onnx", device="l4", count=4, region="FR",
                                  scenario="singlestream", infer={"requests": 100})
        self.assertAlmostEqual(four["results"]["wall_hours"]["central"], got["results"]["wall_hours"]["central"])
        self.assertAlmostEqual(four["results"]["latency_s"]["central"], lat["central"])
        with self.assertRaises(joulecast.Error):   # a Server query over its bound
            joulecast.estimate(model="models/resnet50.onnx", device="l4", region="FR", scenario="server",
                               latency_bound=0.001, infer={"requests": 6400, "batch": 64})

    def test_jobfile_beneath_keywords_as_cli(self):
        # one layering for both front ends (src/job/reqset.c): the job
        # file's model is taken from its folder, the keywords' --dim of a
        # NAME replaces the file's and a job key overrides it; the binding
        # refused the two dims (one value is lost) where the CLI took ours
        d = tempfile.mkdtemp(dir=WORK)
        shutil.copy(os.path.join(ROOT, "models", "bert_base.onnx"), d)
        job = os.path.join(d, "job.yaml")
        with open(job, "w") as f:
            f.write("model: bert_base.onnx\ndim: sequence=64\nbatch: 8\nrequests: 1000\n"
                    "device: a100\nregion: FR\n")
        got = joulecast.estimate(job, dims={"sequence": 128}, batch=32)
        want = cli_json("estimate", job, "--dim", "sequence=128", "--batch", "32", "--json")
        self.assertEqual(got, want)
        flat = joulecast.estimate(model="models/bert_base.onnx", dims={"sequence": 128}, batch=32,
                                  requests=1000, device="a100", region="FR")
        self.assertEqual(got["results"], flat["results"])

    def test_estimate_html_equals_cli(self):
        got = joulecast.estimate(model="models/tiny_cnn.onnx", device="a100", region="FR",
                                 batch=8, requests=1000)
        want = cli_text("estimate", "models/tiny_cnn.onnx", "--device", "a100", "--region",
                        "FR", "--batch", "8", "--requests", "1000", "--html", "-")
        self.assertEqual(got._repr_html_(), want)
        self.assertTrue(want.startswith("<!DOCTYPE html>"))

    def test_statement_formats_equal_cli(self):
        args = ["models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "90",
                "--batch", "256", "--device", "a100", "--count", "8", "--region", "US-CA"]
        for fmt in ("markdown", "latex", "hf", "sentence"):
            got = joulecast.statement("models/resnet50.onnx",
                                      train={"samples": 1281167, "epochs": 90, "batch": 256},
                                      device="a100", count=8, region="US-CA", format=fmt)
            self.assertEqual(got, cli_text("statement", *args, "--format", fmt), fmt)
        both = joulecast.statement(device="h100", count=1024, region="US", format="all",
                                   train={"params": 7e9, "tokens": 2e12})
        self.assertEqual(sorted(both), ["hf", "latex", "markdown", "sentence"])
        # whole floats reach the library (and its "reproduce" line) as integers
        self.assertEqual(both["hf"], cli_text("statement", "--train", "--params", "7000000000",
                                              "--tokens", "2000000000000", "--device", "h100",
                                              "--count", "1024", "--region", "US", "--format",
                                              "hf"))

    def test_statement_generate_equals_cli(self):
        cfg = "tests/serving/configs/llama-3.1-8b.json"
        opts = dict(generate=True, hf_config=cfg, prompt_tokens=500, output_tokens=300, concurrency=64,
                    requests=1000000, device="h100", region="US")
        args = ["--generate", "--hf-config", cfg, "--prompt-tokens", "500", "--output-tokens", "300",
                "--concurrency", "64", "--requests", "1000000", "--device", "h100", "--region", "US"]
        for fmt in ("markdown", "latex"):
            got = joulecast.statement(format=fmt, **opts)
            self.assertEqual(got, cli_text("statement", *args, "--format", fmt), fmt)
            self.assertIn("J per output token", got)
        # the model-card block describes training: refused by both, exit 2
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.statement(format="hf", **opts)
        out = cli_run("statement", *args, "--format", "hf")
        self.assertEqual((cm.exception.exit_code, out.returncode), (2, 2))
        self.assertIn(cm.exception.message, out.stderr.decode())

    def test_compare_equals_cli(self):
        got = joulecast.compare("models/resnet50.onnx", "models/resnet18.onnx",
                                "models/mobilenet_v2.onnx", batch=64, requests=1000000,
                                device="a100", region="FR")
        want = cli_json("compare", "models/resnet50.onnx", "models/resnet18.onnx",
                        "models/mobilenet_v2.onnx", "--batch", "64", "--requests", "1000000",
                        "--device", "a100", "--region", "FR", "--json")
        self.assertEqual(got, want)
        html = cli_text("compare", "models/resnet50.onnx", "models/resnet18.onnx",
                        "models/mobilenet_v2.onnx", "--batch", "64", "--requests", "1000000",
                        "--device", "a100", "--region", "FR", "--html", "-")
        self.assertEqual(got._repr_html_(), html)

    def test_compare_generate_equals_cli(self):
        cfg = ["tests/serving/configs/llama-3.1-8b.json", "tests/serving/configs/mixtral-8x7b.json"]
        got = joulecast.compare(*cfg, generate=True, prompt_tokens=500, output_tokens=300, concurrency=64,
                                requests=1000000, device="h100", region="US")
        want = cli_json("compare", "--generate", *cfg, "--prompt-tokens", "500", "--output-tokens", "300",
                        "--concurrency", "64", "--requests", "1000000", "--device", "h100", "--region", "US",
                        "--json")
        self.assertEqual(got, want)
        self.assertEqual(want["mode"], "generation")
        a, b = want["models"]
        # Mixtral's bf16 weights (93 GB) take two 80 GB devices; Llama 8B fits one
        self.assertEqual((a["devices"], b["devices"]), (1, 2))
        self.assertAlmostEqual(b["ratio"]["j_per_request"],
                               b["j_per_request"]["central"] / a["j_per_request"]["central"], places=12)
        self.assertLess(b["params_active"], b["params"])   # mixture of experts: 2 of 8 active
        # the serving comparison page, as the CLI draws it
        html = cli_text("compare", "--generate", *cfg, "--prompt-tokens", "500", "--output-tokens", "300",
                        "--concurrency", "64", "--requests", "1000000", "--device", "h100", "--region", "US",
                        "--html", "-")
        self.assertIn("Energy per output token, facility", html)
        self.assertEqual(got._repr_html_(), html)
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.compare(*cfg, generate=True, prompt_tokens=500, output_tokens=300, device="h100",
                              dims={"batch": 2})
        self.assertEqual(cm.exception.exit_code, 2)

    def test_sweep_equals_cli(self):
        got = joulecast.sweep("models/bert_base.onnx", dims={"sequence": 128},
                              batches=[8, 32], devices=["a100", "h100", "l4"], regions="FR,DE",
                              precisions="bf16,fp8", sort="energy", requests=1000000)
        want = cli_json("sweep", "models/bert_base.onnx", "--dim", "sequence=128", "--batches",
                        "8,32", "--devices", "a100,h100,l4", "--regions", "FR,DE",
                        "--precisions", "bf16,fp8", "--sort", "energy", "--requests", "1000000",
                        "--json")
        self.assertEqual(got, want)
        self.assertGreater(len(got["entries"]), 0)

    def test_sweep_default_grid_equals_cli(self):
        got = joulecast.sweep(flops=1e18, regions=["FR"])
        self.assertEqual(got, cli_json("sweep", "--flops", "1e18", "--regions", "FR", "--json"))

    def test_ga_equals_cli_and_calculator(self):
        got = joulecast.ga(runtime="1h", cores=1, memory=7, pue=1.67)
        self.assertEqual(got, cli_json("ga", "--runtime", "1h", "--cores", "1", "--memory", "7",
                                       "--pue", "1.67", "--json"))
        # the calculator's own figure for this job: 24.39 Wh, 11.59 gCO2e
        self.assertAlmostEqual(got["energy_wh"], 24.39, places=2)
        self.assertAlmostEqual(got["carbon_g"], 11.59, places=2)

    def test_hw_equals_cli(self):
        self.assertEqual(joulecast.hw(), cli_json("hw", "list", "--json"))
        self.assertEqual(joulecast.hw(kind="tpu"), cli_json("hw", "list", "--kind", "tpu", "--json"))
        self.assertEqual(joulecast.hw("a100"), cli_json("hw", "show", "a100", "--json"))

    def test_region_equals_cli(self):
        self.assertEqual(joulecast.region(), cli_json("region", "list", "--json"))
        self.assertEqual(joulecast.region(provider="aws"),
                         cli_json("region", "list", "--provider", "aws", "--json"))
        self.assertEqual(joulecast.region(type="grid"),
                         cli_json("region", "list", "--type", "grid", "--json"))
        self.assertEqual(joulecast.region("FR"), cli_json("region", "show", "FR", "--json"))


class Calibrate(InWork):
    """joulecast.calibrate() is `joulecast calibrate ... --json`: the same
    document, the same override layer written (byte for byte), and the
    layer, given back to estimate, gives the measured wall time."""

    def run_both(self, measurements, cli_args, **kw):
        d = tempfile.mkdtemp(dir=WORK)
        got = joulecast.calibrate(measurements, out=os.path.join(d, "py.yaml"), **kw)
        want = cli_json("calibrate", measurements, *cli_args, "--out", os.path.join(d, "cli.yaml"),
                        "--json")
        self.assertEqual(got["written"], os.path.join(d, "py.yaml"))
        got["written"] = want["written"]
        if want.get("written_power"):   # a trace's power fit: the layer beside it
            self.assertEqual(got["written_power"], os.path.join(d, "py.power.yaml"))
            got["written_power"] = want["written_power"]
            with open(os.path.join(d, "py.power.yaml")) as a, open(os.path.join(d, "cli.power.yaml")) as b:
                self.assertEqual(a.read(), b.read())
        self.assertEqual(got, want)
        with open(os.path.join(d, "py.yaml")) as a, open(os.path.join(d, "cli.yaml")) as b:
            self.assertEqual(a.read(), b.read())
        return got, os.path.join(d, "py.yaml")

    def test_codecarbon_equals_cli(self):
        got, layer = self.run_both(
            "tests/data/codecarbon/a100-u031.csv",
            ["models/resnet50.onnx", "--train", "--samples", "1281167", "--epochs", "2",
             "--batch", "256", "--region", "FR"],
            model="models/resnet50.onnx", train={"samples": 1281167, "epochs": 2, "batch": 256},
            region="FR")
        self.assertEqual(got["schema"], "joulecast-calibrate/1")
        self.assertEqual(got["run"]["devices"], 8)   # the file's gpu_count
        # the fitted value follows the hwdb's fitted constants (make accuracy
        # tracks those); what must hold is a utilisation, and that the layer
        # it writes reproduces the measured hours (below)
        u = got["fitted"]["utilization"]["after"]
        self.assertTrue(0 < u <= 1, u)
        self.assertLess(abs(got["prediction"]["after"]["error_hours"]), 1e-3)
        est = joulecast.estimate(model="models/resnet50.onnx", device=got["run"]["device"],
                                 count=8, region="FR", train={"samples": 1281167, "epochs": 2,
                                                              "batch": 256},
                                 hwdb=[joulecast.hwdb_dir(), layer])
        self.assertAlmostEqual(est["results"]["wall_hours"]["central"] / got["measured"]["hours"],
                               1.0, places=3)

    def test_row_job_file_and_device_equal_cli(self):
        # the simple CSV's row names the model (beside the file) and device
        self.run_both("tests/data/calibrate/power-meter.csv",
                      ["--train", "--samples", "1281167", "--epochs", "2", "--batch", "256"],
                      train={"samples": 1281167, "epochs": 2, "batch": 256})

    def test_row_job_file_beneath_the_keys_equals_cli(self):
        # the row names a job file (and it a model), both relative to the
        # file's folder; a key given (epochs) wins over the file's
        d = tempfile.mkdtemp(dir=WORK)
        with open(os.path.join(d, "job.yaml"), "w") as f:
            f.write("model: ../models/resnet50.onnx\ntrain: true\nsamples: 1281167\n"
                    "epochs: 3\nbatch: 256\n")
        with open(os.path.join(d, "runs.csv"), "w") as f:
            f.write("job,device,count,hours,avg_watts,date\njob.yaml,a100,8,0.04,310,2024-03-15\n")
        rel = os.path.relpath(os.path.join(d, "runs.csv"), WORK)
        got, _ = self.run_both(rel, ["--epochs", "2"], epochs=2)
        self.assertEqual(got["run"]["mode"], "training")
        without, _ = self.run_both(rel, [])
        self.assertNotEqual(got["fitted"]["utilization"]["after"],
                            without["fitted"]["utilization"]["after"])

    def test_trace_equals_cli(self):
        self.run_both("tests/data/traces/nvidia-smi-2gpu.csv",
                      ["models/resnet50.onnx", "--train", "--samples", "5000", "--batch", "256",
                       "--device", "a100"],
                      model="models/resnet50.onnx", train={"samples": 5000, "batch": 256},
                      device="a100")

    def test_unknown_device_of_the_measurement_as_cli(self):
        # the trace names 'NVIDIA A100-SXM4-40GB': not an hwdb name
        out = os.path.join(WORK, "y.yaml")
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.calibrate("tests/data/traces/nvidia-smi-2gpu.csv", model="models/resnet50.onnx",
                                out=out, train={"samples": 100000, "batch": 256})
        cli = cli_run("calibrate", "tests/data/traces/nvidia-smi-2gpu.csv", "models/resnet50.onnx",
                      "--train", "--samples", "100000", "--batch", "256", "--out", out)
        self.assertEqual(cm.exception.exit_code, cli.returncode)
        self.assertNotEqual(cli.returncode, 0)
        self.assertIn("joulecast: " + cm.exception.message + "\n", cli.stderr.decode())

    def test_errors_carry_status_and_file(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.calibrate("tests/data/codecarbon/a100-u031.csv", model="models/resnet50.onnx",
                                out=os.path.join(WORK, "x.yaml"), row=9, train=True)
        self.assertEqual(cm.exception.status, 2)
        self.assertEqual(cm.exception.exit_code, cli_run(
            "calibrate", "tests/data/codecarbon/a100-u031.csv", "models/resnet50.onnx", "--train",
            "--row", "9", "--out", os.path.join(WORK, "x.yaml")).returncode)
        self.assertIn("has 1 data row", cm.exception.message)
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.calibrate("tests/data/codecarbon/a100-u031.csv", model="models/resnet50.onnx",
                                train=True)
        self.assertIn("out", cm.exception.message)
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.calibrate("no-such.csv", out=os.path.join(WORK, "x.yaml"), device="a100")
        self.assertEqual(cm.exception.exit_code, cli_run(
            "calibrate", "no-such.csv", "--device", "a100", "--out",
            os.path.join(WORK, "x.yaml")).returncode)
        self.assertIn("no-such.csv", cm.exception.message)
        self.assertFalse(os.path.exists(os.path.join(WORK, "x.yaml")))


class Results(InWork):
    def test_result_is_a_dict(self):
        r = joulecast.count("models/tiny_cnn.onnx", batch=1)
        self.assertIsInstance(r, dict)
        self.assertEqual(json.loads(json.dumps(r)), dict(r))

    def test_to_frame_per_node(self):
        r = joulecast.count("models/resnet50.onnx", batch=1)
        df = r.to_frame()
        self.assertEqual(len(df), len(r["nodes"]))
        self.assertEqual(int(df["macs"].sum()), r["totals"]["macs"])
        e = joulecast.estimate(model="models/resnet50.onnx", device="a100", region="FR",
                               batch=8, requests=1000)
        self.assertFalse(e.get("nodes"))  # the CLI's document, without --per-node
        rows = e.to_frame()
        per_node = cli_json("estimate", "models/resnet50.onnx", "--device", "a100", "--region",
                            "FR", "--batch", "8", "--requests", "1000", "--per-node", "--json")
        self.assertEqual(list(rows["name"]), [n["name"] for n in per_node["nodes"]])

    def test_to_frame_compare_and_sweep_rows(self):
        c = joulecast.compare("models/resnet50.onnx", "models/resnet18.onnx", batch=8,
                              requests=1000, device="a100", region="FR")
        self.assertEqual(len(c.to_frame()), 2)
        s = joulecast.sweep(flops=1e18, devices="a100,h100", regions="FR")
        self.assertEqual(len(s.to_frame()), len(s["entries"]))

    def test_no_html_report_for_count(self):
        r = joulecast.count("models/tiny_cnn.onnx", batch=1)
        self.assertIsNone(r._repr_html_())
        with self.assertRaises(joulecast.Error):
            r.html()


class Issue28Python(InWork):
    """Issue 28 item 14: the binding takes what the CLI takes and gives
    frames and warnings a Python user can use."""

    def test_job_file_as_the_cli(self):
        with open("job.yaml", "w") as f:
            f.write("model: models/resnet50.onnx\nmode: training\nsamples: 1000\nepochs: 2\n"
                    "batch: 8\ndevice: a100\ncount: 2\nregion: FR\n")
        got = joulecast.estimate("job.yaml")
        want = cli_json("estimate", "job.yaml", "--json")
        self.assertEqual(got["results"], want["results"])
        self.assertEqual(got["work"]["samples"], 2000)
        # the keywords win over the file's keys, as the command line does
        self.assertEqual(joulecast.estimate("job.yaml", region="DE")["region"]["code"], "DE")
        self.assertIn("Training the model", joulecast.statement("job.yaml"))

    def test_generation_frame_not_empty(self):
        g = joulecast.estimate(generate=True, hf_config="tests/serving/configs/llama-3.1-8b.json",
                               prompt_tokens=500, output_tokens=300, concurrency=64, requests=1000,
                               device="h100", region="US")
        df = g.to_frame()
        self.assertEqual(len(df), 1)
        self.assertAlmostEqual(df["tp"][0], g["serving"]["tp"])
        self.assertIn("energy_facility_kwh_high", df.columns)

    def test_compare_frame_ranges_as_columns(self):
        c = joulecast.compare("models/resnet50.onnx", "models/resnet18.onnx", batch=8,
                              requests=1000, device="a100", region="FR")
        df = c.to_frame()
        for col in ("wall_hours", "wall_hours_low", "wall_hours_high", "co2_kg_high"):
            self.assertIn(col, df.columns)
        self.assertFalse(any(isinstance(v, dict) for v in df.values.ravel()))
        self.assertEqual(df["co2_kg_low"][1], c["models"][1]["co2_kg"]["low"])

    def test_unknown_keyword_suggests(self):
        # issue 44 item 16: a mistyped keyword gets the CLI's suggestion,
        # and a device name given as devices= means the device
        for kw, near in ((dict(regoin="FR"), "region"), (dict(devices="a100"), "device"),
                         (dict(devices=8), "count")):
            with self.assertRaises(joulecast.Error) as cm:
                joulecast.estimate("models/resnet18.onnx", **kw)
            self.assertIn("did you mean '%s'?" % near, cm.exception.message)
            self.assertEqual(cm.exception.status, 2)

    def test_dims_of_the_wrong_type(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/bert_base.onnx", dims=["sequence=128"])
        self.assertIn("takes a dict", cm.exception.message)
        self.assertNotIn("unknown option", cm.exception.message)
        self.assertEqual(cm.exception.status, 2)

    def test_warnings_are_python_warnings(self):
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            e = joulecast.estimate(model="models/resnet50.onnx", device="a100", batch=8, requests=10)
        got = [str(x.message) for x in w if issubclass(x.category, joulecast.JoulecastWarning)]
        self.assertEqual(got, e["warnings"])
        self.assertTrue(got)
        self.assertTrue(all(x.filename == __file__ for x in w), [x.filename for x in w])


class Errors(InWork):
    def check_like_cli(self, call, *cli_args):
        with self.assertRaises(joulecast.Error) as cm:
            call()
        out = cli_run(*cli_args)
        e = cm.exception
        self.assertEqual(e.status, out.returncode)
        self.assertEqual(e.exit_code, out.returncode)
        self.assertIn(e.message, out.stderr.decode())
        return e

    def test_unknown_device_suggests(self):
        e = self.check_like_cli(lambda: joulecast.estimate(device="a1000", flops=1e20),
                                "estimate", "--device", "a1000", "--flops", "1e20")
        self.assertEqual(e.status, 6)
        self.assertEqual(e.status_name, "not found")
        self.assertIn("did you mean", e.message)

    def test_yaml_line_and_column(self):
        bad = os.path.join("tests", "hwdb", "bad", "bad_kind.yaml")
        e = self.check_like_cli(lambda: joulecast.estimate(device="a100", flops=1e20,
                                                           hwdb=[joulecast.hwdb_dir(), bad]),
                                "estimate", "--device", "a100", "--flops", "1e20", "--hwdb", bad)
        self.assertEqual((e.status, e.file, e.line, e.col), (5, bad, 6, 11))

    def test_node_named(self):
        e = self.check_like_cli(lambda: joulecast.count("models/resnet50.onnx",
                                                        dims={"batch": 10 ** 15}),
                                "count", "models/resnet50.onnx", "--dim", "batch=%d" % 10 ** 15)
        self.assertEqual(e.status, 7)
        self.assertEqual(e.node, "/conv1/Conv")

    def test_batch_limit_like_cli(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/resnet50.onnx", batch=10 ** 15)
        out = cli_run("count", "models/resnet50.onnx", "--batch", str(10 ** 15))
        self.assertEqual(cm.exception.status, out.returncode)
        self.assertEqual(cm.exception.status, 7)
        self.assertIn("at most", cm.exception.message)

    def test_op_rules_position(self):
        rules = "tests/models/rules/bad_function.yaml"
        e = self.check_like_cli(lambda: joulecast.count("tests/models/cost/custom_fused_dense.onnx",
                                                        op_rules=rules),
                                "count", "tests/models/cost/custom_fused_dense.onnx",
                                "--op-rules", rules)
        self.assertEqual((e.file, e.line, e.col), (rules, 7, 26))

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
        e = self.check_like_cli(lambda: joulecast.count("models/no-such-model.onnx"),
                                "count", "models/no-such-model.onnx")
        self.assertEqual(e.status, 3)
        self.assertEqual(e.file, "models/no-such-model.onnx")

    def test_not_a_model(self):
        e = self.check_like_cli(lambda: joulecast.count("README.md"), "count", "README.md")
        self.assertEqual(e.status, 4)

    def test_input_value_reaches_the_analysis(self):
        self.check_like_cli(lambda: joulecast.count("tests/models/cost/einsum_3ops.onnx",
                                                    input_value="A=1,2"),
                            "count", "tests/models/cost/einsum_3ops.onnx", "--input-value", "A=1,2")

    def test_compare_needs_two_models(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.compare("models/resnet50.onnx", device="a100", region="FR", requests=10)
        self.assertEqual(cm.exception.status, 2)
        self.assertIn("two or more models", cm.exception.message)

    def test_sweep_axis_and_job_value_exclusive(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.sweep(flops=1e18, device="a100", devices="h100")
        self.assertIn("--devices", cm.exception.message)

    def test_hw_unknown_and_bad_kind(self):
        self.check_like_cli(lambda: joulecast.hw("a1000"), "hw", "show", "a1000")
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.hw(kind="gpuu")
        self.assertEqual(cm.exception.status, 2)

    def test_region_unknown(self):
        self.check_like_cli(lambda: joulecast.region("XX-NOWHERE"), "region", "show", "XX-NOWHERE")

    def test_ga_needs_runtime_format(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.ga(runtime="soon", cores=1)
        self.assertEqual(cm.exception.status, 2)

    def test_ga_input_without_effect_refused_like_cli(self):
        # one key table and one rule set for both front ends (src/workflows/ga_input.c)
        self.check_like_cli(lambda: joulecast.ga(runtime="2h", cores=4, gpu_usage=0.5),
                            "ga", "--runtime", "2h", "--cores", "4", "--gpu-usage", "0.5")
        self.check_like_cli(lambda: joulecast.ga(runtime="2h", cores=4, region="FR", ci=50),
                            "ga", "--runtime", "2h", "--cores", "4", "--region", "FR", "--ci", "50")

    def test_trace_without_effect_refused_like_cli(self):
        # one rule in the trace reader (src/trace/trace.c opts_apply) and in
        # calibrate's source (calibrate_run.c) for both front ends
        out = os.path.join(WORK, "z.yaml")
        self.check_like_cli(lambda: joulecast.calibrate("tests/data/codecarbon/a100-u031.csv",
                                                        model="models/resnet50.onnx", out=out,
                                                        train={"samples": 1000, "batch": 256}, gap=5),
                            "calibrate", "tests/data/codecarbon/a100-u031.csv", "models/resnet50.onnx",
                            "--train", "--samples", "1000", "--batch", "256", "--gap", "5", "--out", out)
        self.check_like_cli(lambda: joulecast.calibrate("tests/data/traces/nvidia-smi-2gpu.csv",
                                                        model="models/resnet50.onnx", out=out,
                                                        train={"samples": 1000, "batch": 256}, device="a100",
                                                        scope="wall"),
                            "calibrate", "tests/data/traces/nvidia-smi-2gpu.csv", "models/resnet50.onnx",
                            "--train", "--samples", "1000", "--batch", "256", "--device", "a100",
                            "--scope", "wall", "--out", out)

    def test_count_bindings_refused_like_cli(self):
        # jc_analyze refuses a binding that names nothing or loses a value,
        # and jc_request_analyze a --batch that binds nothing, for both front
        # ends (each was exit 0 with a meaningless or wrong count before)
        r18 = "models/resnet18.onnx"
        for call, args, status in (
                (lambda: joulecast.count(r18, batch=1, assume={"nothere": 3}),
                 ("--batch", "1", "--assume", "nothere=3"), 6),
                (lambda: joulecast.count(r18, inputs={"input": [0, 3, 224, 224]}),
                 ("--input", "input=0x3x224x224"), 2),
                (lambda: joulecast.count(r18, dims={"batch": 2}, dim=["batch=3"]),
                 ("--dim", "batch=2", "--dim", "batch=3"), 2)):
            e = self.check_like_cli(call, "count", r18, *args)
            self.assertEqual(e.status, status, args)
        e = self.check_like_cli(lambda: joulecast.count("tests/models/batchless/no_inputs.onnx", batch=8),
                                "count", "tests/models/batchless/no_inputs.onnx", "--batch", "8")
        self.assertIn("binds nothing", e.message)

    def test_one_value_key_given_twice_refused(self):
        # a list for a key that takes one value, or two aliases, kept the
        # last value silently (the CLI refuses --flops 1e18 --flops 2e18)
        for kw in ({"flops": [1e18, 2e18]}, {"flops": 1e18, "mfu": 0.3, "utilization": 0.4},
                   {"flops": 1e18, "train": True, "mode": "inference"}):
            with self.assertRaises(joulecast.Error) as cm:
                joulecast.estimate(device="a100", region="FR", **kw)
            self.assertEqual(cm.exception.status, 2, kw)
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/resnet18.onnx", batch=[1, 2])
        self.assertIn("one value is lost", cm.exception.message)
        out = cli_run("estimate", "--device", "a100", "--region", "FR", "--flops", "1e18", "--flops", "2e18")
        self.assertEqual(out.returncode, 2)
        # the same value twice, or a one-item list, is that value
        self.assertEqual(joulecast.count("models/resnet18.onnx", batch=[1])["totals"]["macs"],
                         joulecast.count("models/resnet18.onnx", batch=1)["totals"]["macs"])

    def test_binding_numbers_not_truncated(self):
        # dims / inputs / assume values went through int(): 2.7 counted at 2
        for kw in ({"dims": {"batch": 2.7}}, {"dims": {"batch": True}},
                   {"inputs": {"input": (2.5, 3, 224, 224)}}, {"dims": {"batch": "x"}}):
            with self.assertRaises(joulecast.Error) as cm:
                joulecast.count("models/resnet18.onnx", **kw)
            self.assertEqual(cm.exception.status, 2, kw)

    def test_statement_hf_options_refused_like_cli(self):
        # training-type and location fill the hf block alone (jc_report_statement)
        job = dict(device="a100", region="FR", train={"params": 1e9, "tokens": 1e10})
        args = ["--train", "--params", "1e9", "--tokens", "1e10", "--device", "a100", "--region", "FR"]
        self.check_like_cli(lambda: joulecast.statement(location="Paris", **job),
                            "statement", *args, "--location", "Paris")
        self.check_like_cli(lambda: joulecast.statement(format="latex", training_type="fine-tuning", **job),
                            "statement", *args, "--format", "latex", "--training-type", "fine-tuning")
        e = self.check_like_cli(lambda: joulecast.statement(format="word", **job),   # jc_statement_formats_parse
                                "statement", *args, "--format", "word")
        self.assertIn("format expects markdown, latex, hf, sentence or all", e.message)
        both = joulecast.statement(format="all", location="Paris", **job)
        self.assertIn("geographical_location: \"Paris\"", both["hf"])

    def test_grid_refusals_like_cli(self):
        # one rule set for sweep and compare (src/workflows/grid_rules.c)
        self.check_like_cli(lambda: joulecast.sweep(flops=1e15, requests=1000, devices="a100,h100",
                                                    regions="FR", embodied=True),
                            "sweep", "--flops", "1e15", "--requests", "1000", "--devices", "a100,h100",
                            "--regions", "FR", "--embodied")
        self.check_like_cli(lambda: joulecast.sweep(flops=1e15, requests=1000, devices="a100,h100",
                                                    regions="FR", hours=2),
                            "sweep", "--flops", "1e15", "--requests", "1000", "--devices", "a100,h100",
                            "--regions", "FR", "--hours", "2")
        self.check_like_cli(lambda: joulecast.sweep(flops=1e15, requests=1000, devices="a100",
                                                    precisions="fp8", regions="FR"),
                            "sweep", "--flops", "1e15", "--requests", "1000", "--devices", "a100",
                            "--precisions", "fp8", "--regions", "FR")
        self.check_like_cli(lambda: joulecast.compare("models/tiny_cnn.onnx", "models/resnet18.onnx",
                                                      batch=8, device="a100", hours=2),
                            "compare", "models/tiny_cnn.onnx", "models/resnet18.onnx", "--batch", "8",
                            "--device", "a100", "--hours", "2")

    def test_hw_kind_refused_like_cli(self):
        # one check of the list filters for both front ends (jc_hw_list_check)
        e = self.check_like_cli(lambda: joulecast.hw(kind="nope"), "hw", "list", "--kind", "nope")
        self.assertIn("--kind must be gpu, cpu, tpu, accelerator, soc or host", e.message)

    def test_region_filters_refused_like_cli(self):
        # jc_region_list_check: the filters of both front ends
        self.check_like_cli(lambda: joulecast.region(provider="aws", type="country"),
                            "region", "list", "--provider", "aws", "--type", "country")
        self.check_like_cli(lambda: joulecast.region(type="nope"), "region", "list", "--type", "nope")

    def test_sweep_top_and_ci_refused_like_cli(self):
        # top= has no effect on JSON (only html=True uses it); --ci with regions
        # gives every region one intensity (jc_sweep_spec_resolve)
        self.check_like_cli(lambda: joulecast.sweep(flops=1e15, requests=1000, devices="a100,h100",
                                                    regions="FR", top=1),
                            "sweep", "--flops", "1e15", "--requests", "1000", "--devices", "a100,h100",
                            "--regions", "FR", "--top", "1", "--json")
        self.check_like_cli(lambda: joulecast.sweep(flops=1e15, requests=1000, devices="a100",
                                                    regions="FR,DE", ci=50),
                            "sweep", "--flops", "1e15", "--requests", "1000", "--devices", "a100",
                            "--regions", "FR,DE", "--ci", "50")

    def test_sweep_options_refused_like_cli(self):
        # sweep's own options are parsed once, by the library (jci_sweep_opts_set,
        # jci_sweep_spec_from_opts): the same message from both front ends
        base = dict(flops=1e15, requests=1000)
        cli = ["sweep", "--flops", "1e15", "--requests", "1000"]
        for kw, args in ((dict(devices="a100,h100", regions="FR", sort="bogus"),
                          ["--devices", "a100,h100", "--regions", "FR", "--sort", "bogus"]),
                         (dict(devices="a100,,h100", regions="FR"), ["--devices", "a100,,h100", "--regions", "FR"]),
                         (dict(devices="a100", regions="FR", batches="0"), ["--devices", "a100", "--regions", "FR",
                                                                           "--batches", "0"]),
                         (dict(devices="a100", regions="FR", counts="1,x"), ["--devices", "a100", "--regions", "FR",
                                                                            "--counts", "1,x"]),
                         (dict(devices="a100", regions="FR", counts="1,2"), ["--devices", "a100", "--regions", "FR",
                                                                            "--counts", "1,2"]),
                         (dict(devices="a100", regions="FR", max_itl="fast"), ["--devices", "a100", "--regions", "FR",
                                                                              "--max-itl", "fast"])):
            e = self.check_like_cli(lambda: joulecast.sweep(**base, **kw), *cli, *args)
            self.assertEqual(e.status, 2, kw)

    def test_calibrate_options_refused_like_cli(self):
        # calibrate's own options: one parse and one set of rules in the library
        # (jc_calibrate_opts_set, jc_calibrate_opts_check)
        self.check_like_cli(lambda: joulecast.calibrate("nope.csv", device="a100"),
                            "calibrate", "nope.csv", "--device", "a100")
        self.check_like_cli(lambda: joulecast.calibrate("nope.csv", out="x.yaml", device="a100", row=0),
                            "calibrate", "nope.csv", "--out", "x.yaml", "--device", "a100", "--row", "0")
        e = self.check_like_cli(lambda: joulecast.calibrate("nope.csv", out="x.yaml", device="a100",
                                                            measured="t.csv"),
                                "calibrate", "nope.csv", "--out", "x.yaml", "--device", "a100", "--measured", "t.csv")
        self.assertIn("is for estimate", e.message)

    def test_train_and_infer_exclusive(self):
        with self.assertRaises(joulecast.Error):
            joulecast.estimate(device="a100", flops=1e20, train=True, infer=True)


class Hostile(InWork):
    """Issue 27 item 14: a NUL byte is refused, not a truncated C string;
    html=True raises joulecast.Error, not a JSONDecodeError."""

    def test_nul_in_model_path_refused(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/tiny_cnn.onnx\0/etc/passwd")
        self.assertEqual(cm.exception.exit_code, 2)
        self.assertIn("NUL", cm.exception.message)

    def test_nul_in_option_refused(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.estimate(model="models/tiny_cnn.onnx", device="a100\0x", requests=10)
        self.assertEqual(cm.exception.exit_code, 2)

    def test_html_keyword_is_an_error(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.count("models/tiny_cnn.onnx", html=True)
        self.assertEqual(cm.exception.exit_code, 2)
        self.assertIn("html", cm.exception.message)


class Keys(unittest.TestCase):
    """Every option of the CLI (but output formats) reaches the bindings."""

    def check(self, cmd):
        accepted = set(joulecast.keys(cmd))
        if cmd == "count":
            accepted.add("model")   # count's binding takes the model as its first argument
        missing = help_options(cmd) - OUTPUT_ONLY[cmd] - accepted
        self.assertFalse(missing, "option(s) %s of 'joulecast %s' are not accepted by the "
                         "binding of %s (src/bind/): add them there so Python's "
                         "joulecast.%s() takes them (or, for an output-format option, "
                         "to OUTPUT_ONLY in this file)" % (sorted(missing), cmd, cmd, cmd))

    def test_count_keys(self):
        self.check("count")

    def test_estimate_keys(self):
        self.check("estimate")

    def test_ga_keys(self):
        self.check("ga")

    def test_statement_keys(self):
        self.check("statement")

    def test_compare_keys(self):
        self.check("compare")

    def test_sweep_keys(self):
        self.check("sweep")

    def test_hw_keys(self):
        self.check("hw")

    def test_region_keys(self):
        self.check("region")

    def test_calibrate_keys(self):
        self.check("calibrate")

    def test_every_estimate_key_is_recognised(self):
        # a listed key given a malformed value fails on that value or later,
        # never as an unknown option
        for k in joulecast.keys("estimate"):
            try:
                joulecast._native.call("jc_run_estimate_json", None, [(k, "\x01")])
            except joulecast.Error as e:
                self.assertNotIn("unknown option", e.message, k)

    def test_unknown_command(self):
        with self.assertRaises(joulecast.Error):
            joulecast.keys("frobnicate")


class Snapshot(InWork):
    """The package's hwdb opens from its own snapshot, fresh after the
    install rewrote it; the result is the same as with the YAML parse."""

    def test_snapshot_is_the_package_s(self):
        snap = joulecast.hwdb_snapshot()
        self.assertEqual(snap, os.path.join(os.path.dirname(joulecast.__file__), "hwdb.snap"))

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


class Hostile43(InWork):
    """Issue 43 through the binding: a forged snapshot (a pointer changed,
    the checksum recomputed) is refused and the YAML used, in this
    process (the old mapped path followed the pointer and killed it); the
    statement's reproducing line is whole past 2 KB."""

    def test_forged_snapshot_refused(self):
        snap = joulecast.hwdb_snapshot()
        self.assertTrue(snap)
        args = dict(model="models/tiny_cnn.onnx", device="a100", region="FR",
                    infer={"requests": 1000, "batch": 8})
        os.environ["JOULECAST_HWDB_SNAPSHOT"] = "off"
        try:
            yaml = joulecast.estimate(**args)
        finally:
            del os.environ["JOULECAST_HWDB_SNAPSHOT"]
        for mode in ("header", "past_end", "misaligned", "self"):
            forged = os.path.join(WORK, "forged-%s.snap" % mode)
            subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tests", "snapshot", "forge_snapshot.py"),
                            snap, forged, mode, "0"], check=True)
            os.environ["JOULECAST_HWDB_SNAPSHOT"] = forged
            try:
                self.assertEqual(joulecast.estimate(**args), yaml, mode)
            finally:
                del os.environ["JOULECAST_HWDB_SNAPSHOT"]

    def test_statement_line_past_2kb(self):
        d = WORK
        for _ in range(10):
            d = os.path.join(d, "d" * 200)
        os.makedirs(d, exist_ok=True)
        model = os.path.join(d, "model it's.onnx")
        shutil.copy(os.path.join(ROOT, "models", "tiny_cnn.onnx"), model)
        text = joulecast.statement(model, device="a100", region="FR", infer={"requests": 1000, "batch": 8})
        line = re.search(r"joulecast estimate [^`\n]*", text).group(0)
        self.assertGreater(len(line), 2048)
        self.assertIn("model it'\\''s.onnx'", line)
        self.assertIn("--region FR", line)


class Hostile43Outputs(InWork):
    """Issue 43 items 6 and 7 through the binding: the sweep's grid cap
    (exit 7 naming the product and the cap, max_points= overrides it) and
    calibrate's out= refused onto its own measurements."""

    def test_sweep_grid_capped(self):
        with self.assertRaises(joulecast.Error) as e:
            joulecast.sweep("models/tiny_cnn.onnx", devices="all", regions="all", precisions="all",
                            batches=list(range(1, 11)), infer={"requests": 1000})
        self.assertEqual(e.exception.status, 7)
        m = re.search(r"(\d+) devices x (\d+) regions x 6 precisions x 10 batch sizes = ([\d,]+) grid points, "
                      r"above the cap of 400,000", e.exception.message)
        self.assertIsNotNone(m, e.exception.message)
        self.assertEqual(int(m[1]) * int(m[2]) * 60, int(m[3].replace(",", "")))
        with self.assertRaises(joulecast.Error) as e:
            joulecast.sweep("models/tiny_cnn.onnx", devices=["a100", "h100"], regions=["FR", "DE"],
                            infer={"requests": 1000}, max_points=3)
        self.assertEqual(e.exception.status, 7)
        r = joulecast.sweep("models/tiny_cnn.onnx", devices=["a100", "h100"], regions=["FR", "DE"],
                            infer={"requests": 1000}, max_points=4)
        self.assertEqual(r["grid"]["points"], 4)

    def test_calibrate_out_onto_its_measurements(self):
        meas = os.path.join(WORK, "meas43.csv")
        shutil.copy(os.path.join(ROOT, "tests", "data", "codecarbon", "a100-u031.csv"), meas)
        before = open(meas, "rb").read()
        with self.assertRaises(joulecast.Error) as e:
            joulecast.calibrate(meas, "models/resnet50.onnx", out=meas,
                                train={"samples": 1281167, "epochs": 2, "batch": 256}, region="FR")
        self.assertEqual(e.exception.status, 2)
        self.assertIn("an input of this run", e.exception.message)
        self.assertEqual(open(meas, "rb").read(), before)


class Hostile43Figures(InWork):
    """Issue 43 items 10-14 through the binding: each refusal the CLI makes
    is an Error with the CLI's exit status and its message (file, line:col
    or node where the CLI names one), never a figure."""

    def config(self, name, **keys):
        with open(os.path.join(ROOT, "tests", "serving", "configs", name)) as f:
            d = json.load(f)
        d.update(keys)
        p = os.path.join(WORK, "h43-" + name)
        with open(p, "w") as f:
            json.dump(d, f)
        return p

    def refused(self, status, text, fn):
        with self.assertRaises(joulecast.Error) as cm:
            fn()
        self.assertEqual(cm.exception.status, status, cm.exception.message)
        self.assertIn(text, cm.exception.message)
        return cm.exception

    def test_item10_config_key_bounded_by_its_option(self):
        # num_nextn_predict_layers: 1e12 gave 2.3e22 hours; --mtp-heads is capped at 64
        cfg = self.config("deepseek-v3.json", num_nextn_predict_layers=1e12)
        self.refused(7, "key 'num_nextn_predict_layers' is 1e+12, above the limit of the option it matches "
                        "(--mtp-heads: at most 64)",
                     lambda: joulecast.estimate(hf_config=cfg, train={"tokens": 1e9}, device="h100", count=8))

    def test_item10_hwdb_field_bounded_below(self):
        # peak_tflops 1e-300 gave 1.7e297 hours
        d = os.path.join(WORK, "h43-slow")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "dev.yaml"), "w") as f:
            f.write('schema: joulecast-hwdb/1\nsources:\n  s1: {citation: "test", url: "https://example.org", '
                    'year: 2024}\ndevices:\n  - id: slow-gpu\n    kind: gpu\n    vendor: Slow\n    name: "Slow"\n'
                    '    tdp_w: {value: 500, source: s1}\n    peak_tflops: {fp16: {value: 1e-300, source: s1}}\n')
        e = self.refused(5, "peak_tflops.fp16 = 1e-300 TFLOPS is out of range",
                         lambda: joulecast.estimate("models/resnet18.onnx", device="slow-gpu", precision="fp16",
                                                    infer={"requests": 1000}, hwdb=[joulecast.hwdb_dir(), d]))
        self.assertEqual((e.line, e.col), (10, 33))

    def test_item10_result_beyond_a_century_names_its_inputs(self):
        self.refused(7, "is over a century: not a run to estimate; the inputs behind it: work.forward_flops",
                     lambda: joulecast.estimate("models/resnet50.onnx", device="a100", infer={"requests": 1e15}))

    def test_item11_config_without_experts(self):
        # a Mixtral with zero experts became an attention-only model
        cfg = self.config("mixtral-8x7b.json", num_local_experts=0)
        self.refused(4, "key 'num_local_experts' must be a whole number >= 1",
                     lambda: joulecast.estimate(hf_config=cfg, generate=True, prompt_tokens=10, output_tokens=10,
                                                concurrency=1, device="h100"))

    def test_item12_hosts_hold_count_without_host(self):
        # one 8-device server class held 100 million GPUs
        self.refused(2, "--count 100,000,000 exceeds the 8 devices of --hosts 1 x system class 'server-8'",
                     lambda: joulecast.estimate("models/resnet50.onnx", device="a100", hosts=1, count=1e8,
                                                infer={"requests": 1000}))

    def test_item13_measurements(self):
        src = os.path.join(ROOT, "tests", "data", "codecarbon", "a100-u031.csv")
        with open(src) as f:
            lines = f.read().split("\n")
        job = dict(train={"samples": 1281167, "epochs": 2, "batch": 256}, region="FR")
        pue0 = os.path.join(WORK, "h43-pue0.csv")
        with open(pue0, "w") as f:
            f.write("\n".join([lines[0], re.sub(r",1\.2$", ",0", lines[1])] + lines[2:]))
        e = self.refused(7, "h43-pue0.csv:2: column 'pue': 0 is outside a facility's range [1, 3]",
                         lambda: joulecast.calibrate(pue0, "models/resnet50.onnx",
                                                     out=os.path.join(WORK, "h43-l1.yaml"), **job))
        self.assertFalse(os.path.exists(os.path.join(WORK, "h43-l1.yaml")))
        nul = os.path.join(WORK, "h43-nul.csv")
        with open(nul, "w") as f:
            f.write("\n".join([lines[0], lines[1].replace(",123.48", ",12\x003.48")] + lines[2:]))
        self.refused(2, "h43-nul.csv:2: a NUL byte: a measurement file is text",
                     lambda: joulecast.calibrate(nul, "models/resnet50.onnx",
                                                 out=os.path.join(WORK, "h43-l2.yaml"), **job))

    def test_item14_invalid_onnx_names_the_node(self):
        h = os.path.join("tests", "hostile")
        for f, node, text in (("ssa_two_writers.onnx", "relu_b", "output 'y' is written by node 'relu_a'"),
                              ("input_undefined.onnx", "add_undef", "input 'nowhere' is defined nowhere"),
                              ("gemm_alpha_nan.onnx", "gemm_nan", "attribute 'alpha' is NaN"),
                              ("matmul_string.onnx", "mm_str", "input 'a' is a string tensor")):
            e = self.refused(4, text, lambda f=f: joulecast.count(os.path.join(h, f)))
            self.assertIn(node, (e.node or "") + e.message, f)


class Memory(InWork):
    def test_repeated_calls_do_not_grow(self):
        # 200 calls through jc_free: resident memory stays within 20 MB
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
            joulecast.hw("a100")
        self.assertLess(rss_kb() - before, 20000)


if __name__ == "__main__":
    unittest.main()
