#!/usr/bin/env python3
"""Prints what each failed test said of its failure, from meson's test log (testlog.json).

meson prints a failed test's stdout before its stderr; with the validation layer and debug output
on, the stderr is long and the check's failure lines (on stdout) scroll out of the part of a CI log
that people read, its end. This prints them again, last.
"""
import json
import re
import sys

FAILURE = re.compile(r":[FE]:|Assertion|FAIL|error", re.IGNORECASE)


def main(path):
    with open(path, encoding="utf-8", errors="replace") as log:
        results = [json.loads(line) for line in log if line.strip()]
    for result in results:
        if result.get("result") in ("OK", "SKIP", "EXPECTEDFAIL"):
            continue
        print(f"=== {result.get('name')}: {result.get('result')} ===")
        lines = (result.get("stdout") or "").splitlines()
        said = [line for line in lines if FAILURE.search(line)]
        for line in (said or lines)[-20:]:
            print(line[:2000])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build/meson-logs/testlog.json")
