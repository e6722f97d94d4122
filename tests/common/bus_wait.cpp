#include "bus_wait.h"

#include <gst/check/gstcheck.h>

#include <cstring>

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

std::string DescribeElementMessage(GstMessage* message) {
  gchar* text = gst_structure_to_string(gst_message_get_structure(message));
  std::string described = std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(message))) + ": " + text;
  g_free(text);
  return described;
}

void ExpectEos(GstElement* pipeline, GstClockTime timeout, const std::string& context,
               std::vector<std::string>* element_messages) {
  GstMessage* message = nullptr;
  if (element_messages == nullptr) {
    message = WaitForErrorOrEos(pipeline, timeout);
  } else {
    // gst_bus_timed_pop_filtered() drops what does not match: element messages are taken too.
    GstBus* bus = gst_element_get_bus(pipeline);
    const auto types = static_cast<GstMessageType>(GST_MESSAGE_ERROR | GST_MESSAGE_EOS | GST_MESSAGE_ELEMENT);
    while ((message = gst_bus_timed_pop_filtered(bus, timeout, types)) != nullptr &&
           GST_MESSAGE_TYPE(message) == GST_MESSAGE_ELEMENT) {
      element_messages->push_back(DescribeElementMessage(message));
      gst_message_unref(message);
    }
    gst_object_unref(bus);
  }
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

bool IsCpuDeviceWarning(GstMessage* message) {
  if (GST_MESSAGE_TYPE(message) != GST_MESSAGE_WARNING) return false;
  GError* error = nullptr;
  gst_message_parse_warning(message, &error, nullptr);
  const bool cpu = error->domain == GST_RESOURCE_ERROR && error->code == GST_RESOURCE_ERROR_NOT_FOUND &&
                   g_str_has_prefix(error->message, "The Vulkan device chosen automatically, ") &&
                   std::strstr(error->message, "is a CPU implementation of Vulkan") != nullptr;
  g_error_free(error);
  return cpu;
}

GstMessage* PopMessage(GstBus* bus, GstMessageType types) {
  while (GstMessage* message = gst_bus_pop_filtered(bus, types)) {
    if (!IsCpuDeviceWarning(message)) return message;
    gst_message_unref(message);
  }
  return nullptr;
}

}  // namespace vktest
