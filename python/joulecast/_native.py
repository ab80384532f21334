"""_native.py - the ctypes side of the joulecast package: finding and
loading libjoulecast.so, the hardware database and its snapshot, the one
exception class, and calling the library's binding entry points
(joulecast.h "Bindings": options as key/value strings in, the CLI's JSON
document out, released with jc_free).

Where things are found, first match wins:
  library   $JOULECAST_LIB; the package's own libjoulecast.so (pip
            install); ../build/libjoulecast.so of a source tree; the
            installed soname libjoulecast.so.0
  hwdb      the hwdb= argument; else the library's one search order
            (jc_hwdb_find_dir, as the CLI's) anchored at the package's
            folder, then the loaded library's: $JOULECAST_HWDB_DIR; the
            package's hwdb/; <libdir>/../share/joulecast/hwdb; ../hwdb of
            a build tree, ../../hwdb of a source tree
  snapshot  the same order (jc_hwdb_find_snapshot): $JOULECAST_HWDB_SNAPSHOT
            ("off": none); the package's hwdb.snap (rewritten in place when
            stale, see hwdb_snapshot); build/hwdb.snap beside the library of
            a source tree; <prefix>/share/joulecast/hwdb.snap
$JOULECAST_HWDB adds override layers, as for the CLI.
"""

import ctypes
import ctypes.util
import json
import os

PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_SRC_ROOT = os.path.dirname(os.path.dirname(PKG_DIR))  # python/joulecast -> repo

# jc_status codes (joulecast.h), also the CLI's exit codes
INTERNAL, USAGE, IO, NOTFOUND = 1, 2, 3, 6


class Error(Exception):
    """A joulecast call failed.

    status       the jc_status code, which is also the CLI's exit code
    exit_code    the same number, under the CLI's name for it
    status_name  its name ("usage error", "not found", ...)
    message      the library's diagnostic, as the CLI prints it
    file, offset the file at fault and the byte offset in it (None: none)
    line, col    the 1-based YAML line and column (None: none)
    node         the ONNX node (or op type) at fault (None: none)
    """

    def __init__(self, message, status, status_name="", file=None, offset=None,
                 line=None, col=None, node=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.exit_code = status
        self.status_name = status_name
        self.file = file
        self.offset = offset
        self.line = line
        self.col = col
        self.node = node

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


# the binding entry points: (first argument, keys, values, n, &text, &diag)
ENTRY_POINTS = ("jc_run_count_json", "jc_run_estimate_json", "jc_run_ga_json",
                "jc_run_statement_text", "jc_run_compare_json", "jc_run_sweep_json",
                "jc_run_hw_json", "jc_run_region_json", "jc_run_calibrate_json")

_lib = None
_lib_path = None


def _candidates():
    env = os.environ.get("JOULECAST_LIB")
    if env:
        return [env]
    out = [os.path.join(PKG_DIR, "libjoulecast.so"),
           os.path.join(_SRC_ROOT, "build", "libjoulecast.so")]
    found = ctypes.util.find_library("joulecast")
    out.append(found or "libjoulecast.so.0")
    return out


def _declare(lib):
    strs = ctypes.POINTER(ctypes.c_char_p)
    sig = [ctypes.c_char_p, strs, strs, ctypes.c_size_t,
           ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(_Diag)]
    for name in ENTRY_POINTS:
        f = getattr(lib, name, None)
        if f is not None:  # a library older than this package lacks some
            f.argtypes = sig
            f.restype = ctypes.c_int
    lib.jc_free.argtypes = [ctypes.c_void_p]
    lib.jc_free.restype = None
    lib.jc_status_name.argtypes = [ctypes.c_int]
    lib.jc_status_name.restype = ctypes.c_char_p
    lib.jc_bind_keys.argtypes = [ctypes.c_char_p]
    lib.jc_bind_keys.restype = ctypes.POINTER(ctypes.c_char_p)
    lib.jc_hwdb_snapshot_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint,
                                          ctypes.POINTER(ctypes.c_void_p),
                                          ctypes.POINTER(_Diag)]
    lib.jc_hwdb_snapshot_open.restype = ctypes.c_int
    lib.jc_hwdb_snapshot_write.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                           ctypes.POINTER(_Diag)]
    lib.jc_hwdb_snapshot_write.restype = ctypes.c_int
    lib.jc_hwdb_free.argtypes = [ctypes.c_void_p]
    lib.jc_hwdb_free.restype = None
    for name in ("jc_hwdb_find_dir", "jc_hwdb_find_snapshot"):
        f = getattr(lib, name)
        f.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t] + \
            ([ctypes.c_char_p] if name == "jc_hwdb_find_dir" else []) + \
            [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        f.restype = ctypes.c_char_p
    lib.jc_format_number.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_double]
    lib.jc_format_number.restype = ctypes.c_char_p


