#include "lumamax_message.h"

#include <gst/gstvalue.h>

namespace lumamax_test {
namespace {

// Collects the first problem only: later ones are usually consequences of it.
class FieldReader {
 public:
  FieldReader(const GstStructure* structure, std::string* problem)
      : structure_(structure), problem_(problem) {}

  guint64 Uint64(const char* name) {
    const GValue* value = Typed(name, G_TYPE_UINT64, "guint64");
    return value != nullptr ? g_value_get_uint64(value) : 0;
  }

  int Int(const char* name) {
    const GValue* value = Typed(name, G_TYPE_INT, "gint");
    return value != nullptr ? g_value_get_int(value) : -1;
  }

  double Double(const char* name) {
    const GValue* value = Typed(name, G_TYPE_DOUBLE, "gdouble");
    return value != nullptr ? g_value_get_double(value) : -1;
  }

  const GValue* Array(const char* name) { return Typed(name, GST_TYPE_ARRAY, "GstValueArray"); }

  void Fail(const std::string& text) {
    if (problem_->empty()) *problem_ = text;
  }

 private:
  // The field when it holds a `type` (named `type_name` in the problem); null, with the problem
  // noted, when it is missing or holds something else.
  const GValue* Typed(const char* name, GType type, const char* type_name) {
    const GValue* value = gst_structure_get_value(structure_, name);
    if (value == nullptr) {
      Fail(std::string("field \"") + name + "\" is missing");
    } else if (!G_VALUE_HOLDS(value, type)) {
      Fail(std::string("field \"") + name + "\" is " + G_VALUE_TYPE_NAME(value) + ", not " + type_name);
      return nullptr;
    }
    return value;
  }

  const GstStructure* structure_;
  std::string* problem_;
};

}  // namespace

bool IsLumamaxMessage(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return false;
  const GstStructure* structure = gst_message_get_structure(message);
  return structure != nullptr && gst_structure_has_name(structure, "lumamax");
}

LumamaxMessage ParseLumamaxMessage(GstMessage* message) {
  LumamaxMessage parsed;
  parsed.source = GST_MESSAGE_SRC(message);
  const GstStructure* structure = gst_message_get_structure(message);
  gchar* text = gst_structure_to_string(structure);
  // check limits the length of a failure message; the fields that matter are printed apart.
  constexpr size_t kMaxText = 300;
  parsed.text = text;
  if (parsed.text.size() > kMaxText) parsed.text = parsed.text.substr(0, kMaxText) + "...";
  g_free(text);

  FieldReader read(structure, &parsed.problem);
  parsed.timestamp = read.Uint64("timestamp");
  parsed.stream_time = read.Uint64("stream-time");
  parsed.running_time = read.Uint64("running-time");
  parsed.duration = read.Uint64("duration");
  parsed.max = Spot{read.Int("x"), read.Int("y"), read.Double("luma")};
  parsed.min = Spot{read.Int("min-x"), read.Int("min-y"), read.Double("min-luma")};
  parsed.mean_luma = read.Double("mean-luma");

  const GValue* peaks = read.Array("peaks");
  if (peaks == nullptr) return parsed;
  for (guint i = 0; i < gst_value_array_get_size(peaks); ++i) {
    const GValue* peak = gst_value_array_get_value(peaks, i);
    if (!GST_VALUE_HOLDS_STRUCTURE(peak)) {
      read.Fail("peaks[" + std::to_string(i) + "] is " + G_VALUE_TYPE_NAME(peak) + ", not a GstStructure");
      break;
    }
    const GstStructure* fields = gst_value_get_structure(peak);
    if (!gst_structure_has_name(fields, "peak")) {
      read.Fail("peaks[" + std::to_string(i) + "] is named \"" + gst_structure_get_name(fields) +
                "\", not \"peak\"");
    }
    FieldReader read_peak(fields, &parsed.problem);
    parsed.peaks.push_back(Spot{read_peak.Int("x"), read_peak.Int("y"), read_peak.Double("luma")});
  }
  return parsed;
}

std::string DescribeSpots(const std::vector<Spot>& spots, size_t first, size_t max_count) {
  std::string text = first > 0 ? "[" + std::to_string(first) + "]..." : "";
  for (size_t i = first; i < spots.size() && i < first + max_count; ++i) {
    gchar* one =
        g_strdup_printf("%s(%d,%d %.9f)", text.empty() ? "" : " ", spots[i].x, spots[i].y, spots[i].luma);
    text += one;
    g_free(one);
  }
  if (spots.size() > first + max_count) text += " ...";
  return text.empty() ? "(none)" : text;
}

}  // namespace lumamax_test
