#!/usr/bin/env python3
"""fit_coupled.py - runs the fits that depend on each other until none
moves.  Three fits share rows and constants:
  - tools/fit_efficiency.py: the engine's matrix efficiency
    (runtime_engine_eta_matrix) from the MLPerf rows' throughput, which
    the power constants touch through the clocks of the MaxQ rows' power
    limits;
  - tools/fit_power.py: power_k_compute_gpu and power_k_memory_gpu from
    the serving rows' GPU power and the MLPerf rows' wall power, at the
    utilisations the serving time constants and the engine efficiency
    give;
  - tools/fit_serving.py: the serving time constants, at the power
    constants of tests/accuracy/power-folds.json (a power limit sets the
    clock).
Each minimises its own loss over its own measurements with the others'
constants held, so they are solved by running them in turn (block
coordinate descent) to a fixed point: where each set is the best fit to
its measurements given the others.

A round is one fit of each, in the cycle efficiency, power, serving,
starting at --first (the fit whose inputs changed last).  After every fit
the script compares each of its all-row constants with the value before
it; it stops when a whole round moved no constant by more than --tol
(relative), or after --rounds rounds, and says which.  Every fit runs
with --write, so each round leaves hwdb/ and tests/accuracy/ consistent;
the last round's constants are the ones stored.  Exit 0 at a fixed
point, 2 when not converged, 1 when a fit failed.

  python3 tools/fit_coupled.py [--first efficiency|power|serving]
                               [--rounds N] [--tol 0.01] [--jobs 2]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import fit_common as fc  # noqa: E402

CYCLE = ["efficiency", "power", "serving"]
FOLDS = {"serving": os.path.join(ROOT, "tests", "accuracy", "serving-folds.json"),
         "power": os.path.join(ROOT, "tests", "accuracy", "power-folds.json")}
# the constants each fit owns (serving-folds.json's "all" also records the
# power constants it was fitted at; those are power's)
OWNS = {"serving": lambda k: k.startswith("serving_"),
        "power": lambda k: k.startswith("power_k_")}


def constants(fit):
    """The all-row constants FIT owns, as stored by its last --write."""
    if fit == "efficiency":
        return {"runtime_engine_eta_matrix": fc.read_constant("runtime_engine_eta_matrix")}
    with open(FOLDS[fit]) as f:
        return {k: v for k, v in json.load(f)["all"].items() if OWNS[fit](k)}


def run(fit, jobs):
    """Runs tools/fit_FIT.py --write; its output goes to this script's
    output.  Returns the exit status."""
    cmd = [sys.executable, os.path.join(HERE, "fit_%s.py" % fit), "--write"]
    if fit == "serving":
        cmd += ["--jobs", str(jobs)]
    print("== tools/fit_%s.py %s" % (fit, " ".join(cmd[2:])), flush=True)
    return subprocess.call(cmd, cwd=ROOT)


def moved(before, after):
    """(largest relative change over the constants, its name or None)."""
    worst = (0.0, None)
    for k, v in after.items():
        b = before.get(k)
        rel = abs(v / b - 1) if b else float("inf")
        if rel > worst[0]:
            worst = (rel, k)
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first", choices=CYCLE, default="efficiency",
                    help="the fit whose inputs changed last (default efficiency: the cycle's start)")
    ap.add_argument("--rounds", type=int, default=4, help="at most this many rounds (default 4)")
    ap.add_argument("--tol", type=float, default=0.01, help="relative change that counts as still moving (default 0.01)")
    ap.add_argument("--jobs", type=int, default=2, help="fit_serving.py's parallel runs")
    a = ap.parse_args()
    i = CYCLE.index(a.first)
    order = CYCLE[i:] + CYCLE[:i]
    history = []
    worst = (float("inf"), None)
    for rnd in range(1, a.rounds + 1):
        worst = (0.0, None)
        for fit in order:
            before = constants(fit)
            if run(fit, a.jobs) != 0:
                print("fit_coupled: tools/fit_%s.py failed in round %d; stopped" % (fit, rnd), file=sys.stderr)
                return 1
            after = constants(fit)
            m = moved(before, after)
            history.append((rnd, fit, after))
            print("round %d %s: largest change %.2f%%%s" % (rnd, fit, 100 * m[0], " (%s)" % m[1] if m[1] else ""),
                  flush=True)
            worst = max(worst, m, key=lambda t: t[0])
        if worst[0] < a.tol:
            print("fit_coupled: fixed point after %d round%s: no constant moved more than %.2f%% in the last"
                  % (rnd, "s" if rnd > 1 else "", 100 * a.tol))
            break
    else:
        print("fit_coupled: NOT converged after %d rounds (the last moved %s by %.2f%%)"
              % (a.rounds, worst[1], 100 * worst[0]))
    for rnd, fit, after in history:
        print("  round %d %-10s %s" % (rnd, fit, " ".join("%s=%.4g" % kv for kv in sorted(after.items()))))
    return 0 if worst[0] < a.tol else 2


if __name__ == "__main__":
    sys.exit(main())
