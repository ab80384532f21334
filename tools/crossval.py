#!/usr/bin/env python3
"""crossval.py - the one cross-validation machinery of joulecast's fits and
of `make accuracy` (issue #30 item 5): leave-one-device-out (LODO) and
leave-one-family-out (LOFO) folds, each refitted without its device or
family, their residuals, ranges from the folds' residual quantiles,
coverage measured on the folds, the spread of every fitted constant across
folds, and the free-parameter count check.  Standard library only.

Interface
---------
    import crossval as cv
    res = cv.run(rows, fit, predict, measured,
                 keys={"device": lambda r: r["device"], "family": lambda r: r["family"]},
                 n_params=3, nominal=0.9, strata=None)

  rows      list of anything (dicts usually): the calibration rows.
  fit       fit(train_rows) -> params, a dict {constant id: float}.  Called
            once on every row (in-sample) and once per fold without that
            fold's rows.  It must use only the rows it is given.
  predict   predict(params, row) -> float > 0, the central prediction of
            one row with those constants, or None when the row cannot be
            predicted (it is then left out of that fold's statistics and
            listed as not predicted).
  measured  measured(row) -> float > 0, the measured value.
  keys      {scheme name: key function}; one fold per distinct key value.
            Usual schemes: "device" (LODO) and "family" (LOFO); a key
            function returning None puts the row in no fold of that
            scheme (it is still used for fitting every fold).
  n_params  the number of free (fitted) constants: the check is
            n_params <= len(rows) / 20 (issue #30: one per 20 rows).
  nominal   the nominal coverage of a range (default 0.9: a 90 % interval).
            The older keyword quantiles=(lo, hi) is still accepted and
            means nominal = hi - lo.
  strata    optional strata(row) -> class name: rows of classes whose
            predictions share no fitted constant (e.g. a GPU and a CPU
            kernel path) are scored as separate groups.  The folds are
            the same (each fold still refits on every row not held out),
            but a row's range comes only from the held-out residuals of
            other folds' rows of ITS class, and the unseen-device or
            -family range is reported per class (range_factors_by).  A
            class with a single fold key (one device) gets no range in
            that scheme: no other fold of its class measured one.

Residuals are in log space, e = ln(predicted / measured); the signed
error reported is predicted / measured - 1 (exp(e) - 1).

Ranges and coverage (a split-conformal interval, nominal 90 %).  A row
held out in fold k gets the range
  [p / exp(W_k), p * exp(W_k)]
where p is its fold-k prediction and W_k the conformal quantile of the
absolute log residuals |e| of the OTHER folds' held-out rows: the
ceil((n + 1) * nominal)-th smallest of those n values (their largest when
n is too small for that rank).  Fold k's own residuals never set its
range, so the coverage counted on the folds is measured, not tuned.  The
interval is symmetric in log space because the sign of a new device's or
family's bias is not known from the other folds (with two devices the
other fold's bias is often the opposite of this one's); its coverage is
nominal only when the folds' residuals are exchangeable, which is what
the measured coverage tests.  The published range for a device or family
without rows of its own is the same quantile over every held-out residual
of that scheme: `range_factors` (multiply the central by low_factor and
high_factor).  The in-sample range uses the in-sample residuals alike.

Returned dict (res):
  res["in_sample"]        {"params", "rows": [per-row], "summary"}
  res["schemes"][name]    {"folds": [{"key", "rows", "params",
                              "median_abs_error"}], "rows": [per-row],
                            "summary", "range_factors": {"low_factor",
                            "high_factor", "q_lo", "q_hi", "nominal",
                            "n"}, "range_factors_by": {class:
                            the same per class of strata (absent
                            without strata)}}  (q_lo = -W, q_hi = +W in
                            log space; n the held-out residuals W came
                            from)
  res["spread"][name]     {constant id: {"in_sample", "min", "max",
                            "rel_spread"}} (rel_spread = (max - min) /
                            |in-sample value| across that scheme's folds)
  res["n_params"], res["n_rows"], res["params_ok"] (the 1-per-20 check)
  per-row dict: {"row": the row, "key", "measured", "central", "low",
                 "high", "error", "inside"} (low/high/inside absent
                 in-sample; the in-sample range uses every in-sample
                 residual)
  summary: {"rows", "not_predicted", "median_abs_error",
            "median_signed_error", "max_abs_error", "coverage"}

`summarise_by(per_rows, group_fn)` gives the summary per group (a model
class, a set's subgroup).  `report(res, title)` returns printable lines.

  python3 tools/crossval.py selftest     the machinery on synthetic rows
"""
import math
import sys


