"""joulecast - predict the time, energy and emissions of training or running
a neural network from its ONNX file, from Python.

Install: ``pip install --no-build-isolation --no-index ./python`` in a
joulecast checkout (builds the C library; the package carries its own
libjoulecast.so and hardware database).  A thin ctypes binding, no
compiled extension: one function per CLI command (count, estimate, statement,
compare, sweep, calibrate, ga, hw, region), keyword arguments named
as the command's long options / job-file keys (``_`` for ``-``), results
as the document the CLI's ``--json`` prints (docs/json-schemas.md), as a
dict, errors as joulecast.Error (status = the CLI's exit code, and the
diagnostic's file, node and YAML line:col).

    import joulecast
    joulecast.count("resnet50.onnx", batch=1)["totals"]["macs"]
    joulecast.estimate(model="resnet50.onnx", device="a100", count=8,
                       region="US-CA", train={"samples": 1281167,
                       "epochs": 90, "batch": 256})
    joulecast.from_torch(torchvision.models.resnet18(), torch.randn(1, 3, 224, 224))

In a notebook a result shows as the HTML report (estimate, compare,
sweep) and ``.to_frame()`` gives its rows as a pandas DataFrame.
"""

import os

from ._native import (Error, format_number, hwdb_dir, hwdb_snapshot, keys,
                      library_path, USAGE)
from . import _native
from ._result import JoulecastWarning, Result
from ._frontends import from_torch, from_hf_config

try:
    from ._version import __version__
except ImportError:  # a source tree that setup.py has not built
    __version__ = None

__all__ = ["Error", "JoulecastWarning", "Result", "count", "estimate", "statement", "compare", "sweep",
           "calibrate", "ga", "hw", "region", "from_torch", "from_hf_config", "keys",
           "library_path", "hwdb_dir", "hwdb_snapshot", "format_number", "__version__"]


def _fs(p):
    return None if p is None else os.fspath(p)


def _job(model, train, infer, options):
    """The key/value pairs of a workload: model, the mode (train= / infer=:
    True or a dict of that mode's options) and the other job keys."""
    if train is not None and infer is not None and train is not False and infer is not False:
        raise Error("give train or infer, not both", USAGE, "usage error")
    kv = []
    if model is not None:
        path = os.fspath(model)
        # a job file where the CLI takes one (joulecast estimate JOB.yaml)
        kv.append(("job" if str(path).endswith((".yaml", ".yml")) else "model", path))
    for mode, spec in (("train", train), ("infer", infer)):
        if spec is None or spec is False:
            continue
        kv.append((mode, "true"))
        if isinstance(spec, dict):
            kv += _native.pairs(spec)
        elif spec is not True:
            raise Error("%s= takes a dict of options or True" % mode, USAGE, "usage error")
    return kv + _native.pairs(options)


def _nodes(doc):
    return doc.get("nodes") or []


def _serving_row(doc):
    """A generation estimate as one row: the hardware and region, the
    serving figures (lists left out), then the results."""
    row = dict(device=doc["hardware"].get("device"), devices=doc["hardware"].get("devices"),
               region=doc["region"].get("code"))
    row.update((k, v) for k, v in doc["serving"].items() if not isinstance(v, list))
    row.update(doc.get("results") or {})
    return row


def _request(fname, first, kv, html=False, rows=None):
    """Calls `fname`; the Result re-runs the same request with the
    binding's "html" key for its HTML report."""
    doc = _native.call(fname, first, kv)
    h = (lambda: _native.call_text(fname, first, kv + [("html", "true")])) if html else None
    return Result(doc, html=h, rows=rows(doc, kv) if rows else None)


def count(model, dims=None, batch=None, inputs=None, **options):
    """Shapes and cost of every node of the ONNX model, as ``joulecast
    count MODEL --json`` prints it (totals, per-node list, what is
    unknown).  dims: {"sequence": 128}; batch: binds the first dim of
    every symbolic input; inputs: {"input": (1, 3, 224, 224)}; other
    keys: assume={...}, convention="fvcore", op_rules="rules.yaml",
    input_value="A=1,2", strict=True.  to_frame(): one row per node."""
    opts = dict(dims=dims, batch=batch, inputs=inputs)
    opts.update(options)
    doc = _native.call("jc_run_count_json", os.fspath(model), _native.pairs(opts))
    return Result(doc, rows=lambda: _nodes(doc))


