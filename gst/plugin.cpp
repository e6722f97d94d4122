// The vkcompute plugin: registration only.
#include <gst/gst.h>

#include "elements/elements.hpp"
#include "vk/device.hpp"

static gboolean plugin_init(GstPlugin* plugin) {
  GST_DEBUG_CATEGORY_INIT(gst_vkcompute_runtime_debug, "vkcompute", 0, "vkcompute Vulkan runtime");
  gboolean ok = FALSE;
  ok |= GST_ELEMENT_REGISTER(rgb2yuv, plugin);
  ok |= GST_ELEMENT_REGISTER(lumamax, plugin);
  ok |= GST_ELEMENT_REGISTER(histogram, plugin);
  ok |= GST_ELEMENT_REGISTER(lut, plugin);
  ok |= GST_ELEMENT_REGISTER(morph, plugin);
  return ok;
}

GST_PLUGIN_DEFINE(GST_VERSION_MAJOR, GST_VERSION_MINOR, vkcompute,
                  "Video analysis and filters as Vulkan compute shaders", plugin_init, PACKAGE_VERSION,
                  "LGPL", PACKAGE, GST_PACKAGE_ORIGIN)
