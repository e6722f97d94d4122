#!/usr/bin/env bash
# On the lent GPU, from the repository root, after bench/bundle.sh (the device tool sets $OUT):
#   bash bench/gpu-bench.sh [vkcompute-bench arguments]
# Writes $OUT/bench.txt, $OUT/bench.jsonl and $OUT/bench.csv; plot them here with bench/plot.py.
source .gpu/env.sh
# The NVIDIA driver's TLS library must be loaded first when it comes from outside the image's glibc.
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverInfo' | head -2 | tee "$OUT/bench.txt"
nproc | sed 's/^/CPU cores: /' | tee -a "$OUT/bench.txt"
vkcompute-bench --json "$OUT/bench.jsonl" --csv "$OUT/bench.csv" "$@" 2>"$OUT/bench.stderr" | tee -a "$OUT/bench.txt"
