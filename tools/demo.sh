#!/usr/bin/env bash
# Fresh Debian 12 machine to a running demo: installs, builds, then
#  - converts a test pattern with rgb2yuv and writes a few JPEG frames to demo/ (jpegenc takes
#    the I420 that rgb2yuv produces),
#  - follows a moving ball with lumamax and prints where its brightest pixel is in each frame,
#  - draws the live histogram into frames with histogram draw=true (JPEGs in demo/),
#  - grades a photo with each GPUImage lookup image of tests/data with lut (PNGs in demo/),
#  - opens (ellipse 9x9) and outlines (gradient, cross 5x5) a moving ball with morph (PNGs in demo/).
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
echo "frames:     $(ls demo/rgb2yuv-*.jpg | tr '\n' ' ')"

echo "lumamax, brightest pixel of each frame of a moving ball:"
gst-launch-1.0 -m videotestsrc num-buffers=5 pattern=ball ! video/x-raw,width=320,height=240 \
  ! lumamax ! fakesink 2>&1 \
  | sed -n 's/.*lumamax, timestamp=(guint64)\([0-9]*\),.* x=(int)\([0-9]*\), y=(int)\([0-9]*\), luma=(double)\([0-9.]*\).*/  t=\1 ns  x=\2 y=\3 luma=\4/p'

gst-launch-1.0 -q videotestsrc num-buffers=5 pattern=smpte ! video/x-raw,format=RGBx,width=640,height=360 \
  ! histogram draw=true bins=64 ! videoconvert ! jpegenc ! multifilesink location=demo/histogram-%02d.jpg
echo "histogram:  $(ls demo/histogram-*.jpg | tr '\n' ' ')(graph in the bottom-left corner)"

# Grace Hopper's portrait (public domain, US Navy), which python3-matplotlib ships as sample data.
photo=/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg
for name in amatorka miss_etikate soft_elegance_1; do
  gst-launch-1.0 -q filesrc location=$photo ! jpegdec ! videoconvert ! video/x-raw,format=RGBx \
    ! imagefreeze num-buffers=1 ! lut location=tests/data/lookup_$name.png \
    ! videoconvert ! pngenc ! filesink location=demo/lut-$name.png
done
echo "lut:        $(ls demo/lut-*.png | tr '\n' ' ')(a photo graded with GPUImage's lookup images)"
morph_demo() {  # name, morph properties
  gst-launch-1.0 -q videotestsrc num-buffers=3 pattern=ball ! video/x-raw,format=RGBx,width=320,height=240 \
    ! morph $2 ! videoconvert ! pngenc ! multifilesink location="demo/morph-$1-%02d.png"
}
morph_demo open "operation=open shape=ellipse width=9 height=9"
morph_demo gradient "operation=gradient shape=cross width=5 height=5"
echo "morph:      $(ls demo/morph-*.png | tr '\n' ' ')"
