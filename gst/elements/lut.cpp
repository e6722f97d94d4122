// lut: colour grading with a 3D or 1D lookup table (.cube, GPUImage lookup PNG, HALD CLUT PNG),
// interpolated like ffmpeg's lut3d/lut1d filters, on packed RGB.
//
// The table is read when the element starts (a bad file is an element error) and again whenever
// `location` changes, or `png-kind` while `location` is a PNG; a change while running is read on
// the thread that sets the property, and
// the next frame uses the new table as a whole (a bad file then posts a warning and the previous
// table stays). Tables live in device-local memory and are uploaded inside a frame's command
// buffer, so the stream never waits for one.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "base/computefilter.hpp"
#include "base/properties.hpp"
#include "base/samples.hpp"
#include "elements.hpp"
#include "lut.spv.h"
#include "lut/reader.hpp"
#include "lut_layout.h"
#include "lut_table.hpp"
#include "vk/kernel.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_lut_debug);
#define GST_CAT_DEFAULT gst_lut_debug

#define LUT_FORMATS \
  "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, RGBA64_LE, BGR10A2_LE, RGB10A2_LE }"

namespace {

enum Interpolation { kNearest = 0, kTrilinear = 1, kTetrahedral = 2 };

// The kernel's modes, workgroup and push constants (shaders/lut_layout.h).
using vkc::shader::lut::kGroupX;
using vkc::shader::lut::kGroupY;
using vkc::shader::lut::kMode1DLinear;
using vkc::shader::lut::kMode1DNearest;
using vkc::shader::lut::kMode3DNearest;
using vkc::shader::lut::kModeTetrahedral;
using vkc::shader::lut::kModeTrilinear;
using vkc::shader::lut::kPixelsPerInvocation;
using vkc::shader::lut::Params;

// How the kernel looks the table up with the chosen interpolation.
uint32_t mode_of(const vkc::LutData& data, Interpolation interpolation) {
  if (data.dimensions == lut::Dimensions::k1D)
    return interpolation == kNearest ? kMode1DNearest : kMode1DLinear;
  // GPUImage's formula is two bilinear fetches in the 64x64 tiles of the two nearest blue levels,
  // mixed by blue's fraction: exactly trilinear interpolation of the 64³ cube.
  if (data.source == lut::Source::kLookupImage) return kModeTrilinear;
  switch (interpolation) {
    case kNearest: return kMode3DNearest;
    case kTrilinear: return kModeTrilinear;
    default: return kModeTetrahedral;
  }
}

// What lut does to each frame.
class LutOperation final : public vkc::FilterOperation {
 public:
  using FilterOperation::FilterOperation;
  std::unique_ptr<vkc::CapsState> configure(const std::shared_ptr<vkc::Device>& device,
                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                            GError** error) override;
  bool record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
};

}  // namespace

// Everything derived from the negotiated caps, and what frames use on the GPU: the base class
// keeps it until they are done.
struct LutState : vkc::CapsState {
  std::shared_ptr<vkc::Device> device;  // where the tables go
  // The kernel of the caps: its workgroup, pixel size, depth and channel order. Specialised
  // further on what each frame's table and settings need (shaders/lut.comp: MODE, PACKED, MIXED),
  // each variant made at its first frame.
  vkc::KernelInfo info;
  std::map<std::array<uint32_t, 3>, std::unique_ptr<vkc::Kernel>> kernels;
  Params params;    // plane layout, table and settings filled per frame
  guint depth = 8;  // bits of R, G and B: 8-bit frames read a packed table
  vkc::LutTables gpu_tables{kVkComputeFramesInFlight};

  const vkc::Kernel& kernel(uint32_t mode, bool packed, bool mixed) {
    std::unique_ptr<vkc::Kernel>& kernel = kernels[{mode, packed, mixed}];
    if (!kernel) {
      vkc::KernelInfo variant = info;
      variant.specialization.insert(variant.specialization.end(), {mode, packed, mixed});
      kernel = std::make_unique<vkc::Kernel>(device, variant);
    }
    return *kernel;
  }
};

struct LutPrivate {
  // Properties and the table they select (object lock).
  std::string location;
  lut::PngKind png_kind = lut::PngKind::kAuto;
  Interpolation interpolation = kTetrahedral;
  double intensity = 1.0;
  std::shared_ptr<const vkc::LutData> table;  // what the next frame uses
  bool started = false;                       // location changes are read at once, not at start
};

struct GstLut {
  GstVkComputeFilter parent;
  LutPrivate* priv;  // kProperties allocates and frees it
};

