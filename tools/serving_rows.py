"""serving_rows.py - the calibration rows of LLM serving (tests/accuracy/
serving-rows.yaml) turned into joulecast runs: one Hugging Face style
config.json per model written from the row's architecture facts, one
`joulecast estimate --generate ... --json` per row, the prediction read
back.  Shared by tools/fit_serving.py and tools/accuracy_serving.py
(standard library + PyYAML).

Facts the rows do not carry (model family, gated MLP, tied embeddings,
experts, sliding windows) come from FAMILIES below; each says where it is
from.  Assumptions for figures a row lacks are in ASSUMPTIONS and are
printed by the harness.
"""
import ctypes
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = os.path.join(ROOT, "tests", "accuracy", "serving-rows.yaml")

# model-name prefix -> config facts beyond the row's arch block
# (experts/top-k and sliding windows: the calibration file's models.*.extra;
# MLP form and tied embeddings: the families' published configs)
FAMILIES = [
    ("meta-llama/", {"family": "llama", "model_type": "llama"}),
    ("codellama/", {"family": "llama", "model_type": "llama"}),
    ("mistralai/Mixtral", {"family": "mixtral", "model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2}),
    ("mistralai/", {"family": "mistral", "model_type": "mistral"}),
    ("google/gemma-2", {"family": "gemma", "model_type": "gemma2", "sliding_window": 4096, "tie_word_embeddings": True}),
    ("google/codegemma", {"family": "gemma", "model_type": "gemma", "tie_word_embeddings": True}),
    ("microsoft/Phi-3", {"family": "phi3", "model_type": "phi3"}),
    ("bigcode/starcoder2", {"family": "starcoder2", "model_type": "starcoder2", "tie_word_embeddings": True}),
]

ASSUMPTIONS = {
    "v3_prompt_tokens": 300,
    "v3_prompt_note": "ML.ENERGY v3 publishes no mean prompt length (lm-arena-chat prompts are the concatenated "
                      "conversation history): 300 tokens is assumed for every v3 row, the most the rows' own running "
                      "batch allows: Llama-3.1-70B on 4 H100 ran 898.5 sequences at max_num_seqs 1024, and the KV "
                      "memory a GPU has after its weights (0.9 x 80 GB - 35.3 GB) holds 448k tokens at 81,920 B per "
                      "token, so a running sequence's mean context P + O/2 is at most 499 tokens and, with O = 351, "
                      "P at most 324 (less where vLLM reserves activation memory)",
    "phi3_small": "Phi-3-small's alternating block-sparse attention is modelled as dense attention",
}

DEVICES = {"NVIDIA H100 80GB HBM3": "nvidia-h100-sxm5", "NVIDIA A100-SXM4-40GB": "nvidia-a100-sxm4-40gb"}


def load_rows():
    with open(ROWS) as f:
        return yaml.safe_load(f)["rows"]


def config_for(row):
    """The config.json (a dict) of the row's model, from its arch facts."""
    a = row["arch"]
    fam = None
    for prefix, facts in FAMILIES:
        if row["model"].startswith(prefix):
            fam = facts
            break
    if fam is None:
        return None
    c = {
        "_comment": "written by tools/serving_rows.py from the architecture facts of tests/accuracy/serving-rows.yaml",
        "num_hidden_layers": a["layers"], "hidden_size": a["hidden"], "num_attention_heads": a["heads"],
        "num_key_value_heads": a["kv_heads"], "head_dim": a["head_dim"], "intermediate_size": a["ffn"],
        "vocab_size": a["vocab"], "max_position_embeddings": a["ctx"], "torch_dtype": "bfloat16",
        "tie_word_embeddings": False,
    }
    c.update({k: v for k, v in fam.items() if k != "family"})
    return c


def prompt_tokens(row):
    if row.get("input_tokens") is not None:
        return float(row["input_tokens"])
    return float(ASSUMPTIONS["v3_prompt_tokens"])


def measured_power_per_gpu(row):
    if row.get("power_w_all_gpus") is not None:
        return row["power_w_all_gpus"] / row["num_gpus"]
    return row["j_per_output_token"] * row["tokens_per_s"] / row["num_gpus"]


def family(row):
    """The model family of a row (leave-one-family-out folds)."""
    for prefix, facts in FAMILIES:
        if row["model"].startswith(prefix):
            return facts["family"]
    return row["model"].split("/")[0]


def runtime(row):
    """The runtime profile of a row: vLLM before 0.6 (ML.ENERGY v2, 0.5.4)
    or later (v3, 0.11.1); src/estimate/serving.c says what differs."""
    return "vllm-0.5" if row["software"].startswith("vLLM v0.5") else "vllm"


class Runner:
    """Runs joulecast on rows in this process, through the Python binding
    (python/joulecast, the library the CLI uses).  set_constants() replaces
    the fitted block of hwdb/serving.yaml in a private copy of the database
    (symlinks to every other file) and snapshots it, so each run opens the
    snapshot."""

    def __init__(self, jobs=2):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import joulecast  # noqa: F401
        from joulecast import _native
        self.N = _native
        self.tmp = tempfile.mkdtemp(prefix="jc-serving-")
        self.jobs = jobs
        self.configs = {}
        self.base = os.path.join(ROOT, "hwdb")
        self.snap = os.path.join(ROOT, "build", "hwdb.snap")

    def set_constants(self, block_lines, power=None):
        """block_lines: YAML lines of the constants in place of the fitted
        block of hwdb/serving.yaml; power: {id: value} of the device power
        constants of hwdb/energy-model.yaml (power_k_*; tools/fit_power.py)
        in place of the hwdb's, or None: the hwdb's."""
        import fit_common as fc
        hw = os.path.join(self.tmp, "hwdb")
        own = ("serving.yaml", "energy-model.yaml")
        if not os.path.isdir(hw):
            os.makedirs(hw)
            for name in os.listdir(os.path.join(ROOT, "hwdb")):
                if name not in own:
                    os.symlink(os.path.join(ROOT, "hwdb", name), os.path.join(hw, name))
        text = open(os.path.join(ROOT, "hwdb", "serving.yaml")).read()
        b = text.index("  # ---- BEGIN fitted")
        e = text.index("  # ---- END fitted ----")
        with open(os.path.join(hw, "serving.yaml"), "w") as f:
            f.write(text[:b] + "\n".join(block_lines) + "\n" + text[e:])
        em = os.path.join(hw, "energy-model.yaml")
        with open(em, "w") as f:
            f.write(open(os.path.join(ROOT, "hwdb", "energy-model.yaml")).read())
        for cid, v in (power or {}).items():
            fc.write_constant(cid, v, v, v, path=em)
        snap = os.path.join(self.tmp, "hwdb.snap")
        lib = self.N.load()
        d = self.N._Diag()
        if lib.jc_hwdb_snapshot_write(os.fsencode(hw), os.fsencode(snap), ctypes.byref(d)) != 0:
            raise RuntimeError("hwdb snapshot: %s" % d.msg.decode())
        self.base, self.snap = hw, snap

    def config_path(self, row):
        name = row["model"].replace("/", "--")
        if name not in self.configs:
            c = config_for(row)
            if c is None:
                return None
            p = os.path.join(self.tmp, name + ".json")
            with open(p, "w") as f:
                json.dump(c, f, indent=1)
            self.configs[name] = p
        return self.configs[name]

    def options(self, row):
        """The row's request: the options of `joulecast estimate --generate`."""
        cfg = self.config_path(row)
        dev = DEVICES.get(row["gpu"])
        if cfg is None or dev is None:
            return None
        return dict(generate=True, hf_config=cfg, prompt_tokens=prompt_tokens(row),
                    output_tokens=row["output_tokens"], concurrency=max(1, round(row["running_batch"])),
                    device=dev, count=row["num_gpus"], tp=row["tp"], pp=row.get("pp") or 1, requests=1000,
                    ci=400, pue=1, serving_runtime=runtime(row))

    def args(self, row):
        """The same request as a command line (for the harness's page)."""
        o = self.options(row)
        if o is None:
            return None
        a = ["joulecast", "estimate"]
        for k, v in o.items():
            a += ["--" + k.replace("_", "-")] if v is True else ["--" + k.replace("_", "-"), "%s" % v]
        return a

    def run_one(self, row):
        o = self.options(row)
        if o is None:
            return {"error": "architecture or device not known to the harness"}
        kv = self.N.pairs(o) + [("hwdb-snapshot", self.snap)]
        try:
            j = self.N.call("jc_run_estimate_json", self.base, kv)
        except self.N.Error as e:
            # never silent: the row, its request and the library's message
            sys.stderr.write("accuracy: %s: joulecast run failed: %s\n  request: %s\n" % (
                row.get("id", "?"), e.message, " ".join(self.args(row) or [])))
            sys.stderr.flush()
            return {"error": e.message}
        r, s = j["results"], j["serving"]
        av = {x["key"]: x["value"]["central"] for x in j["assumptions"]}
        return {
            "idle_w": av.get("device.idle_w"), "tdp_w": av.get("device.tdp_w"),
            "j_tok": r["j_per_output_token_device"], "tps": r["tokens_per_s"]["central"],
            "power": r["avg_power_w_per_device"]["central"], "itl": r["itl_s"]["central"],
            "memory_limited": s["memory_limited"], "concurrency": s["concurrency"], "warnings": j["warnings"],
        }

    def run(self, rows):
        with ThreadPoolExecutor(self.jobs) as ex:
            return list(ex.map(self.run_one, rows))
