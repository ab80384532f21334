#!/bin/sh
# cloud_vm.sh - a cloud VM on CPUs (issue 42; src/estimate/vm.c): a CPU-only
# instance alone (--host aws:c7i.4xlarge) names its CPU, the vCPUs' share
# and the memory power; the same VM through `joulecast ga` (physical cores,
# TDP per core, memory, PUE, the estimate's runtime) agrees within 1 %;
# --vcpus takes a share of a named CPU; the refusals.  ASan build, $JC.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
out=build/test-cloud-vm
mkdir -p "$out"
PY=/usr/bin/python3

case_() {   # name expected_rc pattern -- command...
  name=$1; want=$2; pat=$3; shift 4
  "$@" > "$out/$name.out" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL cloud_vm/$name (exit $rc, expected $want)"; sed 's/^/    /' "$out/$name.out" | tail -5
  elif [ -n "$pat" ] && ! grep -q -- "$pat" "$out/$name.out"; then
    echo "FAIL cloud_vm/$name (no '$pat' in output)"; sed 's/^/    /' "$out/$name.out" | tail -5
  else
    echo "PASS cloud_vm/$name"
  fi
}

RUN="estimate models/resnet50.onnx --host aws:c7i.4xlarge --region aws:us-east-1 --requests 1000000"
case_ c7i_names_cpu 0 '^hardware   1 x Intel Xeon Platinum 8488C, 16 vCPUs (intel-xeon-platinum-8488c)' -- "$JC" $RUN
case_ c7i_share_and_memory 0 '^vm         16 vCPUs of Intel Xeon Platinum 8488C (0.1667 of the package): CPU 66.57 W, memory 11.92 W$' -- "$JC" $RUN
case_ c7i_ga_beside 0 '^vs GA      Green Algorithms for the same VM ' -- "$JC" $RUN

# the same VM through the Green Algorithms mode: 8 cores (16 vCPUs / 2
# threads per core) x the CPU's TDP per core, 32 GB, the estimate's PUE and
# central runtime; facility energy within 1 %
"$JC" $RUN --json > "$out/c7i.json" 2>"$out/c7i.err"
"$JC" hw show intel-xeon-platinum-8488c --json > "$out/cpu.json" 2>&1
if $PY - "$JC" "$out" <<'PYEOF'
import json, subprocess, sys
jc, out = sys.argv[1], sys.argv[2]
e = json.load(open(out + "/c7i.json"))
cpu = json.load(open(out + "/cpu.json"))
cpu = cpu["devices"][0] if "devices" in cpu else cpu
tdp = cpu["tdp_w"]["value"] if isinstance(cpu["tdp_w"], dict) else cpu["tdp_w"]
per_core = tdp / cpu["cores"]
h = e["hardware"]
cores = h["vcpus"] / (cpu["threads"] / cpu["cores"])
T = e["results"]["wall_hours"]["central"]
pue = e["region"]["pue"]["central"]
ga = json.loads(subprocess.run([jc, "ga", "--runtime", repr(T), "--cores", repr(cores), "--tdp-per-core", repr(per_core),
                                "--memory", "32", "--pue", repr(pue), "--json"], capture_output=True, text=True, check=True).stdout)
ga_kwh = ga["result"]["energy_kwh"] if "result" in ga else ga["energy_kwh"]
jc_kwh = e["results"]["energy_facility_kwh"]["central"]
d = jc_kwh / ga_kwh - 1
print("estimate %.6g kWh, ga %.6g kWh (%d cores x %.4g W, 32 GB, PUE %g, %.4g h): %+.3f%%" % (jc_kwh, ga_kwh, cores, per_core, pue, T, 100 * d))
sys.exit(0 if abs(d) <= 0.01 and abs(h["ga_facility_kwh"] / ga_kwh - 1) <= 0.01 else 1)
PYEOF
then echo "PASS cloud_vm/c7i_agrees_with_ga_mode_1pct"; else echo "FAIL cloud_vm/c7i_agrees_with_ga_mode_1pct"; fi

# usage below 1: the idle floor Green Algorithms leaves out (16/96 x (99.5 + 299.9 x 0.5) = 41.57 W)
case_ c7i_usage_half 0 'CPU 41.57 W, memory 11.92 W' -- "$JC" estimate models/resnet50.onnx --host aws:c7i.4xlarge --hours 1 --cpu-usage 0.5 --region aws:us-east-1
case_ vcpus_of_named_cpu 0 '^vm         16 vCPUs of Intel Xeon Platinum 8488C (0.1667 of the package): CPU 66.57 W, memory not counted' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8488c --vcpus 16 --requests 1000 --region FR
case_ burstable_baseline_said 0 'aws:t3.large is burstable: 0.3 of each vCPU without CPU credits' -- "$JC" estimate models/resnet50.onnx --host aws:t3.large --requests 1000 --region aws:us-east-1
case_ graviton_instance 0 '^vm         4 vCPUs of AWS Graviton3 (0.0625 of the package)' -- "$JC" estimate models/resnet50.onnx --host aws:c7g.xlarge --requests 1000 --region aws:us-east-1
case_ vcpus_beside_instance_refused 2 'aws:c7i.4xlarge has 16 vCPUs of its own' -- "$JC" estimate models/resnet50.onnx --host aws:c7i.4xlarge --vcpus 4 --requests 1000
case_ vcpus_of_gpu_refused 2 'is not a CPU' -- "$JC" estimate models/resnet50.onnx --device a100 --vcpus 4 --requests 1000
case_ vcpus_beyond_package_refused 2 '200 vCPUs exceed the 96 hardware threads of 1 x intel-xeon-platinum-8488c' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8488c --vcpus 200 --requests 1000
