#!/usr/bin/env python3
# check_hwdb.py - a quick consistency check of joulecast's hwdb/ YAML against
# docs/hwdb-schema.md (not a replacement for the C loader's validation):
# every file parses as plain YAML, every sourced value has value + source,
# every source id exists in its file and has a year or date, ids/aliases are
# unique case-insensitively across the database, ranges are sane
# (0 < utilisation <= 1, idle < tdp, low <= value <= high), referenced
# devices/regions/providers exist, no constant is keyed by a device id or
# alias, and no fitted value is keyed by a device, a benchmark or a version.  The entry kinds with a field table in
# the loader (src/hwdb/fields_<kind>.def) are checked by that table, read from
# tools/hwdb_fields.json (`joulecast hwdb schema --json`; tests/hwdb.sh
# keeps it current): keys, types, required keys, ranges, enum values.
# Needs PyYAML (python3 -c 'import yaml').
#
#     python3 tools/check_hwdb.py [hwdb]

import json
import os
import re
import sys

import yaml

FIELDS = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hwdb_fields.json")))
KINDS = {k["section"]: k for k in FIELDS["kinds"]}
# a file's entry kinds (top-level sections but `sources`) and a `ga`
# version's tables ("ga.<table>"), in the loader's order
ENTRY_SECTIONS = [k for k in KINDS if "." not in k and k != "sources"]
GA_TABLES = [k[3:] for k in KINDS if k.startswith("ga.")]
PRECS = FIELDS["precisions"]
# kinds whose entries carry a name and aliases: section -> (label, name key)
NAMED_KINDS = {"devices": ("device", "id"), "hosts": ("host", "id"), "regions": ("region", "code")}


class NoAliasLoader(yaml.SafeLoader):
    pass


def _no_alias(self, node):
    raise yaml.composer.ComposerError(None, None, "anchors/aliases are not allowed", node.start_mark)


NoAliasLoader.compose_alias_node = _no_alias  # type: ignore
# numbers as the loader reads them (YAML 1.2): PyYAML's YAML 1.1 resolver
# takes an exponent without a dot (1e-07) for a string
NoAliasLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)[eE][-+]?[0-9]+$"),
    list("-+0123456789."))

ERR = []


def err(f, msg):
    ERR.append("%s: %s" % (f, msg))


SOURCED_KEYS = {"value", "source", "year", "low", "high", "derived", "measured", "note"}


def in_range(fd, x):
    if "min" not in fd:
        return True
    lo = x > fd["min"] if fd["min_open"] else x >= fd["min"]
    hi = x < fd["max"] if fd["max_open"] else x <= fd["max"]
    return lo and hi


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def check_device_specs(f, w, rec):
    """The rules between a device's spec fields (src/hwdb/build.c
    device_spec_rules): a CPU's peaks say how they are derived, an
    fp32-accumulate rate sits beside a headline rate at most equal to it,
    an SM count and a link domain's device count are whole, the TDP lies in the power-limit range."""
    pk = rec.get("peak_tflops") or {}
    pa = rec.get("peak_tflops_acc32") or {}
    for p, v in pk.items():
        if rec.get("kind") == "cpu" and isinstance(v, dict) and not v.get("derived") and not v.get("measured"):
            err(f, "%s: peak_tflops.%s: a CPU's peak is derived: say how in 'derived'" % (w, p))
    for p, v in pa.items():
        if p not in pk:
            err(f, "%s: peak_tflops_acc32.%s without peak_tflops.%s" % (w, p, p))
        elif isinstance(v, dict) and isinstance(pk[p], dict) and v.get("value", 0) > pk[p].get("value", 0):
            err(f, "%s: peak_tflops_acc32.%s above peak_tflops.%s" % (w, p, p))
    for k in ("sm_count", "node_devices"):
        sm = rec.get(k)
        if isinstance(sm, dict) and is_num(sm.get("value")) and sm["value"] != int(sm["value"]):
            err(f, "%s: %s must be a whole number" % (w, k))
    pl, tdp = rec.get("power_limit_w"), rec.get("tdp_w")
    if isinstance(pl, dict) and isinstance(tdp, dict) and "low" in pl and "high" in pl and is_num(tdp.get("value")):
        if not pl["low"] <= tdp["value"] <= pl["high"]:
            err(f, "%s: tdp_w outside power_limit_w" % w)


