#include "message_header.h"

namespace analysis_test {

bool IsElementMessage(GstMessage* message, const char* name) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ELEMENT) return false;
  const GstStructure* structure = gst_message_get_structure(message);
  return structure != nullptr && gst_structure_has_name(structure, name);
}

FieldReader ReadMessageHeader(GstMessage* message, size_t max_text, MessageHeader* header) {
  header->source = GST_MESSAGE_SRC(message);
  const GstStructure* structure = gst_message_get_structure(message);
  gchar* text = gst_structure_to_string(structure);
  header->text = text;
  if (header->text.size() > max_text) header->text = header->text.substr(0, max_text) + "...";
  g_free(text);

  FieldReader read(structure, &header->problem);
  header->timestamp = read.Uint64("timestamp");
  header->stream_time = read.Uint64("stream-time");
  header->running_time = read.Uint64("running-time");
  header->duration = read.Uint64("duration");
  return read;
}

}  // namespace analysis_test
