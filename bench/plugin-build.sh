# Sourced by the lent-GPU scripts, after .gpu/env.sh: use_plugin_build NAME makes GStreamer load
# the build of the plugin copied to .gpu/NAME/libgstvkcompute.so (an older build to compare with)
# in place of the bundle's: the bundle's plugins with ours replaced, and a registry of their own.
use_plugin_build() {
  local name=$1 dir=/tmp/vkcompute-plugins-$1
  mkdir -p "$dir"
  ln -sf "$PWD"/.gpu/plugins/*.so "$dir/"
  ln -sf "$PWD/.gpu/$name/libgstvkcompute.so" "$dir/libgstvkcompute.so"
  export GST_PLUGIN_SYSTEM_PATH=$dir GST_PLUGIN_PATH=$dir GST_REGISTRY=/tmp/gst-registry-$name.bin
}
