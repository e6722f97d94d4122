#!/usr/bin/env python3
"""meson test wrapper for examples/lumamax_regions.c (built as lumamax-regions): runs it, and for
each quarter of the same test pattern a pipeline whose lumamax analyses that quarter alone through
the roi-* properties (the one-region path, results from the bus messages); checks that the
program exits 0, prints one line per frame with the four quarters in the order of their metas (the
"label" meta left out by roi-type), and agrees with the one-region runs frame by frame on each
quarter's brightest pixel and its luma.

    run_regions_example.py PROGRAM FRAMES
"""
import os
import re
import subprocess
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402  (must follow require_version)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import example_run  # noqa: E402  (found through the path above)

WIDTH, HEIGHT = 320, 240
QUARTER = re.compile(r"  (\d): x=\s*(\d+) y=\s*(\d+) luma=(\d\.\d{4})")
LINE = re.compile(r"^\d+:\d\d:\d\d\.\d+((?:  \d: x=\s*\d+ y=\s*\d+ luma=\d\.\d{4}){4})$")


def quarter_results(n, frames):
    """(x, y, luma as printed) of each frame's brightest pixel of quarter n, from the messages of a
    lumamax whose roi-* properties select that quarter."""
    pipeline = Gst.parse_launch(
        "videotestsrc pattern=ball num-buffers=%d ! video/x-raw,width=%d,height=%d ! videoconvert ! "
        "lumamax roi-x=%d roi-y=%d roi-width=%d roi-height=%d ! fakesink"
        % (frames, WIDTH, HEIGHT, (n % 2) * WIDTH // 2, (n // 2) * HEIGHT // 2, WIDTH // 2, HEIGHT // 2))
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    results = []
    while True:
        message = bus.timed_pop_filtered(60 * Gst.SECOND, Gst.MessageType.ELEMENT | Gst.MessageType.EOS
                                         | Gst.MessageType.ERROR)
        if message is None or message.type != Gst.MessageType.ELEMENT:
            break
        s = message.get_structure()
        if s.get_name() == "lumamax":
            results.append((s.get_int("x")[1], s.get_int("y")[1], "%.4f" % s.get_double("luma")[1]))
    pipeline.set_state(Gst.State.NULL)
    return results


def main(program, frames):
    Gst.init(None)
    result = subprocess.run([program, str(frames)], capture_output=True, text=True, timeout=100)
    problems = example_run.exit_problems(result)
    lines = result.stdout.splitlines()
    if len(lines) != frames:
        problems.append("%d lines printed, expected %d" % (len(lines), frames))
    expected = [quarter_results(n, frames) for n in range(4)]
    for n, line in enumerate(lines):
        match = LINE.match(line)
        if match is None:
            problems.append("unexpected line %r" % line)
            break
        got = [(int(q), int(x), int(y), luma) for q, x, y, luma in QUARTER.findall(match.group(1))]
        want = [(q,) + expected[q][n] for q in range(4)]
        if got != want:
            problems.append("frame %d: %s, the one-region runs give %s" % (n, got, want))
            break
    return example_run.report(result, problems)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
