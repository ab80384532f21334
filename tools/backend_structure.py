#!/usr/bin/python3
"""backend_structure.py - the structure of every model.onnx of ONNX's
backend test suite (Debian's libonnx-testdata), read by python3-onnx, for
tests/unit/test_backend_load.c to compare joulecast's loader against
(issue 38 item 6: each of the ~1,073 cases asserts figures that can fail).

One line per model, tab-separated, sorted by path:
  path (under the suite's data/ folder), ir_version, the ai.onnx opset,
  model-local functions, main-graph nodes, graph inputs that are not
  initializers, graph outputs, initializers (dense + sparse), subgraphs
  nested in the main graph (every GRAPH/GRAPHS attribute, recursively),
  and the main graph's op types with their counts ("Add:2,Relu:1", sorted).

  /usr/bin/python3 tools/backend_structure.py > tests/backend/structure.tsv
  /usr/bin/python3 tools/backend_structure.py --check tests/backend/structure.tsv

--check prints PASS/FAIL (tests/backend_structure.sh): the committed table
must be what python3-onnx reads from the installed suite.
"""
import collections
import os
import sys

import onnx

ROOT = "/usr/share/libonnx-testdata/data"
HEADER = ("# path\tir_version\topset\tfunctions\tnodes\tinputs\toutputs"
          "\tinitializers\tsubgraphs\top_types")


def subgraphs(graph):
    """Subgraphs below graph, recursively (each GRAPH/GRAPHS attribute)."""
    n = 0
    for node in graph.node:
        for a in node.attribute:
            gs = [a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)
            for g in gs:
                n += 1 + subgraphs(g)
    return n


def row(path):
    """The table's line for one model file."""
    m = onnx.load(path, load_external_data=False)
    g = m.graph
    inits = {t.name for t in g.initializer} | {s.values.name for s in g.sparse_initializer}
    opset = max([o.version for o in m.opset_import if o.domain in ("", "ai.onnx")] or [0])
    ops = collections.Counter(n.op_type for n in g.node)
    fields = [os.path.relpath(path, ROOT), m.ir_version, opset, len(m.functions),
              len(g.node), sum(1 for i in g.input if i.name not in inits), len(g.output),
              len(g.initializer) + len(g.sparse_initializer), subgraphs(g),
              ",".join("%s:%d" % kv for kv in sorted(ops.items())) or "-"]
    return "\t".join(str(f) for f in fields)


def table():
    """Every model of the suite, one line each, sorted."""
    paths = []
    for d, _, files in os.walk(ROOT):
        if "model.onnx" in files:
            paths.append(os.path.join(d, "model.onnx"))
    return [HEADER] + sorted(row(p) for p in paths)


def main():
    lines = table()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2]) as f:
            have = f.read().splitlines()
        if have == lines:
            print("PASS backend_structure/table-is-python-onnx-output (%d models)" % (len(lines) - 1))
            return 0
        diff = sorted(set(have) ^ set(lines))[:5]
        print("FAIL backend_structure/table-is-python-onnx-output (%s differs from what "
              "python3-onnx reads; rerun tools/backend_structure.py): %s" % (sys.argv[2], diff))
        return 0
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
