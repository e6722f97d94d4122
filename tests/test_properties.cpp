// gst/base/properties.hpp on its own, with a small GstObject subclass (no element, no Vulkan
// device): the GParamSpecs a table installs, values stored and read back under the object lock,
// the refuse and then hooks, the snapshot, and the settings freed at finalize.
#include <gst/check/gstcheck.h>

#include <functional>
#include <string>

#include "base/properties.hpp"

namespace {

enum Colour { kRed, kGreen, kBlue };

GType colour_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {kRed, "Red", "red"}, {kGreen, "Green", "green"}, {kBlue, "Blue", "blue"}, {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) g_once_init_leave(&type, g_enum_register_static("TestPropsColour", values));
  return type;
}

int live_settings = 0;  // Settings alive: the table must free each at finalize

struct Settings {
  Settings() { ++live_settings; }
  Settings(const Settings& other) = default;
  ~Settings() { --live_settings; }
  gboolean on = TRUE;
  guint odd = 3;
  gint offset = -2;
  gdouble gain = 0.5;
  Colour colour = kGreen;
  std::string path;
  guint frozen = 7;
};

struct TestProps {
  GstObject parent;
  Settings* settings;
};
struct TestPropsClass {
  GstObjectClass parent_class;
};

// What the then hook saw, and whether its work ran outside the object lock.
struct Seen {
  int hooks = 0, works = 0;
  bool changed = false, unlocked = false;
  std::string path;
} seen;

std::string refuse_even(const GValue* value) {
  return g_value_get_uint(value) % 2 ? std::string() : "is even; must be odd";
}

using P = vkc::Properties<Settings>;
const vkc::PropertyTable<Settings> kProperties{
    [](GObject* object) -> Settings*& { return reinterpret_cast<TestProps*>(object)->settings; },
    {
        P::boolean("on", "On", "A boolean", TRUE, VKC_FIELD(on)),
        P::uint("odd", "Odd", "An odd number", 1, 99, 3, VKC_FIELD(odd)).refusing(refuse_even),
        P::integer("offset", "Offset", "An int", -10, 10, -2, VKC_FIELD(offset)),
        P::real("gain", "Gain", "A double", 0.0, 2.0, 0.5, VKC_FIELD(gain)),
        P::enumeration("colour", "Colour", "An enum", colour_get_type, kGreen, VKC_FIELD(colour)),
        P::string("path", "Path", "A string", nullptr, VKC_FIELD(path))
            .then_do([](GObject* object, const Settings& s, bool changed) -> std::function<void()> {
              ++seen.hooks;
              seen.changed = changed;
              return [object, path = s.path] {
                ++seen.works;
                seen.path = path;
                seen.unlocked = GST_OBJECT_TRYLOCK(object);
                if (seen.unlocked) GST_OBJECT_UNLOCK(object);
              };
            }),
        P::uint("frozen", "Frozen", "Changed only when stopped", 0, 10, 7, VKC_FIELD(frozen))
            .only_when_stopped(),
    }};

}  // namespace

G_DEFINE_TYPE(TestProps, test_props, GST_TYPE_OBJECT)

static void test_props_init(TestProps* self) {
  kProperties.create(G_OBJECT(self));
}

static void test_props_class_init(TestPropsClass* klass) {
  kProperties.install(G_OBJECT_CLASS(klass));
}

static GParamSpec* spec(GObject* object, const char* name) {
  GParamSpec* pspec = g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
  fail_unless(pspec != nullptr, "no property %s", name);
  return pspec;
}

GST_START_TEST(test_param_specs) {
  GObject* object = G_OBJECT(g_object_new(test_props_get_type(), nullptr));
  guint n = 0;
  GParamSpec** specs = g_object_class_list_properties(G_OBJECT_GET_CLASS(object), &n);
  g_free(specs);
  fail_unless_equals_int(n, 2 + 7);  // GstObject's name and parent, then the table's
  const GParamFlags playing = GParamFlags(G_PARAM_READWRITE | GST_PARAM_MUTABLE_PLAYING);
  for (const char* name : {"on", "odd", "offset", "gain", "colour", "path"})
    fail_unless((spec(object, name)->flags & playing) == playing, "%s not mutable in PLAYING", name);
  GParamSpec* frozen = spec(object, "frozen");
  fail_unless(frozen->flags & GST_PARAM_MUTABLE_READY);
  fail_if(frozen->flags & GST_PARAM_MUTABLE_PLAYING);

  auto* odd = G_PARAM_SPEC_UINT(spec(object, "odd"));
  fail_unless(odd->minimum == 1 && odd->maximum == 99 && odd->default_value == 3);
  auto* offset = G_PARAM_SPEC_INT(spec(object, "offset"));
  fail_unless(offset->minimum == -10 && offset->maximum == 10 && offset->default_value == -2);
  auto* gain = G_PARAM_SPEC_DOUBLE(spec(object, "gain"));
  fail_unless(gain->minimum == 0.0 && gain->maximum == 2.0 && gain->default_value == 0.5);
  fail_unless(G_PARAM_SPEC_BOOLEAN(spec(object, "on"))->default_value == TRUE);
  auto* colour = G_PARAM_SPEC_ENUM(spec(object, "colour"));
  fail_unless(G_PARAM_SPEC_VALUE_TYPE(colour) == colour_get_type() && colour->default_value == kGreen);
  fail_unless(G_PARAM_SPEC_STRING(spec(object, "path"))->default_value == nullptr);
  fail_unless_equals_string(g_param_spec_get_blurb(spec(object, "odd")), "An odd number");
  fail_unless_equals_string(g_param_spec_get_nick(spec(object, "odd")), "Odd");
  g_object_unref(object);
}
GST_END_TEST;

