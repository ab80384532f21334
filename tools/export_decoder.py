#!/usr/bin/python3
"""export_decoder.py - exports a tiny GPT-2-shaped decoder with a past key/value cache to ONNX.

Purpose: give `joulecast estimate --generate MODEL.onnx` (the ONNX decoder
path of the serving model, docs/workflow-serving.md) a decoder export of
the form torch and optimum write: inputs `input_ids` [batch, sequence],
`attention_mask` [batch, total_sequence] and one
`past_key_values.N.key` / `.value` [batch, heads, past_sequence, head_dim]
per layer; outputs `logits` [batch, sequence, vocab] and
`present.N.key` / `.value` [batch, heads, total_sequence, head_dim].  The
architecture is written in plain torch here (nothing is downloaded):

    vocab 1000, hidden 64, 2 layers, 4 heads of 16, MLP 256 (GELU, erf),
    learned positions 256 x 64, pre-LayerNorm, fused QKV Linear with bias,
    untied LM head without bias.

`tiny_gpt2_cache_names.onnx` is the same graph with other names (inputs
`tokens` [n, new_tokens], `mask` [n, all_tokens], `cache.N.k` / `.v`
[n, heads, cached_tokens, head_dim]), which joulecast cannot recognise by
name: it needs `--prompt-dim new_tokens --past-dim cached_tokens`.

Weights are random (torch.manual_seed(0)) and written as external data
that is deleted afterwards: the committed `.onnx` keeps the graph and every
initializer's name, dtype and dims (the graph-only form of models/, see
models/README.md; tensors under 1 KiB stay inside the file).  The same
architecture as a Hugging Face config.json is tests/models/decoder/
tiny-gpt2.config.json (written by hand).

    /usr/bin/python3 tools/export_decoder.py [--out DIR]

Run it with Debian's Python (torch 1.13).  Not under torch.no_grad(): with
torch 1.13 transformer exports must run with autograd on (the project's
rule, models/export.py).  Opset 14, eval mode, do_constant_folding=True;
exported at batch 1, sequence 8, past 4 with every one of those axes
dynamic.
"""

import argparse
import importlib.util
import math
import os
import tempfile

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "tests", "models", "decoder")
OPSET = 14

VOCAB, HIDDEN, LAYERS, HEADS, FFN, POSITIONS = 1000, 64, 2, 4, 256, 256


class Block(nn.Module):
    """One pre-LN decoder layer; attends to the past keys/values and
    returns the present ones (past concatenated with this step's)."""

    def __init__(self, d, heads, ffn):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, ffn), nn.Linear(ffn, d)

    def forward(self, x, past_k, past_v, bias):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q = q.view(b, s, self.h, self.dh).transpose(1, 2)
        k = torch.cat([past_k, k.view(b, s, self.h, self.dh).transpose(1, 2)], dim=2)
        v = torch.cat([past_v, v.view(b, s, self.h, self.dh).transpose(1, 2)], dim=2)
        att = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(self.dh) + bias
        y = torch.matmul(F.softmax(att, dim=-1), v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(y)
        x = x + self.down(F.gelu(self.up(self.ln2(x))))
        return x, k, v


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, HIDDEN)
        self.wpe = nn.Embedding(POSITIONS, HIDDEN)
        self.blocks = nn.ModuleList(Block(HIDDEN, HEADS, FFN) for _ in range(LAYERS))
        self.ln_f = nn.LayerNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)

    def forward(self, input_ids, attention_mask, *past):
        s = input_ids.shape[1]
        p = past[0].shape[2]
        pos = torch.arange(p, p + s, dtype=torch.long, device=input_ids.device)
        x = self.wte(input_ids) + self.wpe(pos)
        # causal over the whole context: query i (position p + i) sees keys
        # j <= p + i; padding from attention_mask [batch, p + s]
        keys = torch.arange(p + s, device=input_ids.device)
        causal = keys[None, :] <= pos[:, None]
        allowed = causal[None, None, :, :] & (attention_mask[:, None, None, :] > 0)
        bias = torch.where(allowed, torch.zeros((), dtype=x.dtype), torch.full((), -1e4, dtype=x.dtype))
        present = []
        for i, blk in enumerate(self.blocks):
            x, k, v = blk(x, past[2 * i], past[2 * i + 1], bias)
            present += [k, v]
        return (self.lm_head(self.ln_f(x)), *present)


