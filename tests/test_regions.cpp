// Several regions per frame (lumamax and histogram: `regions`, regions-from-meta, roi-type): each
// region's entry in the "regions" array equals the CPU reference over that region alone, for
// overlapping regions, regions clipped by the frame edge, regions that change while PLAYING,
// region-of-interest metas attached upstream (by a pad probe, as an application or a detector
// would) with and without a roi-type filter, a frame with no region (an empty array), a meta's
// region with no pixel in the frame (an entry with empty=true), and 256 regions tiling the frame.
// Frames come seeded and random from an appsrc, in system memory or through lut into device
// memory; each frame's meta (attach-meta) equals its message. A `regions` region with no pixel is
// a settings error naming it, as the roi-* one is.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>

#include <cmath>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "chain/chain_frames.h"
#include "common/bus_wait.h"
#include "common/test_seed.h"
#include "common/vktest.h"
#include "histogram/buffer_reference.h"
#include "lumamax/buffer_reference.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

constexpr GstClockTime kPullTimeout = 60 * GST_SECOND;
constexpr double kLumaTolerance = 1e-9, kMeanTolerance = 1e-4;

// A region of the `regions` property (width or height 0: up to the edge).
struct Listed {
  guint x, y, width, height;
  std::string id;
};

// A GstVideoRegionOfInterestMeta the probe attaches.
struct Meta {
  const char* type;  // nullptr: a meta added without a type
  gint id;
  guint x, y, width, height;
};

// What the probe does before frame n reaches the element: properties to set (while PLAYING from
// the second frame on) and metas to attach.
struct FrameSetup {
  std::optional<std::vector<Listed>> regions;  // set `regions` to this
  std::optional<bool> from_meta;               // set regions-from-meta
  std::optional<std::string> roi_type;         // set roi-type ("" = NULL)
  std::vector<Meta> metas;
};

// What the element's settings are for a frame, once the setups up to it have applied.
struct Settings {
  std::vector<Listed> regions;
  bool from_meta = false;
  std::string roi_type;
};

// An expected entry of "regions": the rectangle (clamped, or as asked when empty) and its names.
struct Expected {
  guint x, y, width, height;
  bool empty;
  std::string id;
  bool from_meta = false;
  gint roi_id = 0;
  std::string roi_type;
};

// The regions of a frame, as the element's documentation says it takes them.
std::vector<Expected> ExpectedRegions(const Settings& settings, const std::vector<Meta>& metas, guint width,
                                      guint height) {
  std::vector<Expected> out;
  auto clamp = [&](guint x, guint y, guint w, guint h, bool zero_is_edge, Expected& e) {
    const guint x0 = MIN(x, width), y0 = MIN(y, height);
    const guint x1 = w ? guint(MIN(guint64(x) + w, guint64(width))) : (zero_is_edge ? width : x0);
    const guint y1 = h ? guint(MIN(guint64(y) + h, guint64(height))) : (zero_is_edge ? height : y0);
    e.empty = !(x1 > x0 && y1 > y0);
    if (e.empty) {
      e.x = x, e.y = y, e.width = w, e.height = h;
    } else {
      e.x = x0, e.y = y0, e.width = x1 - x0, e.height = y1 - y0;
    }
  };
  for (const Listed& r : settings.regions) {
    Expected e{};
    clamp(r.x, r.y, r.width, r.height, true, e);
    e.id = r.id;
    out.push_back(e);
  }
  if (settings.from_meta)
    for (const Meta& m : metas) {
      const std::string type = m.type ? m.type : "";
      if (!settings.roi_type.empty() && settings.roi_type != type) continue;
      Expected e{};
      clamp(m.x, m.y, m.width, m.height, false, e);
      e.from_meta = true;
      e.roi_id = m.id;
      e.roi_type = type;
      out.push_back(e);
    }
  return out;
}

