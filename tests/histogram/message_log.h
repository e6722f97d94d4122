// The histogram suite's bus log: the shared MessageLog (common/analysis) for "histogram" messages.
#pragma once

#include "common/analysis/message_log.h"
#include "histogram_message.h"

namespace histogram_test {

struct HistogramKind {
  using Message = HistogramMessage;
  static bool Is(GstMessage* message) { return IsHistogramMessage(message); }
  static Message Parse(GstMessage* message) { return ParseHistogramMessage(message); }
};

using MessageLog = analysis_test::MessageLog<HistogramKind>;
using analysis_test::PostedError;

}  // namespace histogram_test
