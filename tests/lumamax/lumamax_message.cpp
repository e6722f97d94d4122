#include "lumamax_message.h"

#include <gst/gstvalue.h>

namespace lumamax_test {

using analysis_test::FieldReader;

LumamaxMessage ParseLumamaxMessage(GstMessage* message) {
  LumamaxMessage parsed;
  // check limits the length of a failure message; the fields that matter are printed apart.
  FieldReader read = analysis_test::ReadMessageHeader(message, 300, &parsed);
  parsed.max = Spot{read.Int("x"), read.Int("y"), read.Double("luma")};
  parsed.min = Spot{read.Int("min-x"), read.Int("min-y"), read.Double("min-luma")};
  parsed.mean_luma = read.Double("mean-luma");

  const GValue* peaks = read.Array("peaks");
  if (peaks == nullptr) return parsed;
  for (guint i = 0; i < gst_value_array_get_size(peaks); ++i) {
    const GValue* peak = gst_value_array_get_value(peaks, i);
    if (!GST_VALUE_HOLDS_STRUCTURE(peak)) {
      read.Fail("peaks[" + std::to_string(i) + "] is " + G_VALUE_TYPE_NAME(peak) + ", not a GstStructure");
      break;
    }
    const GstStructure* fields = gst_value_get_structure(peak);
    if (!gst_structure_has_name(fields, "peak")) {
      read.Fail("peaks[" + std::to_string(i) + "] is named \"" + gst_structure_get_name(fields) +
                "\", not \"peak\"");
    }
    FieldReader read_peak(fields, &parsed.problem);
    parsed.peaks.push_back(Spot{read_peak.Int("x"), read_peak.Int("y"), read_peak.Double("luma")});
  }
  return parsed;
}

std::string DescribeSpots(const std::vector<Spot>& spots, size_t first, size_t max_count) {
  std::string text = first > 0 ? "[" + std::to_string(first) + "]..." : "";
  for (size_t i = first; i < spots.size() && i < first + max_count; ++i) {
    gchar* one =
        g_strdup_printf("%s(%d,%d %.9f)", text.empty() ? "" : " ", spots[i].x, spots[i].y, spots[i].luma);
    text += one;
    g_free(one);
  }
  if (spots.size() > first + max_count) text += " ...";
  return text.empty() ? "(none)" : text;
}

}  // namespace lumamax_test
