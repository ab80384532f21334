#!/usr/bin/env python3
"""fit_jop.py - the one fitted constant of the joules-per-op method (issue
#30: no constant keyed by a device): jop_op_energy_scale k, pooled over
every device of the MLPerf Inference v1.1 rows (tests/accuracy/
mlperf-v1.1.csv, copied from ../shared/data/calibration/
mlperf-inference-v1.1.yaml).  A device enters only through its specs:

  device energy = idle W x time + k x ops x e_op + bytes x e_byte

e_op is the device's spec-derived energy per operation at the run's
precision, (tdp_w - idle_w) / dense peak (hwdb/devices
energy.pj_per_flop, derived by tools/gen_hwdb.py), e_byte its energy per
byte from its memory type where the hwdb has one; k says how much more
dynamic energy a counted operation costs in a measured system than that
full-load figure (below-peak power that does not fall in proportion,
work the counted ops leave out).  k is the value at which the median of
ln(predicted / measured J/sample) over the rows given is 0 (the rule of
the roofline's power fit in tools/accuracy_mlperf.py).  J/sample is
linear in k, so each row is predicted twice through the CLI (k = 1 and
k = 2, an override layer) and every trial k after that is arithmetic.

tools/crossval.py refits k without each device (leave-one-device-out) and
without each benchmark (leave-one-benchmark-out); the in-sample value is
written with low/high = the smallest and largest leave-one-device-out
fold's value, and the derived text names the rows and the folds.

  python3 tools/fit_jop.py [--write]
"""
import argparse
import glob
import math
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy_common as ac  # noqa: E402
import accuracy_mlperf as mp  # noqa: E402
import fit_common as fc  # noqa: E402

CID = "jop_op_energy_scale"
METHOD = ["--method", "joules-per-op"]
K_LO, K_HI = 0.1, 10.0


def _j(row, layer):
    js, _ = mp.predict(row, layer + METHOD)
    j = js and js["results"]["j_per_sample"]
    return j["central"] if j and j.get("central") is not None else None


# The device fields that carry measured or per-instruction energies
# (tools/hwdb_input/measured_energy.csv, written by gen_hwdb.py's
# issue41_measured_energy): the joules-per-op method charges them in place of
# the derived energy x jop_op_energy_scale.
MEASURED_KEYS = ("pj_per_flop_tensor", "dram_pj_per_byte", "static_w")


def strip_measured(text):
    """A devices YAML file's text without the MEASURED_KEYS blocks (each key
    line and the lines indented below it), and without an `energy:` map
    they leave empty."""
    out, skip = [], None
    for line in text.splitlines(True):
        ind = len(line) - len(line.lstrip(" "))
        if skip is not None and line.strip() and ind > skip:
            continue
        skip = None
        m = re.match(r"( *)(%s):" % "|".join(MEASURED_KEYS), line)
        if m:
            skip = len(m.group(1))
            continue
        out.append(line)
    keep = []
    for i, line in enumerate(out):
        nxt = next((x for x in out[i + 1:] if x.strip()), "")
        ind = len(line) - len(line.lstrip(" "))
        if line.strip() == "energy:" and len(nxt) - len(nxt.lstrip(" ")) <= ind:
            continue
        keep.append(line)
    return "".join(keep)


def charge_transfers(text):
    """A devices YAML file's text with its named transfers (a
    per-instruction energy measured on another die, `derived: "named
    transfer ...`, which the CLI lists and does not charge) marked
    `measured:`, so that the CLI charges them as it charges a measurement."""
    return text.replace('derived: "named transfer', 'measured: "named transfer')


class HwdbCopy:
    """A with-block in which the CLI (accuracy_common.run_jc, which passes
    os.environ on) reads a copy of the bundled hwdb whose devices files
    pass through `edit` (JOULECAST_HWDB_DIR, the snapshot off).  The copy
    is removed and the environment restored on leaving."""

    ENV = ("JOULECAST_HWDB_DIR", "JOULECAST_HWDB_SNAPSHOT")

    def __init__(self, edit):
        self.edit = edit

    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix="jc-jop-hwdb-")
        d = os.path.join(self.tmp, "hwdb")
        shutil.copytree(os.path.join(ac.ROOT, "hwdb"), d)
        for fn in glob.glob(os.path.join(d, "devices", "*.yaml")):
            with open(fn, encoding="utf-8") as f:
                text = f.read()
            with open(fn, "w", encoding="utf-8") as f:
                f.write(self.edit(text))
        self.old = {k: os.environ.get(k) for k in self.ENV}
        os.environ.update({"JOULECAST_HWDB_DIR": d, "JOULECAST_HWDB_SNAPSHOT": "off"})
        return self

    def __exit__(self, *exc):
        for k, v in self.old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.tmp)
        return False


