#include "deviceopen.hpp"

#include <string>

#include "cuda/bridge.hpp"
#include "cuda/gstcudamemory.hpp"
#include "memorycaps.hpp"

GST_DEBUG_CATEGORY_EXTERN(gst_vkcompute_filter_debug);
#define GST_CAT_DEFAULT gst_vkcompute_filter_debug

namespace vkc {
namespace {

// A CPU implementation of Vulkan (Mesa's lavapipe) runs the kernels on the host's cores, far
// slower than a GPU and than the CPU elements ours replace. When the automatic choice lands on
// one (no GPU listed, or none usable) the user may not know: an element warning, which
// gst-launch-1.0 prints, at every start. A device the user named (`device`, GST_VKCOMPUTE_DEVICE)
// was chosen knowingly: it is only logged.
void report_cpu_device(GstElement* self, const Device& device, const DeviceChoiceInfo& info) {
  if (!device.is_cpu()) return;
  if (info.choice != DeviceChoice::kAutomatic) {
    GST_INFO_OBJECT(self, "Vulkan device %d (%s) is a CPU implementation, chosen by %s", device.index(),
                    device.name().c_str(),
                    info.choice == DeviceChoice::kIndex          ? "the device property"
                    : info.choice == DeviceChoice::kNeighbours   ? "the elements of ours beside it"
                    : info.choice == DeviceChoice::kCudaUpstream ? "the CUDA context upstream"
                                                                 : "GST_VKCOMPUTE_DEVICE");
    return;
  }
  const std::string why = info.passed_over.empty()
                              ? "The Vulkan loader lists " + std::to_string(info.listed) +
                                    " device(s), none of them a GPU; a GPU needs its vendor's Vulkan driver."
                              : "The automatic choice passed over: " + info.passed_over + ".";
  GST_ELEMENT_WARNING(self, RESOURCE, NOT_FOUND,
                      ("The Vulkan device chosen automatically, %s, is a CPU implementation of Vulkan, not a "
                       "GPU: frames are processed on the CPU and will be slow. No usable GPU was found; to "
                       "run on one, pick it with the device property (device=N) or GST_VKCOMPUTE_DEVICE=N.",
                       device.name().c_str()),
                      ("Vulkan device %d. %s vulkaninfo --summary lists the devices in the order of their "
                       "indices.",
                       device.index(), why.c_str()));
}

}  // namespace

std::shared_ptr<Device> open_device(GstElement* element, gint index) {
  // Unset, the device follows the elements of ours around (their frames are in its memory), else the
  // GPU of a CUDA context upstream (a decoder's frames in CUDA memory are copied on that GPU).
  const bool automatic = index < 0 && Device::default_index() < 0;
  gint neighbours = automatic ? device_of_neighbours(element) : -1;
  // The neighbours run on GStreamer's device (deviceshare.hpp): ours on that GPU until this element's
  // start adopts the same.
  if (neighbours >= Device::kFirstAdoptedId) {
    if (auto adopted = Device::adopted_with_id(neighbours)) {
      GST_INFO_OBJECT(element, "using the Vulkan device of the elements of ours beside it, GStreamer's on %s",
                      adopted->name().c_str());
      return adopted;
    }
    neighbours = -1;
  }
  const gint cuda_device = automatic && neighbours < 0 ? cuda::upstream_cuda_device(element) : -1;
  const gint of_cuda = cuda_device >= 0 ? cuda::vulkan_index(cuda_device) : -1;
  std::string error;
  DeviceChoiceInfo choice;
  auto device = Device::acquire(neighbours >= 0 ? neighbours
                                : of_cuda >= 0  ? of_cuda
                                                : index,
                                error, &choice);
  if (!device) {
    GST_ELEMENT_ERROR(
        element, RESOURCE, NOT_FOUND, ("No usable Vulkan device: %s.", error.c_str()),
        ("device property %d, GST_VKCOMPUTE_DEVICE=%s, device of the elements of ours beside "
         "it %d",
         index, g_getenv("GST_VKCOMPUTE_DEVICE") ? g_getenv("GST_VKCOMPUTE_DEVICE") : "(unset)", neighbours));
    return nullptr;
  }
  if (neighbours >= 0) choice.choice = DeviceChoice::kNeighbours;
  if (neighbours < 0 && of_cuda >= 0) choice.choice = DeviceChoice::kCudaUpstream;
  GST_INFO_OBJECT(element, "using Vulkan device %d: %s%s", device->index(), device->name().c_str(),
                  choice.choice == DeviceChoice::kNeighbours
                      ? ", the device of the elements of ours beside it"
                  : choice.choice == DeviceChoice::kCudaUpstream ? ", the GPU of the CUDA context upstream"
                                                                 : "");
  report_cpu_device(element, *device, choice);
  return device;
}

}  // namespace vkc
