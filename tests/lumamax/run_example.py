#!/usr/bin/env python3
"""meson test wrapper for examples/lumamax_print.py: runs it on the test pattern with this
interpreter and checks that it exits 0 and prints exactly the expected number of lines, each
"<time>  x=<int> y=<int> luma=<float in 0..1>".

    run_example.py SCRIPT EXPECTED_LINES
"""
import re
import subprocess
import sys

LINE = re.compile(r"^\d+:\d\d:\d\d\.\d{3}  x=\s*\d+ y=\s*\d+ luma=(\d\.\d{4})$")


def main(script, expected_lines):
    result = subprocess.run([sys.executable, script], capture_output=True, text=True,
                            timeout=100)
    lines = result.stdout.splitlines()
    problems = []
    if result.returncode != 0:
        problems.append("exit status %d" % result.returncode)
    if len(lines) != expected_lines:
        problems.append("%d lines printed, expected %d" % (len(lines), expected_lines))
    for line in lines:
        match = LINE.match(line)
        if match is None or not 0.0 <= float(match.group(1)) <= 1.0:
            problems.append("unexpected line: %r" % line)
            break
    if problems:
        print("; ".join(problems))
        print("--- stdout ---\n" + result.stdout + "--- stderr ---\n" + result.stderr)
        return 1
    print(result.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
