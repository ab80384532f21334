#!/bin/sh
# hwdb.sh - CLI tests of `hw`, `region`, `hwdb check` and the cloud instances (ASan build, $JC):
# exit codes, "did you mean" on a typo, located errors from `hwdb check`,
# override layers through --hwdb and $JOULECAST_HWDB, valid JSON; and the
# hwdb schema as data (src/hwdb/fields_<kind>.def): docs/hwdb-schema.md's
# generated tables and tools/hwdb_fields.json equal `joulecast hwdb schema`
# (tools/hwdb_schema.py --check), and both readers of the tables refuse the
# same bad entries (tests/hwdb/schema_bad/): the C loader and
# tools/check_hwdb.py; and that the generated hwdb files equal
# tools/gen_hwdb.py's output (SKIP where its inputs, ../shared/data, are absent).
# Prints one PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
out=build/test-hwdb-cli
mkdir -p "$out"

# case NAME EXPECTED_RC GREP_PATTERN -- command...
case_() {
  name=$1; want=$2; pat=$3; shift 4
  "$@" > "$out/$name.out" 2>&1
  rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL hwdb_cli/$name (exit $rc, expected $want)"; sed 's/^/    /' "$out/$name.out" | tail -5
  elif [ -n "$pat" ] && ! grep -q -- "$pat" "$out/$name.out"; then
    echo "FAIL hwdb_cli/$name (no '$pat' in output)"; sed 's/^/    /' "$out/$name.out" | tail -5
  else
    echo "PASS hwdb_cli/$name"
  fi
}

json_ok() {  # name, command...: exit 0 and output parses as JSON
  name=$1; shift
  if "$@" > "$out/$name.json" 2>&1 && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$out/$name.json" 2>/dev/null; then
    echo "PASS hwdb_cli/$name"
  else
    echo "FAIL hwdb_cli/$name (not valid JSON)"
  fi
}

case_ check_bundled 0 'devices' -- "$JC" hwdb check
case_ check_override 0 'devices' -- "$JC" hwdb check tests/hwdb/override
case_ check_bad_file 5 'unknown_key.yaml:9:5: .*did you mean' -- "$JC" hwdb check --alone tests/hwdb/bad/unknown_key.yaml
case_ check_bad_dir 5 'dup_alias_files/a.yaml:9:15' -- "$JC" hwdb check --alone tests/hwdb/bad/dup_alias_files
case_ check_missing 3 'cannot open' -- "$JC" hwdb check --alone tests/hwdb/nope
case_ check_usage 2 '' -- "$JC" hwdb
case_ hw_list 0 'nvidia-a100-sxm4-80gb' -- "$JC" hw list
case_ hw_list_hosts 0 'p4d.24xlarge' -- "$JC" hw list --kind host
case_ hw_list_badkind 2 'kind must be' -- "$JC" hw list --kind fpga
case_ hw_list_vendor 0 'nvidia-h100-sxm5' -- "$JC" hw list --vendor nvidia --form-factor sxm5 --year 2022
case_ hw_list_vendor_unknown 6 "did you mean 'NVIDIA'" -- "$JC" hw list --vendor nvdia
case_ hw_list_year_range_bad 2 'the first year is after the second' -- "$JC" hw list --year 2024-2020
case_ hw_list_year_not_a_year 2 'expects a year' -- "$JC" hw list --year 20x
case_ hw_list_year_hosts 2 'filters devices, not hosts' -- "$JC" hw list --kind host --year 2023
case_ hw_show_derived 0 'peak_tflops.fp32 .*(derived)' -- "$JC" hw show intel-core-i7-12700h
case_ hw_show_sm_count_json 0 '"sm_count"' -- "$JC" hw show a100 --json
case_ hw_show_alias 0 'tdp_w                  400 W' -- "$JC" hw show A100
case_ hw_show_source 0 'source nvidia-a100-sxm4-80gb-spec' -- "$JC" hw show a100
# system entries of issue 39 item 4 (tools/hwdb_input/systems.csv): a GB200
# NVL72 rack is one host of 72 GPUs whose nameplate (120 kW) is above a
# server's; its GPUs form one 72-GPU NVLink domain with a 400 Gb/s NIC each
case_ hw_show_nvl72_rack 0 'max_power_w            120,000 W' -- "$JC" hw show gb200-nvl72
case_ hw_show_nvl72_domain 0 'node_devices           72' -- "$JC" hw show gb200
case_ hw_show_gb300_network 0 'node_network_gbs       100 GB/s' -- "$JC" hw show gb300
case_ hw_show_mi355x_platform 0 'accelerators.count     8' -- "$JC" hw show mi355x-platform
# their fabric (tools/hwdb_input/fabric.csv): the rack's 72-GPU NVLink domain
# reduces in the switch; HGX A100's second-generation NVSwitch does not;
# GB300 has an 800 Gb/s NIC per GPU; MI355X 7 links of 153.6 GB/s
case_ fabric_nvl72_domain 0 'fabric.scaleup_devices 72' -- "$JC" hw show gb200-nvl72
case_ fabric_nvl72_sharp 0 'fabric.scaleup_reduction 1' -- "$JC" hw show gb200-nvl72
case_ fabric_a100_no_sharp 0 'fabric.scaleup_reduction 0' -- "$JC" hw show hgx-a100-8gpu
case_ fabric_gb300_nic 0 'fabric.scaleout_gbs    100 GB/s' -- "$JC" hw show gb300-nvl72
case_ fabric_mi355x_link 0 'fabric.scaleup_gbs     537.6 GB/s' -- "$JC" hw show mi355x-platform
# 144 GB200 on the rack host: two racks, each with its 10.8 kW of Grace CPUs and memory
"$JC" estimate --train --params 8e9 --layers 32 --hidden 4096 --heads 32 --seq 8192 --batch 144 --tokens 1e9 \
  --device gb200 --count 144 --host gb200-nvl72 --json > "$out/nvl72.json" 2>&1
