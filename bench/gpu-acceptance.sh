#!/usr/bin/env bash
# Issue 16's acceptance run of the chain targets (docs/benchmarks.md), on the lent GPU, from the
# repository root after bash bench/bundle.sh, with $OUT set (the device tool sets it):
#   bash bench/gpu-acceptance.sh
# With a build of the plugin from before frames stayed on the GPU (9b1d626, "today" in the issue)
# copied to .gpu/old/libgstvkcompute.so, the single elements alternate with it round by round.
# Writes, under $OUT: gpu.txt; chains.{txt,jsonl} (both chains at 1080p and 4K with their peers,
# GPU time per element and the live case); floor.txt (the kernels alone on device-resident frames);
# singles.{txt,jsonl}, or singles-N/ab-*.{txt,jsonl} against the old build. About 4 minutes on an H100.
source .gpu/env.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
nproc | sed 's/^/CPU cores: /' | tee -a "$OUT/gpu.txt"
timeout 240 vkcompute-bench --filter chain --sizes 1080p,4k --seconds 1.5 --warmup 0.4 \
  --json "$OUT/chains.jsonl" > "$OUT/chains.txt" 2>&1
echo "chains rc=$?"
timeout 120 vkcompute-bench --kernel-floor --sizes 1080p > "$OUT/floor.txt" 2>&1
echo "kernel floor rc=$?"
if [ -f .gpu/old/libgstvkcompute.so ]; then
  # One case of each element, by its exact name.
  base=$OUT n=0
  for f in "rgb2yuv RGBA->NV12 1080p" "lumamax RGBA 1080p" "histogram RGBA 1080p" "morph dilate 31x31 RGBA 1080p" \
    "lut 33^3 tetrahedral RGBA 1080p"; do
    n=$((n + 1))
    mkdir -p "$base/singles-$n"
    OUT=$base/singles-$n timeout 120 bash bench/gpu-ab.sh 2 new old:plugin=old -- --filter "=$f" --seconds 1 --warmup 0.3
  done
  OUT=$base
else
  timeout 200 vkcompute-bench --ours-only --sizes 1080p --seconds 1 --warmup 0.3 \
    --json "$OUT/singles.jsonl" > "$OUT/singles.txt" 2>&1
  echo "single elements rc=$?"
fi
grep -E "^chain|  vkcompute|push to sink|GPU us by" "$OUT/chains.txt" | head -60
