#!/usr/bin/python3
"""web_person.py - the page (web/index.html, make web) used as a person uses
it, in headless Chromium over the DevTools protocol (tests/web_cdp.py): a
layer of tests/web.sh; standard library and python3-pil only.

    web_person.py JOULECAST SHOTS_DIR

Every control is worked by real input events: the mouse clicks radios,
buttons and list entries (Ctrl+click for a second model), the keyboard
moves a <select> (focus, arrow keys, as a keyboard user does) and types
into fields, a file is dragged onto the drop zone (Input.dispatchDragEvent
with the file, as the browser's own drag) or picked in the file chooser the
drop zone opens.  The page is opened with json=1 only (it then also writes
the library's JSON into <pre id="result">), never with a request in its
URL.  Each scenario (a model source in each mode, both comparisons, a
dropped and a chosen file, a pasted config, an error and its repair):

  - the page answered without an error banner, and its JSON equals the
    CLI's for the command line the page offers (every number and string;
    run in a folder that names files as the page does);
  - the command line holds the options the controls set;
  - a screenshot, SHOTS_DIR/NAME.png, shows no error banner (no pixel of
    the page's error red, #b42318, in the result's column); the error
    scenario's screenshot must show one (the check can fail);
  - no console error.

Also: every id pre-filled in a field with a picker (device, region, the
devices to compare) is one of the picker's entries, which the page fills
from the library's own listings (`joulecast hw list`, `region list`); the
default view opens on what sets the time, with the levers of its largest
share, and device-hours in hours.
Prints PASS/FAIL lines web/person-NAME.
"""
import base64
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from web_cdp import Chrome  # noqa: E402
from web_check import diff  # noqa: E402

ROOT = os.path.dirname(HERE)
PAGE = "file://" + os.path.join(ROOT, "web", "index.html") + "?json=1"
ERR_RED = (0xb4, 0x23, 0x18)   # web/app.css --err: the error banner's text
CTRL = 2                       # CDP modifier bit of Ctrl


