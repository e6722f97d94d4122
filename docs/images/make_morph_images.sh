#!/usr/bin/env bash
# Regenerates docs/images/morph-*.png: the morph element's operations on a grayscale, 200-pixel
# wide copy of Grace Hopper's portrait (a public-domain US Navy photograph, shipped by matplotlib
# as sample data: python3-matplotlib's mpl-data/sample_data/grace_hopper.jpg). Run from the
# repository root after building; uses the plugin in build/gst.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GST_PLUGIN_PATH="$PWD/build/gst${GST_PLUGIN_PATH:+:$GST_PLUGIN_PATH}"
photo=${1:-/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg}
mask="shape=ellipse width=7 height=7"
render() {  # output name, element description (or "identity" for the input)
  gst-launch-1.0 -q filesrc location="$photo" ! jpegdec ! videoconvert ! videoscale \
    ! video/x-raw,format=GRAY8,width=200,height=234 ! $2 ! videoconvert ! pngenc compression-level=9 \
    ! filesink location="docs/images/morph-$1.png"
}
render input identity
for op in erode dilate open close gradient tophat blackhat; do
  render "$op" "morph operation=$op $mask"
done
render dilate-rect "morph operation=dilate shape=rect width=15 height=3"
render dilate-cross "morph operation=dilate shape=cross width=15 height=15"
render dilate-ellipse "morph operation=dilate shape=ellipse width=15 height=15"