def estimate(model=None, device=None, region=None, train=None, infer=None,
             hwdb=None, **options):
    """Time, energy and emissions of a job, as ``joulecast estimate
    --json`` prints it.  train / infer: True, or a dict of that mode's
    options (``train={"samples": 1281167, "epochs": 90, "batch": 256}``);
    without either the mode is inference (or ``mode=``).  Every other
    key of ``joulecast estimate`` is a keyword (count=8, pue=1.1,
    flops=3.14e23, params=7e9, tokens=2e12, dims={...}, hf_config=...).
    hwdb: the database folder, or a list (folder, override layers...).
    model may be a job file (.yaml/.yml), as ``joulecast estimate
    JOB.yaml``: its keys go beneath the keywords (job= names one too).
    to_frame(): one row per node (the request re-run with per_node); a
    generation estimate: one row of its serving figures."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = _job(model, train, infer, dict(device=device, region=region, **options)) + hkv

    def rows(doc, kv):
        if doc.get("serving") and not doc.get("nodes"):
            # a generation estimate: its serving figures and results, one row
            return lambda: [_serving_row(doc)]
        if doc.get("nodes") or model is None:
            return lambda: _nodes(doc)
        return lambda: _nodes(_native.call("jc_run_estimate_json", base, kv + [("per-node", "true")]))
    return _request("jc_run_estimate_json", base, kv, html=True, rows=rows)


def statement(model=None, format="markdown", train=None, infer=None, hwdb=None,
              **options):
    """The carbon statement ``joulecast statement`` prints for a job (the
    options of estimate, plus training_type= and location= for the hf
    block): a str for format "markdown", "latex", "hf" or "sentence"
    (exactly the CLI's output), a dict of the four for "all"."""
    if format == "all":
        # training_type= and location= fill the hf block alone (as the CLI's --format all)
        prose = {k: v for k, v in options.items() if k not in ("training_type", "location")}
        return {f: statement(model, f, train, infer, hwdb, **(options if f == "hf" else prose))
                for f in ("markdown", "latex", "hf", "sentence")}
    base, hkv = _native.hwdb_args(hwdb)
    kv = _job(model, train, infer, dict(options, format=format)) + hkv
    return _native.call_text("jc_run_statement_text", base, kv)


def compare(*models, train=None, infer=None, hwdb=None, **options):
    """The same job estimated for each model, side by side, as ``joulecast
    compare A.onnx B.onnx ... --json`` prints it.  to_frame(): one row
    per model."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = [("model", _fs(m)) for m in models] + _job(None, train, infer, options) + hkv
    return _request("jc_run_compare_json", base, kv, html=True,
                    rows=lambda doc, kv: lambda: doc.get("models") or [])


def _listed(v):
    if v is None or isinstance(v, str):
        return v
    return ",".join(str(x) for x in v)


def sweep(model=None, devices=None, regions=None, batches=None, precisions=None,
          train=None, infer=None, hwdb=None, **options):
    """One job over devices x regions x batches x precisions (each a list
    or a comma string), as ``joulecast sweep --json`` prints it; sort=
    "emissions", "energy" or "time".  to_frame(): one row per entry."""
    base, hkv = _native.hwdb_args(hwdb)
    grid = dict(devices=_listed(devices), regions=_listed(regions),
                batches=_listed(batches), precisions=_listed(precisions))
    kv = _job(model, train, infer, dict(grid, **options)) + hkv
    return _request("jc_run_sweep_json", base, kv, html=True,
                    rows=lambda doc, kv: lambda: doc.get("entries") or [])


def calibrate(measurements, model=None, out=None, train=None, infer=None, hwdb=None,
              **options):
    """Fits the device's utilisation (and energy per FLOP) to a measured
    run and writes them as an hwdb override layer, as ``joulecast
    calibrate MEASUREMENTS [MODEL] ... --out OUT --json`` does and prints:
    measurements: CodeCarbon's emissions.csv, the simple measurement CSV
    or a power trace; out: the layer to write (required); the job keys of
    estimate describe the measured run (device=, count=, batch=, ...),
    plus row= (1-based data row), date= (YYYY-MM-DD), and the trace
    options trace_format=, scope=, gap=, idle_w=, interval=.  The row's
    job file and model (simple CSV) go beneath these keys, as on the
    command line; then ``estimate(..., hwdb=[folder, out])`` uses the
    fit."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = ([("measurements", _fs(measurements))] +
          _job(model, train, infer, dict(out=_fs(out), **options)) + hkv)
    return Result(_native.call("jc_run_calibrate_json", base, kv))


def ga(runtime, hwdb=None, **options):
    """The Green Algorithms calculator's figure for a job, as ``joulecast
    ga --json`` prints it: runtime ("12h30m", or hours as a number),
    cores=, cpu=, gpus=, gpu=, gpu_usage=, memory= (GB), region=, pue=,
    platform=, provider=, datacenter=, psf=, ga_version=, ..."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = [("runtime", _native.value(runtime))] + _native.pairs(options) + hkv
    return Result(_native.call("jc_run_ga_json", base, kv))


def hw(id=None, kind=None, hwdb=None):
    """The devices and hosts of the hardware database, as ``joulecast hw
    list [--kind K] --json`` prints them, or one of them (``hw show ID
    --json``) when id is given."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = _native.pairs(dict(show=id, kind=kind)) + hkv
    return Result(_native.call("jc_run_hw_json", base, kv))


def region(code=None, provider=None, type=None, hwdb=None):
    """The regions of the hardware database, as ``joulecast region list
    [--provider P] [--type T] --json`` prints them, or one region
    (``region show CODE --json``) when code is given."""
    base, hkv = _native.hwdb_args(hwdb)
    kv = _native.pairs(dict(show=code, provider=provider, type=type)) + hkv
    return Result(_native.call("jc_run_region_json", base, kv))
