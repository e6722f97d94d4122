#!/usr/bin/env bash
# On the lent GPU, from the repository root, after bench/bundle.sh (the device tool sets $OUT):
#   bash bench/gpu-deep.sh
# The 10- to 16-bit cases at 1080p and 4K (P010_10LE and RGBA64_LE: lumamax with and without the
# HDR light statistics, histogram with 1 024 bins, morph 9x9, lut 33³, rgb2yuv to P010, the chain
# lut ! rgb2yuv), then the 8-bit cases they are compared with (morph at 15x15: a rectangle costs the
# same at any size), in the same run. Writes $OUT/deep.txt.
source .gpu/env.sh
export GST_VKCOMPUTE_TEST_NO_VALIDATION=1
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
exec > >(tee "$OUT/deep.txt") 2>"$OUT/deep.stderr"
vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverInfo' | head -2
for filter in P010_10LE RGBA64_LE; do
  vkcompute-bench --sizes 1080p,4k --seconds 2 --warmup 1 --filter "$filter"
done
for size in 1080p 4k; do
  for name in "rgb2yuv RGBA->NV12" "lut 33^3 tetrahedral RGBA" "chain lut ! rgb2yuv RGBA->NV12" "morph dilate 15x15 RGBA" \
              "lumamax NV12" "histogram NV12"; do
    vkcompute-bench --sizes "$size" --seconds 2 --warmup 1 --ours-only --filter "=$name $size"
  done
done
