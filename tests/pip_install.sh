#!/bin/sh
# pip_install.sh - the Python package as pip installs it (issue #16 item 1),
# with Debian's python3, pip, setuptools and wheel, offline:
#   - `python3 -m venv --system-site-packages $JC_PYVENV` and `pip install
#     --no-build-isolation --no-index ./python` from the working tree;
#   - from / : joulecast.__file__, the library and the hwdb inside the
#     venv, __version__ = JC_VERSION, and the issue's estimate printing the
#     CLI's figure; the package's hwdb snapshot fresh after the first call;
#   - `pip wheel ./python` gives a py3-none-<platform> wheel that installs
#     in a second venv (no system site packages) and works from /;
#   - `pip uninstall joulecast` there leaves no file of the package.
# The venv $JC_PYVENV (default: a temporary one) is what tests/python.sh,
# tests/pytorch.sh and tests/readme_examples.sh run the package from;
# tests/run.sh creates it once per `make test` with this script, first.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
SRC=$PWD
PY=/usr/bin/python3
JC_RELEASE=${JC_RELEASE:-$SRC/build/joulecast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
V=${JC_PYVENV:-$T/venv}
ok() { echo "PASS pip/$1"; }
ko() { echo "FAIL pip/$1${2:+: $2}"; }
unset JOULECAST_HWDB JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT JOULECAST_LIB PYTHONPATH
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

if ! "$PY" -c 'import venv, ensurepip, setuptools, wheel' 2>/dev/null; then
  ko debian-packages "$PY lacks venv/ensurepip/setuptools/wheel: apt-get install python3-pip python3-venv python3-setuptools python3-wheel"
  exit 0
fi
rm -rf "$V"
if "$PY" -m venv --system-site-packages "$V" > "$T/venv.log" 2>&1 &&
   "$V/bin/pip" install --no-build-isolation --no-index ./python > "$T/pip.log" 2>&1; then
  ok install
else
  ko install "$(tail -n 8 "$T/venv.log" "$T/pip.log" | tr '\n' '|')"
  exit 0
fi

want_v=$(sed -n 's/^#define JC_VERSION "\(.*\)"/\1/p' include/joulecast.h)
cli=$("$JC_RELEASE" estimate models/resnet50.onnx --batch 8 --requests 1000 --device a100 --region FR --json |
      "$PY" -c 'import json,sys; print(json.load(sys.stdin)["results"]["energy_facility_kwh"])')
# the issue's command, from /, with the model's absolute path
got=$(cd / && "$V/bin/python" -c "import joulecast; print(joulecast.estimate(model='$SRC/models/resnet50.onnx', batch=8, requests=1000, device='a100', region='FR')['results']['energy_facility_kwh'])" 2> "$T/err")
[ -n "$cli" ] && [ "$got" = "$cli" ] && ok done-when-estimate-equals-cli ||
  ko done-when-estimate-equals-cli "python '$got' vs CLI '$cli' $(head -c 300 "$T/err")"

(cd / && "$V/bin/python" - "$V" "$want_v" > "$T/where" 2>&1) <<'EOF'
import os, sys, joulecast
venv, want = os.path.realpath(sys.argv[1]) + os.sep, sys.argv[2]
def inside(p): return os.path.realpath(p).startswith(venv)
print("file", inside(joulecast.__file__))
print("library", inside(joulecast.library_path()))
print("hwdb", inside(joulecast.hwdb_dir()))
print("version", joulecast.__version__ == want)
snap = joulecast.hwdb_snapshot()
print("snapshot", bool(snap) and inside(snap))
EOF
for w in file library hwdb version snapshot; do
  grep -q "^$w True$" "$T/where" && ok "$w-inside-venv" || ko "$w-inside-venv" "$(tr '\n' '|' < "$T/where")"
done
# a second process finds the rewritten snapshot fresh (no rewrite)
fresh=$(cd / && "$V/bin/python" -c '
import ctypes, joulecast, joulecast._native as n
lib = n.load(); db = ctypes.c_void_p(); d = n._Diag()
snap = joulecast.hwdb_snapshot()
st = lib.jc_hwdb_snapshot_open(snap.encode(), joulecast.hwdb_dir().encode(), 0, ctypes.byref(db), ctypes.byref(d))
print(st, d.msg.decode())' 2>&1)
[ "$fresh" = "0 " ] && ok snapshot-fresh-after-install || ko snapshot-fresh-after-install "$fresh"

# pip wheel -> a wheel that installs elsewhere; pip uninstall removes it all
if "$V/bin/pip" wheel --no-build-isolation --no-index --no-deps -w "$T/wheels" ./python > "$T/wheel.log" 2>&1; then
  whl=$(ls "$T"/wheels/joulecast-"$want_v"-py3-none-*.whl 2>/dev/null | head -n 1)
  [ -n "$whl" ] && ok wheel-built || ko wheel-built "$(ls "$T/wheels")"
else
  ko wheel-built "$(tail -n 5 "$T/wheel.log" | tr '\n' '|')"; whl=""
fi
if [ -n "$whl" ] && "$PY" -m venv "$T/v2" > /dev/null 2>&1 &&
   "$T/v2/bin/pip" install --no-index "$whl" > "$T/w2.log" 2>&1; then
  got2=$(cd / && "$T/v2/bin/python" -c "import joulecast; print(joulecast.estimate(model='$SRC/models/resnet50.onnx', batch=8, requests=1000, device='a100', region='FR')['results']['energy_facility_kwh'])" 2>&1)
  [ "$got2" = "$cli" ] && ok wheel-installs-and-runs || ko wheel-installs-and-runs "$got2"
  site=$("$T/v2/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  "$T/v2/bin/pip" uninstall -y joulecast > "$T/un.log" 2>&1
  left=$(ls -d "$site"/joulecast* 2>/dev/null | tr '\n' ' ')
  [ -z "$left" ] && ok uninstall-removes-all || ko uninstall-removes-all "left: $left"
else
  ko wheel-installs-and-runs "$(tail -n 5 "$T/w2.log" 2>/dev/null | tr '\n' '|')"
fi
exit 0
