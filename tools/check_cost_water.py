#!/usr/bin/env python3
# check_cost_water.py - the coverage of issue 45's prices and water factors
# in an hwdb directory:
#   - prices: every cloud instance of AWS, GCP and Azure has an on-demand
#     price (price.on_demand) or says why it has none (price.absent: the
#     price lists checked, from tools/hwdb_input/prices_absent.csv); one
#     line per instance with neither;
#   - water: every region with a carbon intensity (inline or in any
#     intensity dataset) has a water factor the estimate reaches - an
#     on-site WUE (the region's or its provider's fleet figure) or water per
#     kWh generated (the region's, its grid zone's or its country's, the
#     chain of src/estimate/cost.c) - or has none, which the estimate then
#     says (water n/a); every cloud region of the three providers has an
#     on-site WUE (one line per region without).
# With --sweep FILE (the JSON of `joulecast sweep` over the regions
# --regions prints): each entry's water_l is a figure exactly where this
# check finds a factor, null where it finds none (one line per mismatch).
# Exit 0 and one "OK ..." line with the counts, else 1 with a line per gap.
#
#     python3 tools/check_cost_water.py [--sweep FILE] [--regions] [HWDB_DIR]
import argparse
import glob
import json
import os
import sys

import yaml

CLOUDS = ("aws", "gcp", "azure")


def load(d):
    regs, alias, with_ci = {}, {}, set()
    for f in sorted(glob.glob(os.path.join(d, "regions", "*.yaml"))):
        y = yaml.safe_load(open(f)) or {}
        for r in y.get("regions", []):
            regs[r["code"]] = r
        for v in (y.get("intensities") or {}).get("values", []):
            with_ci.add(v["region"])
    for c, r in regs.items():
        for a in [c] + r.get("aliases", []):
            alias.setdefault(a, c)
        if r.get("intensity"):
            with_ci.add(c)
    with_ci = {alias.get(c, c) for c in with_ci}
    provs = {p["id"]: p for p in (yaml.safe_load(open(os.path.join(d, "providers.yaml"))) or {})["providers"]}
    hosts = (yaml.safe_load(open(os.path.join(d, "hosts.yaml"))) or {}).get("hosts", [])
    return regs, with_ci, provs, hosts


def water(r, regs, provs):
    """(on-site WUE found, off-site factor found) for region r."""
    on = "wue" in r or "wue" in provs.get(r.get("provider"), {})
    off = any(x is not None and "water_l_per_kwh" in x
              for x in (r, regs.get(r.get("grid")), regs.get(r.get("country"))))
    return on, off


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sweep", help="JSON of joulecast sweep over the regions --regions prints")
    ap.add_argument("--regions", action="store_true", help="print the regions with an intensity, comma-separated")
    ap.add_argument("dir", nargs="?", default="hwdb")
    a = ap.parse_args()
    regs, with_ci, provs, hosts = load(a.dir)
    known = sorted(c for c in with_ci if c in regs)
    if a.regions:
        print(",".join(known))
        return 0
    gaps = []
    inst = [h for h in hosts if h.get("kind") == "cloud-instance" and h.get("provider") in CLOUDS]
    priced = {p: 0 for p in CLOUDS}
    for h in inst:
        pr = h.get("price") or {}
        if "on_demand" in pr:
            priced[h["provider"]] += 1
        elif not pr.get("absent"):
            gaps.append("%s: no on-demand price and no price.absent saying why" % h["id"])
    has = {}
    for c in known:
        r = regs[c]
        on, off = water(r, regs, provs)
        has[c] = on or off
        if r.get("type") == "cloud" and r.get("provider") in CLOUDS and not on:
            gaps.append("%s: a cloud region without an on-site WUE (its own or %s's fleet figure)" % (c, r["provider"]))
    if a.sweep:
        entries = {e["region"]: e for e in json.load(open(a.sweep))["entries"]}
        for c in known:
            e = entries.get(c)
            if e is None:
                gaps.append("%s: not in the sweep's entries" % c)
            elif (e.get("water_l") is not None) != has[c]:
                gaps.append("%s: the sweep's water_l is %s, the hwdb has %s water factor" %
                            (c, "null" if e.get("water_l") is None else "a figure", "a" if has[c] else "no"))
    for g in gaps:
        print(g)
    if gaps:
        return 1
    n = {p: sum(1 for h in inst if h["provider"] == p) for p in CLOUDS}
    print("OK prices: %d of %d instances (aws %d/%d, azure %d/%d, gcp %d/%d), the rest say why not; "
          "water: %d of %d regions with an intensity have a water factor, %d have none (n/a)%s" %
          (sum(priced.values()), len(inst), priced["aws"], n["aws"], priced["azure"], n["azure"],
           priced["gcp"], n["gcp"], sum(has.values()), len(known), len(known) - sum(has.values()),
           "; the sweep agrees" if a.sweep else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
