#!/bin/sh
# cost_water.sh - issue 45's cost and water (src/estimate/cost.c) against
# their arithmetic (ASan build, $JC), from the JSON of `estimate`:
#   - an instance's price: cost = instances x wall hours x its price per
#     instance-hour (aws:p4d.24xlarge, on demand, from hwdb/hosts.yaml), each
#     of low / central / high, the source and date named;
#   - --price P: the same with P, in --currency;
#   - an on-premises run: cost = facility kWh x the region's electricity
#     price (US-PA, hwdb/regions/subnational.yaml), or --electricity-price;
#   - water: on-site = IT kWh x WUE (aws:us-west-2's published WUE),
#     off-site = facility kWh x --grid-water, total = their sum;
#   - unknown is null, never 0: a region without a price or a water
#     factor gives cost null and water null with the reason; a cloud
#     instance without a price (aws:p5e.48xlarge) says why (the price
#     list checked) and gets the electricity alone only with
#     --electricity-price, and says so;
#   - a GCP and an Azure instance (gcp:a2-highgpu-8g in us-central1,
#     azure:Standard_ND96asr_v4 in eastus): cost = hours x the hwdb's
#     price in estimate, compare, sweep --sort cost, the statement and the
#     HTML report, each naming its source; on-site water = IT kWh x the
#     provider's fleet WUE (providers.yaml), named;
#   - coverage (tools/check_cost_water.py): every AWS, GCP and Azure
#     instance of the hwdb has a price or says why not, every region with
#     an intensity has a water factor or none, and one sweep over all
#     those regions has a water figure exactly where the hwdb has a factor;
#     an instance with neither a price nor a reason is listed (exit 1);
#   - refusals: a malformed --price, --currency without a number (exit 2).
# The hwdb values are read from hwdb/ here (not copied into the test), so
# the check is the arithmetic and the plumbing.  One PASS/FAIL line per case.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/asan/joulecast}
export LC_ALL=C
unset JOULECAST_HWDB
mkdir -p build
out=$(mktemp -d build/test-cost_water.XXXXXX)
trap 'rm -rf "$out"' EXIT
JOB="models/resnet50.onnx --train --samples 1281167 --epochs 90 --batch 256"

ok() { echo "PASS cost_water/$1"; }
ko() { echo "FAIL cost_water/$1 ($2)"; }

# check NAME JSONFILE PYTHON-EXPRESSION-OVER-d: PASS when it is true
check() {
  name=$1; shift
  if msg=$(python3 - "$@" 2>&1 <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
r, c, w = d["results"], d["cost"], d["water"]
def near(a, b):
    return abs(a - b) <= 1e-9 * max(abs(b), 1e-300)
def rng(x, f):   # every corner of range x times f (a number or a range)
    return all(near(x[k], f if not isinstance(f, dict) else f[k]) for k in ("low", "central", "high"))
ok = eval("(" + sys.argv[2] + ")")
if not ok:
    print(json.dumps({"cost": c, "water": w})[:600])
sys.exit(0 if ok else 1)
PY
  ); then ok "$name"; else ko "$name" "$msg"; fi
}

# 1. an instance's on-demand price from the hwdb
if $JC estimate $JOB --host p4d.24xlarge --region aws:us-west-2 --json > "$out/inst.json" 2> "$out/inst.err"; then
  check instance_price_times_hours "$out/inst.json" \
    'c["basis"] == "on-demand" and c["currency"] == "USD" and c["instances"] == 1 and c["rate"] > 0 and
     all(near(c["total"][k], c["rate"] * r["wall_hours"][k]) for k in ("low", "central", "high")) and
     "hwdb/hosts.yaml" in c["source"] and c["date"] and c["region"] == "aws:us-east-1" and
     near(r["cost"]["central"], c["total"]["central"])'
  check instance_region_warned "$out/inst.json" \
    'any("prices aws:p4d.24xlarge in aws:us-east-1 only" in x for x in d["warnings"])'
  check onsite_water_wue "$out/inst.json" \
    'w["wue_l_per_kwh"] > 0 and "cloud-aws.yaml" in w["wue_source"] and
     all(near(w["onsite_l"][k], r["energy_it_kwh"][k] * w["wue_l_per_kwh"]) for k in ("low", "central", "high"))'
  check offsite_water_country "$out/inst.json" \
    'w["grid_water_l_per_kwh"] > 0 and w["grid_water_source"].startswith("US, its country for aws:us-west-2") and
     "countries.yaml" in w["grid_water_source"] and
     all(near(w["offsite_l"][k], r["energy_facility_kwh"][k] * w["grid_water_l_per_kwh"]) for k in ("low", "central", "high")) and
     all(near(w["total_l"][k], w["onsite_l"][k] + w["offsite_l"][k]) for k in ("low", "central", "high")) and
     w["basis"].startswith("total")'
