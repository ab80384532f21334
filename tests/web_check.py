#!/usr/bin/python3
"""web_check.py - checks what web/index.html (the WebAssembly page) wrote
against the CLI (used by tests/web.sh; standard library only).

    web_check.py json DOM.html CLI_DIR JOULECAST [KEY=VALUE ...]
        DOM.html is the page's DOM after a ?...&json=1 load: its
        <pre id="result"> holds the library's JSON and data-command the
        command line the page offers for it.  The command is run in
        CLI_DIR (which holds models/ and configs/ as the page's files are
        named) with --json; the two documents must be equal, every number
        and every string.  Each KEY=VALUE must appear in the command line
        as --KEY VALUE (model=: a positional file), so the page ran the
        request its URL asked for.
    web_check.py shot DOM.html
        the default view's DOM: the report (in its shadow root, which
        --dump-dom leaves out) counted its cards and SVG charts on the
        #report element; at least 4 cards and 1 chart.
    web_check.py refused DOM.html STATUS CLI_DIR JOULECAST ARG...
        a request the library refuses: the page's <pre id="result"> holds
        its envelope with data-status STATUS, and its message is the one
        `joulecast ARG...` (run in CLI_DIR) prints after "joulecast: ",
        with the same exit status (the sweep's point cap of issue 43
        item 6, at the default cap and at --max-points).
    web_check.py seeded DOM.html CLI_DIR JOULECAST PYTHON
        issue 45 item 2: the Monte Carlo percentiles are reproducible with
        a seed across the front ends.  DOM.html is the page's answer to
        the README's ResNet-50, 90 epochs on 8 x A100 job with --draws 2000
        --seed 11 (SEEDED_JOB below); its command line must hold those
        options; the CLI runs it (in CLI_DIR, --json) and PYTHON runs the
        same job through the Python binding (joulecast.estimate, in
        CLI_DIR); p5, p50 and p95 of the emissions, the facility energy
        and the wall time, the draws and the seed must be identical in
        the three, and the percentiles ordered.
    web_check.py png SHOT.png
        the screenshot of the same view: the report's chart colours
        (the energy bars' --dyn #1f6feb, --host #f0a030) are painted, and
        the cards' white on the page's grey, in the report's column.
Exits 0 with a one-line summary, or 1 naming every difference.
"""
import html
import json
import re
import shlex
import subprocess
import sys


def result(dom):
    m = re.search(r'<pre id="result"([^>]*)>(.*?)</pre>', dom, re.S)
    if not m:
        sys.exit("no <pre id=\"result\"> in the page (did the module load?)")
    attrs = dict((k, html.unescape(v)) for k, v in re.findall(r'([\w-]+)="([^"]*)"', m.group(1)))
    return attrs, html.unescape(m.group(2))


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in the {'CLI' if k in b else 'page'}")
            else:
                diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items on the page, {len(b)} from the CLI")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}.{i}", out)
    elif a != b or type(a) is not type(b) and not (
            isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool)):
        out.append(f"{path}: page {a!r}, CLI {b!r}")


