#include "histogram_message.h"

#include "reference/histogram_ref.h"

namespace histogram_test {
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

  guint Uint(const char* name) {
    const GValue* value = Typed(name, G_TYPE_UINT, "guint");
    return value != nullptr ? g_value_get_uint(value) : 0;
  }

  // A GstValueArray of guint64; the entries read before the first mistyped one.
  std::vector<guint64> Uint64Array(const char* name) {
    std::vector<guint64> entries;
    const GValue* array = Typed(name, GST_TYPE_ARRAY, "GstValueArray");
    if (array == nullptr) return entries;
    for (guint i = 0; i < gst_value_array_get_size(array); ++i) {
      const GValue* entry = gst_value_array_get_value(array, i);
      if (!G_VALUE_HOLDS_UINT64(entry)) {
        Fail(std::string("\"") + name + "\"[" + std::to_string(i) + "] is " + G_VALUE_TYPE_NAME(entry) +
             ", not guint64");
        break;
      }
      entries.push_back(g_value_get_uint64(entry));
    }
    return entries;
  }

 private:
  void Fail(const std::string& text) {
    if (problem_->empty()) *problem_ = text;
  }

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

bool IsHistogramMessage(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return false;
  const GstStructure* structure = gst_message_get_structure(message);
  return structure != nullptr && gst_structure_has_name(structure, "histogram");
}

HistogramMessage ParseHistogramMessage(GstMessage* message) {
  HistogramMessage parsed;
  parsed.source = GST_MESSAGE_SRC(message);
  const GstStructure* structure = gst_message_get_structure(message);
  gchar* text = gst_structure_to_string(structure);
  // check limits the length of a failure message; 256-entry arrays would not fit, and the
  // fields that matter are printed apart.
  constexpr size_t kMaxText = 200;
  parsed.text = text;
  if (parsed.text.size() > kMaxText) parsed.text = parsed.text.substr(0, kMaxText) + "...";
  g_free(text);

  FieldReader read(structure, &parsed.problem);
  parsed.timestamp = read.Uint64("timestamp");
  parsed.stream_time = read.Uint64("stream-time");
  parsed.running_time = read.Uint64("running-time");
  parsed.duration = read.Uint64("duration");
  parsed.bins = read.Uint("bins");
  parsed.pixels = read.Uint64("pixels");
  for (histogram_ref::Channel channel : histogram_ref::kAllChannels) {
    const char* name = histogram_ref::FieldName(channel);
    if (gst_structure_has_field(structure, name)) parsed.channels[name] = read.Uint64Array(name);
  }
  return parsed;
}

}  // namespace histogram_test
