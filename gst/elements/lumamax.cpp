// lumamax: the brightest and darkest pixel of every frame (8- to 16-bit formats), its position, the mean luma
// and the top-N peaks at least min-distance apart and at least peak-threshold bright, posted as an element
// message when the GPU is done.
// Frames pass through untouched and without waiting.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/analysis.hpp"
#include "base/computefilter.hpp"
#include "base/samples.hpp"
#include "elements.hpp"
#include "lumamax_frame.spv.h"
#include "lumamax_frame_subgroup.spv.h"
#include "lumamax_layout.h"
#include "lumamax_light.hpp"
#include "lumamax_reduce.spv.h"
#include "lumamax_scan.spv.h"
#include "lumamax_scan_subgroup.spv.h"
#include "vk/kernel.hpp"
#include "vk/readback.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_lumamax_debug);
#define GST_CAT_DEFAULT gst_lumamax_debug

#define FORMATS                                                                                      \
  "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, I420, NV12, Y444, GRAY16_LE, " \
  "P010_10LE, "                                                                                      \
  "P016_LE, I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE, RGBA64_LE, BGR10A2_LE }"

namespace {

// The kernels' tiles, scratch layout and push constants (shaders/lumamax_layout.h).
using vkc::shader::lumamax::FrameParams;
using vkc::shader::lumamax::kFrameGroups;
using vkc::shader::lumamax::kFrameLoads;
using vkc::shader::lumamax::kFrameMinGroups;
using vkc::shader::lumamax::kGroupInvocations;
using vkc::shader::lumamax::kLoadBytes;
using vkc::shader::lumamax::kLumaBits;
using vkc::shader::lumamax::kLumaSum;
using vkc::shader::lumamax::kMaxKey;
using vkc::shader::lumamax::kMaxPeaks;
using vkc::shader::lumamax::kMinKey;
using vkc::shader::lumamax::kPeaks;
using vkc::shader::lumamax::kPixelsPerInvocation;
using vkc::shader::lumamax::kRegionWords;
using vkc::shader::lumamax::kScanGroupX;
using vkc::shader::lumamax::kScanGroupY;
using vkc::shader::lumamax::kTileHeight;
using vkc::shader::lumamax::kTiles;
using vkc::shader::lumamax::kTileWidth;
using vkc::shader::lumamax::kWordsPerPartial;
using vkc::shader::lumamax::kWordsPerTile;
using vkc::shader::lumamax::ReduceParams;
using vkc::shader::lumamax::ScanParams;

struct Settings : vkc::AnalysisSettings {
  guint count = 1;
  guint min_distance = 0;
  gdouble peak_threshold = 0.0;
  guint peak_box = 1;
  gboolean light_statistics = TRUE;
};

// The smallest L whose luma, L / scale as the message reports it, is at least `threshold`: a
// peak is reported exactly when its reported luma is >= peak-threshold.
uint32_t peak_floor(gdouble threshold, double scale) {
  if (!(threshold > 0.0)) return 0;
  double l = std::ceil(threshold * scale);
  while (l > 0.0 && (l - 1.0) / scale >= threshold) l -= 1.0;
  while (l / scale < threshold) l += 1.0;
  return uint32_t(l);
}

// One frame slot: its scratch buffer and what its message needs once the GPU is done.
struct Slot {
  std::unique_ptr<vkc::Readback> scratch;
  // The scratch buffer's room: regions, and the words of the tiles' slots or of the frame kernel's
  // partials that follow them.
  guint regions_room = 0;
  guint64 slot_words_room = 0;
  Settings settings;  // the frame's, from begin_frame()
  vkc::FrameRegions regions;

