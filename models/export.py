#!/usr/bin/python3
"""Export the joulecast example/reference networks to ONNX.

Purpose: produce reproducible ONNX graphs of well-known architectures (with
random weights -- nothing is downloaded) that joulecast's MAC/parameter
counting and energy prediction are tested and benchmarked against.

  * Large models (resnet50, resnet18, mobilenet_v2, vgg16, vit_b_16,
    bert_base, gpt2_small) are written GRAPH-ONLY: the weights go to an
    external-data file `<name>.weights` (not committed) and `<name>.onnx`
    keeps only the graph plus tensor shapes, so it stays small.
  * Small models (lstm_lm, tiny_cnn) are written with their weights inside.
  * `--full` additionally writes `<name>.full.onnx` with every weight inside
    the single file (e.g. the ~100 MB ResNet-50 used by benchmarks).

Run with Debian's Python (the one that can import torch 1.13):

    /usr/bin/python3 models/export.py [--out DIR] [--only a,b] [--full]

All models are exported in eval mode with do_constant_folding=True, so
BatchNorm layers are folded into the preceding Conv.  Transformer models are
deliberately NOT exported under torch.no_grad(): with torch 1.13 that makes
nn.MultiheadAttention take a fused fast path the ONNX exporter cannot write.
"""

import argparse
import contextlib
import math
import os
import sys
import tempfile

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

OPSET = 14


# --------------------------------------------------------------------------
# Transformer building blocks (plain torch.nn, explicit attention so that the
# exported graph is simple MatMul/Softmax and weights are not duplicated).
# --------------------------------------------------------------------------

class SelfAttention(nn.Module):
    """Multi-head self-attention; fused=True uses one QKV Linear (GPT-2
    style), otherwise separate Q, K, V Linears (BERT style).  Both have the
    same parameter count: 3 * (d*d + d) + (d*d + d)."""

    def __init__(self, d, heads, fused, causal):
        super().__init__()
        self.h, self.dh, self.fused, self.causal = heads, d // heads, fused, causal
        if fused:
            self.qkv = nn.Linear(d, 3 * d)
        else:
            self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, s, d = x.shape
        if self.fused:
            q, k, v = self.qkv(x).split(d, dim=-1)
        else:
            q, k, v = self.q(x), self.k(x), self.v(x)
        q = q.reshape(b, s, self.h, self.dh).transpose(1, 2)
        k = k.reshape(b, s, self.h, self.dh).transpose(1, 2)
        v = v.reshape(b, s, self.h, self.dh).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.dh)
        if self.causal:
            # built from the runtime sequence length (Trilu), so no
            # 1024x1024 mask buffer ends up as an initializer
            mask = torch.full((s, s), float("-inf"), device=x.device).triu(1)
            scores = scores + mask
        ctx = torch.matmul(scores.softmax(dim=-1), v)
        return self.out(ctx.transpose(1, 2).reshape(b, s, d))


class FeedForward(nn.Module):
    def __init__(self, d, ff, approximate):
        super().__init__()
        self.fc1, self.fc2, self.approximate = nn.Linear(d, ff), nn.Linear(ff, d), approximate

    def forward(self, x):
        return self.fc2(F.gelu(self.fc1(x), approximate=self.approximate))


class BertLayer(nn.Module):
    """Post-LN encoder layer (BERT)."""

    def __init__(self, d, heads, ff, eps):
        super().__init__()
        self.attn = SelfAttention(d, heads, fused=False, causal=False)
        self.ln1 = nn.LayerNorm(d, eps=eps)
        self.ffn = FeedForward(d, ff, "none")
        self.ln2 = nn.LayerNorm(d, eps=eps)

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.ffn(x))


