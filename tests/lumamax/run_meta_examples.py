#!/usr/bin/env python3
"""meson test wrapper for the examples that read lumamax's results from the frames
(examples/lumamax_meta.c, built as lumamax-meta, and examples/lumamax_meta.py): runs both and
examples/lumamax_print.py, which reads the same results from the bus messages, on the same test
pattern, and checks that all exit 0, print one line per frame, and agree frame by frame on the
brightest pixel and its luma; the C program's peaks are boxes of 9x9 pixels or fewer (clipped),
the first one at the brightest pixel.

    run_meta_examples.py C_PROGRAM META_SCRIPT PRINT_SCRIPT FRAMES
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import example_run  # noqa: E402  (found through the path above)

# "<time>  x=<int> y=<int> luma=<float>" and, from the C program, "  peaks: (x,y WxH)..."
BRIGHTEST = re.compile(r"^(\d+:\d\d:\d\d\.\d+)  x=\s*(\d+) y=\s*(\d+) luma=(\d\.\d{4})(.*)$")
PEAK = re.compile(r" \((\d+),(\d+) (\d+)x(\d+)\)")


def parse(name, result, frames, problems):
    """The (x, y, luma, rest) of each line of an example's output."""
    problems += [name + ": " + p for p in example_run.exit_problems(result)]
    lines = result.stdout.splitlines()
    if len(lines) != frames:
        problems.append("%s: %d lines printed, expected %d" % (name, len(lines), frames))
    parsed = []
    for line in lines:
        match = BRIGHTEST.match(line)
        if match is None or not 0.0 <= float(match.group(4)) <= 1.0:
            problems.append("%s: unexpected line %r" % (name, line))
            break
        parsed.append((int(match.group(2)), int(match.group(3)), match.group(4), match.group(5)))
    return parsed


def peak_problems(rest, x, y):
    """The C program's peaks: 1 to 3 boxes of at most 9x9, the first around the brightest pixel."""
    if not rest.startswith("  peaks:"):
        return ["no peaks in %r" % rest]
    peaks = [tuple(int(v) for v in m) for m in PEAK.findall(rest)]
    if not 1 <= len(peaks) <= 3 or "".join(" (%d,%d %dx%d)" % p for p in peaks) != rest[len("  peaks:"):]:
        return ["unexpected peaks %r" % rest]
    if peaks[0][:2] != (x, y) or any(not (1 <= w <= 9 and 1 <= h <= 9) for _, _, w, h in peaks):
        return ["peaks %r do not start at the brightest pixel %d,%d in boxes of 9x9 at most" % (rest, x, y)]
    return []


def main(program, meta_script, print_script, frames):
    c_result = subprocess.run([program, str(frames)], capture_output=True, text=True, timeout=100)
    py_result = example_run.run([meta_script, str(frames)])
    bus_result = example_run.run([print_script])  # 30 frames of the same pattern
    problems = []
    from_c = parse("lumamax-meta", c_result, frames, problems)
    from_py = parse("lumamax_meta.py", py_result, frames, problems)
    from_bus = parse("lumamax_print.py", bus_result, 30, problems)
    for n, (c, py, bus) in enumerate(zip(from_c, from_py, from_bus)):
        if c[:3] != bus[:3] or py[:3] != bus[:3]:
            problems.append("frame %d: C %s, Python %s, bus messages %s" % (n, c[:3], py[:3], bus[:3]))
            break
        problems += peak_problems(c[3], c[0], c[1])
        if problems:
            break
    if problems:
        print("; ".join(problems))
        for name, result in (("C", c_result), ("Python", py_result), ("messages", bus_result)):
            print("--- %s stdout ---\n%s--- stderr ---\n%s" % (name, result.stdout, result.stderr))
        return 1
    print(c_result.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
