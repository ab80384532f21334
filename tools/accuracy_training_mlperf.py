#!/usr/bin/env python3
"""accuracy_training_mlperf.py - the MLPerf Training set of `make accuracy`
(issue 39 item 5): time to train of the closed-division results of MLPerf
Training v4.0 and v4.1 (tests/accuracy/mlperf-training.csv, copied from
../shared/data/calibration/mlperf-training-v4.0-v4.1.csv by --import) for
the benchmarks whose model the project has, cross-validated leave one
benchmark out and leave one system out (tools/crossval.py).

How a row is predicted: a joulecast training request for what the run
trained (`samples_or_epoch_at_stop`), on `total_accelerators` of the row's
device, with its server where the hwdb has one (else the device's system
class), the row's global batch and
sequence length:

  gpt3    joulecast estimate --train --params 175e9 --layers 96
              --hidden 12288 --heads 96 --seq S --batch B --tokens T
              --device D --count G ...  (the training step model; GPT-3
              175B's shape: Brown et al. 2020, Table 2.1)
  bert    joulecast estimate models/bert_large.onnx --dim sequence=256
              --train --samples N --epochs 1 --batch B ...  (sequence=512
              where the implementation pads every sample: tinygrad)
  resnet  joulecast estimate models/resnet50.onnx --train
              --samples 1281167 --epochs E --batch B ...
  llama2_70b_lora  joulecast estimate --train --hf-config
              tests/serving/configs/llama-2-70b.json --finetune lora
              --lora-rank 16 --lora-targets q_proj,k_proj,v_proj,o_proj
              --seq 8192 --samples N --batch B ...  (tools/mlperf_lora.py;
              its minutes at goodput 1: a timed run of minutes has no
              restarts; plus its evaluations)

measured = time_to_train_min / scaling_factor (the run's own time; the
official score multiplies it by the review committee's convergence
normalisation); rows flagged `identical_runs_in_rounds` are one run
submitted more than once and are counted once (the copy that logged what
it trained).  Each row runs its own stack's runtime profile, by the row's
framework column (stack(): NVIDIA's GPT-3 is NeMo / Megatron-LM with
Transformer Engine, --runtime megatron; Google's MaxText, --runtime
jax-xla; NVIDIA's ResNet-50 the tuned NGC stack, --runtime cnn-tuned;
tinycorp's tinygrad rows --runtime tinygrad; the rest the default eager
PyTorch), and NVIDIA's BERT on more than one device reduces its
gradients after the backward (--dp-overlap 0: BERT_RUNS).  Two constants are fitted with these rows.  The tinygrad
profile's tensor efficiency (runtime_tinygrad_eta_tensor,
tools/fit_runtime_profiles.py --profile tinygrad: the median of the two
tinybox BERT rows' values); a fold refits it from the tinygrad rows it
keeps, and a tinygrad row whose fold keeps none (leaving BERT out: the
tinybox ResNet-50 rows do not log the epochs they trained) takes the other
tinygrad system's value, so each tinybox row is predicted from the other.
And the cnn-tuned profile's tensor-core efficiency
(runtime_cnn_tuned_eta_tensor, tools/fit_runtime_profiles.py: the median
of per-row values over the DeepLearningExamples V100 AMP rows and these
ResNet-50 rows); every fold refits it without its held-out rows
(fit_tuned), so leaving ResNet-50 out predicts it from the V100 rows alone.
train_step_eta is fitted to the pre-training runs of
tests/accuracy/training-runs.csv (tools/fit_training_step.py), not to
these rows.  The folds give the ranges (tools/crossval.py: each held-out
row's range from the other folds' residuals).

Node power while training (issue 39 item 4) is a second table,
docs/accuracy/training_mlperf_power.md: the AC rows (whole nodes at the
power shelf, plus the submitter's switch estimate; the DC rows are the same
runs) and the node-log row, each predicted per node as (device energy at
the activity the step predicts + host energy) / wall time / hosts.

  python3 tools/accuracy_training_mlperf.py [--rows FILE] [--out DIR]
  python3 tools/accuracy_training_mlperf.py --import CALIBRATION.csv
        rewrite tests/accuracy/mlperf-training.csv from the calibration file
"""
import csv
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import crossval as cv  # noqa: E402
import mlperf_lora as lora  # noqa: E402
import fit_common as fc  # noqa: E402
import fit_runtime_profiles as frp  # noqa: E402

ROWS = os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-training.csv")

# The calibration file's columns the harness keeps (the others: per-run
# times, dropped-run counts and the verification text, in the source file).
COLUMNS = ("round", "submitter", "system_name", "benchmark", "accelerator", "accelerators_per_node", "nodes",
           "total_accelerators", "host_cpu", "framework", "time_to_train_min", "scaling_factor",
           "global_batch_size", "max_sequence_length", "train_samples_in_dataset", "samples_or_epoch_at_stop",
           "energy_kWh", "avg_power_kW", "power_scope", "identical_runs_in_rounds", "source")