GValue RegionsValue(const std::vector<Listed>& regions) {
  GValue array = G_VALUE_INIT;
  gst_value_array_init(&array, guint(regions.size()));
  for (const Listed& r : regions) {
    GstStructure* s =
        gst_structure_new("region", "x", G_TYPE_INT, gint(r.x), "y", G_TYPE_INT, gint(r.y), "width",
                          G_TYPE_INT, gint(r.width), "height", G_TYPE_INT, gint(r.height), nullptr);
    if (!r.id.empty()) gst_structure_set(s, "id", G_TYPE_STRING, r.id.c_str(), nullptr);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&v, s);
    gst_value_array_append_and_take_value(&array, &v);
  }
  return array;
}

struct Probe {
  GstElement* element;
  const std::vector<FrameSetup>* setups;
  guint frame = 0;
};

GstPadProbeReturn ApplySetup(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* probe = static_cast<Probe*>(data);
  const FrameSetup& setup = (*probe->setups)[probe->frame++];
  if (setup.regions) {
    GValue value = RegionsValue(*setup.regions);
    g_object_set_property(G_OBJECT(probe->element), "regions", &value);
    g_value_unset(&value);
  }
  if (setup.from_meta) g_object_set(probe->element, "regions-from-meta", gboolean(*setup.from_meta), nullptr);
  if (setup.roi_type)
    g_object_set(probe->element, "roi-type", setup.roi_type->empty() ? nullptr : setup.roi_type->c_str(),
                 nullptr);
  if (setup.metas.empty()) return GST_PAD_PROBE_OK;
  GstBuffer* buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
  for (const Meta& m : setup.metas) {
    GstVideoRegionOfInterestMeta* meta =
        gst_buffer_add_video_region_of_interest_meta(buffer, m.type, m.x, m.y, m.width, m.height);
    meta->id = m.id;
  }
  GST_PAD_PROBE_INFO_DATA(info) = buffer;
  return GST_PAD_PROBE_OK;
}

// One run: seeded random frames of `format` from an appsrc, through `upstream` (or straight) into
// `element` (named e, attach-meta=true), each frame set up by setups[n] first.
struct Run {
  std::vector<GstSample*> samples;
  std::vector<GstStructure*> messages;
  std::string error;  // the first error posted, if any
  ~Run() {
    for (GstSample* s : samples) gst_sample_unref(s);
    for (GstStructure* m : messages) gst_structure_free(m);
  }
};

void RunFrames(const std::string& name, GstVideoFormat format, guint width, guint height,
               const std::string& upstream, const std::string& element, const std::vector<FrameSetup>& setups,
               Run& run) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, width, height);
  GstCaps* caps = gst_video_info_to_caps(&info);
  gchar* caps_text = gst_caps_to_string(caps);
  gst_caps_unref(caps);
  const std::string description = std::string("appsrc name=src format=time caps=\"") + caps_text + "\" ! " +
                                  upstream + element +
                                  " name=e attach-meta=true ! appsink name=out sync=false";
  g_free(caps_text);
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "out");
  GstElement* e = gst_bin_get_by_name(GST_BIN(pipeline), "e");
  Probe probe{e, &setups};
  GstPad* pad = gst_element_get_static_pad(e, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, ApplySetup, &probe, nullptr);
  gst_object_unref(pad);
  fail_unless(gst_element_set_state(pipeline, GST_STATE_PLAYING) != GST_STATE_CHANGE_FAILURE, "%s",
              description.c_str());
  std::mt19937 rng = vktest::RngFor(name);
  for (guint n = 0; n < setups.size(); ++n) {
    GstBuffer* buffer = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
    GstMapInfo map;
    gst_buffer_map(buffer, &map, GST_MAP_WRITE);
    for (gsize i = 0; i < map.size; ++i) map.data[i] = uint8_t(rng());
    gst_buffer_unmap(buffer, &map);
    GST_BUFFER_PTS(buffer) = n * 40 * GST_MSECOND;
    GST_BUFFER_DURATION(buffer) = 40 * GST_MSECOND;
    gst_app_src_push_buffer(GST_APP_SRC(src), buffer);
  }
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  while (GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kPullTimeout))
    run.samples.push_back(sample);
  GstBus* bus = gst_element_get_bus(pipeline);
  while (GstMessage* message = gst_bus_pop(bus)) {
    const GstStructure* s = gst_message_get_structure(message);
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR && run.error.empty())
      run.error = vktest::Describe(message);
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ELEMENT && GST_MESSAGE_SRC(message) == GST_OBJECT(e))
      run.messages.push_back(gst_structure_copy(s));
    gst_message_unref(message);
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(e);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  vktest::AssertNoValidationErrors(description);
}

