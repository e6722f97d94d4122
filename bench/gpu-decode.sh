#!/usr/bin/env bash
# K streams of 20 s 1080p clips decoded by NVIDIA's decoders into our elements, on the lent GPU
# (issue 31), after `bash bench/bundle.sh --media`:
#   bash bench/gpu-decode.sh            (UNPACED=0 or LIVE=0 skips a part; STREAMS, LIVE_STREAMS,
#                                        ROUNDS and CODECS set the cases)
# 1. unpaced, STREAMS streams (48): decode alone, then lumamax, histogram, morph and the chain
#    `morph ! lumamax ! histogram` with the decoder's CUDA memory and through system memory, in
#    alternating order, ROUNDS rounds: frames/s over a 2 s window after 1.5 s, CPU per frame of the
#    whole process and of the threads that run the elements (a queue after the decoder, and our
#    completion service), and our elements' uploads and downloads (0 on the CUDA path);
# 2. live (sinks in real time, 30 frames/s a stream), LIVE_STREAMS streams: decode alone, lumamax
#    with CUDA memory and through system memory: late frames in a 3 s window after 3 s.
# 3. COST=1 (off by default): where an element's CPU goes, H.264, COST_STREAMS live streams (32) and
#    STREAMS unpaced: decode alone, stock `identity` (what any element costs there), lumamax without
#    messages, lumamax, histogram with CUDA memory, lumamax through system memory; the CPU and the
#    sleeps per frame of each group of threads (by_thread_us_sleeps_per_frame).
# 4. AB=NAME (off by default): AB_ELEMENTS (lumamax) with CUDA memory, this build against the plugin
#    in .gpu/NAME/libgstvkcompute.so (bench/plugin-build.sh), alternating, AB_ROUNDS rounds (2):
#    COST_STREAMS live streams and one stream unpaced (the 120 s clip where bundled: LONG_CLIP=1).
# 5. VULKAN=1 (off by default; the GStreamer 1.26 bundle): GStreamer's Vulkan decoders into
#    `lumamax ! histogram` on their device (straight, and behind a queue), through vulkandownload,
#    and NVIDIA's decoder beside.
# UNPACED=0 LIVE=0 with COST, AB or VULKAN runs only those.
set -u
source .gpu/env.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
export GST_VKCOMPUTE_TEST_NO_VALIDATION=1
media=.gpu/media
decoder() {  # codec (DECODER=vulkan: GStreamer's Vulkan decoder; DOWNLOAD=1: then vulkandownload)
  if [ "${DECODER:-nv}" = vulkan ]; then
    echo "qtdemux ! ${1}parse ! vulkan${1}dec${DOWNLOAD:+ ! vulkandownload}"
  else
    echo "qtdemux ! ${1}parse ! nv${1}dec"
  fi
}
bench() {  # codec, memory, elements, more options...
  local codec=$1 memory=$2 elements=$3
  shift 3
  local clip=$media/$codec-1080p-20s.mp4
  [ -n "${CLIP:-}" ] && clip=$CLIP
  local args=(--clip "$clip" --decoder "$(decoder "$codec")" --memory "$memory" "$@")
  # A queue after the decoder (our elements on a thread of their own); NO_QUEUE=1: none, our first
  # element on the decoder's thread (behind a queue, a Vulkan decoder's frames are copied on its
  # thread first: gst/base/decodedcopies.hpp).
  [ "${NO_QUEUE:-0}" = 1 ] || args+=(--queue)
  [ -n "$elements" ] && args+=(--elements "$elements")
  local out
  out=$(vkcompute-decode-bench "${args[@]}" 2>&1)
  echo "$codec $(grep -E 'RESULT|ERROR' <<<"$out" | head -2 | tr '\n' ' ')"
  grep '^LATE' <<<"$out" | sed 's/^/  /'  # the first late frames of a live run
}
chain="morph ! lumamax ! histogram"
if [ "${UNPACED:-1}" != 0 ]; then
  echo "== 1. unpaced, ${STREAMS:-48} streams"
  for round in $(seq "${ROUNDS:-2}"); do
    for codec in ${CODECS:-h264 h265}; do
      bench "$codec" gpu "" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      for elements in lumamax histogram morph "$chain"; do
        if [ $((round % 2)) = 1 ]; then order="gpu system"; else order="system gpu"; fi
        for memory in $order; do bench "$codec" "$memory" "$elements" --streams "${STREAMS:-48}" --warmup 1.5 --window 2; done
      done
    done
  done
fi
if [ "${COST:-0}" != 0 ]; then
  echo "== 3. where an element's CPU goes"
  for pace in "--live --streams ${COST_STREAMS:-32}" "--streams ${STREAMS:-48}"; do
    bench h264 gpu "" $pace --warmup 2 --window 3
    for elements in identity "lumamax post-messages=false" lumamax histogram; do
      bench h264 gpu "$elements" $pace --warmup 2 --window 3
    done
    bench h264 system lumamax $pace --warmup 2 --window 3
  done
fi
if [ "${LIVE:-1}" != 0 ]; then
  echo "== 2. live at 30 frames/s"
  for k in ${LIVE_STREAMS:-48 96 128 160}; do
    bench h264 gpu "" --streams "$k" --live --warmup 3 --window 3
    bench h264 gpu lumamax --streams "$k" --live --warmup 3 --window 3
    bench h264 system lumamax --streams "$k" --live --warmup 3 --window 3
  done
fi
if [ "${VULKAN:-0}" != 0 ]; then
  # The GStreamer 1.26 bundle (bench/bundle.sh --root ROOT --media): `lumamax ! histogram` on the
  # frames of GStreamer's Vulkan decoder (its images, on its device), after vulkandownload (system
  # memory), and on NVIDIA's decoder's CUDA memory; each decoder alone first. Unpaced, STREAMS.
  echo "== 5. GStreamer's Vulkan decoders, ${STREAMS:-48} streams"
  for round in $(seq "${ROUNDS:-2}"); do
    for codec in ${CODECS:-h264 h265}; do
      DECODER=vulkan bench "$codec" gpu "" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      NO_QUEUE=1 DECODER=vulkan bench "$codec" gpu "lumamax ! histogram" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      DECODER=vulkan bench "$codec" gpu "lumamax ! histogram" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      DECODER=vulkan DOWNLOAD=1 bench "$codec" system "lumamax ! histogram" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      bench "$codec" gpu "" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
      bench "$codec" gpu "lumamax ! histogram" --streams "${STREAMS:-48}" --warmup 1.5 --window 2
    done
  done
fi
if [ -n "${AB:-}" ]; then
  source bench/plugin-build.sh
  ab_elements=${AB_ELEMENTS:-lumamax}
  echo "== 4. $ab_elements with CUDA memory: this build (new) against .gpu/$AB ($AB)"
  long=$media/h264-1080p-120s.mp4
  [ -f "$long" ] || long=$media/h264-1080p-20s.mp4
  for round in $(seq "${AB_ROUNDS:-2}"); do
    for build in new "$AB"; do
      (
        [ "$build" = new ] || use_plugin_build "$build"
        echo "-- $build, round $round"
        bench h264 gpu "$ab_elements" --live --streams "${COST_STREAMS:-32}" --warmup 2 --window 3
        CLIP=$long bench h264 gpu "$ab_elements" --streams 1 --warmup 2 --window 3
      )
    done
  done
fi
