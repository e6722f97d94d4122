#!/usr/bin/env bash
# Installs what gst-vkcompute needs to build, test and run on Debian 12 (run as root).
set -euo pipefail
packages=(
  meson ninja-build pkg-config g++ glslang-tools
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libvulkan-dev libpng-dev
  gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  python3 python3-gi gir1.2-gstreamer-1.0 python3-matplotlib
  ffmpeg
  libopencv-core-dev libopencv-imgproc-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