# Accelerator names as the submissions write them -> hwdb device ids.
DEVICES = {
    "NVIDIA H100-SXM5-80GB": "nvidia-h100-sxm5", "NVIDIA H100-SXM-80GB": "nvidia-h100-sxm5",
    "NVIDIA H100 80GB HBM3": "nvidia-h100-sxm5", "NVIDIA H200-SXM5-141GB": "nvidia-h200-sxm",
    "NVIDIA H100-PCIe-80GB": "nvidia-h100-pcie", "H100 NVL Tensor Core GPU (PCIe)": "nvidia-h100-nvl",
    "NVIDIA Blackwell GPU (B200-SXM-180GB)": "nvidia-b200", "NVIDIA A100-SXM4-80GB": "nvidia-a100-sxm4-80gb",
    "NVIDIA A100 - PCIe - 80 GB": "nvidia-a100-pcie-80gb", "NVIDIA L40S": "nvidia-l40s",
    "NVIDIA GeForce RTX 4090": "nvidia-rtx-4090", "NVIDIA RTX A5000": "nvidia-rtx-a5000",
    "AMD Radeon RX 7900 XTX": "amd-radeon-rx-7900-xtx", "TPU-v5p": "google-tpu-v5p",
    "TPU-trillium": "google-tpu-v6e", "Intel(R) Gaudi(R) 2 AI Accelerator": "intel-gaudi2",
}

# Servers the hwdb has: NVIDIA's own systems by name (Eos is a DGX H100
# SuperPOD; "DGX H200", "DGX B200" name theirs), an OEM 8-GPU HGX board by
# its reference configuration (device, accelerators per node).  Any other
# row: no --host, so the device's system class with its share of a class
# server (named in the output): --hosts NODES is refused where a node holds
# more devices than the class's server (16 L40S in one node).
DGX = {"nvidia-h100-sxm5": "nvidia-dgx-h100", "nvidia-h200-sxm": "nvidia-dgx-h200", "nvidia-b200": "nvidia-dgx-b200"}
HOSTS = {("nvidia-h100-sxm5", 8): "hgx-h100-8gpu", ("nvidia-h200-sxm", 8): "hgx-h200-8gpu",
         ("nvidia-b200", 8): "hgx-b200-8gpu"}


# The benchmarks without a model in the project (listed, not predicted).
NOT_MODELLED = {
    "dlrm_dcnv2": "DLRM-DCNv2 (recommender: embedding tables and the cross network; no model in models/)",
    "gnn": "R-GAT on IGBH (graph neural network; no model in models/)",
    "stable_diffusion": "Stable Diffusion v2 (latent diffusion U-Net + text encoder; no model in models/)",
    "unet3d": "3D U-Net on KiTS19 (no model in models/)",
    "ssd": "RetinaNet on OpenImages (the `ssd` benchmark id; no model in models/)",
}
TITLE = {"gpt3": "GPT-3 175B", "bert": "BERT-large", "resnet": "ResNet-50", "llama2_70b_lora": "Llama 2 70B LoRA"}

# GPT-3 175B: Brown et al. 2020, "Language Models are Few-Shot Learners",
# Table 2.1 (n_params 175.0B, n_layers 96, d_model 12288, n_heads 96).
GPT3 = {"params": "175e9", "layers": "96", "hidden": "12288", "heads": "96"}
# BERT-large pre-training (phase 2 of the MLPerf reference: sequences of at
# most 512 tokens of Wikipedia).  The submissions skip padding (unpadded
# attention kernels or packing), so a sample costs its own tokens: Krell,
# Kosec, Perez, Fitzgibbon, "Efficient Sequence Packing without
# Cross-contamination" (arXiv:2107.02027, 2021): at sequence length 512
# padding is in excess of 50% of the tokens of the Wikipedia pre-training
# set, so the mean sequence is at most 256 tokens (sourced, not fitted).
BERT_SEQ = 256
BERT_MAX_SEQ = 512
# Implementations that do not skip padding: every sample computes all
# BERT_MAX_SEQ positions (tinygrad's BERT takes input_ids, input_mask,
# segment_ids as (BS, 512) tensors: tinygrad/tinygrad examples/mlperf/
# helpers.py get_data_bert / get_fake_data_bert; its v4.1 rows log
# max_sequence_length 512, the NVIDIA rows none), by the runtime profile
# of their stack (stack()).
PADDED_STACKS = ("tinygrad",)
IMAGENET_TRAIN = 1281167     # ILSVRC-2012 training images (also the rows' train_samples_in_dataset)
# ResNet-50's evaluations: the 50,000 ILSVRC-2012 validation images every
# 4 epochs (EVAL_PERIOD=4 in every config_DGXH100_*.sh of NVIDIA's MXNet
# implementation, mlcommons/training_results_v4.0@62f111b NVIDIA/benchmarks/
# resnet/implementations/; the logs' eval_samples 50000), forward only,
# through the estimate's --eval-every / --eval-samples (train_overhead.c).
IMAGENET_VAL = 50000
RESNET_EVAL_EPOCHS = 4
# NVIDIA's MXNet ResNet-50 (the implementation every cnn-tuned ResNet-50
# row runs) all-reduces the gradients in one Horovod group after the
# backward pass at every scale: KVSTORE=horovod, MXNET_HOROVOD_NUM_GROUPS=1,
# HOROVOD_FUSION_THRESHOLD=67108864, "# Default is no NCCL and BWD overlap"
# in each config_DGXH100_*.sh, 1 to 316 nodes (the same training_results_v4.0
# folder) - so those rows run --dp-overlap 0.
RESNET_DP_OVERLAP = ["--dp-overlap", "0"]


def device(row):
    return DEVICES.get(row["accelerator"])


def host_args(row):
    dev, per = device(row), int(row["accelerators_per_node"] or 0)
    name = row["system_name"]
    if (row["submitter"], name) in SYSTEM_HOSTS:
        return ["--host", SYSTEM_HOSTS[(row["submitter"], name)]]
    if row["submitter"] == "NVIDIA" and dev in DGX and per == 8 and (name.startswith("Eos") or "DGX" in name):
        return ["--host", DGX[dev]]
    hid = HOSTS.get((dev, per))
    if hid:
        return ["--host", hid]
    return []


