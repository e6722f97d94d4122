#!/usr/bin/env bash
# On the lent GPU, after bench/bundle.sh, with other builds of the plugin copied to
# .gpu/NAME/libgstvkcompute.so: our element's variants alone (vkcompute-bench --ours-only), rounds
# alternating between builds and settings, so that all see the same host, driver and GPU state.
#   bash bench/gpu-ab.sh ROUNDS "LABEL[:plugin=NAME][:VAR=VALUE...]"... -- [vkcompute-bench arguments]
# e.g. bash bench/gpu-ab.sh 2 new old:plugin=old new-in-place:GST_VKCOMPUTE_COPY_INPUT=0 -- --filter lumamax
# Writes $OUT/ab-LABEL-ROUND.{txt,jsonl}; the bench's stderr (the plugin's own output) to
# $OUT/ab-LABEL-ROUND.stderr.
source .gpu/env.sh
source bench/plugin-build.sh
export LD_PRELOAD=$(ls /usr/local/nvidia/lib64/libnvidia-tls.so.* 2>/dev/null | head -1)
rounds=$1
shift
specs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  specs+=("$1")
  shift
done
shift
for round in $(seq "$rounds"); do
  for spec in "${specs[@]}"; do
    IFS=: read -r -a parts <<<"$spec"
    label=${parts[0]}
    (  # a subshell per run: its settings end with it
      for part in "${parts[@]:1}"; do
        case "$part" in
          plugin=*) use_plugin_build "${part#plugin=}" ;;
          *) export "${part?}" ;;
        esac
      done
      echo "== $label, round $round"
      vkcompute-bench --ours-only --json "$OUT/ab-$label-$round.jsonl" "$@" 2>"$OUT/ab-$label-$round.stderr" | tee "$OUT/ab-$label-$round.txt" |
        grep -vE '^(vkcompute-bench|device) '
    )
  done
done
