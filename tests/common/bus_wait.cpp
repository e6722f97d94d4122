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
  std::string text = std::string(g_quark_to_string(error->domain)) + " code " + std::to_string(error->code) +
                     ": " + error->message + " (debug: " + (debug != nullptr ? debug : "none") + ")";
  g_error_free(error);
  g_free(debug);
  return text;
}

void ExpectEos(GstElement* pipeline, GstClockTime timeout, const std::string& context) {
  GstMessage* message = WaitForErrorOrEos(pipeline, timeout);
  fail_unless(message != nullptr, "%s: no EOS within %" GST_TIME_FORMAT, context.c_str(),
              GST_TIME_ARGS(timeout));
  const bool eos = GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS;
  const std::string what = Describe(message);
  gst_message_unref(message);
  fail_unless(eos, "%s: %s", context.c_str(), what.c_str());
}

void RunToEos(const std::string& description, GstClockTime timeout) {
  GstElement* pipeline = ParsePipeline(description.c_str());
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  ExpectEos(pipeline, timeout, "'" + description + "'");
  fail_unless(gst_element_set_state(pipeline, GST_STATE_NULL) == GST_STATE_CHANGE_SUCCESS);
  gst_object_unref(pipeline);
}

}  // namespace vktest
