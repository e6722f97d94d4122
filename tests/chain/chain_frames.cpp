#include "chain/chain_frames.h"

#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include <algorithm>

#include "common/bus_wait.h"
#include "common/test_data.h"
#include "common/test_seed.h"
#include "common/visible_bytes.h"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace chaintest {

std::string Lut() {
  return "lut location=" + vktest::TestDataDir() + "/lookup_amatorka.png";
}

GstBuffer* RandomFrame(std::mt19937& rng, const GstVideoInfo& info, guint n) {
  GstBuffer* buffer = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  GstMapInfo map;
  gst_buffer_map(buffer, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; ++i) map.data[i] = guint8(rng() >> 24);
  gst_buffer_unmap(buffer, &map);
  GST_BUFFER_PTS(buffer) = n * GST_SECOND / 30;
  GST_BUFFER_DURATION(buffer) = GST_SECOND / 30;
  return buffer;
}

void PushRandomFrames(GstElement* src, const GstVideoInfo& info, const std::string& seed_name, guint count) {
  std::mt19937 rng = vktest::RngFor(seed_name);
  for (guint f = 0; f < count; ++f)
    fail_unless(gst_app_src_push_buffer(GST_APP_SRC(src), RandomFrame(rng, info, f)) == GST_FLOW_OK);
  gst_app_src_end_of_stream(GST_APP_SRC(src));
}

std::string VisibleBytes(GstSample* sample) {
  GstVideoInfo info;
  fail_unless(gst_video_info_from_caps(&info, gst_sample_get_caps(sample)));
  return vktest::VisibleBytes(info, gst_sample_get_buffer(sample));
}

std::vector<std::string> PullAllAndStop(GstElement* pipeline, GstElement* src, GstElement* sink, guint count,
                                        const std::string& description) {
  std::vector<std::string> frames;
  while (frames.size() < count) {
    GstSample* sample = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), kTimeout);
    fail_unless(sample != nullptr, "%s: %zu frames came out", description.c_str(), frames.size());
    frames.push_back(VisibleBytes(sample));
    gst_sample_unref(sample);
  }
  vktest::ExpectEos(pipeline, kTimeout, description);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(src);
  gst_object_unref(pipeline);
  return frames;
}

void GroupBySource(std::vector<std::string>& messages) {
  std::stable_sort(messages.begin(), messages.end(), [](const std::string& a, const std::string& b) {
    return a.substr(0, a.find(':')) < b.substr(0, b.find(':'));
  });
}

static GstPadProbeReturn CountMemory(GstPad*, GstPadProbeInfo* info, gpointer data) {
  auto* count = static_cast<MemoryCount*>(data);
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  count->buffers++;
  if (gst_buffer_n_memory(buffer) == 1 &&
      gst_memory_is_type(gst_buffer_peek_memory(buffer, 0), kDeviceMemory))
    count->in_device++;
  return GST_PAD_PROBE_OK;
}

void CountMemoryAt(GstElement* element, const char* pad_name, MemoryCount* count) {
  GstPad* pad = gst_element_get_static_pad(element, pad_name);
  fail_unless(pad != nullptr, "%s has no pad %s", GST_OBJECT_NAME(element), pad_name);
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, CountMemory, count, nullptr);
  gst_object_unref(pad);
}

}  // namespace chaintest
