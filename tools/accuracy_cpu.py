#!/usr/bin/env python3
"""accuracy_cpu.py - the CPU inference set of `make accuracy` (issue 42
item 5): measured CPU inference throughput predicted with the CPU runtime
profiles (runtimes.def's CPU rows) and cross-validated leave-one-CPU-out,
reported per runtime.

Rows:
  - timm's fp32 torch.compile inference at batch 1 on an Intel Core
    i9-10940X and an Intel Core i7-12700H (../shared/data/calibration/timm/,
    huggingface/pytorch-image-models results/ at commit aa4b585), matched to
    the torchvision graphs by tools/accuracy_timm.py's rule;
  - the CPU-only closed-division results of MLPerf Inference v3.1 and v4.0
    (../shared/data/calibration/mlperf-inference-cpu-closed-v3.1-v4.0.csv):
    ResNet-50 (models/resnet50.onnx), BERT (bert-99: models/bert_large.onnx
    at sequence 384) and RetinaNet (models/retinanet.onnx, the MLPerf
    ResNeXt-50 FPN network at 800 x 800) and GPT-J's Offline rows (gptj-99 /
    gptj-99.9: tests/serving/configs/gpt-j-6b.json through the serving path,
    GPTJ_RECIPE below) scored; GPT-J's Server rows are listed apart (the
    latency bound's queueing of generation is not modelled); the other benchmarks
    (RNN-T, 3D-UNet, DLRM, SDXL) are listed as not modelled with
    a count, as are
    rows whose software has no profile (TFLite, NCNN, KILT, TensorFlow on
    Apple's Metal GPU plug-in) or whose CPU the database lacks.

How a MLPerf row is predicted (RECIPE; threads and batch are not recorded
in these rows, so every row takes all the CPU's physical cores, the
runtimes' default intra-op pool, and this batch):
  joulecast estimate MODEL --device CPU --count SOCKETS --precision P
      --runtime R --batch B --requests B x SOCKETS --pue 1 --ci 400
  Offline and Server: B = 32 on each socket (Server's queries/s scored as
  Offline's samples/s: the latency bound's queueing is not modelled);
  SingleStream: B = 1 on one socket (1000 / the 90th-percentile latency in
  ms); MultiStream: B = 8 on one socket (8000 / the query latency in ms).
  R from the software: Intel's PyTorch submissions ("PyTorch", "Intel
  inference implementation ... Pytorch") -> ipex at int8 (Intel's
  ResNet-50 and BERT submissions are int8 on AMX); ONNX Runtime -> onnxruntime,
  TensorFlow -> tensorflow, the reference PyTorch -> pytorch, at fp32 (the
  reference implementations' fp32 models).  A row whose cores per socket
  are fewer than the CPU's (a cloud VM) runs on that many physical cores'
  vCPUs (--vcpus cores x threads per core); more than the CPU's (a
  recording of threads) takes the CPU's.
  samples/s = samples / predicted wall seconds.

GPTJ_RECIPE (Offline; threads, batch and the dataset's lengths are not in
the rows):
  joulecast estimate --generate --hf-config tests/serving/configs/gpt-j-6b.json
      --device CPU --host SERVER --count SOCKETS --serving-runtime ipex
      --weights W --prompt-tokens 1024 --output-tokens 128
      --concurrency 32 x 4 --requests 32 x SOCKETS x 4 --pue 1 --ci 400
  W from the system name (INT4 or ITREX -> int4, BF16 -> bf16, else int8:
  Intel's PyTorch submissions); every one of MLPerf's 4 beams a sequence
  (transformers' beam search expands the prompt to each beam); the prompt's
  mean assumed 1,024 tokens (CNN-DailyMail articles, truncated at 1,919);
  128 output tokens (max_new_tokens: a static beam batch runs until its
  longest beam ends); the batch of 32 samples per socket as the other
  Offline rows; SERVER a hwdb server of two such sockets, whose memory per
  socket holds the weights and KV cache (it bounds, not sets, the time).
  samples/s = 32 x SOCKETS / predicted wall seconds (tokens/s = samples/s x
  128 x 4).  No constant is fitted to these rows, so every fold predicts
  them alike (leave-one-CPU-out holds trivially).

Cross-validation: per runtime, leave-one-CPU-out: each CPU's rows are
predicted with the profile's two constants (tools/fit_cpu.py) fitted to
the profile's rows of the other CPUs; a profile with rows on one CPU
alone has no fold and is reported in-sample, said so.

  python3 tools/accuracy_cpu.py [--out DIR] [--jobs N]
"""
import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_timm as at  # noqa: E402
import fit_cpu as fcpu  # noqa: E402

