"""_frontends.py - joulecast from a PyTorch module or a Hugging Face
config, without writing files by hand:

  from_torch(module, example_inputs, dynamic=("batch",), **args)
      exports the module with the installed torch to ONNX in a temporary
      folder (removed afterwards) and counts it - or, when args hold any
      key beyond count's, estimates it;
  from_hf_config(path_or_dict, **args)
      the serving estimate of a Hugging Face config.json (the CLI's
      estimate --generate --hf-config, job key "hf-config"; train=... for
      the training step model); a dict (or a transformers config object)
      is written to a temporary file first.

torch is imported on the first call, never at `import joulecast`.
"""

import json
import os
import tempfile
import warnings

from ._native import Error, USAGE, keys
from ._result import JoulecastWarning

MODEL_ERROR = 4  # JC_ERR_MODEL: what a failed export is

# dim names from_torch makes dynamic, and the axis of each input they name
AXES = {"batch": 0, "sequence": 1}


def _materialize(r):
    """Computes the result's HTML report and rows now, while the model
    file they re-read still exists."""
    if r._html is not None:
        h = r._html()
        r._html = lambda: h
    if r._rows is not None:
        rows = r._rows()
        r._rows = lambda: rows
    return r


def _mode_batch(args):
    """Whether the arguments give the batch (top level or in train= /
    infer=), which binds the model's batch dim itself."""
    if args.get("batch") is not None:
        return True
    return any(isinstance(args.get(m), dict) and args[m].get("batch") is not None
               for m in ("train", "infer"))


def _dynamic_axes(dynamic, names, tensors, n_out):
    if isinstance(dynamic, dict):
        return dict(dynamic)
    for a in dynamic:
        if a not in AXES:
            raise Error("from_torch: dynamic= names axes among %s (or give torch's "
                        "dynamic_axes dict), not '%s'" % (", ".join(sorted(AXES)), a),
                        USAGE, "usage error")
    dyn = {}
    for n, t in zip(names, tensors):
        ax = {AXES[a]: a for a in dynamic if t.dim() > AXES[a]}
        if ax:
            dyn[n] = ax
    if "batch" in dynamic:
        for i in range(n_out):
            dyn["output_%d" % i] = {0: "batch"}
    return dyn


def _equal_weights(torch, module):
    """The module's parameter elements, and those of its weight matrices
    (2 dims or more) whose values equal an earlier distinct matrix's (same
    shape, dtype and values): torch.onnx.export stores equal tensors once,
    so these are missing from the export (a freshly built
    nn.TransformerEncoder deep-copies one layer: its layers are equal until
    trained).  Vectors are left out: a fresh model's norms and biases are
    all ones or zeros, and the export folds some (batch norm) anyway.  A
    fingerprint (sum and first element) keeps the full comparisons to the
    likely pairs."""
    groups, total, equal = {}, 0, 0
    with torch.no_grad():
        for p in module.parameters():
            if not p.is_floating_point() or p.numel() == 0:
                continue
            total += p.numel()
            if p.dim() < 2:
                continue
            flat = p.detach().reshape(-1)
            key = (tuple(p.shape), p.dtype, str(p.device), float(flat.double().sum()), float(flat[0]))
            seen = groups.setdefault(key, [])
            if any(torch.equal(flat, q) for q in seen):
                equal += p.numel()
            else:
                seen.append(flat)
    return total, equal


def _warn_equal_weights(r, exported, total, equal):
    """Adds to the result (and issues) the warning that the export holds
    fewer parameters than the module because equal weight tensors were
    stored once."""
    if not equal or exported is None or exported >= total:
        return
    msg = ("from_torch: the ONNX export holds %d parameters, the module %d (%d fewer): %d of the "
           "module's weight-matrix elements equal another matrix's values, and torch.onnx.export "
           "stores equal tensors once (a freshly built nn.TransformerEncoder deep-copies one "
           "layer); the parameter count, the weight bytes and an estimate's weight traffic are "
           "the export's, the FLOPs are not affected; count trained weights, or initialise each "
           "layer apart, to count them all" % (exported, total, total - exported, equal))
    r.setdefault("warnings", []).append(msg)
    warnings.warn(msg, JoulecastWarning, stacklevel=3)


def _outputs(torch, module, args):
    """The number of tensors the module returns for the example (one
    forward pass in eval mode, the module's mode restored)."""
    was = module.training
    try:
        module.eval()
        with torch.no_grad():
            out = module(*args)
    finally:
        module.train(was)
    if isinstance(out, torch.Tensor):
        return 1
    if isinstance(out, (tuple, list)):
        return sum(1 for o in out if isinstance(o, torch.Tensor))
    return 0


