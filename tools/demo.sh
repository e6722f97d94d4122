#!/usr/bin/env bash
# Fresh Debian 12 machine to a running demo: installs what building the plugin and running the
# pipelines needs (tools/deps.sh demo), builds the plugin alone (tools/build.sh plugin), then runs
# the pipelines of tools/demo_pipelines.sh and leaves their pictures in demo/:
#   rgb2yuv.jpg     SMPTE bars through rgb2yuv to I420 and jpegenc (the colours of the bars)
#   histogram.png   the photo, and beside it with histogram draw=true (its graph in the corner)
#   lut.png         the photo, and graded with each GPUImage lookup image of tests/data
#   morph.png       the photo in gray, opened, closed and its gradient
# and prints where lumamax finds the brightest pixel of a moving ball in each frame.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh demo
packages_s=$SECONDS
bash tools/build.sh plugin
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
source tools/demo_pipelines.sh
rm -rf demo && mkdir -p demo
echo "demo: packages ready in ${packages_s} s, plugin built in $((SECONDS - packages_s)) s;" \
  "first pipeline at $(date +%T)"

log=demo/pipeline.log
GST_DEBUG=vkcomputefilter:4,rgb2yuv:4 GST_DEBUG_NO_COLOR=1 demo_rgb2yuv demo/rgb2yuv.jpg 2>"$log"
echo "device:     $(sed -n 's/.*using Vulkan device //p' "$log" | head -n1)"
# gst-launch-1.0 -q keeps the elements' warnings to itself: repeat the one a user must not miss.
if grep -q "is a CPU implementation of Vulkan" "$log"; then
  echo "warning:    that is a CPU implementation of Vulkan (no GPU found): the elements run on the CPU," \
    "slowly, and each warns of it at start; see README.md, \"Using the plugin\""
fi
echo "rgb2yuv:    demo/rgb2yuv.jpg ($(sed -n 's/.*rgb2yuv.cpp:[0-9]*:[^<]*configure:<[^>]*> //p' "$log" | head -n1))"

echo "lumamax, brightest pixel of each frame of a moving ball:"
demo_lumamax

demo_histogram demo/histogram.png
echo "histogram:  demo/histogram.png, the photo and, with draw=true, its RGB histogram at the bottom"
demo_lut demo/lut.png
echo "lut:        demo/lut.png, the photo and, left to right, graded with tests/data/lookup_{$(
  IFS=,; echo "${demo_lut_tables[*]}")}.png"
demo_morph demo/morph.png
echo "morph:      demo/morph.png, the photo in gray and, left to right, through morph"
printf '              %s\n' "${demo_morph_chains[@]}"
echo "demo: done in ${SECONDS} s; the pictures are in demo/"
