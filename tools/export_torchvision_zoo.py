#!/usr/bin/python3
"""export_torchvision_zoo.py - exports torchvision's whole classification zoo to graph-only ONNX files.

Purpose: give joulecast's counting a test set of every classification
model that Debian's torchvision ships (`torchvision.models.list_models(
module=torchvision.models)`), each at the input size of its default
weights, so tests/zoo.sh can compare the counted MACs with torchvision's
published GMACs.  Weights are random (nothing is downloaded) and are
written as external data that is deleted afterwards: the committed
`.onnx` keeps the graph and every initializer's name, dtype and dims (the
same graph-only form as models/, see models/README.md).

One model per subprocess, one at a time, under `nice`, with the peak RSS
of each export measured; an export whose RSS passes --max-rss-gb is killed
and reported as failed.  A summary table (name, weights, input size,
opset, ONNX initializer elements, peak RSS, seconds) goes to
<out>/EXPORT.tsv.

    /usr/bin/python3 tools/export_torchvision_zoo.py [--out DIR]
        [--only a,b] [--max-rss-gb 10]

Run it with Debian's Python (the one that imports torch 1.13 and
torchvision 0.14).  Transformers are exported under torch.no_grad() to
keep memory low; nn.MultiheadAttention's fused fast path (which the
exporter cannot write) is disabled by giving each attention module a
nonzero dropout probability, which has no effect in eval mode (see
disable_mha_fast_path).
"""

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "tests", "models", "torchvision")
OPSETS = (14, 17)


