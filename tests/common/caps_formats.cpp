#include "caps_formats.h"

namespace vktest {

std::set<std::string> FormatsOf(GstCaps* caps) {
  std::set<std::string> formats;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GValue* value = gst_structure_get_value(gst_caps_get_structure(caps, i), "format");
    if (value == nullptr) continue;
    if (G_VALUE_HOLDS_STRING(value)) {
      formats.insert(g_value_get_string(value));
    } else if (GST_VALUE_HOLDS_LIST(value)) {
      for (guint k = 0; k < gst_value_list_get_size(value); ++k) {
        formats.insert(g_value_get_string(gst_value_list_get_value(value, k)));
      }
    }
  }
  return formats;
}

std::string JoinNames(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

}  // namespace vktest
