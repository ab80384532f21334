#!/bin/sh
# web.sh - the WebAssembly page (web/index.html, make web) in headless
# Chromium, loaded from disk (file://) as a user opens it, in real time
# (tests/web_cdp.py drives it over the DevTools protocol and waits until
# the page says it has answered: no virtual-time budget to run out):
#   - requests driven by URL parameters (&json=1: the page writes the
#     library's JSON into <pre id="result"> with the command line it
#     offers): an ONNX inference estimate, a training estimate (of a model,
#     and of parameters x tokens), an LLM serving estimate from a Hugging
#     Face config.json, a comparison of two models and one of two devices;
#     each page JSON must equal the CLI's output for the page's command
#     line, every figure and string (tests/web_check.py json); issue 45's
#     cost and water controls (price, electricity price, currency, WUE,
#     grid water) in a case of their own, and a GCP and an Azure instance
#     priced by the hwdb (cost-gcp, cost-azure: the cost, its source and the
#     fleet WUE equal the CLI's);
#   - the Monte Carlo percentiles (issue 45 item 2): the README's
#     ResNet-50 training job with --draws 2000 --seed 11 gives the same
#     p5/p50/p95 in the page, the CLI and the Python binding
#     (web_check.py seeded; the binding pip-installed: tests/python_env.inc);
#   - the sweep's point cap (issue 43 item 6): the page's devices
#     comparison at --max-points 1, and every device x region x precision
#     (415,380 points) under the default cap of 400,000, refused as the CLI
#     refuses them: status 7 and the CLI's message (web_check.py refused);
#   - an ONNX file dropped on the page (a DragEvent carrying the file, as
#     a browser sends one) gives the same JSON as the CLI;
#   - served by a static HTTP host (web/ on 127.0.0.1), the page fetches
#     joulecast.wasm and nothing but its own files, and answers the same;
#   - the default view: its report has the cards and the chart (DOM), and
#     its screenshot build/web/default.png shows them (web_check.py png);
#   - the downloads (JSON, the three statements, the command line), pressed
#     by the keyboard, equal the CLI's; typing a new batch size updates the
#     report (tests/web_interact.py, over the DevTools protocol);
#   - as a person uses it (tests/web_person.py): every control worked by
#     mouse clicks, keys, typing, a dragged file and the file chooser; each
#     model source in each of its modes, both comparisons, a pasted config,
#     an error and its repair; each answer's JSON equals the CLI's, and its
#     screenshot (build/web/test/person/NAME.png) shows no error banner;
#   - no console error on any of them.
# The wasm toolchain comes from `make deps` (tools/deps.sh web installs
# emscripten when it is missing, saying so first; where it cannot - not
# root, no network - and no emcc is there, every case prints SKIP, a skip
# tests/expected_skips.txt allows); without chromium too, every case
# prints SKIP naming it; `make web` rebuilds only what changed (build/web/
# caches the C libraries and the objects).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC_RELEASE:-$PWD/build/joulecast}
OUT=${JC_WEB_OUT:-build/web/test}   # tests/deps_offline.sh runs it elsewhere
PY=/usr/bin/python3
CASES="infer train params serving compare compare-devices sweep-cap sweep-cap-default seeded drop http default-view default-png downloads live-update person"
mkdir -p "$OUT"

pass() { echo "PASS web/$1"; }
fail() { echo "FAIL web/$1${2:+: $2}"; }
fail_all() { for c in $CASES; do fail "$c" "$1"; done; exit 0; }
skip_all() { for c in $CASES; do echo "SKIP web/$c ($1)"; done; exit 0; }

CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip_all "chromium is not installed (as root: sh tools/deps.sh test)"
[ -x "$PY" ] || fail_all "$PY is missing (apt-get install python3)"
# the wasm toolchain absent and not installable here (not root, no
# network): every case SKIPs (tests/expected_skips.txt), make test goes on
if ! sh tools/deps.sh web > "$OUT/deps.log" 2>&1 || ! command -v "${EMCC:-emcc}" > /dev/null 2>&1; then
  command -v "${EMCC:-emcc}" > /dev/null 2>&1 ||
    skip_all "the web toolchain is absent: no ${EMCC:-emcc}, and tools/deps.sh web could not install it: $(tail -n 1 "$OUT/deps.log")"
  fail_all "the wasm toolchain is missing: $(tail -n 2 "$OUT/deps.log" | tr '\n' ' ')"
fi
if ! make --no-print-directory web > "$OUT/make.log" 2>&1; then
  # the other half of the toolchain: Debian's C library sources, fetched
  # once (apt-get source, cached in build/web/deps) - offline, a skip
  grep -q '^web_deps: apt-get source .* failed' "$OUT/make.log" &&
    skip_all "the web toolchain is absent: $(grep -m1 '^web_deps: apt-get source .* failed' "$OUT/make.log")"
  fail_all "make web failed: $(grep -m3 -i 'error' "$OUT/make.log" | tr '\n' ' ')"
fi

# the CLI runs where the page's file names mean the same files, with a copy
# of hwdb/ there so that its citations read hwdb/FILE:LINE as the page's do
CLI_DIR=$OUT/cli
rm -rf "$CLI_DIR" && mkdir -p "$CLI_DIR" && cp -R hwdb "$CLI_DIR/hwdb"
export JOULECAST_HWDB_DIR=hwdb
ln -sfn "$PWD/models" "$CLI_DIR/models"
ln -sfn "$PWD/tests/serving/configs" "$CLI_DIR/configs"

PAGE="file://$PWD/web/index.html"
# the JSON cases, one a line: NAME QUERY then the KEY=VALUE options the
# page's command line must hold (model=: a positional file)
cat > "$OUT/cases" <<'CASES_END'
infer model=models/resnet50.onnx&device=a100&region=FR&batch=8&requests=1000 model=models/resnet50.onnx device=a100 region=FR batch=8 requests=1000
train model=models/resnet18.onnx&mode=training&samples=50000&epochs=2&batch=64&device=h100&count=8&region=US-CA model=models/resnet18.onnx mode=training samples=50000 epochs=2 batch=64 device=h100 count=8 region=US-CA
params params=7e9&tokens=1e12&mode=training&device=h100&count=512&region=US params=7e9 tokens=1e12 mode=training device=h100 count=512
serving hf-config=configs/llama-3.1-8b.json&requests=100000&prompt-tokens=500&output-tokens=300&concurrency=32&device=h100&region=US hf-config=configs/llama-3.1-8b.json mode=generation requests=100000 prompt-tokens=500 output-tokens=300 concurrency=32 device=h100
compare model=models/resnet50.onnx&model=models/mobilenet_v2.onnx&device=a100&region=FR&batch=32&requests=10000 model=models/resnet50.onnx model=models/mobilenet_v2.onnx device=a100 batch=32
compare-devices model=models/bert_base.onnx&devices=a100,l4&region=DE&batch=8&requests=1000&dim=sequence=128 model=models/bert_base.onnx devices=a100,l4 region=DE dim=sequence=128
cost-water model=models/resnet50.onnx&device=a100&region=US-PA&batch=8&requests=1000&electricity-price=0.2&currency=EUR&wue=0.5&grid-water=1.5 model=models/resnet50.onnx device=a100 region=US-PA batch=8 requests=1000 electricity-price=0.2 currency=EUR wue=0.5 grid-water=1.5
cost-gcp model=models/resnet50.onnx&host=a2-highgpu-8g&region=gcp:us-central1&batch=8&requests=1000 model=models/resnet50.onnx host=a2-highgpu-8g region=gcp:us-central1 batch=8 requests=1000
cost-azure model=models/resnet50.onnx&host=Standard_ND96asr_v4&region=azure:eastus&batch=8&requests=1000 model=models/resnet50.onnx host=Standard_ND96asr_v4 region=azure:eastus batch=8 requests=1000
CASES_END

