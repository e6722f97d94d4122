#!/usr/bin/env python3
"""Prints what each failed test said of its failure, from meson's test log (testlog.json).

meson prints a failed test's stdout before its stderr; with the validation layer and debug output
on, the stderr is long and the check's failure lines (on stdout) scroll out of the part of a CI log
that people read, its end. This prints them again, last, and the check's own verdicts (its ":F:" and
":E:" lines, which name the case, and its summary) at the very end, apart from other lines that
mention errors: the layer's own warnings do, and in numbers that pushed the verdict out.
"""
import json
import re
import sys

VERDICT = re.compile(r":[FE]:|^\d+%: Checks:")
FAILURE = re.compile(r"Assertion|FAIL|error", re.IGNORECASE)
AT_EXIT = re.compile(r"Vulkan validation error\(s\) logged after the last check")


def main(path):
    with open(path, encoding="utf-8", errors="replace") as log:
        results = [json.loads(line) for line in log if line.strip()]
    for result in results:
        if result.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
            continue
        print(f"=== {result.get('name')}: {result.get('result')} ===")
        lines = (result.get("stdout") or "").splitlines()
        # vktest's at-exit check (a validation message after a case's last check) ends that case's
        # process with exit status 1, which check counts as an error: what it printed is on stderr.
        errors = (result.get("stderr") or "").splitlines()
        for at, line in enumerate(errors):
            if AT_EXIT.search(line):
                for text in errors[at:at + 6]:
                    print(text[:2000])
        verdicts = [line for line in lines if VERDICT.search(line)]
        said = [line for line in lines if FAILURE.search(line) and not VERDICT.search(line)]
        for line in (said or ([] if verdicts else lines))[-10:] + verdicts[-10:]:
            print(line[:2000])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/meson-logs/testlog.json")
