#!/usr/bin/env bash
# Run from the repository root after bash bench/bundle.sh (or bundle.sh --root ROOT --media: the
# GStreamer 1.26 checks below), with $OUT set (the device tool sets it):
#   bash bench/gpu-checks.sh              (TESTS=0: skip the test suites; TIMES=0: skip the GPU times;
#                                          PART=1 or 2: the first or second half of the suites, each
#                                          within a device call of 10 minutes; the whole passes it)
# (bundle.sh --media first: the CUDA checks decode its clips)
# On the lent GPU: the test suites, then per-frame GPU time of each element at 1080p. Together they
# pass the device tool's 10 minutes a call since the deep formats: TIMES=0 in one call, TESTS=0 in
# the next (within 30 s: an idle machine goes back).
source .gpu/env.sh
export GST_VKCOMPUTE_TEST_NO_VALIDATION=1
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* | head -1)
vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverInfo' | head -2
# test_robustness but its slow-frame case: a GPU finishes its 1080p frames within the 1 ms timeout
# that the case sets to make lavapipe's outlive it.
robustness() {
  LUT_TEST_DATA_DIR=$PWD/tests/data GST_CHECKS_IGNORE=test_slow_frame_stops_cleanly test_robustness > "$OUT/test_robustness.log" 2>&1
  echo "test_robustness (no slow-frame case) rc=$? $(grep '%:' "$OUT/test_robustness.log")"
}
if gst-inspect-1.0 --version | grep -qE 'version 1\.(2[4-9]|[3-9][0-9])'; then
  # The GStreamer 1.26 bundle (bundle.sh --root ROOT --media): our elements inside GStreamer's Vulkan
  # stack on the GPU, then its Vulkan Video decoders into them against NVIDIA's (decoder checks).
  gst-inspect-1.0 --version | head -1
  for t in test_gstvk_context test_gstvulkan test_gstvk_decoder_frames; do
    LUT_TEST_DATA_DIR=$PWD/tests/data "$t" > "$OUT/$t.log" 2>&1; echo "$t rc=$? $(grep '%:' "$OUT/$t.log")"
  done
  robustness
  vkcompute-decoder-checks .gpu/media --vulkan > "$OUT/vulkan-decoder-checks.log" 2>&1
  echo "vkcompute-decoder-checks --vulkan rc=$? $(tail -1 "$OUT/vulkan-decoder-checks.log")"
  exit 0
fi
if [ "${TESTS:-1}" != 0 ] && [ "${PART:-1}" = 1 ]; then
# CUDA and Vulkan on the GPU: the bridge's copies both ways (test_cuda_bridge), exported timelines
# and waits for their values (test_external). Not the import of exported memory back into the same
# Vulkan device: NVIDIA's driver (580.159.04, H200) reads zeros through such an import, while CUDA,
# the importer that matters, reads and writes the memory (test_cuda_bridge); lavapipe runs that case.
GST_CHECKS_IGNORE=test_exported_memory_reads_the_same_through_an_import test_external > "$OUT/test_external.log" 2>&1
echo "test_external (not the import into the same device) rc=$? $(grep '%:' "$OUT/test_external.log")"
test_cuda_bridge > "$OUT/test_cuda_bridge.log" 2>&1; echo "test_cuda_bridge rc=$? $(grep '%:' "$OUT/test_cuda_bridge.log")"
# Command buffers submitted again for the same commands, on the GPU's driver (commands.hpp).
test_command_reuse > "$OUT/test_command_reuse.log" 2>&1; echo "test_command_reuse rc=$? $(grep '%:' "$OUT/test_command_reuse.log")"
# The decoders' CUDA frames into our elements against system memory, with a seek, state cycles and
# a resolution change (the clips of bundle.sh --media), then lost CUDA contexts (a process each).
if [ -d .gpu/media ]; then
  vkcompute-decoder-checks .gpu/media > "$OUT/cuda-checks.log" 2>&1; echo "vkcompute-decoder-checks rc=$? $(tail -1 "$OUT/cuda-checks.log")"
