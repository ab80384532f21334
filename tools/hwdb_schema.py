#!/usr/bin/env python3
# hwdb_schema.py - keeps the copies of the hwdb field tables (src/hwdb/fields_<kind>.def)
# equal to the tables: the generated Markdown tables of docs/hwdb-schema.md
# (between "<!-- BEGIN hwdb schema KIND -->" and "<!-- END hwdb schema KIND -->")
# and tools/hwdb_fields.json (read by tools/check_hwdb.py).  Both are output of
# `joulecast hwdb schema`.
#
#     python3 tools/hwdb_schema.py --check  JOULECAST   # exit 1 and a diff when stale
#     python3 tools/hwdb_schema.py --update JOULECAST   # rewrite both (make hwdb-schema)

import difflib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "hwdb-schema.md")
JSON = os.path.join(ROOT, "tools", "hwdb_fields.json")
BLOCK = re.compile(r"(<!-- BEGIN hwdb schema (\w+) -->\n)(.*?)(<!-- END hwdb schema \2 -->)", re.S)


def run(jc, *args):
    env = dict(os.environ, LC_ALL="C")
    return subprocess.run([jc, "hwdb", "schema"] + list(args), check=True, env=env,
                          stdout=subprocess.PIPE).stdout.decode("utf-8")


def wanted(jc):
    doc = open(DOC, encoding="utf-8").read()
    kinds = [m.group(2) for m in BLOCK.finditer(doc)]
    new = BLOCK.sub(lambda m: m.group(1) + run(jc, m.group(2)) + m.group(4), doc)
    return doc, new, kinds, open(JSON, encoding="utf-8").read() if os.path.exists(JSON) else "", run(jc, "--json")


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--check", "--update"):
        sys.exit("usage: hwdb_schema.py --check|--update JOULECAST")
    doc, new_doc, kinds, js, new_js = wanted(sys.argv[2])
    all_kinds = [k["name"] for k in __import__("json").loads(new_js)["kinds"]]
    missing = [k for k in all_kinds if k not in kinds]
    if sys.argv[1] == "--update":
        open(DOC, "w", encoding="utf-8").write(new_doc)
        open(JSON, "w", encoding="utf-8").write(new_js)
        print("wrote %s (tables: %s) and %s" % (DOC, ", ".join(kinds), JSON))
        if missing:
            sys.exit("docs/hwdb-schema.md has no BEGIN/END block for: " + ", ".join(missing))
        return
    bad = 0
    for name, old, new in (("docs/hwdb-schema.md", doc, new_doc), ("tools/hwdb_fields.json", js, new_js)):
        if old != new:
            bad = 1
            print("FAIL hwdb_schema/%s (differs from `joulecast hwdb schema`; run make hwdb-schema)" % name)
            for line in list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm=""))[:30]:
                print("    " + line)
        else:
            print("PASS hwdb_schema/%s" % name)
    for k in missing:
        bad = 1
        print("FAIL hwdb_schema/docs_block_%s (docs/hwdb-schema.md has no generated table for it)" % k)
    sys.exit(bad)


if __name__ == "__main__":
    main()
