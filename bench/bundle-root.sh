#!/usr/bin/env bash
# bench/bundle.sh --root ROOT OUT (WITH_BENCH=1: vkcompute-bench too): GStreamer 1.26 for the lent
# GPU, from a Debian 13 root made by tools/release.sh (ROOT: $VKC_RELEASE_ROOTS/trixie), where this
# working tree is built first (tools/release.sh trixie shell). The GPU
# machine's glibc (Ubuntu 24.04: 2.39) is older than Debian 13's (2.41), so the root's own loader and
# glibc come along: every program is started through OUT/lib/ld-linux-x86-64.so.2 with OUT/lib first
# in its library path and the machine's own directories after it (its NVIDIA driver is loaded from
# there, and runs on the newer glibc). OUT gets the same layout and env.sh as bench/bundle.sh's.
set -euo pipefail
root=$1
out=$2
tree=$root/root/gst-vkcompute
# This working tree, copied into the root and built there (tools/release.sh keeps the root's build/).
echo 'cd /root/gst-vkcompute && { [ -d build ] || meson setup build -Dwerror=true > /dev/null; } && ninja -C build > /tmp/bundle-build.log 2>&1 || { tail -20 /tmp/bundle-build.log; false; }; exit' |
  VKC_RELEASE_ROOTS=$(dirname "$root") bash tools/release.sh "$(basename "$root")" shell > /dev/null 2>&1 ||
  { echo "bundle-root.sh: the build in $root failed (tools/release.sh $(basename "$root") shell)" >&2; exit 1; }
sys=/usr/lib/x86_64-linux-gnu
rm -rf "$out"
mkdir -p "$out/bin" "$out/real" "$out/plugins" "$out/lib"

# GStreamer's plugins the checks and benches use: its Vulkan elements and Vulkan Video decoders,
# NVIDIA's decoders, and what reads files for them.
for p in coreelements videotestsrc videoconvertscale app videosignal vulkan videofilter coloreffects \
         rawparse pbtypes nvcodec videoparsersbad isomp4 matroska mpegtsdemux; do
  [ -f "$root$sys/gstreamer-1.0/libgst$p.so" ] && cp "$root$sys/gstreamer-1.0/libgst$p.so" "$out/plugins/"
done
cp "$tree/build/gst/libgstvkcompute.so" "$out/plugins/"
programs=("$root/usr/bin/gst-launch-1.0" "$root/usr/bin/gst-inspect-1.0" "$root/usr/bin/vulkaninfo"
          "$root$sys/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
          "$tree"/build/bench/vkcompute-decoder-checks "$tree"/build/bench/vkcompute-decode-bench)
# vkcompute-bench's OpenCV peers weigh 20 MB: only when asked (the device tool carries 64 MiB).
[ "${WITH_BENCH:-0}" = 1 ] && programs+=("$tree"/build/bench/vkcompute-bench)
for t in test_gstvulkan test_gstvk_context test_gstvk_decoder_frames test_gstvk_bad_input test_robustness; do
  programs+=("$tree/build/tests/$t")
done
for f in "${programs[@]}"; do
  [ -x "$f" ] || continue
  name=${f##*/}
  cp "$f" "$out/real/$name"
  # Started through the root's loader: the program's own interpreter path would be the machine's.
  cat > "$out/bin/$name" <<'WRAP'
#!/bin/sh
b=$(cd "$(dirname "$0")/.." && pwd)
exec "$b/lib/ld-linux-x86-64.so.2" --library-path "$b/lib:${VKC_MACHINE_LIBRARY_PATH:-/usr/local/nvidia/lib64:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu}" \
  --argv0 "$0" "$b/real/$(basename "$0")" "$@"
WRAP
  chmod +x "$out/bin/$name"
done

# The libraries of all of it, as the root resolves them (glibc and the loader included), and the
# libglvnd that NVIDIA's Vulkan driver is loaded through.
libs=$(for f in "$out"/real/* "$out"/plugins/*; do
          cp "$f" "$root/tmp/vkc-bundle-probe" && chroot "$root" ldd /tmp/vkc-bundle-probe
        done 2>/dev/null | awk '/=> \//{print $3} /^\t\/lib64\/ld-linux/{print $1}' | sort -u)
rm -f "$root/tmp/vkc-bundle-probe"
for l in $libs $sys/libGLdispatch.so.0 $sys/libGLX.so.0 $sys/libEGL.so.1 $sys/libOpenGL.so.0 $sys/libGL.so.1; do
  # Resolved inside the root: its links may be absolute (/lib64/ld-linux-x86-64.so.2).
  [ -e "$out/lib/${l##*/}" ] || cp "$root$(chroot "$root" readlink -f "$l")" "$out/lib/${l##*/}"
done
# Vulkan-Hpp's loader opens libvulkan.so before libvulkan.so.1: the machine's own would be a second
# loader beside GStreamer's, and our handles of GStreamer's instance would reach the wrong one.
ln -s libvulkan.so.1 "$out/lib/libvulkan.so"
strip --strip-debug "$out"/real/* "$out"/plugins/*.so "$out"/lib/*.so* 2>/dev/null || true

cat > "$out/env.sh" <<'ENV'
# source me on the GPU machine (GStreamer 1.26 of a Debian 13 root, through its own loader)
_b=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH="$_b/bin:$PATH"
export GST_PLUGIN_SYSTEM_PATH="$_b/plugins" GST_PLUGIN_PATH="$_b/plugins"
export GST_PLUGIN_SCANNER="$_b/bin/gst-plugin-scanner" GST_REGISTRY=/tmp/gst-registry-gpu-1.26.bin
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
if [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
ENV
echo "bundle-root.sh: $(du -sh "$out" | cut -f1) in $out (GStreamer $(chroot "$root" gst-inspect-1.0 --version | sed -n 's/.*version //p' | head -1))"
