#!/usr/bin/env python3
"""Plots the per-channel histograms that the histogram element posts on the bus to a PNG file.

    GST_PLUGIN_PATH=<builddir>/gst python3 examples/histogram_plot.py \\
        [--frames N] [--output hist.png] [FILE-OR-URI]

histogram is part of the vkcompute plugin (libgstvkcompute.so). GStreamer finds it through
GST_PLUGIN_PATH, the directory the plugin was built in (<builddir>/gst), or without it once the
plugin is installed into GStreamer's plugin directory.

The pipeline is

    videotestsrc (or uridecodebin FILE-OR-URI) ! videoconvert ! histogram bins=64 ! fakesink

For every frame the script prints the running time and the mean and fullest bin of the luma
histogram, taken from the element's "histogram" messages. At the end it draws two plots into the
PNG: the histogram of every channel of the last frame (lines coloured by channel), and the luma
histogram averaged over all frames with the range each bin took across the frames.

Which channels there are depends on the negotiated format: red, green, blue and luma for RGB
(plus alpha for formats with one), luma for GRAY8, luma, u and v for I420, NV12 and Y444.
--format picks one (e.g. --format I420).

Needs PyGObject with GStreamer's introspection data and matplotlib (Debian: python3-gi,
gir1.2-gstreamer-1.0, python3-matplotlib). Draws with matplotlib's Agg backend: no display needed.
"""
import argparse
import importlib.util
import os
import sys
import warnings

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402  (must follow require_version)
from vkcompute_example import element_missing, format_time  # noqa: E402  (next to this script)

# Fields of a histogram message that are not per-channel counts.
SCALAR_FIELDS = {"timestamp", "stream-time", "running-time", "duration", "bins", "pixels"}

# Plot order and colour of the channels the element knows; others get matplotlib's colours.
CHANNEL_STYLE = {
    "red": ("red", "tab:red", "-"),
    "green": ("green", "tab:green", "-"),
    "blue": ("blue", "tab:blue", "-"),
    "luma": ("luma", "black", "-"),
    "alpha": ("alpha", "tab:gray", "--"),
    "u": ("u (Cb)", "tab:cyan", "-"),
    "v": ("v (Cr)", "tab:orange", "--"),  # dashed: u and v often coincide
}


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="Plot the histogram element's per-channel histograms to a PNG file.")
    parser.add_argument("location", nargs="?", metavar="FILE-OR-URI",
                        help="video to analyse (default: videotestsrc)")
    parser.add_argument("--frames", type=int, default=30,
                        help="frames to analyse (default 30; 0 = the whole file)")
    parser.add_argument("--output", default="histogram.png",
                        help="PNG file to write (default histogram.png)")
    parser.add_argument("--bins", type=int, default=64,
                        help="bins per histogram, 1..256 (default 64)")
    parser.add_argument("--pattern", default="smpte",
                        help="videotestsrc pattern without FILE-OR-URI (default smpte)")
    parser.add_argument("--format", help="raw video format to analyse in (default: negotiated)")
    args = parser.parse_args(argv[1:])
    if args.frames < 0 or (args.frames == 0 and args.location is None):
        parser.error("--frames must be at least 1 for the test pattern (0 only for a file)")
    if not 1 <= args.bins <= 256:
        parser.error("--bins must be in 1..256")
    return args


