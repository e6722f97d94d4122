"""What the meson test wrappers of the examples (lumamax/run_example.py,
histogram/run_plot_example.py) share: running an example with the interpreter that runs the
wrapper, the problems its exit status and printed lines show, and the report that fails the test.
"""
import subprocess
import sys


def run(args):
    """Runs the example script and arguments `args` with this interpreter, output captured."""
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, timeout=100)


def exit_problems(result):
    """A problem when the example did not exit 0."""
    return [] if result.returncode == 0 else ["exit status %d" % result.returncode]


def line_problems(lines, pattern, low, high):
    """A problem for the first line that does not match `pattern`, whose first group is a number
    that must lie in low..high."""
    for line in lines:
        match = pattern.match(line)
        if match is None or not low <= float(match.group(1)) <= high:
            return ["unexpected line: %r" % line]
    return []


def report(result, problems):
    """Prints the problems and the example's output, or its output alone; the exit status."""
    if problems:
        print("; ".join(problems))
        print("--- stdout ---\n" + result.stdout + "--- stderr ---\n" + result.stderr)
        return 1
    print(result.stdout, end="")
    return 0