else
  ko instance_price_times_hours "$(head -n 2 "$out/inst.err")"
fi

# 2. --price and --currency, two instances' worth of devices
if $JC estimate $JOB --host p4d.24xlarge --hosts 2 --count 16 --region aws:us-east-1 --price 20 --currency EUR \
     --json > "$out/price.json" 2> "$out/price.err"; then
  check price_option "$out/price.json" \
    'c["basis"] == "price" and c["currency"] == "EUR" and c["source"] == "--price" and c["instances"] == 2 and
     all(near(c["total"][k], 40 * r["wall_hours"][k]) for k in ("low", "central", "high")) and c["date"] is None'
else
  ko price_option "$(head -n 2 "$out/price.err")"
fi

# 3. on premises: the region's electricity price; off-site water by --grid-water
if $JC estimate $JOB --device a100 --count 8 --region US-PA --grid-water 1.5 --json > "$out/pa.json" 2> "$out/pa.err"; then
  check electricity_price_times_kwh "$out/pa.json" \
    'c["basis"] == "electricity" and c["rate_unit"] == "USD/kWh" and c["instances"] is None and
     all(near(c["total"][k], c["rate"] * r["energy_facility_kwh"][k]) for k in ("low", "central", "high")) and
     "subnational.yaml" in c["source"] and c["region"] == "US-PA" and c["date"] == "2025-06-25"'
  check offsite_water_grid "$out/pa.json" \
    'w["grid_water_source"] == "--grid-water" and w["wue_l_per_kwh"] is None and w["onsite_l"] is None and
     all(near(w["offsite_l"][k], 1.5 * r["energy_facility_kwh"][k]) for k in ("low", "central", "high")) and
     w["basis"].startswith("off-site only")'
else
  ko electricity_price_times_kwh "$(head -n 2 "$out/pa.err")"
fi
if $JC estimate $JOB --device a100 --count 8 --region US-PA --electricity-price 0.2 --wue 0.5 --grid-water 2 \
     --json > "$out/pa2.json" 2> "$out/pa2.err"; then
  check electricity_option "$out/pa2.json" \
    'c["source"] == "--electricity-price" and rng(c["total"], {k: 0.2 * r["energy_facility_kwh"][k] for k in ("low", "central", "high")})'
  check water_total_is_sum "$out/pa2.json" \
    'all(near(w["total_l"][k], 0.5 * r["energy_it_kwh"][k] + 2 * r["energy_facility_kwh"][k]) for k in ("low", "central", "high")) and
     w["basis"].startswith("total") and w["wue_source"] == "--wue"'
else
  ko electricity_option "$(head -n 2 "$out/pa2.err")"
fi

# 4. unknown is null, never 0 (Singapore: no price, no water factor in the hwdb)
if $JC estimate $JOB --device a100 --count 8 --region SG --json > "$out/sg.json" 2> "$out/ca.err"; then
  check unknown_is_null "$out/sg.json" \
    'c["total"] is None and r["cost"] is None and "no electricity price for SG" in c["absent"] and
     w["total_l"] is None and r["water_l"] is None and "no water factor for SG" in w["absent"]'
else
  ko unknown_is_null "$(head -n 2 "$out/ca.err")"
fi
$JC estimate $JOB --device a100 --count 8 --region US-CA > "$out/ca.txt" 2>&1
if grep -q "^  cost  .* n/a .* n/a .* n/a" "$out/ca.txt" && grep -q "^  cost     n/a: no electricity price for US-CA" "$out/ca.txt"; then
  ok unknown_is_na_in_text
else
  ko unknown_is_na_in_text "$(grep -n cost "$out/ca.txt" | head -n 3)"
fi

# 5. a cloud instance without a price: null, unless --electricity-price asks
$JC estimate $JOB --host p5e.48xlarge --region aws:us-east-1 --json > "$out/p5.json" 2> /dev/null
check unpriced_instance_null "$out/p5.json" \
  'c["total"] is None and "aws:p5e.48xlarge has no on-demand price" in c["absent"] and
   "(not in the us-east-1 list of the Karpenter provider for AWS (2026-01-19))" in c["absent"]'
