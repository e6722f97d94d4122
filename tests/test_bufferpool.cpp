// The frame pool of the base class (gst/base/bufferpool.hpp) on its own, with system memory: it
// makes nothing when it starts, makes a buffer only when none waits in it, keeps what the stream had
// in use at once lately and gives back what a burst made once the stream runs steadily again.
#include <gst/video/video.h>

#include <set>
#include <vector>

#include "base/bufferpool.hpp"
#include "base/recentpeak.hpp"

// After the C++ headers: its macros (fail, ...) would break <ios>.
#include <gst/check/gstcheck.h>

namespace {

// A pool keeps what was in use at once over its current and previous one-second windows: after this
// long of steady use, a burst before it is forgotten and its extra buffers released (one a round).
constexpr gulong kBeyondTwoWindowsUs = 3'000'000;
constexpr gulong kStepUs = 50'000;

// The memories alive that a test has seen, and how many it saw freed.
struct Memories {
  std::set<GstMiniObject*> seen;
  guint freed = 0;

  // A freed memory's address may be a new memory's later.
  static void on_freed(gpointer data, GstMiniObject* memory) {
    auto* self = static_cast<Memories*>(data);
    self->seen.erase(memory);
    self->freed++;
  }

  // Watches the memory of `buffer` when it is new; whether it was.
  bool watch(GstBuffer* buffer) {
    GstMiniObject* memory = GST_MINI_OBJECT_CAST(gst_buffer_peek_memory(buffer, 0));
    if (!seen.insert(memory).second) return false;
    gst_mini_object_weak_ref(memory, on_freed, this);
    return true;
  }
};

// Memories the test marks as dear to make again (a frame another GPU imported, in the plugin).
constexpr guint kDearFlag = GST_MEMORY_FLAG_LAST << 4;

bool IsDear(GstMemory* memory) {
  return GST_MINI_OBJECT_FLAG_IS_SET(memory, kDearFlag);
}

GstBufferPool* StartedPool(guint min_buffers, GstVkComputeDearToFree dear_to_free = nullptr) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, GST_VIDEO_FORMAT_RGBA, 64, 48);
  GstCaps* caps = gst_video_info_to_caps(&info);
  GstAllocator* allocator = gst_allocator_find(nullptr);
  GstBufferPool* pool =
      gst_vkcompute_buffer_pool_new(allocator, caps, guint(info.size), min_buffers, nullptr, dear_to_free);
  gst_object_unref(allocator);
  gst_caps_unref(caps);
  fail_unless(pool != nullptr);
  fail_unless(gst_buffer_pool_set_active(pool, TRUE));
  return pool;
}

// Acquires `count` buffers, watching their memories; how many were new.
guint AcquireMany(GstBufferPool* pool, guint count, Memories& memories, std::vector<GstBuffer*>& out) {
  guint made = 0;
  for (guint i = 0; i < count; i++) {
    GstBuffer* buffer = nullptr;
    fail_unless_equals_int(gst_buffer_pool_acquire_buffer(pool, &buffer, nullptr), GST_FLOW_OK);
    made += memories.watch(buffer) ? 1 : 0;
    out.push_back(buffer);
  }
  return made;
}

void ReleaseAll(std::vector<GstBuffer*>& buffers) {
  for (GstBuffer* buffer : buffers) gst_buffer_unref(buffer);
  buffers.clear();
}

// `in_flight` buffers out at a time, round after round, for `duration_us`; how many buffers were new.
guint SteadyUse(GstBufferPool* pool, guint in_flight, gulong duration_us, Memories& memories) {
  guint made = 0;
  std::vector<GstBuffer*> out;
  for (gulong waited = 0; waited < duration_us; waited += kStepUs) {
    made += AcquireMany(pool, in_flight, memories, out);
    ReleaseAll(out);
    g_usleep(kStepUs);
  }
  return made;
}

}  // namespace