# every page, loaded by one browser in real time (tests/web_cdp.py dump:
# until each has answered): the JSON cases, then the default view with its
# screenshot; DOM in $OUT/NAME.html, console errors in $OUT/NAME.html.log
rm -f "$OUT"/*.html "$OUT"/*.html.log build/web/default.png
while read -r name q wants; do
  echo "$OUT/$name.html $PAGE?$q&json=1"
done < "$OUT/cases" > "$OUT/pages"
echo "$OUT/default-view.html $PAGE $PWD/build/web/default.png" >> "$OUT/pages"
# the sweep's point cap (issue 43 item 6) on the page's sweep (devices compared): --max-points 1,
# and the default cap of 400,000 (every device x every region x every precision: 415,380 points)
SWEEP_CAP="model=models/resnet50.onnx&devices=a100,l4&region=FR&batch=8&requests=1000&max-points=1"
SWEEP_ALL="model=models/resnet50.onnx&devices=all&region=&regions=all&precisions=all&requests=1000"
echo "$OUT/sweep-cap.html $PAGE?$SWEEP_CAP&json=1" >> "$OUT/pages"
# issue 45 item 2: the README's training job with 2,000 Monte Carlo draws at seed 11
SEEDED="model=models/resnet50.onnx&mode=training&samples=1281167&epochs=90&batch=256&device=a100&count=8&region=US-CA&draws=2000&seed=11"
echo "$OUT/seeded.html $PAGE?$SEEDED&json=1" >> "$OUT/pages"
echo "$OUT/sweep-cap-default.html $PAGE?$SWEEP_ALL&json=1" >> "$OUT/pages"
"$PY" tests/web_cdp.py dump "$OUT/pages" > "$OUT/dump.log" 2>&1 ||
  echo "FAIL web/pages: tests/web_cdp.py dump failed: $(tail -n 3 "$OUT/dump.log" | tr '\n' ' ')"
# a dropped file: tests/web_drop.html (copied to build/web/test/) drops
# models/resnet50.onnx on the page in its iframe (file:// pages may read
# files and each other only with --allow-file-access-from-files)
ln -sfn "$PWD/models" "$CLI_DIR/input"
cp tests/web_drop.html "$OUT/drop-test.html"
echo "$OUT/drop.html file://$PWD/$OUT/drop-test.html" > "$OUT/drop-pages"
"$PY" tests/web_cdp.py dump --files "$OUT/drop-pages" > "$OUT/dump-drop.log" 2>&1 ||
  echo "FAIL web/drop-page: tests/web_cdp.py dump failed: $(tail -n 3 "$OUT/dump-drop.log" | tr '\n' ' ')"

# from a static host: web/ served over HTTP (the module then comes as
# joulecast.wasm itself, not as the file:// script)
echo "$OUT/http.html {http}/index.html?model=models/resnet50.onnx&device=a100&region=FR&batch=8&requests=1000&json=1" > "$OUT/http-pages"
"$PY" tests/web_cdp.py dump --serve "$PWD/web" "$OUT/http-pages" > "$OUT/dump-http.log" 2>&1 ||
  echo "FAIL web/http-page: tests/web_cdp.py dump failed: $(tail -n 3 "$OUT/dump-http.log" | tr '\n' ' ')"

# page NAME: its DOM was written and it logged no console error
page() {
  if [ ! -s "$OUT/$1.html" ]; then fail "$1" "no DOM written (see $OUT/dump.log)"; return 1; fi
  if [ -s "$OUT/$1.html.log" ]; then fail "$1" "console: $(head -c 300 "$OUT/$1.html.log")"; return 1; fi
}

# each page's JSON equals the CLI's for the page's command line
while read -r name q wants; do
  page "$name" || continue
  # shellcheck disable=SC2086
  if msg=$("$PY" tests/web_check.py json "$OUT/$name.html" "$CLI_DIR" "$JC" $wants 2>&1); then
    pass "$name"
  else
    fail "$name" "$(echo "$msg" | head -n 8 | tr '\n' ' ')"
  fi
done < "$OUT/cases"
if page drop; then
  if msg=$("$PY" tests/web_check.py json "$OUT/drop.html" "$CLI_DIR" "$JC" model=input/resnet50.onnx device=a100 2>&1); then
    pass drop
  else
    fail drop "$(echo "$msg" | head -n 6 | tr '\n' ' ')"
  fi
fi

# the sweep's point cap: the page refuses as the CLI does (exit 7 naming the product and the cap)
for c in "sweep-cap sweep models/resnet50.onnx --mode inference --batch 8 --requests 1000 --devices a100,l4 --count 1 --region FR --max-points 1" \
         "sweep-cap-default sweep models/resnet50.onnx --mode inference --requests 1000 --devices all --count 1 --regions all --precisions all"; do
  # shellcheck disable=SC2086
  set -- $c
  name=$1; shift
  page "$name" || continue
  if msg=$("$PY" tests/web_check.py refused "$OUT/$name.html" 7 "$CLI_DIR" "$JC" "$@" 2>&1); then
    pass "$name"
  else
    fail "$name" "$(echo "$msg" | head -n 4 | tr '\n' ' ')"
  fi
done

# the same seed gives the same Monte Carlo percentiles in the page, the
# CLI and the Python binding (the package pip-installed as tests/python.sh
# has it: make test's venv, or one made here)
if page seeded; then
  . tests/python_env.inc
  if ! pyvenv "$OUT" > "$OUT/pyvenv.why"; then
    fail seeded "no Python binding to compare: $(tr '\n' ' ' < "$OUT/pyvenv.why")"
  elif msg=$("$PY" tests/web_check.py seeded "$OUT/seeded.html" "$CLI_DIR" "$JC" "$PYV" 2>&1); then
    pass seeded
  else
    fail seeded "$(echo "$msg" | head -n 8 | tr '\n' ' ')"
  fi
fi

# the page's own files, the only requests it may make
OWN='^GET /\(index\.html?.*\|app\.js\|app\.css\|joulecast\.js\|joulecast\.wasm\)$'
if page http; then
  if ! grep -q '^GET /joulecast\.wasm$' "$OUT/http-pages.http"; then
    fail http "the page did not fetch joulecast.wasm from the host: $(tr '\n' ' ' < "$OUT/http-pages.http")"
  elif grep -v "$OWN" "$OUT/http-pages.http" | grep -q .; then
    fail http "requests beyond the page's own files: $(grep -v "$OWN" "$OUT/http-pages.http" | tr '\n' ' ')"
  elif msg=$("$PY" tests/web_check.py json "$OUT/http.html" "$CLI_DIR" "$JC" model=models/resnet50.onnx device=a100 2>&1); then
    pass http
  else
    fail http "$(echo "$msg" | head -n 6 | tr '\n' ' ')"
  fi
fi

# the default view: no parameters
if page default-view; then
  if msg=$("$PY" tests/web_check.py shot "$OUT/default-view.html" 2>&1); then
    pass default-view
  else
    fail default-view "$msg"
  fi
fi
if msg=$("$PY" tests/web_check.py png build/web/default.png 2>&1); then
  pass default-png
else
  fail default-png "$msg"
fi

# by keyboard: the downloads and a changed input (DevTools protocol)
(cd "$CLI_DIR" && "$PY" "$OLDPWD/tests/web_interact.py" "$JC" "$PWD") || echo "FAIL web/downloads: tests/web_interact.py crashed"

# as a person uses it: clicks, keys, typing, a dragged file (DevTools protocol)
"$PY" tests/web_person.py "$JC" "$OUT/person" > "$OUT/person.log" 2>&1
if grep -q '^\(PASS\|FAIL\) web/person-' "$OUT/person.log"; then
  grep '^\(PASS\|FAIL\) web/person-' "$OUT/person.log"
else
  fail person "tests/web_person.py crashed: $(tail -n 3 "$OUT/person.log" | tr '\n' ' ')"
fi
