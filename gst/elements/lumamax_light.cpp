#include "lumamax_light.hpp"

#include <algorithm>
#include <string>

#include "base/analysis.hpp"
#include "base/samples.hpp"
#include "lumamax_light.spv.h"

namespace vkc::lumamax {

using shader::light::kLightGroupX;
using shader::light::kLightGroupY;
using shader::light::kLightTileHeight;
using shader::light::kLightTileWidth;
using shader::light::kTransferHlg;
using shader::light::kTransferPq;
using shader::light::LightParams;

std::unique_ptr<LightMeter> LightMeter::create(const std::shared_ptr<Device>& device,
                                               const GstVideoInfo& in) {
  switch (in.colorimetry.transfer) {
    case GST_VIDEO_TRANSFER_SMPTE2084:
      return std::unique_ptr<LightMeter>(new LightMeter(device, in, kTransferPq));
    case GST_VIDEO_TRANSFER_ARIB_STD_B67:
      return std::unique_ptr<LightMeter>(new LightMeter(device, in, kTransferHlg));
    default: return nullptr;
  }
}

LightMeter::LightMeter(const std::shared_ptr<Device>& device, const GstVideoInfo& in, uint32_t transfer)
    : device_(device) {
  const GstVideoFormat format = GST_VIDEO_INFO_FORMAT(&in);
  const bool rgb = GST_VIDEO_FORMAT_INFO_IS_RGB(in.finfo);
  // The caps' range at each component's depth, as GStreamer defines it: limited 10-bit Y' 64..940,
  // Cb and Cr 64..960 around 512.
  gint black[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gst_video_color_range_offsets(in.colorimetry.range, in.finfo, black, scale);
  guint sample_bytes = 1;
  const bool gray = GST_VIDEO_INFO_N_COMPONENTS(&in) == 1;
  for (guint c = 0; c < 3; ++c) {
    // Gray: Y' three times, and a zero matrix below, so that R' = G' = B' = Y'.
    const SampleLayout s = sample_layout(format, gray ? 0 : c);
    params_.black[c] = float(black[gray ? 0 : c]);
    params_.gain[c] = 1.0f / float(scale[gray ? 0 : c]);
    params_.shifts |= s.shift << (8 * c);
    params_.subsampling |= (s.w_sub | (s.h_sub << 4)) << (8 * c);
    params_.step[c] = s.pixel_stride;
    plane_[c] = s.plane;
    within_[c] = s.offset;
    params_.value_mask = (1u << s.depth) - 1;
    sample_bytes = s.bytes;
  }
  if (!rgb && !gray) {
    gdouble kr = 0.2627, kb = 0.0593;  // BT.2020, the matrix of BT.2100, when the caps name none
    gst_video_color_matrix_get_Kr_Kb(in.colorimetry.matrix, &kr, &kb);
    const gdouble kg = 1.0 - kr - kb;
    params_.to_rgb[0] = float(2.0 * (1.0 - kr));
    params_.to_rgb[1] = float(2.0 * kb * (1.0 - kb) / kg);
    params_.to_rgb[2] = float(2.0 * kr * (1.0 - kr) / kg);
    params_.to_rgb[3] = float(2.0 * (1.0 - kb));
  }
  kernel_ = std::make_unique<Kernel>(
      device,
      KernelInfo{.name = "lumamax light",
                 .spirv = lumamax_light_spv,
                 .spirv_bytes = sizeof(lumamax_light_spv),
                 .bindings = 2,
                 .push_constant_bytes = sizeof(LightParams),
                 .specialization = {kLightGroupX, kLightGroupY, sample_bytes, rgb ? 1u : 0u, transfer}});
}

bool LightMeter::record(Frame& frame, const std::vector<const FrameRegion*>& regions, GError** error) {
  Slot& slot = slots_[frame.slot];
  slot.first.clear();
  slot.pixels.clear();
  guint64 tiles = 0;
  for (const FrameRegion* r : regions) {
    slot.first.push_back(uint32_t(tiles));
    slot.pixels.push_back(r->pixels());
    tiles += guint64((r->x1 - r->x0 + kLightTileWidth - 1) / kLightTileWidth) *
             ((r->y1 - r->y0 + kLightTileHeight - 1) / kLightTileHeight);
  }
  slot.tiles = tiles;
  if (!slot.partials || tiles > slot.room) {
    const vk::DeviceSize bytes = tiles * 2 * sizeof(float);
    if (!fits_one_buffer(*device_, bytes, "the light statistics of " + std::to_string(tiles) + " tiles",
                         "use fewer or smaller regions, or light-statistics=false", error))
      return false;
    slot.partials = std::make_unique<Readback>(device_, bytes, bytes, "lumamax light partials");
    slot.room = tiles;
  }
  for (guint c = 0; c < 3; ++c) {
    params_.offset[c] = frame.in.offset[plane_[c]] + within_[c];
    params_.stride[c] = frame.in.stride[plane_[c]];
  }
  kernel_->update(frame.slot, {{frame.in.buffer}, {slot.partials->work()}});
  for (size_t i = 0; i < regions.size(); ++i) {
    const FrameRegion& r = *regions[i];
    params_.x0 = r.x0;
    params_.y0 = r.y0;
    params_.x1 = r.x1;
    params_.y1 = r.y1;
    params_.tiles_x = (r.x1 - r.x0 + kLightTileWidth - 1) / kLightTileWidth;
    params_.first = slot.first[i];
    kernel_->dispatch(frame.cmd, frame.slot, &params_, params_.tiles_x,
                      (r.y1 - r.y0 + kLightTileHeight - 1) / kLightTileHeight);
  }
  slot.partials->record_copy(frame.cmd);
  return true;
}

Light LightMeter::result(uint32_t slot_index, guint i) const {
  const Slot& slot = slots_[slot_index];
  const float* partials = reinterpret_cast<const float*>(slot.partials->result());
  const guint64 end = i + 1 < slot.first.size() ? slot.first[i + 1] : slot.tiles;
  Light light;
  double sum = 0;
  for (guint64 t = slot.first[i]; t < end; ++t) {
    light.max = std::max(light.max, double(partials[2 * t]));
    sum += partials[2 * t + 1];
  }
  light.average = slot.pixels[i] ? sum / double(slot.pixels[i]) : 0.0;
  return light;
}

}  // namespace vkc::lumamax
