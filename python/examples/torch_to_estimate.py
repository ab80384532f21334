"""torch_to_estimate.py - the path from a PyTorch model to a training
estimate (docs/pytorch.md), run by tests/pytorch.sh:

  1. build a small torch.nn model (a 2-layer transformer encoder LM),
  2. torch.onnx.export it with dynamic batch and sequence axes, outside
     torch.no_grad() (under no_grad, torch 1.13's TransformerEncoderLayer
     takes its fused "fast path", which does not export),
  3. count it with joulecast at batch 8, sequence 128 and compare the MACs
     with the hand count of its linear layers and attention products,
  4. estimate training it on 1e9 tokens on 8 A100s in France.

Prints one JSON object (the hand count, joulecast's count, the estimate's
headline figures and the equivalent CLI command line).
Usage: python3 torch_to_estimate.py [OUT_DIR]   (default: a temp folder),
with the package installed (pip install --no-build-isolation --no-index
./python); joulecast.from_torch() does steps 2-3 in one call.
"""

import json
import os
import sys
import tempfile

import torch

import joulecast  # the installed package: pip install ./python

VOCAB, D, HEADS, FF, LAYERS = 1000, 64, 4, 256, 2


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, D)
        layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, batch_first=True)
        self.encoder = torch.nn.TransformerEncoder(layer, LAYERS)
        self.head = torch.nn.Linear(D, VOCAB)

    def forward(self, tokens):
        return self.head(self.encoder(self.embed(tokens)))


def hand_macs(batch, seq):
    """Multiply-accumulates of one forward pass: per layer the Q, K, V and
    output projections (4 L D^2), the scores and the weighted sum (2 L^2 D)
    and the feed-forward (2 L D FF); then the LM head (L D V)."""
    per_layer = 4 * seq * D * D + 2 * seq * seq * D + 2 * seq * D * FF
    return batch * (LAYERS * per_layer + seq * D * VOCAB)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="joulecast-torch-")
    path = os.path.join(out_dir, "tiny_lm.onnx")
    torch.manual_seed(0)
    model = TinyLM().eval()
    # distinct values for every weight: TransformerEncoder deep-copies one
    # layer, and the exporter stores identical tensors once
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.02)
    example = torch.randint(0, VOCAB, (2, 16))
    # not under torch.no_grad(): see the module docstring
    torch.onnx.export(model, (example,), path, input_names=["tokens"], output_names=["logits"],
                      dynamic_axes={"tokens": {0: "batch", 1: "sequence"},
                                    "logits": {0: "batch", 1: "sequence"}},
                      opset_version=14)

    batch, seq = 8, 128
    counted = joulecast.count(path, dims={"batch": batch, "sequence": seq})
    est = joulecast.estimate(model=path, dims={"sequence": seq}, device="a100", count=8,
                             region="FR", train={"batch": batch, "seq": seq, "tokens": 1e9})
    res = est["results"]
    print(json.dumps({
        "onnx": path,
        "params": counted["totals"]["params"],
        "torch_params": sum(p.numel() for p in model.parameters()),
        "macs": counted["totals"]["macs"],
        "hand_macs": hand_macs(batch, seq),
        "partial": counted["partial"],
        "mode": est["mode"],
        "results": {k: res[k] for k in ("wall_hours", "energy_facility_kwh", "co2_location_kg") },
        "cli": "joulecast estimate %s --dim sequence=%d --batch %d --seq %d --tokens 1e9 "
               "--train --device a100 --count 8 --region FR" % (path, seq, batch, seq),
    }, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
