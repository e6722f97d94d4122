"""Runs vkcompute-bench briefly on one case and checks its JSON rows: our element (both variants)
produced frames, the copy bandwidth (and so the copy floor) was measured, the harness reposted our
element's message, and every row names its case,
variant and status. Then a chain case at 360p: in device memory one upload and one download per
frame, with system memory between more, and the live variant's push-to-sink time.

    run_bench_smoke.py BENCH OUT.jsonl
"""
import json
import subprocess
import sys


def main():
    bench, out = sys.argv[1], sys.argv[2]
    # 360p: on lavapipe a 1080p frame may not finish within the half-second window on a loaded
    # machine (a build beside the suite), and the row would say "no frame arrived".
    subprocess.run([bench, "--sizes", "360p", "--seconds", "0.5", "--warmup", "0.2", "--filter", "lumamax NV12",
                    "--json", out], check=True)
    with open(out, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    ours = [r for r in rows if r["ours"]]
    if len(ours) != 2:
        sys.exit(f"expected 2 vkcompute rows (default and post-messages=false), got {len(ours)}: {rows}")
    for r in ours:
        if r["status"] != "ok" or r["fps"] <= 0 or r["cpu_us_per_frame"] <= 0 or r["peak_rss_mib"] <= 0:
            sys.exit(f"vkcompute row without a measurement: {r}")
        # The copy floor comes from the harness's own timed copies (their GPU timestamps).
        if not (r["h2d_gbs"] > 0 and r["d2h_gbs"] > 0 and r["both_ways_gbs"] > 0 and r["copy_floor_us"] > 0):
            sys.exit(f"copy bandwidth not measured: {r}")
    repost = [r for r in rows if r["variant"] == "harness posting our messages"]
    if len(repost) != 1 or repost[0]["status"] != "ok" or repost[0]["fps"] <= 0:
        sys.exit(f"expected one measured 'harness posting our messages' row: {repost}")
    for r in rows:
        if not r["case"] or not r["variant"] or not r["status"]:
            sys.exit(f"incomplete row: {r}")
    print(f"{len(rows)} rows, vkcompute at {ours[0]['fps']:.1f} frames/s")
    check_chain(bench, out)


def check_chain(bench, out):
    subprocess.run([bench, "--ours-only", "--sizes", "360p", "--seconds", "1", "--warmup", "0.3", "--filter",
                    "chain lut ! rgb2yuv", "--json", out], check=True)
    with open(out, encoding="utf-8") as f:
        rows = {r["variant"]: r for r in (json.loads(line) for line in f if line.strip())}
    device = rows.get("vkcompute, device memory between")
    system = rows.get("vkcompute, system memory between")
    live = rows.get("vkcompute, device memory between, live")
    if not device or not system or not live or any(r["status"] != "ok" for r in (device, system, live)):
        sys.exit(f"chain rows missing or without a measurement: {list(rows.values())}")
    # Counted over the measured window, which frames in flight blur at its edges.
    if not (0.5 < device["uploads_per_frame"] < 1.5 and 0.5 < device["downloads_per_frame"] < 1.5):
        sys.exit(f"device memory between: not one upload and one download per frame: {device}")
    if not (system["uploads_per_frame"] > 1.5 and system["downloads_per_frame"] > 1.5):
        sys.exit(f"system memory between: not one upload and download per element: {system}")
    if set(device["gpu_us_by_element"]) != {"dut", "rgb2yuv0"}:
        sys.exit(f"GPU time not reported for each element of the chain: {device}")
    if not 0 < live["latency_mean_us"] <= live["latency_max_us"]:
        sys.exit(f"live variant without its push-to-sink time: {live}")
    print(f"chain: {device['fps']:.1f} frames/s in device memory, {system['fps']:.1f} with system memory between")


if __name__ == "__main__":
    main()