def trained(row):
    """(kind, value) of samples_or_epoch_at_stop: tokens, samples_count or
    epoch; (None, None) when the row does not log it."""
    s = row.get("samples_or_epoch_at_stop") or ""
    if "=" not in s:
        return None, None
    k, v = s.split("=", 1)
    return k, float(v)


def measured(row):
    """The run's own minutes: time_to_train_min / scaling_factor."""
    return float(row["time_to_train_min"]) / float(row["scaling_factor"] or 1)


# GPT-3 175B as each submission ran it, from its published scripts: the
# precision of its GEMMs and its layout where the step model's own search
# would pick another (system-name prefix of the submitter's rows -> args,
# words).  Google's MaxText on TPU v5p: quantization=int8 (AQT int8
# training), ici_tensor_parallelism=8 with FSDP over the rest of the slice,
# remat_policy=full only at v5p-1024 (2048/3072: save_dot_except_logits_ffn1,
# 4096/8192: minimal, 12288: save_dot_except_logits: the weight GEMMs'
# outputs kept, no forward recomputed) - mlcommons/training_results_v4.0
# Google/benchmarks/gpt3/implementations/maxtext/v5p-*.sh and, for v4.1's
# v5p-4096/8192, AI-Hypercomputer/maxtext MaxText/configs/v5p/gpt3_175b/
# (gpt3_175b_base.sh, v5p_4096.sh, v5p_8192.sh).  Trillium: MaxText's
# configs/trillium/gpt3_175b.sh, bf16 (no quantization),
# ici_fsdp_parallelism=-1 (FSDP over the slice, no tensor parallelism),
# remat_policy=full.  NVIDIA's NeMo at 10,752 and 11,616 H100 (Eos-dfw):
# tensor 4, pipeline 6, 8 interleaved stages, micro-batch 1
# (training_results_v4.0 NVIDIA/benchmarks/gpt3/implementations/nemo/
# config_DGXH100_1344x8x6x4x6_mbs1_cg.sh, _1452x8x6x4x6_mbs1_cg.sh); the
# step model's own search picks tensor 8 x pipeline 2 there.  Intel's Gaudi 2: Megatron-DeepSpeed with tensor 8,
# pipeline 8, data 16 and --use-fp8-transformer-engine ("MLPerf4.0
# submissions for GPT3 have been conducted using FP8 precision":
# training_results_v4.0 Intel-HabanaLabs/benchmarks/gpt3/README.md).
GPT3_RUNS = (
    ("Google", "tpu-v5p-1024", ["--precision", "int8", "--tp", "8", "--zero", "3", "--recompute"],
     "MaxText's script: AQT int8, TP 8 x FSDP, full remat"),
    ("Google", "tpu-v5p-", ["--precision", "int8", "--tp", "8", "--zero", "3"],
     "MaxText's script: AQT int8, TP 8 x FSDP, weight GEMM outputs kept"),
    ("Google", "tpu-trillium-", ["--tp", "1", "--zero", "3", "--recompute"],
     "MaxText's config: bf16, FSDP over the slice, full remat"),
    ("NVIDIA", "Eos-dfw_n1344", ["--tp", "4", "--pp", "6", "--virtual-stages", "8"],
     "NeMo's config_DGXH100_1344x8x6x4x6_mbs1: TP 4 x PP 6, 8 interleaved stages"),
    ("NVIDIA", "Eos-dfw_n1452", ["--tp", "4", "--pp", "6", "--virtual-stages", "8"],
     "NeMo's config_DGXH100_1452x8x6x4x6_mbs1: TP 4 x PP 6, 8 interleaved stages"),
    ("Intel-HabanaLabs", "HLS-Gaudi2", ["--runtime", "deepspeed", "--tp", "8", "--pp", "8", "--precision", "fp8"],
     "Habana's Megatron-DeepSpeed: FP8 (Transformer Engine), TP 8 x PP 8"),
)


# NVIDIA's BERT implementation (run_pretraining.py of the NGC submissions)
# trains with its distributed LAMB optimizer, which reduce-scatters the
# gradients after the backward pass unless --dwu-overlap-reductions is
# given (default False: the implementation's argument parser, e.g.
# training_results_v4.1 Clemson/benchmarks/bert/implementations/pytorch/
# run_pretraining.py); none of the configurations read sets it (Fujitsu's
# config_L40Sx16.sh and config_GX2560M7_1x8x96x1_pack.sh, Clemson's
# packed_config_16xR750xax2A100-80GB-PCIe.sh), and the L40S runs' logs
# print dwu_overlap_reductions=False, distributed_lamb=True, use_ddp=False
# (training_results_v4.0 Dell/results/R760xax4L40S/bert/result_0.txt,
# Fujitsu/results/PRIMERGY-CDI-L40Sx16/bert/result_0.txt).  So every
# multi-device BERT row whose framework column names NVIDIA's software
# runs --dp-overlap 0 (recipe(); two GigaComputing rows whose column reads
# only "PyTorch" keep the default overlap).  BERT_RUNS adds what the two
# L40S rows' notes say.
BERT_RUNS = (
    ("Dell", "R760xax4L40S", [],
     "the run's log: distributed LAMB, gradients reduced after the backward (dwu_overlap_reductions=False); the "
     "server's fabric (hwdb dell-r760xa-l40s): two GPUs per socket, the ring through the CPUs at NCCL's 10 GB/s"),
    ("Fujitsu", "PRIMERGY-CDI-L40Sx16", [],
     "the run's log: distributed LAMB, gradients reduced after the backward (dwu_overlap_reductions=False); the "
     "composable (CDI) chassis of 16 GPUs behind PCIe switches has no fabric entry, so the L40S's own PCIe 4.0 x16 "
     "link and the fallback node of 8 GPUs on 100 Gb/s are assumed; the run's 224 ms step against the model's "
     "115 ms says the 16-GPU ring is slower than that (the switches' uplinks are shared), not modelled"),
)

