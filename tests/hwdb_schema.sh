#!/bin/sh
# hwdb_schema.sh - the hwdb schema as data (src/hwdb/fields_<kind>.def): the
# generated tables of docs/hwdb-schema.md and tools/hwdb_fields.json equal
# `joulecast hwdb schema` (tools/hwdb_schema.py --check), and both readers
# of the tables refuse the same bad entries (tests/hwdb/schema_bad/): the C
# loader (`hwdb check --alone FILE`, exit 5 naming the key) and
# tools/check_hwdb.py (a problem line naming the entry).  One PASS/FAIL line
# per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
out=build/test-hwdb-schema
mkdir -p "$out"

python3 tools/hwdb_schema.py --check "$JC"

"$JC" hwdb schema nosuchkind > "$out/nokind.out" 2>&1
rc=$?
if [ "$rc" -eq 6 ] && grep -q "kinds with a field table: device" "$out/nokind.out"; then
  echo "PASS hwdb_schema/unknown_kind"
else
  echo "FAIL hwdb_schema/unknown_kind (exit $rc)"; sed 's/^/    /' "$out/nokind.out" | head -5
fi

# loader: file, message
loader() {
  "$JC" hwdb check --alone "tests/hwdb/schema_bad/$1.yaml" > "$out/$1.out" 2>&1
  rc=$?
  if [ "$rc" -eq 5 ] && grep -q -- "$2" "$out/$1.out"; then
    echo "PASS hwdb_schema/loader_$1"
  else
    echo "FAIL hwdb_schema/loader_$1 (exit $rc, expected 5 and '$2')"; sed 's/^/    /' "$out/$1.out" | head -5
  fi
}
loader unknown_key "unknown_key.yaml:9:5: device 'test-gpu-a': unknown key 'memory_bandwidth' (expected one of: id, kind, aliases, vendor,"
loader out_of_range "out_of_range.yaml:10:25: device 'test-gpu-b': utilization.training = 1.5 is out of range"
loader missing_scope "missing_scope.yaml:9:22: device 'test-gpu-c': embodied_kgco2e: missing required key 'scope'"

if python3 -c 'import yaml' 2>/dev/null; then
  python3 tools/check_hwdb.py hwdb > "$out/check_bundled.out" 2>&1
  rc=$?
  if [ "$rc" -eq 0 ] && tail -n 1 "$out/check_bundled.out" | grep -q '^OK$'; then
    echo "PASS hwdb_schema/check_hwdb_bundled"
  else
    echo "FAIL hwdb_schema/check_hwdb_bundled (exit $rc)"; tail -n 8 "$out/check_bundled.out" | sed 's/^/    /'
  fi
  python3 tools/check_hwdb.py tests/hwdb/schema_bad > "$out/check_bad.out" 2>&1
  rc=$?
  for pat in "unknown_key.yaml: device test-gpu-a: unknown keys \['memory_bandwidth'\]" \
             "out_of_range.yaml: device test-gpu-b.utilization.training.value = 1.5 out of range" \
             "missing_scope.yaml: device test-gpu-c.embodied_kgco2e: missing scope"; do
    name=$(echo "$pat" | sed 's/\.yaml.*//')
    if [ "$rc" -eq 1 ] && grep -q -- "$pat" "$out/check_bad.out"; then
      echo "PASS hwdb_schema/check_hwdb_$name"
    else
      echo "FAIL hwdb_schema/check_hwdb_$name (exit $rc, no '$pat')"; sed 's/^/    /' "$out/check_bad.out" | tail -6
    fi
  done
else
  echo "FAIL hwdb_schema/check_hwdb (PyYAML is not installed: python3 -c 'import yaml')"
fi
