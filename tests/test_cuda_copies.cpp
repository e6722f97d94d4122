// gst/base/cudacopies.hpp: the copy of a frame in CUDA memory that rides on the frame to the next
// element of ours. Its rules, which hold without CUDA (the copy here has no target): it is found on
// the frame it was put on and on copies of the whole frame; not on a part of the frame, not on a
// frame whose memory or timestamp is another, not for another device, format or size; a second copy replaces
// the first; and it is let go of when the frame is freed or goes back to its pool, so that its element may
// reuse it. On the lent GPU, vkcompute-decoder-checks counts the copies out of CUDA memory of real chains.
#include <gst/video/video.h>

#include <memory>

#include "base/cudacopies.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

#include "common/runtime_test.h"

namespace {

constexpr gint kWidth = 64, kHeight = 48;

GstVideoInfo Info(GstVideoFormat format, gint width = kWidth, gint height = kHeight) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, guint(width), guint(height));
  return info;
}

std::shared_ptr<vkc::CudaCopy> Copy(const vkc::Device* device, const GstVideoInfo& info) {
  auto copy = std::make_shared<vkc::CudaCopy>();
  copy->device = device;
  copy->format = GST_VIDEO_INFO_FORMAT(&info);
  copy->width = GST_VIDEO_INFO_WIDTH(&info);
  copy->height = GST_VIDEO_INFO_HEIGHT(&info);
  copy->cuda_value = 7;
  return copy;
}

}  // namespace

GST_START_TEST(test_copy_rides_on_its_frame) {
  auto device = vktest::AnyDevice();
  const GstVideoInfo nv12 = Info(GST_VIDEO_FORMAT_NV12);
  GstBuffer* frame = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&nv12), nullptr);
  GST_BUFFER_PTS(frame) = 40 * GST_MSECOND;
  std::weak_ptr<vkc::CudaCopy> watched;
  {
    auto copy = Copy(device.get(), nv12);
    watched = copy;
    vkc::attach_cuda_copy(frame, copy);
  }
  fail_unless(vkc::cuda_copy_of(frame, *device, nv12) == watched.lock(), "not found on its frame");
  fail_unless(vkc::cuda_copy_of(frame, *device, Info(GST_VIDEO_FORMAT_I420)) == nullptr,
              "found for frames of another format");
  fail_unless(vkc::cuda_copy_of(frame, *device, Info(GST_VIDEO_FORMAT_NV12, kWidth, kHeight + 2)) == nullptr,
              "found for frames of another size");
  {
    auto elsewhere = Copy(nullptr, nv12);
    GstBuffer* other = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&nv12), nullptr);
    vkc::attach_cuda_copy(other, elsewhere);
    fail_unless(vkc::cuda_copy_of(other, *device, nv12) == nullptr, "a copy on another device was found");
    gst_buffer_unref(other);
  }

  // A copy of the whole frame (the same memory, made writable on the way) carries it on.
  GstBuffer* whole = gst_buffer_copy(frame);
  fail_unless(vkc::cuda_copy_of(whole, *device, nv12) == watched.lock(), "not carried onto a copy");
  // Another frame that takes its metadata (an element's output) does not: it would hold the copy.
  {
    GstBuffer* output = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&nv12), nullptr);
    const long held = watched.use_count();
    fail_unless(gst_buffer_copy_into(output, frame, GST_BUFFER_COPY_METADATA, 0, -1));
    fail_unless(watched.use_count() == held, "another frame took the copy with the metadata");
    gst_buffer_unref(output);
  }
  // A part of the frame does not.
  GstBuffer* part = gst_buffer_copy_region(frame, GST_BUFFER_COPY_ALL, 0, GST_VIDEO_INFO_SIZE(&nv12) / 2);
  fail_unless(vkc::cuda_copy_of(part, *device, nv12) == nullptr, "carried onto a part of the frame");
  gst_buffer_unref(part);
  // Nor a frame whose timestamp changed since (a pool that kept the meta, the memory holding a later frame).
  GstBuffer* later = gst_buffer_copy(frame);
  GST_BUFFER_PTS(later) = GST_SECOND;
  fail_unless(vkc::cuda_copy_of(later, *device, nv12) == nullptr, "found on a frame of another timestamp");
  gst_buffer_unref(later);
  // Nor a frame whose memory was replaced (the copy is of the old memory's frame).
  gst_buffer_replace_all_memory(whole, gst_allocator_alloc(nullptr, GST_VIDEO_INFO_SIZE(&nv12), nullptr));
  fail_unless(vkc::cuda_copy_of(whole, *device, nv12) == nullptr, "found on a frame of another memory");

  // A second copy replaces the first, which is let go of.
  auto second = Copy(device.get(), nv12);
  vkc::attach_cuda_copy(frame, second);
  fail_unless(vkc::cuda_copy_of(frame, *device, nv12) == second, "the second copy is not the one found");
  gst_buffer_unref(whole);  // held the first through its meta until its memory changed, and since
  fail_unless(watched.expired(), "the replaced copy is still held");
  std::weak_ptr<vkc::CudaCopy> watched_second = second;
  second.reset();
  gst_buffer_unref(frame);
  fail_unless(watched_second.expired(), "a freed frame's copy is still held");
}
GST_END_TEST;

// A decoder's frames go back to its pool, which resets them: their copies go, so the element that
// made them reuses them.
GST_START_TEST(test_pool_lets_go_of_copies) {
  auto device = vktest::AnyDevice();
  const GstVideoInfo nv12 = Info(GST_VIDEO_FORMAT_NV12);
  GstBufferPool* pool = gst_buffer_pool_new();
  GstStructure* config = gst_buffer_pool_get_config(pool);
  GstCaps* caps = gst_video_info_to_caps(&nv12);
  gst_buffer_pool_config_set_params(config, caps, guint(GST_VIDEO_INFO_SIZE(&nv12)), 1, 1);
  gst_caps_unref(caps);
  fail_unless(gst_buffer_pool_set_config(pool, config));
  fail_unless(gst_buffer_pool_set_active(pool, TRUE));
  std::weak_ptr<vkc::CudaCopy> watched;
  for (int round = 0; round < 2; ++round) {
    GstBuffer* frame = nullptr;
    fail_unless(gst_buffer_pool_acquire_buffer(pool, &frame, nullptr) == GST_FLOW_OK);
    fail_unless(vkc::cuda_copy_of(frame, *device, nv12) == nullptr,
                "round %d: a frame from the pool has a copy", round);
    auto copy = Copy(device.get(), nv12);
    watched = copy;
    vkc::attach_cuda_copy(frame, std::move(copy));
    gst_buffer_unref(frame);  // back to the pool
    fail_unless(watched.expired(), "round %d: the pool's frame still holds its copy", round);
  }
  gst_buffer_pool_set_active(pool, FALSE);
  gst_object_unref(pool);
}
GST_END_TEST;

static Suite* cuda_copies_suite() {
  Suite* suite = suite_create("cuda_copies");
  TCase* tc = tcase_create("cuda_copies");
  tcase_add_test(tc, test_copy_rides_on_its_frame);
  tcase_add_test(tc, test_pool_lets_go_of_copies);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(int argc, char** argv) {
  return vktest::RunRuntimeSuite(&argc, &argv, cuda_copies_suite(), "cuda_copies", __FILE__);
}