  // Word offsets of the region table and of the tiles' slots (shaders/lumamax_layout.h).
  uint32_t table() const { return regions_room * kTiles; }
  uint32_t tiles_base() const { return regions_room * (kTiles + kRegionWords); }
};

// Everything derived from the negotiated caps.
struct State : vkc::CapsState {
  std::shared_ptr<vkc::Device> device;
  std::unique_ptr<vkc::Kernel> scan, rescan, reduce_full, reduce_peak;
  // count = 1 over one region: the frame kernel; null for pixels of 3 or 8 bytes, which the tiles
  // take.
  std::unique_ptr<vkc::Kernel> frame;
  guint width = 0, height = 0;
  // Plane 0's pixels: their size, R, G, B's (or Y's) byte, shift and size in a pixel, the depth.
  uint32_t bpp = 1, order = 0, shifts = 0, sample_bytes = 1, depth = 8;
  bool rgb = false;
  // Luma L = kr * R + kg * G + kb * B (or Y << kLumaBits) at that depth: white's L (the luma 1.0
  // of the messages), the largest L (the minimum key's complement) and the sums' shift.
  double scale() const { return double((1u << depth) - 1) * (1u << kLumaBits); }
  uint32_t max_luma() const { return uint32_t((uint64_t(1) << (depth + kLumaBits)) - 1); }
  std::array<Slot, kVkComputeFramesInFlight> slots;
  // PQ and HLG frames: the light statistics (null for other transfers), which read every plane.
  std::unique_ptr<vkc::lumamax::LightMeter> light;
  guint planes = 1;
};

// What lumamax does to each frame.
class LumamaxOperation final : public vkc::ElementOperation {
 public:
  using ElementOperation::ElementOperation;
  vkc::Mode mode() const override { return vkc::Mode::kAnalysis; }
  std::unique_ptr<vkc::CapsState> configure(const std::shared_ptr<vkc::Device>& device,
                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                            GError** error) override;
  bool begin_frame(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
  bool record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
  void complete(vkc::CapsState& caps, vkc::Frame& frame) override;
  void restart() override;

 private:
  std::mutex content_lock_;  // complete() adds to it, restart() clears it
  vkc::lumamax::ContentLight content_;
};

}  // namespace

struct GstLumamax {
  GstVkComputeFilter parent;
  Settings* settings;  // object lock; kProperties allocates and frees it
};

struct GstLumamaxClass {
  GstVkComputeFilterClass parent_class;
};

using P = vkc::Properties<Settings>;
static const vkc::PropertyTable<Settings> kProperties{
    [](GObject* object) -> Settings*& { return reinterpret_cast<GstLumamax*>(object)->settings; },
    {
        P::uint("count", "Count", "How many peaks to report in the \"peaks\" field, brightest first", 1,
                kMaxPeaks, 1, VKC_FIELD(count)),
        P::uint("min-distance", "Minimum distance",
                "Reported peaks are at least this many pixels apart (Euclidean); 0 or 1 = any two "
                "distinct pixels",
                0, G_MAXINT, 0, VKC_FIELD(min_distance)),
        P::real("peak-threshold", "Peak threshold",
                "Peaks whose luma (0..1, as the messages report it) is below this are not reported, "
                "so \"peaks\" may hold fewer than count entries, or none; 0 = report every peak. "
                "The brightest and darkest pixel are reported whatever it is",
                0.0, 1.0, 0.0, VKC_FIELD(peak_threshold)),
        P::uint("peak-box", "Peak box",
                "With attach-meta, each reported peak is also attached to the frame as a "
                "GstVideoRegionOfInterestMeta of type \"lumamax-peak\": a square of this many pixels a side "
                "centred on the peak and clipped to the frame, with the peak's fields as its parameter",
                1, G_MAXINT, 1, VKC_FIELD(peak_box)),
        P::boolean("light-statistics", "Light statistics",
                   "When the caps' transfer is SMPTE ST 2084 (PQ, colorimetry=bt2100-pq) or ARIB STD-B67 "
                   "(HLG, bt2100-hlg), also report each frame's max-light and average-light and the stream's "
                   "max-cll and max-fall, in cd/m\u00b2 (see the element's documentation for the formulas); "
                   "applies from the next frame",
                   TRUE, VKC_FIELD(light_statistics)),
    },
    vkc::analysis_properties()};  // post-messages, matrix, roi-*

G_DEFINE_TYPE(GstLumamax, gst_lumamax, GST_TYPE_VKCOMPUTE_FILTER)
GST_ELEMENT_REGISTER_DEFINE(lumamax, "lumamax", GST_RANK_NONE, gst_lumamax_get_type())

// The slot's scratch buffer with room for `regions` regions of `tiles` tiles in all, or for
// `partials` of the frame kernel's workgroups, made anew (zeroed by its first frame) when the one it
// has is too small. The slot's previous frame is done. False, with `error`, when they would not fit
// in one storage buffer of the device.
static bool make_room(const State& state, Slot& slot, guint regions, guint64 tiles, guint partials,
                      GError** error) {
  const guint64 slot_words = MAX(kWordsPerTile * tiles, guint64(kWordsPerPartial) * partials);
  if (slot.scratch && regions <= slot.regions_room && slot_words <= slot.slot_words_room) return true;
  Slot sized;
  sized.regions_room = MAX(regions, slot.regions_room);
  sized.slot_words_room = MAX(slot_words, slot.slot_words_room);
  const vk::DeviceSize bytes =
      (vk::DeviceSize(sized.tiles_base()) + sized.slot_words_room) * sizeof(uint32_t);
  if (!vkc::fits_one_buffer(*state.device, bytes,
                            "the scratch of " + std::to_string(regions) + " regions of " +
                                std::to_string(tiles) + " tiles in all",
                            "use fewer or smaller regions", error))
    return false;
  slot.regions_room = sized.regions_room;
  slot.slot_words_room = sized.slot_words_room;
  slot.scratch = std::make_unique<vkc::Readback>(state.device, bytes, slot.table() * sizeof(uint32_t),
                                                 "lumamax scratch");
  return true;
}

// The frame kernel's loads per row of the columns [x0, x1) (shaders/lumamax_frame.comp).
static uint32_t row_loads(const State& state, guint x0, guint x1) {
  return uint32_t((guint64(x1 - x0) * state.bpp + kLoadBytes - 1) / kLoadBytes);
}

// Its workgroups for `rows` rows of `loads` loads (shaders/lumamax_layout.h): one per kFrameLoads
// tiles of kGroupInvocations loads, from kFrameMinGroups to kFrameGroups, and no more than tiles.
static uint32_t frame_groups(uint32_t loads, uint32_t rows) {
  const guint64 tiles = (guint64(loads) * rows + kGroupInvocations - 1) / kGroupInvocations;
  const guint64 wanted =
      CLAMP((tiles + kFrameLoads - 1) / kFrameLoads, guint64(kFrameMinGroups), guint64(kFrameGroups));
  return uint32_t(MIN(tiles, wanted));
}

std::unique_ptr<vkc::CapsState> LumamaxOperation::configure(const std::shared_ptr<vkc::Device>& device,
                                                            const GstVideoInfo& in, const GstVideoInfo&,
                                                            GError** error) {
  const guint64 pixels = guint64(GST_VIDEO_INFO_WIDTH(&in)) * GST_VIDEO_INFO_HEIGHT(&in);
  if (pixels >= G_MAXUINT32) {
    // Raster indices are 32-bit and the all-ones index marks "no pixel".
    g_set_error(error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                "%dx%d frames are too large: at most 2^32 - 2 pixels", GST_VIDEO_INFO_WIDTH(&in),
                GST_VIDEO_INFO_HEIGHT(&in));
    return nullptr;
  }
  auto state = std::make_unique<State>();
  state->width = GST_VIDEO_INFO_WIDTH(&in);
  state->height = GST_VIDEO_INFO_HEIGHT(&in);
  state->rgb = GST_VIDEO_FORMAT_INFO_IS_RGB(in.finfo);
  for (guint c = 0; c < (state->rgb ? 3u : 1u); ++c) {  // R, G, B; or Y
    const vkc::SampleLayout sample = vkc::sample_layout(GST_VIDEO_INFO_FORMAT(&in), c);
    state->bpp = sample.pixel_stride;
    state->sample_bytes = sample.bytes;
    state->depth = sample.depth;
    state->order |= sample.offset << (8 * c);
    state->shifts |= sample.shift << (8 * c);
  }

  const bool subgroups = bool(device->features().subgroup_ops & vk::SubgroupFeatureFlagBits::eArithmetic);
  auto scan_info = [&](bool rescan) {
    return vkc::KernelInfo{
        .name = rescan ? "lumamax rescan" : "lumamax scan",
        .spirv = subgroups ? lumamax_scan_subgroup_spv : lumamax_scan_spv,
        .spirv_bytes = subgroups ? sizeof(lumamax_scan_subgroup_spv) : sizeof(lumamax_scan_spv),
        .bindings = 4,  // frame, scratch, frame again (16-byte loads), results
        .push_constant_bytes = sizeof(ScanParams),
        .specialization = {kScanGroupX, kScanGroupY, state->bpp, rescan ? 1u : 0u, state->sample_bytes,
                           state->rgb ? 1u : 0u}};
  };
  auto reduce_info = [&](bool full) {
    return vkc::KernelInfo{.name = full ? "lumamax reduce" : "lumamax reduce peak",
                           .spirv = lumamax_reduce_spv,
                           .spirv_bytes = sizeof(lumamax_reduce_spv),
                           .bindings = 2,
                           .push_constant_bytes = sizeof(ReduceParams),
                           .specialization = {full ? 1u : 0u}};
  };
  state->scan = std::make_unique<vkc::Kernel>(device, scan_info(false));
  state->rescan = std::make_unique<vkc::Kernel>(device, scan_info(true));
  state->reduce_full = std::make_unique<vkc::Kernel>(device, reduce_info(true));
  state->reduce_peak = std::make_unique<vkc::Kernel>(device, reduce_info(false));
  if (state->bpp == 1 || state->bpp == 2 || state->bpp == 4)
    state->frame = std::make_unique<vkc::Kernel>(
        device, vkc::KernelInfo{
                    .name = "lumamax frame",
                    .spirv = subgroups ? lumamax_frame_subgroup_spv : lumamax_frame_spv,
                    .spirv_bytes = subgroups ? sizeof(lumamax_frame_subgroup_spv) : sizeof(lumamax_frame_spv),
                    .bindings = 4,  // as the scan's
                    .push_constant_bytes = sizeof(FrameParams),
                    .specialization = {state->bpp, state->rgb ? 1u : 0u, state->order, state->shifts}});

  // Room for every tile of a whole-frame region, and for the frame kernel's partials over it; a
  // smaller region needs fewer. Several regions make room for themselves.
  state->device = device;
  const guint64 tiles = guint64((state->width + kTileWidth - 1) / kTileWidth) *
                        ((state->height + kTileHeight - 1) / kTileHeight);
  const guint partials = state->frame ? frame_groups(row_loads(*state, 0, state->width), state->height) : 0;
  // A whole frame's tiles (frames of at most 2^32 - 2 pixels) take at most 84 MB, under every
  // device's maxStorageBufferRange (at least 128 MiB).
  for (Slot& slot : state->slots) make_room(*state, slot, 1, tiles, partials, nullptr);
  // The scan reads plane 0 once, kPixelsPerInvocation pixels per invocation; the light statistics
  // every plane. (The frame kernel reads 16 bytes at a time, but its frames are staged as the
  // scan's would be until a measurement says whether a Y plane read in place that way is faster.)
  state->light = vkc::lumamax::LightMeter::create(device, in);
  state->planes = GST_VIDEO_INFO_N_PLANES(&in);
  state->input_reads = {.planes = 1, .load_bytes = kPixelsPerInvocation * state->bpp};
  GST_INFO_OBJECT(element_, "%s %ux%u, %s reduction", GST_VIDEO_INFO_NAME(&in), state->width, state->height,
                  subgroups ? "subgroup" : "shared-memory");
  return state;
}

bool LumamaxOperation::begin_frame(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto& state = static_cast<State&>(caps);
  if (!vkc::take_frame_settings(kProperties, element_, state, frame, error)) return false;
  // The frame's input is staged after this: every plane only for a frame whose light is measured.
  const bool measured = state.light && state.slots[frame.slot].settings.light_statistics;
  state.input_reads.planes = measured ? state.planes : 1;
  return true;
}

// What the frame's dispatches share: the frame, the luma and the peaks' settings.
static ScanParams frame_scan_params(const State& state, const vkc::Frame& frame, const Settings& settings) {
  ScanParams scan{};
  const vkc::LumaCoefficients k = vkc::luma_coefficients(settings.matrix);
  scan.width = state.width;
  scan.height = state.height;
  scan.offset = frame.in.offset[0];
  scan.stride = frame.in.stride[0];
  scan.order = state.order;
  scan.kr = k.kr;
  scan.kg = k.kg;
  scan.kb = k.kb;
  const guint distance = MAX(settings.min_distance, 1u);
  scan.min_dist2 = distance * distance;
  scan.reach = distance - 1;  // |dx| <= reach for every pixel with dx^2 + dy^2 < distance^2
  // Peaks darker than this are not chosen: the reduction that would choose one writes "no pixel".
  scan.peak_floor = peak_floor(settings.peak_threshold, state.scale());
  scan.shifts = state.shifts;
  scan.value_mask = (1u << state.depth) - 1;
  scan.max_luma = state.max_luma();
  scan.sum_shift = state.depth;
  return scan;
}

// The frame kernel's push constants: the scan's over its one region.
static FrameParams frame_params(const State& state, const ScanParams& scan) {
  return FrameParams{.width = scan.width,
                     .offset = scan.offset,
                     .stride = scan.stride,
                     .x0 = scan.roi_x0,
                     .y0 = scan.roi_y0,
                     .x1 = scan.roi_x1,
                     .rows = scan.roi_y1 - scan.roi_y0,
                     .row_loads = row_loads(state, scan.roi_x0, scan.roi_x1),
                     .kr = scan.kr,
                     .kg = scan.kg,
                     .kb = scan.kb,
                     .peak_floor = scan.peak_floor,
                     .partials = scan.tiles_base,
                     .value_mask = scan.value_mask,
                     .max_luma = scan.max_luma,
                     .sum_shift = scan.sum_shift};
}

// The tiles of [x0, x1) x [y0, y1), across and down.
static uint32_t tiles_across(guint x0, guint x1) {
  return (x1 - x0 + kTileWidth - 1) / kTileWidth;
}
static uint32_t tiles_down(guint y0, guint y1) {
  return (y1 - y0 + kTileHeight - 1) / kTileHeight;
}

// The table of the frame's regions (shaders/lumamax_layout.h) and the tiles of all of them.
static std::vector<uint32_t> region_table(const std::vector<const vkc::FrameRegion*>& regions,
                                          uint32_t& tiles) {
  std::vector<uint32_t> table;
  tiles = 0;
  for (const vkc::FrameRegion* r : regions) {
    const uint32_t across = tiles_across(r->x0, r->x1), count = across * tiles_down(r->y0, r->y1);
    table.insert(table.end(), {r->x0, r->y0, r->x1, r->y1, across, count, tiles, 0});
    tiles += count;
  }
  return table;
}

bool LumamaxOperation::record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto& state = static_cast<State&>(caps);
  Slot& slot = state.slots[frame.slot];
  const Settings& settings = slot.settings;
  const std::vector<const vkc::FrameRegion*> analysed = slot.regions.analysed();
  if (analysed.empty()) return true;  // a frame with no region: its results say so
  if (state.light && settings.light_statistics && !state.light->record(frame, analysed, error)) return false;
  ScanParams scan = frame_scan_params(state, frame, settings);
  // Several regions: their table, in the slot's scratch buffer before the scan reads it.
  std::vector<uint32_t> table;
  uint32_t groups_x, groups_y;
  if (slot.regions.listed) {
    table = region_table(analysed, scan.tiles_total);
    if (!make_room(state, slot, guint(analysed.size()), scan.tiles_total, 0, error)) return false;
    scan.regions = uint32_t(analysed.size());
    // One workgroup per tile of every region, in rows of up to 65 535 (every device's least
    // maxComputeWorkGroupCount).
    groups_x = MIN(scan.tiles_total, 65535u);
    groups_y = (scan.tiles_total + groups_x - 1) / groups_x;
  } else {
    scan.roi_x0 = frame.x0;
    scan.roi_y0 = frame.y0;
    scan.roi_x1 = frame.x1;
    scan.roi_y1 = frame.y1;
    scan.tiles_x = groups_x = tiles_across(frame.x0, frame.x1);
    groups_y = tiles_down(frame.y0, frame.y1);
    scan.tiles = scan.tiles_total = groups_x * groups_y;
  }
  scan.table = slot.table();
  scan.tiles_base = slot.tiles_base();

