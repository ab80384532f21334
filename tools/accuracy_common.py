#!/usr/bin/env python3
"""accuracy_common.py - shared arithmetic and output of the accuracy harness.

`make accuracy` (tools/accuracy.sh) runs every tools/accuracy_*.py set
script.  Each one predicts the rows of its calibration set with the
joulecast CLI (JSON output), then calls this module to

  * score each row: signed error = predicted / measured - 1, and whether
    the measured value lies inside the predicted low-high range;
  * summarise the set: rows predicted, median |error|, range coverage
    (share of predicted rows with low <= measured <= high) and the median
    range width (high / low, a factor);
  * write docs/accuracy/<set>.md (the per-row table) and
    build/accuracy/<set>.json (the summary that `index` collects into
    docs/accuracy.md with the date and the commit).

Rows that cannot be predicted (a device without the figures the model
needs) are listed with the reason and left out of the statistics: the
summary says how many.  Standard library only (python3 without packages).

  python3 tools/accuracy_common.py index     write docs/accuracy.md
  python3 tools/accuracy_common.py selftest  check the arithmetic on two
                                             hand-made rows (make test)
"""
import csv
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def jc_path():
    """The joulecast binary: $JC_RELEASE, $JC, else build/joulecast."""
    for k in ("JC_RELEASE", "JC"):
        if os.environ.get(k):
            return os.environ[k]
    return os.path.join(ROOT, "build", "joulecast")


# The reason a row carries when its joulecast run failed (write_set counts
# those rows apart from rows the harness does not predict by design).
RUN_FAILED = "joulecast run failed"


def run_jc(args):
    """Run `joulecast ARGS --json`; returns (dict, None) or (None, error
    text).  The command is run from the repository root.  A failed run
    (non-zero exit, or output that is not JSON) is never silent: the
    command and its whole stderr go to stderr, and the error text starts
    with RUN_FAILED and names the exit status and the last stderr line."""
    cmd = [jc_path()] + list(args) + ["--json"]
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True,
                       env=dict(os.environ, LC_ALL="C"))
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
        why = "%s (exit %d): %s" % (RUN_FAILED, p.returncode, last)
    else:
        try:
            return json.loads(p.stdout), None
        except ValueError as e:
            why = "%s (exit 0): JSON not readable: %s" % (RUN_FAILED, e)
    sys.stderr.write("accuracy: %s\n  command: %s\n%s" % (
        why, " ".join(cmd), "".join("  | %s\n" % l for l in p.stderr.rstrip().splitlines())))
    sys.stderr.flush()
    return None, why


def failed(row):
    """Whether a row is unpredicted because its joulecast run failed."""
    return row.get("central") is None and str(row.get("reason", "")).startswith(RUN_FAILED)


