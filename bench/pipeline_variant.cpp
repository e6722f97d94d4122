#include "pipeline_variant.hpp"

#include <gst/app/gstappsrc.h>
#include <pthread.h>
#include <sys/prctl.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "base/computefilter.hpp"
#include "random_frames.hpp"
#include "vk/submit.hpp"

namespace bench {

namespace {

// The ring of frames upstream feeds, taken from the pool the first element proposes (as a real
// upstream element does: ours then receives its own Vulkan memory), else from system memory.
std::vector<GstBuffer*> make_ring(GstPad* src, GstCaps* caps, const GstVideoInfo& info, bool smooth,
                                  GstBufferPool** pool_out) {
  GstQuery* query = gst_query_new_allocation(caps, TRUE);
  GstBufferPool* pool = nullptr;
  if (gst_pad_peer_query(src, query) && gst_query_get_n_allocation_pools(query) > 0)
    gst_query_parse_nth_allocation_pool(query, 0, &pool, nullptr, nullptr, nullptr);
  gst_query_unref(query);
  if (pool) {
    GstStructure* config = gst_buffer_pool_get_config(pool);
    gst_buffer_pool_config_set_params(config, caps, guint(info.size), kRingFrames, 0);
    if (gst_buffer_pool_has_option(pool, GST_BUFFER_POOL_OPTION_VIDEO_META))
      gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
    if (!gst_buffer_pool_set_config(pool, config) || !gst_buffer_pool_set_active(pool, TRUE))
      gst_clear_object(&pool);
  }
  std::vector<GstBuffer*> ring;
  for (int i = 0; i < kRingFrames; ++i) {
    GstBuffer* buf = nullptr;
    if (!pool || gst_buffer_pool_acquire_buffer(pool, &buf, nullptr) != GST_FLOW_OK)
      buf = gst_buffer_new_allocate(nullptr, info.size, nullptr);
    GstMapInfo map;
    gst_buffer_map(buf, &map, GST_MAP_WRITE);
    if (smooth)
      fill_smooth_frame(map.data, GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info),
                        GST_VIDEO_INFO_COMP_PSTRIDE(&info, 0), GST_VIDEO_INFO_PLANE_STRIDE(&info, 0), i);
    else
      fill_random_frame(map.data, map.size, i);
    gst_buffer_unmap(buf, &map);
    ring.push_back(buf);
  }
  *pool_out = pool;
  return ring;
}

// The element's gpu-time property is the mean of its last 8 timed frames (one in 64): read once,
// it varies by several percent between runs. Sampled every kGpuTimeSampling seconds over the
// measured window and averaged instead.
constexpr double kGpuTimeSampling = 0.05;

class GpuTimeSamples {
 public:
  void sample(GstElement* dut) {
    const double us = read(dut);
    if (us > 0) sum_ += us, ++count_;
  }
  // The mean of the samples, or the last value when none was taken (fewer than 449 frames).
  double mean(GstElement* dut) const { return count_ ? sum_ / count_ : read(dut); }

 private:
  static double read(GstElement* dut) {
    double us = 0;
    if (dut) g_object_get(dut, "gpu-time", &us, nullptr);
    return us;
  }
  double sum_ = 0;
  int count_ = 0;
};

// Our elements in the pipeline (those with gpu-time and the transfer counters), referenced.
std::vector<GstElement*> our_elements(GstElement* pipeline) {
  std::vector<GstElement*> ours;
  GstIterator* it = gst_bin_iterate_recurse(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    auto* element = GST_ELEMENT(g_value_get_object(&item));
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "gpu-time"))
      ours.push_back(GST_ELEMENT(gst_object_ref(element)));
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  return ours;
}

// The sum of a guint64 counter property over `elements` (those that have it).
guint64 sum_counter(const std::vector<GstElement*>& elements, const char* name) {
  guint64 sum = 0;
  for (GstElement* e : elements) {
    if (!g_object_class_find_property(G_OBJECT_GET_CLASS(e), name)) continue;
    guint64 value = 0;
    g_object_get(e, name, &value, nullptr);
    sum += value;
  }
  return sum;
}

// Per frame of a live variant: when it was pushed, and how long it took to reach the sink.
struct Journeys {
  std::mutex lock;
  std::map<GstClockTime, gint64> pushed;  // by PTS, monotonic µs
  bool measuring = false;
  double sum_us = 0, max_us = 0;
  guint64 count = 0;
};