# the hwdb without the measured energies: every device charges its derived
# energy x jop_op_energy_scale, as before any measured value was carried
def DerivedHwdb():
    return HwdbCopy(strip_measured)


# the hwdb with the named transfers charged as measurements (the page's
# "with" column for the devices that carry only a transfer)
def ChargedHwdb():
    return HwdbCopy(charge_transfers)


def linear_parts(rows, derived=False, charged=False):
    """{row id: (a, b)} with predicted J/sample = a + b k, from the CLI at
    k = 1 and k = 2; rows the CLI cannot predict are left out.  A row on a
    device with a measured energy per operation has b = 0 (k does not enter
    it) unless `derived`: then the hwdb is read without the measured
    energies (DerivedHwdb), so every row charges the derived energy x k.
    `charged`: the named transfers are charged too (ChargedHwdb), so their
    rows also have b = 0."""
    if derived or charged:
        with (DerivedHwdb() if derived else ChargedHwdb()):
            return linear_parts(rows)
    ov = fc.Overlay()
    try:
        j1 = {r["id"]: _j(r, ov.set({CID: 1.0})) for r in rows}
        j2 = {r["id"]: _j(r, ov.set({CID: 2.0})) for r in rows}
    finally:
        ov.close()
    return {i: (2 * j1[i] - j2[i], j2[i] - j1[i]) for i in j1 if j1[i] and j2[i]}


def make_fit(parts):
    """crossval's fit: k from the rows given only (a bound when their
    median error keeps one sign over [K_LO, K_HI])."""
    def med_log(rows, k):
        return ac.median([math.log((parts[r["id"]][0] + parts[r["id"]][1] * k) / float(r["j_per_sample"]))
                          for r in rows if r["id"] in parts])

    def fit(rows):
        lo, hi = K_LO, K_HI
        if med_log(rows, lo) >= 0:
            return {CID: lo}
        if med_log(rows, hi) <= 0:
            return {CID: hi}
        for _ in range(40):   # bisection in ln k: J/sample rises with k
            mid = math.sqrt(lo * hi)
            if med_log(rows, mid) > 0:
                hi = mid
            else:
                lo = mid
        return {CID: round(math.sqrt(lo * hi), 4)}
    return fit


def crossvalidate(rows, parts=None, dparts=None):
    """tools/crossval.py over the predictable rows; returns (res, rows).
    k is fitted to every row's derived prediction (dparts: the hwdb without
    the measured energies, so the measured values do not move k); a row is
    predicted as the CLI predicts it (parts: with the measured energies
    where its device has them, then k does not enter).  res["jop_parts"]
    holds both ({"actual": parts, "derived": dparts}) and, for the devices
    that carry only a named transfer (not charged by the CLI), "charged":
    their rows with the transfers charged (the page's "with" column)."""
    import crossval as cv
    rs = mp.predictable(rows)
    parts = parts or linear_parts(rs)
    dparts = dparts or linear_parts(rs, derived=True)
    cparts = linear_parts([r for r in rs if r["device"] in transfer_devices()], charged=True)

    def predict(p, r):
        ab = parts.get(r["id"])
        return None if ab is None else ab[0] + ab[1] * p[CID]
    res = cv.run(rs, make_fit(dparts), predict, lambda r: float(r["j_per_sample"]),
                 {"device": lambda r: r["device"], "family": lambda r: r["benchmark"]}, n_params=1)
    res["jop_parts"] = {"actual": parts, "derived": dparts, "charged": cparts}
    return res, rs


# Why the devices of the MLPerf rows without a measured energy have none
# (issue 41 item 5: the published per-instruction tables searched, 2026-12-06).
NONE_WHY = (
    "The per-instruction or per-component energy tables found readable: NVIDIA's per-instruction energies "
    "(Dally, 2023 talk, as transcribed: Volta HMMA, Turing IMMA; no Ampere, Ada or Hopper instruction), "
    "AccelWattch's released configurations (MICRO 2021: Quadro GV100, TITAN V, RTX 2060 SUPER and a Pascal "
    "TITAN X, all tuned on the GV100; no Ampere or later file: accel-sim/accel-sim-framework issue #506, "
    "'A100 Accelwattch XML Configuration', open since 2025-11, asks for one; its latest reply (2026-03) says the RTX 2060 SUPER's is still the newest), and PTX instruction energies measured on "
    "Maxwell, Pascal, Volta and Turing cards (Arafa et al., 2020; CUDA-core instructions, no tensor-core "
    "one). A per-instruction model measured on A100 and H100 exists (Wattchmen, ICS 2026) but its tables "
    "are not readable in the sources this project draws on (its abstract only). So the A100 and A10 "
    "(GA100/GA102), H100 (GH100), L4 and RTX 4090 (AD10x), Jetson Orin (GA10B) and Cloud AI 100 rows keep "
    "the derived energy x jop_op_energy_scale.")


