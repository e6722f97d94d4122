// Checks of an element's property specs as gst-inspect-1.0 shows them.
#pragma once

#include <gst/gst.h>

namespace vktest {

// The property `name` of `element`, holding `value_type` (or a subtype); fails if there is none.
GParamSpec* FindProperty(GstElement* element, const char* name, GType value_type);

void ExpectReadWrite(GParamSpec* spec);

// `max` 0: the specification leaves the maximum open.
void ExpectUint(GstElement* element, const char* name, guint min, guint max, guint default_value);

}  // namespace vktest
