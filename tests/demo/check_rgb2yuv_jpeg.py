#!/usr/bin/env python3
"""The demo's rgb2yuv JPEG decodes to the colours of its source frame.

    check_rgb2yuv_jpeg.py DEMO_PIPELINES_SH

Runs demo_rgb2yuv of DEMO_PIPELINES_SH (tools/demo_pipelines.sh, the function tools/demo.sh runs)
into a temporary directory, decodes the JPEG the way the JFIF specification says every viewer
must (jpegdec gives the file's Y, Cb, Cr samples; full-range BT.601 turns them into RGB), and
compares that with the source frame ($rgb2yuv_source through videoconvert to RGB), within ±3 per
channel.

Only pixels of 16x16 blocks (the 4:2:0 JPEG's coding units, from the top-left corner) where the
source frame is one colour are compared. In a block with an edge the quantization of its cosine
coefficients spreads the edge over the whole block (ringing), and its chroma is one sample per
2x2 pixels: what such pixels decode to is JPEG's doing, not rgb2yuv's. In a block of one colour
the decoded colour is that colour up to rgb2yuv's rounding and the quantization of the block's
mean. Within a block, chroma is taken from the sample covering the pixel (no interpolation
between samples, so no neighbouring block reaches in). At least half the frame must be compared.
"""
import os
import re
import subprocess
import sys
import tempfile

TOLERANCE = 3
BLOCK = 16


def run_with_pipelines(pipelines, script, *args):
    """Runs bash `script` ($1... = args) with the demo's pipelines file sourced; returns stdout."""
    result = subprocess.run(["bash", "-c", 'set -euo pipefail; source "$0"; ' + script, pipelines,
                             *args], capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        sys.exit("failed (exit status %d): %s\n--- stdout ---\n%s--- stderr ---\n%s"
                 % (result.returncode, script, result.stdout, result.stderr))
    return result.stdout


def read_exactly(path, size):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) != size:
        sys.exit("%s holds %d bytes, expected %d" % (path, len(data), size))
    return data


def jfif_to_rgb(y, cb, cr):
    """JFIF's YCbCr to RGB (full-range BT.601), rounded and clamped."""
    r = y + 1.402 * (cr - 128)
    g = y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128)
    b = y + 1.772 * (cb - 128)
    return tuple(min(255, max(0, int(c + 0.5))) for c in (r, g, b))


def main(pipelines):
    source = run_with_pipelines(pipelines, 'echo "$rgb2yuv_source"')
    size = re.search(r"width=(\d+),height=(\d+)", source)
    if size is None:
        sys.exit("no width=...,height=... in rgb2yuv_source: %r" % source)
    width, height = int(size.group(1)), int(size.group(2))
    chroma_width, chroma_height = (width + 1) // 2, (height + 1) // 2
    if width % 4 or chroma_width % 4:
        sys.exit("%dx%d: I420 rows would be padded, which this check does not read" % (width, height))

    with tempfile.TemporaryDirectory() as tmp:
        jpeg, ref, decoded = (os.path.join(tmp, n) for n in ("rgb2yuv.jpg", "ref.rgb", "dec.i420"))
        run_with_pipelines(pipelines, 'demo_rgb2yuv "$1"; '
                           'gst-launch-1.0 -q $rgb2yuv_source ! videoconvert ! video/x-raw,format=RGB '
                           '! filesink location="$2"; '
                           'gst-launch-1.0 -q filesrc location="$1" ! jpegdec ! video/x-raw,format=I420 '
                           '! filesink location="$3"', jpeg, ref, decoded)
        source_rgb = read_exactly(ref, width * height * 3)
        yuv = read_exactly(decoded, width * height + 2 * chroma_width * chroma_height)

    y_plane = yuv[:width * height]
    cb_plane = yuv[width * height:width * height + chroma_width * chroma_height]
    cr_plane = yuv[width * height + chroma_width * chroma_height:]

    compared = 0
    worst = {}  # source colour -> (error, x, y, decoded colour)
    for by in range(0, height, BLOCK):
        for bx in range(0, width, BLOCK):
            x_end, y_end = min(bx + BLOCK, width), min(by + BLOCK, height)
            first = source_rgb[(by * width + bx) * 3:(by * width + bx) * 3 + 3]
            row = first * (x_end - bx)
            if any(source_rgb[(y * width + bx) * 3:(y * width + x_end) * 3] != row
                   for y in range(by, y_end)):
                continue
            colour = tuple(first)
            for y in range(by, y_end):
                for x in range(bx, x_end):
                    c = (y // 2) * chroma_width + x // 2
                    got = jfif_to_rgb(y_plane[y * width + x], cb_plane[c], cr_plane[c])
                    error = max(abs(a - b) for a, b in zip(got, colour))
                    if error > worst.get(colour, (-1,))[0]:
                        worst[colour] = (error, x, y, got)
                    compared += 1

    print("%d of %d pixels compared (in 16x16 blocks of one colour); largest difference per "
          "source colour:" % (compared, width * height))
    for colour, (error, x, y, got) in sorted(worst.items()):
        print("  %-15s -> %-15s at (%d,%d): %d%s" % (colour, got, x, y, error,
                                                    "  > %d" % TOLERANCE if error > TOLERANCE else ""))
    if compared * 2 < width * height:
        print("fewer than half the pixels compared: the source frame has changed?")
        return 1
    if any(error > TOLERANCE for error, _, _, _ in worst.values()):
        print("the JPEG's colours differ from the source frame by more than %d" % TOLERANCE)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
