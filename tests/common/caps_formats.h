// The formats caps name, as sets of names: pad templates are compared with the formats an
// element is specified for.
#pragma once

#include <gst/video/video.h>

#include <cstddef>
#include <set>
#include <string>

namespace vktest {

// Every format named by the caps' "format" fields (strings or lists of strings).
std::set<std::string> FormatsOf(GstCaps* caps);

// The names of `formats` (an array of GstVideoFormat), to compare with FormatsOf().
template <typename Formats>
std::set<std::string> NamesOf(const Formats& formats) {
  std::set<std::string> names;
  for (GstVideoFormat format : formats) names.insert(gst_video_format_to_string(format));
  return names;
}

// Fails unless the element factory `element_name` has two static pad templates (sink and src)
// that both list exactly `expected`.
void ExpectTemplateFormats(const char* element_name, const std::set<std::string>& expected);

// "A,B,C" in the set's order, for failure messages.
std::string JoinNames(const std::set<std::string>& names);

}  // namespace vktest
