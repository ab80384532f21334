#!/usr/bin/python3
"""web.py - how fast web/index.html (the WebAssembly page, make web) answers,
in real time, against the native CLI on the same estimate in the same run
(bench/run.sh's rule: ratios against a baseline, no absolute threshold).

Drives headless Chromium over the DevTools protocol (tests/web_cdp.py; no
virtual time, so the page's performance.now() is the wall clock) and
measures, REPS times each (median):
  open     loading the page from file:// until its first report is shown
           (fetching and compiling the module, parsing the embedded hwdb,
           the default estimate);
  drop     dropping models/resnet50.onnx on the page (a DragEvent carrying
           the file, as a browser sends one) until its report is shown;
  change   a changed input (batch) until the new report is shown (the
           page waits 150 ms after the last keystroke: included);
  cli      `joulecast estimate models/resnet50.onnx --device ... --html -`
           and `--json`, the two calls the page makes per update, native.
Prints a Markdown table; writes it to build/bench/web.md.
    /usr/bin/python3 bench/web.py [REPS]      (from the repository root)
"""
import gzip
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from web_cdp import Chrome  # noqa: E402  (tests/web_cdp.py)
REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
JC = os.environ.get("JC", os.path.join(ROOT, "build", "joulecast"))


# the page's result shows a command line naming `needle`: ms since t0
WAIT = """new Promise((ok, bad) => {
  const t = setInterval(() => {
    const pre = document.getElementById('result');
    if (pre && (pre.dataset.command || '').indexOf(%s) >= 0) { clearInterval(t); ok(performance.now() - %s); }
  }, 2);
  setTimeout(() => { clearInterval(t); bad(new Error('no report within 30 s')); }, 30000);
})"""

DROP = """(async () => {
  const blob = await (await fetch(%s)).blob();
  const dt = new DataTransfer();
  dt.items.add(new File([blob], 'resnet50.onnx'));
  window.__t0 = performance.now();
  document.getElementById('drop').dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
  return 0;
})()"""

CHANGE = """(() => {
  const b = document.getElementById('batch');
  b.value = %s;
  window.__t0 = performance.now();
  b.dispatchEvent(new Event('input', {bubbles: true}));
  return 0;
})()"""


def page_runs(c, url):
    opens, drops, changes = [], [], []
    for i in range(REPS):
        t0 = time.perf_counter()
        c.call("Page.navigate", url=url)
        c.js(WAIT % (json.dumps("--device"), "0"))
        opens.append((time.perf_counter() - t0) * 1000)
        c.js(DROP % json.dumps("file://" + os.path.join(ROOT, "models", "resnet50.onnx")))
        drops.append(c.js(WAIT % (json.dumps("input/resnet50.onnx"), "window.__t0")))
        c.js(CHANGE % json.dumps(str(16 + i)))
        changes.append(c.js(WAIT % (json.dumps("--batch %d" % (16 + i)), "window.__t0")))
    return opens, drops, changes


def cli_runs(device):
    runs = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        for fmt in (["--html", "-"], ["--json"]):
            subprocess.run([JC, "estimate", "models/resnet50.onnx", "--device", device] + fmt,
                           cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        runs.append((time.perf_counter() - t0) * 1000)
    return runs


def main():
    if not os.path.exists(os.path.join(ROOT, "web", "joulecast.wasm")):
        sys.exit("bench/web.py: run make web first")
    device = "a100"
    url = "file://" + os.path.join(ROOT, "web", "index.html") + "?json=1&device=" + device
    c = Chrome(files=True)   # the bench fetches the model file it drops
    try:
        opens, drops, changes = page_runs(c, url)
    finally:
        c.close()
    cli = cli_runs(device)
    med = statistics.median
    base = med(cli)
    rows = [("open the page from disk until the first report", opens),
            ("drop models/resnet50.onnx until its report", drops),
            ("change the batch until the new report (150 ms debounce included)", changes),
            ("native CLI: estimate --html - and --json (baseline)", cli)]
    out = [f"| web page, headless Chromium (median of {REPS}) | ms | min-max | vs native CLI |",
           "|---|---:|---:|---:|"]
    for name, v in rows:
        out.append(f"| {name} | {med(v):.0f} | {min(v):.0f}-{max(v):.0f} | {med(v) / base:.1f}x |")
    sizes = []
    for f in ("joulecast.wasm", "joulecast.js", "joulecast-wasm.js", "index.html", "app.js", "app.css"):
        p = os.path.join(ROOT, "web", f)
        raw = open(p, "rb").read()
        sizes.append((f, len(raw), len(gzip.compress(raw, 9))))
    out.append("")
    out.append("| file | bytes | gzip -9 |")
    out.append("|---|---:|---:|")
    for f, n, g in sizes:
        out.append(f"| web/{f} | {n} | {g} |")
    out.append(f"| all | {sum(s[1] for s in sizes)} | {sum(s[2] for s in sizes)} |")
    text = "\n".join(out) + "\n"
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    open(os.path.join(ROOT, "build", "bench", "web.md"), "w").write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