def load():
    """The loaded library (loaded on first use)."""
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
        raise Error("cannot load libjoulecast (" + "; ".join(errors) + "); install the "
                    "package with pip install ./python, or set JOULECAST_LIB", IO, "I/O error")
    _declare(lib)
    _lib = lib
    return lib


def library_path():
    """The path (or soname) of the libjoulecast that was loaded."""
    load()
    return _lib_path


def _anchors():
    """The package's folder, then the loaded library's (or, loaded by its
    soname, /usr/local/lib and /usr/lib): the anchors of the library's one
    hwdb search order (jc_hwdb_find_dir)."""
    load()
    if os.sep in _lib_path:
        libdirs = [os.path.dirname(os.path.realpath(_lib_path))]
    else:
        libdirs = ["/usr/local/lib", "/usr/lib"]
    return [PKG_DIR] + libdirs


def _find(fname, tidy):
    """Calls the library's jc_hwdb_find_dir / jc_hwdb_find_snapshot over
    _anchors(); the path found (tidy: relative to the working directory
    when below it, as the CLI cites it), or None."""
    lib = load()
    anchors = [os.fsencode(a) for a in _anchors()]
    arr = (ctypes.c_char_p * len(anchors))(*anchors)
    buf = ctypes.create_string_buffer(4200)
    extra = (None,) if fname == "jc_hwdb_find_dir" else ()
    p = getattr(lib, fname)(arr, len(anchors), *extra, int(tidy), buf, len(buf))
    if not p:
        return None
    return os.fsdecode(p) if tidy else os.path.normpath(os.fsdecode(p))


def hwdb_dir():
    """The hardware database folder used when no ``hwdb=`` is given (the
    library's search order, as the CLI's), or None when none is found."""
    return _find("jc_hwdb_find_dir", False)


_fresh = {}  # snapshot path -> usable (bool), once per process


def _usable(snap, folder, rewrite):
    """Whether `snap` is a fresh snapshot of `folder`; when it is stale
    and rewrite is set, rewrites it in place (atomically) if it can."""
    key = (snap, folder)
    if key in _fresh:
        return _fresh[key]
    lib = load()
    db, diag = ctypes.c_void_p(), _Diag()
    st = lib.jc_hwdb_snapshot_open(os.fsencode(snap), os.fsencode(folder), 0,
                                   ctypes.byref(db), ctypes.byref(diag))
    if st == 0:
        lib.jc_hwdb_free(db)
        ok = True
    elif rewrite and os.access(os.path.dirname(snap), os.W_OK):
        ok = lib.jc_hwdb_snapshot_write(os.fsencode(folder), os.fsencode(snap),
                                        ctypes.byref(_Diag())) == 0
    else:
        ok = False
    _fresh[key] = ok
    return ok