def _quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return None
    i = (len(xs) - 1) * q
    lo = int(math.floor(i))
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def _median(xs):
    return _quantile(xs, 0.5)


def conformal_width(residuals, nominal):
    """W: the ceil((n + 1) * nominal)-th smallest |residual| of n (the
    largest when the rank exceeds n); None without residuals."""
    a = sorted(abs(x) for x in residuals)
    if not a:
        return None
    k = int(math.ceil((len(a) + 1) * nominal - 1e-9))
    return a[min(max(k, 1), len(a)) - 1]


def summarise(per_rows):
    """Statistics of per-row dicts (those with a central prediction)."""
    p = [r for r in per_rows if r.get("central") is not None]
    out = {"rows": len(p), "not_predicted": len(per_rows) - len(p),
           "median_abs_error": None, "median_signed_error": None,
           "max_abs_error": None, "coverage": None}
    if not p:
        return out
    errs = [r["error"] for r in p]
    out["median_abs_error"] = _median([abs(e) for e in errs])
    out["median_signed_error"] = _median(errs)
    out["max_abs_error"] = max(abs(e) for e in errs)
    ins = [r["inside"] for r in p if r.get("inside") is not None]
    out["coverage"] = sum(1 for x in ins if x) / float(len(ins)) if ins else None
    return out


def summarise_by(per_rows, group_fn):
    """{group: summary} over per-row dicts, grouped by group_fn(row)."""
    g = {}
    for r in per_rows:
        g.setdefault(group_fn(r["row"]), []).append(r)
    return {k: summarise(v) for k, v in sorted(g.items(), key=lambda kv: str(kv[0]))}


def _row(row, key, meas, pred):
    d = {"row": row, "key": key, "measured": meas, "central": pred}
    if pred is not None:
        d["error"] = pred / meas - 1.0
        d["log_residual"] = math.log(pred / meas)
    return d


def _predict_rows(params, rows, predict, measured, key=None):
    out = []
    for r in rows:
        p = predict(params, r)
        if p is not None and not (p > 0):
            p = None
        out.append(_row(r, key(r) if key else None, measured(r), p))
    return out


def _apply_range(d, w):
    if d.get("central") is None or w is None:
        return
    d["low"] = d["central"] / math.exp(w)
    d["high"] = d["central"] * math.exp(w)
    d["inside"] = d["low"] <= d["measured"] <= d["high"]


def _factors(residuals, nominal):
    w = conformal_width(residuals, nominal)
    return {"q_lo": None if w is None else -w, "q_hi": w, "nominal": nominal, "n": len(residuals),
            "low_factor": None if w is None else math.exp(-w),
            "high_factor": None if w is None else math.exp(w)}


def _scheme(rows, fit, predict, measured, keyf, nominal, strata=None):
    keys = sorted({keyf(r) for r in rows if keyf(r) is not None}, key=str)
    folds, per = [], []
    for k in keys:
        train = [r for r in rows if keyf(r) != k]
        test = [r for r in rows if keyf(r) == k]
        if not train:
            continue
        params = fit(train)
        pr = _predict_rows(params, test, predict, measured, keyf)
        folds.append({"key": k, "rows": len(test), "params": params,
                      "median_abs_error": summarise(pr)["median_abs_error"]})
        per.extend(pr)
    # range of a held-out row: the conformal width of the other folds'
    # held-out residuals (of its own class where there are strata)
    cls = strata or (lambda r: None)
    for k in keys:
        for c in sorted({cls(d["row"]) for d in per if d["key"] == k}, key=str):
            others = [x["log_residual"] for x in per
                      if x.get("central") is not None and x["key"] != k and cls(x["row"]) == c]
            w = conformal_width(others, nominal)
            for d in per:
                if d["key"] == k and cls(d["row"]) == c:
                    _apply_range(d, w)
    out = {"folds": folds, "rows": per, "summary": summarise(per),
           "range_factors": _factors([x["log_residual"] for x in per if x.get("central") is not None], nominal)}
    if strata:
        out["range_factors_by"] = {c: _factors([x["log_residual"] for x in per if x.get("central") is not None
                                                and cls(x["row"]) == c], nominal)
                                   for c in sorted({cls(x["row"]) for x in per}, key=str)}
    return out


def _spread(in_params, folds):
    out = {}
    for cid, v in sorted(in_params.items()):
        vals = [f["params"][cid] for f in folds if cid in f["params"]]
        if not vals:
            continue
        lo, hi = min(vals), max(vals)
        out[cid] = {"in_sample": v, "min": lo, "max": hi,
                    "rel_spread": (hi - lo) / abs(v) if v else None}
    return out


