#!/usr/bin/env bash
# On the lent GPU, after bench/bundle.sh with an older build of the plugin copied to
# .gpu/old/libgstvkcompute.so: our element's variants alone (vkcompute-bench --ours-only), rounds
# alternating between builds and settings, so that both see the same host, driver and GPU state.
#   bash bench/gpu-ab.sh ROUNDS "LABEL[:old][:VAR=VALUE...]"... -- [vkcompute-bench arguments]
# e.g. bash bench/gpu-ab.sh 2 new old new:GST_VKCOMPUTE_COPY_INPUT=0 -- --filter "lumamax RGBA"
# Writes $OUT/ab-LABEL-ROUND.{txt,jsonl}.
source .gpu/env.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
rounds=$1
shift
specs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do specs+=("$1"); shift; done
shift
# The old build: the bundle's plugins with ours replaced, and a registry of its own.
old_plugins=/tmp/vkcompute-old-plugins
mkdir -p "$old_plugins"
ln -sf "$PWD"/.gpu/plugins/*.so "$old_plugins/"
ln -sf "$PWD/.gpu/old/libgstvkcompute.so" "$old_plugins/libgstvkcompute.so"
for round in $(seq "$rounds"); do
  for spec in "${specs[@]}"; do
    IFS=: read -r -a parts <<<"$spec"
    label=${parts[0]}
    (
      source .gpu/env.sh
      for part in "${parts[@]:1}"; do
        if [ "$part" = old ]; then
          export GST_PLUGIN_SYSTEM_PATH=$old_plugins GST_PLUGIN_PATH=$old_plugins GST_REGISTRY=/tmp/gst-registry-old.bin
        else
          export "${part?}"
        fi
      done
      echo "== $label, round $round"
      vkcompute-bench --ours-only --json "$OUT/ab-$label-$round.jsonl" "$@" 2>/dev/null | tee "$OUT/ab-$label-$round.txt" |
        grep -vE '^(vkcompute-bench|device) '
    )
  done
done
