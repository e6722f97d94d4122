#!/usr/bin/env python3
"""Prints where the brightest pixel of every video frame is, read from the frame itself at an
appsink: lumamax with attach-meta=true puts its results on every frame it passes on, as a
GstCustomMeta named "VkComputeLumamaxMeta" holding the fields of its "lumamax" message.

    GST_PLUGIN_PATH=<builddir>/gst python3 examples/lumamax_meta.py [FRAMES]

Analyses FRAMES (default 30) frames of videotestsrc's "ball" pattern (a white ball moving over
black) and prints, for every frame, its running time and the position and luma (0..1) of its
brightest pixel, as examples/lumamax_print.py does from the bus messages. Each frame comes
together with its results, so nothing has to be matched by timestamp.

Needs PyGObject with GStreamer's introspection data (Debian: python3-gi, gir1.2-gstreamer-1.0).
"""
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402  (must follow require_version)


def format_time(nanoseconds):
    """h:mm:ss.mmm, like GStreamer's own time format but shorter."""
    if nanoseconds == Gst.CLOCK_TIME_NONE:
        return "none"
    seconds, rest = divmod(nanoseconds, Gst.SECOND)
    return "%d:%02d:%02d.%03d" % (seconds // 3600, seconds // 60 % 60, seconds % 60,
                                  rest // Gst.MSECOND)


def main(argv):
    Gst.init(None)
    if Gst.ElementFactory.find("lumamax") is None:
        print("lumamax not found: set GST_PLUGIN_PATH to the directory holding "
              "libgstvkcompute.so (e.g. build/gst)", file=sys.stderr)
        return 2
    frames = int(argv[1]) if len(argv) > 1 else 30
    pipeline = Gst.parse_launch(
        "videotestsrc pattern=ball num-buffers=%d ! videoconvert ! "
        "lumamax attach-meta=true post-messages=false ! appsink name=sink sync=false" % frames)
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:  # EOS, or an error (on the bus)
            break
        buffer = sample.get_buffer()
        meta = buffer.get_custom_meta("VkComputeLumamaxMeta")
        if meta is None:
            print("frame without results")
            continue
        results = meta.get_structure()
        _, x = results.get_int("x")
        _, y = results.get_int("y")
        _, luma = results.get_double("luma")
        running_time = sample.get_segment().to_running_time(Gst.Format.TIME, buffer.pts)
        print("%s  x=%4d y=%4d luma=%.4f" % (format_time(running_time), x, y, luma), flush=True)
    error = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if error is not None:
        print("error: %s" % error.parse_error()[0].message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
