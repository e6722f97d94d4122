#!/usr/bin/env bash
# Fresh Debian 12 machine to a running demo: installs, builds, then converts a test pattern with
# rgb2yuv and writes a few JPEG frames to demo/ (jpegenc takes the I420 that rgb2yuv produces).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
rm -rf demo && mkdir -p demo
log=demo/pipeline.log
GST_DEBUG=vkcomputefilter:4,rgb2yuv:4 GST_DEBUG_NO_COLOR=1 gst-launch-1.0 videotestsrc num-buffers=5 pattern=smpte \
  ! video/x-raw,format=RGBA,width=640,height=360,framerate=30/1 \
  ! rgb2yuv \
  ! video/x-raw,format=I420,colorimetry=bt709,chroma-site=mpeg2 \
  ! jpegenc ! multifilesink location=demo/rgb2yuv-%02d.jpg 2>"$log"
echo "device:     $(sed -n 's/.*using Vulkan device //p' "$log" | head -n1)"
echo "conversion: $(sed -n 's/.*gst_rgb2yuv_configure:<[^>]*> //p' "$log" | head -n1)"
echo "frames:     $(ls demo/*.jpg | tr '\n' ' ')"