def check_json(dom_path, cli_dir, jc, wants):
    attrs, text = result(open(dom_path, encoding="utf-8").read())
    if attrs.get("data-status") != "0":
        sys.exit(f"the page's request failed: {text[:400]}")
    page = json.loads(text)
    cmd = shlex.split(attrs.get("data-command", ""))
    if cmd[:1] != ["joulecast"] or len(cmd) < 2:
        sys.exit(f"no command line on the result: {attrs.get('data-command')!r}")
    problems = []
    for w in wants:
        k, v = w.split("=", 1)
        if k == "model":
            if v not in cmd:
                problems.append(f"the command has no model {v}")
        elif not any(cmd[i] == "--" + k and cmd[i + 1] == v for i in range(len(cmd) - 1)):
            problems.append(f"the command has no --{k} {v}")
    run = subprocess.run([jc] + cmd[1:] + ["--json"], cwd=cli_dir, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the CLI refused the page's command ({run.returncode}): {run.stderr[:400]}")
    diff(page, json.loads(run.stdout), "$", problems)
    if problems:
        print(f"{len(problems)} differences between the page and `{' '.join(cmd)} --json`:")
        for p in problems[:30]:
            print("  " + p)
        sys.exit(1)
    print(f"the page's JSON equals `{' '.join(cmd)} --json`")


def check_refused(dom_path, status, cli_dir, jc, args):
    attrs, text = result(open(dom_path, encoding="utf-8").read())
    if attrs.get("data-status") != status:
        sys.exit(f"the page answered status {attrs.get('data-status')!r}, want {status}: {text[:400]}")
    page = json.loads(text)
    run = subprocess.run([jc] + args, cwd=cli_dir, capture_output=True, text=True)
    cli = run.stderr.split("\n", 1)[0]
    if str(run.returncode) != status:
        sys.exit(f"the CLI exits {run.returncode}, want {status}: {cli[:400]}")
    if "joulecast: " + page.get("message", "") != cli:
        sys.exit(f"the page says {page.get('message')!r}, the CLI {cli!r}")
    print(f"refused as the CLI refuses it (exit {status}): {cli[:160]}")


SEEDED_JOB = {"model": "models/resnet50.onnx", "device": "a100", "count": 8, "region": "US-CA",
              "train": {"samples": 1281167, "epochs": 90, "batch": 256}, "draws": 2000, "seed": 11}
SEEDED_PY = """import json, sys, joulecast
job = json.loads(sys.argv[1])
print(json.dumps(joulecast.estimate(job.pop("model"), **job)["montecarlo"]))
"""


def check_seeded(dom_path, cli_dir, jc, python):
    attrs, text = result(open(dom_path, encoding="utf-8").read())
    if attrs.get("data-status") != "0":
        sys.exit(f"the page's request failed: {text[:400]}")
    cmd = shlex.split(attrs.get("data-command", ""))
    want = {"--samples": "1281167", "--epochs": "90", "--batch": "256", "--device": "a100", "--count": "8",
            "--region": "US-CA", "--draws": "2000", "--seed": "11"}
    missing = [f"{k} {v}" for k, v in want.items()
               if not any(cmd[i] == k and cmd[i + 1] == v for i in range(len(cmd) - 1))]
    if missing or "models/resnet50.onnx" not in cmd:
        sys.exit(f"the page's command {' '.join(cmd)!r} lacks: {', '.join(missing) or 'the model'}")
    run = subprocess.run([jc] + cmd[1:] + ["--json"], cwd=cli_dir, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the CLI refused the page's command ({run.returncode}): {run.stderr[:400]}")
    py = subprocess.run([python, "-c", SEEDED_PY, json.dumps(SEEDED_JOB)], cwd=cli_dir, capture_output=True,
                        text=True)
    if py.returncode != 0:
        sys.exit(f"the Python binding failed ({py.returncode}): {py.stderr[-400:]}")
    got = {"page": json.loads(text).get("montecarlo"), "CLI": json.loads(run.stdout).get("montecarlo"),
           "Python": json.loads(py.stdout)}
    problems = [f"no montecarlo object from the {k}" for k, v in got.items() if not isinstance(v, dict)]
    if problems:
        sys.exit("; ".join(problems))
    for fig in ("co2_kg", "energy_facility_kwh", "wall_hours"):
        for p in ("p5", "p50", "p95"):
            vals = {k: v.get(fig, {}).get(p) for k, v in got.items()}
            if not isinstance(vals["CLI"], float) or len(set(vals.values())) != 1:
                problems.append(f"{fig}.{p}: " + ", ".join(f"{k} {v!r}" for k, v in vals.items()))
        c = got["CLI"].get(fig, {})
        if not c.get("p5", 1) <= c.get("p50", 0) <= c.get("p95", -1):
            problems.append(f"{fig}: p5 <= p50 <= p95 does not hold: {c}")
    for k in ("draws", "seed"):
        if {v.get(k) for v in got.values()} != {SEEDED_JOB[k]}:
            problems.append(f"{k}: " + ", ".join(f"{n} {v.get(k)!r}" for n, v in got.items()))
    if problems:
        print(f"{len(problems)} differences between the page, the CLI and the Python binding:")
        for p in problems:
            print("  " + p)
        sys.exit(1)
    m = got["CLI"]["co2_kg"]
    print(f"page, CLI and Python: the same p5/p50/p95 of 3 figures at seed 11 (emissions {m['p5']!r} "
          f"{m['p50']!r} {m['p95']!r} kgCO2e)")


def check_shot(dom_path):
    dom = open(dom_path, encoding="utf-8").read()
    problems = []
    m = re.search(r'<div id="report"[^>]*>', dom)
    tag = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(0))) if m else {}
    cards, charts = int(tag.get("data-cards", 0)), int(tag.get("data-charts", 0))
    if cards < 4:
        problems.append(f"{cards} report cards, 4 expected")
    if charts < 1:
        problems.append("no SVG chart in the report")
    if 'id="status" role="status" aria-live="polite" class=""' not in dom:
        m = re.search(r'<p id="status"[^>]*>([^<]*)', dom)
        problems.append("the status is not a finished estimate: " + (m.group(1) if m else "?"))
    if problems:
        print("; ".join(problems))
        sys.exit(1)
    print(f"{cards} cards and {charts} charts in the report")


def check_png(png_path):
    from PIL import Image  # python3-pil (make deps: python3-torchvision's dependency)
    img = Image.open(png_path).convert("RGB")
    w, h = img.size
    img = img.crop((400, 0, w, h))   # the report's column (the form is the first 376 px)
    counts = {}
    for px in img.getdata():
        counts[px] = counts.get(px, 0) + 1
    want = {"dyn bars #1f6feb": (0x1f, 0x6f, 0xeb), "host bars #f0a030": (0xf0, 0xa0, 0x30),
            "cards #ffffff": (0xff, 0xff, 0xff), "page #f4f6f8": (0xf4, 0xf6, 0xf8)}
    problems = [f"no {name} pixels" for name, c in want.items() if counts.get(c, 0) < 200]
    if problems:
        print(f"{png_path} ({w}x{h}): " + "; ".join(problems))
        sys.exit(1)
    print(f"{png_path} ({w}x{h}): " + ", ".join(f"{counts[c]} {n.split()[0]}" for n, c in want.items()))


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "json":
        check_json(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) >= 6 and sys.argv[1] == "refused":
        check_refused(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:])
    elif len(sys.argv) == 6 and sys.argv[1] == "seeded":
        check_seeded(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5])
    elif len(sys.argv) == 3 and sys.argv[1] == "png":
        check_png(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "shot":
        check_shot(sys.argv[2])
    else:
        sys.exit(__doc__)
