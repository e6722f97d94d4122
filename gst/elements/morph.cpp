// morph: erosion, dilation, opening, closing, gradient, top-hat and black-hat with rectangle, cross
// and ellipse masks of any odd size, on the GPU; results equal OpenCV's morphologyEx.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <memory>
#include <string>

#include "base/computefilter.hpp"
#include "base/properties.hpp"
#include "elements.hpp"
#include "morph_layout.h"
#include "morph_passes.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_morph_debug);
#define GST_CAT_DEFAULT gst_morph_debug

#define FORMATS                                                                                      \
  "{ GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, I420, NV12, Y444, " \
  "P010_10LE, P016_LE, I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE, RGBA64_LE, BGR10A2_LE }"

using vkc::morph::Operation;
using vkc::morph::Settings;
using vkc::morph::Shape;

namespace {

constexpr guint kMaxSize = vkc::shader::morph::kMaxMaskSize, kMaxIterations = 64;

GType operation_get_type() {
  static const GEnumValue values[] = {
      {vkc::morph::kErode, "Minimum over the mask", "erode"},
      {vkc::morph::kDilate, "Maximum over the mask", "dilate"},
      {vkc::morph::kOpen, "Erode, then dilate (removes bright details smaller than the mask)", "open"},
      {vkc::morph::kClose, "Dilate, then erode (fills dark details smaller than the mask)", "close"},
      {vkc::morph::kGradient, "Dilation minus erosion (edges)", "gradient"},
      {vkc::morph::kTophat, "Input minus its opening (bright details)", "tophat"},
      {vkc::morph::kBlackhat, "Closing minus the input (dark details)", "blackhat"},
      {0, nullptr, nullptr}};
  static GType type = g_enum_register_static("GstMorphOperation", values);
  return type;
}

GType shape_get_type() {
  static const GEnumValue values[] = {
      {vkc::morph::kRect, "Rectangle: every pixel of width x height", "rect"},
      {vkc::morph::kCross, "Cross: the centre row and the centre column", "cross"},
      {vkc::morph::kEllipse, "Ellipse inscribed in width x height, as OpenCV's MORPH_ELLIPSE", "ellipse"},
      {0, nullptr, nullptr}};
  static GType type = g_enum_register_static("GstMorphShape", values);
  return type;
}

// The filtered plane of `info`: the whole frame for RGB and gray formats (alpha and padding bytes
// kept), the Y plane for YUV formats.
vkc::morph::PlaneFormat plane_format(const GstVideoInfo* info) {
  const GstVideoFormatInfo* finfo = info->finfo;
  vkc::morph::PlaneFormat format;
  format.width = GST_VIDEO_INFO_WIDTH(info);
  format.height = GST_VIDEO_INFO_HEIGHT(info);
  format.bpp = GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, 0);
  // One sample a word: GRAY8, and 16-bit words: GRAY16_LE and the Y plane of the 10-, 12- and
  // 16-bit YUV formats (their values in the high bits of the word, P010, or the low ones: either way
  // ordered as the words are).
  const bool rgb = GST_VIDEO_FORMAT_INFO_IS_RGB(finfo);
  format.one_lane = format.bpp == 1 || (!rgb && format.bpp == 2);
  if (format.one_lane) format.lane_bits = 8 * format.bpp;
  switch (GST_VIDEO_INFO_FORMAT(info)) {
    case GST_VIDEO_FORMAT_RGBA64_LE:  // R and G, then B and A: two 16-bit lanes a word, A kept
      format.lane_bits = 16;
      format.keep = 0xffff0000u;
      return format;
    case GST_VIDEO_FORMAT_BGR10A2_LE:  // three 10-bit lanes, the two alpha bits kept
      format.lane_bits = 10;
      format.keep = 0xc0000000u;
      return format;
    default: break;
  }
  if (rgb && format.bpp == 4) {
    format.keep = 0xffffffffu;
    for (guint c = 0; c < 3; ++c) format.keep &= ~(0xffu << (8 * GST_VIDEO_FORMAT_INFO_POFFSET(finfo, c)));
  }
  return format;
}

// What morph does to each frame.
class MorphOperation final : public vkc::FilterOperation {
 public:
  using FilterOperation::FilterOperation;
  std::unique_ptr<vkc::CapsState> configure(const std::shared_ptr<vkc::Device>& device,
                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                            GError** error) override;
  bool record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
};

}  // namespace

// Everything derived from the negotiated caps.
struct MorphState : vkc::morph::Passes {
  MorphState(const std::shared_ptr<vkc::Device>& device, const GstVideoInfo* info)
      : Passes(device, plane_format(info)), info(*info) {
    // 8-byte pixels are unpacked a word at a time, twice over the frame in 4-byte loads: a discrete
    // GPU reads them from a device copy of the frame.
    if (GST_VIDEO_INFO_COMP_PSTRIDE(info, 0) == 8) input_reads = {.planes = 1, .load_bytes = 4};
  }
  GstVideoInfo info;
};

