#!/bin/sh
# pytorch.sh - the documented path from PyTorch to an estimate
# (docs/pytorch.md): runs python/examples/torch_to_estimate.py with the
# pip-installed package (the venv of tests/python_env.inc, which sees
# Debian's python3-torch through its system site packages) and checks that the exported
# model counts completely, that joulecast's MACs equal the hand count of
# the model's layers and its parameters equal torch's, and that the
# training estimate and the printed CLI command agree.  Fails, saying
# how to install them, where /usr/bin/python3 has no torch or onnx
# (`make test` installs python3-torch and python3-onnx).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-$PWD/build/joulecast}
unset JOULECAST_HWDB JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT JOULECAST_LIB PYTHONPATH
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. tests/python_env.inc
if ! pyvenv "$T" > "$T/why"; then
  echo "FAIL pytorch/pip-install ($(tr '\n' ' ' < "$T/why"))"
  exit 0
fi
PY=$PYV
if ! "$PY" -c 'import torch, onnx' 2>/dev/null; then
  echo "FAIL pytorch/torch-available (no torch or onnx for $PY: apt-get install python3-torch python3-onnx)"
  exit 0
fi
if ! "$PY" python/examples/torch_to_estimate.py "$T" > "$T/out.json" 2> "$T/err"; then
  echo "FAIL pytorch/example (exit $?)"
  tail -n 20 "$T/err"
  exit 0
fi
echo "PASS pytorch/example"
"$PY" - "$T/out.json" "$JC" <<'PYEOF'
import json, shlex, subprocess, sys
r = json.load(open(sys.argv[1]))
def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + "pytorch/" + name + ("" if ok else ": " + detail))
check("complete-count", r["partial"] is False, "count is partial")
check("macs-equal-hand-count", r["macs"] == r["hand_macs"], "%d != %d" % (r["macs"], r["hand_macs"]))
check("params-equal-torch", r["params"] == r["torch_params"], "%d != %d" % (r["params"], r["torch_params"]))
check("training-mode", r["mode"] == "training", r["mode"])
# docs/pytorch.md quotes the example's counts (tools/docs_figures.py: sourced here)
doc = " ".join(open("docs/pytorch.md").read().split())
for what, v in (("MACs per forward pass", r["macs"]), ("parameters", r["params"])):
    check("docs-quote-" + what.split()[0].lower(), "{:,} {}".format(v, what) in doc,
          "docs/pytorch.md does not say '{:,} {}'".format(v, what))
kwh = r["results"]["energy_facility_kwh"]
check("energy-range", 0 < kwh["low"] <= kwh["central"] <= kwh["high"], str(kwh))
args = shlex.split(r["cli"])[1:] + ["--json"]
try:
    out = subprocess.run([sys.argv[2]] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
except OSError as e:
    out = subprocess.CompletedProcess(args, 127, b"", str(e).encode())
if out.returncode != 0:
    check("cli-agrees", False, out.stderr.decode()[:200])
else:
    cli = json.loads(out.stdout)["results"]["energy_facility_kwh"]
    check("cli-agrees", cli == kwh, "%s != %s" % (cli, kwh))
PYEOF
exit 0
