#!/bin/sh
# html.sh - the HTML reports in a real browser.  For `estimate`, `estimate
# --generate` (serving), `compare` (with and without --generate) and `sweep` it writes the HTML and the
# JSON of the same command, renders the HTML in headless Chromium (Debian's
# `chromium`, installed by tools/deps.sh test) and checks:
#   - the rendered DOM has its SVG charts and no <script>, no external
#     resource (src/href to http:, https:, //);
#   - every figure's data-value equals the number at its data-key path in
#     the JSON output (tests/html_check.py), and the key figures are there;
#   - the browser logged no console message and no uncaught error (a page
#     made to log one is rendered first, so this check is shown to fail
#     when it should);
#   - estimate --measured adds the trace chart and the prediction beside
#     the measurement;
#   - screenshots are written: build/html/{estimate,estimate-measured,serving,compare,compare-generate,sweep}.png,
#     kept for people to look at.
# Without chromium every case FAILs with the command that installs it.
set -u
cd "$(dirname "$0")/.."
export LC_ALL=C
JC=${JC:-$PWD/build/joulecast}
OUT=build/html
PY=/usr/bin/python3
mkdir -p "$OUT"
CASES="estimate estimate-sensitivity estimate-measured serving compare compare-generate sweep"

pass() { echo "PASS html/$1"; }
fail() { echo "FAIL html/$1${2:+: $2}"; }

CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
  for c in $CASES; do
    fail "$c" "chromium is not installed (as root: apt-get install chromium, or sh tools/deps.sh test)"
  done
  exit 0
fi
if [ ! -x "$PY" ]; then
  for c in $CASES; do fail "$c" "$PY is missing (apt-get install python3)"; done
  exit 0
fi

PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT INT TERM

# chrome FILE EXTRA...: renders FILE headless; DOM on stdout, log in $OUT/FILE.log
chrome() {
  f=$1; shift
  timeout 120 "$CHROME" --headless --disable-gpu --no-sandbox --user-data-dir="$PROFILE" \
    --no-first-run --disable-extensions --disable-background-networking \
    --enable-logging=stderr --v=0 "$@" "file://$PWD/$f" 2> "$f.log"
}

# console messages and uncaught errors in a log (dbus noise is not one)
console_errors() {
  grep -E 'CONSOLE|Uncaught|console' "$1" | grep -v 'dbus' || true
}

# 0. the console check must catch a page that logs and throws
cat > "$OUT/selfcheck.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>self-check</title></head>
<body><p>console self-check</p><script>console.error("joulecast-selfcheck"); undefined_function();</script></body></html>
EOF
chrome "$OUT/selfcheck.html" --dump-dom > /dev/null
if console_errors "$OUT/selfcheck.html.log" | grep -q 'joulecast-selfcheck'; then
  pass selfcheck-console
else
  fail selfcheck-console "a page that logs an error produced no console line in the log; the check cannot work"
fi

# 1. the three reports, each with the JSON of the same command
M=models/resnet50.onnx
JOB="--batch 64 --requests 1000000"
run_case() {  # name, joulecast arguments...
  name=$1; shift
  if ! "$JC" "$@" --html "$OUT/$name.html" --json > "$OUT/$name.json" 2> "$OUT/$name.err"; then
    fail "$name" "joulecast $* failed: $(head -c 300 "$OUT/$name.err")"
    return 1
  fi
  if grep -q 'ERROR: AddressSanitizer\|runtime error:\|LeakSanitizer' "$OUT/$name.err"; then
    fail "$name" "sanitizer report: $(head -c 300 "$OUT/$name.err")"
    return 1
  fi
  if ! chrome "$OUT/$name.html" --dump-dom > "$OUT/$name.dom.html"; then
    fail "$name" "chromium could not render $OUT/$name.html (see $OUT/$name.html.log)"
    return 1
  fi
  errs=$(console_errors "$OUT/$name.html.log")
  if [ -n "$errs" ]; then
    fail "$name-console" "$(echo "$errs" | head -n 3)"
  else
    pass "$name-console"
  fi
  if msg=$("$PY" tests/html_check.py "$name" "$OUT/$name.dom.html" "$OUT/$name.json" 2>&1); then
    pass "$name-dom ($msg)"
  else
    fail "$name-dom" "$msg"
  fi
  rm -f "$OUT/$name.png"
  chrome "$OUT/$name.html" --hide-scrollbars --screenshot="$PWD/$OUT/$name.png" --window-size=1280,2000 > /dev/null
  # a PNG signature and more than a blank page's bytes
  if [ -f "$OUT/$name.png" ] && [ "$(head -c 8 "$OUT/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
     [ "$(wc -c < "$OUT/$name.png")" -gt 20000 ]; then
    pass "$name-screenshot ($OUT/$name.png)"
  else
    fail "$name-screenshot" "no usable $OUT/$name.png"
  fi
}
run_case estimate estimate $M $JOB --device a100 --region FR --embodied
run_case estimate-sensitivity estimate $M $JOB --device a100 --region FR --sensitivity
run_case estimate-measured estimate $M --train --samples 2000 --batch 32 --device a100-sxm4-40gb --count 2 --region FR \
  --measured tests/data/traces/nvidia-smi-2gpu.csv
run_case serving estimate --generate --hf-config tests/serving/configs/llama-3.1-8b.json --prompt-tokens 500 \
  --output-tokens 300 --concurrency 64 --requests 1000000 --device h100 --region US
run_case compare compare $M models/resnet18.onnx models/mobilenet_v2.onnx models/vgg16.onnx $JOB --device a100 --region FR
run_case compare-generate compare --generate tests/serving/configs/llama-3.1-8b.json \
  tests/serving/configs/mistral-7b-v0.3.json tests/serving/configs/qwen2.5-7b.json --prompt-tokens 500 \
  --output-tokens 300 --concurrency 64 --requests 1000000 --device h100 --region US
run_case sweep sweep $M $JOB --utilization 0.4 --devices all --regions cloud
exit 0