  const vkc::Binding scratch{slot.scratch->work()};
  // Binding 3, the host-visible results, is written only by a scan that finishes the frame
  // (count = 1). The other scans and the rescans get the scratch buffer there, which they never
  // write through it: the host buffer then has one writer in a frame, that scan or the copy.
  auto bind_scan = [&](vkc::Kernel& kernel, vk::Buffer results) {
    kernel.update(frame.slot, {{frame.in.buffer}, scratch, {frame.in.buffer}, {results}});
  };
  vkc::Commands cmd = frame.cmd;
  slot.scratch->record_zero_once(cmd);  // the kernel leaves its counters zeroed after each frame
  vkc::update_buffer(cmd, slot.scratch->work(), scan.table, table);
  if (settings.count == 1 && state.frame && !slot.regions.listed) {
    // One dispatch of a bounded grid, whose last workgroup writes the results for the CPU.
    const FrameParams params = frame_params(state, scan);
    bind_scan(*state.frame, slot.scratch->host());
    state.frame->dispatch(cmd, frame.slot, &params, frame_groups(params.row_loads, params.rows), 1);
    return true;
  }
  if (settings.count == 1) {
    bind_scan(*state.scan, slot.scratch->host());
    // One dispatch: the last workgroup of each region reduces its tiles and writes its results
    // for the CPU.
    scan.finish = 1;
    state.scan->dispatch(cmd, frame.slot, &scan, groups_x, groups_y);
    return true;
  }
  // The peak chain: scan, reduce, then per further peak a rescan of the tiles near the previous
  // one and a reduce, and the results copied for the CPU.
  bind_scan(*state.scan, slot.scratch->work());
  state.reduce_full->update(frame.slot, {{frame.in.buffer}, scratch});
  bind_scan(*state.rescan, slot.scratch->work());
  state.reduce_peak->update(frame.slot, {{frame.in.buffer}, scratch});
  state.scan->dispatch(cmd, frame.slot, &scan, groups_x, groups_y);
  vkc::compute_barrier(cmd);
  ReduceParams reduce{scan.tiles,      0, scan.peak_floor, scan.regions, scan.table, scan.tiles_base,
                      scan.tiles_total};
  const uint32_t reduce_groups = MAX(scan.regions, 1u);
  state.reduce_full->dispatch(cmd, frame.slot, &reduce, reduce_groups, 1);
  // The tiles within reach of a peak, never more than a region's (a min-distance beyond the
  // frame made a grid of millions of workgroups, seconds of GPU time per peak).
  uint32_t rescan_x = 0, rescan_y = 0;
  for (const vkc::FrameRegion* r : analysed) {
    rescan_x = MAX(rescan_x, MIN(2 * scan.reach / kTileWidth + 2, tiles_across(r->x0, r->x1)));
    rescan_y = MAX(rescan_y, MIN(2 * scan.reach / kTileHeight + 2, tiles_down(r->y0, r->y1)));
  }
  // Several regions: rescan_y rows of workgroups each, as many regions per dispatch as fit.
  scan.rescan_rows = rescan_y;
  const uint32_t per_dispatch = scan.regions ? MAX(65535u / rescan_y, 1u) : 1u;
  for (guint n = 1; n < settings.count; ++n) {
    scan.peak = n - 1;
    reduce.peak = n;
    vkc::compute_barrier(cmd);
    for (scan.region_base = 0; scan.region_base < reduce_groups; scan.region_base += per_dispatch)
      state.rescan->dispatch(cmd, frame.slot, &scan, rescan_x,
                             rescan_y * MIN(per_dispatch, reduce_groups - scan.region_base));
    vkc::compute_barrier(cmd);
    state.reduce_peak->dispatch(cmd, frame.slot, &reduce, reduce_groups, 1);
  }
  slot.scratch->record_copy(cmd);
  return true;
}

