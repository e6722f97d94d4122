#!/usr/bin/env bash
# Frames from NVIDIA's decoders in CUDA memory into our analyses, on the lent GPU (issue 31), after
# `bash bench/bundle.sh --media` (which makes the clips in .gpu/media with ffmpeg):
#   bash bench/gpu-cuda.sh
# 1. the element messages of lumamax and histogram with the decoders' CUDA memory equal to the same
#    through system memory (H.264, H.265, and a resolution change mid-stream);
# 2. which memory the decoder chooses for what follows lumamax;
# 3. 8 streams of 600 frames in one process, decode alone against CUDA and system memory into
#    lumamax (wall and CPU time of the whole process, setup included).
set -u
source .gpu/env.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
export GST_VKCOMPUTE_TEST_NO_VALIDATION=1
media=.gpu/media
# The element messages of element $1 (not its state changes, whose place among them varies).
msgs() {
  local el=$1
  shift
  gst-launch-1.0 -m "$@" 2>&1 | grep -F "from element \"$el\" (element)" | sed 's/^Got message #[0-9]* //'
}
compare() {  # label, element, pipeline head in CUDA memory, tail
  local label=$1 el=$2 head=$3 tail=$4
  # shellcheck disable=SC2086  # pipeline descriptions: several words
  msgs "$el" $head ! $tail > /tmp/cuda.txt
  # shellcheck disable=SC2086
  msgs "$el" $head ! video/x-raw ! $tail > /tmp/sys.txt
  echo "$label, $el: $(wc -l < /tmp/cuda.txt) messages with CUDA memory, $(wc -l < /tmp/sys.txt) with system memory:" \
    "$(cmp -s /tmp/cuda.txt /tmp/sys.txt && echo equal || echo DIFFERENT)"
}
echo "== 1. the same messages"
for codec in h264 h265; do
  head="filesrc location=$media/$codec-1080p.mp4 ! qtdemux ! ${codec}parse ! nv${codec}dec"
  compare "$codec" lumamax0 "$head" "lumamax count=4 ! histogram ! fakesink"
  compare "$codec" histogram0 "$head" "lumamax count=4 ! histogram ! fakesink"
done
head="filesrc location=$media/change.ts ! tsdemux ! h264parse ! nvh264dec"
compare "h264 1080p, 720p, 1080p" lumamax0 "$head" "lumamax ! histogram ! fakesink"
compare "h264 1080p, 720p, 1080p" histogram0 "$head" "lumamax ! histogram ! fakesink"
echo "== 1b. a filter's output, and a chain after it"
head="filesrc location=$media/h264-1080p.mp4 ! qtdemux ! h264parse ! nvh264dec"
# shellcheck disable=SC2086
gst-launch-1.0 -q $head ! morph operation=open width=9 height=9 ! video/x-raw ! filesink location=/tmp/cuda.raw
# shellcheck disable=SC2086
gst-launch-1.0 -q $head ! video/x-raw ! morph operation=open width=9 height=9 ! video/x-raw ! filesink location=/tmp/sys.raw
echo "morph 9x9 open: $(stat -c %s /tmp/cuda.raw) bytes out with CUDA memory in, $(stat -c %s /tmp/sys.raw) with system memory:" \
  "$(cmp -s /tmp/cuda.raw /tmp/sys.raw && echo equal || echo DIFFERENT)"
# shellcheck disable=SC2086
echo "its sink caps: $(gst-launch-1.0 -v $head ! morph ! fakesink 2>&1 | grep -m1 'morph0.GstPad:sink: caps' | sed 's/.*caps = //; s/, format.*//')"
compare "h264" histogram0 "$head" "morph operation=dilate ! lumamax ! histogram ! fakesink"
echo "== 2. the memory lumamax takes, by what follows it"
src="filesrc location=$media/h264-1080p.mp4 ! qtdemux ! h264parse ! nvh264dec"
for tail in "fakesink" "cudadownload ! fakesink" "videoconvert ! fakesink" "morph ! fakesink" "histogram draw=true ! fakesink"; do
  # shellcheck disable=SC2086
  caps=$(gst-launch-1.0 -v $src ! lumamax ! $tail 2>&1 | grep -E "lumamax0.GstPad:sink: caps|^ERROR" | head -1 |
         sed 's/.*caps = //; s/, format.*//' | cut -c1-120)
  echo "lumamax ! $tail: $caps"
done
echo "== 3. 8 streams of 600 frames (H.264 1080p) in one process, two rounds"
for round in 1 2; do
  for mode in alone cuda system cuda-two; do
    p=""
    for _ in 1 2 3 4 5 6 7 8; do
      case $mode in
        alone) tail="video/x-raw(memory:CUDAMemory) ! fakesink sync=false" ;;
        cuda) tail="lumamax ! fakesink sync=false" ;;
        cuda-two) tail="lumamax ! histogram ! fakesink sync=false" ;;
        system) tail="video/x-raw ! lumamax ! fakesink sync=false" ;;
      esac
      p="$p filesrc location=$media/h264-1080p-20s.mp4 ! qtdemux ! h264parse ! nvh264dec ! $tail"
    done
    # shellcheck disable=SC2086
    /usr/bin/time -f "round $round, $mode: %e s wall, %U+%S s CPU" gst-launch-1.0 -q $p 2>&1 | tail -1
  done
done