class Page:
    """The page in one browser tab, worked by input events."""

    def __init__(self, c):
        self.c = c

    def js(self, expr):
        return self.c.js(expr)

    def q(self, sel):
        return "document.querySelector(%s)" % json.dumps(sel)

    def settle(self, before, limit=60):
        """Waits until the page answered after `before` answers, and no
        update is pending (its 150 ms debounce)."""
        t0 = time.time()
        while time.time() - t0 < limit:
            st = self.js("[Number(document.body.dataset.answers || 0), !!document.body.dataset.pending]")
            if st[0] > before and not st[1]:
                time.sleep(0.05)
                st2 = self.js("[Number(document.body.dataset.answers || 0), !!document.body.dataset.pending]")
                if st2 == st:
                    return
            time.sleep(0.05)
        raise RuntimeError("the page did not answer within %d s" % limit)

    def answers(self):
        return self.js("Number(document.body.dataset.answers || 0)")

    def open(self):
        self.c.errors = []
        self.c.call("Emulation.setDeviceMetricsOverride", width=1400, height=1100, deviceScaleFactor=1,
                    mobile=False)
        self.js("window.__old = 1")
        self.c.call("Page.navigate", url=PAGE)
        t0 = time.time()
        while self.js("!!window.__old || !document.body"):
            if time.time() - t0 > 30:
                raise RuntimeError("the page did not load")
            time.sleep(0.05)
        self.settle(0)

    def center(self, sel):
        r = self.js("(() => { const e = %s; e.scrollIntoView({block: 'center'});"
                    " const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
                    % self.q(sel))
        return r

    def click_at(self, x, y, modifiers=0):
        for t in ("mouseMoved", "mousePressed", "mouseReleased"):
            ev = {"type": t, "x": x, "y": y, "modifiers": modifiers}
            if t != "mouseMoved":
                ev.update(button="left", clickCount=1)
            self.c.call("Input.dispatchMouseEvent", **ev)

    def click(self, sel, modifiers=0):
        """A mouse click in the middle of the element."""
        n = self.answers()
        x, y = self.center(sel)
        self.click_at(x, y, modifiers)
        return n

    def source(self, value):
        """Clicks the model source's radio button."""
        self.settle(self.click("input[name=source][value=%s]" % value))

    def key(self, key, code=None, vk=0, modifiers=0, commands=None):
        for t in ("rawKeyDown", "keyUp"):
            ev = {"type": t, "key": key, "code": code or key, "windowsVirtualKeyCode": vk, "modifiers": modifiers}
            if commands and t == "rawKeyDown":
                ev["commands"] = commands
            self.c.call("Input.dispatchKeyEvent", **ev)

    def type(self, sel, text):
        """Clicks into a field, selects what it holds (Ctrl+A) and types text
        over it."""
        n = self.click(sel)
        self.key("a", "KeyA", 65, CTRL, ["selectAll"])
        if text:
            self.c.call("Input.insertText", text=text)
        else:
            self.key("Delete", "Delete", 46)
        self.settle(n)

    def choose(self, sel, value):
        """Moves a <select> to value by the keyboard: focus, then arrow keys
        (each fires the change a person's does)."""
        n = self.answers()
        self.js("%s.focus()" % self.q(sel))
        want = self.js("[...%s.options].findIndex((o) => o.value === %s)" % (self.q(sel), json.dumps(value)))
        if want < 0:
            raise RuntimeError("%s has no option %r" % (sel, value))
        if self.js("%s.selectedIndex" % self.q(sel)) == want:
            return
        for _ in range(40):
            at = self.js("%s.selectedIndex" % self.q(sel))
            if at == want:
                break
            if at < want:
                self.key("ArrowDown", "ArrowDown", 40)
            else:
                self.key("ArrowUp", "ArrowUp", 38)
        if self.js("%s.value" % self.q(sel)) != value:
            raise RuntimeError("the keyboard did not move %s to %r" % (sel, value))
        self.settle(n)

    def pick_option(self, sel, value, modifiers=CTRL):
        """Ctrl+clicks the entry value of a list box (<select multiple>)."""
        n = self.answers()
        x, y = self.js("(() => { const s = %s; s.scrollIntoView({block: 'center'});"
                       " const i = [...s.options].findIndex((o) => o.value === %s);"
                       " const r = s.getBoundingClientRect(), h = s.options[0].offsetHeight || 18;"
                       " s.scrollTop = Math.max(0, (i - 2) * h);"
                       " return [r.x + 20, r.y + 4 + (i * h - s.scrollTop) + h / 2]; })()"
                       % (self.q(sel), json.dumps(value)))
        self.click_at(x, y, modifiers)
        self.settle(n)

    def drop_file(self, sel, path):
        """Drags the file from outside the browser onto the element."""
        n = self.answers()
        x, y = self.center(sel)
        data = {"items": [], "files": [path], "dragOperationsMask": 1}
        for t in ("dragEnter", "dragOver", "drop"):
            self.c.call("Input.dispatchDragEvent", type=t, x=x, y=y, data=data)
        self.settle(n)

    def choose_file(self, sel, path):
        """Opens the file chooser from the element by the keyboard (Enter)
        and picks the file in it."""
        n = self.answers()
        self.c.call("Page.setInterceptFileChooserDialog", enabled=True)
        self.js("%s.focus()" % self.q(sel))
        self.c.opened = None
        self.key("Enter", "Enter", 13)
        t0 = time.time()
        while not self.c.opened and time.time() - t0 < 10:
            self.c.js("0")   # reads the events the browser sends
            time.sleep(0.05)
        if not self.c.opened:
            raise RuntimeError("pressing Enter on %s opened no file chooser" % sel)
        self.c.call("DOM.setFileInputFiles", files=[path], backendNodeId=self.c.opened["backendNodeId"])
        self.c.call("Page.setInterceptFileChooserDialog", enabled=False)
        self.settle(n)

    def state(self):
        return self.js("""(() => {
          const s = document.getElementById('status'), pre = document.getElementById('result'),
                rep = document.getElementById('report');
          return {state: document.body.dataset.state, status: s.textContent, error: s.classList.contains('error'),
                  json: pre.textContent, st: pre.dataset.status, command: pre.dataset.command || '',
                  cards: Number(rep.dataset.cards || 0), charts: Number(rep.dataset.charts || 0),
                  shown: rep.shadowRoot ? rep.shadowRoot.innerHTML.length : 0};
        })()""")

    def shot(self, path):
        self.js("window.scrollTo(0, 0)")
        png = self.c.call("Page.captureScreenshot", format="png")["data"]
        open(path, "wb").write(base64.b64decode(png))
        return path