class BertBase(nn.Module):
    """bert-base-uncased shaped encoder + pooler: 109,482,240 parameters."""

    def __init__(self, vocab=30522, d=768, layers=12, heads=12, ff=3072,
                 max_pos=512, type_vocab=2, eps=1e-12):
        super().__init__()
        self.word = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_pos, d)
        self.token_type = nn.Embedding(type_vocab, d)
        self.ln = nn.LayerNorm(d, eps=eps)
        self.layers = nn.ModuleList(BertLayer(d, heads, ff, eps) for _ in range(layers))
        self.pooler = nn.Linear(d, d)

    def forward(self, input_ids):
        s = input_ids.shape[1]
        pos = torch.arange(s, device=input_ids.device).unsqueeze(0)
        # token_type_ids default to all zeros (single-segment input); the
        # lookup is kept dynamic so the 2x768 table stays an initializer
        tt = torch.zeros_like(input_ids)
        x = self.word(input_ids) + self.pos(pos) + self.token_type(tt)
        x = self.ln(x)
        for layer in self.layers:
            x = layer(x)
        pooled = torch.tanh(self.pooler(x[:, 0]))
        return x, pooled


class GPT2Block(nn.Module):
    """Pre-LN decoder block (GPT-2)."""

    def __init__(self, d, heads, ff, eps):
        super().__init__()
        self.ln1 = nn.LayerNorm(d, eps=eps)
        self.attn = SelfAttention(d, heads, fused=True, causal=True)
        self.ln2 = nn.LayerNorm(d, eps=eps)
        self.mlp = FeedForward(d, ff, "tanh")

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT2Small(nn.Module):
    """GPT-2 small shaped decoder, tied LM head: 124,439,808 parameters."""

    def __init__(self, vocab=50257, d=768, layers=12, heads=12, ff=3072,
                 ctx=1024, eps=1e-5):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(GPT2Block(d, heads, ff, eps) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d, eps=eps)

    def forward(self, input_ids):
        s = input_ids.shape[1]
        pos = torch.arange(s, device=input_ids.device).unsqueeze(0)
        x = self.wte(input_ids) + self.wpe(pos)
        for blk in self.blocks:
            x = blk(x)
        x = self.ln_f(x)
        # Tied LM head.  Written as W @ x^T (then transposed back) so the
        # exporter uses the embedding initializer directly: x @ W^T would make
        # a Transpose(W) that constant folding turns into a second 38.6M
        # parameter copy of the table.
        return torch.matmul(self.wte.weight, x.transpose(1, 2)).transpose(1, 2)


class LSTMLM(nn.Module):
    """Small word-level LSTM language model (weights shipped inside)."""

    def __init__(self, vocab=1000, emb=64, hidden=128, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, num_layers=layers, batch_first=True)
        self.fc = nn.Linear(hidden, vocab)

    def forward(self, input_ids):
        y, _ = self.lstm(self.emb(input_ids))
        return self.fc(y)


