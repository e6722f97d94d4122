// What an element's record() sees of one frame: where its input and output lie in GPU-visible
// buffers, and the command buffer to record into.
#pragma once

#include <gst/video/video.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vk/commands.hpp"
#include "vk/memory.hpp"

namespace vkc {

struct CudaCopy;

// A video frame inside a Vulkan buffer, as byte offsets and strides the kernels take as push
// constants.
struct FrameLayout {
  vk::Buffer buffer;
  bool device_local = false;  // device-local memory (else host memory the GPU reads over the bus)
  uint32_t offset[GST_VIDEO_MAX_PLANES] = {};
  uint32_t stride[GST_VIDEO_MAX_PLANES] = {};
};

struct Frame {
  Commands cmd;
  uint32_t slot = 0;  // ring slot: index for per-frame descriptor sets
  FrameLayout in;
  FrameLayout out;  // empty for analysis elements
  GstBuffer* inbuf = nullptr;
  GstBuffer* outbuf = nullptr;
  GstSegment segment;  // the input segment when the frame arrived, for message timestamps
  // The part of the frame the kernels read, [x0, x1) x [y0, y1) in pixels: the whole frame unless
  // the element's begin_frame() narrows it (a region of interest).
  guint x0 = 0, y0 = 0, x1 = G_MAXUINT, y1 = G_MAXUINT;
  // Set by an analysis's begin_frame() (attach-meta): the frame, passed through or copied, leaves
  // only once complete() has attached its results to frame.outbuf.
  bool leaves_with_results = false;
  // Its commands wait for all earlier work on the compute queue (order_after_earlier_work()).
  bool after_earlier_work = false;
};

// How the GPU reaches an input buffer's bytes, in order of preference. The CPU copies a frame
// only in the last case.
enum class InputPath {
  kDevice,       // the buffer lives in device-local memory of ours (memory:VkComputeDevice): zero copies
  kOwnMemory,    // the buffer lives in our host-visible Vulkan memory: zero copies
  kImported,     // system memory imported with VK_EXT_external_memory_host: zero copies
  kGathered,     // several memories (a buffer per plane, or split anywhere), each ours or imported:
                 // copied by the GPU into one device buffer of the frame's slot (record_gather())
  kStaged,       // copied by the CPU into a staging buffer: one copy
  kCuda,         // GStreamer's CUDA memory, copied by CUDA into a device buffer of ours (CudaFrames)
  kCudaCopy,     // GStreamer's CUDA memory whose copy an element of ours before made (cudacopies.hpp)
  kVulkanImage,  // GStreamer's images on the device we run on, copied by the frame's own commands into a
                 // device buffer of the slot (VulkanBridge::record_read())
};

// An input buffer made GPU-visible for the duration of one frame. Holds the CPU mapping and any
// import or staging buffer until release().
class InputBinding {
 public:
  InputBinding() = default;
  ~InputBinding() { release(); }
  InputBinding(const InputBinding&) = delete;
  InputBinding& operator=(const InputBinding&) = delete;

  // Binds `buf` (laid out as `info`, or as its GstVideoMeta) for the GPU; `staging` is the
  // slot's staging buffer, grown as needed. Device memory of another device is read back by a
  // CPU map and staged. Returns false with `error` set when the buffer is
  // malformed (too small for its layout).
  bool bind(const std::shared_ptr<Device>& device, GstBuffer* buf, const GstVideoInfo& info,
            std::unique_ptr<Buffer>& staging, FrameLayout& layout, std::string& error);
  void release();
  // bind() of `copy`, a copy in host memory of the frame (VulkanBridge::copy()), which the binding
  // holds until release().
  bool bind_copy(const std::shared_ptr<Device>& device, GstBuffer* copy, const GstVideoInfo& info,
                 std::unique_ptr<Buffer>& staging, FrameLayout& layout, std::string& error) {
    release();
    copy_ = copy;
    return bind(device, copy, info, staging, layout, error);
  }
  // The frame is read from `copy` (kCuda: made for it, by CudaFrames::bind_input(); kCudaCopy: made
  // before, cuda_copy_of()), held until release().
  void bound_from_cuda(std::shared_ptr<const CudaCopy> copy, InputPath path) {
    release();
    path_ = path;
    cuda_copy_ = std::move(copy);
  }
  const CudaCopy* cuda_copy() const { return cuda_copy_.get(); }
  // The frame is GStreamer's images on the device we run on, read by the frame's own commands.
  void bound_from_vulkan_image() {
    release();
    path_ = InputPath::kVulkanImage;
  }
  InputPath path() const { return path_; }
  // kGathered: records copying each memory's bytes to its place in `to` (at least the buffer's
  // size), laid out as one memory would be; `layout` from bind() then reads `to`. Ordered before
  // later dispatches by the caller's barrier.
  void record_gather(Commands cmd, vk::Buffer to) const;
  // Whether the GPU reads the frame from host memory (an upload, in the element's counts).
  bool from_host() const {
    return path_ != InputPath::kDevice && path_ != InputPath::kCuda && path_ != InputPath::kCudaCopy &&
           path_ != InputPath::kVulkanImage;
  }
  // Whether release(), with `buf` let go of, may free an import of host memory, which unpins its
  // pages (0.6-0.9 ms for a 1080p RGBA frame on the H200): an import for this frame only, or the
  // import cached on our host memory whose buffer goes with this reference, having no pool to go
  // back to (plain system memory goes on the reaper's thread: hostimports.hpp). Read when the frame
  // is found done: a reference let go of between then and the finish may still make the release
  // unpin on the service's thread (a guess, not a promise).
  bool may_unpin(GstBuffer* buf) const;