def red_pixels(png):
    """Pixels of the error banner's red in the result's column."""
    from PIL import Image  # python3-pil
    img = Image.open(png).convert("RGB")
    w, h = img.size
    col = img.crop((376, 0, w, min(h, 400)))
    return sum(1 for px in col.getdata() if abs(px[0] - ERR_RED[0]) + abs(px[1] - ERR_RED[1])
               + abs(px[2] - ERR_RED[2]) < 24)


def cli_dir(out):
    """A folder where the page's file names mean the same files: models/,
    configs/, input/ (what a scenario drops or pastes) and a copy of
    hwdb/, so that citations read hwdb/FILE:LINE as the page's do."""
    d = os.path.join(out, "person-cli")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "input"))
    shutil.copytree(os.path.join(ROOT, "hwdb"), os.path.join(d, "hwdb"))
    os.symlink(os.path.join(ROOT, "models"), os.path.join(d, "models"))
    os.symlink(os.path.join(ROOT, "tests", "serving", "configs"), os.path.join(d, "configs"))
    return d


class Run:
    def __init__(self, jc, out):
        self.jc, self.out, self.cli = jc, out, cli_dir(out)
        self.lines = []

    def result(self, name, problems):
        self.lines.append("PASS web/person-" + name if not problems else
                          "FAIL web/person-" + name + ": " + "; ".join(problems)[:700])

    def same_as_cli(self, s, wants):
        """Problems: the page's JSON against the CLI's for its command."""
        problems = []
        cmd = shlex.split(s["command"])
        if cmd[:1] != ["joulecast"]:
            return ["no command line on the result: %r (status %s)" % (s["command"], s["status"][:200])]
        for w in wants:
            k, v = w.split("=", 1)
            if k == "model":
                if v not in cmd:
                    problems.append("the command has no model " + v)
            elif not any(cmd[i] == "--" + k and cmd[i + 1] == v for i in range(len(cmd) - 1)):
                problems.append("the command has no --%s %s" % (k, v))
        run = subprocess.run([self.jc] + cmd[1:] + ["--json"], cwd=self.cli, capture_output=True, text=True)
        if run.returncode != 0:
            return problems + ["the CLI refused `%s` (%d): %s" % (s["command"], run.returncode, run.stderr[:300])]
        d = []
        diff(json.loads(s["json"]), json.loads(run.stdout), "$", d)
        if d:
            problems.append("%d differences from `%s --json`: %s" % (len(d), s["command"], ", ".join(d[:4])))
        return problems

    def answered(self, p, name, wants, errors):
        """A scenario that must answer: no banner, the CLI's JSON, a clean
        screenshot, no console error."""
        s = p.state()
        problems = []
        if s["state"] != "ready" or s["error"]:
            problems.append("the page shows %s: %s" % (s["state"], s["status"][:300]))
        else:
            problems += self.same_as_cli(s, wants)
            if s["charts"] < 1 or not s["shown"]:
                problems.append("no report on screen (%d charts)" % s["charts"])
        png = p.shot(os.path.join(self.out, name + ".png"))
        red = red_pixels(png)
        if red > 20:
            problems.append("%s shows the error banner's red (%d pixels)" % (png, red))
        if errors:
            problems.append("console: " + "; ".join(errors)[:300])
        self.result(name, problems)
        return s


