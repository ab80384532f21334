#!/bin/sh
# pip_other_python.sh - the README's offline install in a venv of a Python
# that is not Debian's (issue 44 item 12): such a venv has setuptools but no
# `wheel`, and `pip install --no-build-isolation --no-index ./python` must
# still install the package (python/_build_backend.py writes the wheel), the
# installed package's estimate must print the CLI's figure, and pip
# uninstall must remove every file of it.  The interpreter: $JC_OTHER_PYTHON,
# else the first python3.7+ on PATH or under ~/.pyenv/versions whose real
# path is outside /usr/bin and whose venv has setuptools (Python 3.12 and
# later venvs ship none: the README says to add it).  Where there is none,
# the case prints SKIP (tests/expected_skips.txt).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
SRC=$PWD
JC_RELEASE=${JC_RELEASE:-$SRC/build/joulecast}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
ok() { echo "PASS pip/non-debian-$1"; }
ko() { echo "FAIL pip/non-debian-$1${2:+: $2}"; }
unset JOULECAST_HWDB JOULECAST_HWDB_DIR JOULECAST_HWDB_SNAPSHOT JOULECAST_LIB PYTHONPATH
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 PIP_FIND_LINKS=

# candidates, best first; the first whose venv has setuptools is used
cands=${JC_OTHER_PYTHON:-$( { which -a python3 2>/dev/null
  ls -d "${HOME:-/root}"/.pyenv/versions/*/bin/python3 /root/.pyenv/versions/*/bin/python3 2>/dev/null | sort -r; } )}
PY=""
for c in $cands; do
  real=$(readlink -f "$c" 2>/dev/null) || continue
  case "$real" in /usr/bin/*|/bin/*) continue ;; esac
  "$c" -c 'import sys; sys.exit(sys.version_info < (3, 7))' 2>/dev/null || continue
  rm -rf "$T/venv"
  "$c" -m venv "$T/venv" > /dev/null 2>&1 || continue
  "$T/venv/bin/python" -c 'import setuptools' 2>/dev/null || continue
  PY=$c; break
done
if [ -z "$PY" ]; then
  echo "SKIP pip/non-debian-offline-install (no python3.7+ other than Debian's whose venv has setuptools)"
  exit 0
fi
V=$T/venv
"$V/bin/python" -c 'import wheel' 2>/dev/null && echo "  note: $PY's venv has wheel: the case runs setuptools' bdist_wheel"
if "$V/bin/pip" install --no-build-isolation --no-index ./python > "$T/pip.log" 2>&1; then
  ok offline-install; echo "  with $PY ($("$PY" --version 2>&1))"
else
  ko offline-install "$PY: $(grep -m3 -i 'error' "$T/pip.log" | tr '\n' '|')"
  exit 0
fi
cli=$("$JC_RELEASE" estimate models/resnet50.onnx --batch 8 --requests 1000 --device a100 --region FR --json |
      /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["results"]["energy_facility_kwh"])')
got=$(cd / && "$V/bin/python" -c "import joulecast; print(joulecast.estimate(model='$SRC/models/resnet50.onnx', batch=8, requests=1000, device='a100', region='FR')['results']['energy_facility_kwh'])" 2> "$T/err")
[ -n "$cli" ] && [ "$got" = "$cli" ] && ok estimate-equals-cli ||
  ko estimate-equals-cli "$PY: python '$got' vs CLI '$cli' $(head -c 300 "$T/err")"
site=$("$V/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
"$V/bin/pip" uninstall -y joulecast > "$T/un.log" 2>&1
left=$(ls -d "$site"/joulecast* 2>/dev/null | tr '\n' ' ')
[ -z "$left" ] && ok uninstall-removes-all || ko uninstall-removes-all "left: $left"
exit 0