GST_START_TEST(test_values_round_trip) {
  GObject* object = G_OBJECT(g_object_new(test_props_get_type(), nullptr));
  gboolean on;
  guint odd;
  gint offset;
  gdouble gain;
  gint colour;
  gchar* path;
  g_object_get(object, "on", &on, "odd", &odd, "offset", &offset, "gain", &gain, "colour", &colour, "path",
               &path, nullptr);
  fail_unless(on == TRUE && odd == 3 && offset == -2 && gain == 0.5 && colour == kGreen && path == nullptr);
  g_object_set(object, "on", FALSE, "odd", 5u, "offset", -7, "gain", 1.5, "colour", kBlue, "path", "a.cube",
               nullptr);
  g_object_get(object, "on", &on, "odd", &odd, "offset", &offset, "gain", &gain, "colour", &colour, "path",
               &path, nullptr);
  fail_unless(on == FALSE && odd == 5 && offset == -7 && gain == 1.5 && colour == kBlue);
  fail_unless_equals_string(path, "a.cube");
  g_free(path);
  // The settings hold what was set; a snapshot is a copy of them.
  const Settings s = kProperties.snapshot(object);
  fail_unless(s.odd == 5 && s.offset == -7 && s.colour == kBlue && s.path == "a.cube");
  // NULL is stored as "" and reads back as NULL.
  g_object_set(object, "path", nullptr, nullptr);
  fail_unless(kProperties.snapshot(object).path.empty());
  g_object_get(object, "path", &path, nullptr);
  fail_unless(path == nullptr);
  g_object_unref(object);
}
GST_END_TEST;

GST_START_TEST(test_refused_value_kept) {
  GObject* object = G_OBJECT(g_object_new(test_props_get_type(), nullptr));
  g_object_set(object, "odd", 9u, nullptr);
  ASSERT_WARNING(g_object_set(object, "odd", 4u, nullptr));
  guint odd;
  g_object_get(object, "odd", &odd, nullptr);
  fail_unless_equals_int(odd, 9);
  g_object_unref(object);
}
GST_END_TEST;

GST_START_TEST(test_then_runs_after_the_lock) {
  GObject* object = G_OBJECT(g_object_new(test_props_get_type(), nullptr));
  seen = Seen{};
  g_object_set(object, "path", "x.png", nullptr);
  fail_unless(seen.hooks == 1 && seen.works == 1 && seen.changed && seen.unlocked);
  fail_unless_equals_string(seen.path.c_str(), "x.png");
  g_object_set(object, "path", "x.png", nullptr);
  fail_unless(seen.hooks == 2 && !seen.changed);
  // Other properties have no hook.
  g_object_set(object, "gain", 1.0, nullptr);
  fail_unless_equals_int(seen.hooks, 2);
  g_object_unref(object);
}
GST_END_TEST;

GST_START_TEST(test_settings_freed) {
  const int before = live_settings;
  GObject* object = G_OBJECT(g_object_new(test_props_get_type(), nullptr));
  fail_unless_equals_int(live_settings, before + 1);
  g_object_unref(object);
  fail_unless_equals_int(live_settings, before);
}
GST_END_TEST;

static Suite* properties_suite() {
  Suite* suite = suite_create("properties");
  TCase* tc = tcase_create("general");
  tcase_add_test(tc, test_param_specs);
  tcase_add_test(tc, test_values_round_trip);
  tcase_add_test(tc, test_refused_value_kept);
  tcase_add_test(tc, test_then_runs_after_the_lock);
  tcase_add_test(tc, test_settings_freed);
  suite_add_tcase(suite, tc);
  return suite;
}

GST_CHECK_MAIN(properties);