guint UintField(const GstStructure* s, const char* field, const std::string& where) {
  guint v = 0;
  fail_unless(gst_structure_get_uint(s, field, &v), "%s: no uint %s", where.c_str(), field);
  return v;
}

void ExpectLumamaxFields(const GstStructure* got, const lumamax_ref::Result& ref, const std::string& where) {
  gint x, y, min_x, min_y;
  gdouble luma, min_luma, mean;
  fail_unless(gst_structure_get(got, "x", G_TYPE_INT, &x, "y", G_TYPE_INT, &y, "luma", G_TYPE_DOUBLE, &luma,
                                "min-x", G_TYPE_INT, &min_x, "min-y", G_TYPE_INT, &min_y, "min-luma",
                                G_TYPE_DOUBLE, &min_luma, "mean-luma", G_TYPE_DOUBLE, &mean, nullptr),
              "%s: fields missing", where.c_str());
  fail_unless(x == ref.max.x && y == ref.max.y && std::fabs(luma - ref.max.luma) < kLumaTolerance,
              "%s: brightest %d,%d %.9f, expected %d,%d %.9f", where.c_str(), x, y, luma, ref.max.x,
              ref.max.y, ref.max.luma);
  fail_unless(min_x == ref.min.x && min_y == ref.min.y && std::fabs(min_luma - ref.min.luma) < kLumaTolerance,
              "%s: darkest %d,%d %.9f, expected %d,%d %.9f", where.c_str(), min_x, min_y, min_luma, ref.min.x,
              ref.min.y, ref.min.luma);
  fail_unless(std::fabs(mean - ref.mean_luma) < kMeanTolerance, "%s: mean %.6f, expected %.6f", where.c_str(),
              mean, ref.mean_luma);
  const GValue* peaks = gst_structure_get_value(got, "peaks");
  fail_unless(peaks && gst_value_array_get_size(peaks) == ref.peaks.size(), "%s: %u peaks, expected %zu",
              where.c_str(), peaks ? gst_value_array_get_size(peaks) : 0, ref.peaks.size());
  for (guint n = 0; n < ref.peaks.size(); ++n) {
    const GstStructure* peak = gst_value_get_structure(gst_value_array_get_value(peaks, n));
    gint px = -1, py = -1;
    gst_structure_get_int(peak, "x", &px);
    gst_structure_get_int(peak, "y", &py);
    fail_unless(px == ref.peaks[n].x && py == ref.peaks[n].y, "%s: peak %u at %d,%d, expected %d,%d",
                where.c_str(), n, px, py, ref.peaks[n].x, ref.peaks[n].y);
  }
}

void ExpectHistogramFields(const GstStructure* got, const histogram_ref::Result& ref,
                           const std::string& where) {
  fail_unless_equals_int(UintField(got, "bins", where), ref.bins);
  guint64 pixels = 0;
  fail_unless(gst_structure_get_uint64(got, "pixels", &pixels) && pixels == ref.pixels,
              "%s: pixels %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, where.c_str(), pixels,
              ref.pixels);
  for (const histogram_ref::ChannelHistogram& channel : ref.channels) {
    const char* field = histogram_ref::FieldName(channel.channel);
    const GValue* counts = gst_structure_get_value(got, field);
    fail_unless(counts && gst_value_array_get_size(counts) == channel.counts.size(), "%s: no %s of %zu bins",
                where.c_str(), field, channel.counts.size());
    for (guint b = 0; b < channel.counts.size(); ++b)
      fail_unless(g_value_get_uint64(gst_value_array_get_value(counts, b)) == channel.counts[b],
                  "%s: %s bin %u holds %" G_GUINT64_FORMAT ", expected %" G_GUINT64_FORMAT, where.c_str(),
                  field, b, g_value_get_uint64(gst_value_array_get_value(counts, b)), channel.counts[b]);
  }
}

