#include "video_output_recorder.h"

#include <chrono>

namespace vktest {
namespace {

// Describes why a buffer cannot be read as `info` says, or returns "".
std::string LayoutProblem(GstBuffer* buffer, const GstVideoInfo& info, bool downstream_has_video_meta) {
  const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
  if (meta == nullptr) {
    if (gst_buffer_get_size(buffer) < GST_VIDEO_INFO_SIZE(&info)) {
      return "buffer of " + std::to_string(gst_buffer_get_size(buffer)) +
             " bytes without GstVideoMeta, the caps need " + std::to_string(GST_VIDEO_INFO_SIZE(&info));
    }
    return "";
  }
  if (meta->format != GST_VIDEO_INFO_FORMAT(&info) ||
      static_cast<int>(meta->width) != GST_VIDEO_INFO_WIDTH(&info) ||
      static_cast<int>(meta->height) != GST_VIDEO_INFO_HEIGHT(&info)) {
    return "GstVideoMeta format/size disagree with the caps";
  }
  if (!downstream_has_video_meta) {
    for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
      if (meta->offset[p] != GST_VIDEO_INFO_PLANE_OFFSET(&info, p) ||
          meta->stride[p] != GST_VIDEO_INFO_PLANE_STRIDE(&info, p)) {
        return "non-default layout in plane " + std::to_string(p) +
               " although downstream did not accept GstVideoMeta";
      }
    }
  }
  return "";
}

}  // namespace

VideoOutputRecorder::VideoOutputRecorder(GstPad* pad, bool downstream_has_video_meta)
    : pad_(GST_PAD(gst_object_ref(pad))), downstream_has_video_meta_(downstream_has_video_meta) {
  probe_id_ = gst_pad_add_probe(
      pad_,
      static_cast<GstPadProbeType>(GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST |
                                   GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH),
      OnProbe, this, nullptr);
}

VideoOutputRecorder::~VideoOutputRecorder() {
  gst_pad_remove_probe(pad_, probe_id_);
  gst_object_unref(pad_);
}

GstPadProbeReturn VideoOutputRecorder::OnProbe(GstPad* pad, GstPadProbeInfo* info, gpointer user_data) {
  auto* self = static_cast<VideoOutputRecorder*>(user_data);
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    self->RecordBuffer(pad, GST_PAD_PROBE_INFO_BUFFER(info));
  } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList* list = GST_PAD_PROBE_INFO_BUFFER_LIST(info);
    for (guint i = 0; i < gst_buffer_list_length(list); ++i) {
      self->RecordBuffer(pad, gst_buffer_list_get(list, i));
    }
  } else if (info->type & (GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH)) {
    self->RecordEvent(GST_PAD_PROBE_INFO_EVENT(info));
  }
  return GST_PAD_PROBE_OK;
}

void VideoOutputRecorder::RecordBuffer(GstPad* pad, GstBuffer* buffer) {
  RecordedItem item;
  item.is_buffer = true;
  item.pts = GST_BUFFER_PTS(buffer);
  item.duration = GST_BUFFER_DURATION(buffer);
  GstCaps* caps = gst_pad_get_current_caps(pad);
  if (caps == nullptr) {
    item.layout_problem = "buffer pushed before any caps";
  } else {
    gchar* text = gst_caps_to_string(caps);
    item.caps = text;
    g_free(text);
    if (!gst_video_info_from_caps(&item.info, caps)) {
      item.layout_problem = "caps are not raw video: " + item.caps;
    }
    gst_caps_unref(caps);
  }
  if (item.layout_problem.empty()) {
    item.layout_problem = LayoutProblem(buffer, item.info, downstream_has_video_meta_);
  }
  if (item.layout_problem.empty()) {
    GstVideoFrame frame;
    if (gst_video_frame_map(&frame, &item.info, buffer, GST_MAP_READ)) {
      item.planes = ReadFromFrame(frame);
      gst_video_frame_unmap(&frame);
    } else {
      item.layout_problem = "cannot map the buffer as " + item.caps;
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  items_.push_back(std::move(item));
  changed_.notify_all();
}

void VideoOutputRecorder::RecordEvent(GstEvent* event) {
  RecordedItem item;
  item.event_type = GST_EVENT_TYPE(event);
  std::lock_guard<std::mutex> lock(mutex_);
  items_.push_back(std::move(item));
  changed_.notify_all();
}

std::vector<RecordedItem> VideoOutputRecorder::Items() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return items_;
}

std::vector<RecordedItem> VideoOutputRecorder::Buffers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<RecordedItem> buffers;
  for (const RecordedItem& item : items_) {
    if (item.is_buffer) buffers.push_back(item);
  }
  return buffers;
}

size_t VideoOutputRecorder::BufferCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t count = 0;
  for (const RecordedItem& item : items_) count += item.is_buffer ? 1 : 0;
  return count;
}

bool VideoOutputRecorder::WaitForEvent(GstEventType type, int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
    for (const RecordedItem& item : items_) {
      if (!item.is_buffer && item.event_type == type) return true;
    }
    return false;
  });
}

bool VideoOutputRecorder::WaitForBuffers(size_t count, int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), [&] {
    size_t seen = 0;
    for (const RecordedItem& item : items_) seen += item.is_buffer ? 1 : 0;
    return seen >= count;
  });
}

}  // namespace vktest