CAL = os.path.join(os.path.dirname(ac.ROOT), "shared", "data", "calibration")
if not os.path.isdir(CAL):
    CAL = "/work/shared/data/calibration"
MLPERF = os.path.join(CAL, "mlperf-inference-cpu-closed-v3.1-v4.0.csv")
PROFILE_CONSTS = {"openvino": ("cpu_openvino_eta_matrix", "cpu_openvino_call_s"),
                  "llama.cpp": ("cpu_llamacpp_eta_matrix", "cpu_llamacpp_call_s")}
# the processor string (lower case, a substring) -> the hwdb CPU
CPUS = [("platinum 8592+", "intel-xeon-platinum-8592plus"), ("platinum 8480+", "intel-xeon-platinum-8480plus"),
        ("ryzen 9 7950x", "amd-ryzen-9-7950x"), ("platinum 8481c", "intel-xeon-platinum-8481c"),
        ("platinum 8259cl", "intel-xeon-platinum-8259cl"), ("epyc 7r13", "amd-epyc-7r13"),
        ("epyc 7r32", "amd-epyc-7r32"), ("apple m1 pro", "apple-m1-pro"),
        # a 2-core Neoverse N1 VM: AWS's Graviton2 (the N1 in AWS's 2-vCPU instances)
        ("neoverse-n1", "aws-graviton2")]
MODELS = {"resnet50": ("models/resnet50.onnx", []), "bert-99": ("models/bert_large.onnx", ["--dim", "sequence=384"]),
          "retinanet": ("models/retinanet.onnx", [])}
# GPT-J (MLPerf's gptj-99 / gptj-99.9, CNN-DailyMail summaries): the config
# through the serving path on the CPU sockets (GPTJ_RECIPE in the comment).
GPTJ_CONFIG = "tests/serving/configs/gpt-j-6b.json"
GPTJ_BEAMS = 4          # MLPerf's GPT-J rules: beam search, num_beams 4
GPTJ_PROMPT = 1024      # assumed mean prompt (the rows do not record it; inputs are truncated at 1,919 tokens)
GPTJ_OUTPUT = 128       # max_new_tokens: a static beam-search batch runs until its longest beam ends
# the memory the weights and KV cache live in: a hwdb server of two such sockets
GPTJ_HOSTS = {"intel-xeon-platinum-8480plus": "nvidia-dgx-h100", "intel-xeon-platinum-8592plus": "nvidia-dgx-b200"}
BATCH = {"Offline": 32, "Server": 32, "SingleStream": 1, "MultiStream": 8}
FIELDS = ["id", "cpu", "runtime", "precision", "graph", "dims", "batch", "count", "vcpus", "samples", "measured",
          "source", "reason"]


def software_runtime(sw):
    """(runtime, precision) of a MLPerf row's software, or (None, why)."""
    s = sw.lower()
    if "kilt" in s or "tflite" in s or "ncnn" in s:
        return None, "software without a profile (%s)" % sw
    if "metal" in s:
        return None, "TensorFlow on Apple's Metal GPU plug-in: not the CPU"
    if "onnxruntime" in s:
        return "onnxruntime", "fp32"
    if "tensorflow" in s:
        return "tensorflow", "fp32"
    if s == "pytorch" or "intel inference implementation" in s:
        return "ipex", "int8"
    if "pytorch" in s:
        return "pytorch", "fp32"
    return None, "software without a profile (%s)" % sw


_HW = {}


