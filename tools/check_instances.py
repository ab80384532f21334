#!/usr/bin/env python3
# check_instances.py - the cloud instance catalogue's completeness (issue 42):
# counts the cloud-instance hosts of an hwdb directory by provider and lists
# every instance CPU (cpu.device) that lacks a power figure (tdp_w) or a
# dense peak (peak_tflops) or its L3 (l3_mb, issue 42 item 3), and every
# CPU-only instance whose CPU is not a device, and every accelerator an
# instance holds (accelerators.device) that is not a device or has no power
# figure (tdp_w): without one its instances need --avg-power.  Exit 0 and "OK N instances"
# when all have the three and there are at least --min instances; else 1
# with one line per gap.
#
#     python3 tools/check_instances.py [--min 300] [HWDB_DIR]
import argparse
import glob
import os
import sys

import yaml


def load(d):
    devs, hosts = {}, []
    for f in sorted(glob.glob(os.path.join(d, "devices", "*.yaml"))):
        for e in (yaml.safe_load(open(f)) or {}).get("devices", []):
            devs[e["id"]] = e
    hosts = (yaml.safe_load(open(os.path.join(d, "hosts.yaml"))) or {}).get("hosts", [])
    return devs, hosts


def accelerator_gaps(h, devs):
    """One line per accelerator of instance h that is unknown or has no tdp_w."""
    acc = h.get("accelerators") or []
    out = []
    for a in acc if isinstance(acc, list) else [acc]:
        d = devs.get(a.get("device"))
        if d is None:
            out.append("%s: accelerator %s is not a device" % (h["id"], a.get("device")))
        elif "tdp_w" not in d:
            out.append("%s: accelerator %s has no power figure (tdp_w)" % (h["id"], a["device"]))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=int, default=300)
    ap.add_argument("dir", nargs="?", default="hwdb")
    a = ap.parse_args()
    devs, hosts = load(a.dir)
    inst = [h for h in hosts if h.get("kind") == "cloud-instance"]
    gaps = []
    for h in inst:
        gaps += accelerator_gaps(h, devs)
        cpu = (h.get("cpu") or {}).get("device")
        if not cpu:
            if not h.get("accelerators"):
                gaps.append("%s: a CPU-only instance without cpu.device" % h["id"])
            continue
        d = devs.get(cpu)
        if d is None:
            gaps.append("%s: cpu.device %s is not a device" % (h["id"], cpu))
            continue
        if "tdp_w" not in d:
            gaps.append("%s: CPU %s has no power figure (tdp_w)" % (h["id"], cpu))
        if not d.get("peak_tflops"):
            gaps.append("%s: CPU %s has no dense peak (peak_tflops)" % (h["id"], cpu))
        if "l3_mb" not in d:
            gaps.append("%s: CPU %s has no L3 (l3_mb)" % (h["id"], cpu))
    by = {}
    for h in inst:
        by[h["provider"]] = by.get(h["provider"], 0) + 1
    for g in gaps:
        print(g)
    if len(inst) < a.min:
        print("%d cloud instances, fewer than %d" % (len(inst), a.min))
        return 1
    if gaps:
        return 1
    print("OK %d instances (%s)" % (len(inst), ", ".join("%s %d" % kv for kv in sorted(by.items()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
