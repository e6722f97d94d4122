#!/usr/bin/env python3
"""Prints where the brightest pixel of every video frame is, using the lumamax element.

    GST_PLUGIN_PATH=<builddir>/gst python3 examples/lumamax_print.py [FILE-OR-URI]

lumamax is part of the vkcompute plugin (libgstvkcompute.so). GStreamer finds it through
GST_PLUGIN_PATH, the directory the plugin was built in (<builddir>/gst), or without it once the
plugin is installed into GStreamer's plugin directory.

With a file (or URI) argument, the file's video is decoded; without one, 30 frames of
videotestsrc's "ball" pattern (a white ball moving over black) are analysed. For every frame the
script prints the running time and the position and luma (0..1) of its brightest pixel, taken
from lumamax's "lumamax" element messages.

Needs PyGObject with GStreamer's introspection data (Debian: python3-gi, gir1.2-gstreamer-1.0).
"""
import os
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402  (must follow require_version)
from vkcompute_example import element_missing, print_brightest  # noqa: E402  (next to this script)


def build_pipeline(location):
    pipeline = Gst.Pipeline.new("lumamax-print")
    convert = Gst.ElementFactory.make("videoconvert")
    lumamax = Gst.ElementFactory.make("lumamax")
    sink = Gst.ElementFactory.make("fakesink")
    if location is None:
        source = Gst.ElementFactory.make("videotestsrc")
        source.set_property("num-buffers", 30)
        Gst.util_set_object_arg(source, "pattern", "ball")
    else:
        source = Gst.ElementFactory.make("uridecodebin")
        uri = location if Gst.uri_is_valid(location) else Gst.filename_to_uri(
            os.path.abspath(location))
        source.set_property("uri", uri)
    for element in (source, convert, lumamax, sink):
        pipeline.add(element)
    convert.link(lumamax)
    lumamax.link(sink)
    if location is None:
        source.link(convert)
    else:
        # The decoder creates one pad per stream once it knows the file; only video goes on.
        def on_pad_added(_decoder, pad):
            caps = pad.get_current_caps() or pad.query_caps(None)
            target = convert.get_static_pad("sink")
            if caps.get_structure(0).get_name().startswith("video/") and not target.is_linked():
                pad.link(target)

        source.connect("pad-added", on_pad_added)
    return pipeline


def main(argv):
    Gst.init(None)
    if element_missing("lumamax"):
        return 2
    pipeline = build_pipeline(argv[1] if len(argv) > 1 else None)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        return print_messages(pipeline.get_bus())
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        return 0
    finally:
        # Elements must be back in NULL before they are disposed, whatever ended the loop.
        pipeline.set_state(Gst.State.NULL)


def print_messages(bus):
    """Prints every lumamax message until EOS (status 0) or an error (status 1)."""
    while True:
        message = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE,
            Gst.MessageType.ELEMENT | Gst.MessageType.ERROR | Gst.MessageType.EOS)
        if message.type == Gst.MessageType.ELEMENT:
            structure = message.get_structure()
            if structure is not None and structure.get_name() == "lumamax":
                print_brightest(structure)
        elif message.type == Gst.MessageType.ERROR:
            error, debug = message.parse_error()
            print("error from %s: %s (%s)" % (message.src.get_name(), error.message, debug),
                  file=sys.stderr)
            return 1
        else:  # EOS: lumamax posts every frame's message before EOS gets past it
            return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