def cpu_info(dev):
    """(cores, threads) of a hwdb CPU (joulecast hw show)."""
    if dev not in _HW:
        p = subprocess.run([ac.jc_path(), "hw", "show", dev, "--json"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, cwd=ac.ROOT)
        js = json.loads(p.stdout)
        js = js["devices"][0] if "devices" in js else js
        _HW[dev] = (js.get("kind"), js.get("cores"), js.get("threads"))
    return _HW[dev]


def mlperf_rows():
    out = []
    with open(MLPERF) as f:
        for i, r in enumerate(csv.DictReader(f)):
            rid = "mlperf-%s-%s-%s-%s-%d" % (r["round"], r["submitter"], r["model"], r["scenario"], i)
            row = {"id": rid, "source": r["source"].split(";")[0], "reason": ""}
            dev = next((d for k, d in CPUS if k in r["processor"].lower()), None)
            rt, prec = software_runtime(r["software"])
            if r["model"].startswith("gptj") and r["scenario"] != "Offline":
                row["reason"] = "GPT-J Server not scored (the latency bound's queueing of generation is not modelled)"
            elif r["model"].startswith("gptj") and dev not in GPTJ_HOSTS:
                row["reason"] = "CPU not in the database (%s)" % r["processor"]
            elif r["model"].startswith("gptj"):
                sys_ = r["system"].upper()
                w = "int4" if "INT4" in sys_ or "ITREX" in sys_ else "bf16" if "BF16" in sys_ else "int8"
                b = BATCH["Offline"]
                s = int(r["sockets_per_node"])
                row.update(cpu=dev, runtime="ipex", precision=w, graph=GPTJ_CONFIG, dims="", batch=b, count=s,
                           vcpus="", samples=b * s, measured=float(r["metric_value"]), model=r["model"],
                           scenario="Offline", gptj=1)
                out.append(row)
                continue
            elif r["model"] not in MODELS:
                row["reason"] = "benchmark not modelled (%s)" % r["model"]
            elif rt is None:
                row["reason"] = prec
            elif dev is None:
                row["reason"] = "CPU not in the database (%s)" % r["processor"]
            elif cpu_info(dev)[0] != "cpu" or not cpu_info(dev)[1]:
                row["reason"] = "device without a CPU kernel path or cores in the database (%s: kind %s)" % (
                    dev, cpu_info(dev)[0])
            if row["reason"]:
                row.update(measured=r["metric_value"], cpu=r["processor"], runtime=r["software"], model=r["model"])
                out.append(row)
                continue
            sc = r["scenario"]
            b = BATCH[sc]
            sockets = int(r["sockets_per_node"]) if sc in ("Offline", "Server") else 1
            v = float(r["metric_value"])
            measured = v if sc in ("Offline", "Server") else 1000.0 * b / v
            _, cores, threads = cpu_info(dev)
            cps = int(r["cores_per_socket"])
            vcpus = cps * threads // cores if cps < cores else ""
            g, dims = MODELS[r["model"]]
            row.update(cpu=dev, runtime=rt, precision=prec, graph=g, dims=" ".join(dims), batch=b, count=sockets,
                       vcpus=vcpus, samples=b * sockets, measured=measured, model=r["model"], scenario=sc)
            out.append(row)
    return out


def timm_rows():
    files = {k: v for k, v in at.FILES.items() if "-cpu-" in k}
    out = []
    for r in at.build_rows(files):
        out.append({"id": "timm-" + r["id"], "cpu": r["device"], "runtime": "torch-compile",
                    "precision": r["precision"], "graph": "tests/models/torchvision/%s.onnx" % r["graph"], "dims": "",
                    "batch": int(r["batch"]), "count": 1, "vcpus": "", "samples": int(r["batch"]),
                    "measured": float(r["samples_per_s"]), "source": r["source"], "reason": "", "model": r["graph"],
                    "scenario": "batch %s" % r["batch"]})
    return out


def rows():
    return timm_rows() + mlperf_rows()


def recipe(row):
    a = ["estimate", row["graph"], "--device", row["cpu"], "--precision", row["precision"], "--runtime",
         row["runtime"], "--batch", str(row["batch"]), "--requests", str(row["samples"]), "--pue", "1", "--ci", "400"]
    if int(row["count"]) > 1:
        a += ["--count", str(row["count"])]
    if row.get("vcpus"):
        a += ["--vcpus", str(row["vcpus"])]
    if row.get("dims"):
        a += row["dims"].split()
    return a


def gptj_recipe(row):
    """The serving path's run of a GPT-J row: every beam a sequence (transformers' beam search expands the prompt
    to each beam), the row's batch of samples x beams running per socket, one replica per socket."""
    s = int(row["count"])
    return ["estimate", "--generate", "--hf-config", row["graph"], "--device", row["cpu"], "--host",
            GPTJ_HOSTS[row["cpu"]], "--count", str(s), "--serving-runtime", row["runtime"], "--weights",
            row["precision"], "--prompt-tokens", str(GPTJ_PROMPT), "--output-tokens", str(GPTJ_OUTPUT),
            "--concurrency", str(row["batch"] * GPTJ_BEAMS), "--requests", str(row["samples"] * GPTJ_BEAMS),
            "--pue", "1", "--ci", "400", "--json"]


def gptj_predict(row):
    """Samples/s of a GPT-J row from the serving path (output tokens/s / beams / output tokens), or None."""
    p = subprocess.run([ac.jc_path()] + gptj_recipe(row), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, cwd=ac.ROOT)
    if p.returncode != 0:
        return None
    js = json.loads(p.stdout)
    return row["samples"] / (js["results"]["wall_hours"]["central"] * 3600.0)


def loco(scored, grids):
    """Per runtime, each CPU's rows predicted by the fit to the other CPUs'
    rows: {row id: (pred samples/s, fold)}; in-sample where one CPU."""
    out = {}
    for rt in sorted({r["runtime"] for r in scored}):
        rs = [r for r in scored if r["runtime"] == rt]
        cpus = sorted({r["cpu"] for r in rs})
        for c in cpus:
            train = [r for r in rs if r["cpu"] != c] if len(cpus) > 1 else rs
            f = fcpu.fit(train, grids)
            for r in rs:
                if r["cpu"] == c and f and grids.get(r["id"]):
                    out[r["id"]] = (1.0 / fcpu.time_at(grids[r["id"]], *f), "loco" if len(cpus) > 1 else "in-sample")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    allrows = rows()
    scored = [r for r in allrows if not r["reason"] and not r.get("gptj")]
    grids = fcpu.grid(scored, recipe, a.jobs)
    pred = loco(scored, grids)
    # GPT-J: no constant is fitted to these rows (the serving constants are fitted to GPU rows, the CPU runtime
    # constants to graph rows), so each fold predicts them as the whole set does
    for r in allrows:
        if r.get("gptj") and not r["reason"]:
            v = gptj_predict(r)
            if v is not None:
                pred[r["id"]] = (v, "loco")
    out, per_rt = [], {}
    for r in allrows:
        if r["reason"]:
            continue
        p = pred.get(r["id"])
        d = {"id": r["id"], "measured": float(r["measured"]), "group": "%s%s (%s)" % (
             r["runtime"], " gpt-j" if r.get("gptj") else "", r["precision"]),
             "note": "%s %s %s" % (r["cpu"], r.get("model", ""), r.get("scenario", ""))}
        if p is None:
            d["reason"] = "joulecast run failed"
        else:
            d["central"] = p[0]
            per_rt.setdefault(r["runtime"], set()).add(p[1])
        out.append(d)
    skipped = {}
    for r in allrows:
        if r["reason"]:
            k = r["reason"].split(" (")[0]
            skipped[k] = skipped.get(k, 0) + 1
    bench = {}
    for r in allrows:
        if r["reason"].startswith("benchmark not modelled"):
            bench[r["model"]] = bench.get(r["model"], 0) + 1
    extra = ["**Rows left out** (%d of %d MLPerf rows): %s; benchmarks not modelled: %s." % (
        sum(skipped.values()), sum(1 for r in allrows if r["id"].startswith("mlperf")),
        ", ".join("%s %d" % (k, v) for k, v in sorted(skipped.items())),
        ", ".join("%s %d" % (k, v) for k, v in sorted(bench.items()))), "",
        "**Folds.** " + "; ".join("%s: %s" % (rt, "leave-one-CPU-out over %d CPUs" % len(
            {r["cpu"] for r in scored if r["runtime"] == rt}) if "loco" in f else
            "one CPU, so in-sample (no fold)") for rt, f in sorted(per_rt.items())) + ".", ""]
    ac.write_set("cpu", "CPU inference (timm torch.compile on two CPUs; MLPerf Inference v3.1/v4.0 CPU-only "
                 "closed: ResNet-50, BERT, RetinaNet, GPT-J Offline)", "samples/s",
                 "`joulecast estimate` with the row's --runtime profile (recipe in tools/accuracy_cpu.py's comment: "
                 "all physical cores; MLPerf Offline/Server batch 32 per socket, SingleStream 1, MultiStream 8, "
                 "since threads and batch are not recorded; Intel's PyTorch rows as ipex int8, the reference "
                 "implementations fp32; GPT-J through `estimate --generate` with its config, GPTJ_RECIPE); the profile's cpu_*_eta_matrix and cpu_*_call_s refitted per fold by "
                 "tools/fit_cpu.py to the profile's rows of the other CPUs (leave-one-CPU-out); the table shows "
                 "each row as its fold predicted it.",
                 "wall-clock inference throughput on the CPU's cores (whole system for MLPerf Offline/Server); no "
                 "energy.", out, out_dir=a.out, extra_lines=extra,
                 targets="leave-one-CPU-out median |error| <= 20% over the CPU rows, per runtime (issue 42)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
