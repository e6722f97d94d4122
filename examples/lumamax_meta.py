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
from vkcompute_example import element_missing, print_brightest  # noqa: E402  (next to this script)


def main(argv):
    Gst.init(None)
    if element_missing("lumamax"):
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
        print_brightest(meta.get_structure())  # the fields of the message, running-time included
    error = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if error is not None:
        print("error: %s" % error.parse_error()[0].message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
