"""test_frontends.py - joulecast.from_torch and joulecast.from_hf_config,
run with the pip-installed package (tests/python.sh) and Debian's
python3-torch / python3-torchvision through the venv's system site
packages:

  - torchvision's ResNet-18 at 1x3x224x224: 1,814,073,344 MACs (the
    figure torchvision's own model table gives, 1.81 GMACs);
  - a small transformer encoder LM (torch.nn.TransformerEncoder, exported
    outside torch.no_grad(): torch 1.13's no_grad fast path does not
    export) at its example shape and at bound dims: the hand count of its
    projections, attention products, feed-forward and LM head;
  - with estimate arguments, the same document as the CLI's estimate of
    the same module exported by hand;
  - the temporary ONNX file is removed; an export failure is a
    joulecast.Error (status 4) carrying torch's message;
  - a freshly built nn.TransformerEncoder (its layers deep copies of one,
    which torch.onnx.export stores once) warns with the export's and the
    module's parameter counts; the same model with its layers initialised
    apart does not;
  - from_hf_config(dict) gives what the CLI's --hf-config gives for the
    same file (the document, or the same refusal while the library has no
    "hf-config" key); without a mode it is the serving estimate, as
    `estimate --generate --hf-config`; train=... is the training one.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import joulecast

ROOT = os.environ.get("JC_SRC") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
JC = os.environ.get("JC_RELEASE", os.path.join(ROOT, "build", "joulecast"))

import torch  # noqa: E402  (Debian's python3-torch: make test installs it)
import torchvision  # noqa: E402

# the model of the example (python/examples/torch_to_estimate.py): one
# definition, which this test also checks
sys.path.insert(0, os.path.join(ROOT, "python", "examples"))
from torch_to_estimate import D, FF, HEADS, LAYERS, VOCAB, TinyLM  # noqa: E402,F401


def tiny_lm():
    torch.manual_seed(0)
    m = TinyLM()
    # distinct values for every weight: TransformerEncoder deep-copies one
    # layer, and the exporter stores identical tensors once
    with torch.no_grad():
        for p in m.parameters():
            p.normal_(0.0, 0.02)
    return m


def hand_macs(batch, seq):
    """Q, K, V and output projections (4 L D^2), scores and weighted sum
    (2 L^2 D), feed-forward (2 L D FF) per layer, then the LM head (L D V)."""
    per_layer = 4 * seq * D * D + 2 * seq * seq * D + 2 * seq * D * FF
    return batch * (LAYERS * per_layer + seq * D * VOCAB)


class NotExportable(torch.nn.Module):
    def forward(self, x):
        return torch.fft.fft(x).real  # no ONNX export of fft in torch 1.13


def cli_json(*args):
    env = dict(os.environ, JOULECAST_HWDB_DIR=joulecast.hwdb_dir(),
               JOULECAST_HWDB_SNAPSHOT=joulecast.hwdb_snapshot() or "off")
    out = subprocess.run([JC] + list(args), env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    return out.returncode, out.stdout.decode(), out.stderr.decode()


class TempDir(unittest.TestCase):
    """Each test's temporary files go to a folder of its own, checked
    empty afterwards (from_torch removes its ONNX file)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="joulecast-fe-")
        self.saved = tempfile.tempdir
        tempfile.tempdir = self.tmp

    def tearDown(self):
        tempfile.tempdir = self.saved
        left = os.listdir(self.tmp)
        os.rmdir(self.tmp) if not left else None
        self.assertEqual(left, [], "temporary files left behind")


