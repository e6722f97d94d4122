#!/usr/bin/env bash
# Builds into build/; further arguments go to `meson setup`.
#   tools/build.sh plugin   the plugin alone (what tools/demo.sh runs). Configures build/ once,
#                           with the default options: with only `tools/deps.sh demo`'s packages
#                           the test suite is left out (-Dtests=auto) and the setup succeeds.
#   tools/build.sh          everything: the plugin, the test suite and bench/. Configures with
#                           -Dtests=enabled (a missing test package is an error naming it), and
#                           configures an existing build/ again, so that packages installed since
#                           its first setup (tools/deps.sh test after the demo) are found.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = plugin ]; then
  shift
  [ -f build/build.ninja ] || meson setup build "$@"
  ninja -C build gst/libgstvkcompute.so
else
  if [ -f build/meson-private/coredata.dat ]; then
    meson setup --reconfigure build -Dtests=enabled "$@"
  else
    meson setup build -Dtests=enabled "$@"
  fi
  ninja -C build
fi
