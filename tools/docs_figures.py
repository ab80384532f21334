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
its figures must then be the output's exactly.  A hidden block, for
figures the prose quotes without showing their output, is an HTML
comment: a line "<!-- output: COMMAND", the whole output, a line "-->".

Prose figures (prose_check): every figure in the prose of a file must be
a figure of one of its checked blocks (or of their commands, the inputs),
as printed or rounded (73.3 k quotes 73,298), or be named with its source
in a comment "<!-- sourced: FIGURE, ... (WHERE) -->" of its paragraph (a
roff comment line `.\\" sourced: ...` in the man page).

  docs_figures.py --check [FILE...]    PASS/FAIL per block and per file's
                                       prose; a FAIL names FILE:LINE, the
                                       shown and the printed line, or the
                                       prose figure (tests/docs_figures.sh)
  docs_figures.py --update [FILE...]   rewrites the shown lines with the
                                       printed ones, hidden blocks whole, and
                                       the prose figures written as an old
                                       figure was; lists the prose figures
                                       left to mend (make docs-figures, after
                                       a refit or a change of output)
  docs_figures.py --list [FILE...]     the markers, FILE:LINE COMMAND

JC (default build/joulecast) is the program run as `joulecast`; the files
default to README.md, docs/*.md but docs/accuracy* (make accuracy writes
them) and man/joulecast.1.in.
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
HIDDEN_MARK = re.compile(r"^<!-- output: (.*[^>\s])\s*$")
NUM = re.compile(r"(?<![A-Za-z_])[-+]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def shape(line):
    """A line with its numbers masked and its blanks collapsed."""
    return " ".join(NUM.sub("#", line).split())


def blocks(path):
    """The lines of a file and its marked blocks (blocks_of)."""
    lines = open(path, encoding="utf-8").read().split("\n")
    return blocks_of(lines, path.endswith(".in") or path.endswith(".1"))


def blocks_of(lines, man):
    """(marker line number, command, first and last line index of the
    shown text) for every marked block of a file's lines (0-based
    indices; None, None when the marker has no block)."""
    out = []
    for i, line in enumerate(lines):
        m = (MAN_MARK if man else MD_MARK).match(line)
        h = None if man else HIDDEN_MARK.match(line)
        if h:   # <!-- output: COMMAND, the shown lines, then "-->"
            k = i + 1
            while k < len(lines) and lines[k].strip() != "-->":
                k += 1
            if k == len(lines):
                out.append((i + 1, h.group(1), None, None))
            else:
                out.append((i + 1, h.group(1), i + 1, k - 1))
            continue
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


# Prose figures.  A number in prose (outside fenced blocks, generated
# tables and comments; inline code included) is a figure when a unit
# follows it and it has a decimal point and two significant digits or
# three significant digits ("371.5 W", "0.2824x", "84,507 kWh"; not "2 x",
# "0.1 %", "20%" or "500 W"), or
# when it has four significant digits ("0.3157", "30239280"; not a year,
# not "ISO 8601").  Each must be a number of a checked block of the same
# file (a shown line or the marker's command, which holds the inputs), a
# number of an example command of the file (a fenced block without a
# marker), or be named in a "sourced:" comment of its own paragraph with
# where it comes from (a publication, a datasheet, a test that asserts
# it); see prose_check.
UNITS = ("kWh MWh GWh TWh Wh kgCO2e gCO2e tCO2e tonnes t GPU-hours GPU-h device-hours hours h "
         "days kW MW W mJ J % × x ms s GB GiB TB MiB KiB MB TFLOP/s PFLOP/s TFLOPS G M k").split()
PROSE_NUM = re.compile(
    r"(?<![A-Za-z0-9_./:@#=,\\-])(?<!ISO )(?<!RFC )([-+]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)"
    r"(?![0-9A-Za-z_./\\-][0-9A-Za-z])"
    r"(\s?(?:" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) + r")(?![A-Za-z0-9]))?")
SOURCED = re.compile(r'(?:<!--|\.\\") sourced:')


def key(num):
    """A number as compared: no thousands commas, no '+', no trailing comma."""
    return num.rstrip(",").replace(",", "").lstrip("+")


def value(num):
    """A written number's value (None when it is not one)."""
    try:
        return float(num.rstrip(",").replace(",", ""))
    except ValueError:
        return None


# the scales a prose unit may quote a printed value at, besides as printed
# (73.3 k quotes 73,298; 0.37 ms 0.0003702 s; 31.22 tCO2e 31,224 kgCO2e)
UNIT_SCALES = {"k": 1e3, "M": 1e6, "G": 1e9, "ms": 1e-3, "%": 1e-2, "t": 1e3, "tCO2e": 1e3,
               "tonnes": 1e3, "MWh": 1e3, "GWh": 1e6, "TWh": 1e9, "kW": 1e3, "MW": 1e6}


def quotes(num, known, unit=""):
    """Whether a prose figure quotes one of the known values: equal, or
    equal once a known value is rounded to the figure's decimals, as
    printed or at its unit's scale (UNIT_SCALES; 641 W quotes 640.7).  A
    figure of one significant digit must be written as the value is."""
    v = value(num)
    if v is None:
        return False
    mant = re.split("[eE]", num.rstrip(",").replace(",", ""))[0]
    dec = len(mant.split(".")[1]) if "." in mant else 0
    if key(num) in known or v in known.values():
        return True
    if significant(num) < 2 or "e" in num.lower():
        return False
    for n in known.values():
        for scale in (1, UNIT_SCALES.get(unit, 1)):
            if abs(round(n / scale, dec) - v) < 0.5 * 10 ** -dec * 1e-9 + 1e-12 * abs(v):
                return True
    return False


def significant(num):
    """Significant digits of a written number (trailing zeros of a whole
    number are not: 5000 has one)."""
    m = re.split("[eE]", num.rstrip(",").replace(",", "").lstrip("+-"))[0]
    if "." in m:
        return len(m.replace(".", "").lstrip("0"))
    return len(m.lstrip("0").rstrip("0"))


def prose_figures(text):
    """(number as written, unit or '') for each figure of a prose line."""
    for m in PROSE_NUM.finditer(text):
        num, unit = m.group(1).rstrip(","), (m.group(2) or "").strip()
        plain = num.replace(",", "").lstrip("+-")
        if not unit and re.fullmatch(r"(1[89]|20)[0-9]{2}", plain):
            continue   # a year
        if re.fullmatch(r"[0-9]{4}\.[0-9]{4,5}", plain):
            continue   # an arXiv number
        if unit and significant(num) < (3 if "." not in plain else 2):
            continue
        if not unit and significant(num) < 4:
            continue
        yield num, unit


def numbers(text):
    """{key: value} of every number written in a text."""
    out = {}
    for t in NUM.findall(text) + re.findall(r"[0-9][0-9.eE+-]*[0-9]|[0-9]", text):
        v = value(t)
        if v is not None:
            out[key(t)] = v
    return out


def paragraphs(lines, man):
    """The paragraph number of each line: runs of non-blank lines (in
    roff, also split at .PP, .TP, .SH, .SS and .IP)."""
    out, para = [], 0
    for line in lines:
        s = line.strip()
        if not s or (man and s[:3] in (".PP", ".TP", ".SH", ".SS", ".IP")):
            para += 1
        out.append(para)
    return out


def prose_lines(lines, man, marks):
    """(index, text) of each prose line: code blocks, marked blocks,
    comments and generated tables (<!-- BEGIN ... --> to <!-- END ... -->)
    are not prose."""
    inside = set()
    for mline, _cmd, first, last in marks:
        inside.add(mline - 1)
        if first is not None:
            inside.update(range(first - 1, last + 2))
    out, fence, comment, generated = [], False, False, False
    for i, line in enumerate(lines):
        s = line.strip()
        if (s.startswith(".nf") or s.startswith(".fi")) if man else s.startswith("```"):
            fence = s.startswith(".nf") if man else not fence
            continue
        if s.startswith("<!-- BEGIN "):
            generated = True
        elif s.startswith("<!-- END "):
            generated = False
            continue
        if not man and not comment and s.startswith("<!--") and "-->" not in s:
            comment = True
            continue
        if comment:
            comment = "-->" not in s
            continue
        if fence or generated or i in inside or not s or (man and s.startswith('.\\"')):
            continue
        out.append((i, re.sub(r"<!--.*?-->", "", line.replace("\\-", "-") if man else line)))
    return out


def sourced(lines, man, para):
    """The number keys each paragraph's "sourced:" comments name:
    {paragraph: set}.  Markdown: <!-- sourced: FIGURES (WHERE) --> (it may
    span lines); roff: a comment line .\\" sourced: ..."""
    out = {}
    for i, line in enumerate(lines):
        m = SOURCED.search(line)
        if not m:
            continue
        text, j = line[m.end():], i
        while not man and "-->" not in text and j + 1 < len(lines):
            j += 1
            text += "\n" + lines[j]
        out.setdefault(para[i], {}).update(numbers(text.split("-->")[0]))
    return out


def prose_check(path, lines, marks):
    """The prose figures of a file that no checked block, example command
    or "sourced:" comment of their paragraph accounts for, as messages
    '  FILE:LINE: FIGURE is not ...'."""
    man = path.endswith(".in") or path.endswith(".1")
    known, fence, shown = {}, False, set()
    for _mline, cmd, first, last in marks:
        known.update(numbers(cmd))
        if first is not None:
            for i in range(first, last + 1):
                shown.add(i)
                known.update(numbers(lines[i]))
    for i, line in enumerate(lines):   # example commands and code: inputs
        s = line.strip()
        if (s.startswith(".nf") or s.startswith(".fi")) if man else s.startswith("```"):
            fence = s.startswith(".nf") if man else not fence
        elif fence and i not in shown:
            known.update(numbers(line))
    para = paragraphs(lines, man)
    ok = sourced(lines, man, para)
    fails = []
    for i, text in prose_lines(lines, man, marks):
        for num, unit in prose_figures(text):
            if quotes(num, known, unit) or key(num) in ok.get(para[i], {}):
                continue
            fails.append("  %s:%d: %s%s is in no checked output of this file and no "
                         "sourced: comment of its paragraph" % (path, i + 1, num,
                                                               (" " + unit) if unit else ""))
    return fails


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


def renames(pairs):
    """{old number: new number} from (shown, printed) line pairs of one
    shape: the figures a prose quote of the old line should now say.  A
    number the blocks still print somewhere (one row's coverage 90% -> 91%,
    another's still 90%) is ambiguous, and so is a number that moved to two
    different values: a prose quote of it is left as written (the prose
    check then says whether it is still printed)."""
    out = {}
    for old, new in pairs:
        if shape(old) != shape(new):
            continue
        for o, n in zip(NUM.findall(old), NUM.findall(new)):
            if o != n:
                out[o] = n if out.get(o, n) == n else None
    still = {x for _old, new in pairs for x in NUM.findall(new)}
    return {o: n for o, n in out.items() if n is not None and o not in still}


def mend_prose(lines, man, marks, moved):
    """Rewrites the prose figures written as a moved number was (the same
    digits) to the new number; returns how many."""
    count = 0
    for i, _text in prose_lines(lines, man, marks):
        def swap(m):
            nonlocal count
            if m.group(1) in moved:
                count += 1
                return moved[m.group(1)] + (m.group(2) or "")
            return m.group(0)
        lines[i] = PROSE_NUM.sub(swap, lines[i])
    return count


def update_hidden(lines, marks, work, jc):
    """Rewrites every hidden block with its command's whole output; the
    (old, new) line pairs that changed."""
    pairs = []
    for mline, cmd, first, last in reversed(marks):
        if first is None or not HIDDEN_MARK.match(lines[mline - 1]):
            continue
        printed = run(cmd, work, jc)
        if lines[first:last + 1] != printed:
            pairs += list(zip(lines[first:last + 1], printed))
            lines[first:last + 1] = printed
    return pairs


def check_block(path, lines, mark, work, jc):
    """Messages for the shown lines of one block that are not printed as
    shown; the (shown, printed) pairs; rewrites lines to the printed."""
    _mline, cmd, first, last = mark
    fails, pairs = [], []
    for i, new in compare(lines[first:last + 1], run(cmd, work, jc)):
        old = lines[first + i]
        if new is None:
            fails.append("  %s:%d: no printed line has the shape of: %s" % (path, first + i + 1, old))
        elif new != old:
            fails.append("  %s:%d: shown:   %s\n  %s:%d: printed: %s"
                         % (path, first + i + 1, old, path, first + i + 1, new))
            pairs.append((old, new))
            lines[first + i] = new
    return fails, pairs


def do_file(path, mode, work, jc):
    """Checks (--check), rewrites (--update) or lists (--list) one file's
    blocks and prose figures; returns the number of FAILs."""
    rel = os.path.relpath(path, ROOT)
    shown_path = path if rel.startswith("..") else rel
    man = path.endswith(".in") or path.endswith(".1")
    lines, marks = blocks(path)
    original = list(lines)
    pairs = update_hidden(lines, marks, work, jc) if mode == "--update" else []
    lines = "\n".join(lines).split("\n")
    _l, marks = blocks_of(lines, man)
    bad = 0
    for mark in marks:
        name = "docs_figures/%s:%d" % (shown_path, mark[0])
        if mode == "--list":
            print("%s:%d %s" % (path, mark[0], mark[1]))
            continue
        if mark[2] is None:
            print("FAIL %s (the marker is not followed by a fenced block)" % name)
            bad += 1
            continue
        fails, moved = check_block(path, lines, mark, work, jc)
        pairs += moved
        if mode == "--update":
            print("%s %s" % ("updated" if fails else "same   ", name))
            print("\n".join(f for f in fails if "no printed line" in f) or "", end="")
        elif fails:
            bad += 1
            print("FAIL %s (%s): the shown output is not what the build prints "
                  "(make docs-figures rewrites it)" % (name, mark[1]))
            print("\n".join(fails))
        else:
            print("PASS %s" % name)
    if mode == "--list":
        return 0
    if mode == "--update":
        n = mend_prose(lines, man, marks, renames(pairs))
        if n:
            print("mended  %s: %d prose figure(s) as their block now prints them" % (shown_path, n))
        if lines != original:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    prose = prose_check(path, lines, marks)
    name = "docs_figures/%s:prose" % shown_path
    if prose and mode == "--update":
        print("to mend %s (by hand: quote the block's figure, or name the source):\n%s"
              % (name, "\n".join(prose)))
    elif prose:
        bad += 1
        print("FAIL %s: %d prose figure(s) that no checked output prints (quote a figure of "
              "a block, add a hidden block <!-- output: COMMAND ... --> that prints it, or "
              "name where it comes from in <!-- sourced: FIGURE (WHERE) -->)\n%s"
              % (name, len(prose), "\n".join(prose)))
    else:
        print("PASS %s" % name)
    return bad


def main(argv):
    mode = argv[1] if len(argv) > 1 else "--check"
    files = argv[2:] or (["README.md"] + sorted(f for f in glob.glob("docs/*.md")
                                                if not os.path.basename(f).startswith("accuracy"))
                         + ["man/joulecast.1.in"])
    os.chdir(ROOT)
    jc = os.environ.get("JC", os.path.join(ROOT, "build", "joulecast"))
    work = workdir(jc)
    bad = 0
    try:
        for path in files:
            if os.path.exists(path):
                bad += do_file(path, mode, work, jc)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad and mode == "--update" else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
