"""web_cdp.py - headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4), in
real time (no virtual time: the page's performance.now() is the wall
clock, and a slow machine waits longer instead of failing).  Used by
tests/web.sh, tests/web_interact.py and bench/web.py; standard library only.

    c = Chrome(); c.call("Page.navigate", url=...); c.js("1 + 1"); c.close()

    web_cdp.py dump [--files] LIST
        one browser for every page of LIST, a file of lines
        "OUT.html URL [SHOT.png]": loads URL, waits (up to 60 s) until its
        <body> has data-state (the page sets it once a request is
        answered, "ready" or "error"), writes the DOM to OUT.html and, with
        SHOT.png, a 1400x1100 screenshot; the console errors and uncaught
        exceptions of that page go to OUT.html.log (empty: none).
        --files: --allow-file-access-from-files (tests/web_drop.html).
        --serve DIR: DIR served over HTTP on a free port of 127.0.0.1 for
        the run (a static host, as GitHub Pages is); "{http}" in a URL is
        its address.  Every request is logged to LIST.http.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Chrome:
    """A headless Chromium driven over --remote-debugging-pipe."""

    def __init__(self, files=False):
        self.profile = tempfile.mkdtemp()
        r3, self.w3 = os.pipe()   # we write commands; Chromium reads fd 3
        self.r4, w4 = os.pipe()   # Chromium writes answers on fd 4

        def fds():
            os.dup2(r3, 3)
            os.dup2(w4, 4)
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
             "--disable-extensions", "--disable-background-networking",
             "--remote-debugging-pipe", "--user-data-dir=" + self.profile]
            + (["--allow-file-access-from-files"] if files else []) + ["about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r3)
        os.close(w4)
        self.buf = b""
        self.errors = []          # console errors and uncaught exceptions
        self.next_id = 0
        self.session = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"],
                                 flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def call(self, method, **params):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self.w3, json.dumps(msg).encode() + b"\0")
        while True:
            while b"\0" not in self.buf:
                chunk = os.read(self.r4, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe")
                self.buf += chunk
            raw, self.buf = self.buf.split(b"\0", 1)
            reply = json.loads(raw)
            self._event(reply)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def _event(self, msg):
        m, p = msg.get("method"), msg.get("params", {})
        if m == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            self.errors.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            self.errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))

    def js(self, expr):
        r = self.call("Runtime.evaluate", expression=expr, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(r["exceptionDetails"].get("exception", {}).get("description", str(r)))
        return r["result"].get("value")

    def close(self):
        self.proc.kill()
        self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def dump_one(c, url, out, shot=None):
    """One page of dump: DOM to out, console errors to out + '.log'."""
    c.errors = []
    c.call("Emulation.setDeviceMetricsOverride", width=1400, height=1100, deviceScaleFactor=1,
           mobile=False)
    c.call("Page.navigate", url=url)
    t0 = time.time()
    while not c.js("document.body ? document.body.dataset.state || '' : ''"):
        if time.time() - t0 > 60:
            break
        time.sleep(0.05)
    open(out, "w", encoding="utf-8").write(c.js("document.documentElement.outerHTML"))
    if shot:
        png = c.call("Page.captureScreenshot", format="png")["data"]
        open(shot, "wb").write(base64.b64decode(png))
    open(out + ".log", "w", encoding="utf-8").write("\n".join(c.errors))


def serve(folder, log):
    """A static HTTP server of folder on 127.0.0.1 (a thread); its address."""
    import functools
    import http.server
    import threading

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, fmt, *args):
            log.write("%s %s\n" % (self.command, self.path))
            log.flush()
    handler = functools.partial(Quiet, directory=folder)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d" % srv.server_address[1]


def dump(listfile, files=False, folder=None):
    base = serve(folder, open(listfile + ".http", "w")) if folder else ""
    c = Chrome(files=files)
    try:
        for line in open(listfile, encoding="utf-8"):
            w = line.replace("{http}", base).split()
            if len(w) >= 2:
                dump_one(c, w[1], w[0], w[2] if len(w) > 2 else None)
    finally:
        c.close()


if __name__ == "__main__":
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "dump":
        dump(a[-1], files="--files" in a, folder=a[a.index("--serve") + 1] if "--serve" in a else None)
        sys.exit(0)
    sys.exit(__doc__)