def hwdb_snapshot():
    """The snapshot the default hardware database opens from, or None
    (then the YAML is parsed: the same numbers, about 20 ms slower).

    $JOULECAST_HWDB_SNAPSHOT names one ("off": none).  Otherwise, for the
    package's own hwdb/, its hwdb.snap: a snapshot is fresh only while
    every file has the size and modification time it recorded, and pip
    writes new files, so the first call after an install rewrites it in
    place when the package folder is writable (a venv, or root's install
    used by root) and skips it otherwise.  For a source tree,
    build/hwdb.snap (make keeps it fresh); for make install,
    <prefix>/share/joulecast/hwdb.snap."""
    folder = hwdb_dir()
    if folder is None:
        return None
    snap = _find("jc_hwdb_find_snapshot", 0)
    if snap and not os.environ.get("JOULECAST_HWDB_SNAPSHOT") and \
            os.path.realpath(snap) == os.path.realpath(os.path.join(PKG_DIR, "hwdb.snap")):
        # the package's own: rewritten in place when stale, for its own hwdb/
        own = os.path.realpath(folder) == os.path.realpath(os.path.join(PKG_DIR, "hwdb"))
        return snap if _usable(snap, folder, own) else None
    return snap


def keys(command):
    """The option keys the library's entry point for `command` accepts,
    with dashes as on the command line."""
    lib = load()
    p = lib.jc_bind_keys(command.encode())
    if not p:
        raise Error("no command '%s'" % command, USAGE, "usage error")
    out, i = [], 0
    while p[i] is not None:
        out.append(p[i].decode())
        i += 1
    return out


def format_number(v):
    """v as the text reports write it (the library's jc_format_number,
    docs/json-schemas.md "Numbers in text and HTML"): "3.2", "2,039",
    "3,324,550", "6.983e-05"; "n/a" for None, NaN or an infinity."""
    if v is None:
        return "n/a"
    buf = ctypes.create_string_buffer(64)
    return load().jc_format_number(buf, len(buf), float(v)).decode()


def value(v):
    """A Python value as the string the library parses."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, float):
        # whole numbers as integers (7e9 -> "7000000000", as a user types
        # it on a command line), others with every digit
        return "%d" % v if v.is_integer() and abs(v) < 1e16 else repr(v)
    return os.fspath(v) if hasattr(v, "__fspath__") else str(v)


def _shape(s):
    """An input's shape: a list or tuple of dims, or one dim."""
    return s if isinstance(s, (list, tuple)) else [s]


def pairs(options):
    """dict of options -> list of (key, value) strings: ``_`` in a name
    becomes ``-``; None is left out; lists and tuples repeat the key (a
    key that takes one value, given two, is refused by the library);
    dims / inputs / assume dicts become NAME=V / NAME=AxB pairs, their
    numbers passed as written (the library refuses 2.5, "x" or True
    where a whole number is expected, never truncating them)."""
    out = []
    for k, v in options.items():
        if v is None:
            continue
        key = k.replace("_", "-")
        if key in ("dims", "inputs") and not isinstance(v, dict):
            # the plural keys are the binding's dicts; a list of "NAME=V"
            # strings is the singular key's (dim=[...], input=[...])
            raise Error("%s= takes a dict ({'name': value}), not %s: %s=%r, or %s=[...] for "
                        "'NAME=V' strings" % (k, type(v).__name__, k, _as_dict_hint(v), key[:-1]),
                        USAGE, "usage error")
        if key in ("dims", "dim") and isinstance(v, dict):
            out += [("dim", "%s=%s" % (n, value(d))) for n, d in v.items()]
        elif key in ("inputs", "input") and isinstance(v, dict):
            out += [("input", "%s=%s" % (n, "x".join(value(x) for x in _shape(s))))
                    for n, s in v.items()]
        elif key == "assume" and isinstance(v, dict):
            out += [("assume", "%s=%s" % (n, value(d))) for n, d in v.items()]
        elif isinstance(v, (list, tuple)):
            out += [(key, value(x)) for x in v]
        else:
            out.append((key, value(v)))
    return out