def run(rows, fit, predict, measured, keys, n_params, nominal=0.9, quantiles=None, strata=None):
    """Cross-validates fit/predict on rows; see the module comment."""
    if quantiles is not None:
        nominal = quantiles[1] - quantiles[0]
    if not 0 < nominal < 1:
        raise ValueError("crossval: nominal coverage %r is not inside (0, 1)" % nominal)
    rows = list(rows)
    params = fit(rows)
    ins = _predict_rows(params, rows, predict, measured)
    res_all = [d["log_residual"] for d in ins if d.get("central") is not None]
    cls = strata or (lambda r: None)
    for c in {cls(d["row"]) for d in ins}:
        wi = conformal_width([d["log_residual"] for d in ins if d.get("central") is not None
                              and cls(d["row"]) == c], nominal)
        for d in ins:
            if cls(d["row"]) == c:
                _apply_range(d, wi)
    res = {"in_sample": {"params": params, "rows": ins, "summary": summarise(ins),
                         "range_factors": _factors(res_all, nominal)},
           "schemes": {}, "spread": {}, "n_params": n_params, "n_rows": len(rows),
           "params_ok": n_params * 20 <= len(rows), "nominal": nominal}
    for name, keyf in keys.items():
        s = _scheme(rows, fit, predict, measured, keyf, nominal, strata)
        res["schemes"][name] = s
        res["spread"][name] = _spread(params, s["folds"])
    return res


def _pct(x, signed=False):
    return "n/a" if x is None else (("%+.1f%%" if signed else "%.1f%%") % (100 * x))


def report(res, title):
    """Printable lines: in-sample and every scheme, the fold list, the
    constants' spread and the parameter check."""
    out = ["== %s: %d rows, %d free constants (%s: at most 1 per 20 rows)" % (
        title, res["n_rows"], res["n_params"], "ok" if res["params_ok"] else "TOO MANY")]

    def line(name, s):
        return "  %-14s rows %4d  median |error| %7s  signed %8s  max %7s  coverage %s" % (
            name, s["rows"], _pct(s["median_abs_error"]), _pct(s["median_signed_error"], True),
            _pct(s["max_abs_error"]),
            "n/a" if s["coverage"] is None else "%.0f%%" % (100 * s["coverage"]))
    out.append(line("in-sample", res["in_sample"]["summary"]))
    for name, s in res["schemes"].items():
        out.append(line("leave-1-" + name, s["summary"]))
        rf = s["range_factors"]
        if rf["low_factor"] is not None:
            out.append("    range for an unseen %s: x%.3f .. x%.3f of the central (nominal %.0f%%)" % (
                name, rf["low_factor"], rf["high_factor"], 100 * rf["nominal"]))
        for c, f in s.get("range_factors_by", {}).items():
            out.append("    class %s: %s" % (c, "range for an unseen %s x%.3f .. x%.3f" % (
                name, f["low_factor"], f["high_factor"]) if f["low_factor"] is not None else "no residuals"))
        for f in s["folds"]:
            out.append("    fold %-40s rows %4d  median |error| %s" % (
                str(f["key"])[:40], f["rows"], _pct(f["median_abs_error"])))
    for name, sp in res["spread"].items():
        for cid, v in sp.items():
            out.append("  %s spread over %s folds: %.4g [%.4g .. %.4g] (%s)" % (
                cid, name, v["in_sample"], v["min"], v["max"],
                "n/a" if v["rel_spread"] is None else "%.0f%%" % (100 * v["rel_spread"])))
    return out


