#!/usr/bin/env bash
# Configures (once) and builds into build/. Extra arguments go to `meson setup`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/build.ninja ] || meson setup build "$@"
ninja -C build
