// The element as applications see it: registration, pad templates, the property set of the
// specification, and a real pipeline naming its device; the tests every analysis element shares
// (common/analysis/element_tests.h), with histogram's own properties and messages.
#include <gst/check/gstcheck.h>

#include "common/analysis/element_tests.h"
#include "common/property_checks.h"
#include "common/vktest.h"
#include "histogram_case.h"
#include "tcases.h"

namespace histogram_test {
namespace {

// bins; draw switches between passing frames through and drawing into new ones while PLAYING too.
void ExpectBinsAndDrawSpecs(GstElement* element) {
  vktest::ExpectUint(element, "bins", 1, 65536, 256);
  GParamSpec* draw = vktest::FindProperty(element, "draw", G_TYPE_BOOLEAN);
  vktest::ExpectReadWrite(draw);
  fail_unless(!G_PARAM_SPEC_BOOLEAN(draw)->default_value, "\"draw\" is on by default");
  fail_unless(draw->flags & GST_PARAM_MUTABLE_PLAYING, "\"draw\" cannot change while PLAYING");
}

// The message of a 16x8 frame with the default properties.
void ExpectDefaultMessage(const HistogramMessage& message) {
  fail_unless(message.problem.empty() && message.pixels == 16 * 8 && message.bins == 256,
              "unexpected message: %s %s", message.problem.c_str(), message.text.c_str());
}

}  // namespace

// What is set is what reads back, at the ends of the ranges too (the specification leaves the
// roi-* maximum open; G_MAXINT is as far as lumamax goes).
GST_START_TEST(test_properties_read_back) {
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  fail_unless(element != nullptr, "cannot create histogram");
  for (guint bins : {1u, 10u, 256u}) {
    g_object_set(element, "bins", bins, nullptr);
    guint got = 0;
    g_object_get(element, "bins", &got, nullptr);
    fail_unless_equals_int(got, bins);
  }
  const struct {
    const char* name;
    guint value;
  } rois[] = {{"roi-x", 3}, {"roi-y", 5}, {"roi-width", 7}, {"roi-height", G_MAXINT}};
  for (const auto& roi : rois) g_object_set(element, roi.name, roi.value, nullptr);
  for (const auto& roi : rois) {
    guint got = 0;
    g_object_get(element, roi.name, &got, nullptr);
    fail_unless(got == roi.value, "%s reads back %u, set %u", roi.name, got, roi.value);
  }
  for (const char* nick : {"bt601", "bt2020", "bt709"}) {
    gst_util_set_object_arg(G_OBJECT(element), "matrix", nick);
    GValue value = G_VALUE_INIT;
    g_value_init(
        &value, G_PARAM_SPEC_VALUE_TYPE(g_object_class_find_property(G_OBJECT_GET_CLASS(element), "matrix")));
    g_object_get_property(G_OBJECT(element), "matrix", &value);
    const GEnumValue* got =
        g_enum_get_value(G_ENUM_CLASS(g_type_class_peek(G_VALUE_TYPE(&value))), g_value_get_enum(&value));
    fail_unless(got != nullptr && g_str_equal(got->value_nick, nick), "matrix reads back %s, set %s",
                got != nullptr ? got->value_nick : "(invalid)", nick);
    g_value_unset(&value);
  }
  g_object_set(element, "post-messages", FALSE, nullptr);
  gboolean post = TRUE;
  g_object_get(element, "post-messages", &post, nullptr);
  fail_unless(!post, "post-messages reads back TRUE, set FALSE");
  gst_object_unref(element);
}
GST_END_TEST;

TCase* ElementTCase() {
  TCase* tcase = vktest::NewTCase("element", 60);
  analysis_test::AddElementTests<kHistogramCase, ExpectBinsAndDrawSpecs, ExpectDefaultMessage>(tcase);
  tcase_add_test(tcase, test_properties_read_back);
  return tcase;
}

}  // namespace histogram_test
