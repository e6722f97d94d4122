// The reference analysis of an input buffer exactly as the lumamax element will read it: plane 0,
// where the buffer's GstVideoMeta (or else the caps' default layout) puts it.
#pragma once

#include <gst/video/video.h>

#include <optional>

#include "reference/lumamax_ref.h"

namespace lumamax_test {

// The reference analysis of `buffer` (laid out as `info`, or as its GstVideoMeta says).
std::optional<lumamax_ref::Result> AnalyzeBuffer(GstBuffer* buffer, const GstVideoInfo& info,
                                                 const lumamax_ref::Params& params);

}  // namespace lumamax_test