def build_pipeline(args):
    pipeline = Gst.Pipeline.new("histogram-plot")
    convert = Gst.ElementFactory.make("videoconvert")
    histogram = Gst.ElementFactory.make("histogram")
    histogram.set_property("bins", args.bins)
    sink = Gst.ElementFactory.make("fakesink")
    chain = [convert]
    if args.format:
        capsfilter = Gst.ElementFactory.make("capsfilter")
        caps = Gst.Caps.from_string("video/x-raw,format=" + args.format)
        if caps is None:
            raise RuntimeError("cannot parse format %r" % args.format)
        capsfilter.set_property("caps", caps)
        chain.append(capsfilter)
    chain += [histogram, sink]

    if args.location is None:
        source = Gst.ElementFactory.make("videotestsrc")
        source.set_property("num-buffers", args.frames)
        Gst.util_set_object_arg(source, "pattern", args.pattern)
    else:
        source = Gst.ElementFactory.make("uridecodebin")
        location = args.location
        uri = location if Gst.uri_is_valid(location) else Gst.filename_to_uri(
            os.path.abspath(location))
        source.set_property("uri", uri)

    pipeline.add(source)
    for element in chain:
        pipeline.add(element)
    for upstream, downstream in zip(chain, chain[1:]):
        if not upstream.link(downstream):
            raise RuntimeError("cannot link %s to %s (format not supported?)" % (
                upstream.get_name(), downstream.get_name()))
    if args.location is None:
        source.link(convert)
    else:
        # uridecodebin adds a pad per stream once it knows the file; the first video one is used.
        def on_pad_added(_decoder, pad):
            caps = pad.get_current_caps() or pad.query_caps(None)
            target = convert.get_static_pad("sink")
            if caps.get_structure(0).get_name().startswith("video/") and not target.is_linked():
                pad.link(target)

        source.connect("pad-added", on_pad_added)
    return pipeline


def uint64_array(structure, field):
    """A GstValueArray field as a list of ints.

    With GStreamer's Python overrides (python3-gst-1.0) get_value() returns a Gst.ValueArray
    (other binding versions may return a list); both iterate. Without them PyGObject cannot
    convert a GstValueArray GValue at all ("unknown type GstValueArray"), so the field is read
    through gst_structure_get_array(), which copies it into a GValueArray, GObject's old array
    type.
    """
    try:
        value = structure.get_value(field)
    except TypeError:
        value = None
    if value is not None and not isinstance(value, (int, float, str)):
        return [int(count) for count in value]
    found, array = structure.get_array(field)
    if not found:
        raise ValueError("field %r is not an array" % field)
    with warnings.catch_warnings():  # GValueArray is deprecated, but the only way in here
        warnings.simplefilter("ignore", DeprecationWarning)
        return [int(array.get_nth(i)) for i in range(array.n_values)]


class Frame:
    """The contents of one histogram message."""

    def __init__(self, structure):
        self.running_time = structure.get_uint64("running-time")[1]
        self.bins = structure.get_uint("bins")[1]
        self.pixels = structure.get_uint64("pixels")[1]
        self.channels = {}  # name -> counts, in message order
        for i in range(structure.n_fields()):
            name = structure.nth_field_name(i)
            if name in SCALAR_FIELDS:
                continue
            counts = uint64_array(structure, name)
            if len(counts) != self.bins:
                raise ValueError("%s has %d counts, bins=%d" % (name, len(counts), self.bins))
            self.channels[name] = counts

    def mean_bin(self, channel):
        """Mean bin index of a channel (count-weighted), or None for an empty histogram."""
        counts = self.channels[channel]
        total = sum(counts)
        return sum(b * c for b, c in enumerate(counts)) / total if total else None


def collect(pipeline, frames_wanted):
    """Frames from histogram messages until EOS, frames_wanted of them (0 = all) or an error.

    Returns (frames, error message or None)."""
    frames = []
    bus = pipeline.get_bus()
    while True:
        message = bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE,
            Gst.MessageType.ELEMENT | Gst.MessageType.ERROR | Gst.MessageType.EOS)
        if message.type == Gst.MessageType.ERROR:
            error, debug = message.parse_error()
            return frames, "error from %s: %s (%s)" % (message.src.get_name(), error.message,
                                                       debug)
        if message.type == Gst.MessageType.EOS:  # every frame's message comes before EOS
            return frames, None
        structure = message.get_structure()
        if structure is None or structure.get_name() != "histogram":
            continue
        frame = Frame(structure)
        frames.append(frame)
        mean = frame.mean_bin("luma") if "luma" in frame.channels else None
        print("%s  mean luma bin %s of %d" % (
            format_time(frame.running_time), "  none" if mean is None else "%6.2f" % mean,
            frame.bins), flush=True)
        if frames_wanted and len(frames) == frames_wanted:
            return frames, None