def check_sourced(f, where, v, sources, kind=None, fd=None, extra_keys=()):
    if not isinstance(v, dict):
        err(f, "%s: sourced value must be a mapping" % where)
        return
    extra = set(v) - SOURCED_KEYS - set(extra_keys)
    if extra:
        err(f, "%s: unknown keys %s" % (where, sorted(extra)))
    if fd is not None:
        for x in ("value", "low", "high"):
            if x in v and is_num(v[x]) and not in_range(fd, v[x]):
                err(f, "%s.%s = %r out of range" % (where, x, v[x]))
        if fd["needs_range"] and not ("low" in v and "high" in v):
            err(f, "%s: needs low and high" % where)
        if fd["needs_how"] and "derived" not in v and "measured" not in v:
            err(f, "%s: needs derived or measured" % where)
        if fd["needs_year"] and "year" not in v:
            err(f, "%s: needs year" % where)
    if "value" not in v or "source" not in v:
        err(f, "%s: needs value and source" % where)
        return
    if not is_num(v["value"]):
        err(f, "%s: value not a number" % where)
        return
    if v["source"] not in sources:
        err(f, "%s: unknown source %r" % (where, v["source"]))
    if "derived" in v and "measured" in v:
        err(f, "%s: derived and measured both set" % where)
    lo, hi = v.get("low"), v.get("high")
    if lo is not None and lo > v["value"]:
        err(f, "%s: low > value" % where)
    if hi is not None and hi < v["value"]:
        err(f, "%s: high < value" % where)
    if kind == "util":
        for x in (v["value"], lo, hi):
            if x is not None and not (0 < x <= 1):
                err(f, "%s: utilisation out of (0,1]" % where)


def check_value(f, where, fd, v, sources, extra_keys=()):
    t = fd["type"]
    if t in ("id", "string", "device"):
        if not isinstance(v, str) or (not v and not fd.get("empty_ok")):
            err(f, "%s: expected a non-empty string" % where)
        elif "values" in fd and v not in fd["values"]:
            err(f, "%s: %r is not one of %s" % (where, v, fd["values"]))
    elif t == "strings":
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            err(f, "%s: expected a list of strings" % where)
    elif t == "enum":
        if v not in fd["values"]:
            err(f, "%s: %r is not one of %s" % (where, v, fd["values"]))
    elif t in ("int", "number"):
        if not is_num(v) or (t == "int" and not isinstance(v, int)):
            err(f, "%s: expected %s" % (where, "an integer" if t == "int" else "a number"))
        elif not in_range(fd, v):
            err(f, "%s = %r out of range" % (where, v))
    elif t == "sourced":
        check_sourced(f, where, v, sources, fd=fd, extra_keys=extra_keys)
    elif t == "source":
        if v not in sources:
            err(f, "%s: unknown source %r" % (where, v))
    elif t == "list":
        if not isinstance(v, list):
            err(f, "%s: expected a list" % where)
    elif t == "precisions":
        if not isinstance(v, dict):
            err(f, "%s: expected a mapping precision -> sourced value" % where)
            return
        for p, x in v.items():
            if p not in PRECS:
                err(f, "%s: bad precision %s" % (where, p))
            check_sourced(f, "%s.%s" % (where, p), x, sources, fd=fd)