if python3 -c 'import json,sys; a={x["key"]: x["value"]["central"] for x in json.load(open(sys.argv[1]))["assumptions"]}; sys.exit(0 if (a["hosts"], a["host.power_w"]) == (2, 21600) else 1)' "$out/nvl72.json" 2>/dev/null; then
  echo "PASS hwdb_cli/estimate_nvl72_hosts"
else
  echo "FAIL hwdb_cli/estimate_nvl72_hosts (want 2 hosts of 10,800 W)"; tail -3 "$out/nvl72.json" | sed 's/^/    /'
fi
case_ hw_show_host 0 'host_power_w' -- "$JC" hw show p4d.24xlarge
case_ hw_show_typo 6 'did you mean nvidia-a100-sxm4-80gb' -- "$JC" hw show nvidia-a100-sxm4-80g
case_ hw_show_override 0 'tdp_w                  450 W' -- "$JC" hw show a100 --hwdb tests/hwdb/override
case_ hw_show_env 0 'Lab NPU' -- env JOULECAST_HWDB=tests/hwdb/override "$JC" hw show labnpu
case_ hw_bad_layer 5 'syntax_error.yaml:10:11: YAML syntax error' -- "$JC" hw list --hwdb tests/hwdb/bad/syntax_error.yaml
case_ region_list 0 'FR ' -- "$JC" region list
case_ region_list_aws 0 'aws:us-east-1' -- "$JC" region list --provider aws
case_ region_list_type 0 'cloud' -- "$JC" region list --type cloud
case_ region_list_badprov 6 'no provider named' -- "$JC" region list --provider awz
case_ region_show 0 'default intensity' -- "$JC" region show fr
case_ region_show_why 0 'why' -- "$JC" region show DE
case_ region_show_cloud 0 'grid' -- "$JC" region show aws:us-east-1
case_ region_show_typo 6 'did you mean' -- "$JC" region show frnace
# a US state one grid zone serves draws from that zone's value in the common
# basis, named, without the fallback warning (issue 44 item 15)
# one case per class of hwdb/README.md's rule: most of a state in one zone
# (CA, TX, TN), a whole operator's states (MA in ISO-NE), a territory in a
# neighbour's zone (AU-ACT), and states "all or most" in an RTO by FERC's
# description (PA and DC in PJM, MN in MISO, KS in SPP)
for rz in US-CA:US-CAL-CISO:208 US-TX:US-TEX-ERCO:363 US-MA:US-NE-ISNE: AU-ACT:AU-NSW: US-TN:US-TEN-TVA:404 \
          US-PA:US-MIDA-PJM:418 US-DC:US-MIDA-PJM:418 US-MN:US-MIDW-MISO:501 US-KS:US-CENT-SWPP:477 \
          US-UT:US-NW-PACE:618; do
  r=${rz%%:*} z=${rz#*:}; v=${z#*:}; z=${z%%:*}
  case_ "region_state_zone_$r" 0 "grid.ci  *$v.*grid carbon intensity, $z, dataset electricitymaps-2025" -- \
    "$JC" estimate models/resnet18.onnx --device a100 --region "$r"
  if grep -q "^region  *$r (.*; grid zone $z)" "$out/region_state_zone_$r.out" &&
     ! grep -q "no value in the common intensity basis" "$out/region_state_zone_$r.out"; then
    echo "PASS hwdb_cli/region_state_zone_named_$r"
  else
    echo "FAIL hwdb_cli/region_state_zone_named_$r (no 'grid zone $z' in the region line, or the basis warning)"
  fi
done
# a state with no zone mapped says so and how to name one (WA: several
# zones; IL: split between PJM and MISO)
case_ region_state_no_zone 0 'US-WA has no value .*no grid zone is mapped to it: name the zone it lies in as --region (joulecast region list --type grid)' -- \
  "$JC" estimate models/resnet18.onnx --device a100 --region US-WA
case_ region_state_split_no_zone 0 'US-IL has no value .*no grid zone is mapped to it: name the zone it lies in as --region' -- \
  "$JC" estimate models/resnet18.onnx --device a100 --region US-IL
# a state that is an Electricity Maps zone of its own: its value, no zone named, no warning
case_ region_state_own_zone_US-AK 0 'grid.ci  *469 .*grid carbon intensity, US-AK, dataset electricitymaps-2025' -- \
  "$JC" estimate models/resnet18.onnx --device a100 --region US-AK
if grep -q "^region  *US-AK (Alaska)$" "$out/region_state_own_zone_US-AK.out" &&
   ! grep -q "no value in the common intensity basis" "$out/region_state_own_zone_US-AK.out"; then
  echo "PASS hwdb_cli/region_state_own_zone_named_US-AK"
else
  echo "FAIL hwdb_cli/region_state_own_zone_named_US-AK (a zone named, or the basis warning)"
fi
json_ok hw_list_json "$JC" hw list --json
json_ok hw_show_json "$JC" hw show h100 --json
json_ok host_show_json "$JC" hw show p4d.24xlarge --json
json_ok region_list_json "$JC" region list --json --provider gcp
json_ok region_show_json "$JC" region show FR --json

# ---- the schema as data --------------------------------------------------
python3 tools/hwdb_schema.py --check "$JC"
case_ schema_unknown_kind 6 'kinds with a field table: device, host, region' -- "$JC" hwdb schema nosuchkind
case_ schema_loader_unknown_key 5 "unknown_key.yaml:9:5: device 'test-gpu-a': unknown key 'memory_bandwidth' (expected one of: id, kind, aliases, vendor," -- "$JC" hwdb check --alone tests/hwdb/schema_bad/unknown_key.yaml
case_ schema_loader_out_of_range 5 "out_of_range.yaml:10:25: device 'test-gpu-b': utilization.training = 1.5 is out of range" -- "$JC" hwdb check --alone tests/hwdb/schema_bad/out_of_range.yaml
case_ schema_loader_constant_unknown_key 5 "constant_unknown_key.yaml:7:5: constant 'test_w_per_gb': unknown key 'units'; did you mean 'unit'?" -- "$JC" hwdb check --alone tests/hwdb/schema_bad/constant_unknown_key.yaml
case_ schema_loader_host_no_accelerators 5 "host_no_accel.yaml:5:5: host 'test-server-noacc': missing required key 'accelerators' (only a CPU-only cloud-instance" -- "$JC" hwdb check --alone tests/hwdb/schema_bad/host_no_accel.yaml
case_ schema_loader_missing_scope 5 "missing_scope.yaml:9:22: device 'test-gpu-c': embodied_kgco2e: missing required key 'scope'" -- "$JC" hwdb check --alone tests/hwdb/schema_bad/missing_scope.yaml
if python3 -c 'import yaml' 2>/dev/null; then
  case_ schema_check_hwdb_bundled 0 '^OK$' -- python3 tools/check_hwdb.py hwdb
  # the cloud instance catalogue (issue 42): at least 300 instances, and
  # every instance CPU with a power figure and a dense peak, every instance
  # accelerator with a power figure (a gap is listed)
  case_ instances_catalogue_complete 0 '^OK [0-9]* instances (aws [0-9]*, azure [0-9]*, gcp [0-9]*)$' -- python3 tools/check_instances.py hwdb
  case_ instances_catalogue_gap_listed 1 '^test:cpu.large: CPU test-cpu-nopower has no power figure (tdp_w)$' -- python3 tools/check_instances.py --min 1 tests/hwdb/instances_gap
  case_ instances_catalogue_accelerator_gap_listed 1 '^test:acc.large: accelerator test-acc-nopower has no power figure (tdp_w)$' -- python3 tools/check_instances.py --min 1 tests/hwdb/instances_gap
  case_ instances_catalogue_l3_gap_listed 1 '^test:cpu.large: CPU test-cpu-nopower has no L3 (l3_mb)$' -- python3 tools/check_instances.py --min 1 tests/hwdb/instances_gap
  for pat in "unknown_key.yaml: device test-gpu-a: unknown keys \['memory_bandwidth'\]" \
             "out_of_range.yaml: device test-gpu-b.utilization.training.value = 1.5 out of range" \
             "missing_scope.yaml: device test-gpu-c.embodied_kgco2e: missing scope" \
             "constant_unknown_key.yaml: constant test_w_per_gb: unknown keys \['units'\]"; do
    case_ "schema_check_hwdb_$(echo "$pat" | sed 's/\.yaml.*//')" 1 "$pat" -- python3 tools/check_hwdb.py tests/hwdb/schema_bad
  done
  # no constant keyed by a device (id or alias), no fitted constant keyed by
  # a benchmark or a version, no fitted value in a device record (issue 30):
  # planted cases in tests/hwdb/schema_bad/keyed_*.yaml
  for c in "device_id:constant test_network_gbs.test-gpu-k: keyed by device 'test-gpu-k'" \
           "device_alias:constant test_launch_s_tgk: keyed by device 'tgk'" \
           "version:constant test_decode_eta.vllm-0.5: a fitted constant keyed by version '0.5'" \
           "version_v:constant test_eta_v2: a fitted constant keyed by version 'v2'" \
           "benchmark:constant test_eta_mlperf: a fitted constant keyed by benchmark 'mlperf'" \
           "device_record:device test-gpu-k: energy.pj_per_flop.int8 is fitted to calibration rows"; do
    case_ "schema_check_hwdb_keyed_${c%%:*}" 1 "${c#*:}" -- python3 tools/check_hwdb.py tests/hwdb/schema_bad
  done
  # ... while a constant that is not fitted may carry a version-like token
  if python3 tools/check_hwdb.py tests/hwdb/schema_bad 2>&1 | grep -q 'test_unfitted_v2'; then
    echo "FAIL hwdb_cli/schema_check_hwdb_keyed_unfitted_version (an unfitted constant was refused for a version token)"
  else
    echo "PASS hwdb_cli/schema_check_hwdb_keyed_unfitted_version"
  fi
  # the rules between a device's spec fields: the loader's bad corpus
  # (tests/hwdb/bad/, test_hwdb) is refused by tools/check_hwdb.py too
  for c in "cpu_peak_not_derived:peak_tflops.fp32: a CPU's peak is derived" \
           "acc32_above_peak:peak_tflops_acc32.fp16 above peak_tflops.fp16" \
           "acc32_without_peak:peak_tflops_acc32.fp16 without peak_tflops.fp16" \
           "sm_count_fraction:sm_count must be a whole number" \
           "tdp_outside_power_limit:tdp_w outside power_limit_w" \
           "memory_type_unknown:memory_type: 'HBM5' is not one of"; do
    name=${c%%:*}; mkdir -p "$out/py_$name"; cp "tests/hwdb/bad/$name.yaml" "$out/py_$name/"
    case_ "spec_rule_check_hwdb_$name" 1 "${c#*:}" -- python3 tools/check_hwdb.py "$out/py_$name"
  done
else
  echo "FAIL hwdb_cli/schema_check_hwdb (PyYAML is not installed: python3 -c 'import yaml')"
fi

# the generated hwdb files are the generator's output (tools/gen_hwdb.py from
# the shared facts and tools/hwdb_input/): a hand edit of a generated file,
# or a generator change not rerun, is a FAIL.  It needs the facts the
# generator reads (../shared/data, or $JC_SHARED_DATA); where they are
# absent (a clone outside the workplace) the case says SKIP.
data=${JC_SHARED_DATA:-../shared/data}
if [ -f "$data/facts/accelerators.csv" ]; then
  rm -rf "$out/gen" && mkdir -p "$out/gen"
  if python3 tools/gen_hwdb.py --data "$data" --out "$out/gen" > "$out/gen.log" 2>&1; then
    bad=$(cd "$out/gen" && find . -name '*.yaml' | sort | while read -r f; do cmp -s "$f" "$OLDPWD/hwdb/$f" || echo "$f"; done)
    if [ -z "$bad" ]; then
      echo "PASS hwdb_cli/generated_files_match_generator ($(find "$out/gen" -name '*.yaml' | wc -l) files)"
    else
      echo "FAIL hwdb_cli/generated_files_match_generator (differ from tools/gen_hwdb.py's output: $(echo $bad); rerun it and commit both)"
    fi
  else
    echo "FAIL hwdb_cli/generated_files_match_generator (tools/gen_hwdb.py failed)"; tail -5 "$out/gen.log" | sed 's/^/    /'
  fi
else
  echo "SKIP hwdb_cli/generated_files_match_generator (no $data/facts: the generator's inputs are not here)"
fi

# the MLPerf systems' hosts (issue 41, tools/gen_hwdb.py mlperf_system_hosts)
# count their memory by module, as their own descriptions list it, at
# Crucial's 5 W a module: the R282-Z93's 8 x 64 GB add 40 W, not 512 GB x
# 0.3725 W/GB = 191 W, so its busy power is (2 x 120 + 8 x 5 + 1) / 0.94
# = 298.9 W and the estimate says so (it was 459.3 W)
if "$JC" estimate models/resnet50.onnx --device qualcomm-cloud-ai-100-pro --count 8 --host r282-z93 --runtime qaic \
     --precision int8 --region FR > "$out/r282.txt" 2>&1 \
   && grep -q 'host.power_w  *298.9  *W' "$out/r282.txt" \
   && grep -A2 'host.power_w  *298.9' "$out/r282.txt" | grep -q 'GIGABYTE R282-Z93'; then
  echo "PASS hwdb_cli/mlperf_host_memory_by_module (R282-Z93 host 298.9 W: 8 modules x 5 W)"
else
  echo "FAIL hwdb_cli/mlperf_host_memory_by_module (R282-Z93 host power)"; grep 'host\.' "$out/r282.txt" | sed 's/^/    /'
fi

# a cloud VM on CPUs (issue 42; src/estimate/vm.c): a CPU-only instance
# alone (--host aws:c7i.4xlarge) names its CPU, the vCPUs' share and the
# memory power; the same VM through `joulecast ga` (physical cores, TDP per
# core, memory, PUE, the estimate's runtime) agrees within 1 %; --vcpus
# takes a share of a named CPU; the refusals
RUN="estimate models/resnet50.onnx --host aws:c7i.4xlarge --region aws:us-east-1 --requests 1000000"
case_ vm_c7i_names_cpu 0 '^hardware   1 x Intel Xeon Platinum 8488C, 16 vCPUs (intel-xeon-platinum-8488c)' -- "$JC" $RUN
case_ vm_c7i_share_and_memory 0 '^vm         16 vCPUs of Intel Xeon Platinum 8488C (0.1667 of the package): CPU 66.57 W, memory 11.92 W$' -- "$JC" $RUN
case_ vm_c7i_ga_beside 0 '^vs GA      Green Algorithms for the same VM ' -- "$JC" $RUN

# the same VM through the Green Algorithms mode: 8 cores (16 vCPUs / 2
# threads per core) x the CPU's TDP per core, 32 GB, the estimate's PUE and
# central runtime; facility energy within 1 %
"$JC" $RUN --json > "$out/c7i.json" 2>"$out/c7i.err"
"$JC" hw show intel-xeon-platinum-8488c --json > "$out/cpu.json" 2>&1
if /usr/bin/python3 - "$JC" "$out" <<'PYEOF'
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
then echo "PASS hwdb_cli/vm_c7i_agrees_with_ga_mode_1pct"; else echo "FAIL hwdb_cli/vm_c7i_agrees_with_ga_mode_1pct"; fi

# usage below 1: the idle floor Green Algorithms leaves out (16/96 x (99.5 + 299.9 x 0.5) = 41.57 W)
case_ vm_c7i_usage_half 0 'CPU 41.57 W, memory 11.92 W' -- "$JC" estimate models/resnet50.onnx --host aws:c7i.4xlarge --hours 1 --cpu-usage 0.5 --region aws:us-east-1
case_ vm_vcpus_of_named_cpu 0 '^vm         16 vCPUs of Intel Xeon Platinum 8488C (0.1667 of the package): CPU 66.57 W, memory not counted' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8488c --vcpus 16 --requests 1000 --region FR
case_ vm_burstable_baseline_said 0 'aws:t3.large is burstable: 0.3 of each vCPU without CPU credits' -- "$JC" estimate models/resnet50.onnx --host aws:t3.large --requests 1000 --region aws:us-east-1
case_ vm_graviton_instance 0 '^vm         4 vCPUs of AWS Graviton3 (0.0625 of the package)' -- "$JC" estimate models/resnet50.onnx --host aws:c7g.xlarge --requests 1000 --region aws:us-east-1
case_ vm_vcpus_beside_instance_refused 2 'aws:c7i.4xlarge has 16 vCPUs of its own' -- "$JC" estimate models/resnet50.onnx --host aws:c7i.4xlarge --vcpus 4 --requests 1000
case_ vm_vcpus_of_gpu_refused 2 'is not a CPU' -- "$JC" estimate models/resnet50.onnx --device a100 --vcpus 4 --requests 1000
case_ vm_vcpus_beyond_package_refused 2 '200 vCPUs exceed the 96 hardware threads of 1 x intel-xeon-platinum-8488c' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8488c --vcpus 200 --requests 1000
# Trainium / Inferentia power (issue 42 item 7; derived in devices.csv, each
# derivation named): their instances estimate without --avg-power
for h in inf1.xlarge inf2.xlarge trn1.32xlarge trn2.48xlarge; do
  case_ neuron_power_$h 0 '^  average power per device ' -- "$JC" estimate models/resnet50.onnx --host aws:$h --requests 1000 --region aws:us-east-1
done
# sweep: a CPU-only instance is its vCPUs; a cloud region whose provider sells
# no instance with the device is left out and counted (issue 42 item 4)
case_ vm_sweep_cpu_instance_unsold_counted 0 '^left out   1 device/region pair no provider sells (1 point)' -- "$JC" sweep models/resnet50.onnx --host aws:c7i.4xlarge --requests 100 --regions aws:us-east-1,FR,gcp:us-central1
# compare: the job's device/region pair is sold or refused, by sweep's rule
# (jci_grid_unsold; issue 42 item 6): a TPU in an AWS region, an AWS
# instance in a GCP region; a country or a provider that sells it passes
case_ compare_unsold_tpu_refused 2 'google-tpu-v4 is not sold in aws:us-east-1: aws has no instance with it' -- "$JC" compare models/resnet50.onnx models/resnet18.onnx --device tpu-v4 --requests 100 --region aws:us-east-1
case_ compare_unsold_host_refused 2 'aws:c7i.4xlarge is not sold in gcp:us-central1' -- "$JC" compare models/resnet50.onnx models/resnet18.onnx --host aws:c7i.4xlarge --requests 100 --region gcp:us-central1
case_ compare_sold_tpu_runs 0 'resnet18' -- "$JC" compare models/resnet50.onnx models/resnet18.onnx --device tpu-v4 --requests 100 --region gcp:us-central1
case_ compare_own_hardware_runs 0 'resnet18' -- "$JC" compare models/resnet50.onnx models/resnet18.onnx --device tpu-v4 --requests 100 --region FR
# CPU runtime profiles (issue 42 item 5): the matrix unit, the threads, the
# uncalibrated profiles; --threads beyond a CPU; the time moves with them
case_ cpu_rt_ort_int8_no_amx 0 'cpu.matrix_unit            28.67 .*not the CPU.s matrix engine' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8480plus --precision int8 --runtime onnxruntime --batch 32 --requests 1000 --region FR
case_ cpu_rt_ipex_int8_amx 0 'cpu.matrix_unit            229.4 .*matrix engine (AMX / SME): 32 x the fp32 peak' -- "$JC" estimate models/resnet50.onnx --device intel-xeon-platinum-8480plus --precision int8 --runtime ipex --batch 32 --requests 1000 --region FR
case_ cpu_rt_threads_beyond_cores 0 '--threads 64 exceeds the 16 physical cores of AMD Ryzen 9 7950X' -- "$JC" estimate models/resnet50.onnx --device amd-ryzen-9-7950x --threads 64 --runtime onnxruntime --requests 1000 --region FR
case_ cpu_rt_uncalibrated_warned 0 '--runtime llama.cpp is uncalibrated' -- "$JC" estimate models/resnet50.onnx --device amd-ryzen-9-7950x --runtime llama.cpp --requests 1000 --region FR
case_ cpu_rt_threads_on_gpu_refused 2 '--threads sets a CPU runtime.s intra-op threads; nvidia-a100-sxm4-80gb is not a CPU' -- "$JC" estimate models/resnet50.onnx --device a100 --threads 4 --requests 10
case_ cpu_rt_ort_on_gpu_refused 2 '--runtime onnxruntime .* does not run inference on' -- "$JC" estimate models/resnet50.onnx --device a100 --runtime onnxruntime --requests 10
if python3 - "$JC" <<'PYEOF'
import json, subprocess, sys
jc = sys.argv[1]
def wall(*extra):
    a = [jc, "estimate", "models/resnet50.onnx", "--device", "intel-xeon-platinum-8480plus", "--precision", "int8",
         "--batch", "32", "--requests", "3200", "--region", "FR", "--json"] + list(extra)
    return json.loads(subprocess.run(a, capture_output=True, text=True, check=True).stdout)["results"]["wall_hours"]["central"]
ort, ipex = wall("--runtime", "onnxruntime"), wall("--runtime", "ipex")
full, eight = wall("--runtime", "ipex"), wall("--runtime", "ipex", "--threads", "8")
print("ResNet-50 int8 on a Xeon 8480+: onnxruntime %.4g h, ipex %.4g h; ipex on 8 threads %.4g h" % (ort, ipex, eight))
sys.exit(0 if ort > 1.5 * ipex and eight > 2 * full else 1)
PYEOF
then echo "PASS hwdb_cli/cpu_rt_amx_and_threads_move_time"; else echo "FAIL hwdb_cli/cpu_rt_amx_and_threads_move_time"; fi
