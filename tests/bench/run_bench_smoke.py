"""Runs vkcompute-bench briefly on one case and checks its JSON rows: our element (both variants)
produced frames, the harness reposted our element's message, and every row names its case,
variant and status.

    run_bench_smoke.py BENCH OUT.jsonl
"""
import json
import subprocess
import sys


def main():
    bench, out = sys.argv[1], sys.argv[2]
    subprocess.run([bench, "--sizes", "1080p", "--seconds", "0.5", "--warmup", "0.2", "--filter", "lumamax NV12",
                    "--json", out], check=True)
    with open(out, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    ours = [r for r in rows if r["ours"]]
    if len(ours) != 2:
        sys.exit(f"expected 2 vkcompute rows (default and post-messages=false), got {len(ours)}: {rows}")
    for r in ours:
        if r["status"] != "ok" or r["fps"] <= 0 or r["cpu_us_per_frame"] <= 0 or r["peak_rss_mib"] <= 0:
            sys.exit(f"vkcompute row without a measurement: {r}")
    repost = [r for r in rows if r["variant"] == "harness posting our messages"]
    if len(repost) != 1 or repost[0]["status"] != "ok" or repost[0]["fps"] <= 0:
        sys.exit(f"expected one measured 'harness posting our messages' row: {repost}")
    for r in rows:
        if not r["case"] or not r["variant"] or not r["status"]:
            sys.exit(f"incomplete row: {r}")
    print(f"{len(rows)} rows, vkcompute at {ours[0]['fps']:.1f} frames/s")


if __name__ == "__main__":
    main()
