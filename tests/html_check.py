#!/usr/bin/python3
"""html_check.py - checks a DOM that headless Chromium rendered from a
joulecast HTML report against the JSON output of the same command (used by
tests/html.sh; standard library only).

    html_check.py estimate|estimate-sensitivity|estimate-measured|serving|compare|compare-generate|sweep DOM.html REPORT.json

Every element with data-key / data-value must name a path of the JSON
("results.energy_facility_kwh.central", "nodes.3.energy_j") whose number
equals data-value: the HTML prints %.17g, cJSON prints 15 significant
digits when they are within its epsilon, so the two must agree to a
relative 1e-14 (the rounding of 15 digits is at most 5e-15).  The
report kind decides which charts and which figures must be present.  Exits
0 with a one-line summary, or 1 with every problem found.
"""
import json
import sys
from html.parser import HTMLParser


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.figures = []      # (key, value string)
        self.svg_classes = []  # class attribute of every <svg>
        self.front = 0         # <circle class="front">
        self.scripts = 0
        self.external = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-key" in a:
            self.figures.append((a["data-key"], a.get("data-value")))
        if tag == "svg":
            self.svg_classes.append(a.get("class") or "")
        if tag == "circle" and a.get("class") == "front":
            self.front += 1
        if tag == "script":
            self.scripts += 1
        for k in ("src", "href"):
            v = (a.get(k) or "").strip().lower()
            if v.startswith(("http:", "https:", "//", "ftp:")):
                self.external.append(f"<{tag} {k}={v}>")


def resolve(doc, path):
    cur = doc
    for part in path.split("."):
        if isinstance(cur, list):
            if not part.isdigit() or int(part) >= len(cur):
                raise KeyError(path)
            cur = cur[int(part)]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            raise KeyError(path)
    if isinstance(cur, bool) or not isinstance(cur, (int, float)):
        raise KeyError(path + " (not a number)")
    return float(cur)


