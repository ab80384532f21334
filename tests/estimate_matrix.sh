#!/bin/sh
# estimate_matrix.sh - every model in models/ on a spread of devices, and
# every device and host of the bundled hwdb on one small model, through
# the sanitizer build.  Each run must either succeed or fail with exit 6
# and a message that names the device and the figure it lacks (its dense
# peak at the precision, its TDP, its energy per FLOP: the refusals of
# jc_estimate_refusal); any other exit-6 message, a crash, a sanitizer
# report or another exit code is a failure.
set -u
cd "$(dirname "$0")/.."
JC=${JC:-build/joulecast}
export LC_ALL=C
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

check() {  # name, command...
  name=$1; shift
  "$@" > /dev/null 2> "$tmp"
  rc=$?
  if grep -q 'Sanitizer\|runtime error:' "$tmp"; then
    echo "  $name: sanitizer report"; head -n 5 "$tmp" | sed 's/^/    /'; echo "FAIL $name"; return
  fi
  case $rc in
    0) echo "PASS $name" ;;
    6) # the message must name the device and the figure it lacks
       if grep -Eq "joulecast: estimate: device [a-z0-9._-]+ has no (published dense peak at [a-z0-9]+|published TDP|energy per FLOP at [a-z0-9]+)" "$tmp"
       then echo "PASS $name (exit 6: $(head -c 120 "$tmp"))"
       else echo "  $name: exit 6 without a message naming the device and the missing figure:"
            head -n 2 "$tmp" | sed 's/^/    /'; echo "FAIL $name"; fi ;;
    *) echo "  $name: exit $rc"; head -n 3 "$tmp" | sed 's/^/    /'; echo "FAIL $name" ;;
  esac
}

models="resnet50 resnet18 mobilenet_v2 vgg16 vit_b_16 bert_base gpt2_small lstm_lm tiny_cnn"
devices="a100 h100 v100 google-tpu-v4 mi300x nvidia-t4"
for m in $models; do
  case $m in bert_base|gpt2_small|lstm_lm) dims="--dim sequence=64" ;; *) dims="" ;; esac
  for d in $devices; do
    check "estimate/$m/$d/infer" $JC estimate models/$m.onnx --batch 2 $dims --device $d --region DE
    check "estimate/$m/$d/train" $JC estimate models/$m.onnx --train --samples 1000 --batch 8 $dims --device $d --region aws:us-east-1
  done
done
# every device of the database on the tiny CNN
for d in $($JC hw list | awk 'NR > 1 && $1 !~ /^\(/ && $1 != "HOST" && $2 != "server" && $2 != "cloud-instance" { print $1 }'); do
  check "estimate/tiny_cnn/device/$d" $JC estimate models/tiny_cnn.onnx --batch 4 --requests 1000 --device "$d" --region FR
done
# every host: its own accelerators, or A100s where the host names no device
# (the generic hosts hold a count of accelerators the user names)
for h in $($JC hw list --kind host | awk 'NR > 1 && $1 !~ /^\(/ { print $1 }'); do
  if $JC hw show "$h" | grep -q "^ *accelerators.device"; then
    check "estimate/tiny_cnn/host/$h" $JC estimate models/tiny_cnn.onnx --batch 4 --requests 1000 --host "$h" --region FR
  else
    check "estimate/tiny_cnn/host/$h" $JC estimate models/tiny_cnn.onnx --batch 4 --requests 1000 --host "$h" --device a100 --count 4 --region FR
  fi
done
exit 0
