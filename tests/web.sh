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
#     line, every figure and string (tests/web_check.py json);
#   - an ONNX file dropped on the page (a DragEvent carrying the file, as
#     a browser sends one) gives the same JSON as the CLI;
#   - the default view: its report has the cards and the chart (DOM), and
#     its screenshot build/web/default.png shows them (web_check.py png);
#   - the downloads (JSON, the three statements, the command line), pressed
#     by the keyboard, equal the CLI's; typing a new batch size updates the
#     report (tests/web_interact.py, over the DevTools protocol);
#   - no console error on any of them.
# The wasm toolchain comes from `make deps` (tools/deps.sh web installs
# emscripten when it is missing: root, or the command is printed and every
# case FAILs); `make web` rebuilds only what changed (build/web/ caches the
# C libraries and the objects).
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC_RELEASE:-$PWD/build/joulecast}
OUT=build/web/test
PY=/usr/bin/python3
CASES="infer train params serving compare compare-devices drop default-view default-png downloads live-update"
mkdir -p "$OUT"

pass() { echo "PASS web/$1"; }
fail() { echo "FAIL web/$1${2:+: $2}"; }
fail_all() { for c in $CASES; do fail "$c" "$1"; done; exit 0; }

CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || fail_all "chromium is not installed (as root: sh tools/deps.sh test)"
[ -x "$PY" ] || fail_all "$PY is missing (apt-get install python3)"
sh tools/deps.sh web > "$OUT/deps.log" 2>&1 || fail_all "the wasm toolchain is missing: $(tail -n 2 "$OUT/deps.log" | tr '\n' ' ')"
if ! make --no-print-directory web > "$OUT/make.log" 2>&1; then
  fail_all "make web failed: $(grep -m3 -i 'error' "$OUT/make.log" | tr '\n' ' ')"
fi

# the CLI runs where the page's file names mean the same files, with a copy
# of hwdb/ there so that its citations read hwdb/FILE:LINE as the page's do
CLI_DIR=$OUT/cli
rm -rf "$CLI_DIR" && mkdir -p "$CLI_DIR" && cp -R hwdb "$CLI_DIR/hwdb"
export JOULECAST_HWDB_DIR=hwdb
ln -sfn "$PWD/models" "$CLI_DIR/models"
ln -sfn "$PWD/tests/serving/configs" "$CLI_DIR/configs"

# dump NAME URL [--files] [--shot PNG]: the page loaded headless in real time
# (tests/web_cdp.py: until it has answered), its DOM in $OUT/NAME.html; a
# console error is printed on stdout
dump() {
  name=$1; url=$2; shift 2
  "$PY" tests/web_cdp.py dump "$url" "$OUT/$name.html" "$@" > "$OUT/$name.log" 2>&1
}
PAGE="file://$PWD/web/index.html"

# json_case NAME QUERY KEY=VALUE...: the page's JSON equals the CLI's
json_case() {
  name=$1; q=$2; shift 2
  if ! dump "$name" "$PAGE?$q&json=1"; then fail "$name" "$(head -c 300 "$OUT/$name.log")"; return; fi
  if msg=$("$PY" tests/web_check.py json "$OUT/$name.html" "$CLI_DIR" "$JC" "$@" 2>&1); then
    pass "$name"
  else
    fail "$name" "$(echo "$msg" | head -n 8 | tr '\n' ' ')"
  fi
}

json_case infer "model=models/resnet50.onnx&device=a100&region=FR&batch=8&requests=1000" \
  model=models/resnet50.onnx device=a100 region=FR batch=8 requests=1000
json_case train "model=models/resnet18.onnx&mode=training&samples=50000&epochs=2&batch=64&device=h100&count=8&region=US-CA" \
  model=models/resnet18.onnx mode=training samples=50000 epochs=2 batch=64 device=h100 count=8 region=US-CA
json_case params "params=7e9&tokens=1e12&mode=training&device=h100&count=512&region=US" \
  params=7e9 tokens=1e12 mode=training device=h100 count=512
json_case serving "hf-config=configs/llama-3.1-8b.json&requests=100000&prompt-tokens=500&output-tokens=300&concurrency=32&device=h100&region=US" \
  hf-config=configs/llama-3.1-8b.json mode=generation requests=100000 prompt-tokens=500 output-tokens=300 concurrency=32 device=h100
json_case compare "model=models/resnet50.onnx&model=models/mobilenet_v2.onnx&device=a100&region=FR&batch=32&requests=10000" \
  model=models/resnet50.onnx model=models/mobilenet_v2.onnx device=a100 batch=32
json_case compare-devices "model=models/bert_base.onnx&devices=a100,l4&region=DE&batch=8&requests=1000&dim=sequence=128" \
  model=models/bert_base.onnx devices=a100,l4 region=DE dim=sequence=128

# a dropped file: tests/web_drop.html (copied to build/web/test/) drops
# models/resnet50.onnx on the page in its iframe (file:// pages may read
# files and each other only with --allow-file-access-from-files)
ln -sfn "$PWD/models" "$CLI_DIR/input"
cp tests/web_drop.html "$OUT/drop-test.html"
dump drop "file://$PWD/$OUT/drop-test.html" --files
if msg=$("$PY" tests/web_check.py json "$OUT/drop.html" "$CLI_DIR" "$JC" device=a100 2>&1); then
  pass drop
else
  fail drop "$(echo "$msg" | head -n 6 | tr '\n' ' ')"
fi

# the default view: no parameters
if ! dump default "$PAGE" --shot "$PWD/build/web/default.png"; then
  fail default-view "$(head -c 300 "$OUT/default.log")"
elif msg=$("$PY" tests/web_check.py shot "$OUT/default.html" 2>&1); then
  pass default-view
else
  fail default-view "$msg"
fi
if msg=$("$PY" tests/web_check.py png build/web/default.png 2>&1); then
  pass default-png
else
  fail default-png "$msg"
fi

# by keyboard: the downloads and a changed input (DevTools protocol)
(cd "$CLI_DIR" && "$PY" "$OLDPWD/tests/web_interact.py" "$JC" "$PWD") || echo "FAIL web/downloads: tests/web_interact.py crashed"