def check_fields(f, w, entry, kind, sources):
    """An entry checked against its kind's field table (tools/hwdb_fields.json)."""
    if not isinstance(entry, dict):
        err(f, "%s: expected a mapping" % w)
        return
    rows = kind["fields"]
    tops = []
    for fd in rows:
        t = fd["key"].split(".")[0]
        if t not in tops:
            tops.append(t)
    whole = any(fd.get("entry") for fd in rows)
    extra = set(entry) - set(tops) - (SOURCED_KEYS if whole else set())
    if extra:
        err(f, "%s: unknown keys %s" % (w, sorted(extra)))
    seen = set()
    for fd in rows:
        key = fd["key"]
        if fd.get("entry"):
            # the entry's mapping is the sourced value (a `constants` entry;
            # its unknown keys are reported above)
            check_sourced(f, w, entry, sources, fd=fd, extra_keys=set(entry))
            continue
        if fd["type"] == "own":
            if fd["required"] and "." not in key and key not in entry:
                err(f, "%s: missing %s" % (w, key))
            continue
        if "." in key:
            top, sub = key.split(".", 1)
            parent = entry.get(top)
            if parent is None:
                continue
            if not isinstance(parent, dict):
                err(f, "%s.%s: expected a mapping" % (w, top))
                continue
            if not any(r["key"] == top for r in rows) and top not in seen:
                seen.add(top)
                subs = {r["key"].split(".", 1)[1] for r in rows if r["key"].startswith(top + ".")}
                if set(parent) - subs:
                    err(f, "%s.%s: unknown keys %s" % (w, top, sorted(set(parent) - subs)))
            if sub not in parent:
                if fd["required"]:
                    err(f, "%s.%s: missing %s" % (w, top, sub))
                continue
            check_value(f, "%s.%s" % (w, key), fd, parent[sub], sources)
        elif key not in entry:
            if fd["required"] and fd["type"] != "id":
                err(f, "%s: missing %s" % (w, key))
        else:
            subs = [r["key"].split(".", 1)[1] for r in rows if r["key"].startswith(key + ".")]
            check_value(f, "%s.%s" % (w, key), fd, entry[key], sources, subs)


# No constant keyed by a device or a benchmark (version) (issue #30): a
# device enters through its specs, a runtime through its profile.  A
# constant id names a device when one of its dot-, dash- or
# underscore-separated runs of words equals a device id or alias of the
# database; a fitted constant (derived/measured text "fitted to") names a
# benchmark or a version when its id has one of BENCHMARK_WORDS or a
# version token (v3, 0.5, v1.1).  A device record holds no fitted value:
# a fitted constant belongs in the constants, pooled over devices.
BENCHMARK_WORDS = ("mlperf", "mlenergy", "ml-energy", "timm", "squad", "imagenet")
VERSION_TOKEN = re.compile(r"(^|[._-])(v\d+(\.\d+)*|\d+\.\d+(\.\d+)*)($|[._-])", re.I)


def _fitted(v):
    return isinstance(v, dict) and any("fitted to" in str(v.get(k, "")).lower() for k in ("derived", "measured"))


def _names_device(cid, dev_names):
    """The device id or alias that constant id cid names, else None: any
    run of its words (split at . - _) joined back with its separators."""
    low = cid.lower()
    for n in dev_names:
        i = low.find(n)
        while i >= 0:
            j = i + len(n)
            if (i == 0 or low[i - 1] in "._-") and (j == len(low) or low[j] in "._-"):
                return n
            i = low.find(n, i + 1)
    return None


def check_keyed_constants(consts, devices):
    dev_names = set()
    for d, rec in devices.items():
        dev_names.add(str(d).lower())
        dev_names.update(str(a).lower() for a in rec.get("aliases", []) or [])
    dev_names = sorted(dev_names, key=len, reverse=True)
    for f, c in consts:
        cid = str(c.get("id", ""))
        n = _names_device(cid, dev_names)
        if n:
            err(f, "constant %s: keyed by device %r (a device enters through its specs in hwdb/devices, "
                "never through a constant's id)" % (cid, n))
        if not _fitted(c):
            continue
        low = cid.lower()
        b = [w for w in BENCHMARK_WORDS if w in low]
        if b:
            err(f, "constant %s: a fitted constant keyed by benchmark %r" % (cid, b[0]))
        m = VERSION_TOKEN.search(cid)
        if m:
            err(f, "constant %s: a fitted constant keyed by version %r" % (cid, m.group(2)))