# Servers with a fabric entry of their own, by (submitter, system name):
# a PCIe server whose GPUs reach each other only through its CPUs.
SYSTEM_HOSTS = {("Dell", "R760xax4L40S"): "dell-r760xa-l40s"}


# The rows beyond a factor of 2, and why (issue 39 item 2: no mechanism the
# model lacks was found that their published configurations name; each is
# explained in its row's note and in a summary line), by (submitter,
# system-name prefix, benchmark).
EXPLAINED = (
)


# Rows near a factor of 2, and what their prediction still leaves out
# (by (submitter, system-name prefix, benchmark)).
NEAR = (
    ("NVIDIA", "Eos_n316", "resnet",
     "near x2: 2528 GPUs at 16 images each; the log's steady epoch is 185 ms (5.8 ms a step), the model's step "
     "3.1 ms: compute, the gradient all-reduce after the backward (NVIDIA's MXNet config: --dp-overlap 0) with its "
     "NVLS-tree latency of 247 us over 316 nodes; not modelled: the 0.56 s of data-pipeline start-up inside the "
     "timed run, the first evaluation's 0.21 s (later ones 7 ms), and per-step work beyond compute and the "
     "all-reduce (batch norm synchronised over 2 GPUs, BN_GROUP=2; the LARS optimizer's per-layer norms)"),
)


def near(row):
    """The row's note when NEAR names it, else None."""
    for sub, prefix, bench, why in NEAR:
        if row["submitter"] == sub and row["system_name"].startswith(prefix) and row["benchmark"] == bench:
            return why
    return None


def explained(row):
    """The row's explanation when it is beyond a factor of 2 (EXPLAINED),
    else None."""
    for sub, prefix, bench, why in EXPLAINED:
        if row["submitter"] == sub and row["system_name"].startswith(prefix) and row["benchmark"] == bench:
            return why
    return None


def profile_note(row):
    """The words of a row that runs a fitted profile other than cnn-tuned
    (its constant's fit and the padding), else None."""
    args, _ = recipe(row)
    if args and "tinygrad" in args:
        return ("--runtime tinygrad: %s fitted to the tinybox rows (tools/fit_runtime_profiles.py --profile "
                "tinygrad), each row predicted from the other system's value; 512 tokens per sample (tinygrad pads)"
                % frp.TG_ETA)
    return None


def gpt3_run(row):
    """(args, words) of the row's submission where GPT3_RUNS (a GPT-3
    row) or BERT_RUNS (a BERT row) names it (the first match), else
    ([], None)."""
    runs = {"gpt3": GPT3_RUNS, "bert": BERT_RUNS}.get(row["benchmark"], ())
    for sub, prefix, args, words in runs:
        if row["submitter"] == sub and row["system_name"].startswith(prefix):
            return list(args), words
    return [], None


def nvidia_stack(row):
    """True when the row's framework column names NVIDIA's own software."""
    return any(k in row["framework"].lower() for k in ("nvidia", "ngc", "nemo", "mxnet", "cuda"))


def stack(row, dev):
    """The runtime profile of the row's software stack (its framework
    column): (args, words).  NVIDIA's GPT-3 implementation is NeMo /
    Megatron-LM with Transformer Engine; Google's is MaxText on JAX/XLA;
    NVIDIA's ResNet-50 and BERT are the tuned NGC stacks (MXNet or PyTorch
    with DALI, fused kernels, CUDA graphs); the rest (tinygrad, Intel's
    PyTorch on Gaudi, others) the default eager PyTorch profile."""
    fw, b = row["framework"].lower(), row["benchmark"]
    nvidia = nvidia_stack(row)
    if b == "gpt3" and "maxtext" in fw:
        return ["--runtime", "jax-xla"], "jax-xla (MaxText)"
    if b == "gpt3" and nvidia and dev.startswith("nvidia-"):
        return ["--runtime", "megatron"], "megatron (NeMo)"
    if b in PROFILE_BENCHMARKS["cnn-tuned"] and nvidia and dev.startswith("nvidia-"):
        return ["--runtime", "cnn-tuned"], "cnn-tuned (NGC)"
    if "tinygrad" in fw and b in PROFILE_BENCHMARKS["tinygrad"]:
        return ["--runtime", "tinygrad"], "tinygrad"
    return [], "pytorch (default)"


# The benchmarks each fitted profile runs here (tools/fit_runtime_profiles.py
# fits its constant to those rows): NVIDIA's tuned CNN stack for ResNet-50;
# tinygrad (its own kernel compiler, no vendor GEMM library) for the rows
# its framework column names.
PROFILE_BENCHMARKS = {"cnn-tuned": ("resnet",), "tinygrad": ("bert", "resnet")}


def bert_seq(row, dev):
    """Tokens a BERT sample costs: its unpadded mean (BERT_SEQ), or
    BERT_MAX_SEQ where the row's stack pads (PADDED_STACKS)."""
    args = stack(row, dev)[0]
    return BERT_MAX_SEQ if any(p in args for p in PADDED_STACKS) else BERT_SEQ


