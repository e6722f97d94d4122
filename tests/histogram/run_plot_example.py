#!/usr/bin/env python3
"""meson test wrapper for examples/histogram_plot.py: runs it on the test pattern with this
interpreter and checks that it exits 0, prints one "<time>  mean luma bin <x> of 64" line per
frame (x within the bins) and then "plot written to OUTPUT", and that OUTPUT is a complete PNG
of a plausible size: PNG signature, an IHDR chunk first with sensible dimensions, IEND last,
between 10 KB and 5 MB.

    run_plot_example.py SCRIPT FRAMES OUTPUT
"""
import os
import re
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import example_run  # noqa: E402  (found through the path above)

BINS = 64
LINE = re.compile(r"^\d+:\d\d:\d\d\.\d{3}  mean luma bin\s+(\d+\.\d\d) of %d$" % BINS)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_END = b"\x00\x00\x00\x00IEND\xaeB`\x82"  # empty IEND chunk with its CRC


def png_problems(path):
    if not os.path.isfile(path):
        return ["%s was not written" % path]
    with open(path, "rb") as png:
        data = png.read()
    problems = []
    if not data.startswith(PNG_SIGNATURE):
        problems.append("%s does not start with the PNG signature" % path)
    elif data[12:16] != b"IHDR":
        problems.append("%s has no IHDR chunk first" % path)
    else:
        width, height = struct.unpack(">II", data[16:24])
        if not (200 <= width <= 4000 and 200 <= height <= 4000):
            problems.append("%s is %dx%d pixels" % (path, width, height))
    if not data.endswith(PNG_END):
        problems.append("%s does not end with an IEND chunk (truncated?)" % path)
    if not 10_000 <= len(data) <= 5_000_000:
        problems.append("%s has %d bytes" % (path, len(data)))
    return problems


def main(script, frames, output):
    if os.path.exists(output):
        os.remove(output)  # a plot left by an earlier run must not pass for this one's
    result = example_run.run([script, "--frames", str(frames), "--output", output])
    lines = result.stdout.splitlines()
    problems = example_run.exit_problems(result)
    if len(lines) != frames + 1:
        problems.append("%d lines printed, expected %d frames and the output path"
                        % (len(lines), frames))
    problems += example_run.line_problems(lines[:-1], LINE, 0.0, BINS - 1)
    if lines and lines[-1] != "plot written to %s" % output:
        problems.append("unexpected last line: %r" % lines[-1])
    if result.returncode == 0:
        problems += png_problems(output)
    return example_run.report(result, problems)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