struct GstLutClass {
  GstVkComputeFilterClass parent_class;
};

G_DEFINE_TYPE(GstLut, gst_lut, GST_TYPE_VKCOMPUTE_FILTER)
GST_ELEMENT_REGISTER_DEFINE(lut, "lut", GST_RANK_NONE, gst_lut_get_type())

#define GST_LUT(obj) (reinterpret_cast<GstLut*>(obj))

static GType gst_lut_interpolation_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {kNearest, "Nearest table entry", "nearest"},
      {kTrilinear, "Trilinear: the 8 entries around the colour", "trilinear"},
      {kTetrahedral, "Tetrahedral: the 4 entries of the tetrahedron holding the colour", "tetrahedral"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type))
    g_once_init_leave(&type, g_enum_register_static("GstLutInterpolation", values));
  return type;
}

static GType gst_lut_png_kind_get_type() {
  static GType type = 0;
  static const GEnumValue values[] = {
      {gint(lut::PngKind::kAuto),
       "By size and name: 512x512 is a GPUImage lookup image unless the file name contains \"hald\"; "
       "other L³xL³ sizes are HALD CLUTs",
       "auto"},
      {gint(lut::PngKind::kLookupImage), "GPUImage lookup image (512x512)", "lookup"},
      {gint(lut::PngKind::kHald), "HALD CLUT (L³xL³ for level L = 2..16; level 8 is 512x512)", "hald"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type)) g_once_init_leave(&type, g_enum_register_static("GstLutPngKind", values));
  return type;
}

// Logs what `table` was read as and, for a PNG, why: png-kind said so, or auto's rule.
static void log_table(GstLut* self, const vkc::LutData& table, lut::PngKind png_kind) {
  const char* path = table.path.c_str();
  GST_INFO_OBJECT(self, "%s: %s table of size %u", path,
                  table.dimensions == lut::Dimensions::k3D ? "3D" : "1D", table.size);
  const bool chosen = png_kind != lut::PngKind::kAuto;
  if (table.source == lut::Source::kLookupImage) {
    if (chosen)
      GST_INFO_OBJECT(self, "%s: read as a GPUImage lookup image, as png-kind=lookup says", path);
    else
      GST_INFO_OBJECT(self,
                      "%s: 512x512 PNG without 'hald' in its name: read as a GPUImage lookup image; set "
                      "png-kind=hald for a HALD CLUT",
                      path);
  } else if (table.source == lut::Source::kHald) {
    guint level = 2;
    while (level * level < table.size) ++level;
    const guint side = level * level * level;
    if (chosen)
      GST_INFO_OBJECT(self, "%s: %ux%u PNG read as a HALD CLUT of level %u, as png-kind=hald says", path,
                      side, side, level);
    else if (side == 512)
      GST_INFO_OBJECT(self,
                      "%s: 512x512 PNG with 'hald' in its name: read as a HALD CLUT of level 8; set "
                      "png-kind=lookup for a GPUImage lookup image",
                      path);
    else
      GST_INFO_OBJECT(self,
                      "%s: %ux%u PNG: read as a HALD CLUT of level %u (only 512x512 can be a lookup image)",
                      path, side, side, level);
  }
}

// Reads `location` (a PNG as `png_kind` says) for the element. At start a bad file is an error
// and the element does not start; while running it is a warning and the previous table stays.
static gboolean load_table(GstLut* self, const std::string& location, lut::PngKind png_kind,
                           gboolean at_start) {
  std::string error;
  std::shared_ptr<const vkc::LutData> table;
  if (location.empty()) {
    error = "no lookup table: set the location property to a .cube or .png file";
  } else {
    // Nothing thrown may reach GStreamer: a table too large for memory is a bad file too.
    try {
      table = vkc::load_lut(location, png_kind, error);
    } catch (const std::bad_alloc&) {
      error = "out of memory reading " + location;
    } catch (const std::exception& e) {
      error = "cannot read " + location + ": " + e.what();
    }
  }
  if (!table) {
    GEnumValue* kind =
        g_enum_get_value(G_ENUM_CLASS(g_type_class_peek(gst_lut_png_kind_get_type())), gint(png_kind));
    if (at_start)
      GST_ELEMENT_ERROR(self, RESOURCE, READ, ("%s", error.c_str()),
                        ("location=%s png-kind=%s", location.c_str(), kind->value_nick));
    else
      GST_ELEMENT_WARNING(self, RESOURCE, READ, ("%s; the previous table stays in use", error.c_str()),
                          ("location=%s png-kind=%s", location.c_str(), kind->value_nick));
    return FALSE;
  }
  log_table(self, *table, png_kind);
  GST_OBJECT_LOCK(self);
  self->priv->table = std::move(table);
  GST_OBJECT_UNLOCK(self);
  return TRUE;
}