def recipe(row):
    """The joulecast arguments of a row, or (None, reason)."""
    b = row["benchmark"]
    if b in NOT_MODELLED:
        return None, "not modelled: " + NOT_MODELLED[b]
    if not row["time_to_train_min"]:
        return None, "no time to train (no converged run)"
    dev = device(row)
    if dev is None:
        return None, "accelerator %r has no hwdb entry" % row["accelerator"]
    kind, n = trained(row)
    if kind is None:
        return None, "what the run trained is not logged (samples_or_epoch_at_stop)"
    common = ["--device", dev, "--count", row["total_accelerators"], "--batch", row["global_batch_size"],
              "--pue", "1", "--ci", "400"] + host_args(row)
    run_args = gpt3_run(row)[0]
    if b != "llama2_70b_lora" and "--runtime" not in run_args:   # tools/mlperf_lora.py names its own stacks
        common += stack(row, dev)[0]
    if b == "bert" and nvidia_stack(row) and int(row["total_accelerators"]) > 1:
        run_args += ["--dp-overlap", "0"]   # NVIDIA's distributed LAMB reduces after the backward (BERT_RUNS)
    common += run_args
    if b == "gpt3":
        return ["estimate", "--train", "--params", GPT3["params"], "--layers", GPT3["layers"],
                "--hidden", GPT3["hidden"], "--heads", GPT3["heads"], "--seq", row["max_sequence_length"],
                "--tokens", "%.0f" % n] + common, None
    if b == "bert":
        return ["estimate", "models/bert_large.onnx", "--dim", "sequence=%d" % bert_seq(row, dev), "--train",
                "--samples", "%.0f" % n, "--epochs", "1"] + common, None
    if b == "resnet":
        per_epoch = int(row["train_samples_in_dataset"] or IMAGENET_TRAIN)
        return ["estimate", "models/resnet50.onnx", "--train", "--samples", str(per_epoch), "--epochs", "%g" % n,
                "--eval-every", str(RESNET_EVAL_EPOCHS * per_epoch), "--eval-samples", str(IMAGENET_VAL)] + common + \
            (RESNET_DP_OVERLAP if "cnn-tuned" in common else []), None
    if b == "llama2_70b_lora":
        if kind != "samples_count":
            return None, "the samples trained are not logged"
        return lora.recipe(row, n, dev) + common, None   # tools/mlperf_lora.py
    return None, "benchmark %r has no recipe" % b


def run_key(row):
    """One run submitted more than once shares this key (flagged rows)."""
    return (row["benchmark"], row["accelerator"], row["total_accelerators"], row["time_to_train_min"])


def count_once(rows):
    """rows with each identical run kept once: among the rows flagged
    identical_runs_in_rounds with the same run, the first that logged
    what it trained.  Returns (kept, {dropped id: kept id})."""
    first = {}
    for r in rows:
        if r["identical_runs_in_rounds"]:
            k = run_key(r)
            if k not in first or (trained(first[k])[0] is None and trained(r)[0] is not None):
                first[k] = r
    kept, dropped = [], {}
    for r in rows:
        k = run_key(r)
        if r["identical_runs_in_rounds"] and first[k] is not r:
            dropped[r["id"]] = first[k]["id"]
        else:
            kept.append(r)
    return kept, dropped


def system(row):
    """The system of leave-one-system-out: one submitter's platform of
    one accelerator and node size (Eos at 8 or 11,616 GPUs is one system)."""
    return "%s %s x%s" % (row["submitter"], device(row) or row["accelerator"], row["accelerators_per_node"])


def scale_group(row):
    n = int(row["total_accelerators"])
    if row["benchmark"] == "gpt3":
        return "GPT-3 at 256-11,616 accelerators" if 256 <= n <= 11616 else "GPT-3 below 256 accelerators"
    return None


_memo = {}


def run(row):
    """(joulecast JSON, None) of the row's request at the database's
    constants, or (None, reason).  Memoised per row id."""
    if row["id"] not in _memo:
        args, why = recipe(row)
        _memo[row["id"]] = (None, why) if args is None else ac.run_jc(args)
    return _memo[row["id"]]


def base(row):
    """(minutes low, central, high, note) of the row, or (None, reason)."""
    js, err = run(row)
    if js is None:
        return None, err
    if row["benchmark"] == "llama2_70b_lora":   # goodput 1: tools/mlperf_lora.py
        return lora.minutes(row, js) + (lora.describe(row, js),), None
    w = js["results"]["wall_hours"]
    u = (js["results"].get("implied_utilization") or {}).get("central")
    note = "; ".join(x for x in ("" if u is None else "MFU x goodput %.2f" % u, gpt3_run(row)[1], profile_note(row),
                                 explained(row), near(row)) if x)
    return (60 * w["low"], 60 * w["central"], 60 * w["high"], note), None


def warm(rows, jobs=2):
    """Runs every row's prediction (two at a time: the CLI is one process
    per row)."""
    with ThreadPoolExecutor(jobs) as ex:
        list(ex.map(run, rows))


def fit_none(rows):
    """No constant fitted (kept for callers that score the database as is)."""
    return {}


_per = {}


def tuned_per_row(profile="cnn-tuned"):
    """tools/fit_runtime_profiles.py's per-row values of a profile's
    constant (cnn-tuned: DLE AMP rows and these ResNet-50 rows; tinygrad:
    these tinybox rows; cached)."""
    if profile not in _per:
        _per[profile] = frp.per_row(profile)
    return _per[profile]


