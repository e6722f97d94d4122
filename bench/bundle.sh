#!/usr/bin/env bash
# Packs build/ for the lent GPU: ../shared/gpu/bundle.sh, then debug info stripped so the bundle
# (with OpenCV's libraries for the in-process peers) stays well under the device tool's 64 MiB.
#   bash bench/bundle.sh        # then: device run with carry [".gpu"], see bench/gpu-bench.sh
#   bash bench/bundle.sh --perf # also Debian's perf and its libraries, for bench/gpu-profile.sh
#   bash bench/bundle.sh --media # also the clips bench/gpu-decode.sh decodes (ffmpeg makes them;
#                                # LONG_CLIP=1 adds 120 s of H.264)
# PROFILE_BUILD=DIR packs DIR's plugin and bench in place of build/'s (a build with frame pointers:
# meson setup build-fp -Dtests=disabled -Dcpp_args=-fno-omit-frame-pointer).
#   bash bench/bundle.sh --npp  # also NVIDIA's NPP 11 (Debian 12's non-free section) for the NPP
#                               # columns of vkcompute-bench --resident: 57 MB more, so the whole
#                               # bundle goes packed into .gpu-npp.tar.xz (about 37 MB), which the
#                               # device call carries instead of .gpu and unpacks first:
#                               #   tar xJf .gpu-npp.tar.xz && source .gpu/env.sh && vkcompute-bench --resident
#   bash bench/bundle.sh --root ROOT [--perf|--media]
#                               # GStreamer 1.26 instead: the runtime of a Debian 13 root that
#                               # tools/release.sh made (its build/ built there first), with that
#                               # root's glibc and loader, as the GPU machine's glibc is older
set -euo pipefail
cd "$(dirname "$0")/.."
# Other builds of the plugin to compare with (.gpu/NAME/libgstvkcompute.so, bench/plugin-build.sh)
# outlive a new bundle.
kept=$(mktemp -d)
for build in .gpu/*/libgstvkcompute.so; do
  [ -e "$build" ] && [ "$build" != .gpu/plugins/libgstvkcompute.so ] && cp -r "$(dirname "$build")" "$kept/"
done
if [ "${1:-}" = --root ]; then
  root=${2:?bench/bundle.sh --root ROOT: the Debian 13 root, e.g. /var/tmp/vkcompute-roots/trixie}
  shift 2
  bash bench/bundle-root.sh "$root" .gpu
else
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
fi
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
if [ "${1:-}" = --media ]; then
  # Clips for bench/gpu-decode.sh and vkcompute-decoder-checks (ffmpeg's test
  # source, x264 and x265): 5 s of 1080p in H.264 and H.265, 20 s of each (the decode bench's), and
  # H.264 at 1080p, 720p and 1080p again in one MPEG-TS stream.
  mkdir -p .gpu/media
  enc() { ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=$1:rate=30" -t "$2" -c:v "$3" \
            -preset veryfast -crf 30 -pix_fmt yuv420p -g 30 "${@:5}" "$4"; }
  enc 1920x1080 5 libx264 .gpu/media/h264-1080p.mp4
  enc 1920x1080 5 libx265 .gpu/media/h265-1080p.mp4 -x265-params log-level=error
  enc 1920x1080 20 libx264 .gpu/media/h264-1080p-20s.mp4 -crf 36
  enc 1920x1080 20 libx265 .gpu/media/h265-1080p-20s.mp4 -crf 38 -x265-params log-level=error
  # LONG_CLIP=1: 120 s of H.264 (16 MB), for the decode bench with few streams unpaced (one stream
  # decodes about 700 frames/s: a 20 s clip ends inside the window).
  if [ "${LONG_CLIP:-0}" = 1 ]; then enc 1920x1080 120 libx264 .gpu/media/h264-1080p-120s.mp4 -crf 36; fi
  enc 1920x1080 2 libx264 /tmp/vkc-a.ts -f mpegts
  enc 1280x720 2 libx264 /tmp/vkc-b.ts -f mpegts
  cat /tmp/vkc-a.ts /tmp/vkc-b.ts /tmp/vkc-a.ts > .gpu/media/change.ts
  # Elementary streams (no demuxer) for the state cycles of vkcompute-decoder-checks.
  ffmpeg -hide_banner -loglevel error -y -i .gpu/media/h264-1080p.mp4 -c copy -bsf:v h264_mp4toannexb .gpu/media/h264-1080p.h264
  ffmpeg -hide_banner -loglevel error -y -i .gpu/media/h265-1080p.mp4 -c copy -bsf:v hevc_mp4toannexb .gpu/media/h265-1080p.h265
  ffmpeg -hide_banner -loglevel error -y -i .gpu/media/change.ts -c copy -f h264 .gpu/media/change.h264
fi
strip --strip-debug .gpu/bin/* .gpu/plugins/*.so .gpu/lib/*.so* 2>/dev/null || true
cp -r "$kept"/. .gpu/ && rm -rf "$kept"
if [ "${1:-}" = --npp ]; then
  if ! grep -q 'Candidate: [0-9]' <<<"$(apt-cache policy libnppist11)"; then
    printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: contrib non-free\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      > /etc/apt/sources.list.d/vkcompute-nonfree.sources
    apt-get update -qq
  fi
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download -qq libnppc11 libnppist11 libnppim11 libnppicc11 libcudart11.0 2>/dev/null)
  mkdir -p .gpu/npp
  for deb in "$tmp"/*.deb; do dpkg-deb -x "$deb" "$tmp/root"; done
  cp -a "$tmp"/root/usr/lib/x86_64-linux-gnu/lib{nppc,nppist,nppim,nppicc,cudart}.so.* .gpu/npp/
  rm -rf "$tmp"
  echo 'export LD_LIBRARY_PATH="$_b/npp:$LD_LIBRARY_PATH"' >> .gpu/env.sh
  tar -cf - .gpu | xz -T0 -6 > .gpu-npp.tar.xz
  du -sh .gpu-npp.tar.xz
fi
du -sh .gpu
