#include "hostimports.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "vk/reaper.hpp"
#include "vkmemory.hpp"

namespace vkc {

namespace {

// One cached import per memory and device: a frame that a tee hands to elements on two devices keeps
// both, so neither device's work in flight loses the import it reads.
GQuark import_quark(const Device& device) {
  // Looked up once per device (every imported frame asks): no string built per frame.
  static std::array<std::atomic<GQuark>, 16> known{};
  const int index = device.id();
  const bool kept = index >= 0 && size_t(index) < known.size();
  if (kept)
    if (const GQuark quark = known[index].load(std::memory_order_relaxed)) return quark;
  const std::string name = "vkcompute-host-import-" + std::to_string(index);
  const GQuark quark = g_quark_from_string(name.c_str());
  if (kept) known[index].store(quark, std::memory_order_relaxed);
  return quark;
}

void free_import(gpointer data) {
  delete static_cast<Buffer*>(data);
}

// Guards the look-ups and settings of both caches below: two elements may bind one buffer at once
// (a tee), and an import set over another would free the one the first element's work reads.
std::mutex& cache_lock() {
  static std::mutex lock;
  return lock;
}

// The handing over of kept memory to the reaper, counted for wait_for_host_memory_released().
// Leaked on purpose: the reaper's thread may release kept memory while the process exits.
struct Releases {
  std::mutex lock;
  std::condition_variable released_one;
  uint64_t handed = 0, released = 0;  // lock
};

Releases& releases() {
  static auto* instance = new Releases();
  return *instance;
}

// How long the reaper's thread waits for a going buffer to let go of its memory (it does so right
// after handing its kept memory over), so that the last reference is the reaper's.
constexpr auto kBufferGoneWait = std::chrono::milliseconds(1);

// The references to a memory when its going buffer hands it over and nothing else holds it: ours
// and the buffer's own.
constexpr int kOursAndTheBuffers = 2;

// The system memories of one buffer that carry an import of ours, a reference each.
struct KeptMemory {
  std::vector<GstMemory*> memories;
  bool on_reaper = false;  // released by the reaper's thread, counted in releases()