def fit_tuned(rows):
    """The constants fitted with these rows: the cnn-tuned profile's
    tensor-core efficiency, the median of the per-row values of the
    DeepLearningExamples AMP rows (always: another set) and of the given
    rows that run the profile (a fold leaves its own out); tinygrad's, the
    median of the given rows that run it (absent when the fold has none:
    predict() then takes the value of the other tinygrad rows)."""
    per = tuned_per_row()
    ids = {r["id"] for r in rows}
    keep = [i for i, d in per.items() if d["set"] == "dle" or i in ids]
    out = {frp.ETA: round(frp.fit_from(per, keep), 4)}
    tg = frp.fit_from(tuned_per_row("tinygrad"), [i for i in tuned_per_row("tinygrad") if i in ids])
    if tg is not None:
        out[frp.TG_ETA] = round(tg, 4)
    return out


def profile_const(params, row, args):
    """(constant id, value) the fold sets for a row that runs a fitted
    profile, else None.  A tinygrad row in a fold without tinygrad rows
    (leaving BERT out: the tinybox ResNet-50 rows do not log the epochs
    they trained) takes the fit of the other tinygrad rows, never its own."""
    if "cnn-tuned" in args:
        return frp.ETA, params[frp.ETA]
    if "tinygrad" in args:
        v = params.get(frp.TG_ETA)
        if v is None:
            per = tuned_per_row("tinygrad")
            v = frp.fit_from(per, [i for i in per if i != row["id"]])
        return (frp.TG_ETA, round(v, 4)) if v is not None else None
    return None


_pmemo = {}


def predict(params, row):
    """Central minutes of a row at the fold's constants: rows that run the
    cnn-tuned profile through an override layer holding its value."""
    args, _ = recipe(row)
    pc = None if not params or args is None else profile_const(params, row, args)
    if pc is None:
        b, _ = base(row)
        return None if b is None else b[1]
    key = pc + (row["id"],)
    if key not in _pmemo:
        ov = fc.Overlay()
        try:
            js, _ = ac.run_jc(args + ov.set({pc[0]: pc[1]}))
        finally:
            ov.close()
        _pmemo[key] = None if js is None else 60 * js["results"]["wall_hours"]["central"]
    return _pmemo[key]


def crossvalidate(rows, fit=fit_tuned, n_params=2):
    """tools/crossval.py: leave one benchmark out, leave one system out."""
    return cv.run(rows, fit, predict, measured,
                  keys={"benchmark": lambda r: r["benchmark"], "system": system}, n_params=n_params)


def factor2(per):
    return sum(1 for d in per if d.get("central") is not None and abs(math.log(d["central"] / d["measured"])) > math.log(2))


def fold_range(scheme):
    meds = [f["median_abs_error"] for f in scheme["folds"] if f["median_abs_error"] is not None]
    return (min(meds), max(meds)) if meds else (None, None)


def counts(rows, key):
    out = {}
    for r in rows:
        out[key(r)] = out.get(key(r), 0) + 1
    return sorted(out.items(), key=lambda kv: (-kv[1], str(kv[0])))


def summary_lines(all_rows, kept, dropped, res):
    """Markdown: the headline figures, the not-modelled benchmarks and the
    devices the hwdb does not have, with their counts."""
    lines = []
    for name, label in (("benchmark", "leave one benchmark out"), ("system", "leave one system out")):
        s = res["schemes"][name]
        lo, hi = fold_range(s)
        lines.append("- %s: median |error| %s over %d rows (%d beyond a factor of 2); per-fold median |error| "
                     "%s .. %s over %d folds; range coverage %s." % (
                         label, ac.pct(s["summary"]["median_abs_error"]).lstrip("+"), s["summary"]["rows"],
                         factor2(s["rows"]), ac.pct(lo).lstrip("+"), ac.pct(hi).lstrip("+"), len(s["folds"]),
                         ac._cov(s["summary"]["coverage"])))
    big = [d for d in res["schemes"]["benchmark"]["rows"] if scale_group(d["row"]) == "GPT-3 at 256-11,616 accelerators"]
    sb = cv.summarise(big)
    lines.append("- GPT-3 at 256-11,616 accelerators: median |error| %s, median signed %s over %d rows "
                 "(target: within 20%% median)." % (ac.pct(sb["median_abs_error"]).lstrip("+"),
                                                  ac.pct(sb["median_signed_error"]), sb["rows"]))
    far = [d["row"] for d in res["schemes"]["benchmark"]["rows"]
           if d.get("central") is not None and abs(math.log(d["central"] / d["measured"])) > math.log(2)]
    lines.append("- Beyond a factor of 2 (leave one benchmark out): " + ("; ".join(
        "%s (%s)" % (r["id"], explained(r) or "not explained") for r in far) if far else "none") + ".")
    lines.append("- Rows: %d in the file; %d counted once more (identical runs submitted again); %d of the "
                 "modelled benchmarks (%s)." % (
                     len(all_rows), len(dropped), sum(1 for r in kept if r["benchmark"] in TITLE),
                     ", ".join("%s %d" % (TITLE[b], n) for b, n in counts(kept, lambda r: r["benchmark"])
                               if b in TITLE)))
    lines.append("- Not modelled (no model in the project): " + "; ".join(
        "%s: %d rows" % (NOT_MODELLED[b], n) for b, n in counts(kept, lambda r: r["benchmark"])
        if b in NOT_MODELLED) + ".")
    nodev = counts([r for r in kept if device(r) is None], lambda r: r["accelerator"])
    lines.append("- Accelerators without an hwdb entry: " + ("; ".join("%s: %d rows" % kv for kv in nodev)
                                                             if nodev else "none") + ".")
    refused = counts([r for r in kept if r["benchmark"] in TITLE and r["time_to_train_min"]
                      and base(r)[0] is None and str(base(r)[1]).startswith(ac.RUN_FAILED)],
                     lambda r: "%s (%s)" % (device(r), base(r)[1].split(": ")[-1]))
    lines.append("- Modelled rows the estimate refuses: " + ("; ".join("%s: %d rows" % kv for kv in refused)
                                                          if refused else "none") + ".")
    return lines + [""]


