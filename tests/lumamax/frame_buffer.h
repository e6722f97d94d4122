// The reference analysis of an input buffer exactly as the lumamax element will read it. The
// buffer layouts themselves are element-independent (common/analysis/frame_buffer.h).
#pragma once

#include <gst/video/video.h>

#include <optional>

#include "common/analysis/frame_buffer.h"
#include "reference/lumamax_ref.h"
#include "test_frame.h"

namespace lumamax_test {

using analysis_test::Memory;
using analysis_test::NewSystemBuffer;
using analysis_test::Placement;
using analysis_test::WriteFrame;

// The reference analysis of `buffer` (mapped as `info`, honouring its GstVideoMeta).
std::optional<lumamax_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                 const lumamax_ref::Params& params);

}  // namespace lumamax_test