def set_cli(doc, rows, source):
    """The command line of a set script that copies its rows from the
    calibration set: --rows FILE (default rows), --out DIR, and --import
    SOURCE (rewrite the rows file from the calibration file)."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--rows", default=rows)
    ap.add_argument("--out", default=None)
    ap.add_argument("--import", dest="imp", metavar=source)
    return ap.parse_args()


def read_rows(path):
    """Rows of a CSV file whose leading '#' lines are comments."""
    with open(path) as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines))


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    if n == 0:
        return None
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])


def score(measured, low, central, high):
    """Per-row figures: signed error, inside-range flag, range width
    (a row without a range, low and high None: inside and width None)."""
    err = central / measured - 1.0
    if low is None or high is None:
        return {"error": err, "inside": None, "width": None}
    inside = low <= measured <= high
    width = high / low if low > 0 else float("inf")
    return {"error": err, "inside": inside, "width": width}


def summarise(scored):
    """scored: list of score() dicts (predicted rows only)."""
    n = len(scored)
    if n == 0:
        return {"rows": 0, "median_abs_error": None, "coverage": None,
                "median_width": None, "max_abs_error": None}
    ranged = [s for s in scored if s["inside"] is not None]
    return {
        "rows": n,
        "median_abs_error": median([abs(s["error"]) for s in scored]),
        "max_abs_error": max(abs(s["error"]) for s in scored),
        "median_signed_error": median([s["error"] for s in scored]),
        "coverage": sum(1 for s in ranged if s["inside"]) / float(len(ranged)) if ranged else None,
        "median_width": median([s["width"] for s in ranged]),
    }


def pct(x):
    return "n/a" if x is None else "%+.1f%%" % (100 * x)


def fmt(x, digits=4):
    if x is None:
        return "n/a"
    return "%.*g" % (digits, x)


def cv_summary(res, groupings, notes=None):
    """The cross-validated figures of a tools/crossval.py result for the
    set's JSON and docs/accuracy.md: per scheme (in-sample, each
    leave-one-out scheme) the summary over all rows and per group of each
    grouping ({name: row -> group}), the constants' fold spread and the
    parameter check.  notes: {"grouping: group": text} printed beside
    that group's line (what its figures mean, e.g. a fold at a prior)."""
    import crossval as cv
    out = {"n_params": res["n_params"], "n_rows": res["n_rows"], "params_ok": res["params_ok"],
           "schemes": {}, "spread": res["spread"], "in_sample_params": res["in_sample"]["params"],
           "notes": dict(notes or {})}
    parts = [("in-sample", res["in_sample"]["rows"])] + \
        [("leave-one-%s-out" % k, v["rows"]) for k, v in res["schemes"].items()]
    for name, prs in parts:
        d = {"all": cv.summarise(prs)}
        for gname, gf in groupings.items():
            for g, sm in cv.summarise_by(prs, gf).items():
                d["%s: %s" % (gname, g)] = sm
        out["schemes"][name] = d
    out["range_factors"] = {k: v["range_factors"] for k, v in res["schemes"].items()}
    by = {k: v["range_factors_by"] for k, v in res["schemes"].items() if "range_factors_by" in v}
    if by:
        out["range_factors_by"] = by
    return out


def group_label(cv, g):
    """A cross-validated group's name with its note, if any."""
    n = (cv.get("notes") or {}).get(g)
    return "%s (%s)" % (g, n) if n else g