def main():
    a = ac.set_cli(__doc__, ROWS, "CALIBRATION_CSV")
    if a.imp:
        return import_rows(a.imp, a.rows)
    all_rows = ac.read_rows(a.rows)
    kept, dropped = count_once(all_rows)
    rows = [r for r in kept if r["benchmark"] in TITLE]
    warm(rows)
    res = crossvalidate([r for r in rows if r["time_to_train_min"]])
    held = {d["row"]["id"]: d for d in res["schemes"]["benchmark"]["rows"]}
    out = []
    for row in rows:
        r = {"id": row["id"], "measured": measured(row) if row["time_to_train_min"] else None,
             "group": TITLE[row["benchmark"]]}
        d = held.get(row["id"], {})
        b, why = base(row)
        if d.get("central") is None:
            r["reason"] = why or "no figure"
        else:
            r.update(low=d["low"], central=d["central"], high=d["high"],
                     note="; ".join(x for x in (system(row), b[3]) if x))
        out.append(r)
    groupings = {"benchmark": lambda r: TITLE[r["benchmark"]], "scale": lambda r: scale_group(r) or "other rows"}
    cvs = ac.cv_summary(res, groupings)
    for line in cv.report(res, "MLPerf Training time to train"):
        print(line)
    extra = summary_lines(all_rows, kept, dropped, res)
    for line in extra:
        print(line)
    how = ("a joulecast training request for what the run trained (`samples_or_epoch_at_stop`: tokens for "
           "GPT-3 175B through the training step model `--params 175e9 --layers 96 --hidden 12288 --heads 96 "
           "--seq S --batch B --tokens T`, each at the precision and layout its submission's published scripts name where "
           "the step model's search would pick another (Google's MaxText on TPU v5p: AQT int8 GEMMs, tensor parallel 8 "
           "with FSDP, full recomputation only at v5p-1024; Trillium: bf16, FSDP over the slice, full recomputation; "
           "NVIDIA's NeMo at 10,752 and 11,616 H100: tensor 4 x pipeline 6, 8 interleaved stages; "
           "Intel's Gaudi 2: Megatron-DeepSpeed, FP8, tensor 8 x pipeline 8; GPT3_RUNS); samples of BERT-large, `models/bert_large.onnx` at %d tokens per "
           "sample, the unpadded mean of its Wikipedia set (Krell et al. 2021), or at 512 where the implementation pads "
           "every sample (tinygrad: its BERT takes (batch, 512) inputs; the rows log max_sequence_length 512); the multi-device BERT "
           "rows on NVIDIA's implementation (a framework column naming NVIDIA's software) with the gradient reduction after the backward (its distributed LAMB "
           "without --dwu-overlap-reductions, as the L40S runs' logs print it: --dp-overlap 0; BERT_RUNS); epochs of ResNet-50 over "
           "1,281,167 images, `models/resnet50.onnx`, with its evaluations (the 50,000 validation images every 4 "
           "epochs, `--eval-every 5124668 --eval-samples 50000`: NVIDIA's configs' EVAL_PERIOD=4) and, where it ran "
           "NVIDIA's MXNet implementation, the gradient all-reduce after the backward (one Horovod group: "
           "--dp-overlap 0; RESNET_DP_OVERLAP); samples of Llama 2 70B LoRA fine-tuning, `--hf-config "
           "tests/serving/configs/llama-2-70b.json --finetune lora --lora-rank 16 --lora-targets "
           "q_proj,k_proj,v_proj,o_proj --seq 8192`, in FP8 where the row ran NVIDIA's NeMo implementation (its "
           "configs: FP8=True) on a device with an FP8 peak, the DeepSpeed rows at the layout their configuration "
           "names (ZeRO-3, recomputation, BF16), its minutes the steps at goodput 1 (a timed run of minutes has no "
           "restarts) plus the run's evaluations by the benchmark's rule (173 samples every 384 after the first "
           "FLOOR(0.125 x batch + 2), forward only; tools/mlperf_lora.py)) "
           "on the row's accelerators (`--device D --count G`), "
           "the row's global batch, the server the hwdb has (Dell's R760xa with 4 L40S by name, its fabric two GPUs per "
           "socket joined through the CPUs; NVIDIA's DGX H100, H200 and B200 by name, Eos "
           "being DGX H100; the HGX H100, H200 and B200 reference servers for other 8-GPU SXM servers) or "
           "the device's system class, the database's runtime and "
           "precision defaults; measured = time_to_train_min / scaling_factor; identical runs counted once. "
           "Each row runs its stack's runtime profile (NVIDIA's GPT-3: megatron; MaxText: jax-xla; NVIDIA's ResNet-50: "
           "cnn-tuned; tinygrad: tinygrad; the rest eager PyTorch). Two constants are fitted with these rows, each fold "
           "refitting them without its held-out rows: the cnn-tuned profile's tensor efficiency (with the "
           "DeepLearningExamples V100 rows) and tinygrad's (the two tinybox BERT rows; a fold without a tinygrad row "
           "takes the other tinybox system's value, so each is predicted from the other); the folds give each row's "
           "range." % BERT_SEQ)
    ac.write_set("training_mlperf", "MLPerf Training v4.0/v4.1 time to train (GPT-3, BERT, ResNet-50, Llama 2 70B LoRA)",
                 "minutes", how,
                 "time from run start to run stop of the closed-division results (evaluations included, "
                 "initialisation excluded), recomputed from the logs by the official rules "
                 "(tests/accuracy/mlperf-training.csv; each row names its results folder in mlcommons/training_results_v4.0 or _v4.1).",
                 out, out_dir=a.out, cv=cvs, extra_lines=extra,
                 targets="leave-one-benchmark-out and leave-one-system-out median |error| <= 15% each, none beyond "
                         "a factor of 2; GPT-3 at 256-11,616 accelerators within 20% median (issue 39)")
    power_set(all_rows, a.out)
    return 0


