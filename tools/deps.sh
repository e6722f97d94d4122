#!/usr/bin/env bash
# Installs the Debian packages (as root; Debian 12 and 13) that one purpose needs, and only those missing:
#   tools/deps.sh demo   build the plugin and run tools/demo.sh's pipelines
#   tools/deps.sh test   that, and build and run the whole test suite and bench/vkcompute-bench
#   tools/deps.sh release   debootstrap, for tools/release.sh
# On a fresh machine another apt (unattended-upgrades, apt-daily) may hold apt's locks for
# minutes; this waits for it, up to 10 minutes, instead of failing.
set -euo pipefail

# Building the plugin (gst/, shaders/).
build_packages=(
  meson ninja-build pkg-config g++ glslang-tools
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libvulkan-dev libpng-dev
  libffmpeg-nvenc-dev  # nv-codec-headers: the loader of NVIDIA's CUDA driver (headers only)
)
# Running the demo's pipelines: gst-launch-1.0; videotestsrc, videoconvert, videoscale, compositor
# (plugins-base); pngdec, pngenc, jpegenc, jpegdec, imagefreeze (plugins-good); Mesa's Vulkan
# drivers (lavapipe on machines without a GPU).
run_packages=(
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good mesa-vulkan-drivers
)
# The test suite and the benchmark only: the validation layer every test runs under, vulkaninfo,
# PyGObject and matplotlib (the examples and their tests), ffmpeg (test_lut's peer), OpenCV
# (test_morph's peer, vkcompute-bench's in-process peers), GStreamer's own Vulkan elements
# (vulkanupload, vulkandownload) and their library, libgstvulkan, which the plugin loads at run time
# to take their frames (tests/test_gstvk_library).
test_packages=(
  vulkan-validationlayers vulkan-tools
  python3 python3-gi gir1.2-gstreamer-1.0 python3-matplotlib
  ffmpeg
  libopencv-core-dev libopencv-imgproc-dev
  gstreamer1.0-plugins-bad
)

# GStreamer's analytics library (gst-plugins-bad's, GStreamer 1.24 and later: every release after
# Debian 12), whose relation meta lumamax and histogram fill; the suite tests that where it exists.
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] || test_packages+=(libgstreamer-plugins-bad1.0-dev)
# The same package's gstreamer-vulkan-1.0.pc requires xkbcommon and xkbcommon-x11, which it does not
# depend on (Debian 13): without them pkg-config refuses it, and tests/test_gstvk_abi, which checks
# gst/gstvk/abi.hpp against GStreamer's Vulkan headers, is not built.
[ "${VERSION_CODENAME:-}" = bookworm ] || test_packages+=(libxkbcommon-dev libxkbcommon-x11-dev)

case ${1:-} in
  demo) packages=("${build_packages[@]}" "${run_packages[@]}") ;;
  test) packages=("${build_packages[@]}" "${run_packages[@]}" "${test_packages[@]}") ;;
  release) packages=(debootstrap) ;;
  *) echo "usage: tools/deps.sh demo|test|release" >&2; exit 2 ;;
esac

lock_wait=600

# Whether a process holds one of the locks of apt and dpkg: /proc/locks names each file locked as
# major:minor:inode (device numbers in hex).
lock_held() {
  local file major minor inode
  for file in /var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock \
      /var/cache/apt/archives/lock; do
    [ -e "$file" ] || continue
    read -r major minor inode < <(stat -c '%Hd %Ld %i' "$file")
    grep -q " $(printf '%02x:%02x:%s' "$major" "$minor" "$inode") " /proc/locks && return 0
  done
  return 1
}

# apt-get with its arguments, once no other apt holds a lock (up to lock_wait seconds in all), and
# again if it failed because one took a lock meanwhile: apt waits by itself only for dpkg's locks
# (DPkg::Lock::Timeout), not for the lists lock of `update` nor the archives lock of a download.
apt_get() {
  local deadline=$((SECONDS + lock_wait))
  while true; do
    if lock_held; then
      echo "deps: waiting for another apt or dpkg to finish (on a fresh machine: unattended-upgrades)"
      while lock_held && [ "$SECONDS" -lt "$deadline" ]; do sleep 2; done
    fi
    apt-get -o DPkg::Lock::Timeout=$((deadline > SECONDS ? deadline - SECONDS : 0)) "$@" && return 0
    lock_held && [ "$SECONDS" -lt "$deadline" ] || return 1
  done
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  echo "deps: installing ${missing[*]}"
  apt_get update -qq
  apt_get install -y -qq --no-install-recommends "${missing[@]}"
fi