GST_START_TEST(test_starts_empty_and_grows_on_demand) {
  GstBufferPool* pool = StartedPool(8);
  Memories memories;
  std::vector<GstBuffer*> out;
  // Nothing made at start, though the minimum is 8: the first acquire makes the first buffer.
  fail_unless_equals_int(AcquireMany(pool, 1, memories, out), 1);
  ReleaseAll(out);
  // The released buffer waits in the pool and comes back.
  fail_unless_equals_int(AcquireMany(pool, 1, memories, out), 0);
  // More out at once than ever before: the pool grows past its minimum, without a maximum.
  ReleaseAll(out);
  fail_unless_equals_int(AcquireMany(pool, 12, memories, out), 11);
  ReleaseAll(out);
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  fail_unless_equals_int(memories.freed, 12);
  gst_object_unref(pool);
}
GST_END_TEST;

GST_START_TEST(test_gives_back_what_a_burst_made) {
  GstBufferPool* pool = StartedPool(3);
  Memories memories;
  std::vector<GstBuffer*> out;
  // A burst: six out at once, then all back. Nothing is freed while the burst is recent.
  fail_unless_equals_int(AcquireMany(pool, 6, memories, out), 6);
  ReleaseAll(out);
  fail_unless_equals_int(memories.freed, 0);
  // Then one frame at a time: once the burst is two windows old, the pool keeps one buffer.
  fail_unless_equals_int(SteadyUse(pool, 1, kBeyondTwoWindowsUs, memories), 0);
  fail_unless_equals_int(memories.freed, 5);
  // And the steady stream runs on that one, making and freeing nothing more.
  fail_unless_equals_int(SteadyUse(pool, 1, 10 * kStepUs, memories), 0);
  fail_unless_equals_int(memories.freed, 5);
  // A second burst grows the pool again.
  fail_unless_equals_int(AcquireMany(pool, 4, memories, out), 3);
  ReleaseAll(out);
  fail_unless_equals_int(memories.freed, 5);
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  fail_unless_equals_int(memories.freed, 9);
  gst_object_unref(pool);
}
GST_END_TEST;

GST_START_TEST(test_keeps_what_a_steady_stream_uses) {
  GstBufferPool* pool = StartedPool(2);
  Memories memories;
  // Four out at once, again and again: after the first round the pool makes and frees nothing.
  fail_unless_equals_int(SteadyUse(pool, 4, kBeyondTwoWindowsUs, memories), 4);
  fail_unless_equals_int(memories.freed, 0);
  // Fewer in flight from now on: the two not used any more go once the windows pass.
  fail_unless_equals_int(SteadyUse(pool, 2, kBeyondTwoWindowsUs, memories), 0);
  fail_unless_equals_int(memories.freed, 2);
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  fail_unless_equals_int(memories.freed, 4);
  gst_object_unref(pool);
}
GST_END_TEST;

namespace {

// A burst of six buffers out at once (the first `dear` of them marked dear to make again), then one
// at a time for over two windows: the pool has freed `freed` by then, and all six once it stops.
void BurstThenSteady(GstBufferPool* pool, size_t dear, guint freed) {
  Memories memories;
  std::vector<GstBuffer*> out;
  fail_unless_equals_int(AcquireMany(pool, 6, memories, out), 6);
  for (size_t i = 0; i < dear; i++) GST_MINI_OBJECT_FLAG_SET(gst_buffer_peek_memory(out[i], 0), kDearFlag);
  ReleaseAll(out);
  fail_unless_equals_int(SteadyUse(pool, 1, kBeyondTwoWindowsUs, memories), 0);
  fail_unless_equals_int(memories.freed, freed);
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  fail_unless_equals_int(memories.freed, 6);
  gst_object_unref(pool);
}

}  // namespace

// A buffer whose memory is dear to make again (another GPU's import of it would be made anew) is
// kept when the pool would give it back; the others of the same burst go: the stream runs on the
// two dear ones, the other four are freed.
GST_START_TEST(test_keeps_what_is_dear_to_make_again) {
  BurstThenSteady(StartedPool(3, IsDear), 2, 4);
}
GST_END_TEST;