static GValue peak_value(guint x, guint y, gdouble luma) {
  GValue value = G_VALUE_INIT;
  g_value_init(&value, GST_TYPE_STRUCTURE);
  GstStructure* peak = gst_structure_new("peak", "x", G_TYPE_INT, gint(x), "y", G_TYPE_INT, gint(y), "luma",
                                         G_TYPE_DOUBLE, luma, nullptr);
  g_value_take_boxed(&value, peak);
  return value;
}

// The peak as a region-of-interest meta on `buffer`: a box of `box` pixels a side centred on it,
// clipped to the frame, whose parameter is the peak's structure, with id `id`; `parent` is the id
// of the meta of the region it was found in, or -1. The same box goes into the frame's analytics
// relation meta (base/analytics.hpp), its luma as the confidence level, part of the entry
// `entry_parent`.
static void attach_peak(GstBuffer* buffer, guint box, guint width, guint height, gint id, gint parent,
                        gint entry_parent, const GValue& peak) {
  const GstStructure* fields = gst_value_get_structure(&peak);
  gint x = 0, y = 0;
  gst_structure_get_int(fields, "x", &x);
  gst_structure_get_int(fields, "y", &y);
  const gint64 x0 = std::max<gint64>(0, gint64(x) - (box - 1) / 2);
  const gint64 y0 = std::max<gint64>(0, gint64(y) - (box - 1) / 2);
  const gint64 x1 = std::min<gint64>(width, gint64(x) - (box - 1) / 2 + box);
  const gint64 y1 = std::min<gint64>(height, gint64(y) - (box - 1) / 2 + box);
  GstVideoRegionOfInterestMeta* meta = gst_buffer_add_video_region_of_interest_meta(
      buffer, "lumamax-peak", guint(x0), guint(y0), guint(x1 - x0), guint(y1 - y0));
  meta->id = id;
  meta->parent_id = parent;
  gst_video_region_of_interest_meta_add_param(meta, gst_structure_copy(fields));
  gdouble luma = 0;
  gst_structure_get_double(fields, "luma", &luma);
  vkc::analytics::add_box(buffer, "lumamax-peak", gint(x0), gint(y0), gint(x1 - x0), gint(y1 - y0),
                          gfloat(luma), entry_parent);
}

