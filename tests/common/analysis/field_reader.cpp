#include "field_reader.h"

namespace analysis_test {

guint64 FieldReader::Uint64(const char* name) {
  const GValue* value = Typed(name, G_TYPE_UINT64, "guint64");
  return value != nullptr ? g_value_get_uint64(value) : 0;
}

guint FieldReader::Uint(const char* name) {
  const GValue* value = Typed(name, G_TYPE_UINT, "guint");
  return value != nullptr ? g_value_get_uint(value) : 0;
}

int FieldReader::Int(const char* name) {
  const GValue* value = Typed(name, G_TYPE_INT, "gint");
  return value != nullptr ? g_value_get_int(value) : -1;
}

double FieldReader::Double(const char* name) {
  const GValue* value = Typed(name, G_TYPE_DOUBLE, "gdouble");
  return value != nullptr ? g_value_get_double(value) : -1;
}

const GValue* FieldReader::Array(const char* name) {
  return Typed(name, GST_TYPE_ARRAY, "GstValueArray");
}

std::vector<guint64> FieldReader::Uint64Array(const char* name) {
  std::vector<guint64> entries;
  const GValue* array = Array(name);
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

void FieldReader::Fail(const std::string& text) {
  if (problem_->empty()) *problem_ = text;
}

const GValue* FieldReader::Typed(const char* name, GType type, const char* type_name) {
  const GValue* value = gst_structure_get_value(structure_, name);
  if (value == nullptr) {
    Fail(std::string("field \"") + name + "\" is missing");
  } else if (!G_VALUE_HOLDS(value, type)) {
    Fail(std::string("field \"") + name + "\" is " + G_VALUE_TYPE_NAME(value) + ", not " + type_name);
    return nullptr;
  }
  return value;
}

}  // namespace analysis_test