def main():
    kind, dom_path, json_path = sys.argv[1:4]
    with open(dom_path, encoding="utf-8") as f:
        dom = Dom()
        dom.feed(f.read())
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    problems = []
    keys = set()
    for key, val in dom.figures:
        keys.add(key)
        try:
            want = resolve(doc, key)
        except KeyError as e:
            problems.append(f"data-key {e} is not a number of the JSON")
            continue
        try:
            got = float(val)
        except (TypeError, ValueError):
            problems.append(f"data-key {key}: data-value {val!r} is not a number")
            continue
        if not abs(got - want) <= 1e-14 * abs(want):
            problems.append(f"{key}: HTML {got!r} != JSON {want!r}")
    if dom.scripts:
        problems.append(f"{dom.scripts} <script> element(s): the report must have none")
    problems += [f"external resource {x}" for x in dom.external]

    def need_chart(cls, n=1):
        have = sum(1 for c in dom.svg_classes if cls in c.split())
        if have < n:
            problems.append(f"{have} <svg class='... {cls}'> chart(s), expected at least {n}")

    def need_keys(ks):
        for k in ks:
            if k not in keys:
                problems.append(f"no figure with data-key {k}")

    if kind == "estimate-sensitivity":   # --sensitivity: the tornado chart and every row's swing (issue 45)
        need_chart("tornado")
        rows = doc.get("sensitivity") or []
        if not rows:
            problems.append("the JSON has no sensitivity table")
        need_keys([f"sensitivity.{i}.co2_kg.{k}" for i in range(len(rows)) for k in ("at_low", "at_high", "swing")])
        kind = "estimate"
    if kind == "estimate-measured":   # estimate --measured: the trace chart and the prediction beside it
        need_chart("trace")
        need_keys(["measured.predicted_device_kwh", "measured.predicted_hours", "measured.hours"])
        kind = "estimate"
    if kind == "estimate":
        need_chart("stack")
        need_chart("ranges")
        need_chart("hbars", 2)   # emissions by component, energy per node
        need_keys([f"results.{r}.{e}" for r in ("energy_facility_kwh", "co2_location_kg", "wall_hours",
                                                 "device_hours") for e in ("low", "central", "high")])
        need_keys([f"results.{r}.central" for r in ("energy_dynamic_kwh", "energy_idle_kwh", "energy_host_kwh",
                                                    "energy_it_kwh", "energy_device_kwh")])
        if not doc.get("nodes"):
            problems.append("the JSON has no nodes: --html must turn --per-node on")
        need_keys([f"nodes.{i}.energy_j" for i in range(len(doc.get("nodes", [])))])
        need_keys([f"assumptions.{i}.value.central" for i in range(len(doc.get("assumptions", [])))])
    elif kind == "serving":   # estimate --generate: the serving figures, power by phase, memory, decode step
        need_chart("ranges")
        need_chart("stack", 2)   # one request's prefill/decode split, the workload's energy split
        need_chart("hbars", 4)   # power by phase, memory, decode step, emissions by component
        need_keys([f"results.{r}.{e}" for r in ("ttft_s", "itl_s", "tokens_per_s", "tokens_per_s_per_device",
                                                 "tokens_per_s_per_sequence", "j_per_output_token",
                                                 "j_per_output_token_device", "j_per_request",
                                                 "power_prefill_w_per_device", "power_decode_w_per_device",
                                                 "energy_facility_kwh", "co2_location_kg")
                   for e in ("low", "central", "high")])
        need_keys(["results.prefill_energy_share", "results.avg_power_w_per_device.central"])
        need_keys([f"results.{r}.central" for r in ("energy_device_kwh", "energy_host_kwh", "energy_it_kwh")])
        need_keys([f"serving.{k}" for k in ("weight_bytes", "kv_bytes", "kv_bytes_per_token", "concurrency",
                                            "concurrency_asked", "memory_per_device_bytes",
                                            "memory_capacity_bytes", "requests", "tp")])
        steps = doc.get("serving", {}).get("decode_step_nodes", [])
        if not steps:
            problems.append("the JSON has no serving.decode_step_nodes: --html must turn --per-node on")
        need_keys([f"serving.decode_step_nodes.{i}.time_s" for i in range(len(steps))])
        need_keys([f"assumptions.{i}.value.central" for i in range(len(doc.get("assumptions", [])))])
        if doc.get("mode") != "generation":
            problems.append(f"JSON mode {doc.get('mode')!r}, expected generation")
    elif kind == "compare":
        need_chart("hbars", 6)
        models = doc.get("models", [])
        if len(models) < 2:
            problems.append("fewer than 2 models in the JSON")
        for i in range(len(models)):
            need_keys([f"models.{i}.{k}.central" for k in ("wall_hours", "energy_kwh", "co2_kg")])
            need_keys([f"models.{i}.macs", f"models.{i}.params"])
            if i:
                need_keys([f"models.{i}.ratio.{k}" for k in ("energy_kwh", "co2_kg")])
    elif kind == "compare-generate":   # compare --generate: the serving figures of each model
        need_chart("hbars", 7)
        models = doc.get("models", [])
        if len(models) < 2:
            problems.append("fewer than 2 models in the JSON")
        if doc.get("mode") != "generation":
            problems.append(f"JSON mode {doc.get('mode')!r}, expected generation")
        serving = ("ttft_s", "itl_s", "tokens_per_s_per_device", "j_per_output_token_device", "j_per_output_token",
                   "j_per_request", "energy_kwh", "co2_kg")
        for i in range(len(models)):
            need_keys([f"models.{i}.{k}.central" for k in serving])
            need_keys([f"models.{i}.{k}" for k in ("params", "devices", "tp", "concurrency")])
            if i:
                need_keys([f"models.{i}.ratio.{k}" for k in serving])
    elif kind == "sweep":
        need_chart("scatter")
        need_keys(["grid.points", "grid.estimated", "grid.pareto", "grid.skipped_points",
                   "entries.0.co2_kg.central"])
        front = [i for i, e in enumerate(doc.get("entries", [])) if e.get("pareto")]
        if dom.front != len(front) or len(front) != doc["grid"]["pareto"]:
            problems.append(f"{dom.front} Pareto points drawn, the JSON marks {len(front)} "
                            f"(grid.pareto {doc['grid']['pareto']})")
        need_keys([f"entries.{i}.co2_kg.central" for i in front])
        if doc["grid"]["estimated"] + doc["grid"]["skipped_points"] + doc["grid"].get("unsold_points", 0) != doc["grid"]["points"]:
            problems.append("grid: estimated + skipped_points + unsold_points != points")
    else:
        problems.append(f"unknown report kind {kind}")

    if len(dom.figures) < 20:
        problems.append(f"only {len(dom.figures)} figures carry data-key")
    if problems:
        print("; ".join(problems[:12]) + (f" ... and {len(problems) - 12} more" if len(problems) > 12 else ""))
        return 1
    print(f"{len(dom.figures)} figures equal the JSON, {len(dom.svg_classes)} SVG charts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