// The results of one region (its block of the results, shaders/lumamax_layout.h) into `s`: the
// fields of the one-region message.
static void set_region_fields(GstStructure* s, const State& state, const uint32_t* block, guint64 pixels,
                              guint count, const std::optional<vkc::lumamax::Light>& light) {
  const guint width = state.width;
  const double scale = state.scale();
  auto x_of = [&](uint32_t key_lo) { return gint((~key_lo) % width); };
  auto y_of = [&](uint32_t key_lo) { return gint((~key_lo) / width); };
  const guint64 sum = guint64(block[kLumaSum]) | (guint64(block[kLumaSum + 1]) << 32);
  const uint32_t* max_key = block + kMaxKey;
  const uint32_t* min_key = block + kMinKey;
  gst_structure_set(s, "x", G_TYPE_INT, x_of(max_key[1]), "y", G_TYPE_INT, y_of(max_key[1]), "luma",
                    G_TYPE_DOUBLE, max_key[0] / scale, "min-x", G_TYPE_INT, x_of(min_key[1]), "min-y",
                    G_TYPE_INT, y_of(min_key[1]), "min-luma", G_TYPE_DOUBLE,
                    (state.max_luma() - min_key[0]) / scale, "mean-luma", G_TYPE_DOUBLE,
                    double(sum) / (double(pixels) * (scale / (1u << state.depth))), nullptr);
  GValue peaks = G_VALUE_INIT;
  gst_value_array_init(&peaks, count);
  for (guint n = 0; n < count; ++n) {
    const uint32_t* key = block + kPeaks + 2 * n;
    if (key[0] == 0 && key[1] == 0) break;  // every other pixel is suppressed or below peak-threshold
    GValue peak = peak_value(x_of(key[1]), y_of(key[1]), key[0] / scale);
    gst_value_array_append_and_take_value(&peaks, &peak);
  }
  gst_structure_take_value(s, "peaks", &peaks);
  if (light)
    gst_structure_set(s, "max-light", G_TYPE_DOUBLE, light->max, "average-light", G_TYPE_DOUBLE,
                      light->average, nullptr);
}

