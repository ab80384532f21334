"""joulecast - predict the time, energy and emissions of training or running
a neural network from its ONNX file, from Python.

A thin ctypes wrapper over libjoulecast (no compiled extension): each call
passes its options as key/value strings to the library's binding entry
points (joulecast.h "Bindings") and returns the same structure the CLI's
``--json`` prints (docs/json-schemas.md), as a dict.

    import joulecast
    joulecast.count("resnet50.onnx", batch=1)["totals"]["macs"]
    joulecast.estimate(model="resnet50.onnx", device="a100", count=8,
                       region="US-CA", train={"samples": 1281167,
                       "epochs": 90, "batch": 256})
    joulecast.ga(runtime="1h", cores=1, memory=7, pue=1.67)

Option names are the long options of the matching command with ``_`` for
``-`` (``tokens_per_request=``, ``device_hours=``).  Errors raise
joulecast.Error carrying the library's diagnostic and status (the CLI's
exit code).

Where the library is found: $JOULECAST_LIB, else ../build/libjoulecast.so
next to this package's folder (a source tree), else the installed soname
libjoulecast.so.0.  The hardware database: the ``hwdb=`` argument, else
$JOULECAST_HWDB_DIR, else ../hwdb (source tree), else
<libdir>/../share/joulecast/hwdb (an installed prefix); $JOULECAST_HWDB
adds override layers, as for the CLI.  The default folder opens from its
snapshot (hwdb_snapshot()) while that is fresh, as the CLI's does.
"""

import ctypes
import ctypes.util
import json
import os

__all__ = ["Error", "count", "estimate", "ga", "keys", "library_path",
           "hwdb_dir", "hwdb_snapshot", "__version__"]

__version__ = "0.1.0"

_HERE = os.path.dirname(os.path.abspath(__file__))
_SRC_ROOT = os.path.dirname(os.path.dirname(_HERE))  # python/joulecast -> repo


