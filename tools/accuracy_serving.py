#!/usr/bin/env python3
"""accuracy_serving.py - the serving rows of `make accuracy`: the GPU energy
per output token of every row of tests/accuracy/serving-rows.yaml
(ML.ENERGY leaderboard v2/v3, from the project's calibration set),
predicted by the library (`joulecast estimate --generate`, through the
Python binding), cross-validated with tools/crossval.py: leave one device
out and leave one model family out, each fold's constants the ones
tools/fit_serving.py fitted without that device or family
(tests/accuracy/serving-folds.json, replayed here, not refitted).  Ranges
of a held-out row come from the other folds' held-out residuals (a
nominal 90 % conformal interval, tools/crossval.py), so the coverage is
measured.  In-sample figures (the constants of
hwdb/serving.yaml, fitted to every row) stand beside them.

Publishes docs/accuracy/serving.md and build/accuracy/serving.json (the
headline: leave one device out).  GPU energy only, as metered (Zeus/NVML).

Usage: python3 tools/accuracy_serving.py [--out docs/accuracy/serving.md] [--jobs N]
Exit status 0 whatever the errors (the figures are published, not gated).
"""
import argparse
import datetime
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as AC  # noqa: E402
import crossval as cv  # noqa: E402
import fit_serving as FS  # noqa: E402
import serving_rows as S  # noqa: E402


def pct(x, signed=False):
    return "n/a" if x is None else (("%+.1f%%" if signed else "%.1f%%") % (100 * x))


def cov(x):
    return "n/a" if x is None else "%.0f%%" % (100 * x)


SUBSETS = [("MoE (Mixtral)", lambda r: S.family(r) == "mixtral"),
           ("newest device (H100)", lambda r: S.DEVICES.get(r["gpu"]) == "nvidia-h100-sxm5"),
           ("4-16 GPUs", lambda r: r["num_gpus"] >= 4),
           ("1 GPU", lambda r: r["num_gpus"] == 1),
           ("vLLM 0.11 (v3)", lambda r: S.runtime(r) == "vllm"),
           ("vLLM 0.5 (v2)", lambda r: S.runtime(r) == "vllm-0.5")]


def summary_line(name, s):
    return "| %s | %d | %s | %s | %s | %s |" % (name, s["rows"], pct(s["median_abs_error"]),
                                              pct(s["median_signed_error"], True), pct(s["max_abs_error"]),
                                              cov(s["coverage"]))