// The element's results for each frame, against the reference over each region of the frame that
// reached the appsink (the frame analysed: analysis elements pass their frames through).
struct Element {
  const char* name;  // and of its message
  const char* meta;
  // Compares the result fields of `got` with the reference over [x, x+w) x [y, y+h) of `buffer`.
  void (*expect)(const GstStructure* got, GstBuffer* buffer, const GstVideoInfo& info,
                 const reference::Roi& roi, const std::string& where);
};

const Element kLumamax{"lumamax", "VkComputeLumamaxMeta",
                       [](const GstStructure* got, GstBuffer* buffer, const GstVideoInfo& info,
                          const reference::Roi& roi, const std::string& where) {
                         lumamax_ref::Params params;
                         params.roi = roi;
                         params.count = 3;
                         params.min_distance = 5;
                         auto ref = lumamax_test::AnalyzeBuffer(buffer, info, params);
                         fail_unless(ref.has_value(), "%s: test data: empty region", where.c_str());
                         ExpectLumamaxFields(got, *ref, where);
                       }};
const Element kHistogram{"histogram", "VkComputeHistogramMeta",
                         [](const GstStructure* got, GstBuffer* buffer, const GstVideoInfo& info,
                            const reference::Roi& roi, const std::string& where) {
                           histogram_ref::Params params;
                           params.roi = roi;
                           params.bins = 64;
                           auto ref = histogram_test::AnalyzeBuffer(buffer, info, params);
                           fail_unless(ref.has_value(), "%s: test data: empty region", where.c_str());
                           ExpectHistogramFields(got, *ref, where);
                         }};
std::string Properties(const Element& element) {
  return element.name == std::string("lumamax") ? "lumamax count=3 min-distance=5" : "histogram bins=64";
}

