#include "message_log.h"

#include <chrono>

#include "common/bus_wait.h"

namespace histogram_test {

MessageLog::MessageLog(GstBus* bus) : bus_(GST_BUS(gst_object_ref(bus))) {
  gst_bus_set_sync_handler(bus_, OnMessage, this, nullptr);
}

// gst_element_get_bus() hands out a reference of its own: the log keeps that one.
MessageLog::MessageLog(GstElement* pipeline) : bus_(gst_element_get_bus(pipeline)) {
  gst_bus_set_sync_handler(bus_, OnMessage, this, nullptr);
}

MessageLog::~MessageLog() {
  gst_bus_set_sync_handler(bus_, nullptr, nullptr, nullptr);
  gst_object_unref(bus_);
}

GstBusSyncReply MessageLog::OnMessage(GstBus*, GstMessage* message, gpointer user_data) {
  static_cast<MessageLog*>(user_data)->Record(message);
  return GST_BUS_PASS;
}

void MessageLog::Record(GstMessage* message) {
  // Parsed outside the lock: parsing allocates, and posting threads should not wait on it.
  if (IsHistogramMessage(message)) {
    HistogramMessage parsed = ParseHistogramMessage(message);
    std::lock_guard<std::mutex> lock(mutex_);
    histograms_.push_back(std::move(parsed));
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
    GError* error = nullptr;
    gst_message_parse_error(message, &error, nullptr);
    PostedError posted{error->domain, error->code, GST_MESSAGE_SRC_NAME(message), vktest::Describe(message)};
    g_error_free(error);
    std::lock_guard<std::mutex> lock(mutex_);
    errors_.push_back(std::move(posted));
  } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_EOS) {
    std::lock_guard<std::mutex> lock(mutex_);
    eos_ = true;
  } else {
    return;
  }
  changed_.notify_all();
}

size_t MessageLog::HistogramCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return histograms_.size();
}

std::vector<HistogramMessage> MessageLog::Histograms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return histograms_;
}

std::vector<PostedError> MessageLog::Errors() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return errors_;
}

bool MessageLog::WaitForHistograms(size_t count, int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return histograms_.size() >= count; });
}

bool MessageLog::WaitForErrorOrEos(int timeout_ms) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return eos_ || !errors_.empty(); });
}

}  // namespace histogram_test