def load_models_export():
    """models/export.py's helpers (decorrelate_, initializer_params), so
    the decoder is made exactly like models/."""
    spec = importlib.util.spec_from_file_location("jc_models_export", os.path.join(ROOT, "models", "export.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The files written: the names torch/optimum use, and the same graph with
# other names (so that the dims must be told: --prompt-dim, --past-dim).
NAMINGS = {
    "tiny_gpt2_past": dict(ids="input_ids", mask="attention_mask", logits="logits", past="past_key_values.{i}.{kv}",
                           present="present.{i}.{kv}", kv=("key", "value"), batch="batch", seq="sequence",
                           past_dim="past_sequence", total="total_sequence"),
    "tiny_gpt2_cache_names": dict(ids="tokens", mask="mask", logits="scores", past="cache.{i}.{kv}",
                                  present="new_cache.{i}.{kv}", kv=("k", "v"), batch="n", seq="new_tokens",
                                  past_dim="cached_tokens", total="all_tokens"),
}


def export(model, helpers, name, nm, out_dir):
    b, s, p, dh = 1, 8, 4, HIDDEN // HEADS
    torch.manual_seed(1)
    ids = torch.randint(0, VOCAB, (b, s))
    mask = torch.ones(b, p + s, dtype=torch.long)
    past = [torch.randn(b, HEADS, p, dh) for _ in range(2 * LAYERS)]
    names_in = [nm["ids"], nm["mask"]]
    names_out = [nm["logits"]]
    axes = {nm["ids"]: {0: nm["batch"], 1: nm["seq"]}, nm["mask"]: {0: nm["batch"], 1: nm["total"]},
            nm["logits"]: {0: nm["batch"], 1: nm["seq"]}}
    for i in range(LAYERS):
        for kv in nm["kv"]:
            names_in.append(nm["past"].format(i=i, kv=kv))
            names_out.append(nm["present"].format(i=i, kv=kv))
            axes[names_in[-1]] = {0: nm["batch"], 2: nm["past_dim"]}
            axes[names_out[-1]] = {0: nm["batch"], 2: nm["total"]}
    path = os.path.join(out_dir, name + ".onnx")
    with tempfile.TemporaryDirectory(dir=out_dir) as tmp:
        tmp_path = os.path.join(tmp, name + ".onnx")
        torch.onnx.export(model, (ids, mask, *past), tmp_path, opset_version=OPSET, do_constant_folding=True,
                          input_names=names_in, output_names=names_out, dynamic_axes=axes)
        m = onnx.load(tmp_path)
        onnx.checker.check_model(m, full_check=False)
        elems = helpers.initializer_params(m)
        onnx.save_model(m, os.path.join(tmp, "g.onnx"), save_as_external_data=True,
                        all_tensors_to_one_file=True, location=name + ".weights", size_threshold=1024)
        onnx.checker.check_model(os.path.join(tmp, "g.onnx"))
        os.replace(os.path.join(tmp, "g.onnx"), path)
    return path, elems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    helpers = load_models_export()
    torch.manual_seed(0)
    model = TinyDecoder().eval()
    # seeded noise on every parameter: default inits leave the LayerNorm
    # weights bit-identical and the exporter would merge them into one
    helpers.decorrelate_(model)
    arch_params = sum(p.numel() for p in model.parameters())
    for name, nm in NAMINGS.items():
        path, elems = export(model, helpers, name, nm, args.out)
        print(f"{path}: opset {OPSET}, architecture params {arch_params}, ONNX initializer elements {elems}, "
              f"{os.path.getsize(path)} bytes")


if __name__ == "__main__":
    main()
