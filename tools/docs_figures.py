#!/usr/bin/python3
"""docs_figures.py - the command outputs README.md, docs/*.md and the man
page show are what the build prints (issue 44 item 11).

A shown output is a fenced block right after a marker line

    <!-- output: joulecast compare models/resnet50.onnx ... -->

(in man/joulecast.1.in: a roff comment line `.\\" output: COMMAND` before
the `.nf` block).  The command runs under sh from a scratch folder that
links every entry of the repository root, with the build's joulecast
first on PATH, LC_ALL=C and the bundled hwdb, so earlier markers' files
(e.g. `--out mylab.yaml`) are there for later ones.  A block may show
part of the output: a line "..." stands for any lines, "..." in a line
for the rest of the printed line (what follows it is kept), and a line
starting "$ " is the command as typed.  Each shown line is matched,
in order, to the next output line of the same shape (its numbers masked);
its figures must then be the output's exactly.

  docs_figures.py --check [FILE...]    PASS/FAIL per block; a FAIL names
                                       FILE:LINE, the shown and the printed
                                       line (tests/docs_figures.sh)
  docs_figures.py --update [FILE...]   rewrites the shown lines with the
                                       printed ones (make docs-figures, after
                                       a refit or a change of output)
  docs_figures.py --list [FILE...]     the markers, FILE:LINE COMMAND

JC (default build/joulecast) is the program run as `joulecast`; the files
default to README.md, docs/*.md and man/joulecast.1.in.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MD_MARK = re.compile(r"^<!-- output: (.*) -->\s*$")
MAN_MARK = re.compile(r'^\.\\" output: (.*)$')
NUM = re.compile(r"(?<![A-Za-z_])[-+]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def shape(line):
    """A line with its numbers masked and its blanks collapsed."""
    return " ".join(NUM.sub("#", line).split())


def blocks(path):
    """(marker line number, command, first and last line index of the
    shown text) for every marked block of a file (lines 0-based)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    man = path.endswith(".in") or path.endswith(".1")
    out = []
    for i, line in enumerate(lines):
        m = (MAN_MARK if man else MD_MARK).match(line)
        if not m:
            continue
        j = i + 1
        opener = ".nf" if man else "```"
        if j >= len(lines) or not lines[j].startswith(opener):
            out.append((i + 1, m.group(1), None, None))
            continue
        k = j + 1
        closer = ".fi" if man else "```"
        while k < len(lines) and not lines[k].startswith(closer):
            k += 1
        out.append((i + 1, m.group(1), j + 1, k - 1))
    return lines, out


def run(cmd, work, jc):
    """The command's stdout lines (its exit status ignored: a refusal's
    output is shown too); stderr is appended when stdout is empty."""
    env = dict(os.environ, LC_ALL="C", PATH=os.path.join(work, ".bin") + os.pathsep + os.environ["PATH"])
    for k in ("JOULECAST_HWDB", "JOULECAST_HWDB_DIR", "JOULECAST_HWDB_SNAPSHOT"):
        env.pop(k, None)
    r = subprocess.run(["sh", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    text = r.stdout.decode("utf-8", "replace")
    if not text.strip():
        text = r.stderr.decode("utf-8", "replace")
    return text.rstrip("\n").split("\n")


def prefix_of(printed, shown_prefix):
    """The shortest start of the printed line of shown_prefix's shape."""
    want = shape(shown_prefix)
    blank = shown_prefix[len(shown_prefix.rstrip()):]
    for n in range(len(printed) + 1):
        if shape(printed[:n]) == want:
            return printed[:n].rstrip() + blank
    return None


def compare(shown, printed):
    """For each shown line: (index, printed replacement or None when no
    line of its shape follows).  '...' lines are kept as they are."""
    res, p = [], 0
    for i, line in enumerate(shown):
        if line.strip() == "..." or line.startswith("$ "):
            continue   # any lines; the command as typed
        partial = "..." in line
        head, _, tail = line.partition("...")
        want = shape(head) if partial else shape(line)
        q = p
        while q < len(printed):
            got = shape(printed[q])
            if (got.startswith(want) if partial else got == want):
                break
            q += 1
        if q == len(printed):
            res.append((i, None))
            continue
        if partial:
            start = prefix_of(printed[q], head)
            res.append((i, (start if start is not None else printed[q]) + "..." + tail))
        else:
            res.append((i, printed[q]))
        p = q + 1
    return res


def workdir(jc):
    """A scratch folder linking the repository's entries, joulecast on PATH."""
    work = tempfile.mkdtemp(prefix="jc-docs-")
    for e in os.listdir(ROOT):
        if not e.startswith("."):
            os.symlink(os.path.join(ROOT, e), os.path.join(work, e))
    os.mkdir(os.path.join(work, ".bin"))
    os.symlink(os.path.abspath(jc), os.path.join(work, ".bin", "joulecast"))
    return work


def main(argv):
    mode = argv[1] if len(argv) > 1 else "--check"
    files = argv[2:] or (["README.md"] + sorted(glob.glob("docs/*.md")) + ["man/joulecast.1.in"])
    os.chdir(ROOT)
    jc = os.environ.get("JC", os.path.join(ROOT, "build", "joulecast"))
    work = workdir(jc)
    bad = 0
    try:
        for path in files:
            if not os.path.exists(path):
                continue
            lines, marks = blocks(path)
            changed = False
            for mline, cmd, first, last in marks:
                rel = os.path.relpath(path, ROOT)
                name = "docs_figures/%s:%d" % (path if rel.startswith("..") else rel, mline)
                if mode == "--list":
                    print("%s:%d %s" % (path, mline, cmd))
                    continue
                if first is None:
                    print("FAIL %s (the marker is not followed by a fenced block)" % name)
                    bad += 1
                    continue
                printed = run(cmd, work, jc)
                shown = lines[first:last + 1]
                fails = []
                for i, new in compare(shown, printed):
                    if new is None:
                        fails.append("  %s:%d: no printed line has the shape of: %s"
                                     % (path, first + i + 1, shown[i]))
                    elif new != shown[i]:
                        fails.append("  %s:%d: shown:   %s\n  %s:%d: printed: %s"
                                     % (path, first + i + 1, shown[i], path, first + i + 1, new))
                        lines[first + i] = new
                        changed = True
                if mode == "--update":
                    print("%s %s" % ("updated" if fails else "same   ", name))
                    for f in fails:
                        if "no printed line" in f:
                            print(f)
                elif fails:
                    bad += 1
                    print("FAIL %s (%s): the shown output is not what the build prints "
                          "(make docs-figures rewrites it)" % (name, cmd))
                    print("\n".join(fails))
                else:
                    print("PASS %s" % name)
            if mode == "--update" and changed:
                with open(path, "w", encoding="utf-8") as f:
                    f.write("\n".join(lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad and mode == "--update" else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
