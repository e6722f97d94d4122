#!/usr/bin/env python3
"""Turns vkcompute-bench results (its --json output) into Markdown tables, as in
docs/benchmarks/h200-2026-11-21-run3-tables.md: one table per case and size, our element first,
then each peer with our speed-up over it.

    /usr/bin/python3 bench/tables.py results.jsonl > tables.md
"""
import json
import sys


def fmt(value, digits=0):
    return f"{value:,.{digits}f}" if value else "–"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    cases = list(dict.fromkeys((r["case"], r["size"]) for r in rows))
    for case, size in cases:
        here = [r for r in rows if r["case"] == case and r["size"] == size]
        ours = next((r for r in here if r["ours"] and r["status"] == "ok"), None)
        floor = here[0]["copy_floor_us"]
        print(f"#### {case}, {size}\n")
        print(f"Copy floor (bytes in and out at the measured copy bandwidth): {floor:.0f} µs per frame.\n")
        print("| variant | frames/s | ms/frame | CPU µs/frame | peak MiB | GPU µs/frame | GPU vs floor | vkcompute ÷ peer |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in here:
            label = r["variant"] + (f" ({r['note']})" if r["note"] else "")
            if r["status"] != "ok":
                print(f"| {label} | {r['status']} | | | | | | |")
                continue
            gpu = r["gpu_us"]
            vs_floor = f"{100 * floor / gpu:.0f} %" if r["ours"] and gpu > 0 and floor > 0 else ""
            peer = not r["ours"] and not r.get("reference")
            ratio = f"{ours['fps'] / r['fps']:.3g}×" if ours and peer and r["fps"] > 0 else ""
            print(f"| {label} | {fmt(r['fps'])} | {r['ms_per_frame']:.3f} | {fmt(r['cpu_us_per_frame'], 1)} | "
                  f"{r['peak_rss_mib']:.0f} | {fmt(gpu)} | {vs_floor} | {ratio} |")
        print()
        # Where our rows' CPU time goes, thread by thread (runs that recorded it).
        for r in here:
            threads = r.get("cpu_us_per_frame_by_thread")
            if r["status"] == "ok" and threads and (r["ours"] or r.get("reference")):
                busy = sorted(((us, name) for name, us in threads.items() if us >= 0.5), reverse=True)
                print(f"- CPU µs/frame by thread, {r['variant']}: " + ", ".join(f"{n} {us:.1f}" for us, n in busy))
        print()


if __name__ == "__main__":
    main()
