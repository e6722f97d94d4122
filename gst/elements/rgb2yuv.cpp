// rgb2yuv: packed RGB to planar, semi-planar and packed YUV on the GPU, with the matrix, range and
// chroma siting of the output caps.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <memory>

#include "base/computefilter.hpp"
#include "base/samples.hpp"
#include "elements.hpp"
#include "rgb2yuv.spv.h"
#include "rgb2yuv_layout.h"
#include "vk/kernel.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_rgb2yuv_debug);
#define GST_CAT_DEFAULT gst_rgb2yuv_debug

#define SINK_FORMATS \
  "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGBA64_LE, BGR10A2_LE, RGB10A2_LE }"
#define SRC_FORMATS                                                                                    \
  "{ I420, YV12, NV12, NV21, Y42B, Y444, YUY2, UYVY, AYUV, P010_10LE, P016_LE, I420_10LE, I420_12LE, " \
  "I422_10LE, Y444_10LE, Y444_16LE }"

namespace {

// The kernel's layouts, blocks, workgroup and push constants (shaders/rgb2yuv_layout.h).
using vkc::shader::rgb2yuv::kAyuvBlockWidth;
using vkc::shader::rgb2yuv::kBlockWidth;
using vkc::shader::rgb2yuv::kGroupX;
using vkc::shader::rgb2yuv::kGroupY;
using vkc::shader::rgb2yuv::kLayoutAyuv;
using vkc::shader::rgb2yuv::kLayoutPacked422;
using vkc::shader::rgb2yuv::kLayoutPlanar;
using vkc::shader::rgb2yuv::kLayoutSemiPlanar;
using vkc::shader::rgb2yuv::kNoAlpha;
using vkc::shader::rgb2yuv::Params;

uint32_t byte_order(const GstVideoFormatInfo* finfo, std::initializer_list<int> components) {
  uint32_t order = 0, shift = 0;
  for (int c : components) {
    uint32_t at = c < 0 ? kNoAlpha : GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c);
    order |= at << shift;
    shift += 8;
  }
  return order;
}

// The SRC_ORDER specialization constant of an input deeper than 8 bits: the first bit of R, G, B and
// A in the pixel.
uint32_t bit_order(GstVideoFormat format, bool alpha) {
  uint32_t order = 0;
  for (guint c = 0; c < 4; ++c) {
    const vkc::SampleLayout s = vkc::sample_layout(format, c);
    order |= (c == 3 && !alpha ? kNoAlpha : s.offset * 8 + s.shift) << (8 * c);
  }
  return order;
}

// The kernel's LAYOUT for `format`.
uint32_t layout_of(GstVideoFormat format) {
  switch (format) {
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_P016_LE: return kLayoutSemiPlanar;
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_UYVY: return kLayoutPacked422;
    case GST_VIDEO_FORMAT_AYUV: return kLayoutAyuv;
    default: return kLayoutPlanar;
  }
}

// What rgb2yuv does to each frame.
class Rgb2YuvOperation final : public vkc::FilterOperation {
 public:
  using FilterOperation::FilterOperation;
  std::unique_ptr<vkc::CapsState> configure(const std::shared_ptr<vkc::Device>& device,
                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                            GError** error) override;
  bool record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
};

}  // namespace

// Everything derived from the negotiated caps.
struct Rgb2YuvState : vkc::CapsState {
  std::unique_ptr<vkc::Kernel> kernel;
  Params params;  // plane offsets and strides filled per frame
  const GstVideoFormatInfo* out_format;
  uint32_t sub_y;
  uint32_t block_width;
};

struct GstRgb2Yuv {
  GstVkComputeFilter parent;
};

struct GstRgb2YuvClass {
  GstVkComputeFilterClass parent_class;
};

G_DEFINE_TYPE(GstRgb2Yuv, gst_rgb2yuv, GST_TYPE_VKCOMPUTE_FILTER)
GST_ELEMENT_REGISTER_DEFINE(rgb2yuv, "rgb2yuv", GST_RANK_NONE, gst_rgb2yuv_get_type())