$JC estimate $JOB --host p5e.48xlarge --region aws:us-east-1 --electricity-price 0.1 --json > "$out/p5e.json" 2> /dev/null
check unpriced_instance_electricity_named "$out/p5e.json" \
  'c["basis"] == "electricity" and rng(c["total"], {k: 0.1 * r["energy_facility_kwh"][k] for k in ("low", "central", "high")}) and
   any("electricity alone" in x for x in d["warnings"])'

# 6. sweep --sort cost: ascending central cost, unknown last; each entry's
# cost is its own estimate's (the instance's price in a cloud region, the
# electricity elsewhere); compare carries each model's cost and water
SW="models/resnet50.onnx --train --samples 1281167 --epochs 1 --batch 256 --count 8"
if $JC sweep $SW --devices a100,v100 --regions aws:us-east-1,US-PA,FR --sort cost --json > "$out/sw.json" 2> "$out/sw.err"; then
  if msg=$(python3 - "$out/sw.json" 2>&1 <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
assert d["sort"] == "cost", d["sort"]
c = [x["cost"]["central"] if x["cost"] else math.inf for x in d["entries"]]
assert c == sorted(c), c
assert c[-1] == math.inf and c[0] < math.inf, c
for x in d["entries"]:
    if x["region"] == "FR":
        assert x["cost"] is None and x["cost_currency"] is None, x
    if x["region"] == "aws:us-east-1":
        assert x["cost_currency"] == "USD" and x["host"].startswith("aws:"), x
PY
  ); then ok sweep_sort_cost; else ko sweep_sort_cost "$msg"; fi
  $JC estimate $SW --device a100 --region aws:us-east-1 --json > "$out/one.json" 2> /dev/null
  if python3 -c "
import json, sys
s = json.load(open('$out/sw.json'))['entries']
e = json.load(open('$out/one.json'))
x = [x for x in s if x['device'] == e['hardware']['device'] and x['region'] == 'aws:us-east-1'][0]
# the entry's cost per wall hour is the estimate's price x instances (the sweep's own time)
r = e['cost']['rate'] * e['cost']['instances']
ok = all(abs(x['cost'][k] - r * x['wall_hours'][k]) <= 1e-9 * x['cost'][k] for k in ('low', 'central', 'high'))
sys.exit(0 if ok and e['cost']['basis'] == 'on-demand' and x['cost_currency'] == 'USD' else 1)"; then
    ok sweep_entry_is_estimate
  else
    ko sweep_entry_is_estimate "the sweep entry's cost is not its wall hours x the estimate's price x instances"
  fi
else
  ko sweep_sort_cost "$(head -n 2 "$out/sw.err")"
fi
if $JC compare models/resnet50.onnx models/mobilenet_v2.onnx --train --samples 1281167 --epochs 1 --batch 64 \
     --host p4d.24xlarge --region aws:us-east-1 --json > "$out/cmp.json" 2> "$out/cmp.err" &&
   python3 -c "
import json, sys
m = json.load(open('$out/cmp.json'))['models']
ok = all(abs(x['cost']['total']['central'] - x['cost']['rate'] * x['wall_hours']['central']) <= 1e-9 * x['cost']['total']['central']
         and x['water']['total_l'] is not None for x in m)
sys.exit(0 if ok else 1)"; then
  ok compare_cost_water
else
  ko compare_cost_water "$(head -n 2 "$out/cmp.err")"
fi

