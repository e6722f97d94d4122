#include "bus_wait.h"

#include <gst/check/gstcheck.h>

namespace vktest {

GstElement* ParsePipeline(const char* description) {
  GError* error = nullptr;
  GstElement* pipeline = gst_parse_launch(description, &error);
  fail_unless(pipeline != nullptr && error == nullptr, "cannot build '%s': %s", description,
              error != nullptr ? error->message : "unknown error");
  return pipeline;
}

GstMessage* WaitForErrorOrEos(GstElement* pipeline, GstClockTime timeout) {
  GstBus* bus = gst_element_get_bus(pipeline);
  GstMessage* message = gst_bus_timed_pop_filtered(
      bus, timeout, static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
  gst_object_unref(bus);
  return message;
}

std::string Describe(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_ERROR) return GST_MESSAGE_TYPE_NAME(message);
  GError* error = nullptr;
  gchar* debug = nullptr;
  gst_message_parse_error(message, &error, &debug);
  std::string text = std::string(g_quark_to_string(error->domain)) + " code " +
                     std::to_string(error->code) + ": " + error->message +
                     " (debug: " + (debug != nullptr ? debug : "none") + ")";
  g_error_free(error);
  g_free(debug);
  return text;
}

}  // namespace vktest