def _as_dict_hint(v):
    """{'sequence': 128} for ['sequence=128'], for the message of a wrong type."""
    items = v if isinstance(v, (list, tuple)) else [v]
    out = {}
    for x in items:
        name, sep, val = str(x).partition("=")
        if not sep:
            return {"name": "value"}
        out[name] = int(val) if val.isdigit() else val
    return out


def _error(lib, st, diag):
    name = lib.jc_status_name(st).decode()
    msg = diag.msg.decode("utf-8", "replace") or name
    return Error(msg, st, name,
                 file=diag.file.decode("utf-8", "replace") or None,
                 offset=diag.offset if diag.offset >= 0 and diag.file else None,
                 line=diag.line or None, col=diag.col or None,
                 node=diag.node.decode("utf-8", "replace") or None)


def call_text(fname, first, kv):
    """Calls the entry point `fname` (first argument, key/value pairs) and
    returns the text it hands back; raises Error on failure."""
    lib = load()
    n = len(kv)
    # a NUL byte would end the C string early ("tiny.onnx\0/etc/passwd"
    # loads tiny.onnx): refused, never truncated
    for k, v in ([("model", first)] if first is not None else []) + list(kv):
        if "\0" in os.fsdecode(v) or "\0" in os.fsdecode(k):
            raise Error("%s: a NUL byte in the value %r (C strings end there): refused" % (k, v),
                        USAGE, "usage error")
    karr = (ctypes.c_char_p * (n + 1))(*[os.fsencode(k) for k, _ in kv], None)
    varr = (ctypes.c_char_p * (n + 1))(*[os.fsencode(v) for _, v in kv], None)
    out = ctypes.c_void_p()
    diag = _Diag()
    f = getattr(lib, fname, None)
    if f is None:
        raise Error("%s has no %s (a library older than this package)" % (_lib_path, fname),
                    USAGE, "usage error")
    st = f(None if first is None else os.fsencode(first),
                             karr, varr, n, ctypes.byref(out), ctypes.byref(diag))
    if st != 0:
        if out.value:
            lib.jc_free(out)
        raise _error(lib, st, diag)
    try:
        return ctypes.string_at(out.value).decode("utf-8")
    finally:
        lib.jc_free(out)


def call(fname, first, kv):
    """call_text, the JSON document parsed; raises Error (never a
    JSONDecodeError) when the entry point hands back something else, e.g.
    the HTML page that html=True asks for."""
    if any(k == "html" for k, _ in kv):
        raise Error("html= is not a keyword of this call: the HTML report is Result.html() "
                    "(or _repr_html_ in a notebook)", USAGE, "usage error")
    text = call_text(fname, first, kv)
    try:
        return json.loads(text)
    except ValueError as e:
        raise Error("%s returned no JSON document (%s)" % (fname, e), INTERNAL, "internal error")


def hwdb_args(hwdb):
    """(folder, [("hwdb", layer)..., ("hwdb-snapshot", path)]) for the
    hwdb= argument: None (the default folder, its snapshot, and
    $JOULECAST_HWDB's layers), a folder, or a list (folder, layers...)."""
    layers = []
    env = os.environ.get("JOULECAST_HWDB")
    if env:
        layers += [p for p in env.split(":") if p]
    if isinstance(hwdb, (list, tuple)):
        base, layers = os.fspath(hwdb[0]), [os.fspath(x) for x in hwdb[1:]] + layers
    elif hwdb is not None:
        base = os.fspath(hwdb)
    else:
        # as the CLI cites it: relative to the working directory when below it
        base = _find("jc_hwdb_find_dir", True)
        if base is None and not layers:
            raise Error("cannot find the hardware database (hwdb/); pass hwdb=DIR "
                        "or set JOULECAST_HWDB_DIR", IO, "I/O error")
    kv = [("hwdb", l) for l in layers]
    if hwdb is None and not layers:
        snap = hwdb_snapshot()
        if snap:
            kv.append(("hwdb-snapshot", snap))
    return base, kv