def selftest():
    """Synthetic rows y = a * x^b * device factor, fitted by a one-constant
    model (a), checked against hand-derivable properties."""
    import random
    rnd = random.Random(7)
    rows = []
    for dev, f in (("d1", 1.0), ("d2", 1.1), ("d3", 0.9), ("d4", 1.05)):
        for fam in ("fa", "fb", "fc"):
            for i in range(10):
                x = 1.0 + i
                rows.append({"device": dev, "family": fam, "x": x,
                             "y": 2.0 * x * f * math.exp(rnd.gauss(0, 0.05))})

    def fit(rs):
        return {"a": math.exp(_median([math.log(r["y"] / r["x"]) for r in rs]))}

    def predict(p, r):
        return p["a"] * r["x"]
    res = run(rows, fit, predict, lambda r: r["y"],
              {"device": lambda r: r["device"], "family": lambda r: r["family"]}, n_params=1)
    ok = True

    def check(name, cond):
        nonlocal ok
        print("%s crossval selftest: %s" % ("PASS" if cond else "FAIL", name))
        ok = ok and cond
    lodo = res["schemes"]["device"]
    check("one fold per device, each without its rows", len(lodo["folds"]) == 4 and
          all(f["rows"] == 30 for f in lodo["folds"]))
    check("every row predicted once per scheme", lodo["summary"]["rows"] == 120)
    check("fold constants differ from in-sample (refitted)",
          any(abs(f["params"]["a"] - res["in_sample"]["params"]["a"]) > 1e-9 for f in lodo["folds"]))
    check("leave-one-device-out error >= in-sample error",
          lodo["summary"]["median_abs_error"] >= res["in_sample"]["summary"]["median_abs_error"] - 1e-12)
    d1 = [f for f in lodo["folds"] if f["key"] == "d3"][0]["params"]["a"]
    check("fold without the slow device d3 fits a larger a", d1 > res["in_sample"]["params"]["a"])
    check("coverage measured on the folds lies in [0, 1]", 0 <= lodo["summary"]["coverage"] <= 1)
    rf = lodo["range_factors"]
    check("unseen-device range brackets the central", rf["low_factor"] < 1 < rf["high_factor"])
    check("parameter check: 1 constant for 120 rows is ok", res["params_ok"])
    res2 = run(rows[:30], fit, predict, lambda r: r["y"], {"device": lambda r: r["device"]}, n_params=2)
    check("parameter check: 2 constants for 30 rows fails", not res2["params_ok"])
    check("spread reported for a", "a" in res["spread"]["device"] and
          res["spread"]["device"]["a"]["max"] >= res["spread"]["device"]["a"]["min"])
    # ranges of fold k come from the other folds only: a fold whose rows
    # are all far off cannot widen its own range
    rows3 = [dict(r) for r in rows]
    for r in rows3:
        if r["device"] == "d4":
            r["y"] *= 3.0
    r3 = run(rows3, fit, predict, lambda r: r["y"], {"device": lambda r: r["device"]}, n_params=1)
    d4 = [d for d in r3["schemes"]["device"]["rows"] if d["key"] == "d4"]
    check("an outlier device is not covered by its own residuals", not any(d["inside"] for d in d4))
    by = summarise_by(lodo["rows"], lambda r: r["family"])
    check("summarise_by groups", sorted(by) == ["fa", "fb", "fc"] and by["fa"]["rows"] == 40)
    check("unseen-device range is symmetric in log space",
          abs(math.log(rf["low_factor"]) + math.log(rf["high_factor"])) < 1e-12)
    check("conformal width: rank ceil((n+1) 0.9) of |e|",
          conformal_width([0.1, -0.2, 0.3, -0.4, 0.5, 0.6, 0.7, 0.8, 0.9], 0.9) == 0.9 and
          conformal_width([-0.5, 0.1], 0.9) == 0.5 and conformal_width([], 0.9) is None)
    # two devices with opposite biases: each fold's symmetric range from
    # the other covers it (an asymmetric quantile range would not)
    rows4 = [dict(r) for r in rows if r["device"] in ("d1", "d2")]
    for r in rows4:
        r["y"] = 2.0 * r["x"] * (1.15 if r["device"] == "d1" else 1 / 1.15) * math.exp(rnd.gauss(0, 0.01))
    r4 = run(rows4, fit, predict, lambda r: r["y"], {"device": lambda r: r["device"]}, n_params=1)
    check("opposite device biases: fold ranges cover",
          r4["schemes"]["device"]["summary"]["coverage"] > 0.8)
    check("older keyword quantiles=(0.1, 0.9) means nominal 0.8",
          run(rows4, fit, predict, lambda r: r["y"], {"device": lambda r: r["device"]}, n_params=1,
              quantiles=(0.1, 0.9))["nominal"] == 0.8)
    check("report prints", any("leave-1-device" in l for l in report(res, "selftest")))
    # strata: a class (d4, tripled) with one fold key gets no range from the
    # other class's folds, and the other class's ranges ignore its residuals
    r5 = run(rows3, fit, predict, lambda r: r["y"], {"device": lambda r: r["device"]}, n_params=1,
             strata=lambda r: "odd" if r["device"] == "d4" else "even")
    d5 = r5["schemes"]["device"]["rows"]
    check("strata: a class with one device has no range of its own",
          all(d.get("inside") is None for d in d5 if d["key"] == "d4"))
    w_even = [math.log(d["high"] / d["central"]) for d in d5 if d["key"] != "d4"]
    w_pool = [math.log(d["high"] / d["central"]) for d in r3["schemes"]["device"]["rows"] if d["key"] != "d4"]
    check("strata: the other class's ranges do not widen by the outlier class",
          max(w_even) < min(w_pool))
    check("strata: unseen-device range per class",
          r5["schemes"]["device"]["range_factors_by"]["even"]["high_factor"] < 1.5)
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    sys.exit(__doc__)
