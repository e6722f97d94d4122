# shellcheck shell=bash disable=SC2086  # pipeline descriptions are split into gst-launch's words
# The demo's pipelines, one function per element; sourced by tools/demo.sh (which runs them all
# into demo/) and by tests/demo/check_rgb2yuv_jpeg.py (which runs demo_rgb2yuv and checks the
# colours of its JPEG). gst-launch-1.0 must find the plugin (GST_PLUGIN_PATH=build/gst).

demo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Grace Hopper's portrait (public domain, US Navy; docs/images/README.md), 256x300 RGB. Paths in
# pipeline descriptions are relative to the repository root, where the pipelines run (so that no
# space in a directory name splits them).
demo_photo=docs/images/lut-original.png
demo_photo_width=256
demo_photo_height=300

# rgb2yuv: SMPTE colour bars converted to I420 for jpegenc. jpegenc writes JFIF files whatever its
# input caps say, and JFIF means full-range BT.601 with chroma centred between the pixels it
# covers (jpegdec's output caps say so: colorimetry=1:4:0:0, chroma-site=jpeg); so that is what
# rgb2yuv has to make. Quality 95: at jpegenc's default of 85 the quantization moves the flat
# bars' Y, Cb and Cr each by a level (magenta's blue comes back as 251).
rgb2yuv_source="videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGBA,width=640,height=360"
rgb2yuv_caps="video/x-raw,format=I420,colorimetry=1:4:0:0,chroma-site=jpeg"

demo_rgb2yuv() {  # output JPEG
  gst-launch-1.0 -q $rgb2yuv_source ! rgb2yuv ! $rgb2yuv_caps ! jpegenc quality=95 \
    ! filesink location="$1"
}

# lumamax: the brightest pixel of each frame of a moving ball, one line per frame.
demo_lumamax() {
  gst-launch-1.0 -m videotestsrc num-buffers=5 pattern=ball ! video/x-raw,width=320,height=240 \
    ! lumamax ! fakesink 2>&1 \
    | sed -n 's/.*lumamax, timestamp=(guint64)\([0-9]*\),.* x=(int)\([0-9]*\), y=(int)\([0-9]*\), luma=(double)\([0-9.]*\).*/  t=\1 ns  x=\2 y=\3 luma=\4/p'
}

# One PNG of the photo through each chain, side by side from left to right, 4 pixels apart on
# white (a tee with a branch per chain into a compositor), enlarged `zoom` times without
# smoothing. The chain "identity" shows the photo itself.
demo_side_by_side() {  # output PNG, raw video caps for the photo, zoom, chain...
  local out caps=$2 zoom=$3
  out=$(realpath -m -- "$1")
  shift 3
  local gap=4 i=0 mix="compositor name=mix background=white" branches="" chain
  for chain in "$@"; do
    mix+=" sink_$i::xpos=$((i * (demo_photo_width + gap)))"
    branches+=" t. ! queue ! $chain ! videoconvert ! mix.sink_$i"
    i=$((i + 1))
  done
  local width=$((i * (demo_photo_width + gap) - gap)) height=$demo_photo_height
  (cd "$demo_root" && gst-launch-1.0 -q filesrc location=$demo_photo ! pngdec ! videoconvert ! $caps \
    ! imagefreeze num-buffers=1 ! tee name=t $mix ! video/x-raw,width=$width,height=$height \
    ! videoscale method=nearest-neighbour ! video/x-raw,width=$((width * zoom)),height=$((height * zoom)) \
    ! videoconvert ! video/x-raw,format=RGB ! pngenc ! filesink location="$out" $branches)
}

# histogram: the photo, and the photo with draw=true (the graph of its red, green and blue
# histograms in the bottom-left corner), twice the size.
demo_histogram() {  # output PNG
  demo_side_by_side "$1" video/x-raw,format=RGBx 2 identity "histogram draw=true"
}

# lut: the photo, then graded with each GPUImage lookup image of tests/data.
demo_lut_tables=(amatorka miss_etikate soft_elegance_1)
demo_lut() {  # output PNG
  local chains=(identity) name
  for name in "${demo_lut_tables[@]}"; do
    chains+=("lut location=tests/data/lookup_$name.png")
  done
  demo_side_by_side "$1" video/x-raw,format=RGBx 1 "${chains[@]}"
}

# morph on a grayscale copy of the photo: the photo; an opening (bright details narrower than the
# 9x9 ellipse go: the stars lose their points, the cap's badge and the hair's strands vanish); a
# closing (dark details go: eyes, the glasses' rims, wrinkles); a gradient (dilation minus
# erosion: the outlines).
demo_morph_chains=("operation=open shape=ellipse width=9 height=9"
                   "operation=close shape=ellipse width=9 height=9"
                   "operation=gradient shape=ellipse width=5 height=5")
demo_morph() {  # output PNG
  local chains=(identity) props
  for props in "${demo_morph_chains[@]}"; do
    chains+=("morph $props")
  done
  demo_side_by_side "$1" video/x-raw,format=GRAY8 1 "${chains[@]}"
}