// Y, U, V as dot(coef.xyz, rgb) + coef.w for rgb in input code values (0..in_max), in code values
// of the output's depth, from the matrix and range of `out` (GStreamer's offsets and scales for
// that depth: limited 10-bit Y 64..940, C 64..960, as BT.2100).
static void fill_coefficients(const GstVideoInfo* out, gdouble in_max, Params& params) {
  gdouble kr, kb;
  if (!gst_video_color_matrix_get_Kr_Kb(out->colorimetry.matrix, &kr, &kb)) {
    GST_WARNING("no YUV matrix in the output colorimetry; using BT.601");
    gst_video_color_matrix_get_Kr_Kb(GST_VIDEO_COLOR_MATRIX_BT601, &kr, &kb);
  }
  const gdouble kg = 1.0 - kr - kb;
  gint offset[GST_VIDEO_MAX_COMPONENTS], scale[GST_VIDEO_MAX_COMPONENTS];
  gst_video_color_range_offsets(out->colorimetry.range, out->finfo, offset, scale);
  const gdouble sy = scale[0] / in_max, su = scale[1] / in_max / (2.0 * (1.0 - kb)),
                sv = scale[2] / in_max / (2.0 * (1.0 - kr));
  const gdouble y[4] = {sy * kr, sy * kg, sy * kb, gdouble(offset[0])};
  const gdouble u[4] = {-su * kr, -su * kg, su * (1.0 - kb), gdouble(offset[1])};
  const gdouble v[4] = {sv * (1.0 - kr), -sv * kg, -sv * kb, gdouble(offset[2])};
  for (int i = 0; i < 4; ++i) {
    params.coef_y[i] = float(y[i]);
    params.coef_u[i] = float(u[i]);
    params.coef_v[i] = float(v[i]);
  }
}

