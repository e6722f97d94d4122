#!/usr/bin/env bash
# Fresh Debian 12 machine to a finished test run: installs, builds, runs the whole suite on the
# Vulkan device (Mesa lavapipe on machines without a GPU) with the validation layer enabled.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/build.sh
meson test -C build --print-errorlogs --num-processes "$(nproc)"