static gboolean gst_lut_start(GstBaseTransform* trans) {
  auto* self = GST_LUT(trans);
  GST_OBJECT_LOCK(self);
  self->priv->started = true;
  const std::string location = self->priv->location;
  const lut::PngKind png_kind = self->priv->png_kind;
  GST_OBJECT_UNLOCK(self);
  // The table first: a bad file fails the start before any device is opened.
  if (!load_table(self, location, png_kind, TRUE) ||
      !GST_BASE_TRANSFORM_CLASS(gst_lut_parent_class)->start(trans)) {
    GST_OBJECT_LOCK(self);
    self->priv->started = false;
    self->priv->table.reset();
    GST_OBJECT_UNLOCK(self);
    return FALSE;
  }
  return TRUE;
}

static gboolean gst_lut_stop(GstBaseTransform* trans) {
  auto* self = GST_LUT(trans);
  gboolean ok = GST_BASE_TRANSFORM_CLASS(gst_lut_parent_class)->stop(trans);
  GST_OBJECT_LOCK(self);
  self->priv->started = false;
  self->priv->table.reset();
  GST_OBJECT_UNLOCK(self);
  return ok;
}

std::unique_ptr<vkc::CapsState> LutOperation::configure(const std::shared_ptr<vkc::Device>& device,
                                                        const GstVideoInfo& in, const GstVideoInfo&,
                                                        GError**) {
  const GstVideoFormatInfo* finfo = in.finfo;
  auto state = std::make_unique<LutState>();
  state->device = device;
  state->params = Params{};
  state->params.width = GST_VIDEO_INFO_WIDTH(&in);
  state->params.height = GST_VIDEO_INFO_HEIGHT(&in);
  uint32_t order = 0;  // the first bit of R, G and B in a pixel, 8 bits each
  for (guint c = 0; c < 3; ++c) {
    const vkc::SampleLayout sample = vkc::sample_layout(GST_VIDEO_INFO_FORMAT(&in), c);
    order |= (sample.offset * 8 + sample.shift) << (8 * c);
    state->depth = sample.depth;
  }
  state->info = vkc::KernelInfo{
      .name = "lut",
      .spirv = lut_spv,
      .spirv_bytes = sizeof(lut_spv),
      .bindings = 6,  // in, out, table, then in and out again as pairs of words, the packed table
      .push_constant_bytes = sizeof(Params),
      .specialization = {kGroupX, kGroupY, uint32_t(GST_VIDEO_FORMAT_INFO_PSTRIDE(finfo, 0)), state->depth,
                         order}};
  GST_INFO_OBJECT(element_, "%s %dx%d", GST_VIDEO_INFO_NAME(&in), GST_VIDEO_INFO_WIDTH(&in),
                  GST_VIDEO_INFO_HEIGHT(&in));
  return state;
}

bool LutOperation::record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto* priv = GST_LUT(element_)->priv;
  auto& state = static_cast<LutState&>(caps);
  // One consistent snapshot of the settings for the whole frame.
  GST_OBJECT_LOCK(element_);
  const std::shared_ptr<const vkc::LutData> table = priv->table;
  const Interpolation interpolation = priv->interpolation;
  const float intensity = float(priv->intensity);
  GST_OBJECT_UNLOCK(element_);

  Params& params = state.params;
  params.src_offset = frame.in.offset[0];
  params.src_stride = frame.in.stride[0];
  params.dst_offset = frame.out.offset[0];
  params.dst_stride = frame.out.stride[0];
  if ((params.dst_offset | params.dst_stride) & 3u) {
    g_set_error(error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
                "output is not 32-bit aligned (offset %u, stride %u)", params.dst_offset, params.dst_stride);
    return false;
  }
  params.size = table->size;
  params.intensity = intensity;
  for (int c = 0; c < 3; ++c) {
    params.domain_min[c] = table->domain_min[c];
    params.scale[c] = float(table->size - 1) / (table->domain_max[c] - table->domain_min[c]);
  }

  const vkc::LutTables::Buffers tables = state.gpu_tables.prepare(state.device, frame.slot, table);
  // Deeper frames read the float table: the packed one is exact to an eighth of an 8-bit step only.
  const bool packed = state.depth == 8 && !table->packed.empty();
  const vkc::Kernel& kernel = state.kernel(mode_of(*table, interpolation), packed, intensity < 1.0f);
  kernel.update(frame.slot, {{frame.in.buffer},
                             {frame.out.buffer},
                             {tables.floats},
                             {frame.in.buffer},
                             {frame.out.buffer},
                             {tables.packed}});
  const uint32_t invocations_x = (params.width + kPixelsPerInvocation - 1) / kPixelsPerInvocation;
  kernel.dispatch(frame.cmd, frame.slot, &params, (invocations_x + kGroupX - 1) / kGroupX,
                  (params.height + kGroupY - 1) / kGroupY);
  return true;
}