def from_torch(module, example_inputs, dynamic=("batch",), input_names=None,
               opset_version=14, **args):
    """Counts (or estimates) a torch.nn.Module through ONNX.

    example_inputs: a tensor or a tuple of them (the forward arguments).
    dynamic: the axes exported as symbolic dims - "batch" (axis 0 of every
    input and output) and "sequence" (axis 1 of every input) - or torch's
    own dynamic_axes dict.  The model is exported in eval mode (dropout
    off, batch norm on its running statistics: the forward pass the count
    needs), whether the estimate is of training or inference (train= /
    infer=).  The dynamic dims are bound to the example's sizes unless
    args bind them (dims=, batch=).  args: count's keys only -> the count
    (``joulecast count --json``); any other key (device=, region=,
    train=, ...) -> the estimate (``joulecast estimate --json``).  An
    export failure raises joulecast.Error (status 4) with torch's message.
    torch.onnx.export stores equal weight tensors once: when the module
    has such (a freshly built nn.TransformerEncoder's layers are copies of
    one), the result warns with the export's and the module's parameter
    counts (JoulecastWarning, and in its "warnings").
    Do not call under torch.no_grad() for torch 1.13's transformer layers
    (their no_grad fast path does not export)."""
    try:
        import torch
    except ImportError as e:
        raise Error("from_torch needs torch: %s" % e, USAGE, "usage error") from None
    from . import count, estimate
    ex = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    tensors = [t for t in ex if isinstance(t, torch.Tensor)]
    if not tensors:
        raise Error("from_torch: example_inputs holds no tensor", USAGE, "usage error")
    names = list(input_names) if input_names else (
        ["input"] if len(tensors) == 1 else ["input_%d" % i for i in range(len(tensors))])
    try:
        n_out = _outputs(torch, module, ex)
    except Exception as e:
        raise Error("from_torch: %s(example_inputs) failed: %s: %s"
                    % (type(module).__name__, type(e).__name__, e), MODEL_ERROR,
                    "model error") from e
    dyn = _dynamic_axes(dynamic, names, tensors, n_out)
    bind = {}
    for n, t in zip(names, tensors):
        for ax, dim in dyn.get(n, {}).items():
            bind.setdefault(dim, int(t.shape[ax]))
    count_keys = set(keys("count")) | {"dims", "inputs"}
    is_estimate = any(k.replace("_", "-") not in count_keys for k in args)
    if is_estimate and _mode_batch(args):
        bind.pop("batch", None)  # the job's batch binds it
    dims = dict(bind)
    dims.update(args.pop("dims", None) or {})
    if args.get("batch") is not None and not is_estimate:
        dims.pop("batch", None)
    with tempfile.TemporaryDirectory(prefix="joulecast-torch-") as tmp:
        path = os.path.join(tmp, type(module).__name__ + ".onnx")
        try:
            torch.onnx.export(module, ex, path, input_names=names,
                              output_names=["output_%d" % i for i in range(n_out)],
                              dynamic_axes=dyn, opset_version=opset_version,
                              training=torch.onnx.TrainingMode.EVAL)
        except Exception as e:
            raise Error("torch.onnx.export of %s failed: %s: %s"
                        % (type(module).__name__, type(e).__name__, e), MODEL_ERROR,
                        "model error") from e
        if is_estimate:
            r = estimate(model=path, dims=dims or None, **args)
        else:
            r = count(path, dims=dims or None, **args)
        total, equal = _equal_weights(torch, module)
        if equal:
            exported = (count(path, dims=dims or None) if is_estimate else r).get("totals", {}).get("params")
            _warn_equal_weights(r, exported, total, equal)
        return _materialize(r)


MODE_KEYS = ("generate", "train", "infer", "mode")   # what says the kind of estimate


def from_hf_config(path_or_dict, **args):
    """The estimate of a Hugging Face model from its config: a path to a
    config.json, a dict (``AutoConfig.from_pretrained(...).to_dict()``)
    or a transformers config object, passed to estimate as the CLI's
    --hf-config (job key "hf-config") with the other arguments
    (prompt_tokens=, output_tokens=, device=, ...).  A config is read by
    the serving model, so without a mode (generate=, train=, infer=,
    mode=) the estimate is the serving one, generate=True, as
    ``joulecast estimate --generate --hf-config`` (train=True or
    train={...}: the training step model)."""
    from . import estimate
    if not any(args.get(k) not in (None, False) for k in MODE_KEYS):
        args["generate"] = True
    cfg = path_or_dict
    if hasattr(cfg, "to_dict") and not isinstance(cfg, dict):
        cfg = cfg.to_dict()
    if not isinstance(cfg, dict):
        return estimate(hf_config=os.fspath(cfg), **args)
    with tempfile.TemporaryDirectory(prefix="joulecast-hf-") as tmp:
        path = os.path.join(tmp, "config.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(cfg, f)
        return _materialize(estimate(hf_config=path, **args))