def page(ej, et, stored, commit, when):
    lines = ["# Serving accuracy: GPU energy per output token against ML.ENERGY", "",
             "Written by `make accuracy` (tools/accuracy_serving.py) on %s UTC at commit %s; do not edit." % (when, commit), "",
             "**Scope.** GPU energy only, as Zeus/NVML metered it (ML.ENERGY leaderboard v2, vLLM 0.5.4 on A100-SXM4-40GB "
             "and H100; v3, vLLM 0.11.1 on H100), steady state; rows `tests/accuracy/serving-rows.yaml`, copied from "
             "the project's calibration set. Compared: `results.j_per_output_token_device` of `joulecast "
             "estimate --generate` for the row's model (a config written from its architecture facts), device, GPU count, "
             "tp/pp, steady-state running batch, mean prompt and output tokens and runtime profile (`vllm-0.5` for v2 "
             "rows, `vllm` for v3).", "",
             "**Cross-validated.** Each fold refits the %d serving constants (the time constants by tools/fit_serving.py; "
             "the device power constants `power_k_*_gpu`, shared with every other path, by tools/fit_power.py on these "
             "rows' GPU power and the MLPerf rows' wall power together) without one device's "
             "rows (leave one device out) or one model family's rows (leave one family out) and predicts the rows left "
             "out; a held-out row's range comes from the other folds' held-out residuals (a nominal 90%% "
             "interval: the conformal quantile of |ln(predicted / measured)|, tools/crossval.py), so coverage is measured, not tuned. In-sample: the constants fitted to every row "
             "(hwdb/serving.yaml). Identical ML.ENERGY configurations published twice differ by 5-19%% in J/token "
             "(the ML.ENERGY leaderboard v2 and v3 data): no model can be judged more finely." % ej["n_params"], "",
             "With two devices in the calibration set, leaving one out fits the constants on the other alone: the "
             "device-out error measures how the constants carry from H100 to A100 and back through the devices' specs.",
             "", "## Headline (J per output token)", "",
             "| set | rows | median abs error | median signed | max abs error | coverage |", "|---|---:|---:|---:|---:|---:|"]
    lines.append(summary_line("leave one device out", ej["schemes"]["device"]["summary"]))
    lines.append(summary_line("leave one family out", ej["schemes"]["family"]["summary"]))
    lines.append(summary_line("in-sample", ej["in_sample"]["summary"]))
    lines += ["", "Time per output token (1 / output tokens/s), the same folds:", "",
              "| set | rows | median abs error | median signed | max abs error | coverage |", "|---|---:|---:|---:|---:|---:|"]
    lines.append(summary_line("leave one device out", et["schemes"]["device"]["summary"]))
    lines.append(summary_line("leave one family out", et["schemes"]["family"]["summary"]))
    lines.append(summary_line("in-sample", et["in_sample"]["summary"]))
    lines += ["", "## Subsets (J per output token)", "",
              "| subset | scheme | rows | median abs error | median signed | max abs error | coverage |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for name, sel in SUBSETS:
        for scheme, label in (("device", "device out"), ("family", "family out")):
            rr = [d for d in ej["schemes"][scheme]["rows"] if sel(d["row"])]
            if rr:
                s = cv.summarise(rr)
                lines.append("| %s | %s | %d | %s | %s | %s | %s |" % (name, label, s["rows"], pct(s["median_abs_error"]),
                             pct(s["median_signed_error"], True), pct(s["max_abs_error"]), cov(s["coverage"])))
        rr = [d for d in ej["in_sample"]["rows"] if sel(d["row"])]
        s = cv.summarise(rr)
        lines.append("| %s | in-sample | %d | %s | %s | %s | %s |" % (name, s["rows"], pct(s["median_abs_error"]),
                     pct(s["median_signed_error"], True), pct(s["max_abs_error"]), cov(s["coverage"])))
    lines += ["", "## Folds", "", "| scheme | held out | rows | median abs error (J/token) |", "|---|---|---:|---:|"]
    for scheme, s in ej["schemes"].items():
        for f in s["folds"]:
            lines.append("| %s | %s | %d | %s |" % (scheme, f["key"], f["rows"], pct(f["median_abs_error"])))
    lines += ["", "## Constants and their spread over the folds", "",
              "| constant | fitted to every row | min over folds | max over folds |", "|---|---:|---:|---:|"]
    for cid in FS.TIME_IDS + FS.POWER_IDS:
        vals = [f["params"][cid] for f in stored["folds"] if cid in f["params"]]
        if cid in stored["all"] and vals:
            lines.append("| %s | %.4g | %.4g | %.4g |" % (cid, stored["all"][cid], min(vals), max(vals)))
    lines += ["", "%d fitted constants for %d rows (at most one per 20 rows: %s). Range factors for a device or family "
              "without rows (the widest over the two schemes): J/token x%.3f-x%.3f, time x%.3f-x%.3f." % (
                  ej["n_params"], ej["n_rows"], "ok" if ej["params_ok"] else "TOO MANY",
                  stored["ranges"]["serving_range_energy"][0], stored["ranges"]["serving_range_energy"][1],
                  stored["ranges"]["serving_range_time"][0], stored["ranges"]["serving_range_time"][1]), "",
              "Assumptions where rows lack figures:", "",
              "- %s." % S.ASSUMPTIONS["v3_prompt_note"],
              "- v2 prompt lengths are the calibration file's own tokenizer estimates (system prompt included for "
              "chat, chat-template tokens not).",
              "- %s." % S.ASSUMPTIONS["phi3_small"],
              "- Model families, gated MLPs, tied embeddings, Mixtral's 8 experts / top-2 and Gemma-2's alternating "
              "4096-token window: `FAMILIES` in tools/serving_rows.py.", "",
              "## Every row (leave one device out)", "",
              "| row | measured J/token | predicted [low-high] | error | inside | in-sample |", "|---|---:|---|---:|:-:|---:|"]
    ins = {d["row"]["id"]: d for d in ej["in_sample"]["rows"]}
    for d in ej["schemes"]["device"]["rows"]:
        i = ins[d["row"]["id"]]
        if d.get("central") is None:
            lines.append("| %s | %.4g | not predicted | | | |" % (d["row"]["id"], d["measured"]))
            continue
        lines.append("| %s | %.4g | %.4g [%.4g-%.4g] | %s | %s | %s |" % (
            d["row"]["id"], d["measured"], d["central"], d["low"], d["high"], pct(d["error"], True),
            "yes" if d["inside"] else "no", pct(i.get("error"), True)))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(S.ROOT, "docs", "accuracy", "serving.md"))
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    rows = [r for r in S.load_rows() if S.config_for(r) is not None]
    stored = json.load(open(FS.FOLDS))
    replay = FS.replay_folds()   # time constants with each fold's device power constants (tools/fit_power.py)
    stored = dict(stored, all=replay[frozenset()],
                  folds=[dict(f, params=replay[frozenset(f["left_out"])]) for f in stored["folds"]])
    C = FS.Cached(FS.Fitter(args.jobs, 0), {}, 0, 0, stored=replay)
    ej, et = FS.crossvalidate(C, rows)
    commit = AC.git_commit()
    when = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
    lines = page(ej, et, stored, commit, when)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    build = os.path.join(S.ROOT, "build", "accuracy")
    os.makedirs(build, exist_ok=True)

    def js(per):
        s = cv.summarise(per)
        w = [d["high"] / d["low"] for d in per if d.get("low")]
        out = {k: s[k] for k in ("rows", "not_predicted", "median_abs_error", "median_signed_error", "max_abs_error",
                                 "coverage")}
        out["median_width"] = statistics.median(w) if w else None
        return out
    lodo, lofo = ej["schemes"]["device"]["rows"], ej["schemes"]["family"]["rows"]
    summ = {"leave one device out": js(lodo), "leave one family out": js(lofo), "in-sample": js(ej["in_sample"]["rows"])}
    for name, sel in SUBSETS:
        summ["leave one device out, " + name] = js([d for d in lodo if sel(d["row"])])
    with open(os.path.join(build, "serving.json"), "w") as f:
        json.dump({"set": "serving", "title": "LLM serving, GPU J per output token (ML.ENERGY v2/v3)", "unit": "J/token",
                   "cross_validated": True, "summary": summ, "n_params": ej["n_params"], "commit": commit, "date": when,
                   "targets": "leave-one-device-out median |error| <= 15%, coverage >= 80% on the folds (issue #30)"},
                  f, indent=1, sort_keys=True)
    for l in cv.report(ej, "serving J/output token"):
        print(l)
    print("wrote %s" % os.path.relpath(args.out, S.ROOT))


if __name__ == "__main__":
    main()