# Each scenario, from a freshly opened page: its name, the steps a person
# takes (VERB, ARGS...: source VALUE clicks a model source's radio button,
# choose SELECT VALUE moves a select by the keyboard, type FIELD TEXT types
# over a field, paste FIELD FILE types a file's text, pick LIST VALUE
# Ctrl+clicks a list entry, drop/chooser FILE drags a file onto the drop
# zone / picks it in the file chooser it opens), then the KEY=VALUE options
# the page's command line must hold (model=: a positional file).  A file
# the page reads as input/NAME is copied to the CLI's input/ as NAME.
SCENARIOS = [
    ("onnx-inference", [], ["model=models/resnet50.onnx", "mode=inference", "requests=1000000"]),
    ("onnx-training", [("choose", "#bundled", "models/resnet18.onnx"), ("choose", "#mode", "training"),
                       ("type", "#batch", "64"), ("type", "#epochs", "2")],
     ["model=models/resnet18.onnx", "mode=training", "batch=64", "epochs=2", "samples=1281167"]),
    ("config-generation", [("source", "config")],
     ["hf-config=configs/llama-3.1-8b.json", "mode=generation", "prompt-tokens=500", "output-tokens=300"]),
    ("config-training", [("source", "config"), ("choose", "#mode", "training"), ("type", "#tokens", "2e12"),
                         ("type", "#count", "512"), ("type", "#device", "h100")],
     ["hf-config=configs/llama-3.1-8b.json", "mode=training", "tokens=2e12", "count=512", "device=h100"]),
    ("config-pasted", [("source", "config"), ("choose", "#bundled-config", ""),
                       ("paste", "#hfconfig", "tests/serving/configs/mistral-7b-v0.3.json", "config.json")],
     ["hf-config=input/config.json", "mode=generation"]),
    ("params-training", [("source", "params"), ("choose", "#mode", "training"), ("type", "#count", "512"),
                         ("type", "#device", "h100")],
     ["params=1e9", "tokens=1e12", "mode=training", "count=512"]),
    ("params-inference", [("source", "params"), ("choose", "#mode", "inference"), ("type", "#tokens", "1e9")],
     ["params=1e9", "tokens=1e9", "mode=inference"]),
    ("params-generation", [("source", "params"), ("choose", "#mode", "generation"), ("type", "#concurrency", "32")],
     ["params=1e9", "mode=generation", "concurrency=32"]),
    ("compare-models", [("choose", "#compare-kind", "models"), ("pick", "#compare-models-list",
                                                                "models/mobilenet_v2.onnx"), ("type", "#batch", "32")],
     ["model=models/resnet50.onnx", "model=models/mobilenet_v2.onnx", "batch=32"]),
    ("compare-devices", [("choose", "#compare-kind", "devices")],
     ["model=models/resnet50.onnx", "devices=nvidia-a100-sxm4-80gb,nvidia-h100-sxm5"]),
    ("drop", [("drop", "models/resnet18.onnx"), ("type", "#region", "FR")], ["model=input/resnet18.onnx", "region=FR"]),
    ("file-chooser", [("chooser", "models/mobilenet_v2.onnx")], ["model=input/mobilenet_v2.onnx"]),
]


def take(p, r, step):
    """One step of a scenario (SCENARIOS' verbs)."""
    verb, args = step[0], step[1:]
    if verb in ("paste", "drop", "chooser"):   # the CLI reads the same file as input/NAME
        path = os.path.join(ROOT, args[1] if verb == "paste" else args[0])
        shutil.copy(path, os.path.join(r.cli, "input", args[2] if verb == "paste" else os.path.basename(path)))
    if verb == "source":
        p.source(args[0])
    elif verb == "choose":
        p.choose(*args)
    elif verb == "type":
        p.type(*args)
    elif verb == "paste":
        p.type(args[0], open(os.path.join(ROOT, args[1]), encoding="utf-8").read())
    elif verb == "pick":
        p.pick_option(*args)
    elif verb == "drop":
        p.drop_file("#drop", os.path.join(ROOT, args[0]))
    elif verb == "chooser":
        p.choose_file("#drop", os.path.join(ROOT, args[0]))
    else:
        raise ValueError("unknown step " + verb)


def prefilled(p, r):
    """Every pre-filled id of a field with a picker is one of its entries."""
    bad = p.js("""(() => {
      const out = [];
      for (const f of document.querySelectorAll('input[list]')) {
        const ids = new Set([...document.getElementById(f.getAttribute('list')).options].map((o) => o.value));
        if (!ids.size) out.push('#' + f.getAttribute('list') + ' is empty');
        for (const v of f.defaultValue.split(',').map((s) => s.trim()).filter(Boolean))
          if (!ids.has(v)) out.push('#' + f.id + ' holds ' + v + ', not an entry of #' + f.getAttribute('list'));
      }
      return out.concat(document.querySelectorAll('input[list]').length < 3 ? ['fewer than 3 picker fields'] : []);
    })()""")
    r.result("prefilled-ids", bad)


