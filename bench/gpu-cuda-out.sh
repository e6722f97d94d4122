#!/usr/bin/env bash
# Our filters' frames out in CUDA memory, on the lent GPU (issue 31), after `bash bench/bundle.sh
# --media`, with $OUT set (the device tool sets it):
#   bash bench/gpu-cuda-out.sh
# 1. the caps and the CUDA context: which memory morph writes by what follows it, and that morph,
#    the decoder and cudadownload share one CUDA context (one bridge, no second context), and a
#    filter with no CUDA element upstream makes a context and shares it;
# 2. 8 streams of the 5 s clip (150 frames each) in one process: decode alone, morph 9x9 open from
#    and to CUDA memory (CUDA's copy out queued at submission, waiting on the GPU, and with
#    GST_VKCOMPUTE_CUDA_OUT=done once the frame is done), from CUDA memory to system memory, and
#    through system memory both ways, three rounds (whole process, setup included).
set -u
source .gpu/env.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
export GST_VKCOMPUTE_TEST_NO_VALIDATION=1
media=.gpu/media
src="filesrc location=$media/h264-1080p.mp4 ! qtdemux ! h264parse ! nvh264dec"
echo "== 1. caps and contexts"
for tail in "cudadownload ! fakesink" "video/x-raw(memory:CUDAMemory) ! fakesink" "fakesink" "lumamax ! fakesink"; do
  # shellcheck disable=SC2086  # pipeline descriptions: several words
  caps=$(gst-launch-1.0 -v $src ! morph ! $tail 2>&1 | grep -E "morph0.GstPad:src: caps|^ERROR" | head -1 |
         sed 's/.*caps = //; s/, format.*//' | cut -c1-120)
  echo "morph ! $tail: $caps"
done
# shellcheck disable=SC2086
GST_DEBUG=vkcompute:4,cudacontext:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 $src ! morph ! cudadownload ! fakesink \
  > "$OUT/context.log" 2>&1
echo "decoder ! morph ! cudadownload: rc=$?, bridges: $(grep -c 'CUDA bridge on' "$OUT/context.log")," \
  "CUDA contexts made: $(grep -c 'Created CUDA context' "$OUT/context.log") (one is nvcodec's probe at plugin load)," \
  "errors: $(grep -c 'ERROR' "$OUT/context.log")"
GST_DEBUG=vkcompute:4,cudacontext:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 videotestsrc num-buffers=30 \
  ! video/x-raw,format=RGBA,width=1920,height=1080 ! rgb2yuv ! "video/x-raw(memory:CUDAMemory),format=NV12" \
  ! cudadownload ! fakesink > "$OUT/context-made.log" 2>&1
echo "videotestsrc ! rgb2yuv ! CUDA ! cudadownload: rc=$?, bridges: $(grep -c 'CUDA bridge on' "$OUT/context-made.log")," \
  "CUDA contexts made: $(grep -c 'Created CUDA context' "$OUT/context-made.log"), errors: $(grep -c 'ERROR' "$OUT/context-made.log")"
gst-inspect-1.0 morph | sed -n '/SRC template/,/^$/p' | grep -m3 -E 'CUDAMemory|SRC'
echo "== 2. 8 streams of 150 frames (H.264 1080p) in one process, three rounds"
for round in 1 2 3; do
  for mode in alone morph-cuda morph-cuda-done morph-cuda-in morph-system; do
    p=""
    for _ in 1 2 3 4 5 6 7 8; do
      case $mode in
        alone) tail="video/x-raw(memory:CUDAMemory) ! fakesink sync=false" ;;
        morph-cuda-in) tail="morph operation=open width=9 height=9 ! video/x-raw ! fakesink sync=false" ;;
        morph-cuda*) tail="morph operation=open width=9 height=9 ! video/x-raw(memory:CUDAMemory) ! fakesink sync=false" ;;
        morph-system) tail="video/x-raw ! morph operation=open width=9 height=9 ! video/x-raw ! fakesink sync=false" ;;
      esac
      p="$p $src ! $tail"
    done
    export GST_VKCOMPUTE_CUDA_OUT=
    [ $mode = morph-cuda-done ] && export GST_VKCOMPUTE_CUDA_OUT=done
    # shellcheck disable=SC2086
    /usr/bin/time -f "round $round, $mode: %e s wall, %U+%S s CPU" gst-launch-1.0 -q $p 2>&1 | tail -1
  done
done
