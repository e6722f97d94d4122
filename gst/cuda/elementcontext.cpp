#include "elementcontext.hpp"

#include "bridge.hpp"
#include "gstcudalibrary.hpp"
#include "gstcudamemory.hpp"

namespace vkc::cuda {

ElementContext::~ElementContext() {
  if (context_) gst_object_unref(context_);
}

void ElementContext::set(GstElement* element, GstContext* context, const Device* device) {
  // Other contexts (GL, the application's) load no CUDA.
  if (g_strcmp0(gst_context_get_context_type(context), kContextType) != 0) return;
  std::string why;
  const GstCudaLibrary* library = gst_cuda_library(why);
  if (!library) return;
  const int ordinal = device ? device_ordinal(*device) : -1;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  // Keeps the one held (the library replaces none), or takes this one if it is of that GPU.
  library->handle_set_context(element, context, ordinal, &context_);
}

bool ElementContext::answer(GstElement* element, GstQuery* query) {
  if (GST_QUERY_TYPE(query) != GST_QUERY_CONTEXT) return false;
  std::string why;
  const GstCudaLibrary* library = gst_cuda_library(why);
  std::lock_guard<std::recursive_mutex> lock(lock_);
  return library && context_ && library->handle_context_query(element, query, context_);
}

gpointer ElementContext::ensure(GstElement* element, int device, std::string& why) {
  const GstCudaLibrary* library = gst_cuda_library(why);
  if (!library) return nullptr;
  std::lock_guard<std::recursive_mutex> lock(lock_);
  // The library's queries and NEED_CONTEXT end in set_context() (set()), which fills context_; a
  // new context is made only when none comes.
  if (!library->ensure_element_context(element, device, &context_) || !context_) {
    why = "no CUDA context for CUDA device " + std::to_string(device);
    return nullptr;
  }
  return context_;
}

}  // namespace vkc::cuda
