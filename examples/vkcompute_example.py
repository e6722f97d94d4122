"""What the Python examples share: GStreamer's time as they print it, the check that the plugin
is found, and the line lumamax_print.py and lumamax_meta.py print for a frame's brightest pixel.
Found next to the examples (Python puts a script's directory first on its path).
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


def element_missing(name):
    """True, after saying how to make GStreamer find the plugin, when element `name` is not found."""
    if Gst.ElementFactory.find(name) is not None:
        return False
    print("%s not found: set GST_PLUGIN_PATH to the directory holding "
          "libgstvkcompute.so (e.g. build/gst)" % name, file=sys.stderr)
    return True


def print_brightest(results):
    """One frame's line from lumamax's results (its message's or its meta's structure): the running
    time, and the position and luma (0..1) of the brightest pixel."""
    _, running_time = results.get_uint64("running-time")
    _, x = results.get_int("x")
    _, y = results.get_int("y")
    _, luma = results.get_double("luma")
    print("%s  x=%4d y=%4d luma=%.4f" % (format_time(running_time), x, y, luma), flush=True)