// While running, a new location, or a new png-kind for a PNG location, is read at once, on the
// thread that sets the property (not the streaming thread), once the object lock is released: the
// next frame uses the new table (or, for a bad file, the previous table stays with a warning).
static std::function<void()> read_again(GObject* object, const LutPrivate& priv) {
  return [self = GST_LUT(object), path = priv.location, png_kind = priv.png_kind] {
    load_table(self, path, png_kind, FALSE);
  };
}

using P = vkc::Properties<LutPrivate>;
static const vkc::PropertyTable<LutPrivate> kProperties{
    [](GObject* object) -> LutPrivate*& { return GST_LUT(object)->priv; },
    {
        P::string("location", "Location",
                  "Lookup table file: .cube (3D or 1D), a GPUImage lookup PNG (512x512) or a HALD CLUT PNG "
                  "(L³xL³; which a 512x512 PNG is: see png-kind). Read at start (a bad file is an error); a "
                  "change while playing is read at once and used from the next frame (a bad file is a "
                  "warning and the previous table stays)",
                  nullptr, VKC_FIELD(location))
            .then_do([](GObject* object, const LutPrivate& priv, bool) {
              return priv.started ? read_again(object, priv) : nullptr;
            }),
        P::enumeration("interpolation", "Interpolation",
                       "How 3D .cube and HALD tables are interpolated (as ffmpeg's lut3d); 1D tables are "
                       "linear unless nearest, lookup PNGs always use GPUImage's formula. Applies from the "
                       "next frame",
                       gst_lut_interpolation_get_type, kTetrahedral, VKC_FIELD(interpolation)),
        P::real("intensity", "Intensity",
                "Strength of the grade: output = mix(input, lut(input), intensity). Applies from the "
                "next frame",
                0.0, 1.0, 1.0, VKC_FIELD(intensity)),
        P::enumeration("png-kind", "PNG kind",
                       "What a .png location is: auto decides by size and name (a 512x512 PNG is a GPUImage "
                       "lookup image unless its file name contains \"hald\"; a level-8 HALD CLUT is 512x512 "
                       "too), lookup and hald say which, and an image whose size does not fit the kind is an "
                       "error naming the file and its size. .cube files ignore it. A change while playing "
                       "reads a .png location again at once, like a location change",
                       gst_lut_png_kind_get_type, lut::PngKind::kAuto, VKC_FIELD(png_kind))
            .then_do([](GObject* object, const LutPrivate& priv, bool changed) {
              // A .cube location does not depend on the kind.
              return priv.started && changed && lut::is_png_path(priv.location) ? read_again(object, priv)
                                                                                : nullptr;
            }),
    }};

static void gst_lut_init(GstLut* self) {
  kProperties.create(G_OBJECT(self));
  gst_vkcompute_filter_set_operation(GST_VKCOMPUTE_FILTER(self),
                                     std::make_unique<LutOperation>(GST_ELEMENT(self)));
}

static void gst_lut_class_init(GstLutClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* element_class = GST_ELEMENT_CLASS(klass);
  auto* trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  auto* filter_class = reinterpret_cast<GstVkComputeFilterClass*>(klass);
  GST_DEBUG_CATEGORY_INIT(gst_lut_debug, "lut", 0, "colour lookup tables on Vulkan");

  kProperties.install(gobject_class);

  gst_element_class_set_static_metadata(
      element_class, "Colour lookup table (Vulkan compute)", "Filter/Effect/Video",
      "Applies a 3D or 1D colour lookup table (.cube, GPUImage lookup PNG, HALD CLUT) to packed RGB on a "
      "Vulkan device, interpolated like ffmpeg's lut3d",
      "gst-vkcompute developers");
  gst_vkcompute_filter_class_add_pad_templates(filter_class, GST_VIDEO_CAPS_MAKE(LUT_FORMATS),
                                               GST_VIDEO_CAPS_MAKE(LUT_FORMATS));

  trans_class->start = gst_lut_start;
  trans_class->stop = gst_lut_stop;
}
