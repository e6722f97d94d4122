#!/usr/bin/env bash
# Packs build/ for the lent GPU: ../shared/gpu/bundle.sh, then debug info stripped so the bundle
# (with OpenCV's libraries for the in-process peers) stays well under the device tool's 64 MiB.
#   bash bench/bundle.sh        # then: device run with carry [".gpu"], see bench/gpu-bench.sh
#   bash bench/bundle.sh --perf # also Debian's perf and its libraries, for bench/gpu-profile.sh
# PROFILE_BUILD=DIR packs DIR's plugin and bench in place of build/'s (a build with frame pointers:
# meson setup build-fp -Dtests=disabled -Dcpp_args=-fno-omit-frame-pointer).
set -euo pipefail
cd "$(dirname "$0")/.."
bash ../shared/gpu/bundle.sh build .gpu
# NVIDIA's decoders (nvcodec: nvh264dec, nvh265dec, CUDA memory) and what reads files for them, with
# the libraries they need that the bundle lacks (libcuda and libnvcuvid come from the GPU machine's driver).
plugdir=/usr/lib/x86_64-linux-gnu/gstreamer-1.0
for p in nvcodec videoparsersbad isomp4 matroska mpegtsdemux; do
  [ -f "$plugdir/libgst$p.so" ] && cp "$plugdir/libgst$p.so" .gpu/plugins/
done
for l in $(ldd .gpu/plugins/*.so | awk '/=> \//{print $3}' | sort -u |
           grep -vE '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64|libstdc\+\+|libgcc_s)\.so'); do
  [ -e ".gpu/lib/${l##*/}" ] || cp -L "$l" .gpu/lib/
done
if [ -n "${PROFILE_BUILD:-}" ]; then
  cp "$PROFILE_BUILD"/gst/libgstvkcompute.so .gpu/plugins/
  cp "$PROFILE_BUILD"/bench/vkcompute-bench .gpu/bin/
fi
if [ "${1:-}" = --perf ]; then
  # The libraries of perf that the GPU machine's image lacks (glibc, libstdc++ and zlib it has).
  perf=$(readlink -f "$(command -v perf)")
  tmp=$(mktemp -d)
  mkdir "$tmp/lib"
  cp "$perf" "$tmp/perf"
  ldd "$perf" | awk '$3 ~ /^\// {print $3}' | grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libz)\.so' |
    xargs -I{} cp -L {} "$tmp/lib/"
  strip --strip-unneeded "$tmp/perf" "$tmp"/lib/* 2>/dev/null || true
  tar cJf .gpu/perf.tar.xz -C "$tmp" perf lib
  rm -rf "$tmp"
fi
strip --strip-debug .gpu/bin/* .gpu/plugins/*.so .gpu/lib/*.so* 2>/dev/null || true
du -sh .gpu
