#include "caps_formats.h"

#include <gst/check/gstcheck.h>

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

void ExpectTemplateFormats(const char* element_name, const std::set<std::string>& expected) {
  GstElementFactory* factory = gst_element_factory_find(element_name);
  fail_unless(factory != nullptr, "%s is not registered (GST_PLUGIN_PATH?)", element_name);
  int seen = 0;
  for (const GList* l = gst_element_factory_get_static_pad_templates(factory); l; l = l->next) {
    auto* templ = static_cast<GstStaticPadTemplate*>(l->data);
    GstCaps* caps = gst_static_pad_template_get_caps(templ);
    const std::set<std::string> listed = FormatsOf(caps);
    gst_caps_unref(caps);
    fail_unless(listed == expected, "%s template lists {%s}, expected {%s}", templ->name_template,
                JoinNames(listed).c_str(), JoinNames(expected).c_str());
    ++seen;
  }
  fail_unless_equals_int(seen, 2);
  gst_object_unref(factory);
}

std::string JoinNames(const std::set<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ",") + name;
  return text;
}

}  // namespace vktest
