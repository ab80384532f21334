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
loses only initialisation and evaluations").  The measured time includes
the run's evaluations (every 384 samples in NVIDIA's configs,
VAL_CHECK_INTERVAL), which are not modelled.
"""

CONFIG = "tests/serving/configs/llama-2-70b.json"
RANK = "16"
TARGETS = "q_proj,k_proj,v_proj,o_proj"
SEQ = "8192"


# The precision the stack ran: NVIDIA's NeMo implementation, which the
# NVIDIA and OEM submissions run, trains in FP8 through Transformer Engine,
# attention included (mlcommons/training_results_v4.0@62f111b,
# NVIDIA/benchmarks/llama2_70b_lora/implementations/nemo/: FP8=True in
# config_DGXH100_1x8x4xtp4pp1cp1.sh and its siblings, FP8_DPA=1 in
# configs/config_common.sh); the DeepSpeed submissions, the devices
# without an FP8 peak (A100) and Intel's own Gaudi 2 implementation run at
# the database's default precision.
FP8_DEVICES = ("nvidia-h100-sxm5", "nvidia-h200-sxm", "nvidia-b200", "nvidia-l40s")


def precision(row, device):
    """["--precision", "fp8"] where the row's stack ran FP8, else []."""
    if device in FP8_DEVICES and "deepspeed" not in (row.get("framework") or "").lower() + row["system_name"].lower():
        return ["--precision", "fp8"]
    return []


def recipe(row, samples, device):
    """The joulecast arguments of a row that trained `samples` sequences on
    `device`, before the harness's device, count, batch and place."""
    return ["estimate", "--train", "--hf-config", CONFIG, "--finetune", "lora", "--lora-rank", RANK,
            "--lora-targets", TARGETS, "--seq", row.get("max_sequence_length") or SEQ,
            "--samples", "%.0f" % samples] + precision(row, device)


def minutes(js):
    """(low, central, high) minutes of a result: its wall time x the
    goodput of the same corner (the low wall time is the high goodput's),
    i.e. the steps at goodput 1."""
    w, g = js["results"]["wall_hours"], js["train_step"]["goodput"]
    return 60 * w["low"] * g["high"], 60 * w["central"] * g["central"], 60 * w["high"] * g["low"]


def describe(js):
    """The layout a row ran, for the harness's note."""
    t = js["train_step"]
    return "tp %g dp %g zero %g%s; %.1f of %.1f GB" % (t["tp"], t["dp"], t["zero"],
                                                       ", recompute" if t["why_recompute"] else "",
                                                       t["memory_gb"], t["memory_cap_gb"])
