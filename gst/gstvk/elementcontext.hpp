// The Vulkan instance, device and queue that an element of ours shares with GStreamer's Vulkan
// elements (the contexts "gst.vulkan.instance", "gst.vulkan.device" and "gst.vulkan.queue"), taken
// and answered the way those elements do (through gstvk/library.hpp): the instance from
// set_context(), the device and queue from the elements around at start, CONTEXT queries answered
// while they are held. Where none of those elements has a device yet, an element of ours makes one
// on GStreamer's instance (GStreamer 1.24 and later; 1.22 opens its devices with no Vulkan feature,
// so none of its devices could ever be shared), with the extensions our frames need, for them to
// take: it is opened on the GPU of the element's own device.
#pragma once

#include <gst/gst.h>

#include <mutex>

#include "gstvk/library.hpp"

namespace vkc {
class Device;
}

namespace vkc::gstvk {

class ElementContext {
 public:
  ElementContext() = default;
  ~ElementContext();
  ElementContext(const ElementContext&) = delete;
  ElementContext& operator=(const ElementContext&) = delete;

  // GstElement::set_context(): GStreamer's instance, when `context` carries one.
  void set(GstElement* element, GstContext* context);
  // Answers a CONTEXT query for GStreamer's instance, device or queue with the one held; false for
  // other queries, or when none is held.
  bool answer(GstElement* element, GstQuery* query);
  // At the element's start, on its open device `ours`: the device that the application set on the
  // element (a "gst.vulkan.device" context), else, when `vulkan_near` (a Vulkan element of
  // GStreamer's is next to the element, through queues and capsfilters), the device of the elements
  // around, else one made on GStreamer's instance (1.24+), and a queue of it.
  void start(GstElement* element, const Device& ours, bool vulkan_near);
  // At stop: lets go of the device and queue (the instance stays, as set_context() gave it).
  void stop();

  // At a frame of GStreamer's on `device`: the queue that the elements on the pad of `side` (GST_PAD_SINK:
  // upstream, which made an input frame; GST_PAD_SRC: downstream, whose pool made an output frame) submit
  // on and lock (asked now: at start() they may have had none), else the one held when it is of `device`;
  // a new reference, or null. Theirs is held from then on, for the elements around, where no device was
  // held or this one (on GStreamer 1.22, where no device is made at start, theirs).
  GstVulkanQueue* queue_of(GstElement* element, GstVulkanDevice* device, GstPadDirection side);
  // The device held, else the one the elements downstream answer a CONTEXT query with (held from then
  // on): a new reference, or null. For a pool of GStreamer's images for the element's output.
  GstVulkanDevice* device_downstream(GstElement* element);

  // The device held (valid while held), or null.
  GstVulkanDevice* device();
  // The queue held (valid while held), or null.
  GstVulkanQueue* queue();

 private:
  // Makes a device on the instance held, on the GPU of `ours`, with the extensions that frames
  // exchanged with our elements need where the GPU has them. Lock held.
  GstVulkanDevice* make_device(GstElement* element, const GstVulkanLibrary& library, const Device& ours);

  // set() comes from the application's thread or the bin's, the others from state changes and
  // streaming threads; recursive, as GStreamer's library asks the elements around and the
  // application while start() holds it, and their answer comes back through set() on this thread.
  std::recursive_mutex lock_;
  GstVulkanInstance* instance_ = nullptr;
  GstVulkanDevice* device_ = nullptr;
  GstVulkanQueue* queue_ = nullptr;
};

}  // namespace vkc::gstvk
