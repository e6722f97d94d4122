// Records what is posted on a bus at the moment it is posted (a sync handler runs in the posting
// thread), so that a test can ask "how many of the element's messages had been posted when X
// happened" from a pad probe. Messages are passed on to the bus queue as usual.
//
// `kCase` (element_case.h) names the element whose messages are kept, and parses them.
#pragma once

#include <gst/gst.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <type_traits>
#include <vector>

#include "message_header.h"
#include "posted_error.h"

namespace analysis_test {

template <const auto& kCase>
class MessageLog {
 public:
  using Message = typename std::decay_t<decltype(kCase)>::Message;

  // Installs the sync handler on `bus` (a reference is kept); the bus must have none yet.
  explicit MessageLog(GstBus* bus) : bus_(GST_BUS(gst_object_ref(bus))) { Install(); }
  // The same on the bus of `pipeline`; gst_element_get_bus() hands out a reference of its own,
  // which the log keeps.
  explicit MessageLog(GstElement* pipeline) : bus_(gst_element_get_bus(pipeline)) { Install(); }
  ~MessageLog() {
    gst_bus_set_sync_handler(bus_, nullptr, nullptr, nullptr);
    gst_object_unref(bus_);
  }
  MessageLog(const MessageLog&) = delete;
  MessageLog& operator=(const MessageLog&) = delete;

  size_t Count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return messages_.size();
  }
  std::vector<Message> Messages() const {  // in posting order
    std::lock_guard<std::mutex> lock(mutex_);
    return messages_;
  }
  std::vector<PostedError> Errors() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return errors_;
  }
  bool SawEos() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return eos_;
  }

  // Wait until the condition holds; false after `timeout_ms`.
  bool WaitFor(size_t count, int timeout_ms) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                             [&] { return messages_.size() >= count; });
  }
  bool WaitForErrorOrEos(int timeout_ms) const {
    std::unique_lock<std::mutex> lock(mutex_);
    return changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                             [&] { return eos_ || !errors_.empty(); });
  }

 private:
  void Install() { gst_bus_set_sync_handler(bus_, OnMessage, this, nullptr); }

  static GstBusSyncReply OnMessage(GstBus*, GstMessage* message, gpointer user_data) {
    static_cast<MessageLog*>(user_data)->Record(message);
    return GST_BUS_PASS;
  }

  void Record(GstMessage* message) {
    // Parsed outside the lock: parsing allocates, and posting threads should not wait on it.
    if (IsElementMessage(message, kCase.element)) {
      Message parsed = kCase.parse_message(message);
      std::lock_guard<std::mutex> lock(mutex_);
      messages_.push_back(std::move(parsed));
    } else if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
      PostedError posted = ReadPostedError(message);
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

  GstBus* bus_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Message> messages_;
  std::vector<PostedError> errors_;
  bool eos_ = false;
};

}  // namespace analysis_test