 private:
  // A memory made GPU-visible: its bytes are `size` bytes at `offset` of `buffer`.
  struct Piece {
    vk::Buffer buffer;
    vk::DeviceSize offset = 0, size = 0;
  };
  // Lets go of the maps and imports, not of bind_copy()'s copy (the staging fallback reads it).
  void unbind();
  // Makes `mem` GPU-visible in place (our host memory, or an import), keeping its map; false when
  // it cannot be.
  bool bind_memory(const std::shared_ptr<Device>& device, GstBuffer* buf, GstMemory* mem, Piece& piece,
                   std::string& why);

  std::vector<std::pair<GstMemory*, GstMapInfo>> maps_;
  std::vector<std::unique_ptr<Buffer>>
      imports_;                // per-frame imports of memory that is not plain system memory
  std::vector<Piece> pieces_;  // kGathered: the buffer's memories, in order
  InputPath path_ = InputPath::kOwnMemory;
  std::shared_ptr<const CudaCopy> cuda_copy_;  // kCuda, kCudaCopy
  bool own_memory_import_ = false;             // a piece is our host memory (another device's), imported
  GstBuffer* copy_ = nullptr;                  // bind_copy()'s copy, a reference
};

// Rows and bytes per row of plane `plane` of `info`: the most any of its components spans. A packed
// 4:2:2 row (YUY2) of odd width ends with a whole macro-pixel, whose chroma reaches past the last
// luma sample.
void plane_extent(const GstVideoInfo& info, guint plane, guint& rows, gsize& row_bytes);

// Layout of `buf` (its GstVideoMeta or else `info`) whose data begins at byte `base` of `buffer`.
// False when the planes do not fit in the buffer's `size` bytes or a stride is negative.
bool frame_layout(GstBuffer* buf, const GstVideoInfo& info, vk::Buffer buffer, vk::DeviceSize base,
                  FrameLayout& layout, std::string& error);

const char* input_path_name(InputPath path);

// A part of a frame: planes [first_plane, end_plane) and, counted in frame rows, rows [y0, y1); a
// subsampled plane's part is every row of it that covers one of those. The whole frame by default.
struct FramePart {
  guint first_plane = 0;
  guint end_plane = GST_VIDEO_MAX_PLANES;
  guint y0 = 0;
  guint y1 = G_MAXUINT;
};

// Records copying `part` of a frame laid out as `info` from `in` to `out` (strides may differ),
// with no barrier: for the copy queues, whose order comes from semaphores. False when the part is
// empty.
bool record_frame_transfer(Commands cmd, const GstVideoInfo& info, const FrameLayout& in,
                           const FrameLayout& out, const FramePart& part = {});

// The same, ordered before the dispatches recorded after it.
void record_frame_copy(Commands cmd, const GstVideoInfo& info, const FrameLayout& in, const FrameLayout& out,
                       const FramePart& part = {});

// `layout`'s planes [0, n_planes) with the same strides, moved so that the first byte they use is
// byte 0 (the buffer is left for the caller to set); `bytes` is the size they span.
FrameLayout packed_from_zero(const GstVideoInfo& info, const FrameLayout& layout, guint n_planes,
                             vk::DeviceSize& bytes);

}  // namespace vkc
