#!/usr/bin/env python3
"""Plots vkcompute-bench results (its --json output): frames per second of our element and of each
peer, one panel per frame size, one group of bars per case, log scale.

    /usr/bin/python3 bench/plot.py results.jsonl docs/images/benchmarks.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Each variant's family, in the order bars appear within a case, with its colour.
FAMILIES = [
    ("vkcompute", "#1f5fbf"),
    ("vkcompute post-messages=false", "#8fb4ea"),
    ("vkcompute 1x1 mask", "#8fb4ea"),
    ("videoconvert n-threads=1", "#f0a030"),
    ("videoconvert all cores", "#c05a00"),
    ("vulkanupload ! vulkancolorconvert ! vulkandownload", "#b03060"),
    ("OpenCV (in process, all cores)", "#3a9a40"),
    ("cvdilate", "#707070"),
]


def family(variant):
    return "OpenCV (in process, all cores)" if variant.startswith("OpenCV") else variant


def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    # The harness-alone reference rows measure CPU time, not a competitor: not plotted.
    rows = [r for r in load(sys.argv[1]) if r["status"] == "ok" and not r.get("reference")]
    sizes = [s for s in ("1080p", "4k") if any(r["size"] == s for r in rows)]
    device = rows[0]["device"] if rows else "?"
    order = [name for name, _ in FAMILIES]
    colour = dict(FAMILIES)
    fig, axes = plt.subplots(len(sizes), 1, figsize=(14, 5.5 * len(sizes)), squeeze=False)
    for ax, size in zip(axes[:, 0], sizes):
        here = [r for r in rows if r["size"] == size]
        cases = list(dict.fromkeys(r["case"] for r in here))
        labelled = set()
        for j, case in enumerate(cases):
            bars = sorted((r for r in here if r["case"] == case), key=lambda r: order.index(family(r["variant"])))
            width = 0.8 / len(bars)
            for i, r in enumerate(bars):
                name = family(r["variant"])
                ax.bar(j - 0.4 + width * (i + 0.5), r["fps"], width, color=colour[name],
                       label=None if name in labelled else name)
                labelled.add(name)
        ax.set_yscale("log")
        ax.set_ylabel("frames per second")
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{size}: vkcompute and its peers on {device} (higher is better)")
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=80)


if __name__ == "__main__":
    main()