fi
test_lut_readers > "$OUT/test_lut_readers.log" 2>&1; echo "test_lut_readers rc=$? $(grep '%:' "$OUT/test_lut_readers.log")"
# ffmpeg, the peer of the accuracy cases, is not on the GPU machine: the other lut cases only.
LUT_TEST_DATA_DIR=$PWD/tests/data GST_CHECKS='test_pad_templates,test_property_defaults,test_bad_files_at_start,test_no_location,test_location_change,test_interpolation_change,test_bad_file_while_playing,test_identity,test_identity_nearest,test_domain,test_intensity,test_gpuimage_lookup,test_hald,test_deep_against_reference' \
  test_lut > "$OUT/test_lut.log" 2>&1; echo "test_lut (no ffmpeg cases) rc=$? $(grep '%:' "$OUT/test_lut.log")"
# rgb2yuv's ffmpeg peer needs ffmpeg.
for t in test_lumamax test_histogram test_rgb2yuv test_morph; do GST_CHECKS_IGNORE=test_deep_against_ffmpeg "$t" > "$OUT/$t.log" 2>&1; echo "$t rc=$? $(grep '%:' "$OUT/$t.log")"; done
GST_VKCOMPUTE_NO_SUBGROUPS=1 test_lumamax > "$OUT/test_lumamax_shared.log" 2>&1; echo "test_lumamax (shared) rc=$? $(grep '%:' "$OUT/test_lumamax_shared.log")"
fi
if [ "${TESTS:-1}" != 0 ] && [ "${PART:-2}" = 2 ]; then
# A discrete GPU copies the analysis input to device memory first; the in-place reads as well.
for t in test_lumamax test_histogram; do
  GST_VKCOMPUTE_COPY_INPUT=0 "$t" > "$OUT/${t}_in_place.log" 2>&1; echo "$t (input read in place) rc=$? $(grep '%:' "$OUT/${t}_in_place.log")"
done
# Every element at odd sizes, and the base class's guarantees (not the 1 ms frame timeout: frames
# on a GPU may finish within it).
# Chains in device memory (not across devices: that case lists lavapipe twice, which the GPU machine
# does not have), frames leaving when done, and the scheduler.
LUT_TEST_DATA_DIR=$PWD/tests/data GST_CHECKS='test_chain_uploads_once_and_downloads_once,test_analysis_at_either_end,test_random_chains,test_tee_to_a_stock_element,test_renegotiation_and_flush_mid_chain,test_last_element_pushes_after_its_submission,test_deep_chains' \
  test_chain > "$OUT/test_chain.log" 2>&1; echo "test_chain (one device) rc=$? $(grep '%:' "$OUT/test_chain.log")"
for t in test_chain_lifecycle test_live test_scheduler; do LUT_TEST_DATA_DIR=$PWD/tests/data "$t" > "$OUT/$t.log" 2>&1; echo "$t rc=$? $(grep '%:' "$OUT/$t.log")"; done
LUT_TEST_DATA_DIR=$PWD/tests/data test_odd_sizes > "$OUT/test_odd_sizes.log" 2>&1; echo "test_odd_sizes rc=$? $(grep '%:' "$OUT/test_odd_sizes.log")"
robustness
fi
[ "${TIMES:-1}" = 0 ] && exit 0
run() {  # label, caps, element...
  local label=$1 caps=$2; shift 2
  GST_DEBUG=vkcomputefilter:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 -q videotestsrc num-buffers=600 pattern=${PATTERN:-ball} \
    ! "$caps" ! "$@" ! fakesink sync=false 2>&1 | sed -n 's/.*GPU time per frame: \([0-9.]*\) us.*/\1/p' | tail -3 | tr '\n' ' '
  echo " us  <- $label"
}
R=video/x-raw,width=1920,height=1080
run "lumamax RGBA" "$R,format=RGBA" lumamax
run "lumamax RGB" "$R,format=RGB" lumamax
run "lumamax NV12" "$R,format=NV12" lumamax
run "lumamax GRAY8" "$R,format=GRAY8" lumamax
run "lumamax RGBA count=16 min-distance=50" "$R,format=RGBA" lumamax count=16 min-distance=50
run "lumamax RGBA count=64 min-distance=0" "$R,format=RGBA" lumamax count=64
GST_VKCOMPUTE_NO_SUBGROUPS=1 run "lumamax RGBA (shared-memory reduction)" "$R,format=RGBA" lumamax
# Formats whose loads are under 16 bytes read a device copy; the same frames read in place.
for f in RGB NV12; do
  GST_VKCOMPUTE_COPY_INPUT=0 run "lumamax $f (input read in place)" "$R,format=$f" lumamax
  GST_VKCOMPUTE_COPY_INPUT=0 run "histogram $f (input read in place)" "$R,format=$f" histogram
