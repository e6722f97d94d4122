// Checks of an analysis element as applications see it, the same for every one: its pad
// templates, the property specs the specification gives all of them, and the device a pipeline
// ran on (the tests made of them: element_tests.h).
#pragma once

#include <gst/gst.h>

namespace analysis_test {

// Both static pad templates of `element_name` list exactly the analysis formats (formats.h).
// The pad templates list exactly kFormats, and kDeepFormats with `deep`.
void ExpectPadTemplates(const char* element_name, bool deep);

// post-messages: read-write, TRUE by default.
void ExpectPostMessagesSpec(GstElement* element);

// roi-x, roi-y, roi-width, roi-height: read-write, 0 by default, maximum left open.
void ExpectRoiSpecs(GstElement* element);

// matrix (bt601, bt709 by default, bt2020), device (-1 by default) and read-only device-name.
void ExpectMatrixAndDeviceSpecs(GstElement* element);

// The element named `name` in `pipeline` reports a device-name of a device of this machine.
void ExpectKnownDeviceName(GstElement* pipeline, const char* name);

}  // namespace analysis_test
