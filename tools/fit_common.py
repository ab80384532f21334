#!/usr/bin/env python3
"""fit_common.py - shared helpers of the tools/fit_*.py scripts.

A fit predicts calibration rows through the joulecast CLI exactly as the
accuracy harness does (the same recipe functions), with trial values of
hwdb constants given as an override layer (--hwdb DIR), and writes the
fitted values back into hwdb/energy-model.yaml (value, low, high of the
named constants; the source text already says which rows and which
script).  Standard library only.
"""
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402

EM = os.path.join(ac.ROOT, "hwdb", "energy-model.yaml")


class Overlay:
    """A temporary hwdb override layer holding trial constants."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="jc-fit-")

    def set(self, consts):
        """consts: {id: value or (low, value, high)}."""
        lines = ["schema: joulecast-hwdb/1", "sources:", "  fit-trial:",
                 '    citation: "trial value of a tools/fit_*.py script"', "    year: 2026",
                 "constants:"]
        for k, v in sorted(consts.items()):
            lo, c, hi = v if isinstance(v, tuple) else (v, v, v)
            lines += ["  - id: %s" % k, "    value: %r" % c, "    low: %r" % lo,
                      "    high: %r" % hi, '    unit: "1"', "    source: fit-trial"]
        with open(os.path.join(self.dir, "fit.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
        return ["--hwdb", self.dir]

    def close(self):
        for fn in os.listdir(self.dir):
            os.remove(os.path.join(self.dir, fn))
        os.rmdir(self.dir)


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return None
    i = (len(xs) - 1) * q
    lo = int(i)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def write_constant(cid, value, low=None, high=None, path=EM):
    """Rewrites value/low/high of constant `cid` in place (the entry must
    exist with those keys; its other fields are kept)."""
    text = open(path).read()
    m = re.search(r"(  - id: %s\n)((?:    .*\n)+?)(?=  - id:|  #|\Z)" % re.escape(cid), text)
    if not m:
        raise SystemExit("fit: constant %s not found in %s" % (cid, path))
    body = m.group(2)

    def put(body, key, v):
        if v is None:
            return body
        s = "%.4g" % v
        if re.search(r"^    %s: " % key, body, re.M):
            return re.sub(r"^    %s: .*$" % key, "    %s: %s" % (key, s), body, count=1, flags=re.M)
        return re.sub(r"^(    value: .*\n)", r"\g<1>    %s: %s\n" % (key, s), body, count=1, flags=re.M) \
            if key != "value" else body
    body = put(body, "value", value)
    body = put(body, "low", low)
    body = put(body, "high", high)
    with open(path, "w") as f:
        f.write(text[:m.start(2)] + body + text[m.end(2):])


def write_text(cid, key, text, path=EM):
    """Rewrites the quoted text field `key` (derived, note) of constant
    `cid` in place; the entry must have that key."""
    src = open(path).read()
    m = re.search(r"(  - id: %s\n)((?:    .*\n)+?)(?=  - id:|  #|\Z)" % re.escape(cid), src)
    if not m or not re.search(r"^    %s: " % key, m.group(2), re.M):
        raise SystemExit("fit: constant %s has no %s in %s" % (cid, key, path))
    q = text.replace("\\", "\\\\").replace('"', '\\"')
    body = re.sub(r"^    %s: .*$" % key, lambda _: '    %s: "%s"' % (key, q), m.group(2), count=1, flags=re.M)
    with open(path, "w") as f:
        f.write(src[:m.start(2)] + body + src[m.end(2):])


def bisect(f, lo, hi, steps=14, increasing=True):
    """The x in [lo, hi] where f(x) crosses 0 (f monotone)."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        v = f(mid)
        if (v > 0) == increasing:
            hi = mid
        else:
            lo = mid
    return 0.5 * (lo + hi)


def save_cache(path, key, name, data):
    """Writes a fit's cache file: {"key": key, name: data} as JSON at path
    (its folder made if needed).  key says what the cached values were
    computed from (the binary's probe and the rows); readers compare it
    before reusing data."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump({"key": key, name: data}, f)


def load_cache(path, key, name):
    """The data a fit cached at path under name (save_cache), or None when
    the file is missing, unreadable or was computed from another key."""
    try:
        with open(path) as f:
            c = json.load(f)
        return c[name] if c.get("key") == key else None
    except (OSError, ValueError, KeyError, AttributeError):
        return None


# the device power constants' folds, written by tools/fit_power.py
POWER_FOLDS = os.path.join(ac.ROOT, "tests", "accuracy", "power-folds.json")


def power_folds(set_name):
    """{frozenset of row ids of set_name ("mlperf", "serving") left out:
    the device power constants of that fold} of tools/fit_power.py, with
    frozenset() the all-row fit; {} without the file (callers say that
    the hwdb's values are used)."""
    try:
        with open(POWER_FOLDS) as f:
            d = json.load(f)
    except (OSError, ValueError):
        return {}
    out = {frozenset(): d["all"]}
    for f in d["folds"]:
        if f["set"] == set_name:
            out[frozenset(f["left_out"])] = f["params"]
    return out
