#!/usr/bin/env python3
"""meson test wrapper for examples/lumamax_print.py: runs it on the test pattern with this
interpreter and checks that it exits 0 and prints exactly the expected number of lines, each
"<time>  x=<int> y=<int> luma=<float in 0..1>".

    run_example.py SCRIPT EXPECTED_LINES
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
import example_run  # noqa: E402  (found through the path above)

LINE = re.compile(r"^\d+:\d\d:\d\d\.\d{3}  x=\s*\d+ y=\s*\d+ luma=(\d\.\d{4})$")


def main(script, expected_lines):
    result = example_run.run([script])
    lines = result.stdout.splitlines()
    problems = example_run.exit_problems(result)
    if len(lines) != expected_lines:
        problems.append("%d lines printed, expected %d" % (len(lines), expected_lines))
    problems += example_run.line_problems(lines, LINE, 0.0, 1.0)
    return example_run.report(result, problems)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
