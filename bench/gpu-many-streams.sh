#!/usr/bin/env bash
# Live many-stream runs (vkcompute-bench --many-streams): K live pipelines of one case in one
# process, then (BASELINE=1, the default) the same with identity in place of our elements.
# On the lent GPU, from the repository root, after bench/bundle.sh (the device tool sets $OUT):
#   bash bench/gpu-many-streams.sh ["STREAMS FORMAT ELEMENTS..."]...
# e.g. bash bench/gpu-many-streams.sh "120 RGBA lumamax" "60 NV12 histogram"
# Without cases, the default list below. Here, without .gpu/, it runs build/'s binaries (lavapipe).
# Environment: PLUGINS (builds to run each case with, in turn: "new" for the bundle's, NAME for
# .gpu/NAME/libgstvkcompute.so; default "new"), STREAMS_SCALE (0.05 for a smoke test: stream counts scaled, at least 1),
# SECONDS_PER_CASE (10), WARMUP (20: 400 streams' pools were still giving back the frames their start made
# after 5 s, which the window then counts, and were done after 20 s; runs 216-217), RATE (30), SIZE (1080p, 4k, 360p or WxH), BASELINE (1),
# EXTRA (more vkcompute-bench arguments), HOG (seconds of a busy loop on every core, from 8 s into
# each case: a disturbance inside a 15 s warm-up, to see a run knocked late recover; default 0).
# Writes $OUT/many-streams.txt (stderr to .stderr).
set -uo pipefail
if [ -f .gpu/env.sh ]; then
  source .gpu/env.sh
  source bench/plugin-build.sh
  # The NVIDIA driver's TLS library must be loaded first when it comes from outside the image's glibc.
  export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
else
  export GST_PLUGIN_PATH=$PWD/build/gst PATH=$PWD/build/bench:$PATH
fi
OUT=${OUT:-/tmp}
chain='lut location=tests/data/lookup_amatorka.png ! morph operation=open width=9 height=9 ! lumamax ! histogram ! rgb2yuv ! video/x-raw,format=NV12'
if [ $# -eq 0 ]; then
  set -- "180 RGBA lumamax" "400 NV12 lumamax" "170 RGBA rgb2yuv ! video/x-raw,format=NV12" "120 RGBA $chain"
fi
txt=$OUT/many-streams.txt
{
  vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverInfo' | head -2
  nproc | sed 's/^/CPU cores: /'
} | tee "$txt"
status=0
for spec in "$@"; do
  read -r count format elements <<<"$spec"
  streams=$(awk -v n="$count" -v s="${STREAMS_SCALE:-1}" 'BEGIN { k = int(n * s + 0.5); print k < 1 ? 1 : k }')
  modes=()
  for build in ${PLUGINS:-new}; do modes+=("$build"); done
  [ "${BASELINE:-1}" = 1 ] && modes+=(identity)
  for mode in "${modes[@]}"; do
    echo "== $streams x $format $elements ($mode)" | tee -a "$txt"
    (  # a subshell per run: its plugin build ends with it
      case $mode in
        identity) set -- --stream-identity ;;
        new) set -- ;;
        *) use_plugin_build "$mode"; set -- ;;
      esac
      if [ "${HOG:-0}" != 0 ]; then
        (sleep 8; for _ in $(seq "$(nproc)"); do timeout "$HOG" sh -c 'while :; do :; done' & done; wait) &
      fi
      # shellcheck disable=SC2086  # EXTRA: several arguments
      vkcompute-bench --many-streams "$streams" --stream-elements "$elements" --stream-format "$format" \
        --stream-size "${SIZE:-1080p}" --stream-rate "${RATE:-30}" --seconds "${SECONDS_PER_CASE:-10}" \
        --warmup "${WARMUP:-20}" "$@" ${EXTRA:-} 2>>"$OUT/many-streams.stderr" | tee -a "$txt"
      rc=${PIPESTATUS[0]}
      wait
      exit "$rc"
    )
    rc=$?
    [ "$rc" = 0 ] || { echo "exit status $rc (errors in $OUT/many-streams.stderr)" | tee -a "$txt"; status=1; }
  done
done
exit $status
