#!/usr/bin/env bash
# Live latency on the lent GPU (vkcompute-bench --latency: one live pipeline, push to appsink), after
# bench/bundle.sh, the builds and settings alternating round by round (bench/gpu-ab.sh):
#   bash bench/gpu-latency.sh ROUNDS CASES "LABEL[:plugin=NAME][:VAR=VALUE...]"... [-- bench arguments]
# CASES: a comma-separated list of chain, lut, morph, lumamax, histogram, rgb2yuv (1080p RGBA in,
# 30 frames/s, 300 frames a run, one run per round and variant). e.g.
#   bash bench/gpu-latency.sh 10 chain new old:plugin=old
# Writes $OUT/latency-CASE/ab-LABEL-ROUND.{txt,jsonl,stderr}.
set -uo pipefail
rounds=$1
cases=$2
shift 2
lut='lut location=tests/data/lookup_amatorka.png'
morph='morph operation=open width=9 height=9'
rgb2yuv='rgb2yuv ! video/x-raw,format=NV12'
specs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  specs+=("$1")
  shift
done
[ $# -gt 0 ] && shift
for case in ${cases//,/ }; do
  case $case in
    chain) elements="$lut ! $morph ! lumamax ! histogram ! $rgb2yuv" ;;
    lut) elements=$lut ;;
    morph) elements=$morph ;;
    rgb2yuv) elements=$rgb2yuv ;;
    lumamax | histogram) elements=$case ;;
    *) echo "gpu-latency.sh: unknown case $case" >&2; exit 2 ;;
  esac
  echo "=== $case: $elements"
  mkdir -p "$OUT/latency-$case"
  OUT=$OUT/latency-$case bash bench/gpu-ab.sh "$rounds" "${specs[@]}" -- --latency 1 --stream-elements "$elements" "$@" |
    grep -E '^(==|run|  )'
done
