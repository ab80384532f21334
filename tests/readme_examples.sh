#!/bin/sh
# readme_examples.sh - runs every command of the ```sh blocks of README.md
# and docs/workflow-serving.md that
# starts with "joulecast " (continuation lines ending in "\" joined), with
# the joulecast under test first on PATH, in order, from a scratch folder
# that links every entry of the repository root (so a file one example
# writes with --out/-o is there for the next, and none is left in the
# tree); a non-zero exit fails.  A command naming an input file that is
# not in the repository (a word ending in .onnx/.yaml/.yml/.json that does
# not exist and follows no --out/-o) cannot run: it prints SKIP, which
# tests/run.sh counts and fails (no such skip is expected).  Every ```python block runs too,
# with the pip-installed package (tests/python_env.inc), as a notebook cell
# would: when its last line is an expression, the value is displayed the
# way Jupyter does - through _repr_html_ when it has one, which must give
# an HTML document.  What it checks: that every example still runs (exit 0,
# and an HTML document from _repr_html_), and that a Python expression
# whose line ends in a comment "# NUMBER" gives that number (rounded to its
# decimals: the figures the README's Python lines show); the outputs the
# README shows are compared by tests/docs_figures.sh (each after an
# "output:" marker).
# The commands run the release build ($JC_RELEASE): the sanitizer build
# runs the same code paths in the goldens and the other layers.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC_RELEASE:-$PWD/build/joulecast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir "$T/bin" && ln -s "$JC" "$T/bin/joulecast"
# the examples' working folder: the repository's entries, linked
W=$T/work
mkdir "$W" && for e in *; do ln -s "$PWD/$e" "$W/$e"; done
# one command per line of $T/cmds
awk '
  /^```sh[[:space:]]*$/ { on = 1; next }
  /^```/ { on = 0; cont = 0; next }
  !on { next }
  {
    line = $0
    if (cont) { buf = buf " " line }
    else if (line ~ /^joulecast /) { buf = line }
    else next
    if (buf ~ /\\$/) { sub(/\\$/, "", buf); cont = 1; next }
    cont = 0; gsub(/[[:space:]]+/, " ", buf); print buf
  }' README.md docs/workflow-serving.md > "$T/cmds"
n=$(wc -l < "$T/cmds")
[ "$n" -gt 0 ] && echo "PASS readme/found-$n-examples" || echo "FAIL readme/no-examples-found"
i=0
while IFS= read -r cmd; do
  i=$((i + 1))
  name=$(printf '%s' "$cmd" | cut -d' ' -f2)
  skip=""; prev=""
  for w in $cmd; do
    case "$w" in
      \#*) break ;;
      *.onnx|*.yaml|*.yml|*.json)
        case "$prev" in --out|-o) ;; *) [ -e "$W/$w" ] || skip="$w" ;; esac ;;
    esac
    prev=$w
  done
  if [ -n "$skip" ]; then
    echo "SKIP readme/$i-$name ($skip is not in the repository)"
    continue
  fi
  if (cd "$W" && PATH="$T/bin:$PATH" sh -c "$cmd") > "$T/out" 2> "$T/err" < /dev/null; then
    echo "PASS readme/$i-$name"
  else
    echo "FAIL readme/$i-$name: exit $?: $cmd"
    head -n 3 "$T/err" | sed 's/^/    /'
  fi
done < "$T/cmds"

# ```python blocks: one file each
awk -v dir="$T" '
  /^```python[[:space:]]*$/ { on = 1; n++; f = sprintf("%s/py%02d.py", dir, n); next }
  /^```/ { on = 0; next }
  on { print > f }' README.md
npy=$(ls "$T"/py*.py 2>/dev/null | wc -l)
[ "$npy" -gt 0 ] && echo "PASS readme/found-$npy-python-blocks" || echo "FAIL readme/no-python-blocks-found"
[ "$npy" -gt 0 ] || exit 0
. tests/python_env.inc
if ! pyvenv "$T" > "$T/why"; then
  echo "FAIL readme/python-pip-install ($(tr '\n' ' ' < "$T/why"))"
  exit 0
fi
cat > "$T/cell.py" <<'EOF'
import ast, re, sys
src = open(sys.argv[1]).read()
lines = src.split("\n")
tree = ast.parse(src)
last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
env = {"__name__": "__main__"}
# each statement in turn; an expression whose line ends "# NUMBER" shows a
# figure: its value, rounded to the shown decimals, must be that number
def shown_figure(node, value):
    line = lines[getattr(node, "end_lineno", node.lineno) - 1]
    m = re.search(r"#\s*([-+]?[0-9][0-9.]*)\s*$", line)
    if m:
        dec = len(m.group(1).split(".")[1]) if "." in m.group(1) else 0
        if round(float(value), dec) != float(m.group(1)):
            sys.exit("%s shows %s, the build gives %r" % (line.split("#")[0].strip(), m.group(1), value))
for node in tree.body:
    if isinstance(node, ast.Expr):
        shown_figure(node, eval(compile(ast.Expression(node.value), sys.argv[1], "eval"), env))
    else:
        mod = ast.Module(body=[node], type_ignores=[]) if sys.version_info >= (3, 8) else ast.Module(body=[node])
        exec(compile(mod, sys.argv[1], "exec"), env)
if last is not None:
    value = eval(compile(ast.Expression(last.value), sys.argv[1], "eval"), env)
    shown_figure(last, value)
    show = getattr(value, "_repr_html_", None)
    html = show() if show else None
    if show and not (html or "").startswith("<!DOCTYPE html>"):
        sys.exit("the displayed value's _repr_html_ gave no HTML document")
    print(html[:200] if html else repr(value)[:200])
EOF
for f in "$T"/py*.py; do
  name=$(basename "$f" .py)
  if (unset PYTHONPATH; "$PYV" "$T/cell.py" "$f") > "$T/out" 2> "$T/err" < /dev/null; then
    echo "PASS readme/python-$name"
  else
    echo "FAIL readme/python-$name: exit $?"
    tail -n 5 "$T/err" | sed 's/^/    /'
  fi
done
exit 0