def check_device_unfitted(f, w, rec, where=""):
    """A device record's values are its specs and measurements: a value
    fitted to calibration rows ("fitted to") is a constant keyed by the
    device."""
    for k, v in rec.items():
        at = "%s.%s" % (where, k) if where else k
        if _fitted(v):
            err(f, "%s: %s is fitted to calibration rows: a fitted constant keyed by a device (fit a pooled "
                "constant over devices instead)" % (w, at))
        elif isinstance(v, dict) and "value" not in v:
            check_device_unfitted(f, w, v, at)


def walk_sources(f, sources):
    for sid, s in sources.items():
        w = "source %s" % sid
        check_fields(f, w, s, KINDS["sources"], sources)
        if isinstance(s, dict) and "year" not in s and "date" not in s:
            err(f, "%s: needs year or date" % w)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hwdb")
    names = {}          # lower-case id/alias -> file
    devices, regions, providers, hosts = {}, {}, {}, []
    intens = []
    consts = []         # (file, constant entry)
    datasets = {}
    counts = {}
    files = []
    for dp, dn, fn in os.walk(root):
        for n in fn:
            if n.endswith(".yaml"):
                files.append(os.path.join(dp, n))
    files.sort()
    for path in files:
        f = os.path.relpath(path, root)
        raw = open(path, "rb").read()
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            err(f, "not UTF-8")
        if re.search(rb"(^|\s)!!?\w", raw):
            err(f, "tag found")
        try:
            doc = yaml.load(raw, Loader=NoAliasLoader)
        except Exception as e:  # noqa
            err(f, "parse: %s" % e)
            continue
        if not isinstance(doc, dict) or doc.get("schema") != "joulecast-hwdb/1":
            err(f, "missing schema: joulecast-hwdb/1")
            continue
        sources = doc.get("sources", {}) or {}
        walk_sources(f, sources)
        kinds = [k for k in ENTRY_SECTIONS if k in doc]
        if len(kinds) != 1:
            err(f, "needs exactly one entry kind, has %s" % kinds)
            continue
        k = kinds[0]
        extra = set(doc) - {"schema", "licence", "sources", k}
        if extra:
            err(f, "unknown top-level keys %s" % sorted(extra))
        body = doc[k]

        def reg(name, what):
            key = str(name).lower()
            if key in names:
                err(f, "duplicate id/alias %r (also in %s)" % (name, names[key]))
            names[key] = "%s (%s)" % (f, what)

        if k in NAMED_KINDS:
            counts[f] = len(body)
            label, idkey = NAMED_KINDS[k]
            for rec in body:
                w = "%s %s" % (label, rec.get(idkey))
                reg(rec[idkey], w)
                for a in rec.get("aliases", []) or []:
                    reg(a, w)
                check_fields(f, w, rec, KINDS[k], sources)
                if k == "hosts":
                    hosts.append((f, rec))
                elif k == "regions":
                    regions[rec["code"]] = rec
                else:
                    devices[rec["id"]] = rec
                    # rules between fields (src/hwdb/build.c device_rules)
                    if "tdp_w" in rec and "idle_w" in rec and not rec["idle_w"]["value"] < rec["tdp_w"]["value"]:
                        err(f, "%s: idle >= tdp" % w)
                    if "ga" in rec and "tdp_w" not in rec["ga"] and "tdp_per_core_w" not in rec["ga"]:
                        err(f, w + ": ga needs tdp_w or tdp_per_core_w")
                    check_device_specs(f, w, rec)
                    check_device_unfitted(f, w, rec)
        elif k == "intensities":
            ds = body
            check_fields(f, "intensities", ds, KINDS["intensities"], sources)
            if ds["dataset"] in datasets:
                err(f, "duplicate dataset %s" % ds["dataset"])
            datasets[ds["dataset"]] = ds["precedence"]
            counts[f] = len(ds["values"])
            seen = set()
            for v in ds["values"]:
                if "region" not in v or "value" not in v or "year" not in v:
                    err(f, "value without region/value/year: %r" % v)
                if "source" in v and v["source"] not in sources:
                    err(f, "value source unknown: %r" % v)
                if not (0 <= v["value"] < 2000):
                    err(f, "implausible intensity %r" % v)
                key = (v["region"], v["year"])
                if key in seen:
                    err(f, "duplicate value for %r" % (key,))
                seen.add(key)
                intens.append((f, v["region"]))
        elif k == "providers":
            counts[f] = len(body)
            for p in body:
                w = "provider %s" % p.get("id")
                providers[p["id"]] = p
                check_fields(f, w, p, KINDS["providers"], sources)
                for y in p.get("pue_by_year", []) or []:
                    if y["source"] not in sources:
                        err(f, w + ": unknown source in pue_by_year")
                    if not (1.0 <= y["value"] < 3):
                        err(f, w + ": PUE out of range")
        elif k == "constants":
            counts[f] = len(body)
            for c in body:
                check_fields(f, "constant %s" % c.get("id"), c, KINDS["constants"], sources)
                consts.append((f, c))
        elif k == "ga":
            g = body
            n = 0
            check_fields(f, "ga", g, KINDS["ga"], sources)
            for tab in GA_TABLES:
                for i, row in enumerate(g.get(tab, []) or []):
                    n += tab != "providers"
                    check_fields(f, "ga.%s[%d]" % (tab, i), row, KINDS["ga." + tab], sources)
                    if "source" in row and row["source"] not in sources:
                        err(f, "ga.%s row %r: unknown source" % (tab, row))
            if g.get("source") not in sources:
                err(f, "ga.source unknown")
            counts[f] = n
    check_keyed_constants(consts, devices)
    # cross references
    rnames = {}
    for c, r in regions.items():
        rnames[c.lower()] = c
        for a in r.get("aliases", []) or []:
            rnames[str(a).lower()] = c
    for f, reg_code in intens:
        if reg_code.lower() not in rnames:
            err(f, "intensity region %r not defined" % reg_code)
    for c, r in regions.items():
        if r.get("type") == "cloud":
            if r.get("grid", "").lower() not in rnames:
                err("regions", "cloud region %s: grid %r not defined" % (c, r.get("grid")))
            if r.get("provider") not in providers:
                err("regions", "cloud region %s: provider %r not in providers.yaml" % (c, r.get("provider")))
        if "country" in r and r["country"].lower() not in rnames:
            err("regions", "region %s: country %r not defined" % (c, r["country"]))
    for f, h in hosts:
        for key in ("accelerators", "cpu"):
            d = h.get(key) or {}
            if "device" in d and d["device"] not in devices:
                err(f, "host %s: device %s not defined" % (h["id"], d["device"]))
        if h.get("provider") and h["provider"] not in providers:
            err(f, "host %s: provider not defined" % h["id"])
    # GA location codes must map to regions
    for path in files:
        if "/green-algorithms/" in path:
            g = yaml.safe_load(open(path))["ga"]
            for l in g["locations"]:
                if l["code"].lower() not in rnames:
                    err(os.path.relpath(path, root), "GA location %s not a region" % l["code"])
            for d in g["datacenters"]:
                if d["location"] and d["location"].lower() not in rnames:
                    err(os.path.relpath(path, root), "GA datacenter location %s not a region" % d["location"])
    for f in sorted(counts):
        print("%6d  %s" % (counts[f], f))
    print("datasets by precedence:", ", ".join("%s=%s" % kv for kv in sorted(datasets.items(), key=lambda kv: kv[1])))
    if ERR:
        print("\n%d problem(s):" % len(ERR))
        for e in ERR[:200]:
            print("  " + e)
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
