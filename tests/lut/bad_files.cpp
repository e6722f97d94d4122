#include "bad_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>

#include "common/bus_wait.h"
#include "common/vktest.h"

namespace lut_test {
namespace {

size_t StatusKb(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const std::string prefix = std::string(field) + ":";
  while (std::getline(status, line))
    if (line.rfind(prefix, 0) == 0) return std::stoul(line.substr(prefix.size()));
  ck_abort_msg("no %s in /proc/self/status", field);
  return 0;
}

}  // namespace

std::string StartErrorMessage(const std::string& location, const std::string& properties) {
  vktest::RequirePhysicalDevice();
  const std::string description =
      "videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=16,height=8 ! lut" +
      (location.empty() ? std::string() : " location=\"" + location + "\"") +
      (properties.empty() ? std::string() : " " + properties) + " ! fakesink";
  GstElement* pipeline = vktest::ParsePipeline(description.c_str());
  gst_element_set_state(pipeline, GST_STATE_PLAYING);
  GstMessage* result = vktest::WaitForErrorOrEos(pipeline, 10 * GST_SECOND);
  fail_unless(result && GST_MESSAGE_TYPE(result) == GST_MESSAGE_ERROR, "no error for %s: %s",
              location.c_str(), result ? vktest::Describe(result).c_str() : "timeout");
  GError* error = nullptr;
  gst_message_parse_error(result, &error, nullptr);
  fail_unless(error->domain == GST_RESOURCE_ERROR, "%s: error domain %s", location.c_str(),
              g_quark_to_string(error->domain));
  const std::string message = error->message;
  g_error_free(error);
  gst_message_unref(result);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  return message;
}

PeakMemory::PeakMemory() {
  // "5" resets the peak to the current resident size (proc(5), clear_refs).
  std::ofstream("/proc/self/clear_refs") << "5";
  baseline_kb_ = StatusKb("VmHWM");
}

size_t PeakMemory::GrowthBytes() const {
  const size_t peak = StatusKb("VmHWM");
  return peak > baseline_kb_ ? (peak - baseline_kb_) * 1024 : 0;
}

FifoWatchdog::FifoWatchdog(std::string fifo, int seconds) : fifo_(std::move(fifo)) {
  thread_ = std::thread([this, seconds] {
    std::unique_lock<std::mutex> guard(lock_);
    if (wake_.wait_for(guard, std::chrono::seconds(seconds), [this] { return done_; })) return;
    // Succeeds only while a reader waits in open(); then both ends open and the reader sees EOF.
    const int fd = open(fifo_.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) close(fd);
    fired_ = true;
  });
}

FifoWatchdog::~FifoWatchdog() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    done_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

bool FifoWatchdog::Fired() {
  std::lock_guard<std::mutex> guard(lock_);
  return fired_;
}

}  // namespace lut_test
