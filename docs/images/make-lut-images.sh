#!/usr/bin/env bash
# Makes the before/after pictures of docs/elements/lut.md with gst-launch-1.0 and the built plugin
# (run tools/build.sh first): Grace Hopper's portrait (public domain, US Navy; the copy matplotlib
# ships as sample data) scaled to 256 px wide, graded with each GPUImage lookup image of
# tests/data (BSD licence: tests/data/GPUImage-LICENSE.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
photo=${PHOTO:-/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg}
out=docs/images
source_caps="video/x-raw,format=RGBx,width=256,height=300"

decode() {  # the photo as one RGBx frame of 256x300
  echo "filesrc location=$photo ! jpegdec ! videoconvert ! videoscale ! $source_caps ! imagefreeze num-buffers=1"
}

gst-launch-1.0 -q $(decode) ! videoconvert ! video/x-raw,format=RGB ! pngenc compression-level=9 ! filesink location=$out/lut-original.png
for name in amatorka miss_etikate soft_elegance_1; do
  gst-launch-1.0 -q $(decode) ! lut location=tests/data/lookup_$name.png \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc compression-level=9 ! filesink location=$out/lut-${name//_/-}.png
done
ls -l $out/lut-*.png