def _err(pred, meas):
    return None if pred is None else pred / meas - 1.0


def _pct(x):
    return "n/a" if x is None else "%+.1f%%" % (100 * x)


def compare_rows(rows, jres, roofline=None):
    """Per row of a device with measured energies: (row, {name: error}) for
    the roofline (in-sample and leave-one-device-out, from its crossval
    result `roofline`), the joules-per-op method with the derived energy x k
    (k in-sample and refitted without the row's device) and with the
    measured energies (k does not enter, so in-sample = cross-validated)."""
    parts = dict(jres["jop_parts"])
    # "with": the CLI's prediction, or the transfers charged where the CLI
    # does not charge them
    parts["actual"] = dict(parts["actual"], **parts.get("charged", {}))
    k_in = jres["in_sample"]["params"][CID]
    k_fold = {f["key"]: f["params"][CID] for f in jres["schemes"]["device"]["folds"]}
    roof = {}
    if roofline:
        roof = {d["row"]["id"]: d.get("central") for d in roofline["in_sample"]["rows"]}
        roof_cv = {d["row"]["id"]: d.get("central") for d in roofline["schemes"]["device"]["rows"]}
    out = []
    for r in rows:
        a, b = parts["actual"].get(r["id"], (None, None))
        da, db = parts["derived"].get(r["id"], (None, None))
        if a is None or da is None or b:
            continue   # not predicted, or k enters it: no measured energy charged
        m = float(r["j_per_sample"])
        kf = k_fold.get(r["device"])
        out.append((r, {"roofline": _err(roof.get(r["id"]), m),
                        "roofline_cv": _err(roof_cv.get(r["id"]), m) if roofline else None,
                        "derived": _err(da + db * k_in, m),
                        "derived_cv": _err(None if kf is None else da + db * kf, m),
                        "measured": _err(a, m)}))
    return out


def transfer_devices():
    """The devices whose measured_energy.csv rows are all named transfers
    (no `measured` text): the CLI lists their energies and charges none."""
    me = ac.read_rows(os.path.join(ac.ROOT, "tools", "hwdb_input", "measured_energy.csv"))
    return {d for d in {r["device"] for r in me} if not any(r["measured"] for r in me if r["device"] == d)}