std::unique_ptr<vkc::CapsState> Rgb2YuvOperation::configure(const std::shared_ptr<vkc::Device>& device,
                                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                                            GError** error) {
  const GstVideoFormatInfo* in_f = in.finfo;
  const GstVideoFormatInfo* out_f = out.finfo;
  const uint32_t layout = layout_of(GST_VIDEO_INFO_FORMAT(&out));
  const uint32_t sub_x = 1u << GST_VIDEO_FORMAT_INFO_W_SUB(out_f, 1);
  const uint32_t sub_y = 1u << GST_VIDEO_FORMAT_INFO_H_SUB(out_f, 1);
  // A chroma sample shared by two rows would mix the two fields of an interlaced frame (videoconvert
  // subsamples each field on its own): refused rather than converted wrongly.
  if (GST_VIDEO_INFO_IS_INTERLACED(&in) && sub_y > 1) {
    g_set_error(error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                "interlaced frames (interlace-mode=%s) cannot become %s, whose chroma rows span two "
                "fields: deinterlace first, or convert to a format without vertical subsampling",
                gst_video_interlace_mode_to_string(GST_VIDEO_INFO_INTERLACE_MODE(&in)),
                GST_VIDEO_INFO_NAME(&out));
    return nullptr;
  }
  // Vertical siting is always centred between the two rows, as videoconvert does.
  const bool cosited = (out.chroma_site & GST_VIDEO_CHROMA_SITE_H_COSITED) && sub_x == 2;

  auto state = std::make_unique<Rgb2YuvState>();
  state->out_format = out_f;
  state->sub_y = sub_y;
  state->block_width = layout == kLayoutAyuv ? kAyuvBlockWidth : kBlockWidth;
  Params& params = state->params;
  params = Params{};
  params.width = GST_VIDEO_INFO_WIDTH(&in);
  params.height = GST_VIDEO_INFO_HEIGHT(&in);
  const GstVideoFormat in_format = GST_VIDEO_INFO_FORMAT(&in), out_format = GST_VIDEO_INFO_FORMAT(&out);
  const vkc::SampleLayout in_red = vkc::sample_layout(in_format, 0),
                          in_alpha = vkc::sample_layout(in_format, 3);
  const vkc::SampleLayout out_y = vkc::sample_layout(out_format, 0),
                          out_u = vkc::sample_layout(out_format, 1);
  const bool alpha = GST_VIDEO_FORMAT_INFO_HAS_ALPHA(in_f);
  // The byte orders are specialization constants (SRC_ORDER, DST_ORDER): a pipeline per order, and
  // no run-time selects in the kernel's unpacking and packing.
  const uint32_t src_order =
      in_red.depth == 8 ? byte_order(in_f, {0, 1, 2, alpha ? 3 : -1}) : bit_order(in_format, alpha);
  uint32_t dst_order = 0;
  switch (layout) {
    case kLayoutSemiPlanar: dst_order = out_u.offset / out_u.bytes; break;  // 1: V first
    case kLayoutPacked422: {
      // Byte positions of Y0, U, Y1, V in a macropixel; Y1 follows Y0 by two bytes.
      const uint32_t y0 = GST_VIDEO_FORMAT_INFO_POFFSET(out_f, 0);
      dst_order = y0 | (GST_VIDEO_FORMAT_INFO_POFFSET(out_f, 1) << 8) | ((y0 + 2) << 16) |
                  (GST_VIDEO_FORMAT_INFO_POFFSET(out_f, 2) << 24);
      break;
    }
    case kLayoutAyuv: dst_order = byte_order(out_f, {3, 0, 1, 2}); break;
    case kLayoutPlanar: break;
  }
  fill_coefficients(&out, gdouble((1u << in_red.depth) - 1), params);

  vkc::KernelInfo info{
      .name = "rgb2yuv",
      .spirv = rgb2yuv_spv,
      .spirv_bytes = sizeof(rgb2yuv_spv),
      .bindings = 5,  // in, out, then the same two again for vector access
      .push_constant_bytes = sizeof(Params),
      .specialization = {kGroupX, kGroupY, uint32_t(GST_VIDEO_FORMAT_INFO_PSTRIDE(in_f, 0)), layout, sub_x,
                         sub_y, cosited ? 1u : 0u, state->block_width, in_red.depth,
                         alpha ? in_alpha.depth : 8, out_y.depth, out_y.shift, src_order, dst_order}};
  state->kernel = std::make_unique<vkc::Kernel>(device, info);
  // RGBA64_LE: a block's 64 bytes are four 16-byte loads a subgroup spreads 64 bytes apart, which a
  // discrete GPU reads from host memory at a fraction of the link's rate: it reads a device copy.
  if (GST_VIDEO_FORMAT_INFO_PSTRIDE(in_f, 0) == 8) state->input_reads = {.planes = 1, .load_bytes = 8};

  gchar* colorimetry = gst_video_colorimetry_to_string(&out.colorimetry);
  GST_INFO_OBJECT(element_, "%s -> %s, colorimetry %s, chroma %s", GST_VIDEO_INFO_NAME(&in),
                  GST_VIDEO_INFO_NAME(&out), colorimetry, cosited ? "cosited" : "centred");
  g_free(colorimetry);
  return state;
}

bool Rgb2YuvOperation::record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto& state = static_cast<Rgb2YuvState&>(caps);
  Params& params = state.params;
  params.src_offset = frame.in.offset[0];
  params.src_stride = frame.in.stride[0];
  // Planes by component, so YV12's swapped planes need no special case.
  for (int c = 0; c < 3; ++c) {
    guint plane = GST_VIDEO_FORMAT_INFO_PLANE(state.out_format, c);
    params.dst_offset[c] = frame.out.offset[plane];
    params.dst_stride[c] = frame.out.stride[plane];
    if ((params.dst_offset[c] | params.dst_stride[c]) & 3u) {
      g_set_error(error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
                  "output plane %u is not 32-bit aligned (offset %u, stride %u)", plane, params.dst_offset[c],
                  params.dst_stride[c]);
      return false;
    }
  }
  const uint32_t blocks_x = (params.width + state.block_width - 1) / state.block_width;
  const uint32_t rows = (params.height + state.sub_y - 1) / state.sub_y;
  state.kernel->update(
      frame.slot,
      {{frame.in.buffer}, {frame.out.buffer}, {frame.in.buffer}, {frame.out.buffer}, {frame.out.buffer}});
  state.kernel->dispatch(frame.cmd, frame.slot, &params, (blocks_x + kGroupX - 1) / kGroupX,
                         (rows + kGroupY - 1) / kGroupY);
  return true;
}