def write_set(name, title, unit, how, scope, rows, out_dir=None, targets="", cv=None, extra_lines=None, script=None):
    """rows: dicts with id, measured, and either low/central/high or
    reason (not predicted), plus optional 'group' and 'note'.  Prints the
    table, writes docs/accuracy/NAME.md and build/accuracy/NAME.json.
    cv: a cv_summary() to publish beside the table (cross-validated sets);
    extra_lines: markdown lines of the set's own figures, before the tables;
    script: the tools/accuracy_SCRIPT.py that writes it (default NAME).
    Returns the summary dict (per group and 'all')."""
    docs = out_dir or os.path.join(ROOT, "docs", "accuracy")
    build = os.path.join(out_dir or os.path.join(ROOT, "build"), "accuracy") if out_dir else \
        os.path.join(ROOT, "build", "accuracy")
    os.makedirs(docs, exist_ok=True)
    os.makedirs(build, exist_ok=True)
    groups = {}
    for r in rows:
        if r.get("central") is None:
            continue
        r.update(score(r["measured"], r.get("low"), r["central"], r.get("high")))
        groups.setdefault(r.get("group", "all"), []).append(r)
    summ = {g: summarise(v) for g, v in groups.items()}
    allp = [r for r in rows if r.get("central") is not None]
    summ["all"] = summarise(allp)
    summ["all"]["not_predicted"] = sum(1 for r in rows if r.get("central") is None)
    summ["all"]["runs_failed"] = sum(1 for r in rows if failed(r))

    lines = ["# Accuracy: %s" % title, "",
             "Written by `make accuracy` (tools/accuracy_%s.py); do not edit." % (script or name), "",
             "**Scope.** " + scope, "", "**How each row is predicted.** " + how, ""]
    if targets:
        lines += ["**Target.** " + targets, ""]
    lines += list(extra_lines or [])
    if cv:
        lines += cv_lines(cv)
    lines += ["| group | rows | median abs error | max abs error | median signed | coverage | median width (high/low) |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for g in sorted(summ):
        s = summ[g]
        lines.append("| %s | %d | %s | %s | %s | %s | %s |" % (
            g, s["rows"], pct(s["median_abs_error"]).lstrip("+"), pct(s.get("max_abs_error")).lstrip("+"),
            pct(s.get("median_signed_error")),
            "n/a" if s["coverage"] is None else "%.0f%%" % (100 * s["coverage"]),
            "n/a" if s["median_width"] is None else "x%.2f" % s["median_width"]))
    lines += ["", "Rows not predicted: %d, of which %d because the joulecast run failed (its exit status and "
              "message in the row's line)." % (summ["all"]["not_predicted"], summ["all"]["runs_failed"])]
    lines += ["", "| row | group | measured %s | predicted [low-high] | error | in range | note |" % unit,
              "|---|---|---:|---|---:|:-:|---|"]
    for r in rows:
        if r.get("central") is None:
            lines.append("| %s | %s | %s | not predicted | n/a | n/a | %s |" % (
                r["id"], r.get("group", ""), fmt(r["measured"]), r.get("reason", "")))
        elif r["inside"] is None:
            lines.append("| %s | %s | %s | %s [no range] | %s | n/a | %s |" % (
                r["id"], r.get("group", ""), fmt(r["measured"]), fmt(r["central"]), pct(r["error"]),
                r.get("note", "")))
        else:
            lines.append("| %s | %s | %s | %s [%s-%s] | %s | %s | %s |" % (
                r["id"], r.get("group", ""), fmt(r["measured"]), fmt(r["central"]), fmt(r["low"]),
                fmt(r["high"]), pct(r["error"]), "yes" if r["inside"] else "no", r.get("note", "")))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(docs, name + ".md"), "w") as f:
        f.write(text)
    with open(os.path.join(build, name + ".json"), "w") as f:
        json.dump({"set": name, "title": title, "unit": unit, "summary": summ,
                   "targets": targets, "cv": cv}, f, indent=1, sort_keys=True)
    # the console table
    print("== %s (%s)" % (title, unit))
    for r in rows:
        if r.get("central") is None:
            print("  %-70s measured %-10s not predicted: %s" % (r["id"][:70], fmt(r["measured"]), r.get("reason", "")))
        elif r["inside"] is None:
            print("  %-70s measured %-10s predicted %-10s [no range] %8s" % (
                r["id"][:70], fmt(r["measured"]), fmt(r["central"]), pct(r["error"])))
        else:
            print("  %-70s measured %-10s predicted %-10s [%s-%s] %8s %s" % (
                r["id"][:70], fmt(r["measured"]), fmt(r["central"]), fmt(r["low"]), fmt(r["high"]),
                pct(r["error"]), "in" if r["inside"] else "OUT"))
    for g in sorted(summ):
        s = summ[g]
        print("  %-20s rows %2d  median |error| %s  coverage %s  median width %s" % (
            g, s["rows"], pct(s["median_abs_error"]).lstrip("+"),
            "n/a" if s["coverage"] is None else "%.0f%%" % (100 * s["coverage"]),
            "n/a" if s["median_width"] is None else "x%.2f" % s["median_width"]))
    print("  not predicted %d, of which joulecast runs failed %d" % (
        summ["all"]["not_predicted"], summ["all"]["runs_failed"]))
    return summ


def _cov(x):
    return "n/a" if x is None else "%.0f%%" % (100 * x)