def measured_lines(rows, jres=None, roofline=None):
    """Markdown lines for the mlperf_jop page (issue 41 item 5): the
    devices whose hwdb entries carry measured or per-instruction energies
    (tools/hwdb_input/measured_energy.csv: energy.pj_per_flop_tensor,
    dram_pj_per_byte, static_w, charged as they are, without
    jop_op_energy_scale), the MLPerf Inference rows (v1.1 given, v3.1 read
    here) on them, and, with this set's crossval result `jres` (and the
    roofline's, `roofline`), those rows' errors with and without the
    measured values beside the roofline's (compare_rows)."""
    src = os.path.join(ac.ROOT, "tools", "hwdb_input", "measured_energy.csv")
    me = ac.read_rows(src)
    devs = sorted({r["device"] for r in me})
    def kind(d):
        got = {}
        for r in me:
            if r["device"] == d:
                got.setdefault("measured" if r["measured"] else "derived", []).append(r["key"].replace("energy.", ""))
        return "; ".join("%s: %s" % (k, ", ".join(v)) for k, v in sorted(got.items()))
    v31 = ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v3.1.csv"))
    on = [r for r in list(rows) + v31 if r.get("device") in devs]
    seen = sorted({r.get("device") for r in list(rows) + v31 if r.get("device")})
    lines = ["**Measured energies (issue 41 item 5).** Devices whose hwdb entries carry a measured or "
             "per-instruction energy (the hwdb names each a measurement or a named transfer from another die; "
             "a measurement is charged as it is, without jop_op_energy_scale; a transfer is named in a warning "
             "and not charged, because on the rows below it is further from the measured energy than the derived "
             "energy x the scale): %s. MLPerf Inference rows on them: %d of %d (v1.1 "
             "and v3.1 calibration rows, whose devices are %s)%s" % (
                 ", ".join("%s (%s)" % (d, kind(d)) for d in devs), len(on), len(rows) + len(v31),
                 ", ".join(seen), ": no row scores the measured values against the derived ones; every row here "
                 "uses the derived energy x jop_op_energy_scale." if not on else "."), "", NONE_WHY, ""]
    if not on or jres is None:
        return lines
    cmp_ = compare_rows(rows, jres, roofline)
    lines += ["**With and without the measured energies** (the rows above on those devices; jop_op_energy_scale is "
              "fitted to every row's derived prediction, so the measured values do not move it; \"without\" = the "
              "derived energy x the scale refitted without the row's device, \"with\" = the hwdb's measured or "
              "transferred energies charged (the transfers through a copy of the hwdb that charges them, "
              "fit_jop.ChargedHwdb), which no fitted constant enters; the roofline's errors are its own page's "
              "(in-sample and leave-one-device-out)). The Jetson Xaviers' energies are named transfers (the GV100's Volta "
              "HMMA at fp16, Turing's IMMA at int8) and cover the tensor instruction alone: no static power, operand "
              "traffic or idle power of the GV10B is published (its idle_w is 0, none known), so \"with\" charges "
              "the module little beyond its instructions and memory traffic:", "",
              "| row | measured J/sample | roofline | roofline, device left out | jop derived x k | jop derived, "
              "device left out | jop with measured energies | closer (cross-validated) |",
              "|---|---:|---:|---:|---:|---:|---:|---|"]
    for r, e in cmp_:
        cands = {"roofline": e["roofline_cv"], "jop without": e["derived_cv"], "jop with": e["measured"]}
        best = min((v for v in cands.items() if v[1] is not None), key=lambda kv: abs(kv[1]), default=None)
        lines.append("| %s | %.4g | %s | %s | %s | %s | %s | %s |" % (
            r["id"], float(r["j_per_sample"]), _pct(e["roofline"]), _pct(e["roofline_cv"]), _pct(e["derived"]),
            _pct(e["derived_cv"]), _pct(e["measured"]), best[0] if best else "n/a"))

    def med(k):
        xs = [abs(e[k]) for _, e in cmp_ if e[k] is not None]
        return ac.median(xs) if xs else None
    meds = {k: med(k) for k in ("roofline_cv", "derived_cv", "measured")}
    known = {k: v for k, v in meds.items() if v is not None}
    names = {"roofline_cv": "the roofline", "derived_cv": "joules-per-op without the measured energies",
             "measured": "joules-per-op with them"}
    lines += ["", "Median |error| over these %d rows, cross-validated: roofline %s, joules-per-op without the measured "
              "energies %s, with them %s; closest: %s." % (
                  len(cmp_), *("n/a" if meds[k] is None else "%.1f%%" % (100 * meds[k])
                               for k in ("roofline_cv", "derived_cv", "measured")),
                  names[min(known, key=known.get)] if known else "n/a"), ""]
    return lines


def derived_text(res, rs):
    folds = res["schemes"]["device"]["folds"]
    fam = res["schemes"]["family"]["folds"]
    devs = sorted({r["device"] for r in rs})
    return ("fitted to the MLPerf Inference v1.1 power results (mlcommons/inference_results_v1.1@7fc43356) rows "
            "(the %d rows of tests/accuracy/mlperf-v1.1.csv on %d devices: %s; AC wall power at PUE 1, hosts from the "
            "sourced host_class_* constants or the DGX host entries) by tools/fit_jop.py: one value for every device, "
            "the k at which the median ln(predicted / measured J/sample) of the joules-per-op method is 0, where a "
            "device's dynamic energy is k x ops x its spec-derived energy per op ((tdp_w - idle_w) / dense peak) + "
            "bytes x its memory type's energy per byte (every row predicted so, from a copy of the hwdb without the "
            "measured or transferred per-instruction energies some devices carry, which are charged without k); low/high = the smallest and largest leave-one-device-out "
            "fold's value (%s); leave-one-benchmark-out folds: %s" % (
                len(rs), len(devs), ", ".join(devs),
                ", ".join("without %s %.3g" % (f["key"], f["params"][CID]) for f in folds),
                ", ".join("without %s %.3g" % (f["key"], f["params"][CID]) for f in fam)))


def main():
    import crossval as cv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="write the value into hwdb/energy-model.yaml")
    a = ap.parse_args()
    rows = ac.read_rows(os.path.join(ac.ROOT, "tests", "accuracy", "mlperf-v1.1.csv"))
    res, rs = crossvalidate(rows)
    for line in cv.report(res, "joules-per-op J/sample, %s" % CID):
        print(line)
    k = res["in_sample"]["params"][CID]
    ks = [f["params"][CID] for f in res["schemes"]["device"]["folds"]]
    print("%s = %.4g (leave-one-device-out %.4g .. %.4g)" % (CID, k, min(ks), max(ks)))
    if a.write:
        fc.write_constant(CID, k, min(ks + [k]), max(ks + [k]))
        fc.write_text(CID, "derived", derived_text(res, rs))
        print("wrote %s in hwdb/energy-model.yaml" % CID)


if __name__ == "__main__":
    main()
