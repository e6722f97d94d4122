#include "journeys.hpp"

#include <cstdint>
#include <cstdio>

namespace bench {

void Journeys::watch(GstElement* src, size_t frames, GstClockTime period) {
  period_ns = period;
  pushed_us.assign(frames, 0);
  arrived_us.assign(frames, 0);
  // Each element downstream of `src` that has a src pad; the sink, which has none, ends the walk.
  GstPad* pad = gst_element_get_static_pad(src, "src");
  while (pad) {
    GstPad* peer = gst_pad_get_peer(pad);
    gst_object_unref(pad);
    pad = nullptr;
    GstElement* element = peer ? gst_pad_get_parent_element(peer) : nullptr;
    if (!element) {
      if (peer) gst_object_unref(peer);
      return;
    }
    if ((pad = gst_element_get_static_pad(element, "src"))) {
      elements.push_back(
          {GST_OBJECT_NAME(element), std::vector<gint64>(frames, 0), std::vector<gint64>(frames, 0)});
      for (auto [probed, out] : {std::pair{peer, false}, {pad, true}}) {
        watches_.push_back({this, elements.size() - 1, out});
        gst_pad_add_probe(probed, GST_PAD_PROBE_TYPE_BUFFER, note_frame, &watches_.back(), nullptr);
      }
    }
    gst_object_unref(peer);
    gst_object_unref(element);
  }
}

size_t Journeys::frame_of(GstBuffer* buffer) const {
  const GstClockTime pts = GST_BUFFER_PTS(buffer);
  return GST_CLOCK_TIME_IS_VALID(pts) ? size_t((pts + period_ns / 2) / period_ns) : SIZE_MAX;
}

GstPadProbeReturn Journeys::note_frame(GstPad*, GstPadProbeInfo* info, gpointer data) {
  const auto* watch = static_cast<const PadWatch*>(data);
  ElementTimes& e = watch->journeys->elements[watch->element];
  std::vector<gint64>& times = watch->out ? e.out_us : e.in_us;
  const size_t n = watch->journeys->frame_of(GST_PAD_PROBE_INFO_BUFFER(info));
  if (n < times.size() && times[n] == 0) times[n] = g_get_monotonic_time();
  return GST_PAD_PROBE_OK;
}

void Journeys::print_path(size_t n, const std::string& which) const {
  const gint64 t0 = pushed_us[n];
  auto ms = [&](gint64 t) { return t ? double(t - t0) / 1e3 : -1.0; };
  std::printf("  %s frame %zu (ms after its push):", which.c_str(), n);
  gint64 last = t0;
  std::string held = "the push into the first element";
  gint64 longest = 0;
  auto step = [&](gint64 t, const std::string& what) {
    if (t && t - last > longest) longest = t - last, held = what;
    if (t) last = t;
  };
  for (const ElementTimes& e : elements) {
    std::printf(" %s in %.3f out %.3f;", e.name.c_str(), ms(e.in_us[n]), ms(e.out_us[n]));
    step(e.in_us[n], "on its way to " + e.name);
    step(e.out_us[n], "in " + e.name);
  }
  step(arrived_us[n], "on its way to the sink");
  std::printf(" sink %.3f\n  held longest %s (%.3f ms)\n", ms(arrived_us[n]), held.c_str(),
              double(longest) / 1e3);
}

}  // namespace bench