// Runs the frames and checks every message and meta against the reference.
void ExpectRegions(const std::string& name, const Element& element, GstVideoFormat format, guint width,
                   guint height, const std::string& upstream, const std::vector<FrameSetup>& setups) {
  Run run;
  RunFrames(name, format, width, height, upstream, Properties(element), setups, run);
  const std::string seeded = vktest::WithSeed(name);
  fail_unless(run.error.empty(), "%s: %s", seeded.c_str(), run.error.c_str());
  fail_unless_equals_int(run.samples.size(), setups.size());
  fail_unless_equals_int(run.messages.size(), setups.size());
  Settings settings;
  for (guint n = 0; n < setups.size(); ++n) {
    const FrameSetup& setup = setups[n];
    if (setup.regions) settings.regions = *setup.regions;
    if (setup.from_meta) settings.from_meta = *setup.from_meta;
    if (setup.roi_type) settings.roi_type = *setup.roi_type;
    const std::string where = seeded + ", frame " + std::to_string(n);
    GstBuffer* buffer = gst_sample_get_buffer(run.samples[n]);
    GstVideoInfo info;
    gst_video_info_from_caps(&info, gst_sample_get_caps(run.samples[n]));
    const GstStructure* message = run.messages[n];
    // The meta equals the message.
    GstCustomMeta* meta = gst_buffer_get_custom_meta(buffer, element.meta);
    fail_unless(meta != nullptr, "%s: no %s", where.c_str(), element.meta);
    GstStructure* as_message = gst_structure_copy(gst_custom_meta_get_structure(meta));
    gst_structure_set_name(as_message, element.name);
    fail_unless(gst_structure_is_equal(as_message, message), "%s: the meta differs from the message",
                where.c_str());
    gst_structure_free(as_message);

    const bool listed = settings.from_meta || !settings.regions.empty();
    const GValue* entries = gst_structure_get_value(message, "regions");
    if (!listed) {
      fail_unless(entries == nullptr, "%s: a regions array without regions", where.c_str());
      element.expect(message, buffer, info, reference::Roi{}, where + ", whole frame");
      continue;
    }
    const std::vector<Expected> expected = ExpectedRegions(settings, setup.metas, width, height);
    fail_unless(entries && gst_value_array_get_size(entries) == expected.size(),
                "%s: %u regions, expected %zu", where.c_str(),
                entries ? gst_value_array_get_size(entries) : 0, expected.size());
    guint peaks = 0;
    for (guint i = 0; i < expected.size(); ++i) {
      const Expected& e = expected[i];
      const std::string at = where + ", region " + std::to_string(i);
      const GstStructure* entry = gst_value_get_structure(gst_value_array_get_value(entries, i));
      fail_unless(gst_structure_has_name(entry, "region"), "%s: entry named %s", at.c_str(),
                  gst_structure_get_name(entry));
      fail_unless(
          UintField(entry, "roi-x", at) == e.x && UintField(entry, "roi-y", at) == e.y &&
              UintField(entry, "roi-width", at) == e.width && UintField(entry, "roi-height", at) == e.height,
          "%s: rectangle %u,%u %ux%u, expected %u,%u %ux%u", at.c_str(), UintField(entry, "roi-x", at),
          UintField(entry, "roi-y", at), UintField(entry, "roi-width", at),
          UintField(entry, "roi-height", at), e.x, e.y, e.width, e.height);
      gboolean empty = !e.empty;
      fail_unless(gst_structure_get_boolean(entry, "empty", &empty) && bool(empty) == e.empty, "%s: empty=%d",
                  at.c_str(), empty);
      const char* id = gst_structure_get_string(entry, "id");
      fail_unless((id ? id : "") == e.id, "%s: id %s, expected %s", at.c_str(), id ? id : "(none)",
                  e.id.c_str());
      if (e.from_meta) {
        gint roi_id = -1;
        const char* type = gst_structure_get_string(entry, "roi-type");
        fail_unless(gst_structure_get_int(entry, "roi-id", &roi_id) && roi_id == e.roi_id && type &&
                        e.roi_type == type,
                    "%s: roi-id %d roi-type %s, expected %d %s", at.c_str(), roi_id, type ? type : "(none)",
                    e.roi_id, e.roi_type.c_str());
      }
      if (e.empty) {
        fail_unless(
            !gst_structure_has_field(entry, element.name == std::string("lumamax") ? "luma" : "pixels"),
            "%s: an empty region with results", at.c_str());
        continue;
      }
      element.expect(entry, buffer, info, reference::Roi{e.x, e.y, e.width, e.height}, at);
      if (const GValue* p = gst_structure_get_value(entry, "peaks")) peaks += gst_value_array_get_size(p);
    }
    // lumamax: every region's peaks as lumamax-peak metas, children of the region's own meta, with
    // ids no other region-of-interest meta of the frame has.
    guint peak_metas = 0;
    std::set<gint> ids;
    gpointer state = nullptr;
    while (GstMeta* m =
               gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)) {
      auto* roi = reinterpret_cast<GstVideoRegionOfInterestMeta*>(m);
      fail_unless(ids.insert(roi->id).second, "%s: two region-of-interest metas with id %d", where.c_str(),
                  roi->id);
      if (roi->roi_type == g_quark_from_string("lumamax-peak")) ++peak_metas;
    }
    fail_unless_equals_int(peak_metas, peaks);
  }
}

// Overlapping regions, one past the right edge (clipped), one to the edges (width/height 0), ids;
// changed while PLAYING; then the list emptied (back to the whole frame).
std::vector<FrameSetup> ChangingRegions() {
  std::vector<FrameSetup> setups(7);
  setups[0].regions = std::vector<Listed>{{0, 0, 40, 30, "a"}, {20, 10, 60, 50, "b"}, {180, 90, 64, 64, ""}};
  setups[2].regions = std::vector<Listed>{{5, 7, 0, 0, "edges"}, {1, 1, 1, 1, "pixel"}};
  setups[4].regions = std::vector<Listed>{};
  setups[6].regions = std::vector<Listed>{{100, 3, 97, 111, "late"}};
  return setups;
}