  ~KeptMemory() {
    const auto give_up = std::chrono::steady_clock::now() + kBufferGoneWait;
    for (GstMemory* mem : memories) {
      while (on_reaper && GST_MINI_OBJECT_REFCOUNT_VALUE(mem) > 1 &&
             std::chrono::steady_clock::now() < give_up)
        std::this_thread::yield();
      gst_memory_unref(mem);  // on the reaper's thread, the last reference: unpins and frees
    }
    if (!on_reaper) return;
    Releases& r = releases();
    {
      std::lock_guard<std::mutex> guard(r.lock);
      ++r.released;
    }
    r.released_one.notify_all();
  }
};

GQuark kept_quark() {
  static const GQuark quark = g_quark_from_static_string("vkcompute-kept-host-memory");
  return quark;
}

// How many buffers' kept memory may wait for the reaper's thread at once. It unpins one frame at a
// time (about 1 000 1080p frames a second on the H200); beyond this, a going buffer's memory is freed
// where it goes, as without the reaper, instead of piling up unfreed.
constexpr uint64_t kMostWaiting = 16;

// The buffer is going (its qdata is let go of before its memories are).
void hand_to_reaper(gpointer data) {
  auto* kept = static_cast<KeptMemory*>(data);
  // A memory that more than the going buffer holds (a shallow copy of it, the application's own
  // buffer) is not freed now: ours is let go of here, at no cost, instead of the reaper's thread
  // waiting its kBufferGoneWait for a release that does not come (1 ms of CPU a frame).
  auto shared = [](GstMemory* mem) {
    if (GST_MINI_OBJECT_REFCOUNT_VALUE(mem) <= kOursAndTheBuffers) return false;
    gst_memory_unref(mem);
    return true;
  };
  kept->memories.erase(std::remove_if(kept->memories.begin(), kept->memories.end(), shared),
                       kept->memories.end());
  if (kept->memories.empty()) {
    delete kept;
    return;
  }
  {
    Releases& r = releases();
    std::lock_guard<std::mutex> guard(r.lock);
    if (r.handed - r.released < kMostWaiting) {
      ++r.handed;
      kept->on_reaper = true;
    }
  }
  if (kept->on_reaper) {
    GST_CAT_LOG(gst_vkcompute_runtime_debug, "%zu imported memories of a going buffer handed to the reaper",
                kept->memories.size());
    release_at(std::chrono::steady_clock::now(), std::shared_ptr<void>(kept));
  } else
    delete kept;  // our references go now: the buffer's own, let go of next, frees the memory here
}

// Under cache_lock().
void keep_until_buffer_goes(GstBuffer* buf, GstMemory* mem) {
  auto* kept = static_cast<KeptMemory*>(gst_mini_object_get_qdata(GST_MINI_OBJECT_CAST(buf), kept_quark()));
  if (!kept) {
    kept = new KeptMemory();
    gst_mini_object_set_qdata(GST_MINI_OBJECT_CAST(buf), kept_quark(), kept, hand_to_reaper);
  }
  if (std::find(kept->memories.begin(), kept->memories.end(), mem) == kept->memories.end())
    kept->memories.push_back(gst_memory_ref(mem));
}

// `mem`'s import into `device`, or null. Under cache_lock().
Buffer* lookup(const Device& device, GstMemory* mem) {
  auto* cached =
      static_cast<Buffer*>(gst_mini_object_get_qdata(GST_MINI_OBJECT_CAST(mem), import_quark(device)));
  return cached && &cached->device() == &device ? cached : nullptr;  // else a device opened anew
}

}  // namespace

// Plain system memory, and the host memory of another device of ours (persistently mapped), keep
// their address for their whole life, so their import is cached on the memory itself and reused
// every time a pool hands the same memory out again: a frame crossing between devices then costs
// the two copy engines, not an import per frame.
const Buffer* cached_host_import(const std::shared_ptr<Device>& device, GstBuffer* buf, GstMemory* mem,
                                 const uint8_t* data, std::string& error) {
  const bool system_memory = gst_memory_is_type(mem, GST_ALLOCATOR_SYSMEM);
  {
    std::lock_guard<std::mutex> guard(cache_lock());
    if (const Buffer* cached = lookup(*device, mem)) {
      if (system_memory) keep_until_buffer_goes(buf, mem);
      return cached;
    }
  }
  // Pinning takes its time: not under the lock.
  auto import =
      Buffer::import_host(device, data - mem->offset, mem->maxsize, "vkcompute imported frame", error);
  if (!import) return nullptr;
  std::lock_guard<std::mutex> guard(cache_lock());
  const Buffer* cached = lookup(*device, mem);
  if (!cached) {
    cached = import.release();
    gst_mini_object_set_qdata(GST_MINI_OBJECT_CAST(mem), import_quark(*device), const_cast<Buffer*>(cached),
                              free_import);
  }  // else another element imported it meanwhile: ours goes
  if (system_memory) {
    keep_until_buffer_goes(buf, mem);
  } else if (gst_memory_is_type(mem, GST_VKCOMPUTE_MEMORY_TYPE)) {
    // Our pools keep such a frame (gst_vkcompute_memory_imported_elsewhere()); another allocator's
    // memory is not ours to flag.
    GST_MINI_OBJECT_FLAG_SET(mem, GST_VKCOMPUTE_MEMORY_FLAG_IMPORTED);
  }
  return cached;
}

void wait_for_host_memory_released(uint64_t timeout_ns) {
  Releases& r = releases();
  std::unique_lock<std::mutex> guard(r.lock);
  const uint64_t handed = r.handed;
  r.released_one.wait_for(guard, std::chrono::nanoseconds(timeout_ns), [&] { return r.released >= handed; });
}

}  // namespace vkc
