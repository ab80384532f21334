#!/usr/bin/python3
"""web_interact.py - the page (web/index.html, make web) used by keyboard in
headless Chromium over the DevTools protocol (tests/web_cdp.py), checked
against the CLI (a layer of tests/web.sh; standard library only).

    web_interact.py JOULECAST CLI_DIR

Loads the page from disk with a training estimate's URL parameters (json=1;
training: the Hugging Face block describes training, and refuses inference),
presses each download button by the keyboard (focus, then Enter, as a
keyboard user does), captures the file each one hands to the browser, and
checks: the JSON is the document shown in <pre id="result">; the three
statements (Markdown, LaTeX, Hugging Face co2_eq_emissions) equal
`joulecast statement ... --format F` for the page's command line, run in
CLI_DIR; the command file is that command line.  Every control of the
form and every button has a name in the browser's accessibility tree (what
a screen reader announces; web/a11y-names).  Then it types a new
batch size into the form (Tab to the field, keys as typed) and checks the
report follows: the page's JSON for the new command line equals the
CLI's.  No console error.  Prints PASS/FAIL lines web/downloads-*,
web/a11y-names, web/live-update.
"""
import json
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from web_cdp import Chrome  # noqa: E402

ROOT = os.path.dirname(HERE)
QUERY = ("model=models/resnet18.onnx&mode=training&samples=50000&epochs=2&batch=64&device=h100"
         "&count=8&region=US-CA&json=1")

# every download the page starts, kept as [file name, text]
HOOK = """(() => {
  window.__dl = [];
  HTMLAnchorElement.prototype.click = function () {
    const name = this.download;
    fetch(this.href).then((r) => r.text()).then((t) => window.__dl.push([name, t]));
  };
  return document.querySelectorAll('[data-dl]').length;
})()"""


def wait(c, expr, what, limit=30):
    t0 = time.time()
    while time.time() - t0 < limit:
        v = c.js(expr)
        if v:
            return v
        time.sleep(0.05)
    raise RuntimeError("timed out waiting for " + what)


def press(c, selector):
    """Focuses the element and presses Enter on it (real key events)."""
    c.js(f"document.querySelector({json.dumps(selector)}).focus()")
    for t in ("rawKeyDown", "char", "keyUp"):
        ev = {"type": t, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13}
        if t == "char":
            ev["text"] = "\r"
        c.call("Input.dispatchKeyEvent", **ev)


def main():
    jc, cli_dir = sys.argv[1], sys.argv[2]
    c = Chrome()
    results = []
    try:
        c.call("Page.navigate", url="file://" + os.path.join(ROOT, "web", "index.html") + "?" + QUERY)
        wait(c, "(document.getElementById('result') || {dataset: {}}).dataset.command", "the estimate")
        page_json = c.js("document.getElementById('result').textContent")
        command = c.js("document.getElementById('result').dataset.command")
        n = c.js(HOOK)
        kinds = ["json", "markdown", "latex", "hf", "command"]
        for k in kinds:
            press(c, f'[data-dl="{k}"]')
        got = wait(c, f"window.__dl.length >= {len(kinds)} && window.__dl", "the downloads")
        files = {name: text for name, text in got}
        argv = shlex.split(command)

        def check(name, ok, why):
            results.append(("PASS" if ok else "FAIL") + " web/downloads-" + name + ("" if ok else ": " + why))

        check("buttons", n == len(kinds), f"{n} download buttons, {len(kinds)} expected")
        j = files.get("joulecast-estimate.json")
        check("json", j is not None and json.loads(j) == json.loads(page_json),
              "no joulecast-estimate.json" if j is None else "differs from the page's JSON")
        for fmt, name in (("markdown", "joulecast-statement.md"), ("latex", "joulecast-statement.tex"),
                          ("hf", "joulecast-statement.yaml")):
            run = subprocess.run([jc, "statement"] + argv[2:] + ["--format", fmt], cwd=cli_dir,
                                 capture_output=True, text=True)
            want = run.stdout if run.returncode == 0 else None
            have = files.get(name)
            why = (f"the CLI refused: {run.stderr[:200]}" if want is None else
                   f"no {name}" if have is None else
                   f"differs from `joulecast statement ... --format {fmt}`: page {have[:160]!r}, CLI {want[:160]!r}")
            check(fmt, want is not None and have is not None and have == want, why)
        cmd = files.get("joulecast-command.sh")
        check("command", cmd is not None and cmd.strip() == command,
              f"command file {cmd!r}, the page's command {command!r}")
        # what a screen reader announces: every control has a name
        tree = c.call("Accessibility.getFullAXTree")["nodes"]
        roles = {"textbox", "combobox", "button", "radio", "listbox", "spinbutton", "checkbox"}
        unnamed, named = [], 0
        for node in tree:
            role = node.get("role", {}).get("value")
            if node.get("ignored") or role not in roles:
                continue
            if (node.get("name", {}).get("value") or "").strip():
                named += 1
            else:
                unnamed.append(role)
        results.append(f"FAIL web/a11y-names: {len(unnamed)} controls without a name: {unnamed[:10]}"
                       if unnamed or named < 20 else "PASS web/a11y-names")
        # the report follows the form: type 128 into the batch field
        c.js("(() => { const b = document.getElementById('batch'); b.focus(); b.select(); })()")
        c.call("Input.insertText", text="128")
        new = wait(c, "(() => { const c = document.getElementById('result').dataset.command;"
                      " return c.indexOf('--batch 128') >= 0 && c; })()", "the updated report")
        run = subprocess.run([jc] + shlex.split(new)[1:] + ["--json"], cwd=cli_dir, capture_output=True, text=True)
        doc = json.loads(c.js("document.getElementById('result').textContent"))
        check_live = run.returncode == 0 and json.loads(run.stdout) == doc
        results.append("PASS web/live-update" if check_live else
                       f"FAIL web/live-update: after typing batch 128 the page's JSON differs from `{new} --json`"
                       f" ({run.stderr[:200]})")
        check("console", not c.errors, "; ".join(c.errors)[:300])
    except Exception as e:  # a page that never answers fails every case, named
        results.append(f"FAIL web/downloads: {e}")
    finally:
        c.close()
    print("\n".join(results))


if __name__ == "__main__":
    main()
