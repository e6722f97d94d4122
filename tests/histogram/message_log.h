// Records what is posted on a bus at the moment it is posted (a sync handler runs in the posting
// thread), so that a test can ask "how many histogram messages had been posted when X happened"
// from a pad probe. Messages are passed on to the bus queue as usual.
#pragma once

#include <gst/gst.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "histogram_message.h"

namespace histogram_test {

struct PostedError {
  GQuark domain;
  int code;
  std::string source;       // name of the posting object
  std::string description;  // vktest::Describe() of the message
};

class MessageLog {
 public:
  // Installs the sync handler on `bus` (a reference is kept); the bus must have none yet.
  explicit MessageLog(GstBus* bus);
  // The same on the bus of `pipeline`.
  explicit MessageLog(GstElement* pipeline);
  ~MessageLog();
  MessageLog(const MessageLog&) = delete;
  MessageLog& operator=(const MessageLog&) = delete;

  size_t HistogramCount() const;
  std::vector<HistogramMessage> Histograms() const;  // in posting order
  std::vector<PostedError> Errors() const;

  // Wait until the condition holds; false after `timeout_ms`.
  bool WaitForHistograms(size_t count, int timeout_ms) const;
  bool WaitForErrorOrEos(int timeout_ms) const;

 private:
  static GstBusSyncReply OnMessage(GstBus* bus, GstMessage* message, gpointer user_data);
  void Record(GstMessage* message);

  GstBus* bus_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<HistogramMessage> histograms_;
  std::vector<PostedError> errors_;
  bool eos_ = false;
};

}  // namespace histogram_test