done
run "rgb2yuv RGBA->NV12" "$R,format=RGBA" rgb2yuv ! video/x-raw,format=NV12
run "rgb2yuv RGB->I420" "$R,format=RGB" rgb2yuv ! video/x-raw,format=I420
run "lumamax RGBA 4K" "video/x-raw,width=3840,height=2160,format=RGBA" lumamax
run "histogram RGBA" "$R,format=RGBA" histogram
run "histogram RGB" "$R,format=RGB" histogram
run "histogram NV12" "$R,format=NV12" histogram
run "histogram GRAY8" "$R,format=GRAY8" histogram
PATTERN=snow run "histogram RGBA (snow: spread values)" "$R,format=RGBA" histogram
run "histogram RGBA draw=true" "$R,format=RGBA" histogram draw=true
cube=/tmp/bench33.cube
vkcompute-bench --write-cube "$cube"
run "lut RGBA 33³ tetrahedral" "$R,format=RGBA" lut location="$cube" interpolation=tetrahedral
run "lut RGBA 33³ trilinear" "$R,format=RGBA" lut location="$cube" interpolation=trilinear
run "lut RGB 33³ tetrahedral" "$R,format=RGB" lut location="$cube" interpolation=tetrahedral
# morph: the 61x61 rectangle's GPU time must stay within 1.5x of the 3x3 one (van Herk: O(1) per pixel).
for f in RGBA GRAY8; do
  for k in 3 15 31 61; do run "morph dilate ${k}x${k} $f" "$R,format=$f" morph operation=dilate width=$k height=$k; done
done
run "morph open ellipse 31x31 RGBA" "$R,format=RGBA" morph operation=open shape=ellipse width=31 height=31
# Deeper than 8 bits: 16-bit and 10-bit RGB, P010 with the HDR light statistics.
run "rgb2yuv RGBA64_LE->P010_10LE" "$R,format=RGBA64_LE" rgb2yuv ! video/x-raw,format=P010_10LE
run "rgb2yuv BGR10A2_LE->I420_10LE" "$R,format=BGR10A2_LE" rgb2yuv ! video/x-raw,format=I420_10LE
run "lut RGBA64_LE 33³ tetrahedral" "$R,format=RGBA64_LE" lut location="$cube" interpolation=tetrahedral
run "lut BGR10A2_LE 33³ tetrahedral" "$R,format=BGR10A2_LE" lut location="$cube" interpolation=tetrahedral
run "morph dilate 9x9 RGBA64_LE" "$R,format=RGBA64_LE" morph operation=dilate width=9 height=9
run "morph dilate 9x9 BGR10A2_LE" "$R,format=BGR10A2_LE" morph operation=dilate width=9 height=9
run "lumamax P010_10LE" "$R,format=P010_10LE" lumamax
run "lumamax P010_10LE bt2100-pq (light statistics)" "$R,format=P010_10LE,colorimetry=bt2100-pq" lumamax
run "lumamax P010_10LE 4K bt2100-pq (light statistics)" "video/x-raw,width=3840,height=2160,format=P010_10LE,colorimetry=bt2100-pq" lumamax