// Metas of two types, one wholly outside the frame, one of zero width; regions-from-meta on its
// own, then with a roi-type, then with listed regions before the metas; a frame without metas.
std::vector<FrameSetup> RegionsFromMetas(guint width, guint height) {
  const std::vector<Meta> metas = {{"face", 7, 3, 4, 50, 40},
                                   {"car", 9, width / 2, height / 2, width, height},  // clipped
                                   {"face", 11, width + 5, 0, 10, 10},                // outside: empty
                                   {"car", 12, 10, 10, 0, 5},                         // zero width: empty
                                   {"face", 13, 10, 20, 30, 30},                      // overlaps the first
                                   {nullptr, 0, 40, 30, 20, 20}};                     // no type, id 0
  std::vector<FrameSetup> setups(6);
  setups[0].from_meta = true;
  setups[0].metas = metas;
  setups[1].metas = metas;
  setups[2].roi_type = "face";
  setups[2].metas = metas;
  setups[3].metas = {};  // none: an empty array
  setups[4].regions = std::vector<Listed>{{0, 0, 16, 16, "corner"}};
  setups[4].roi_type = "";
  setups[4].metas = metas;
  setups[5].metas = metas;
  return setups;
}

// 256 regions tiling the frame in a 16 x 16 grid.
std::vector<FrameSetup> Tiling(guint width, guint height) {
  std::vector<Listed> grid;
  for (guint j = 0; j < 16; ++j)
    for (guint i = 0; i < 16; ++i) {
      const guint x0 = i * width / 16, x1 = (i + 1) * width / 16, y0 = j * height / 16,
                  y1 = (j + 1) * height / 16;
      grid.push_back({x0, y0, x1 - x0, y1 - y0, std::to_string(j * 16 + i)});
    }
  std::vector<FrameSetup> setups(2);
  setups[0].regions = grid;
  return setups;
}

GST_START_TEST(test_lumamax_changing_regions) {
  ExpectRegions("lumamax changing regions", kLumamax, GST_VIDEO_FORMAT_RGBA, 203, 117, "", ChangingRegions());
}
GST_END_TEST;

GST_START_TEST(test_histogram_changing_regions) {
  ExpectRegions("histogram changing regions", kHistogram, GST_VIDEO_FORMAT_I420, 203, 117, "",
                ChangingRegions());
}
GST_END_TEST;

GST_START_TEST(test_lumamax_regions_from_metas) {
  ExpectRegions("lumamax regions from metas", kLumamax, GST_VIDEO_FORMAT_NV12, 161, 97, "",
                RegionsFromMetas(161, 97));
}
GST_END_TEST;

GST_START_TEST(test_histogram_regions_from_metas) {
  ExpectRegions("histogram regions from metas", kHistogram, GST_VIDEO_FORMAT_RGB, 161, 97, "",
                RegionsFromMetas(161, 97));
}
GST_END_TEST;

// lut's frames come in device memory; the metas are attached to them at the element's sink pad.
GST_START_TEST(test_regions_in_device_memory) {
  ExpectRegions("lumamax regions in device memory", kLumamax, GST_VIDEO_FORMAT_RGBA, 150, 90,
                chaintest::Lut() + " ! ", RegionsFromMetas(150, 90));
  ExpectRegions("histogram regions in device memory", kHistogram, GST_VIDEO_FORMAT_RGBA, 203, 117,
                chaintest::Lut() + " ! ", ChangingRegions());
}
GST_END_TEST;

GST_START_TEST(test_256_regions) {
  ExpectRegions("lumamax 256 regions", kLumamax, GST_VIDEO_FORMAT_RGBx, 331, 190, "", Tiling(331, 190));
  ExpectRegions("histogram 256 regions", kHistogram, GST_VIDEO_FORMAT_NV12, 331, 190, "", Tiling(331, 190));
}
GST_END_TEST;

// A listed region with no pixel in the frame is a settings error that names it.
GST_START_TEST(test_listed_region_outside_is_an_error) {
  std::vector<FrameSetup> setups(2);
  setups[0].regions = std::vector<Listed>{{0, 0, 8, 8, "in"}, {500, 0, 8, 8, "out"}};
  Run run;
  RunFrames("region outside", GST_VIDEO_FORMAT_RGBA, 64, 48, "", "lumamax", setups, run);
  fail_unless(run.error.find("Invalid region 1 of \"regions\"") != std::string::npos &&
                  run.error.find("x=500") != std::string::npos,
              "the error does not name the region: %s", run.error.c_str());
}
GST_END_TEST;

