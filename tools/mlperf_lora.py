#!/usr/bin/env python3
"""mlperf_lora.py - how tools/accuracy_training_mlperf.py predicts MLPerf
Training's Llama 2 70B LoRA rows (benchmark llama2_70b_lora; issue 40): the
fine-tuning request of a row and the minutes of its result.  A module of
the harness, not a set of its own.

A row is the request

  joulecast estimate --train --hf-config tests/serving/configs/llama-2-70b.json
      --finetune lora --lora-rank 16 --lora-targets q_proj,k_proj,v_proj,o_proj
      --seq 8192 --samples N  (+ the harness's --device --count --batch ...)

the benchmark's reference adapters (LoRA rank 16 on the attention
projections: the fused QKV and the output) on sequences of 8,192 tokens,
N = samples_count of samples_or_epoch_at_stop, at the precision the row's
stack ran (precision(): FP8 for NVIDIA's NeMo implementation on H100,
H200, B200 and L40S), the database's runtime default.  Its minutes are the
steps at goodput 1 in every corner (minutes()): an MLPerf run is timed from
run start to run stop over minutes, without a restart (the run-length
goodput rule gives 1 [0.97-1] there; the design note: "a short timed run
loses only initialisation and evaluations"), plus the run's evaluations
(evaluations()): the benchmark's rule, as the submissions' READMEs state
it (mlcommons/training_results_v4.0@62f111b, NVIDIA/benchmarks/
llama2_70b_lora/implementations/nemo/README.md, "Evaluation frequency"):
"Every 384 sequences ... Skipping first FLOOR(0.125*global_batch_size+2)
evaluations", each on "the validation subset that consists of 173
examples", in batches of the global batch (validation_ds.global_batch_size
= model.global_batch_size in conf/megatron_gpt_peft_tuning_config.yaml).
An evaluation is the forward pass of those batches at the training
layout: the step's time x the forward's share of the step's work (2 N
FLOPs a token of the 4 N of a LoRA step; of 6 N with recomputation).  Not
modelled: the start-up inside the timed run (the first steps run slower:
NVIDIA's Eos_n128 v4.0 log, result_0.txt, 56 s for its first 7,296
samples where its steady rate takes 37 s).

A row of the DeepSpeed stack (Juniper's submissions: the MLCommons
reference implementation through Hugging Face accelerate) runs the layout
its configuration names (layout()): ZeRO stage 3 over all the devices
(configs/ds_lora_config.json: "zero_optimization": {"stage": 3}, no tensor
parallelism), activation recomputation (run/run_single_node.sh:
--use_gradient_checkpointing True) and BF16 (--bf16 True), micro-batch 1
(JuniperNetworks/benchmarks/llama2_70b_lora/implementations/pytorch in
training_results_v4.0@62f111b), not the layout joulecast would choose.

  python3 tools/mlperf_lora.py selftest   the arithmetic above on known runs
"""
import math
import sys

CONFIG = "tests/serving/configs/llama-2-70b.json"
RANK = "16"
TARGETS = "q_proj,k_proj,v_proj,o_proj"
SEQ = "8192"
EVAL_EVERY = 384      # samples between evaluations (the benchmark's rule; module comment)
EVAL_SAMPLES = 173    # the validation subset's examples


# The precision the stack ran: NVIDIA's NeMo implementation, which the
# NVIDIA and OEM submissions run, trains in FP8 through Transformer Engine,
# attention included (mlcommons/training_results_v4.0@62f111b,
# NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/: FP8=True in
# config_DGXH100_1x8x4xtp4pp1cp1.sh and its siblings, FP8_DPA=1 in
# configs/config_common.sh); the DeepSpeed submissions, the devices
# without an FP8 peak (A100) and Intel's own Gaudi 2 implementation run at
# the database's default precision.
FP8_DEVICES = ("nvidia-h100-sxm5", "nvidia-h200-sxm", "nvidia-b200", "nvidia-l40s")


def deepspeed(row):
    """True for a row of the DeepSpeed stack (its framework or system name
    says so)."""
    return "deepspeed" in ((row.get("framework") or "") + row["system_name"]).lower()


def layout(row):
    """The layout arguments of a row whose stack fixes its own: DeepSpeed's
    ZeRO-3 data parallelism with activation recomputation (module
    comment); [] where joulecast chooses."""
    return ["--tp", "1", "--zero", "3", "--recompute"] if deepspeed(row) else []


def precision(row, device):
    """["--precision", "fp8"] where the row's stack ran FP8, else []."""
    if device in FP8_DEVICES and not deepspeed(row):
        return ["--precision", "fp8"]
    return []


def recipe(row, samples, device):
    """The joulecast arguments of a row that trained `samples` sequences on
    `device`, before the harness's device, count, batch and place."""
    return ["estimate", "--train", "--hf-config", CONFIG, "--finetune", "lora", "--lora-rank", RANK,
            "--lora-targets", TARGETS, "--seq", row.get("max_sequence_length") or SEQ,
            "--samples", "%.0f" % samples] + precision(row, device) + layout(row)