class TinyCNN(nn.Module):
    """3-conv MNIST-style classifier (weights shipped inside)."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.c3 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc = nn.Linear(64 * 3 * 3, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)   # 28 -> 14
        x = F.max_pool2d(F.relu(self.c2(x)), 2)   # 14 -> 7
        x = F.max_pool2d(F.relu(self.c3(x)), 2)   # 7 -> 3
        return self.fc(torch.flatten(x, 1))


class RetinaNetMLPerf(nn.Module):
    """The MLPerf Inference RetinaNet network (retinanet_resnext50_32x4d_fpn:
    a ResNeXt-50 32x4d backbone, an FPN on its last three stages plus P6/P7,
    torchvision's RetinaNet heads with 9 anchors, 264 OpenImages classes, an
    800 x 800 input): backbone, FPN and heads only, the box decoding and
    non-maximum suppression left out (they run on the host in the MLPerf
    reference and are a negligible share of the work)."""

    def __init__(self, classes=264, anchors=9):
        super().__init__()
        from torchvision.models.detection.backbone_utils import _resnet_fpn_extractor
        from torchvision.models.detection.retinanet import RetinaNetHead
        from torchvision.ops.feature_pyramid_network import LastLevelP6P7
        body = torchvision.models.resnext50_32x4d(weights=None)
        self.backbone = _resnet_fpn_extractor(body, 5, returned_layers=[2, 3, 4],
                                              extra_blocks=LastLevelP6P7(256, 256))
        self.head = RetinaNetHead(256, anchors, classes)

    def forward(self, x):
        feats = list(self.backbone(x).values())
        return self.head.classification_head(feats), self.head.regression_head(feats)


# --------------------------------------------------------------------------
# Model table
# --------------------------------------------------------------------------

def _tv(name):
    return lambda: getattr(torchvision.models, name)(weights=None)


def _image_spec(ctor, external=True, shape=(1, 3, 224, 224)):
    return dict(ctor=ctor, inputs=lambda: (torch.randn(*shape),),
                input_names=["input"], output_names=["output"],
                dynamic_axes={"input": {0: "batch"}, "output": {0: "batch"}},
                external=external)


def _ids(vocab, seq):
    return lambda: (torch.randint(0, vocab, (1, seq), dtype=torch.int64),)


SEQ_AXES = {0: "batch", 1: "sequence"}

MODELS = {
    "resnet50": _image_spec(_tv("resnet50")),
    "resnet18": _image_spec(_tv("resnet18")),
    "mobilenet_v2": _image_spec(_tv("mobilenet_v2")),
    "vgg16": _image_spec(_tv("vgg16")),
    "vit_b_16": _image_spec(_tv("vit_b_16")),
    "bert_base": dict(
        ctor=BertBase, inputs=_ids(30522, 128),
        input_names=["input_ids"], output_names=["last_hidden_state", "pooler_output"],
        dynamic_axes={"input_ids": SEQ_AXES, "last_hidden_state": SEQ_AXES,
                      "pooler_output": {0: "batch"}},
        external=True),
    # BERT-Large shape (24 x 1024, 16 heads, FFN 4096): the MLPerf Inference
    # bert-99 network, for the accuracy harness (tools/accuracy_mlperf.py)
    "bert_large": dict(
        ctor=lambda: BertBase(d=1024, layers=24, heads=16, ff=4096), inputs=_ids(30522, 384),
        input_names=["input_ids"], output_names=["last_hidden_state", "pooler_output"],
        dynamic_axes={"input_ids": SEQ_AXES, "last_hidden_state": SEQ_AXES,
                      "pooler_output": {0: "batch"}},
        external=True),
    # the MLPerf Inference RetinaNet network (800 x 800), for the CPU set
    # (tools/accuracy_cpu.py)
    "retinanet": dict(
        ctor=RetinaNetMLPerf, inputs=lambda: (torch.randn(1, 3, 800, 800),),
        input_names=["input"], output_names=["cls_logits", "bbox_regression"],
        dynamic_axes={"input": {0: "batch"}, "cls_logits": {0: "batch"}, "bbox_regression": {0: "batch"}},
        external=True),
    "gpt2_small": dict(
        ctor=GPT2Small, inputs=_ids(50257, 1024),
        input_names=["input_ids"], output_names=["logits"],
        dynamic_axes={"input_ids": SEQ_AXES, "logits": SEQ_AXES},
        external=True),
    "lstm_lm": dict(
        ctor=LSTMLM, inputs=_ids(1000, 35),
        input_names=["input_ids"], output_names=["logits"],
        dynamic_axes={"input_ids": SEQ_AXES, "logits": SEQ_AXES},
        external=False),
    "tiny_cnn": _image_spec(TinyCNN, external=False, shape=(1, 1, 28, 28)),
}


def initializer_params(model):
    """Sum of element counts over all graph initializers (works on
    graph-only models too: dims are kept even when data is external)."""
    total = 0
    for t in model.graph.initializer:
        n = 1
        for d in t.dims:
            n *= d
        total += n
    return total


def decorrelate_(model):
    """Give every parameter/BN statistic a little seeded noise.

    Default inits leave many tensors bit-identical (LayerNorm/BatchNorm
    weights = 1, most biases = 0, folded Conv biases = 0).  torch's exporter
    then de-duplicates them into ONE shared initializer, which makes the
    graph's parameter count smaller than the architecture's.  Trained
    networks never have identical tensors, so break the ties."""
    with torch.no_grad():  # only for this in-place edit; export is outside
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.02)
        for mod in model.modules():
            if isinstance(mod, nn.modules.batchnorm._BatchNorm):
                mod.running_mean.copy_(torch.randn_like(mod.running_mean) * 0.1)
                mod.running_var.copy_(torch.rand_like(mod.running_var) + 0.5)


def export_first_opset(model, args, path, name, opsets, no_grad, **names):
    """torch.onnx.export `model` on `args` to `path` (constant folding on,
    `names` = input_names/output_names/dynamic_axes) with the first opset of
    `opsets` that exports; each failure is printed to stderr and the next
    opset tried. Raises the last failure when none exports. `no_grad` runs
    the export under torch.no_grad() (see the module docstring for why
    models/ does not)."""
    last_err = None
    for opset in opsets:
        try:
            with torch.no_grad() if no_grad else contextlib.nullcontext():
                torch.onnx.export(model, args, path, opset_version=opset,
                                  do_constant_folding=True, **names)
            return
        except Exception as e:  # try the next opset
            last_err = e
            print(f"  {name}: opset {opset} export failed: {e}", file=sys.stderr)
    raise last_err


def export_one(name, spec, out_dir, full):
    torch.manual_seed(0)
    model = spec["ctor"]()
    decorrelate_(model)
    model.eval()
    torch_params = sum(p.numel() for p in model.parameters())
    torch.manual_seed(0)
    args = spec["inputs"]()

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = os.path.join(tmp, name + ".onnx")
        # no torch.no_grad() here on purpose (see module docstring)
        export_first_opset(model, args, tmp_path, name, (OPSET, 13), no_grad=False,
                           input_names=spec["input_names"],
                           output_names=spec["output_names"],
                           dynamic_axes=spec["dynamic_axes"])
        m = onnx.load(tmp_path)

    onnx.checker.check_model(m)
    onnx_params = initializer_params(m)
    os.makedirs(out_dir, exist_ok=True)

    if full:
        full_path = os.path.join(out_dir, name + ".full.onnx")
        onnx.save_model(m, full_path)
        onnx.checker.check_model(full_path)

    path = os.path.join(out_dir, name + ".onnx")
    if spec["external"]:
        weights = name + ".weights"
        # onnx appends to an existing external-data file: start fresh
        if os.path.exists(os.path.join(out_dir, weights)):
            os.remove(os.path.join(out_dir, weights))
        onnx.save_model(m, path, save_as_external_data=True,
                        all_tensors_to_one_file=True, location=weights,
                        size_threshold=1024)
        # path-based check verifies the external file is where it says
        onnx.checker.check_model(path)
    else:
        onnx.save_model(m, path)
        onnx.checker.check_model(path)

    opset = next(o.version for o in m.opset_import if o.domain in ("", "ai.onnx"))
    print(f"{name:13s} opset {opset}  torch params {torch_params:>12,}  "
          f"onnx initializer elems {onnx_params:>12,}  "
          f"{os.path.getsize(path):>10,} bytes  {path}")
    return torch_params, onnx_params


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)),
                    help="output directory (default: the models/ folder)")
    ap.add_argument("--only", default="",
                    help="comma-separated subset of: " + ",".join(MODELS))
    ap.add_argument("--full", action="store_true",
                    help="also write <name>.full.onnx with all weights inside")
    a = ap.parse_args()

    names = [n for n in a.only.split(",") if n] or list(MODELS)
    bad = [n for n in names if n not in MODELS]
    if bad:
        ap.error("unknown model(s): " + ",".join(bad))
    for n in names:
        export_one(n, MODELS[n], a.out, a.full)


if __name__ == "__main__":
    main()