// Waits `seconds` on the bus, popping every message (as an application does); returns the first
// error's text, if one comes. Keeps the first element message in `message`, if given and empty.
std::string wait_on_bus(GstBus* bus, double seconds, std::string* message) {
  const gint64 end = g_get_monotonic_time() + gint64(seconds * G_USEC_PER_SEC);
  for (gint64 now = g_get_monotonic_time(); now < end; now = g_get_monotonic_time()) {
    GstMessage* msg = gst_bus_timed_pop_filtered(bus, GstClockTime(end - now) * GST_USECOND,
                                                 GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT));
    if (!msg) return "";
    if (GST_MESSAGE_TYPE(msg) == GST_MESSAGE_ELEMENT) {
      if (message && message->empty()) {
        gchar* text = gst_structure_to_string(gst_message_get_structure(msg));
        *message = text;
        g_free(text);
      }
      gst_message_unref(msg);
      continue;
    }
    GError* error = nullptr;
    gst_message_parse_error(msg, &error, nullptr);
    std::string text = std::string("error: ") + GST_OBJECT_NAME(GST_MESSAGE_SRC(msg)) + ": " + error->message;
    g_error_free(error);
    gst_message_unref(msg);
    return text;
  }
  return "";
}

// Calls `probe` for every buffer the identity named "poster" passes; `destroy` frees `data` with
// the pipeline.
void probe_poster(GstElement* pipeline, GstPadProbeCallback probe, gpointer data, GDestroyNotify destroy) {
  GstElement* poster = gst_bin_get_by_name(GST_BIN(pipeline), "poster");
  GstPad* pad = gst_element_get_static_pad(poster, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, probe, data, destroy);
  gst_object_unref(pad);
  gst_object_unref(poster);
}

// Makes the poster post a copy of `message` for every buffer it passes (takes it).
void post_for_every_buffer(GstElement* pipeline, GstStructure* message) {
  probe_poster(
      pipeline,
      [](GstPad* pad, GstPadProbeInfo*, gpointer message) {
        GstObject* element = GST_OBJECT_PARENT(pad);
        gst_element_post_message(
            GST_ELEMENT(element),
            gst_message_new_element(element, gst_structure_copy(static_cast<GstStructure*>(message))));
        return GST_PAD_PROBE_OK;
      },
      message, reinterpret_cast<GDestroyNotify>(gst_structure_free));
}