def cv_lines(cv):
    """Markdown: the cross-validated table of one set (every scheme and
    group), its constants' fold spread and the parameter count."""
    schemes = list(cv["schemes"])
    lines = ["**Cross-validated** (%d rows, %d fitted constants: %s one per 20 rows). Median |error| "
             "(coverage of the fold ranges) per scheme:" % (
                 cv["n_rows"], cv["n_params"], "at most" if cv["params_ok"] else "MORE THAN"), "",
             "| group | rows | " + " | ".join(schemes) + " |", "|---|---:|" + "---:|" * len(schemes)]
    for g in cv["schemes"][schemes[0]]:
        cells = []
        for sc in schemes:
            x = cv["schemes"][sc].get(g)
            cells.append("n/a" if not x or x["median_abs_error"] is None else "%s (%s)" % (
                pct(x["median_abs_error"]).lstrip("+"), _cov(x["coverage"])))
        lines.append("| %s | %d | %s |" % (group_label(cv, g), cv["schemes"][schemes[0]][g]["rows"],
                                           " | ".join(cells)))
    lines += ["", "| constant | in-sample | " + " | ".join("spread over %s folds" % k for k in cv["spread"]) + " |",
              "|---|---:|" + "---|" * len(cv["spread"])]
    for cid, v in sorted(cv["in_sample_params"].items()):
        lines.append("| %s | %.4g | %s |" % (cid, v, " | ".join(
            "%.4g .. %.4g" % (sp[cid]["min"], sp[cid]["max"]) if cid in sp else "n/a"
            for sp in cv["spread"].values())))
    rf = cv.get("range_factors") or {}
    if cv.get("range_factors_by"):
        lines += ["", "A device or family without rows gets the range its class's folds measured: " + "; ".join(
            "%s: unseen %s %s" % (c, k, "x%.3f .. x%.3f of the central" % (f["low_factor"], f["high_factor"])
                                  if f.get("low_factor") is not None else "no range (no other fold of the class)")
            for k, byc in cv["range_factors_by"].items() for c, f in byc.items()) + "."]
    elif rf:
        lines += ["", "A device or family without rows gets the range its fold measured: " + "; ".join(
            "unseen %s x%.3f .. x%.3f of the central" % (k, v["low_factor"], v["high_factor"])
            for k, v in rf.items() if v.get("low_factor") is not None) + "."]
    return lines + [""]


def git_commit():
    try:
        c = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True).stdout.strip()
        # the tables this run writes do not make the measured tree dirty
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":(exclude)docs/accuracy.md", ":(exclude)docs/accuracy"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               universal_newlines=True).stdout.strip()
        return c + (" (with uncommitted changes)" if dirty else "")
    except OSError:
        return "unknown"