def default_view(p, r):
    """The page opens on what matters for the job: the report's first
    section after its cards says what sets the time (compute-, memory- or
    launch-bound shares) with the levers of the largest share; durations
    in readable units (device-hours in hours)."""
    v = p.js("""(() => {
      const root = document.getElementById('report').shadowRoot;
      if (!root) return null;
      const first = root.querySelector('section');
      const dh = root.querySelector('[data-key="results.device_hours.central"]');
      return {first: first ? first.id : '', levers: [...root.querySelectorAll('#bound li')].map((l) => l.textContent),
              stack: root.querySelectorAll('#bound svg rect').length,
              dh_unit: dh ? dh.nextElementSibling.textContent : ''};
    })()""")
    problems = []
    if not v:
        problems.append("no report")
    else:
        if v["first"] != "bound":
            problems.append("the first section is #%s, not what sets the time (#bound)" % v["first"])
        if v["stack"] != 3:
            problems.append("%d segments in the time split, 3 expected" % v["stack"])
        if not v["levers"] or "--batch" not in v["levers"][0]:
            problems.append("the largest share names no lever (a launch-bound ResNet-50 at batch 1: --batch): %r"
                            % v["levers"][:1])
        if v["dh_unit"] != "h":
            problems.append("device-hours shown in %r, not hours" % v["dh_unit"])
    r.result("default-view", problems)


def errors_shown(p, r):
    """An error clears the report it replaces, its banner is red on the
    screenshot; choosing the HF config source asks for nothing red; a
    repaired input brings the report back."""
    problems = []
    # the HF config source, chosen: a bundled config is picked, no error
    p.source("config")
    s = p.state()
    if s["error"] or s["state"] != "ready":
        problems.append("choosing 'HF config.json' shows: " + s["status"][:200])
    # emptied: a prompt for input, not an error, and no report
    p.choose("#bundled-config", "")
    s = p.state()
    if s["error"] or s["state"] != "input" or s["cards"] or s["shown"]:
        problems.append("no config given: state %s, %r, %d cards on screen" % (s["state"], s["status"][:120],
                                                                                s["cards"]))
    p.source("onnx")
    if p.state()["state"] != "ready":
        problems.append("back to the ONNX source: " + p.state()["status"][:200])
    # a bad batch: the error replaces the report
    p.type("#batch", "abc")
    s = p.state()
    png = p.shot(os.path.join(r.out, "error.png"))
    red = red_pixels(png)
    if not s["error"] or s["state"] != "error":
        problems.append("batch 'abc' is not an error: " + s["status"][:200])
    if s["cards"] or s["shown"] or p.js("!document.getElementById('downloads').hidden"):
        problems.append("the previous report stays on screen beside the error")
    if red < 20:
        problems.append("%s: the error banner is not seen in the screenshot (%d red pixels)" % (png, red))
    p.type("#batch", "8")
    s = p.state()
    if s["error"] or s["state"] != "ready" or not s["cards"]:
        problems.append("batch 8 after the error: " + s["status"][:200])
    r.result("error-states", problems)


def main():
    jc, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    r = Run(jc, out)
    c = Chrome(files=True)
    c.opened = None
    ev = c._event

    def event(msg):
        if msg.get("method") == "Page.fileChooserOpened":
            c.opened = msg["params"]
        ev(msg)
    c._event = event
    p = Page(c)
    try:
        for name, steps, wants in SCENARIOS:
            try:
                p.open()
                if name == "onnx-inference":
                    prefilled(p, r)
                    default_view(p, r)
                for step in steps:
                    take(p, r, step)
                r.answered(p, name, wants, list(c.errors))
            except Exception as e:   # one scenario's failure, named
                r.result(name, [str(e)[:400]])
        try:
            p.open()
            errors_shown(p, r)
        except Exception as e:
            r.result("error-states", [str(e)[:400]])
    finally:
        c.close()
    print("\n".join(r.lines))


if __name__ == "__main__":
    main()
