#!/usr/bin/env bash
# Packs build/ for the lent GPU: ../shared/gpu/bundle.sh, then debug info stripped so the bundle
# (with OpenCV's libraries for the in-process peers) stays well under the device tool's 64 MiB.
#   bash bench/bundle.sh        # then: device run with carry [".gpu"], see bench/gpu-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash ../shared/gpu/bundle.sh build .gpu
strip --strip-debug .gpu/bin/* .gpu/plugins/*.so .gpu/lib/*.so* 2>/dev/null || true
du -sh .gpu