def shares(counts):
    """Counts as percentages of their sum (all zero for an empty histogram)."""
    total = sum(counts)
    return [100.0 * c / total if total else 0.0 for c in counts]


def plot(frames, output, title):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    from matplotlib.figure import Figure

    last = frames[-1]
    bins = last.bins
    edges = [b * 256.0 / bins for b in range(bins + 1)]  # bin b holds values [b*256/bins, ...)
    figure = Figure(figsize=(9, 7), dpi=100, layout="constrained")
    top, bottom = figure.subplots(2, 1, sharex=True)

    names = sorted(last.channels, key=lambda n: (list(CHANNEL_STYLE).index(n)
                                                 if n in CHANNEL_STYLE else len(CHANNEL_STYLE), n))
    heading = "last frame (%s, %d pixels)" % (format_time(last.running_time), last.pixels)
    alpha = last.channels.get("alpha")
    if alpha is not None and sum(1 for count in alpha if count) <= 1:
        # Opaque (or uniformly translucent) frames: one 100 % spike would only squash the rest.
        names.remove("alpha")
        heading += ", alpha all in bin %d" % max(range(bins), key=lambda b: alpha[b])
    for name in names:
        label, colour, style = CHANNEL_STYLE.get(name, (name, None, "-"))
        top.stairs(shares(last.channels[name]), edges, label=label, color=colour,
                   linestyle=style, linewidth=1.5)
    top.set_title(heading)
    top.set_ylabel("share of samples (%)")
    top.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")

    with_luma = [shares(f.channels["luma"]) for f in frames
                 if "luma" in f.channels and f.bins == bins]
    if with_luma:
        per_bin = list(zip(*with_luma))
        mean = [sum(values) / len(values) for values in per_bin]
        lowest = [min(values) for values in per_bin]
        highest = [max(values) for values in per_bin]
        bottom.stairs(highest, edges, baseline=lowest, fill=True, color="0.8",
                      label="range over the frames")
        bottom.stairs(mean, edges, color="black", linewidth=1.5, label="mean")
        bottom.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    bottom.set_title("luma over %d frame%s" % (len(with_luma), "" if len(with_luma) == 1 else "s"))
    bottom.set_ylabel("share of pixels (%)")
    bottom.set_xlabel("8-bit value (%d bins of %g)" % (bins, 256.0 / bins))
    bottom.set_xlim(0, 256)
    for axes in (top, bottom):
        axes.set_ylim(bottom=0)
        axes.grid(alpha=0.3)
    figure.suptitle(title)
    figure.savefig(output, format="png")


def main(argv):
    args = parse_args(argv)
    if importlib.util.find_spec("matplotlib") is None:  # fail before the pipeline runs
        print("matplotlib not found (Debian: apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 2
    Gst.init(None)
    if element_missing("histogram"):
        return 2
    try:
        pipeline = build_pipeline(args)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 2
    pipeline.set_state(Gst.State.PLAYING)
    try:
        frames, error = collect(pipeline, args.frames)
    except BrokenPipeError:  # e.g. piped into `head`: stop quietly
        return 0
    finally:
        # Elements must be back in NULL before they are disposed, whatever ended the loop.
        pipeline.set_state(Gst.State.NULL)
    if error is not None:
        print(error, file=sys.stderr)
        return 1
    if not frames:
        print("no histogram messages (no video stream?)", file=sys.stderr)
        return 1

    source = args.location or "videotestsrc pattern=%s" % args.pattern
    plot(frames, args.output, "histogram bins=%d: %s" % (frames[-1].bins, source))
    print("plot written to %s" % args.output, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
