// Frames in GStreamer's CUDA memory (memory:CUDAMemory, what nvh264dec and the other NVIDIA
// decoders output), read without GStreamer's CUDA library at build time: Debian 12's development
// package of it (libgstreamer-plugins-bad1.0-dev) pulls in OpenCV's development files, and its
// 1.22 headers include a cuda.h that no Debian package installs. What is used of it is the memory
// type's name, its map flag and the one public field of its memory, all part of GStreamer's ABI,
// and functions of the library looked up at run time (gstcudalibrary.hpp).
#pragma once

#include <gst/gst.h>

#include <string>

namespace vkc::cuda {

// GStreamer's names (gst/cuda/gstcudamemory.h).
constexpr const char* kMemoryType = "gst.cuda.memory";     // GST_CUDA_MEMORY_TYPE_NAME
constexpr const char* kCapsFeature = "memory:CUDAMemory";  // GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
constexpr const char* kContextType = "gst.cuda.context";   // GST_CUDA_CONTEXT_TYPE
// GST_MAP_CUDA: a map with it gives the device address of the memory, not a copy in host memory.
constexpr GstMapFlags kMapCuda = GstMapFlags(GST_MAP_FLAG_LAST << 1);

// GST_CUDA_MEMORY_TRANSFER_NEED_SYNC (GStreamer 1.24 and later): the memory was written on a CUDA
// stream of its writer's that may still be running (cudaupload, cudaconvert and cudascale push such
// frames; NVIDIA's decoders wait for their work first).
constexpr GstMemoryFlags kTransferNeedSync = GstMemoryFlags(GST_MEMORY_FLAG_LAST << 2);

// Before a read of `memory` (GStreamer's CUDA memory) on another stream: waits for its writer's
// stream when the memory says it may still be written (1.24 and later; GStreamer 1.22 synchronises
// at each write itself and has no such flag).
void wait_for_writer(GstMemory* memory);

// Whether `buffer` is one memory of GStreamer's CUDA memory.
bool is_cuda_frame(GstBuffer* buffer);

// The CUDA device (ordinal) of the CUDA context of the elements upstream of `element`'s sink pad
// (GStreamer's context "gst.cuda.context", which NVIDIA's decoders share through a CONTEXT query),
// or -1 when none answers.
int upstream_cuda_device(GstElement* element);

// The CUDA context (a CUcontext) of `memory`, GStreamer's CUDA memory; null with `error` set
// when it cannot be known. `owner`, when given, is set to the GstCudaContext that holds it (no
// reference taken).
void* context_of(GstMemory* memory, std::string& error, GObject** owner = nullptr);

}  // namespace vkc::cuda
