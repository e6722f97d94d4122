// Properties changed while the element is PLAYING apply from the next frame: the same frame pushed
// after each change comes out as the new settings say, and differently from before the change.
#include <string>

#include "common/test_seed.h"
#include "common/vktest.h"
#include "morph_stream.h"
#include "tcases.h"

namespace morph_test {

GST_START_TEST(test_change_while_playing) {
  const std::string name = "change while playing";
  std::mt19937 rng = vktest::RngFor(name);
  MorphStream stream;
  GstState state = GST_STATE_NULL;
  gst_element_get_state(stream.element(), &state, nullptr, 0);
  fail_unless_equals_int(state, GST_STATE_PLAYING);

  const TestFrame frame = NoiseFrame(GST_VIDEO_FORMAT_RGBA, 40, 30, rng);
  morph_ref::MorphSpec spec;  // the defaults: dilate rect 3x3 x1
  stream.Push(frame);
  const auto change = [&](auto edit) {
    edit(spec);
    stream.Set(spec);
    stream.Push(frame);
  };
  change([](morph_ref::MorphSpec& s) { s.operation = morph_ref::kErode; });
  change([](morph_ref::MorphSpec& s) { s.shape = morph_ref::kCross; });
  change([](morph_ref::MorphSpec& s) { s.width = 7; });
  change([](morph_ref::MorphSpec& s) { s.height = 9; });
  change([](morph_ref::MorphSpec& s) { s.iterations = 3; });
  change([](morph_ref::MorphSpec& s) { s.operation = morph_ref::kGradient; });
  change([](morph_ref::MorphSpec& s) { s.shape = morph_ref::kEllipse; });
  stream.Finish();
  ExpectOutputsCorrect(stream, name);
  for (size_t i = 1; i < stream.outputs().size(); ++i)
    fail_if(FirstDifference(stream.outputs()[i], stream.outputs()[i - 1]).empty(),
            "%s: frame %zu (%s) came out as the frame before (%s): the change did not apply [%s]",
            name.c_str(), i, stream.pushed()[i].spec.Describe().c_str(),
            stream.pushed()[i - 1].spec.Describe().c_str(), vktest::SeedDescription().c_str());
}
GST_END_TEST;

TCase* PropertyTCase() {
  TCase* tcase = vktest::NewTCase("property", 120);
  tcase_add_test(tcase, test_change_while_playing);
  return tcase;
}

}  // namespace morph_test
