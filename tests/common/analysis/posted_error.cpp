#include "posted_error.h"

#include "common/bus_wait.h"

namespace analysis_test {

PostedError ReadPostedError(GstMessage* message) {
  GError* error = nullptr;
  gst_message_parse_error(message, &error, nullptr);
  PostedError posted{error->domain, error->code, GST_MESSAGE_SRC_NAME(message), vktest::Describe(message)};
  g_error_free(error);
  return posted;
}

}  // namespace analysis_test