// Each reported peak of `results` (a region's entry or the message) as a region-of-interest meta
// on `buffer`, a child of the region's own meta when it came from one, with ids from `*id` on; in
// the analytics relation meta, part of the entry `entry_parent`.
static void attach_peaks(GstBuffer* buffer, const GstStructure* results, const State& state, guint box,
                         gint entry_parent, gint* id) {
  const GValue* reported = gst_structure_get_value(results, "peaks");
  gint parent = -1;
  gst_structure_get_int(results, "roi-id", &parent);
  for (guint n = 0; reported && n < gst_value_array_get_size(reported); ++n)
    attach_peak(buffer, box, state.width, state.height, (*id)++, parent, entry_parent,
                *gst_value_array_get_value(reported, n));
}

// One above the largest id of the buffer's region-of-interest metas (0 with none): the first id
// of peaks that must not take an id of the regions they were found in.
static gint next_roi_id(GstBuffer* buffer) {
  gint next = 0;
  gpointer state = nullptr;
  while (GstMeta* meta =
             gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    next = MAX(next, reinterpret_cast<GstVideoRegionOfInterestMeta*>(meta)->id + 1);
  return next;
}

void LumamaxOperation::complete(vkc::CapsState& caps, vkc::Frame& frame) {
  const auto& state = static_cast<const State&>(caps);
  const Slot& slot = state.slots[frame.slot];
  const bool measured = state.light && slot.settings.light_statistics;
  // The stream's levels over the region of interest take in every frame measured, reported or not
  // (messages and metas may be turned on later).
  std::optional<vkc::lumamax::Light> frame_light;
  vkc::lumamax::ContentLight levels;
  if (measured && !slot.regions.listed) {
    frame_light = state.light->result(frame.slot, 0);
    std::lock_guard<std::mutex> lock(content_lock_);
    content_.add(*frame_light);
    levels = content_;
  }
  if (!slot.settings.post_messages && !slot.settings.attach_meta) return;
  const uint32_t* result = slot.scratch->result();
  const std::vector<const vkc::FrameRegion*> analysed = slot.regions.analysed();
  GstStructure* s = vkc::new_frame_structure("lumamax", frame.inbuf, frame.segment);
  if (slot.regions.listed) {
    vkc::set_region_results(s, slot.regions, [&](GstStructure* entry, guint i) {
      std::optional<vkc::lumamax::Light> light;
      if (measured) light = state.light->result(frame.slot, i);
      set_region_fields(entry, state, result + i * kTiles, analysed[i]->pixels(), slot.settings.count, light);
    });
  } else {
    set_region_fields(s, state, result, analysed[0]->pixels(), slot.settings.count, frame_light);
    if (frame_light)
      gst_structure_set(s, "max-cll", G_TYPE_DOUBLE, levels.max_cll, "max-fall", G_TYPE_DOUBLE,
                        levels.max_fall, nullptr);
  }
  vkc::analytics::Entries added;
  if (GstBuffer* out = vkc::attach_results(slot.settings, frame, s, "VkComputeLumamaxMeta", &added)) {
    // One region: the peaks' ids are their ranks. Several: unique on the buffer, numbered on from
    // the largest id there (the regions' own metas among them).
    gint id = slot.regions.listed ? next_roi_id(out) : 0;
    if (!slot.regions.listed) attach_peaks(out, s, state, slot.settings.peak_box, added.results, &id);
    const GValue* entries = gst_structure_get_value(s, "regions");
    for (guint i = 0; entries && i < gst_value_array_get_size(entries); ++i)
      attach_peaks(out, gst_value_get_structure(gst_value_array_get_value(entries, i)), state,
                   slot.settings.peak_box, added.regions[i], &id);
  }
  vkc::post_results(element_, slot.settings, s);
}

// A new stream, or one flushed: MaxCLL and MaxFALL start again.
void LumamaxOperation::restart() {
  std::lock_guard<std::mutex> lock(content_lock_);
  content_ = {};
}

static void gst_lumamax_init(GstLumamax* self) {
  kProperties.create(G_OBJECT(self));
  gst_vkcompute_filter_set_operation(GST_VKCOMPUTE_FILTER(self),
                                     std::make_unique<LumamaxOperation>(GST_ELEMENT(self)));
}

static void gst_lumamax_class_init(GstLumamaxClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* element_class = GST_ELEMENT_CLASS(klass);
  auto* filter_class = reinterpret_cast<GstVkComputeFilterClass*>(klass);
  GST_DEBUG_CATEGORY_INIT(gst_lumamax_debug, "lumamax", 0, "Brightest pixel on Vulkan");

  kProperties.install(gobject_class);

  gst_element_class_set_static_metadata(
      element_class, "Brightest pixel (Vulkan compute)", "Filter/Analyzer/Video",
      "Finds the brightest and darkest pixel, the mean luma and the top-N peaks of every frame on a Vulkan "
      "device and posts them as \"lumamax\" element messages; frames pass through unchanged",
      "gst-vkcompute developers");
  gst_vkcompute_filter_class_init_analysis(filter_class, GST_VIDEO_CAPS_MAKE(FORMATS));
}