// Makes the poster submit a command buffer to `device` for every buffer it passes, through a ring
// as deep as our elements'. Each copies `copy_bytes` from host to device memory (none: an empty
// one). When the ring is full it waits for the second-oldest submission, as our elements do,
// which frees two slots.
void submit_for_every_buffer(GstElement* pipeline, const std::shared_ptr<vkc::Device>& device,
                             vk::DeviceSize copy_bytes) {
  struct Submissions {
    vkc::CommandRing ring;
    std::unique_ptr<vkc::Buffer> host, local;  // copy_bytes each; null for empty submissions
    guint64 count = 0;
  };
  auto* submissions =
      new Submissions{vkc::CommandRing(device, kVkComputeFramesInFlight, "bench submissions")};
  if (copy_bytes > 0) {
    submissions->host = vkc::Buffer::create_host(device, copy_bytes, "bench frame");
    submissions->local = vkc::Buffer::create_device(device, copy_bytes, "bench frame copy");
  }
  probe_poster(
      pipeline,
      [](GstPad*, GstPadProbeInfo*, gpointer data) {
        auto* s = static_cast<Submissions*>(data);
        const uint32_t depth = s->ring.depth(), slot = uint32_t(s->count % depth);
        if (s->count >= depth && (s->count - depth) % 2 == 0)
          s->ring.wait((slot + 1) % depth, 10'000'000'000ull);  // the second-oldest: frees two
        s->ring.wait(slot, 10'000'000'000ull);                  // done by then
        ++s->count;
        vkc::Commands cmd = s->ring.begin(slot);
        if (s->host)
          cmd.copyBuffer(s->host->handle(), s->local->handle(), vk::BufferCopy{.size = s->host->size()});
        s->ring.submit(slot);
        return GST_PAD_PROBE_OK;
      },
      submissions, [](gpointer data) { delete static_cast<Submissions*>(data); });
}

// A sink that reads what it gets (--sink-reads): maps the frame and touches its last byte.
GstPadProbeReturn read_frame(GstPad*, GstPadProbeInfo* info, gpointer) {
  GstBuffer* buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstMapInfo map;
  if (gst_buffer_map(buffer, &map, GST_MAP_READ)) {
    if (map.size > 0) static_cast<void>(*static_cast<volatile const guint8*>(map.data + map.size - 1));
    gst_buffer_unmap(buffer, &map);
  }
  return GST_PAD_PROBE_OK;
}

}  // namespace

Measurement run_pipeline_variant(const Case& c, const Variant& v, const Options& options) {
  Measurement m;
  if (v.paced && options.pace_fps <= 0) {
    m.status = "unavailable: our element ran no frames in this case";
    return m;
  }
  GstStructure* repost = nullptr;
  if (v.repost && !(repost = gst_structure_from_string(options.repost_message.c_str(), nullptr))) {
    m.status = "unavailable: our element posted no message in this case";
    return m;
  }
  std::shared_ptr<vkc::Device> device;
  std::string no_device;
  if (v.submits && !(device = vkc::Device::acquire(-1, no_device))) {
    m.status = "unavailable: " + no_device;
    if (repost) gst_structure_free(repost);
    return m;
  }
  GError* error = nullptr;
  const std::string description = "appsrc name=src is-live=false format=time block=true max-buffers=3 ! " +
                                  v.pipeline + " ! fakesink name=sink sync=false enable-last-sample=false";
  GstElement* pipeline = gst_parse_launch(description.c_str(), &error);
  if (error) {
    m.status = (g_error_matches(error, GST_PARSE_ERROR, GST_PARSE_ERROR_NO_SUCH_ELEMENT) ? "unavailable: "
                                                                                         : "error: ") +
               std::string(error->message);
    g_error_free(error);
    if (pipeline) gst_object_unref(pipeline);
    if (repost) gst_structure_free(repost);
    return m;
  }
  GstVideoInfo info;
  gst_video_info_set_format(&info, c.format, guint(c.width), guint(c.height));
  if (!c.colorimetry.empty()) gst_video_colorimetry_from_string(&info.colorimetry, c.colorimetry.c_str());
  GstCaps* caps = gst_video_info_to_caps(&info);
  GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
  GstElement* sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  gst_app_src_set_caps(GST_APP_SRC(src), caps);

  std::atomic<guint64> arrived{0};
  GstPad* sinkpad = gst_element_get_static_pad(sink, "sink");
  // First, so that a live frame's time to the sink includes waiting until it can be read.
  if (options.sink_reads) gst_pad_add_probe(sinkpad, GST_PAD_PROBE_TYPE_BUFFER, read_frame, nullptr, nullptr);
  gst_pad_add_probe(
      sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
      [](GstPad*, GstPadProbeInfo*, gpointer count) {
        ++*static_cast<std::atomic<guint64>*>(count);
        return GST_PAD_PROBE_OK;
      },
      &arrived, nullptr);
  Journeys journeys;
  if (v.live_fps > 0)
    gst_pad_add_probe(
        sinkpad, GST_PAD_PROBE_TYPE_BUFFER,
        [](GstPad*, GstPadProbeInfo* info, gpointer data) {
          auto* j = static_cast<Journeys*>(data);
          const gint64 now = g_get_monotonic_time();
          std::lock_guard<std::mutex> guard(j->lock);
          auto it = j->pushed.find(GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info)));
          if (it == j->pushed.end()) return GST_PAD_PROBE_OK;
          if (j->measuring) {
            const double us = double(now - it->second);
            j->sum_us += us;
            j->max_us = std::max(j->max_us, us);
            j->count++;
          }
          j->pushed.erase(it);
          return GST_PAD_PROBE_OK;
        },
        &journeys, nullptr);
  gst_object_unref(sinkpad);

  if (repost) post_for_every_buffer(pipeline, repost);
  if (device) submit_for_every_buffer(pipeline, device, v.copies_frame ? vk::DeviceSize(c.in_bytes) : 0);
  GstBus* bus = gst_element_get_bus(pipeline);
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstPad* srcpad = gst_element_get_static_pad(src, "src");
  GstBufferPool* pool = nullptr;
  std::vector<GstBuffer*> ring = make_ring(srcpad, caps, info, c.smooth, &pool);
  gst_object_unref(srcpad);

  std::atomic<bool> stop{false};
  std::thread feeder([&] {
    pthread_setname_np(pthread_self(), "bench-feeder");  // for the CPU time by thread
    const double pace_us = v.live_fps > 0                    ? 1e6 / v.live_fps
                           : v.paced && options.pace_fps > 0 ? 1e6 / options.pace_fps
                                                             : 0;
    if (pace_us > 0) prctl(PR_SET_TIMERSLACK, 1000);  // ns; the default 50 us would slow the pace
    const gint64 start = g_get_monotonic_time();
    for (size_t i = 0; !stop; ++i) {
      if (pace_us > 0) {
        const gint64 ahead = start + gint64(double(i) * pace_us) - g_get_monotonic_time();
        if (ahead > 0) g_usleep(gulong(ahead));
      }
      GstBuffer* frame = gst_buffer_ref(ring[i % ring.size()]);
      if (v.live_fps > 0) {  // timestamped, its push noted (a shallow copy: the memory is shared)
        gst_buffer_unref(frame);
        frame = gst_buffer_copy(ring[i % ring.size()]);
        GST_BUFFER_PTS(frame) = GstClockTime(double(i) * GST_SECOND / v.live_fps);
        std::lock_guard<std::mutex> guard(journeys.lock);
        journeys.pushed[GST_BUFFER_PTS(frame)] = g_get_monotonic_time();
      }
      if (gst_app_src_push_buffer(GST_APP_SRC(src), frame) != GST_FLOW_OK) break;
    }
  });

  std::string* keep = v.ours ? &m.message : nullptr;
  m.status = wait_on_bus(bus, options.warmup_s, keep);
  // From here on this thread (popping and freeing the bus's messages) is "bench-bus"; threads
  // started before, the driver's among them, keep the process's name.
  pthread_setname_np(pthread_self(), "bench-bus");
  GstElement* dut = gst_bin_get_by_name(GST_BIN(pipeline), "dut");
  GpuTimeSamples gpu_time;
  const std::vector<GstElement*> ours = our_elements(pipeline);
  std::vector<GpuTimeSamples> gpu_times(ours.size());
  if (m.status.empty()) {
    Window window;
    const guint64 before = arrived;
    const guint64 uploads = sum_counter(ours, "uploads"), downloads = sum_counter(ours, "downloads");
    {
      std::lock_guard<std::mutex> guard(journeys.lock);
      journeys.measuring = true;
    }
    window.start();
    for (double waited = 0; m.status.empty() && waited < options.measure_s; waited += kGpuTimeSampling) {
      m.status = wait_on_bus(bus, std::min(kGpuTimeSampling, options.measure_s - waited), keep);
      gpu_time.sample(dut);
      for (size_t i = 0; i < ours.size(); ++i) gpu_times[i].sample(ours[i]);
    }
    const double frames = double(arrived - before);
    window.stop(m, frames);
    if (frames > 0 && !ours.empty() && g_object_class_find_property(G_OBJECT_GET_CLASS(ours[0]), "uploads")) {
      m.uploads_per_frame = double(sum_counter(ours, "uploads") - uploads) / frames;
      m.downloads_per_frame = double(sum_counter(ours, "downloads") - downloads) / frames;
    }
    for (size_t i = 0; i < ours.size(); ++i)
      m.gpu_us_by_element[GST_OBJECT_NAME(ours[i])] = gpu_times[i].mean(ours[i]);
    {
      std::lock_guard<std::mutex> guard(journeys.lock);
      journeys.measuring = false;
      if (journeys.count) m.latency_mean_us = journeys.sum_us / double(journeys.count);
      m.latency_max_us = journeys.max_us;
    }
    if (m.status.empty()) m.status = arrived > before ? "ok" : "error: no frame arrived";
  }
  for (GstElement* e : ours) gst_object_unref(e);
  stop = true;
  gst_app_src_end_of_stream(GST_APP_SRC(src));
  if (GstMessage* done = gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND,
                                                    GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR)))
    gst_message_unref(done);
  if (dut) {
    m.gpu_us = gpu_time.mean(dut);
    gst_object_unref(dut);
  }
  gst_element_set_state(pipeline, GST_STATE_NULL);  // unblocks a feeder stuck after an error
  feeder.join();
  for (GstBuffer* buf : ring) gst_buffer_unref(buf);
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }
  m.peak_rss_mib = peak_rss_mib();
  gst_object_unref(bus);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  gst_caps_unref(caps);
  return m;
}

}  // namespace bench