def index():
    """docs/accuracy.md: date, commit, one summary line per set and group."""
    build = os.path.join(ROOT, "build", "accuracy")
    sets = []
    for fn in sorted(os.listdir(build)) if os.path.isdir(build) else []:
        if fn.endswith(".json"):
            with open(os.path.join(build, fn)) as f:
                sets.append(json.load(f))
    today = datetime.datetime.utcnow().strftime("%Y-%m-%d")
    lines = ["# joulecast accuracy against published measurements", "",
             "Measured by `make accuracy` on %s at commit %s." % (today, git_commit()), "",
             "Every row is a published measurement copied into tests/accuracy/ with its",
             "source (from the published measurements the project calibrates to: MLPerf Inference v1.1, ML.ENERGY, training-run papers); each is",
             "predicted by running the joulecast CLI. Error = predicted / measured - 1;",
             "coverage = share of rows whose measured value lies inside joulecast's",
             "low-high range; width = high / low. Constants fitted to these rows say so",
             "in hwdb (\"fitted to ... by tools/fit_*.py\"); the headline below is",
             "cross-validated, the per-set table after it scores each set as its script",
             "does (in-sample where its constants were fitted to it); docs/energy-model.md",
             "describes the model.", ""]
    cvsets = [x for x in sets if x.get("cv")]
    # the headline's columns: every set's leave-one-out schemes (device and
    # family first), then in-sample
    cols = ["leave-one-device-out", "leave-one-family-out"]
    for x in cvsets:
        cols += [k for k in x["cv"]["schemes"] if k not in cols and k != "in-sample"]
    cols.append("in-sample")
    if cvsets:
        lines += ["## Headline: cross-validated error", "",
                  "Each fold refits the set's constants without one device (leave-one-device-out) or one",
                  "model family (leave-one-family-out) and predicts the rows it left out (tools/crossval.py);",
                  "a row's range is a nominal 90% interval from the other folds' held-out residuals (the",
                  "conformal quantile of |ln(predicted / measured)|, applied both ways), so the coverage is",
                  "measured on the folds, not tuned. In-sample (every row fitted) beside it. The MLPerf",
                  "Training set leaves one benchmark or one system out instead.", "",
                  "| set | group | rows | " + " | ".join(cols) + " | fitted constants |",
                  "|---|---|---:|" + "---:|" * len(cols) + "---:|"]
        for x in cvsets:
            sch = x["cv"]["schemes"]

            def cell(name, g):
                v = sch.get(name, {}).get(g)
                if not v or v["median_abs_error"] is None:
                    return "n/a"
                return "%s (coverage %s)" % (pct(v["median_abs_error"]).lstrip("+"), _cov(v["coverage"]))
            for g in sch["in-sample"]:
                lines.append("| %s | %s | %d | %s | %d |" % (
                    x["title"], group_label(x["cv"], g), sch["in-sample"][g]["rows"],
                    " | ".join(cell(c, g) for c in cols), x["cv"]["n_params"]))
        lines += ["", "## Every set (as scored by its script)", ""]
    lines += ["| set | group | unit | rows | not predicted (runs failed) | median abs error | max abs error | coverage "
              "| median width | details |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for s in sets:
        for g in sorted(s["summary"]):
            x = s["summary"][g]
            lines.append("| %s | %s | %s | %d | %s | %s | %s | %s | %s | [%s](accuracy/%s.md) |" % (
                s["title"], g, s["unit"], x["rows"],
                "" if x.get("not_predicted") is None else "%d (%s)" % (
                    x["not_predicted"], "n/a" if x.get("runs_failed") is None else x["runs_failed"]),
                pct(x["median_abs_error"]).lstrip("+"),
                pct(x.get("max_abs_error")).lstrip("+"),
                "n/a" if x["coverage"] is None else "%.0f%%" % (100 * x["coverage"]),
                "n/a" if x["median_width"] is None else "x%.2f" % x["median_width"],
                s["set"], s["set"]))
    lines.append("")
    for s in sets:
        if s.get("targets"):
            lines.append("- %s: %s" % (s["title"], s["targets"]))
    lines += ["", "## What these errors do and do not say", "",
              "- Cross-validated sets (the headline): timm's framework throughput refits the four kernel",
              "  efficiencies shared by eager PyTorch, eager PyTorch 1.x and torch.compile and the CPU kernel",
              "  path's two constants (tools/fit_timm.py) in every fold; a leave-one-device-out fold fits on the",
              "  other devices and predicts the one left out, and each row's range comes from the other folds'",
              "  residuals only. The training rows (PyTorch 1.12, RTX 3090 only) alone inform kernel_eta_backward:",
              "  the fold that leaves the RTX 3090 out has none and predicts them at its prior 1. The CPU rows",
              "  (one CPU, the Core i9-10940X) alone inform cpu_kernel_eta_matrix and cpu_kernel_call_s: the fold",
              "  that leaves the CPU out predicts it at their priors (1 and runtime_eager_launch_s), so the CPU's leave-one-device-",
              "  out line is the prior's error, not a cross-validated one. GPU and CPU rows are scored as two",
              "  classes (device class: GPU / CPU): a row's range comes only from its own class's other folds, so",
              "  the CPU fold does not widen the GPU rows' ranges, and the single CPU has no leave-one-device-out",
              "  range (coverage n/a).",
              "  kernel_eta_matrix sits at its bound 1 in every fold (the GeForce rows run above the datasheet",
              "  peak at the rated boost clock). MLPerf's folds refit its one constant of its own, the TensorRT",
              "  engine efficiency (to the fold's samples/s of both benchmarks; a fold without one benchmark",
              "  fits it to the other's rows), and replay the GPU power constants k_compute and k_memory of",
              "  tools/fit_power.py's fold that left out the same rows (fitted jointly to the ML.ENERGY and",
              "  MLPerf rows, counted against those 367 rows); the BERT sequence, the host classes and the DRAM",
              "  energy per bit are sourced, not fitted. Its device-out error is the A100 folds': the per-row",
              "  engine efficiencies are about 0.54-0.76 on the SXM rows and 0.40-0.52 on the PCIe rows, parts of",
              "  the same peaks, which the time model does not separate (a lower kernel_eta_bw or no",
              "  compute/memory overlap were tried and make it worse: not the memory bandwidth).",
              "- In-sample: the engine efficiency, the GPU/TPU power coefficients and the measured joules per",
              "  op are fitted to the MLPerf and Patterson rows scored",
              "  here (tools/fit_*.py). The pre-training device-hours are scored leave one",
              "  run family out: each family predicted with train_step_eta fitted to the others (tools/crossval.py).",
              "  Later MLPerf rounds and other papers",
              "  are the out-of-sample check and are not scored yet; GPT-3 from its FLOPs (tests/unit/test_estimate.c)",
              "  is out of sample: -7.4%.",
              "- MLPerf BERT rows run at 177 tokens, SQuAD v1.1's mean unpadded sequence (Zhang et al., ISPASS",
              "  2021: 54% of its tokens at max length 384 are padding; TensorRT's kernels skip it), sourced,",
              "  not fitted; the paper does not say which split it counted (MLPerf runs the dev split).",
              "- MaxQ submissions run at their GPU power limit where the submission published it (NVIDIA's MaxQ",
              "  configurations, Dell's system notes: 20 of the 30 rows, the XE8545's 500 W parts included): busy",
              "  power is capped there and compute-bound kernels run at the clocks the cap leaves",
              "  (docs/energy-model.md section 3). The XE2420 A10, NE5260M5 and Xavier NX rows run at the",
              "  device's default limit (none published).",
              "- Jetson Xavier rows: the two Xavier NX rows are predicted from the GPU's tensor-core peaks derived",
              "  from the NX data sheet (48 tensor cores at 1100 MHz; the two DLAs that the ResNet-50 submission also",
              "  uses are not modelled) on the `embedded-module` host class (carrier board + adapter loss, a judgement,",
              "  not fitted); the joules-per-op method prices them from their specs like every device. The two AGX Xavier rows",
              "  are predicted the same way, from the AGX Xavier's GPU tensor-core peaks (64 tensor cores x 128 FLOP per",
              "  clock x 1.377 GHz, the GPU clock of NVIDIA's Jetson modules table; its two DLAs are not counted either).",
              "- MLPerf Training time to train (GPT-3 175B, BERT-large, ResNet-50 of v4.0 and v4.1): no constant is",
              "  fitted to these rows, so every fold predicts with the database's constants and the leave-one-",
              "  benchmark-out and leave-one-system-out errors equal the in-sample one; the folds give the ranges.",
              "  The other benchmarks (DLRM, GNN, Stable Diffusion, 3D U-Net, RetinaNet) have no model",
              "  in the project and are listed, with their row counts, in docs/accuracy/training_mlperf.md.",
              "  Llama 2 70B LoRA (issue 40) is the fine-tuning step model (--finetune lora) at goodput 1 (a timed",
              "  run of minutes has no restarts) plus the run's evaluations by the benchmark's rule, forward only;",
              "  the DeepSpeed rows at the layout their configuration names (ZeRO-3, recomputation, BF16;",
              "  tools/mlperf_lora.py). The start-up inside the timed run is not modelled.",
              "- DeepLearningExamples V100 training throughput (ResNet-50, BERT-large; FP32 and AMP; 1-8 GPUs): no",
              "  constant is fitted to any V100 row, so every row is a device left out; the runtime profile is the",
              "  vendor-tuned stack's where the build has one, else the default, named in docs/accuracy/dle.md.",
              "- Pre-training device-hours: the training step model (docs/energy-model.md, \"Training step model\")",
              "  at each run's published shape, global batch and cluster; runs whose cluster size is not published",
              "  (Llama 3 / 3.1 8B and 70B) are not predicted.",
              "- Not modelled: device-generation factors beyond the peaks per precision, the SM count and the",
              "  wave quantisation of devices without an sm_count (a device entry's field).",
              "- The workstation row (issue #17's quote of a published wall-meter comparison) is a validation,",
              "  not fitted; its primary publication was not verified here."]
    with open(os.path.join(ROOT, "docs", "accuracy.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote docs/accuracy.md (%d sets)" % len(sets))


def selftest():
    """The arithmetic on two hand-made rows (make test: tests/accuracy.sh)."""
    import tempfile
    rows = [
        # predicted 1.2 [1.0-1.5] vs measured 1.0: +20%, inside, width 1.5
        {"id": "hand-a", "measured": 1.0, "low": 1.0, "central": 1.2, "high": 1.5, "group": "g"},
        # predicted 0.5 [0.4-0.8] vs measured 1.0: -50%, outside, width 2
        {"id": "hand-b", "measured": 1.0, "low": 0.4, "central": 0.5, "high": 0.8, "group": "g"},
        {"id": "hand-c", "measured": 3.0, "reason": "no peak in the hwdb", "group": "g"},
        # predicted 2.0 without a range vs measured 4.0: -50%, no coverage
        {"id": "hand-d", "measured": 4.0, "central": 2.0, "group": "h"},
    ]
    with tempfile.TemporaryDirectory() as tmp:
        s = write_set("selftest", "self-test", "J", "hand-made", "none", rows, out_dir=tmp)
        md = open(os.path.join(tmp, "selftest.md")).read()
    ok = True

    def check(name, got, want):
        nonlocal ok
        good = abs(got - want) < 1e-12 if isinstance(want, float) else got == want
        print("%s accuracy selftest: %s = %r (want %r)" % ("PASS" if good else "FAIL", name, got, want))
        ok = ok and good
    a = s["all"]
    check("rows", a["rows"], 3)
    check("not_predicted", a["not_predicted"], 1)
    check("error hand-a", round(rows[0]["error"], 12), 0.2)
    check("error hand-b", rows[1]["error"], -0.5)
    check("median |error|", s["g"]["median_abs_error"], 0.5 * ((1.2 - 1.0) + 0.5))
    check("median |error| with the rangeless row", a["median_abs_error"], 0.5)
    check("coverage (rows with a range only)", a["coverage"], 0.5)
    check("median width", a["median_width"], 0.5 * (1.5 + 2.0))
    check("table names the unpredicted row", "hand-c" in md and "not predicted" in md, True)
    check("median of 3", median([3.0, 1.0, 2.0]), 2.0)
    check("a row without a range: error, no coverage", (s["h"]["median_abs_error"], s["h"]["coverage"]),
          (0.5, None))
    check("table marks the row without a range", "[no range]" in md, True)
    check("no run failed among the hand-made rows", a["runs_failed"], 0)
    # a failed run: its exit status and message reach the row's reason
    # (and stderr, with the command), and write_set counts it
    saved = {k: os.environ.pop(k, None) for k in ("JC_RELEASE", "JC")}
    os.environ["JC"] = "/bin/sh"
    import io
    err, sys.stderr = sys.stderr, io.StringIO()
    try:
        js, why = run_jc(["-c", "echo 'first line' >&2; echo 'estimate: refused' >&2; exit 3"])
    finally:
        printed, sys.stderr = sys.stderr.getvalue(), err
        del os.environ["JC"]
        os.environ.update({k: v for k, v in saved.items() if v is not None})
    check("a failed run prints its command and whole stderr",
          "command: /bin/sh -c" in printed and "| first line" in printed and "| estimate: refused" in printed, True)
    check("a failed run returns no JSON", js, None)
    check("a failed run's reason names the failure, exit status and message",
          why, "%s (exit 3): estimate: refused" % RUN_FAILED)
    with tempfile.TemporaryDirectory() as tmp:
        s2 = write_set("selftest", "self-test", "J", "hand-made", "none",
                       [dict(rows[0]), {"id": "hand-e", "measured": 1.0, "reason": why, "group": "g"},
                        dict(rows[2])], out_dir=tmp)
        md = open(os.path.join(tmp, "selftest.md")).read()
    check("write_set counts the failed run apart", (s2["all"]["not_predicted"], s2["all"]["runs_failed"]), (2, 1))
    check("the table says how many runs failed", "of which 1 because the joulecast run failed" in md, True)
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "index":
        index()
    elif len(sys.argv) > 1 and sys.argv[1] == "selftest":
        sys.exit(selftest())
    else:
        sys.exit(__doc__)
