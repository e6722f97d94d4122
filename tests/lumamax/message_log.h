// The lumamax suite's bus log: the shared MessageLog (common/analysis) for "lumamax" messages.
#pragma once

#include "common/analysis/message_log.h"
#include "lumamax_message.h"

namespace lumamax_test {

struct LumamaxKind {
  using Message = LumamaxMessage;
  static bool Is(GstMessage* message) { return IsLumamaxMessage(message); }
  static Message Parse(GstMessage* message) { return ParseLumamaxMessage(message); }
};

using MessageLog = analysis_test::MessageLog<LumamaxKind>;
using analysis_test::PostedError;

}  // namespace lumamax_test
