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


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = [r for r in load(sys.argv[1]) if r["status"] == "ok"]
    sizes = [s for s in ("1080p", "4k") if any(r["size"] == s for r in rows)]
    device = rows[0]["device"] if rows else "?"
    fig, axes = plt.subplots(len(sizes), 1, figsize=(14, 5.5 * len(sizes)), squeeze=False)
    for ax, size in zip(axes[:, 0], sizes):
        here = [r for r in rows if r["size"] == size]
        cases = list(dict.fromkeys(r["case"] for r in here))
        variants = list(dict.fromkeys(r["variant"] for r in here))
        width = 0.8 / len(variants)
        for i, variant in enumerate(variants):
            xs, ys = [], []
            for j, case in enumerate(cases):
                fps = [r["fps"] for r in here if r["case"] == case and r["variant"] == variant]
                if fps:
                    xs.append(j - 0.4 + width * (i + 0.5))
                    ys.append(fps[0])
            ax.bar(xs, ys, width, label=variant)
        ax.set_yscale("log")
        ax.set_ylabel("frames per second")
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases, rotation=30, ha="right", fontsize=8)
        ax.set_title(f"{size}: vkcompute and peers on {device}")
        ax.grid(axis="y", which="both", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=90)


if __name__ == "__main__":
    main()
