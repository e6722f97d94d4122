// An ERROR message as the analysis tests keep it: enough to assert on after the message is gone.
#pragma once

#include <gst/gst.h>

#include <string>

namespace analysis_test {

struct PostedError {
  GQuark domain;
  int code;
  std::string source;       // name of the posting object
  std::string description;  // vktest::Describe() of the message
};

// `message` must be an ERROR message.
PostedError ReadPostedError(GstMessage* message);

}  // namespace analysis_test
