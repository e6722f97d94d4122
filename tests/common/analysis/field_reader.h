// Reads an element message's fields with the types its specification names. Every analysis
// element specifies its message field by field; a missing or mistyped field becomes the message's
// "problem" rather than a crash or a silent default.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

namespace analysis_test {

// Collects the first problem only: later ones are usually consequences of it. Readers return
// a placeholder (0, -1, null, empty) for a field they could not read.
class FieldReader {
 public:
  FieldReader(const GstStructure* structure, std::string* problem)
      : structure_(structure), problem_(problem) {}

  guint64 Uint64(const char* name);
  guint Uint(const char* name);
  int Int(const char* name);
  double Double(const char* name);
  const GValue* Array(const char* name);  // a GstValueArray, or null
  // A GstValueArray of guint64; the entries read before the first mistyped one.
  std::vector<guint64> Uint64Array(const char* name);

  // Notes `text` as the problem unless there is one already.
  void Fail(const std::string& text);

 private:
  // The field when it holds a `type` (named `type_name` in the problem); null, with the problem
  // noted, when it is missing or holds something else.
  const GValue* Typed(const char* name, GType type, const char* type_name);

  const GstStructure* structure_;
  std::string* problem_;
};

}  // namespace analysis_test
