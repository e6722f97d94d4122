#include "properties.hpp"

namespace vkc {

GParamSpec* PropertySpec::make() const {
  const auto flags = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                                 (mutable_playing ? GST_PARAM_MUTABLE_PLAYING : GST_PARAM_MUTABLE_READY));
  switch (type) {
    case kBoolean: return g_param_spec_boolean(name, nick, blurb, default_value != 0, flags);
    case kUint:
      return g_param_spec_uint(name, nick, blurb, guint(minimum), guint(maximum), guint(default_value),
                               flags);
    case kInt:
      return g_param_spec_int(name, nick, blurb, gint(minimum), gint(maximum), gint(default_value), flags);
    case kDouble: return g_param_spec_double(name, nick, blurb, minimum, maximum, default_value, flags);
    case kEnum: {
      const GType enum_gtype = enum_type();
      gst_type_mark_as_plugin_api(enum_gtype, GstPluginAPIFlags(0));
      return g_param_spec_enum(name, nick, blurb, enum_gtype, gint(default_value), flags);
    }
    case kString: return g_param_spec_string(name, nick, blurb, default_string, flags);
    case kCustom: return make_custom(name, nick, blurb, flags);
  }
  g_return_val_if_reached(nullptr);
}

void warn_refused(GObject* object, GParamSpec* pspec, const GValue* value, const std::string& reason,
                  const GValue* kept) {
  gchar* given = g_strdup_value_contents(value);
  gchar* stays = g_strdup_value_contents(kept);
  g_warning("%s: %s %s %s, keeping %s", GST_OBJECT_NAME(object), pspec->name, given, reason.c_str(), stays);
  g_free(given);
  g_free(stays);
}

}  // namespace vkc