class FromTorch(TempDir):
    def test_resnet18_macs(self):
        r = joulecast.from_torch(torchvision.models.resnet18(), torch.randn(1, 3, 224, 224))
        self.assertEqual(r["totals"]["macs"], 1814073344)
        self.assertFalse(r["partial"])

    def test_transformer_count_at_example_and_bound_dims(self):
        m = tiny_lm()
        tokens = torch.randint(0, VOCAB, (2, 16))
        r = joulecast.from_torch(m, tokens, dynamic=("batch", "sequence"))
        self.assertFalse(r["partial"])
        self.assertEqual(r["totals"]["macs"], hand_macs(2, 16))
        r = joulecast.from_torch(m, tokens, dynamic=("batch", "sequence"),
                                 dims={"batch": 8, "sequence": 128})
        self.assertEqual(r["totals"]["macs"], hand_macs(8, 128))
        self.assertEqual(len(r.to_frame()), len(r["nodes"]))
        self.assertTrue(m.training, "from_torch changed the module's mode")

    def test_transformer_estimate_equals_cli(self):
        m = tiny_lm()
        tokens = torch.randint(0, VOCAB, (2, 16))
        got = joulecast.from_torch(m, tokens, dynamic=("batch", "sequence"),
                                   dims={"sequence": 128}, device="a100", count=8, region="FR",
                                   train={"batch": 8, "seq": 128, "tokens": 1e9})
        self.assertEqual(got["mode"], "training")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tiny_lm.onnx")
            m.eval()
            torch.onnx.export(m, (tokens,), path, input_names=["input"],
                              output_names=["output_0"],
                              dynamic_axes={"input": {0: "batch", 1: "sequence"},
                                            "output_0": {0: "batch"}}, opset_version=14)
            rc, out, err = cli_json("estimate", path, "--dim", "sequence=128", "--train",
                                    "--batch", "8", "--seq", "128", "--tokens", "1e9",
                                    "--device", "a100", "--count", "8", "--region", "FR", "--json")
        self.assertEqual(rc, 0, err)
        # the model's temporary path (quoted in assumption sources) aside
        def same_path(doc):
            return json.loads(re.sub(r'[^" ,]*\.onnx', "MODEL.onnx", json.dumps(doc)))
        self.assertEqual(same_path(got), same_path(json.loads(out)))
        self.assertTrue(got._repr_html_().startswith("<!DOCTYPE html>"))

    def test_fresh_encoder_equal_layers_warned(self):
        # issue 44 item 14: 3 equal layers exported once counted a third of
        # the module's weight matrices, without a word
        torch.manual_seed(0)
        enc = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(64, 4, 256), 3)
        total = sum(p.numel() for p in enc.parameters())
        with self.assertWarns(joulecast.JoulecastWarning) as cm:
            r = joulecast.from_torch(enc, torch.randn(10, 2, 64), dynamic=())
        msg = str(cm.warning)
        m = re.search(r"export holds (\d+) parameters, the module (\d+) \((\d+) fewer\)", msg)
        self.assertIsNotNone(m, msg)
        self.assertEqual(int(m.group(1)), r["totals"]["params"])
        self.assertEqual(int(m.group(2)), total)
        self.assertLess(r["totals"]["params"], total / 2)   # one layer's matrices of three
        self.assertIn(msg, r["warnings"])
        # docs/pytorch.md quotes this warning's figures (tools/docs_figures.py: sourced here)
        doc = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "pytorch.md")
        self.assertIn("the ONNX export holds %s parameters, the module %s" % (m.group(1), m.group(2)),
                      " ".join(open(doc).read().split()))
        # the estimate warns the same (its document has no parameter count)
        with self.assertWarnsRegex(joulecast.JoulecastWarning, re.escape(m.group(0))):
            e = joulecast.from_torch(enc, torch.randn(10, 2, 64), dynamic=(), device="h100")
        self.assertTrue(any(m.group(0) in w for w in e["warnings"]))
        # layers initialised apart: every matrix exported, no warning
        with torch.no_grad():
            for p in enc.parameters():
                p.normal_(0.0, 0.02)
        r = joulecast.from_torch(enc, torch.randn(10, 2, 64), dynamic=())
        self.assertEqual(r["totals"]["params"], total)
        self.assertFalse([w for w in r["warnings"] if "export holds" in w])

    def test_export_failure_carries_torch_message(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.from_torch(NotExportable(), torch.randn(2, 8))
        self.assertEqual(cm.exception.status, 4)
        self.assertIn("torch.onnx.export", cm.exception.message)
        self.assertIn("fft", cm.exception.message)

    def test_bad_dynamic_axis_name(self):
        with self.assertRaises(joulecast.Error) as cm:
            joulecast.from_torch(torchvision.models.resnet18(), torch.randn(1, 3, 224, 224),
                                 dynamic=("channels",))
        self.assertEqual(cm.exception.status, 2)


# Llama 3.1 8B's published architecture (Meta's model card / config):
# 32 layers, hidden 4096, MLP 14336, 32 heads with 8 KV heads, vocabulary
# 128256.  Written here from those facts, not copied from a file.
LLAMA_8B = {
    "model_type": "llama", "architectures": ["LlamaForCausalLM"],
    "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
    "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256,
    "max_position_embeddings": 131072, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
    "tie_word_embeddings": False, "torch_dtype": "bfloat16", "hidden_act": "silu",
}
SERVING = dict(generate=True, prompt_tokens=500, output_tokens=300, concurrency=64,
               requests=10000000, device="h100", region="US")
SERVING_CLI = ["--generate", "--prompt-tokens", "500", "--output-tokens", "300",
               "--concurrency", "64", "--requests", "10000000", "--device", "h100",
               "--region", "US"]


class FromHfConfig(TempDir):
    def test_dict_same_as_cli_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config.json")
            with open(path, "w") as f:
                json.dump(LLAMA_8B, f)
            rc, out, err = cli_json("estimate", "--hf-config", path, *SERVING_CLI, "--json")
            try:
                by_path = joulecast.from_hf_config(path, **SERVING)
            except joulecast.Error as e:
                by_path = e
        try:
            got = joulecast.from_hf_config(dict(LLAMA_8B), **SERVING)
        except joulecast.Error as e:
            got = e
        if "hf-config" not in joulecast.keys("estimate"):
            # the library has no --hf-config yet (issue #15): both refuse it
            self.assertEqual(rc, 2, out)
            self.assertIn("hf-config", err)
            for g in (got, by_path):
                self.assertIsInstance(g, joulecast.Error)
                self.assertEqual(g.status, 2)
                self.assertIn("'hf-config'", g.message)
            return
        self.assertEqual(rc, 0, err)
        want = json.loads(out)
        self.assertEqual(by_path, want)
        # the config's temporary path is the only difference there can be
        self.assertEqual(json.dumps(got, sort_keys=True).count("config.json") > 0,
                         json.dumps(want, sort_keys=True).count("config.json") > 0)
        self.assertEqual(got["results"], want["results"])
        # real serving figures, not only the same document: Llama 3.1 8B
        # has 8.03e9 parameters (Meta's model card), all active (dense)
        sv = want["serving"]
        self.assertEqual(want["mode"], "generation")
        self.assertTrue(8.0e9 < sv["params_total"] < 8.1e9, sv["params_total"])
        self.assertEqual(sv["params_active"], sv["params_total"])
        self.assertEqual((sv["prompt_tokens"], sv["output_tokens"]), (500, 300))
        for k in ("ttft_s", "itl_s", "tokens_per_s", "j_per_output_token", "j_per_request"):
            r = want["results"][k]
            self.assertTrue(0 < r["low"] <= r["central"] <= r["high"], (k, r))
        # the time to first token exceeds one decode step (it is a prefill of 500)
        self.assertGreater(want["results"]["ttft_s"]["central"], want["results"]["itl_s"]["central"])

    def test_html_same_as_cli(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config.json")
            with open(path, "w") as f:
                json.dump(LLAMA_8B, f)
            rc, html, err = cli_json("estimate", "--hf-config", path, *SERVING_CLI, "--html", "-")
            self.assertEqual(rc, 0, err)
            self.assertEqual(joulecast.from_hf_config(path, **SERVING)._repr_html_(), html)

    def test_without_mode_is_the_serving_estimate(self):
        # issue 44 item 14: a config is read by the serving model, so
        # without generate= / train= it is the CLI's estimate --generate
        serving = {k: v for k, v in SERVING.items() if k != "generate"}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "config.json")
            with open(path, "w") as f:
                json.dump(LLAMA_8B, f)
            rc, out, err = cli_json("estimate", "--hf-config", path, *SERVING_CLI, "--json")
            got = joulecast.from_hf_config(path, **serving)
            self.assertEqual(rc, 0, err)
            self.assertEqual(got, json.loads(out))
            self.assertEqual(got["mode"], "generation")
            # a mode given is kept: train=True is the training step model
            tr = joulecast.from_hf_config(path, train=True, tokens=1e9, seq=2048, device="h100",
                                          count=8, region="US")
            self.assertEqual(tr["mode"], "training")


if __name__ == "__main__":
    unittest.main()