// Each structure keeps its size and rate; the format becomes the other side's list, and the
// colorimetry and siting, which only one side's formats can carry, are left to negotiation.
static GstCaps* gst_rgb2yuv_transform_formats(GstPadDirection direction, GstCaps* caps) {
  GstCaps* formats = gst_caps_from_string(direction == GST_PAD_SINK ? "video/x-raw, format=" SRC_FORMATS
                                                                    : "video/x-raw, format=" SINK_FORMATS);
  const GValue* format_list = gst_structure_get_value(gst_caps_get_structure(formats, 0), "format");
  GstCaps* result = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    GstStructure* s = gst_structure_copy(gst_caps_get_structure(caps, i));
    gst_structure_set_value(s, "format", format_list);
    gst_structure_remove_fields(s, "colorimetry", "chroma-site", nullptr);
    result = gst_caps_merge_structure(result, s);
  }
  gst_caps_unref(formats);
  return result;
}

// Fixes the output colorimetry and chroma siting explicitly (GStreamer's defaults for the size when
// downstream leaves them open), so the caps say which matrix, range and siting the frames carry.
static GstCaps* gst_rgb2yuv_fixate_caps(GstBaseTransform* trans, GstPadDirection direction, GstCaps* caps,
                                        GstCaps* othercaps) {
  othercaps =
      GST_BASE_TRANSFORM_CLASS(gst_rgb2yuv_parent_class)->fixate_caps(trans, direction, caps, othercaps);
  if (direction != GST_PAD_SINK) return othercaps;
  othercaps = gst_caps_make_writable(othercaps);
  GstStructure* s = gst_caps_get_structure(othercaps, 0);
  GstVideoInfo info;
  if (!gst_video_info_from_caps(&info, othercaps)) return othercaps;
  if (!gst_structure_has_field(s, "colorimetry")) {
    gchar* colorimetry = gst_video_colorimetry_to_string(&info.colorimetry);
    if (colorimetry) gst_structure_set(s, "colorimetry", G_TYPE_STRING, colorimetry, nullptr);
    g_free(colorimetry);
  }
  if (!gst_structure_has_field(s, "chroma-site")) {
    gchar* site = gst_video_chroma_site_to_string(info.chroma_site);
    if (site) gst_structure_set(s, "chroma-site", G_TYPE_STRING, site, nullptr);
    g_free(site);
  }
  return othercaps;
}

static void gst_rgb2yuv_init(GstRgb2Yuv* self) {
  gst_vkcompute_filter_set_operation(GST_VKCOMPUTE_FILTER(self),
                                     std::make_unique<Rgb2YuvOperation>(GST_ELEMENT(self)));
}

static void gst_rgb2yuv_class_init(GstRgb2YuvClass* klass) {
  auto* element_class = GST_ELEMENT_CLASS(klass);
  auto* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  auto* filter_class = reinterpret_cast<GstVkComputeFilterClass*>(klass);
  GST_DEBUG_CATEGORY_INIT(gst_rgb2yuv_debug, "rgb2yuv", 0, "RGB to YUV conversion on Vulkan");

  gst_element_class_set_static_metadata(
      element_class, "RGB to YUV (Vulkan compute)", "Filter/Converter/Video",
      "Converts packed RGB to planar, semi-planar or packed YUV on a Vulkan device, with the matrix, range "
      "and chroma siting of the output caps",
      "gst-vkcompute developers");
  gst_vkcompute_filter_class_add_pad_templates(filter_class, GST_VIDEO_CAPS_MAKE(SINK_FORMATS),
                                               GST_VIDEO_CAPS_MAKE(SRC_FORMATS));

  filter_class->transform_formats = gst_rgb2yuv_transform_formats;
  trans_class->fixate_caps = gst_rgb2yuv_fixate_caps;
}
