#!/usr/bin/env bash
# Fresh Debian 12 machine (or one that ran tools/demo.sh) to a finished test run: installs the
# test packages too, builds everything (configuring build/ again, so that a setup made by the demo
# before they were installed now builds the whole suite), and runs the whole suite on the Vulkan
# device (Mesa lavapipe on machines without a GPU) with the validation layer enabled.
# The build carries no debug information (-Ddebug=false, optimised as ever): compiling is a third
# faster without it, in a run that CI makes twice. `meson configure build -Ddebug=true` brings it
# back for a debugger.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh test
bash tools/build.sh -Dwerror=true -Ddebug=false
# meson fills every block that malloc hands out or takes back with a random byte (MALLOC_PERTURB_)
# unless the environment sets one. lavapipe's device memory is malloc's, taken 32 MiB at a time by
# the plugin's memory blocks, so each block's every page was written once more: the whole suite on
# Debian 12 took 759 s with it and 518 s without (warm shader cache, 2 cores). `MALLOC_PERTURB_=N
# bash tools/test.sh` (N from 1 to 255), or a plain `meson test`, runs with it.
export MALLOC_PERTURB_="${MALLOC_PERTURB_:-0}"
if ! meson test -C build --print-errorlogs --num-processes "$(nproc)"; then
  python3 tools/failures.py build/meson-logs/testlog.json
  exit 1
fi