class Error(Exception):
    """A joulecast call failed.  ``message`` is the library's diagnostic
    (naming the file, byte offset, node or option at fault), ``status``
    the jc_status code (also the CLI's exit code), ``status_name`` its
    name ("usage error", "not found", ...)."""

    def __init__(self, message, status, status_name=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.status_name = status_name

    def __str__(self):
        return "%s (status %d: %s)" % (self.message, self.status, self.status_name)


class _Diag(ctypes.Structure):
    # mirrors jc_diag in joulecast.h
    _fields_ = [("status", ctypes.c_int),
                ("msg", ctypes.c_char * 1024),
                ("file", ctypes.c_char * 512),
                ("offset", ctypes.c_int64),
                ("line", ctypes.c_int),
                ("col", ctypes.c_int),
                ("node", ctypes.c_char * 256)]


_lib = None
_lib_path = None


def _candidates():
    env = os.environ.get("JOULECAST_LIB")
    if env:
        return [env]
    out = [os.path.join(_SRC_ROOT, "build", "libjoulecast.so")]
    found = ctypes.util.find_library("joulecast")
    out.append(found or "libjoulecast.so.0")
    return out


def _load():
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    errors = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            errors.append("%s: no such file" % path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append("%s: %s" % (path, e))
            continue
        _lib_path = path
        break
    else:
        raise Error("cannot load libjoulecast (" + "; ".join(errors) +
                    "); build it with 'make' or set JOULECAST_LIB", 3, "I/O error")
    strs = ctypes.POINTER(ctypes.c_char_p)
    for name, first in (("jc_run_count_json", ctypes.c_char_p),
                        ("jc_run_estimate_json", ctypes.c_char_p),
                        ("jc_run_ga_json", ctypes.c_char_p)):
        f = getattr(lib, name)
        f.argtypes = [first, strs, strs, ctypes.c_size_t,
                      ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_Diag)]
        f.restype = ctypes.c_int
    lib.jc_free.argtypes = [ctypes.c_void_p]
    lib.jc_free.restype = None
    lib.jc_status_name.argtypes = [ctypes.c_int]
    lib.jc_status_name.restype = ctypes.c_char_p
    lib.jc_bind_keys.argtypes = [ctypes.c_char_p]
    lib.jc_bind_keys.restype = ctypes.POINTER(ctypes.c_char_p)
    _lib = lib
    return lib


def library_path():
    """The path (or soname) of the libjoulecast that was loaded."""
    _load()
    return _lib_path


def hwdb_dir():
    """The hardware database folder used when no ``hwdb=`` is given, or
    None when none is found."""
    env = os.environ.get("JOULECAST_HWDB_DIR")
    if env:
        return env
    src = os.path.join(_SRC_ROOT, "hwdb")
    if os.path.isdir(src):
        return src
    _load()
    if os.sep in _lib_path:
        libdir = os.path.dirname(os.path.realpath(_lib_path))
        inst = os.path.join(libdir, os.pardir, "share", "joulecast", "hwdb")
        if os.path.isdir(inst):
            return os.path.normpath(inst)
    else:
        for prefix in ("/usr/local", "/usr"):
            inst = os.path.join(prefix, "share", "joulecast", "hwdb")
            if os.path.isdir(inst):
                return inst
    return None


def keys(command):
    """The option keys jc_<command>_json accepts ("count", "estimate",
    "ga"), with dashes as on the command line."""
    lib = _load()
    p = lib.jc_bind_keys(command.encode())
    if not p:
        raise Error("no command '%s' (count, estimate, ga)" % command, 2, "usage error")
    out, i = [], 0
    while p[i] is not None:
        out.append(p[i].decode())
        i += 1
    return out


def _value(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _pairs(options):
    """dict of options -> list of (key, value) strings; lists repeat a key;
    dims/inputs dicts become dim NAME=V / input NAME=AxB."""
    out = []
    for k, v in options.items():
        if v is None:
            continue
        key = k.replace("_", "-")
        if key == "dims":
            out += [("dim", "%s=%d" % (n, int(d))) for n, d in v.items()]
        elif key == "inputs":
            out += [("input", "%s=%s" % (n, "x".join(str(int(x)) for x in s)))
                    for n, s in v.items()]
        elif key == "assume" and isinstance(v, dict):
            out += [("assume", "%s=%d" % (n, int(d))) for n, d in v.items()]
        elif isinstance(v, (list, tuple)):
            out += [(key, _value(x)) for x in v]
        else:
            out.append((key, _value(v)))
    return out


def _call(fname, first, pairs):
    lib = _load()
    n = len(pairs)
    karr = (ctypes.c_char_p * (n + 1))(*[os.fsencode(k) for k, _ in pairs], None)
    varr = (ctypes.c_char_p * (n + 1))(*[os.fsencode(v) for _, v in pairs], None)
    out = ctypes.c_void_p()
    diag = _Diag()
    st = getattr(lib, fname)(None if first is None else os.fsencode(first),
                             karr, varr, n, ctypes.byref(out), ctypes.byref(diag))
    if st != 0:
        if out.value:
            lib.jc_free(out)
        name = lib.jc_status_name(st).decode()
        msg = diag.msg.decode("utf-8", "replace") or name
        raise Error(msg, st, name)
    try:
        text = ctypes.string_at(out.value).decode("utf-8")
    finally:
        lib.jc_free(out)
    return json.loads(text)


def hwdb_snapshot():
    """The snapshot of the default hardware database (build/hwdb.snap in
    a source tree, <prefix>/share/joulecast/hwdb.snap when installed, or
    $JOULECAST_HWDB_SNAPSHOT; "off": none), or None.  The library uses it
    only while it is fresh; the numbers are the same without it."""
    env = os.environ.get("JOULECAST_HWDB_SNAPSHOT")
    if env:
        return None if env == "off" else env
    cands = [os.path.join(_SRC_ROOT, "build", "hwdb.snap")]
    _load()
    if os.sep in _lib_path:
        libdir = os.path.dirname(os.path.realpath(_lib_path))
        cands.append(os.path.join(libdir, os.pardir, "share", "joulecast", "hwdb.snap"))
    else:
        cands += [os.path.join(p, "share", "joulecast", "hwdb.snap") for p in ("/usr/local", "/usr")]
    for c in cands:
        if os.path.isfile(c):
            return os.path.normpath(c)
    return None


def _snapshot_pairs(hwdb, layers):
    """[("hwdb-snapshot", path)] when the default folder is used alone."""
    if hwdb is not None or layers:
        return []
    snap = hwdb_snapshot()
    return [("hwdb-snapshot", snap)] if snap else []


def _hwdb_layers(hwdb):
    """(bundled folder, extra layer list) from the hwdb= argument."""
    layers = []
    env = os.environ.get("JOULECAST_HWDB")
    if env:
        layers += [p for p in env.split(":") if p]
    if hwdb is None:
        base = hwdb_dir()
        if base is not None:
            # relative to the working directory when below it, as the CLI
            # does, so assumption sources read "hwdb/devices/nvidia.yaml:966"
            real, cwd = os.path.realpath(base), os.getcwd()
            if real.startswith(cwd + os.sep):
                base = os.path.relpath(real, cwd)
        if base is None and not layers:
            raise Error("cannot find the hardware database (hwdb/); pass hwdb=DIR "
                        "or set JOULECAST_HWDB_DIR", 3, "I/O error")
        return base, layers
    if isinstance(hwdb, (list, tuple)):
        return hwdb[0], list(hwdb[1:]) + layers
    return hwdb, layers


def count(path, dims=None, batch=None, inputs=None, **options):
    """Shapes and cost of every node of the ONNX model at ``path``, as
    ``joulecast count --json`` prints it (totals, per-node list, what is
    unknown).  dims: {"sequence": 128}; batch: binds the first dim of
    every symbolic input; inputs: {"input": (1, 3, 224, 224)}; other
    options: assume={...}, convention="fvcore", op_rules="rules.yaml",
    strict=True."""
    opts = dict(dims=dims, batch=batch, inputs=inputs)
    opts.update(options)
    return _call("jc_run_count_json", os.fspath(path), _pairs(opts))


def estimate(model=None, device=None, region=None, train=None, infer=None,
             hwdb=None, **options):
    """Time, energy and emissions of a job, as ``joulecast estimate
    --json`` prints it.  train / infer: a dict of that mode's options
    (``train={"samples": 1281167, "epochs": 90, "batch": 256}``) or True;
    without either the mode is inference (or the ``mode=`` option).
    Every other option of ``joulecast estimate`` is a keyword (count=8,
    pue=1.1, flops=3.14e23, params=7e9, tokens=2e12, dims={...}, ...).
    hwdb: the database folder, or a list (folder, override layers...)."""
    if train is not None and infer is not None:
        raise Error("give train or infer, not both", 2, "usage error")
    pairs = []
    if model is not None:
        pairs.append(("model", os.fspath(model)))
    for mode, spec in (("train", train), ("infer", infer)):
        if spec is None or spec is False:
            continue
        pairs.append((mode, "true"))
        if isinstance(spec, dict):
            pairs += _pairs(spec)
        elif spec is not True:
            raise Error("%s= takes a dict of options or True" % mode, 2, "usage error")
    pairs += _pairs(dict(device=device, region=region))
    pairs += _pairs(options)
    base, layers = _hwdb_layers(hwdb)
    pairs += [("hwdb", l) for l in layers] + _snapshot_pairs(hwdb, layers)
    return _call("jc_run_estimate_json", base, pairs)


def ga(runtime, hwdb=None, **options):
    """The Green Algorithms calculator's figure for a job, as ``joulecast
    ga --json`` prints it: runtime ("12h30m", or hours as a number),
    cores=, cpu=, gpus=, gpu=, gpu_usage=, memory= (GB), region=, pue=,
    platform=, provider=, datacenter=, psf=, ga_version=, ..."""
    pairs = [("runtime", _value(runtime))] + _pairs(options)
    base, layers = _hwdb_layers(hwdb)
    pairs += [("hwdb", l) for l in layers] + _snapshot_pairs(hwdb, layers)
    return _call("jc_run_ga_json", base, pairs)