def evaluations(row):
    """(evaluations, validation batches each) of a row's timed run: one
    every EVAL_EVERY samples trained after the first FLOOR(0.125 x global
    batch + 2) are skipped, the last at the stop; each over EVAL_SAMPLES
    in batches of the global batch."""
    gbs = float(row["global_batch_size"])
    trained = float(row["samples_or_epoch_at_stop"].split("=", 1)[1])
    n = max(1, int(round(trained / EVAL_EVERY)) - int(math.floor(0.125 * gbs + 2)))
    return n, int(math.ceil(EVAL_SAMPLES / gbs))


def forward_share(row, js):
    """The share of a step's time the forward pass takes: its 2 N FLOPs a
    token over the step's executed work (the model FLOPs, plus one more
    forward where the step recomputes)."""
    t = js["train_step"]
    fwd = 2.0 * t["params_active"] * t["global_batch_tokens"]
    return fwd / (t["model_flops_step"] + (fwd if recomputes(row, js) else 0.0))


def recomputes(row, js):
    """True where the step recomputes activations (chosen by joulecast,
    which says why, or asked for by layout())."""
    return bool(js["train_step"]["why_recompute"]) or "--recompute" in layout(row)


def eval_minutes(row, js):
    """Minutes of the row's evaluations: evaluations x batches x the
    forward's share of the step's time."""
    n, batches = evaluations(row)
    return n * batches * forward_share(row, js) * js["train_step"]["step_s"] / 60


def minutes(row, js):
    """(low, central, high) minutes of a result: its wall time x the
    goodput of the same corner (the low wall time is the high goodput's),
    i.e. the steps at goodput 1, plus its evaluations."""
    w, g = js["results"]["wall_hours"], js["train_step"]["goodput"]
    e = eval_minutes(row, js)
    return 60 * w["low"] * g["high"] + e, 60 * w["central"] * g["central"] + e, 60 * w["high"] * g["low"] + e


def describe(row, js):
    """The layout a row ran and its evaluations, for the harness's note."""
    t = js["train_step"]
    return "tp %g dp %g zero %g%s; %.1f of %.1f GB" % (t["tp"], t["dp"], t["zero"],
                                                       ", recompute" if recomputes(row, js) else "",
                                                       t["memory_gb"], t["memory_cap_gb"]) + \
        "%s; %d evaluations of %d batches, %.2f min" % ("; DeepSpeed's layout" if deepspeed(row) else "",
                                                         evaluations(row)[0], evaluations(row)[1], eval_minutes(row, js))


def selftest():
    """The evaluation count of the runs whose logs show it, DeepSpeed's
    layout and precision, the forward share on a hand-made step.  Prints
    one line; exit 1 on a mismatch."""
    def row(gbs, samples, framework="NVIDIA NeMo Framework Release 24.04", name="Eos"):
        return {"global_batch_size": str(gbs), "samples_or_epoch_at_stop": "samples_count=%s" % samples,
                "framework": framework, "system_name": name}
    ds = row(8, 3840.0, "NGC PyTorch Release 24.01 Deepspeed N1", "H100_n1")
    step = {"train_step": {"params_active": 10.0, "global_batch_tokens": 3.0, "model_flops_step": 120.0,
                           "why_recompute": None, "step_s": 60.0}}
    got = {
        # NVIDIA's 1-node configs skip 3 (first at 1,536), 22 batches of 8
        "gbs8": evaluations(row(8, 3072.0)),
        # Eos_n128 v4.0 result_0.txt: evaluations at 7,296 ... 11,136
        "gbs128": evaluations(row(128, 11136.0)),
        # Juniper H100_n1 result_0.txt: evaluations at 1,536 ... 3,840
        "juniper": evaluations(ds),
        "layout": layout(ds), "nemo_layout": layout(row(8, 3072.0)),
        "precision": precision(ds, "nvidia-h100-sxm5"),
        "nemo_precision": precision(row(8, 3072.0), "nvidia-h100-sxm5"),
        "share": forward_share(row(8, 3072.0), step),       # 60 / 120
        "share_recompute": forward_share(ds, step),        # 60 / 180
        "eval_min": eval_minutes(row(8, 3072.0), step),     # 5 x 22 x 0.5 x 60 s
    }
    want = {"gbs8": (5, 22), "gbs128": (11, 2), "juniper": (7, 22),
            "layout": ["--tp", "1", "--zero", "3", "--recompute"], "nemo_layout": [],
            "precision": [], "nemo_precision": ["--precision", "fp8"],
            "share": 0.5, "share_recompute": 1.0 / 3, "eval_min": 55.0}
    bad = [k for k in want if (abs(got[k] - want[k]) > 1e-9 if isinstance(want[k], float) else got[k] != want[k])]
    print("%s mlperf_lora selftest: Llama 2 70B LoRA evaluations by the benchmark's rule (5, 11 and 7 on "
          "the runs whose logs show them), DeepSpeed's ZeRO-3 layout at BF16, the forward's share of a step%s" % (
              "PASS" if not bad else "FAIL", "" if not bad else ": " + ", ".join(
                  "%s %r != %r" % (k, got[k], want[k]) for k in bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(selftest() if sys.argv[1:] == ["selftest"] else 2)
