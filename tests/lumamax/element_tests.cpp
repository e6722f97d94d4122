// The element as applications see it: registration, pad templates, the property set of the
// specification, and a real pipeline naming its device; the tests every analysis element shares
// (common/analysis/element_tests.h), with lumamax's own properties.
#include <gst/check/gstcheck.h>

#include "common/analysis/element_tests.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "lumamax_case.h"
#include "tcases.h"

namespace lumamax_test {
namespace {

// count and min-distance; peak-threshold: luma as the messages report it, 0..1; 0 (every peak)
// by default.
void ExpectPeakSpecs(GstElement* element) {
  vktest::ExpectUint(element, "count", 1, 64, 1);
  vktest::ExpectUint(element, "min-distance", 0, 0, 0);
  GParamSpec* threshold = vktest::FindProperty(element, "peak-threshold", G_TYPE_DOUBLE);
  vktest::ExpectReadWrite(threshold);
  const GParamSpecDouble* range = G_PARAM_SPEC_DOUBLE(threshold);
  fail_unless(range->minimum == 0.0 && range->maximum == 1.0 && range->default_value == 0.0,
              "peak-threshold: range %g..%g, default %g", range->minimum, range->maximum,
              range->default_value);
  fail_unless(threshold->flags & GST_PARAM_MUTABLE_PLAYING, "peak-threshold cannot change while playing");
}

}  // namespace

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 60);
  analysis_test::AddElementTests<kLumamaxCase, ExpectPeakSpecs>(tcase);
  return tcase;
}

}  // namespace lumamax_test
