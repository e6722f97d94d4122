// The CUDA context an element of ours shares with NVIDIA's elements (GStreamer's context
// "gst.cuda.context"), through GStreamer's CUDA library (gstcudalibrary.hpp) as those elements do:
// taken from set_context() (a context a neighbour posted, or the application's), given to CONTEXT
// queries, and found or made when the element makes frames in CUDA memory (ensure()).
#pragma once

#include <gst/gst.h>

#include <mutex>
#include <string>

namespace vkc {
class Device;
}

namespace vkc::cuda {

class ElementContext {
 public:
  ElementContext() = default;
  ~ElementContext();
  ElementContext(const ElementContext&) = delete;
  ElementContext& operator=(const ElementContext&) = delete;

  // GstElement::set_context(): keeps `context` when it is a CUDA context of the GPU that is Vulkan
  // device `device` (null: any GPU, before the device is open).
  void set(GstElement* element, GstContext* context, const Device* device);
  // Answers a CONTEXT query for "gst.cuda.context" with the context held; false for other queries,
  // or when none is held.
  bool answer(GstElement* element, GstQuery* query);
  // The context for CUDA device `device` (a GstCudaContext*, valid while held): the one held, else
  // one of the elements around (queries both ways, then NEED_CONTEXT to the application), else a new
  // one, which the element posts (HAVE_CONTEXT) for the others. Null with `why` set.
  gpointer ensure(GstElement* element, int device, std::string& why);

 private:
  // set() comes from the application's thread, the others from streaming threads; recursive, as
  // ensure() holds it while GStreamer's CUDA library asks the elements around, whose answer comes
  // back through set() on the same thread.
  std::recursive_mutex lock_;
  gpointer context_ = nullptr;
};

}  // namespace vkc::cuda