def load_models_export():
    """models/export.py's helpers (decorrelate_, initializer_params,
    export_first_opset), so the zoo is made exactly like models/."""
    spec = importlib.util.spec_from_file_location(
        "jc_models_export", os.path.join(ROOT, "models", "export.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def zoo_names():
    """Every classification model, smallest first (by the default
    weights' parameter count times input pixels), so the large exports
    come last."""
    import torchvision

    def size(n):
        w, crop = default_weights(n)
        return w.meta["num_params"] * crop * crop, n
    return sorted(torchvision.models.list_models(module=torchvision.models), key=size)


def default_weights(name):
    """(weights enum member, crop size) of the model's DEFAULT weights."""
    import torchvision
    w = torchvision.models.get_model_weights(name).DEFAULT
    crop = w.transforms.keywords.get("crop_size", 224)
    return w, int(crop)


def disable_mha_fast_path(model):
    """torch 1.13's nn.MultiheadAttention takes a fused kernel under
    no_grad unless its dropout is nonzero.  In eval mode the dropout
    probability is not applied (F.multi_head_attention_forward sets it to
    0 when not training), so the exported graph is unchanged."""
    import torch.nn as nn
    n = 0
    for m in model.modules():
        if isinstance(m, nn.MultiheadAttention):
            m.dropout = 0.1
            n += 1
    return n


def register_missing_symbolics():
    """torch 1.13's exporter has no symbolic for aten::zero (Swin V2 zeroes
    the key third of its qkv bias with Tensor.zero_()).  Written as x - x:
    same shape and dtype; the bias is a parameter, so constant folding
    turns the whole expression into an initializer anyway."""
    import torch

    def zero(g, self):
        return g.op("Sub", self, self)
    for opset in OPSETS:
        torch.onnx.register_custom_op_symbolic("aten::zero", zero, opset)


def one_weights_file(src, tmp, location):
    """A model over protobuf's 2 GB limit: torch writes every large
    initializer to a file of its own beside the graph, and the graph
    cannot be loaded with its data in one message.  Rewrite it in the
    form every other export has (tensors of 1024 bytes or more in one
    file LOCATION, in graph order, the rest inline) by streaming the
    bytes, without loading them; returns the rewritten graph, saved as
    tmp/g.onnx."""
    import onnx
    from onnx.external_data_helper import ExternalDataInfo

    m = onnx.load(src, load_external_data=False)
    offset = 0
    with open(os.path.join(tmp, location), "wb") as out:
        for t in m.graph.initializer:
            if t.data_location == onnx.TensorProto.EXTERNAL:
                info = ExternalDataInfo(t)
                with open(os.path.join(tmp, info.location), "rb") as f:
                    f.seek(info.offset or 0)
                    left = info.length if info.length else None
                    n = 0
                    while left is None or left > 0:
                        chunk = f.read(1 << 24 if left is None else min(left, 1 << 24))
                        if not chunk:
                            break
                        out.write(chunk)
                        n += len(chunk)
                        if left is not None:
                            left -= len(chunk)
            elif len(t.raw_data) >= 1024:
                out.write(t.raw_data)
                n = len(t.raw_data)
                t.ClearField("raw_data")
            else:
                continue
            del t.external_data[:]
            for k, v in (("location", location), ("offset", str(offset)), ("length", str(n))):
                e = t.external_data.add()
                e.key, e.value = k, v
            t.data_location = onnx.TensorProto.EXTERNAL
            offset += n
    onnx.save_model(m, os.path.join(tmp, "g.onnx"))
    return m


def export_one(name, out_dir):
    """Export one model; prints one tab-separated summary line."""
    import torch
    import torchvision

    torch.set_num_threads(1)
    register_missing_symbolics()
    weights, crop = default_weights(name)
    kwargs = {}
    if name.startswith("vit_"):
        # ViT's position embedding depends on the image size; torchvision
        # builds it from the weights' min_size when weights are given
        kwargs["image_size"] = crop
    torch.manual_seed(0)
    model = torchvision.models.get_model(name, weights=None, **kwargs)
    export_model(model, name, crop, out_dir, weights)


def export_model(model, name, crop, out_dir, weights):
    """Export a built model (random weights) graph-only to out_dir/name.onnx
    at crop x crop, as every zoo export is made; prints the summary line
    (tools/export_dle_zoo.py exports its own builders through this)."""
    import onnx
    import torch

    helpers = load_models_export()
    helpers.decorrelate_(model)
    model.eval()
    disable_mha_fast_path(model)
    torch.manual_seed(0)
    x = torch.randn(1, 3, crop, crop)
    path = os.path.join(out_dir, name + ".onnx")
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        tmp_path = os.path.join(tmp, name + ".onnx")
        helpers.export_first_opset(model, (x,), tmp_path, name, OPSETS, no_grad=True,
                                   input_names=["input"], output_names=["output"],
                                   dynamic_axes={"input": {0: "batch"},
                                                 "output": {0: "batch"}})
        del model
        wpath = os.path.join(tmp, name + ".weights")
        if os.path.getsize(tmp_path) < (1 << 31) and len(os.listdir(tmp)) == 1:
            m = onnx.load(tmp_path)
            onnx.checker.check_model(m, full_check=False)
            onnx.save_model(m, os.path.join(tmp, "g.onnx"), save_as_external_data=True,
                            all_tensors_to_one_file=True, location=name + ".weights",
                            size_threshold=1024)
        else:
            m = one_weights_file(tmp_path, tmp, name + ".weights")
        elems = helpers.initializer_params(m)
        onnx.checker.check_model(os.path.join(tmp, "g.onnx"))
        os.replace(os.path.join(tmp, "g.onnx"), path)
        if os.path.exists(wpath):
            os.remove(wpath)
    opset = next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx"))
    print(f"RESULT\t{name}\t{weights}\t{crop}\t{opset}\t{elems}\t{os.path.getsize(path)}")


def peak_rss_watch(proc, limit_kb, state):
    """Poll the child's VmRSS; kill it past the limit."""
    while proc.poll() is None:
        try:
            with open(f"/proc/{proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        kb = int(line.split()[1])
                        state["peak"] = max(state["peak"], kb)
                        if kb > limit_kb:
                            state["killed"] = True
                            proc.kill()
        except (FileNotFoundError, ProcessLookupError):
            pass
        time.sleep(0.2)


def run_all(names, out_dir, max_rss_gb):
    os.makedirs(out_dir, exist_ok=True)
    rows, failed = [], []
    for name in names:
        t0 = time.time()
        cmd = ["nice", "-n", "10", sys.executable, os.path.abspath(__file__),
               "--one", name, "--out", out_dir]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        state = {"peak": 0, "killed": False}
        th = threading.Thread(target=peak_rss_watch,
                              args=(proc, int(max_rss_gb * 1024 * 1024), state))
        th.start()
        out, err = proc.communicate()
        th.join()
        secs = time.time() - t0
        res = [ln for ln in out.splitlines() if ln.startswith("RESULT\t")]
        # ru_maxrss of the reaped children is a second, exact peak figure
        peak_kb = max(state["peak"], resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
                      if len(names) == 1 else state["peak"])
        if proc.returncode != 0 or not res:
            why = "killed: RSS over limit" if state["killed"] else (
                err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}")
            failed.append((name, why))
            print(f"FAILED {name} ({secs:.0f} s, peak RSS {peak_kb / 1048576:.2f} GB): {why}",
                  flush=True)
            continue
        f = res[0].split("\t")[1:]
        rows.append(f + [f"{peak_kb / 1048576:.2f}", f"{secs:.0f}"])
        print(f"ok {name}: {f[1]} {f[2]}px opset {f[3]} {int(f[4]):,} elems, "
              f"{int(f[5]):,} bytes, peak RSS {peak_kb / 1048576:.2f} GB, {secs:.0f} s",
              flush=True)
    return rows, failed


def merge_table(out_dir, rows):
    """Keep EXPORT.tsv rows of models not re-exported this run."""
    path = os.path.join(out_dir, "EXPORT.tsv")
    head = ("# written by tools/export_torchvision_zoo.py; torch %s, torchvision %s\n"
            "name\tweights\tinput\topset\tinit_elems\tonnx_bytes\tpeak_rss_gb\tseconds\n")
    old = {}
    if os.path.exists(path):
        with open(path) as f:
            for ln in f:
                if ln.startswith("#") or ln.startswith("name\t") or not ln.strip():
                    continue
                old[ln.split("\t")[0]] = ln.rstrip("\n").split("\t")
    for r in rows:
        old[r[0]] = r
    import torch
    import torchvision
    with open(path, "w") as f:
        f.write(head % (torch.__version__, torchvision.__version__))
        for k in sorted(old):
            f.write("\t".join(old[k]) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="", help="comma-separated model names")
    ap.add_argument("--max-rss-gb", type=float, default=10.0)
    ap.add_argument("--one", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        export_one(a.one, a.out)
        return
    all_names = zoo_names()
    names = [n for n in a.only.split(",") if n] or all_names
    bad = [n for n in names if n not in all_names]
    if bad:
        ap.error("not in the zoo: " + ",".join(bad))
    rows, failed = run_all(names, a.out, a.max_rss_gb)
    merge_table(a.out, rows)
    print(f"{len(rows)} exported, {len(failed)} failed")
    for n, why in failed:
        print(f"  {n}: {why}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
