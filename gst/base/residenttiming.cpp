#include "residenttiming.hpp"

#include <gst/base/gstbasetransform.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "filterprivate.hpp"
#include "framebarriers.hpp"
#include "vk/kernel.hpp"
#include "vk/memory.hpp"
#include "vk/submit.hpp"

namespace vkc {
namespace {

// Frames of one slot lie this far apart at least in their stage's buffer: wider than any load of
// the kernels, and a multiple of every plane offset's alignment they assume.
constexpr vk::DeviceSize kFrameAlignment = 256;

// One element of the chain, set up for the frames: its operation, a caps state of its own (the
// stream's stays untouched), and the caps of its two sides.
struct Step {
  Operation* operation = nullptr;
  std::unique_ptr<CapsState> state;
  GstVideoInfo in{}, out{};
  bool analysis = false;  // passes its input on: the next step reads the same frames
};

// Where frames of one stage (the input, or one filter's output) lie: per ring slot one device
// buffer, frame i of the run in slot i % slots at (i / slots) * span.
struct Stage {
  GstVideoInfo info{};
  vk::DeviceSize span = 0;
  std::vector<std::unique_ptr<Buffer>> slots;

  FrameLayout layout(guint i) const {
    FrameLayout f{.buffer = slots[i % slots.size()]->handle(), .device_local = true};
    const vk::DeviceSize base = (i / slots.size()) * span;
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
      f.offset[p] = uint32_t(base + GST_VIDEO_INFO_PLANE_OFFSET(&info, p));
      f.stride[p] = uint32_t(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    }
    return f;
  }
  vk::DeviceSize offset(guint i) const { return (i / slots.size()) * span; }
};

void set_error(GError** error, const std::string& message) {
  g_set_error_literal(error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED, message.c_str());
}

bool pad_info(GstPad* pad, GstVideoInfo& info) {
  GstCaps* caps = gst_pad_get_current_caps(pad);
  const bool ok = caps && gst_video_info_from_caps(&info, caps);
  if (caps) gst_caps_unref(caps);
  return ok;
}

bool same_frames(const GstVideoInfo& a, const GstVideoInfo& b) {
  return GST_VIDEO_INFO_FORMAT(&a) == GST_VIDEO_INFO_FORMAT(&b) &&
         GST_VIDEO_INFO_WIDTH(&a) == GST_VIDEO_INFO_WIDTH(&b) &&
         GST_VIDEO_INFO_HEIGHT(&a) == GST_VIDEO_INFO_HEIGHT(&b);
}

// The chain's steps on one device, each configured afresh; null device with `error` set.
std::shared_ptr<Device> set_up(GstElement* const* elements, guint n_elements, std::vector<Step>& steps,
                               std::string& error) {
  std::shared_ptr<Device> device;
  for (guint k = 0; k < n_elements; ++k) {
    GstElement* element = elements[k];
    const std::string name = element ? GST_OBJECT_NAME(element) : "(null)";
    if (!element || !GST_IS_VKCOMPUTE_FILTER(element)) {
      error = name + " is not a vkcompute element";
      return nullptr;
    }
    GstVkComputeFilterPrivate* priv = gst_vkcompute_filter_private(GST_VKCOMPUTE_FILTER(element));
    if (!priv->stream || !priv->device) {
      error = name + " is not started";
      return nullptr;
    }
    if (device && priv->device != device) {
      error = name + " runs on another device than the elements before it (set device-index on each)";
      return nullptr;
    }
    device = priv->device;
    Step step;
    step.operation = priv->operation.get();
    if (!pad_info(GST_BASE_TRANSFORM_SINK_PAD(element), step.in) ||
        !pad_info(GST_BASE_TRANSFORM_SRC_PAD(element), step.out)) {
      error = name + " has no negotiated caps";
      return nullptr;
    }
    const Mode mode = step.operation->mode();
    if (mode == Mode::kDrawing) {
      error = name + " draws into its frames, which needs the frames' buffers";
      return nullptr;
    }
    step.analysis = mode == Mode::kAnalysis;
    if (!steps.empty() && !same_frames(steps.back().out, step.in)) {
      error = name + " takes other frames than the element before it gives";
      return nullptr;
    }
    GError* configure_error = nullptr;
    step.state = step.operation->configure(device, step.in, step.out, &configure_error);
    if (!step.state) {
      error = name + ": " + (configure_error ? configure_error->message : "its kernels could not be made");
      g_clear_error(&configure_error);
      return nullptr;
    }
    steps.push_back(std::move(step));
  }
  if (!device) error = "no element to time";
  return device;
}

// A stage's buffers for `n_frames` frames of `info`, each slot's offsets within 32 bits (the
// kernels take them as such) and within one storage buffer's range.
bool make_stage(const std::shared_ptr<Device>& device, const GstVideoInfo& info, guint n_frames, Stage& stage,
                std::string& error) {
  stage.info = info;
  stage.span = (GST_VIDEO_INFO_SIZE(&info) + kFrameAlignment - 1) / kFrameAlignment * kFrameAlignment;
  const guint per_slot = (n_frames + kVkComputeFramesInFlight - 1) / kVkComputeFramesInFlight;
  const vk::DeviceSize bytes = stage.span * per_slot;
  if (bytes > device->properties().limits.maxStorageBufferRange || bytes > G_MAXUINT32) {
    error = std::to_string(per_slot) + " frames of " + std::to_string(GST_VIDEO_INFO_SIZE(&info)) +
            " bytes exceed a storage buffer of the device: time fewer";
    return false;
  }
  for (guint s = 0; s < std::min<guint>(n_frames, kVkComputeFramesInFlight); ++s)
    stage.slots.push_back(Buffer::create_device(device, bytes, "resident timing frames"));
  return true;
}

// Runs `record` alone in `ring`'s slot 0 and waits for it.
template <typename Record>
bool run_and_wait(CommandRing& ring, Record record, std::string& error) {
  Commands cmd = ring.begin(0);
  record(cmd);
  ring.submit(0);
  if (ring.wait(0, frame_timeout_ns()) == Completion::kDone) return true;
  error = "the device did not complete the work in " + std::to_string(frame_timeout_ns() / 1'000'000) + " ms";
  return false;
}

// Every frame through every step, as streams record them (framebarriers.hpp): the barrier after
// earlier work where a stream's frame needs it, the element's own begin_frame() and record(). A
// step's input written by a filter step before waits for it, as a frame in device memory whose write
// may still run, unless a step since recorded a barrier (as a stream's thread finds in
// vkc::waits_for_write()); and where frame i takes the ring slot of frame i - 4, it waits for that
// frame, as a stream's CPU waits before it records a slot again: a stream keeps at most that many
// frames in flight.
bool record_frames(Commands cmd, std::vector<Step>& steps, const std::vector<Stage>& stages, guint n_frames,
                   GstBuffer* inbuf, std::string& error) {
  for (guint i = 0; i < n_frames; ++i) {
    size_t stage = 0;
    bool stage_ordered = false;  // a barrier since the step that wrote the current stage
    for (Step& step : steps) {
      Frame frame;
      frame.cmd = cmd;
      frame.slot = i % kVkComputeFramesInFlight;
      frame.in = stages[stage].layout(i);
      if (!step.analysis) frame.out = stages[stage + 1].layout(i);
      frame.inbuf = inbuf;
      gst_segment_init(&frame.segment, GST_FORMAT_TIME);
      const bool slot_again = i > 0 && frame.slot == 0 && &step == &steps.front();
      if ((stage > 0 && !stage_ordered) || slot_again) order_after_earlier_work(frame);
      GError* frame_error = nullptr;
      if (!step.operation->begin_frame(*step.state, frame, &frame_error) ||
          !step.operation->record(*step.state, frame, &frame_error)) {
        error = frame_error ? frame_error->message : "a frame's work could not be recorded";
        g_clear_error(&frame_error);
        return false;
      }
      stage_ordered = stage_ordered || frame.after_earlier_work;
      if (!step.analysis) {
        ++stage;
        stage_ordered = false;
      }
    }
  }
  return true;
}

bool time_resident(GstElement* const* elements, guint n_elements, const guint8* frames, gsize frame_bytes,
                   guint n_frames, guint repeats, double& median_us, double& least_us, gsize& moved_bytes,
                   guint8* last_output, gsize last_output_bytes, std::string& error) {
  std::vector<Step> steps;
  std::shared_ptr<Device> device = set_up(elements, n_elements, steps, error);
  if (!device) return false;
  if (n_frames == 0 || repeats == 0) {
    error = "no frame or no repeat to time";
    return false;
  }
  if (frame_bytes != GST_VIDEO_INFO_SIZE(&steps.front().in)) {
    error = "frames of " + std::to_string(frame_bytes) + " bytes, where the first element takes " +
            std::to_string(GST_VIDEO_INFO_SIZE(&steps.front().in));
    return false;
  }
  std::vector<Stage> stages(1);
  if (!make_stage(device, steps.front().in, n_frames, stages[0], error)) return false;
  for (const Step& step : steps) {
    if (step.analysis) continue;
    stages.emplace_back();
    if (!make_stage(device, step.out, n_frames, stages.back(), error)) return false;
  }
  const Stage& last = stages.back();
  if (last_output && last_output_bytes != GST_VIDEO_INFO_SIZE(&last.info)) {
    error = "the last output takes " + std::to_string(GST_VIDEO_INFO_SIZE(&last.info)) + " bytes, not " +
            std::to_string(last_output_bytes);
    return false;
  }

  CommandRing ring(device, 1, "resident timing", 1);  // every submission timed
  // The input frames into their slots' buffers, laid out as there.
  const Stage& input = stages.front();
  auto host = Buffer::create_host(device, input.slots[0]->size(), "resident timing upload");
  for (size_t s = 0; s < input.slots.size(); ++s) {
    for (guint i = guint(s); i < n_frames; i += kVkComputeFramesInFlight)
      std::memcpy(host->mapped() + input.offset(i), frames + size_t(i) * frame_bytes, frame_bytes);
    const vk::Buffer to = input.slots[s]->handle();
    if (!run_and_wait(
            ring,
            [&](Commands cmd) { cmd.copyBuffer(host->handle(), to, vk::BufferCopy{.size = host->size()}); },
            error))
      return false;
  }

  GstBuffer* inbuf = gst_buffer_new();  // no meta: regions come from the elements' properties
  std::vector<double> times;
  bool ok = true;
  // Untimed rounds first, for at least kWarmUp. On a fresh machine the GPU sits idle while a large
  // specialized kernel compiles (seconds), and its first rounds after that ran 5x slow: H200, run 242,
  // morph 31x31's 1080p row 81.1 us a frame with one untimed round, while the same pipeline took
  // 54.1 at 4K next and 15.8 at 1080p in the next process (its compile from the driver's cache).
  constexpr auto kWarmUp = std::chrono::milliseconds(200);
  const auto warm_from = std::chrono::steady_clock::now() + kWarmUp;
  for (guint r = 0; ok && times.size() < repeats; ++r) {
    Commands cmd = ring.begin(0);
    ring.start_timing(0);
    ok = record_frames(cmd, steps, stages, n_frames, inbuf, error);
    ring.submit(0);  // what was recorded, also after a failure: the ring's slot is then done
    if (ring.wait(0, frame_timeout_ns()) != Completion::kDone) {
      error = "the device did not complete the frames in " + std::to_string(frame_timeout_ns() / 1'000'000) +
              " ms";
      gst_buffer_unref(inbuf);
      return false;  // the ring and buffers must outlive the work: they leak rather than free in use
    }
    if (ok && r > 0 && std::chrono::steady_clock::now() >= warm_from)
      times.push_back(ring.gpu_time_ns(0) / 1000.0 / n_frames);
  }
  gst_buffer_unref(inbuf);
  if (!ok) return false;
  if (times.front() < 0) {
    error = "the device's compute queue has no timestamps";
    return false;
  }
  std::sort(times.begin(), times.end());
  moved_bytes = 0;
  for (const Step& step : steps)
    moved_bytes += GST_VIDEO_INFO_SIZE(&step.in) + (step.analysis ? 0 : GST_VIDEO_INFO_SIZE(&step.out));
  median_us = times[times.size() / 2];
  least_us = times.front();

  if (last_output) {
    auto readback = Buffer::create_host(device, last.span, "resident timing readback");
    const guint i = n_frames - 1;
    const vk::Buffer from = last.slots[i % last.slots.size()]->handle();
    if (!run_and_wait(
            ring,
            [&](Commands cmd) {
              cmd.copyBuffer(from, readback->handle(),
                             vk::BufferCopy{.srcOffset = last.offset(i), .size = last.span});
            },
            error))
      return false;
    std::memcpy(last_output, readback->mapped(), last_output_bytes);
  }
  return true;
}

}  // namespace
}  // namespace vkc

extern "C" G_MODULE_EXPORT gboolean gst_vkcompute_time_resident(GstElement* const* elements, guint n_elements,
                                                                const guint8* frames, gsize frame_bytes,
                                                                guint n_frames, guint repeats,
                                                                gdouble* median_us, gdouble* least_us,
                                                                gsize* moved_bytes, guint8* last_output,
                                                                gsize last_output_bytes, GError** error) {
  std::string why;
  double median = 0, least = 0;
  gsize moved = 0;
  bool ok = false;
  try {
    ok = vkc::time_resident(elements, n_elements, frames, frame_bytes, n_frames, repeats, median, least,
                            moved, last_output, last_output_bytes, why);
  } catch (const vkc::GridTooLarge& e) {
    why = std::string("frames too large for the device: ") + e.what();
  } catch (const std::exception& e) {
    why = std::string("Vulkan operation failed: ") + e.what();
  }
  if (!ok) {
    vkc::set_error(error, why);
    return FALSE;
  }
  if (median_us) *median_us = median;
  if (least_us) *least_us = least;
  if (moved_bytes) *moved_bytes = moved;
  return TRUE;
}
