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


def entry(text, cid):
    """The match of constant `cid`'s entry in a constants file's text:
    group(2) is its body (the indented lines after `- id:`), to read or to
    splice back at start(2)..end(2); None when there is no such entry."""
    return re.search(r"(  - id: %s\n)((?:    .*\n)+?)(?=  - id:|  #|\Z)" % re.escape(cid), text)


def write_constant(cid, value, low=None, high=None, path=EM):
    """Rewrites value/low/high of constant `cid` in place (the entry must
    exist with those keys; its other fields are kept)."""
    text = open(path).read()
    m = entry(text, cid)
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


def read_constant(cid, path=EM):
    """The value of constant `cid` as hwdb/energy-model.yaml (or path)
    stores it; SystemExit when there is no such entry."""
    m = entry(open(path).read(), cid)
    v = m and re.search(r"^    value: (.*)$", m.group(2), re.M)
    if not v:
        raise SystemExit("fit: constant %s not found in %s" % (cid, path))
    return float(v.group(1))


def write_text(cid, key, text, path=EM):
    """Rewrites the quoted text field `key` (derived, note) of constant
    `cid` in place; the entry must have that key."""
    src = open(path).read()
    m = entry(src, cid)
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


def solve(A, b):
    """x with A x = b, A square (lists of lists), by Gaussian elimination
    with partial pivoting; None when A is singular."""
    n = len(b)
    M = [list(map(float, A[i])) + [float(b[i])] for i in range(n)]
    for c in range(n):
        piv = max(range(c, n), key=lambda i: abs(M[i][c]))
        if M[piv][c] == 0:
            return None
        M[c], M[piv] = M[piv], M[c]
        for i in range(c + 1, n):
            f = M[i][c] / M[c][c]
            for j in range(c, n + 1):
                M[i][j] -= f * M[c][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (M[i][n] - sum(M[i][j] * x[j] for j in range(i + 1, n))) / M[i][i]
    return x


def levenberg_marquardt(g, z0, max_evals, h=1e-3, rtol=1e-7):
    """Least squares by Levenberg-Marquardt.  g(z) runs the rows at the
    point z (a list) and returns (loss, residuals): the loss is what is
    minimised (the mean square of the residuals; a row the model refuses
    may add to it with residual 0, having no gradient).  The Jacobian is
    taken by forward differences of step h (len(z) runs of g); a step is
    kept only when it lowers the loss, else the damping grows.  Stops when
    a kept step gains less than rtol of the loss, when no damping finds a
    lower loss (a minimum: the most damped step is a short gradient step),
    or before max_evals runs.  Deterministic.  Returns (point, loss, runs
    of g, converged).  Gauss-Newton steps run along a curved, flat valley
    of the loss to its floor, where a Nelder-Mead simplex shrinks and
    stops at a point that depends on where it entered the valley."""
    z = [float(v) for v in z0]
    n = len(z)
    loss, r = g(z)
    used, lam = 1, 1e-3
    while used + n + 1 <= max_evals:
        cols = []
        for i in range(n):
            zi = list(z)
            zi[i] += h
            cols.append([(a - b) / h for a, b in zip(g(zi)[1], r)])
        used += n
        A = [[sum(x * y for x, y in zip(cols[i], cols[j])) for j in range(n)] for i in range(n)]
        grad = [sum(x * y for x, y in zip(cols[i], r)) for i in range(n)]
        while True:
            if used >= max_evals:
                return z, loss, used, False
            damped = [[A[i][j] + (lam * (A[i][i] + 1e-12) if i == j else 0.0) for j in range(n)] for i in range(n)]
            dz = solve(damped, [-v for v in grad])
            if dz is not None:
                trial = [a + b for a, b in zip(z, dz)]
                new_loss, new_r = g(trial)
                used += 1
                if new_loss < loss:
                    break
            lam *= 4
            if lam > 1e8:
                return z, loss, used, True
        gain = loss - new_loss
        z, loss, r, lam = trial, new_loss, new_r, max(lam / 3, 1e-9)
        if gain < rtol * loss:
            return z, loss, used, True
    return z, loss, used, False


def selftest():
    """The optimiser on problems with known answers (make test:
    tests/accuracy.sh)."""
    ok = True

    def check(name, good, detail):
        nonlocal ok
        print("%s fit selftest: %s (%s)" % ("PASS" if good else "FAIL", name, detail))
        ok = ok and good

    def line(z):   # y = 2x + 1 through four points, with noise +-0.1
        pts = [(0, 1.1), (1, 2.9), (2, 5.1), (3, 6.9)]
        r = [z[0] * x + z[1] - y for x, y in pts]
        return sum(e * e for e in r) / len(r), r
    z, loss, used, conv = levenberg_marquardt(line, [0.0, 0.0], 200)
    # the least-squares line: slope 1.96, intercept 1.06
    check("linear least squares", conv and abs(z[0] - 1.96) < 1e-4 and abs(z[1] - 1.06) < 1e-4,
          "slope %.5f intercept %.5f in %d runs" % (z[0], z[1], used))

    def valley(z):  # Rosenbrock's curved valley as residuals: minimum 0 at (1, 1)
        r = [10 * (z[1] - z[0] ** 2), 1 - z[0]]
        return sum(e * e for e in r) / 2, r
    z, loss, used, conv = levenberg_marquardt(valley, [-1.2, 1.0], 2000, h=1e-6, rtol=1e-12)
    check("curved valley", conv and abs(z[0] - 1) < 1e-3 and abs(z[1] - 1) < 1e-3,
          "(%.5f, %.5f), loss %.2g in %d runs" % (z[0], z[1], loss, used))
    z, loss, used, conv = levenberg_marquardt(valley, [-1.2, 1.0], 10)
    check("a budget too small is said", not conv and used <= 10, "%d runs, converged %s" % (used, conv))
    check("singular system", solve([[1, 2], [2, 4]], [1, 2]) is None, "solve returns None")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    sys.exit(__doc__)