struct GstMorph {
  GstVkComputeFilter parent;
  Settings* settings;  // object lock; kProperties allocates and frees it
};

struct GstMorphClass {
  GstVkComputeFilterClass parent_class;
};

// Mask sizes are odd so that the mask has a centre pixel. A GParamSpec cannot say "odd", so an
// even size is refused with a warning and the previous size stays.
static std::string refuse_even(const GValue* value) {
  if (g_value_get_uint(value) % 2) return {};
  return "is even; mask sizes must be odd (1, 3, ..., " + std::to_string(kMaxSize) + ")";
}

using P = vkc::Properties<Settings>;
static const vkc::PropertyTable<Settings> kProperties{
    [](GObject* object) -> Settings*& { return reinterpret_cast<GstMorph*>(object)->settings; },
    {
        P::enumeration("operation", "Operation",
                       "Morphological operation, as OpenCV's morphologyEx; applies from the next frame",
                       operation_get_type, vkc::morph::kDilate, VKC_FIELD(operation)),
        P::enumeration("shape", "Shape",
                       "Mask shape, exactly OpenCV's getStructuringElement for width x height; applies from "
                       "the next frame",
                       shape_get_type, vkc::morph::kRect, VKC_FIELD(shape)),
        P::uint("width", "Width",
                "Mask width in pixels, odd (an even value is refused with a warning and the previous one "
                "kept); applies from the next frame",
                1, kMaxSize, 3, VKC_FIELD(width))
            .refusing(refuse_even),
        P::uint("height", "Height",
                "Mask height in pixels, odd (an even value is refused with a warning and the previous one "
                "kept); applies from the next frame",
                1, kMaxSize, 3, VKC_FIELD(height))
            .refusing(refuse_even),
        P::uint("iterations", "Iterations",
                "Times erosion and dilation are applied (open: n erosions, then n dilations); applies "
                "from the next frame",
                1, kMaxIterations, 1, VKC_FIELD(iterations)),
    }};

G_DEFINE_TYPE(GstMorph, gst_morph, GST_TYPE_VKCOMPUTE_FILTER)
GST_ELEMENT_REGISTER_DEFINE(morph, "morph", GST_RANK_NONE, gst_morph_get_type())

std::unique_ptr<vkc::CapsState> MorphOperation::configure(const std::shared_ptr<vkc::Device>& device,
                                                          const GstVideoInfo& in, const GstVideoInfo&,
                                                          GError**) {
  GST_INFO_OBJECT(element_, "%s %dx%d", GST_VIDEO_INFO_NAME(&in), GST_VIDEO_INFO_WIDTH(&in),
                  GST_VIDEO_INFO_HEIGHT(&in));
  auto state = std::make_unique<MorphState>(device, &in);
  state->prepare(kProperties.snapshot(G_OBJECT(element_)));
  return state;
}

bool MorphOperation::record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto& state = static_cast<MorphState&>(caps);
  const Settings settings = kProperties.snapshot(G_OBJECT(element_));
  // YUV: chroma planes go through unchanged.
  if (GST_VIDEO_INFO_N_PLANES(&state.info) > 1)
    vkc::record_frame_copy(frame.cmd, state.info, frame.in, frame.out, {.first_plane = 1});
  if (!state.record(frame, 0, settings, error)) return false;
  if (GST_VIDEO_INFO_COMP_PSTRIDE(&state.info, 0) != 8) return true;
  // 8-byte pixels: B and A after R and G, through the same working images.
  vkc::compute_barrier(frame.cmd);
  return state.record(frame, 0, settings, error, 1);
}

static void gst_morph_init(GstMorph* self) {
  kProperties.create(G_OBJECT(self));
  gst_vkcompute_filter_set_operation(GST_VKCOMPUTE_FILTER(self),
                                     std::make_unique<MorphOperation>(GST_ELEMENT(self)));
}

static void gst_morph_class_init(GstMorphClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* element_class = GST_ELEMENT_CLASS(klass);
  auto* filter_class = reinterpret_cast<GstVkComputeFilterClass*>(klass);
  GST_DEBUG_CATEGORY_INIT(gst_morph_debug, "morph", 0, "Morphology on Vulkan");

  kProperties.install(gobject_class);

  gst_element_class_set_static_metadata(
      element_class, "Morphology (Vulkan compute)", "Filter/Effect/Video",
      "Erosion, dilation, opening, closing, gradient, top-hat and black-hat with rectangle, cross and "
      "ellipse "
      "masks of any odd size on a Vulkan device; equal to OpenCV's morphologyEx",
      "gst-vkcompute developers");
  gst_vkcompute_filter_class_add_pad_templates(filter_class, GST_VIDEO_CAPS_MAKE(FORMATS),
                                               GST_VIDEO_CAPS_MAKE(FORMATS));
}
