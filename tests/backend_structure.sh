#!/bin/sh
# backend_structure.sh - tests/backend/structure.tsv, the table of the ONNX
# backend suite's models that tests/unit/test_backend_load.c compares the
# loader with, is what python3-onnx reads from the installed suite
# (tools/backend_structure.py --check): the figures the 1,072 load cases
# assert come from a reader independent of joulecast's.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
if ! /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
  echo "FAIL backend_structure/python3-onnx (no onnx for /usr/bin/python3: apt-get install python3-onnx, or sh tools/deps.sh test)"
  exit 0
fi
/usr/bin/python3 tools/backend_structure.py --check tests/backend/structure.tsv