// 256 regions of 65 536 bins need 256 x (5 x 65 536 + 1) counters, 335 MB: beyond a device whose
// largest storage buffer is smaller (lavapipe's 128 MiB, the least Vulkan allows) the stream stops
// with a settings error naming them; within it, the frames are counted.
GST_START_TEST(test_counts_beyond_one_buffer) {
  std::vector<FrameSetup> setups = Tiling(64, 64);
  const VkDeviceSize needed = 256ull * (5 * 65536 + 1) * 4;
  Run run;
  RunFrames("counts beyond one buffer", GST_VIDEO_FORMAT_RGBA, 64, 64, "", "histogram bins=65536 device=0",
            setups, run);
  const std::vector<VkPhysicalDeviceProperties> devices = vktest::PhysicalDeviceProperties();
  fail_unless(!devices.empty(), "no Vulkan device");
  if (needed > devices[0].limits.maxStorageBufferRange) {
    fail_unless(run.error.find("256 regions of 65536 bins' counts need") != std::string::npos &&
                    run.error.find("largest storage buffer") != std::string::npos,
                "the error does not say what needs the memory: %s", run.error.c_str());
  } else {
    fail_unless(run.error.empty() && run.messages.size() == setups.size(), "%s: %zu messages",
                run.error.c_str(), run.messages.size());
  }
}
GST_END_TEST;

// More than 256 regions, a structure of another name, a misspelt field: refused, the value kept.
// GLib's own check of a property's value (an array whose elements are strings where the param spec
// wants structures) refuses it with g_warning before GLib 2.76 (Debian 12's 2.74) and with
// g_critical from 2.76 on (Debian 13's 2.84); the element's own refusals stay warnings.
#if GLIB_CHECK_VERSION(2, 76, 0)
#define ASSERT_REFUSED_BY_GLIB ASSERT_CRITICAL
#else
#define ASSERT_REFUSED_BY_GLIB ASSERT_WARNING
#endif

GST_START_TEST(test_refused_regions) {
  GstElement* element = gst_element_factory_make("histogram", nullptr);
  std::vector<Listed> many(257, Listed{0, 0, 1, 1, ""});
  GValue value = RegionsValue({{1, 2, 3, 4, "kept"}});
  g_object_set_property(G_OBJECT(element), "regions", &value);
  g_value_unset(&value);
  value = RegionsValue(many);
  ASSERT_WARNING(g_object_set_property(G_OBJECT(element), "regions", &value));
  g_value_unset(&value);
  for (const char* text : {"<\"box,x=1\">", "<\"region,x=1,wdth=3\">", "<\"region,x=-1\">"}) {
    GValue bad = G_VALUE_INIT;
    g_value_init(&bad, GST_TYPE_ARRAY);
    fail_unless(gst_value_deserialize(&bad, text), "%s", text);
    ASSERT_REFUSED_BY_GLIB(g_object_set_property(G_OBJECT(element), "regions", &bad));
    g_value_unset(&bad);
  }
  GValue got = G_VALUE_INIT;
  g_value_init(&got, GST_TYPE_ARRAY);
  g_object_get_property(G_OBJECT(element), "regions", &got);
  fail_unless_equals_int(gst_value_array_get_size(&got), 1);
  const GstStructure* kept = gst_value_get_structure(gst_value_array_get_value(&got, 0));
  fail_unless_equals_string(gst_structure_get_string(kept, "id"), "kept");
  g_value_unset(&got);
  gst_object_unref(element);
}
GST_END_TEST;

Suite* regions_suite() {
  Suite* s = suite_create("regions");
  TCase* tc = vktest::NewTCase("regions", 300);
  suite_add_tcase(s, tc);
  tcase_add_test(tc, test_lumamax_changing_regions);
  tcase_add_test(tc, test_histogram_changing_regions);
  tcase_add_test(tc, test_lumamax_regions_from_metas);
  tcase_add_test(tc, test_histogram_regions_from_metas);
  tcase_add_test(tc, test_regions_in_device_memory);
  tcase_add_test(tc, test_256_regions);
  tcase_add_test(tc, test_listed_region_outside_is_an_error);
  tcase_add_test(tc, test_counts_beyond_one_buffer);
  tcase_add_test(tc, test_refused_regions);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  vktest::Init(&argc, &argv);
  return gst_check_run_suite(regions_suite(), "regions", __FILE__);
}