// A burst that comes back soon after the pool gave back what the first one made: the pool makes it
// again, and from then on remembers four windows, so the same steady
// use that gave the first burst back keeps the second's.
GST_START_TEST(test_bursts_that_come_back_are_kept) {
  GstBufferPool* pool = StartedPool(3);
  Memories memories;
  std::vector<GstBuffer*> out;
  fail_unless_equals_int(AcquireMany(pool, 6, memories, out), 6);
  ReleaseAll(out);
  fail_unless_equals_int(SteadyUse(pool, 1, kBeyondTwoWindowsUs, memories), 0);
  fail_unless_equals_int(memories.freed, 5);
  fail_unless_equals_int(AcquireMany(pool, 6, memories, out), 5);
  ReleaseAll(out);
  fail_unless_equals_int(SteadyUse(pool, 1, kBeyondTwoWindowsUs, memories), 0);
  fail_unless_equals_int(memories.freed, 5);
  fail_unless(gst_buffer_pool_set_active(pool, FALSE));
  fail_unless_equals_int(memories.freed, 11);
  gst_object_unref(pool);
}
GST_END_TEST;

namespace {

// A pool as bufferpool.cpp runs one, on a clock of its own: `made` buffers, `out` of them in use;
// a release frees the buffer when more were made than the peak keeps.
struct ModelPool {
  vkc::RecentPeak peak;
  uint32_t made = 0, out = 0, makes = 0;

  void acquire(int64_t now) {
    if (out == made) {
      made++, makes++;
      peak.made(now);
    }
    peak.note(++out, now);
  }
  void release(int64_t now) {
    peak.note(--out, now);
    if (made > peak.keep()) {
      made--;
      peak.gave_back(now);
    }
  }
};

}  // namespace

// A source late again every `period` (a burst of six frames out at once, one the rest of the time,
// frames 10 ms apart): the pool makes the burst's frames again only until the windows it remembers
// span the period, when the bursts come back within the two windows remembered after a give-back;
// further apart, each burst is made again; a stream with one burst keeps remembering two windows.
GST_START_TEST(test_bursts_that_keep_coming_back_stop_the_making) {
  constexpr int64_t kMs = 1'000'000;
  for (int64_t period_ms : {1'500, 3'000, 3'900, 7'000}) {
    ModelPool pool;
    uint32_t makes_in_last_minute = 0, bursts_in_last_minute = 0;
    for (int64_t t = 0; t < 600'000 * kMs; t += 10 * kMs) {
      const uint32_t before = pool.makes;
      const uint32_t in_flight = t % (period_ms * kMs) < 50 * kMs ? 6 : 1;
      for (uint32_t i = 0; i < in_flight; i++) pool.acquire(t);
      for (uint32_t i = 0; i < in_flight; i++) pool.release(t + kMs);
      if (t < 540'000 * kMs) continue;
      makes_in_last_minute += pool.makes - before;
      bursts_in_last_minute += t % (period_ms * kMs) == 0;
    }
    // Five frames beyond the steady one per burst, when they are made again.
    const uint32_t expected = period_ms < 4'000 ? 0 : 5 * bursts_in_last_minute;
    if (makes_in_last_minute != expected)
      fail("bursts every %" G_GINT64_FORMAT
           " ms: %u made in the last minute (expected %u), %u windows "
           "remembered",
           period_ms, makes_in_last_minute, expected, pool.peak.windows());
  }
  ModelPool once;
  for (int64_t t = 0; t < 60'000 * kMs; t += 10 * kMs) {
    const uint32_t in_flight = t < 50 * kMs ? 6 : 1;
    for (uint32_t i = 0; i < in_flight; i++) once.acquire(t);
    for (uint32_t i = 0; i < in_flight; i++) once.release(t + kMs);
  }
  fail_unless_equals_int(once.made, 1);
  fail_unless_equals_int(once.peak.windows(), 2);
}
GST_END_TEST;

static Suite* bufferpool_suite() {
  Suite* suite = suite_create("bufferpool");
  TCase* tcase = tcase_create("general");
  tcase_add_test(tcase, test_starts_empty_and_grows_on_demand);
  tcase_add_test(tcase, test_gives_back_what_a_burst_made);
  tcase_add_test(tcase, test_keeps_what_a_steady_stream_uses);
  tcase_add_test(tcase, test_keeps_what_is_dear_to_make_again);
  tcase_add_test(tcase, test_bursts_that_come_back_are_kept);
  tcase_add_test(tcase, test_bursts_that_keep_coming_back_stop_the_making);
  suite_add_tcase(suite, tcase);
  return suite;
}

GST_CHECK_MAIN(bufferpool);