def power_rows(rows):
    """The rows with measured whole-node power: the AC rows (at the power
    shelf; the DC rows are the same runs metered again) and the node logs."""
    return [r for r in rows if r["avg_power_kW"] and (r["power_scope"].startswith("AC")
                                                      or r["power_scope"].startswith("node power logs"))]


def twin(row, rows):
    """The row whose request predicts this run: itself when it logged what
    it trained, else the same run submitted under another system name."""
    if trained(row)[0] is not None:
        return row
    for r in rows:
        if run_key(r) == run_key(row) and trained(r)[0] is not None:
            return r
    return row


def node_power(row, rows):
    """Predicted whole-node power (devices at the step's activity + host),
    kW per node as {low, central, high, note}, or (None, reason)."""
    req = twin(row, rows)
    js, err = run(req)
    if js is None:
        return None, err
    r = js["results"]
    nodes = {a["key"]: a["value"]["central"] for a in js["assumptions"]}.get("hosts")
    if not nodes:
        return None, "the request names no host"
    k = {c: r["energy_it_kwh"][c] / r["wall_hours"][c] / nodes for c in ("low", "central", "high")}
    dev = r["energy_device_kwh"]["central"] / r["wall_hours"]["central"] / nodes
    lo, hi = min(k.values()), max(k.values())   # the corners' ratios need not bracket the central
    return dict(low=lo, central=k["central"], high=hi,
                note="devices %.2f + host %.2f kW per node of %d; time %+.0f%%" % (
                    dev, k["central"] - dev, nodes, 100 * (60 * r["wall_hours"]["central"] / measured(row) - 1))), None


def power_set(all_rows, out_dir):
    """Node power while training (issue 39 item 4) against the AC rows and
    the node logs, per node."""
    out = []
    for row in power_rows(all_rows):
        nodes = float(row["nodes"] or 1)
        r = {"id": row["id"], "measured": float(row["avg_power_kW"]) / nodes,
             "group": "%s, %s" % ("AC at the power shelf" if row["power_scope"].startswith("AC") else "node logs",
                                  TITLE.get(row["benchmark"], "not modelled"))}
        p, why = node_power(row, all_rows) if row["benchmark"] in TITLE else (None, recipe(row)[1])
        if p is None:
            r["reason"] = why
        else:
            r.update(p)
        out.append(r)
    how = ("the row's training request (as the time-to-train table; a run submitted under several system names "
           "uses the copy that logged what it trained): predicted IT power per node = (device energy at the "
           "activity the step predicts + host energy) / wall time / hosts, at PUE 1; measured = avg_power_kW / "
           "nodes. The host is the hwdb's server (HGX H100 for these 8 x H100 nodes): CPUs at TDP and memory; no "
           "NICs, no share of the fabric's switches and no power-supply loss are modelled yet, while the AC rows "
           "include the power shelf's conversion and a switch estimate. Rows of benchmarks without a model are "
           "listed, not predicted.")
    ac.write_set("training_mlperf_power", "MLPerf Training v4.0/v4.1 whole-node power while training", "kW per node",
                 how, "measured whole-node power of 12 runs of one 8 x H100 system (Sustainable Metal Cloud) at 8-512 "
                 "GPUs, AC at the node power shelf plus the submitter's switch estimate (the DC rows are the same runs "
                 "and are not scored), and one 8 x H100 system's node logs (Dell, v4.1).",
                 out, out_dir=out_dir, targets="median |error| <= 10% on the AC rows (issue 39)",
                 script="training_mlperf")


def import_rows(src, dst):
    """tests/accuracy/mlperf-training.csv from the calibration file: its
    rows in order, the COLUMNS above, an id per row."""
    with open(src) as f:
        rows = list(csv.DictReader(f))
    ids = set()
    with open(dst, "w", newline="") as f:
        f.write("# MLPerf Training v4.0 and v4.1 closed-division results, copied row by row from\n"
                "# the calibration set's mlperf-training-v4.0-v4.1.csv by tools/accuracy_training_mlperf.py --import\n"
                "# (its columns below; each row's source is the results repository, commit and path in `source`).\n"
                "# time_to_train_min: recomputed from the run logs by the official result-summarizer rules (olympic\n"
                "# mean, x scaling_factor); energy_kWh / avg_power_kW: measured whole-system energy and power where\n"
                "# the submission metered it (power_scope says where).  id: round, submitter, system, benchmark, GPUs.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(("id",) + COLUMNS)
        for r in rows:
            rid = "%s %s %s %s x%s" % (r["round"], r["submitter"], r["system_name"], r["benchmark"],
                                       r["total_accelerators"])
            n, base_id = 2, rid
            while rid in ids:
                rid, n = "%s #%d" % (base_id, n), n + 1
            ids.add(rid)
            w.writerow((rid,) + tuple(r[c] for c in COLUMNS))
    print("wrote %s (%d rows)" % (os.path.relpath(dst, ac.ROOT), len(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