# 7. the statement carries cost, water and the top driver; the HTML report
# has the section with data-keys of the JSON's figures
$JC statement $JOB --host p4d.24xlarge --region aws:us-east-1 > "$out/st.md" 2> "$out/st.err"
$JC estimate $JOB --host p4d.24xlarge --region aws:us-east-1 --sensitivity --json > "$out/sens.json" 2> /dev/null
top=$(python3 -c "import json; print(json.load(open('$out/sens.json'))['sensitivity'][0]['label'])" 2>/dev/null)
cost=$(python3 -c "
import json, sys
sys.path.insert(0, 'tools')
d = json.load(open('$out/inst.json'))
print(d['cost']['total']['central'])" 2>/dev/null)
if [ -n "$top" ] && grep -qF "dominates this range is the $top" "$out/st.md" && grep -q "costs about .* USD" "$out/st.md" &&
   grep -q "consumes about .* L of water" "$out/st.md" && grep -q "Cost (on-demand): 21.96 USD/instance-hour" "$out/st.md"; then
  ok statement_cost_water_driver
else
  ko statement_cost_water_driver "top '$top'; $(grep -o 'costs about[^[]*' "$out/st.md" | head -n 1)"
fi
$JC estimate $JOB --host p4d.24xlarge --region aws:us-east-1 --html "$out/r.html" > /dev/null 2>&1
if grep -q '<section id="cost-water">' "$out/r.html" && grep -q 'data-key="cost.total.central"' "$out/r.html" &&
   grep -q 'data-key="water.onsite_l.central"' "$out/r.html"; then
  ok html_section
else
  ko html_section "no cost-water section or data-keys in the HTML report"
fi

# 9. a GCP and an Azure instance: the hwdb's price x hours in estimate,
# compare, sweep --sort cost, the statement and the HTML report, each with
# its source; on-site water by the provider's fleet WUE
hwdb_of() {  # hwdb_of KIND ID KEY: a figure of hwdb/hosts.yaml or providers.yaml
  python3 - "$@" <<'PY'
import sys, yaml
kind, ident, key = sys.argv[1:4]
f, lst = {"host": ("hwdb/hosts.yaml", "hosts"), "provider": ("hwdb/providers.yaml", "providers")}[kind]
e = [x for x in yaml.safe_load(open(f))[lst] if x["id"] == ident][0]
for k in key.split("."):
    e = e[k]
print(repr(e))
PY
}
if ! python3 -c 'import yaml' 2> /dev/null; then
  ko gcp_azure_prices "PyYAML is not installed: python3 -c 'import yaml'"
else
  for c in "gcp a2-highgpu-8g gcp:us-central1 karpenter-provider-gcp" \
           "azure Standard_ND96asr_v4 azure:eastus karpenter-provider-azure"; do
    set -- $c; prov=$1; host=$prov:$2; region=$3; repo=$4
    price=$(hwdb_of host "$host" price.on_demand.value); wue=$(hwdb_of provider "$prov" wue.value)
    if $JC estimate $JOB --host "$host" --region "$region" --json > "$out/$prov.json" 2> "$out/$prov.err"; then
      check "${prov}_instance_price_times_hours" "$out/$prov.json" \
        'c["basis"] == "on-demand" and c["currency"] == "USD" and c["instances"] == 1 and c["rate"] == '"$price"' and
         all(near(c["total"][k], '"$price"' * r["wall_hours"][k]) for k in ("low", "central", "high")) and
         "hwdb/hosts.yaml" in c["source"] and "'"$repo"'" in c["source"] and c["date"] and c["region"] == "'"$region"'" and
         near(r["cost"]["central"], c["total"]["central"])'
      check "${prov}_onsite_water_fleet_wue" "$out/$prov.json" \
        'w["wue_l_per_kwh"] == '"$wue"' and w["wue_source"].startswith("'"$prov"''"'"'s fleet figure: hwdb/providers.yaml") and
         all(near(w["onsite_l"][k], r["energy_it_kwh"][k] * '"$wue"') for k in ("low", "central", "high"))'
    else
      ko "${prov}_instance_price_times_hours" "$(head -n 2 "$out/$prov.err")"
    fi
    # compare: each model's cost is its own hours x the price
    if $JC compare models/resnet50.onnx models/mobilenet_v2.onnx --train --samples 1281167 --epochs 1 --batch 64 \
         --host "$host" --region "$region" --json > "$out/${prov}_cmp.json" 2> "$out/${prov}_cmp.err" &&
       python3 -c "
import json, sys
m = json.load(open('$out/${prov}_cmp.json'))['models']
sys.exit(0 if len(m) == 2 and all(x['cost']['rate'] == $price and '$repo' in x['cost']['source'] and
         all(abs(x['cost']['total'][k] - $price * x['wall_hours'][k]) <= 1e-9 * x['cost']['total'][k]
             for k in ('low', 'central', 'high')) for x in m) else 1)"; then
      ok "${prov}_compare_cost"
    else
      ko "${prov}_compare_cost" "$(head -n 2 "$out/${prov}_cmp.err")"
    fi
    # the statement: the price, its source and the cost the estimate gives
    $JC statement $JOB --host "$host" --region "$region" > "$out/${prov}_st.md" 2> /dev/null
    want=$(python3 -c "
import json
c = json.load(open('$out/$prov.json'))['cost']
print('Cost (on-demand): %.4g USD/instance-hour|costs about %.4g USD' % (c['rate'], c['total']['central']))")
    if grep -qF "${want%%|*}" "$out/${prov}_st.md" && grep -qF "${want#*|}" "$out/${prov}_st.md" &&
       grep -q "$repo" "$out/${prov}_st.md"; then
      ok "${prov}_statement_cost"
    else
      ko "${prov}_statement_cost" "no '$want' or $repo in the statement"
    fi
    # the HTML report: the section, the central cost as data, the source
    $JC estimate $JOB --host "$host" --region "$region" --html "$out/${prov}.html" > /dev/null 2>&1
    if python3 -c "
import json, re, sys
c = json.load(open('$out/$prov.json'))['cost']
h = open('$out/${prov}.html').read()
v = re.search(r'data-key=\"cost.total.central\" data-value=\"([^\"]+)\"', h)
sys.exit(0 if v and abs(float(v.group(1)) - c['total']['central']) <= 1e-9 * c['total']['central'] and
         '<section id=\"cost-water\">' in h and '$repo' in h else 1)"; then
      ok "${prov}_html_cost"
    else
      ko "${prov}_html_cost" "no cost-water section with the central cost and the source"
    fi
  done
  # sweep --sort cost over both clouds: each entry = its host's hwdb price x hosts x wall hours
  if $JC sweep models/resnet50.onnx --train --samples 1281167 --epochs 1 --batch 256 --count 8 --devices a100,h100 \
       --regions gcp:us-central1,azure:eastus --sort cost --json > "$out/gasw.json" 2> "$out/gasw.err"; then
    if msg=$(python3 - "$out/gasw.json" 2>&1 <<'PY'
import json, sys, yaml
d = json.load(open(sys.argv[1]))
price = {h["id"]: h["price"]["on_demand"]["value"] for h in yaml.safe_load(open("hwdb/hosts.yaml"))["hosts"]
         if "on_demand" in h.get("price", {})}
e = d["entries"]
assert d["sort"] == "cost" and len(e) >= 3, (d["sort"], len(e))
c = [x["cost"]["central"] for x in e]
assert c == sorted(c), c
for x in e:
    assert x["region"].split(":")[0] == x["host"].split(":")[0], x
    p = price[x["host"]] * x["hosts"]
    assert all(abs(x["cost"][k] - p * x["wall_hours"][k]) <= 1e-9 * x["cost"][k] for k in ("low", "central", "high")), x
PY
    ); then ok gcp_azure_sweep_sort_cost; else ko gcp_azure_sweep_sort_cost "$msg"; fi
  else
    ko gcp_azure_sweep_sort_cost "$(head -n 2 "$out/gasw.err")"
  fi
  # 10. coverage: prices of the three clouds' instances, water of every region with an intensity
  regions=$(python3 tools/check_cost_water.py --regions hwdb)
  if $JC sweep --flops 1e18 --device a100 --regions "$regions" --json > "$out/allreg.json" 2> "$out/allreg.err" &&
     python3 tools/check_cost_water.py --sweep "$out/allreg.json" hwdb > "$out/cov.txt" 2>&1 &&
     grep -q "^OK prices: [0-9]* of [0-9]* instances (aws [0-9/]*, azure [0-9/]*, gcp [0-9/]*), the rest say why not; water: [0-9]* of [0-9]* regions with an intensity have a water factor, [0-9]* have none (n/a); the sweep agrees$" "$out/cov.txt"; then
    ok coverage_prices_water
  else
    ko coverage_prices_water "$(head -n 3 "$out/cov.txt" "$out/allreg.err" 2> /dev/null)"
  fi
  # an instance with neither a price nor a reason is listed
  mkdir -p "$out/gap/regions"
  cp hwdb/providers.yaml "$out/gap/"
  cp hwdb/regions/*.yaml "$out/gap/regions/"
  grep -v 'price: {absent: ' hwdb/hosts.yaml > "$out/gap/hosts.yaml"
  python3 tools/check_cost_water.py "$out/gap" > "$out/gap.txt" 2>&1
  if [ $? = 1 ] && grep -q "^aws:p5e.48xlarge: no on-demand price and no price.absent saying why$" "$out/gap.txt"; then
    ok coverage_gap_listed
  else
    ko coverage_gap_listed "$(head -n 2 "$out/gap.txt")"
  fi
fi

# 8. refusals
refused() {  # refused NAME EXIT ARGS...: exit EXIT and a message naming the option
  name=$1; want=$2; shift 2
  $JC estimate $JOB --device a100 --count 8 --region US-PA "$@" > /dev/null 2> "$out/r.err"
  got=$?
  if [ "$got" = "$want" ] && grep -q -- "$1" "$out/r.err"; then ok "$name"; else ko "$name" "exit $got: $(head -n 1 "$out/r.err")"; fi
}
refused price_malformed 2 --price cheap
refused currency_without_number 2 --currency EUR
refused currency_malformed 2 --currency euro --electricity-price 0.2
refused electricity_malformed 2 --electricity-price lots
exit 0
