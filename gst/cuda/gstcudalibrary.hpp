// GStreamer's CUDA library (libgstcuda-1.0, of gst-plugins-bad), loaded at run time: the functions
// of it that our elements call to share CUDA contexts with NVIDIA's elements (the context
// "gst.cuda.context") and to make frames in its memory. Not linked at build time for the reasons
// gstcudamemory.hpp gives; a process with NVIDIA's elements has the library loaded already, and
// one without the library has no frames in CUDA memory to exchange.
#pragma once

#include <gst/gst.h>

#include <string>

namespace vkc::cuda {

// The functions used, as gst/cuda/gstcuda*.h (1.22) declare them; `context` is a GstCudaContext*.
struct GstCudaLibrary {
  gpointer (*context_get_handle)(gpointer context);  // the CUcontext
  GstBufferPool* (*buffer_pool_new)(gpointer context);
  gboolean (*ensure_element_context)(GstElement* element, gint device_id, gpointer* context);
  gboolean (*handle_set_context)(GstElement* element, GstContext* gst_context, gint device_id,
                                 gpointer* context);
  gboolean (*handle_context_query)(GstElement* element, GstQuery* query, gpointer context);
  // GStreamer 1.24 and later; null before: waits until the work of the memory's CUDA stream is done.
  void (*memory_sync)(GstMemory* memory);
};

// The library, loaded once per process (and CUDA through it, as its own elements do); null with
// `why` set when it is not installed or lacks a function.
const GstCudaLibrary* gst_cuda_library(std::string& why);

}  // namespace vkc::cuda
