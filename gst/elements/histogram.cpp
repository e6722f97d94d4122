// histogram: exact per-channel histograms of every frame (R, G, B, luma and alpha of RGB; Y, U
// and V of YUV), of code values at the format's depth (8 to 16 bits), posted as an element message
// when the GPU is done. Frames pass through
// untouched and without waiting, unless `draw` asks for the graph to be drawn into them.
#include <gst/gst.h>
#include <gst/video/video.h>

#include <array>
#include <map>
#include <memory>
#include <vector>

#include "base/analysis.hpp"
#include "base/computefilter.hpp"
#include "base/samples.hpp"
#include "elements.hpp"
#include "histogram.spv.h"
#include "histogram_draw.spv.h"
#include "histogram_fast8.spv.h"
#include "histogram_layout.h"
#include "vk/kernel.hpp"
#include "vk/readback.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_histogram_debug);
#define GST_CAT_DEFAULT gst_histogram_debug

#define FORMATS                                                                                      \
  "{ RGB, BGR, RGBA, BGRA, ARGB, ABGR, RGBx, BGRx, xRGB, xBGR, GRAY8, I420, NV12, Y444, GRAY16_LE, " \
  "P010_10LE, "                                                                                      \
  "P016_LE, I420_10LE, I420_12LE, I422_10LE, Y444_10LE, Y444_16LE, RGBA64_LE, BGR10A2_LE }"

namespace {

// The kernels' blocks, counts layout and push constants (shaders/histogram_layout.h).
using vkc::shader::histogram::DrawParams;
using vkc::shader::histogram::kBlockHeight;
using vkc::shader::histogram::kBlockWidth;
using vkc::shader::histogram::kChannels;
using vkc::shader::histogram::kDrawGroupX;
using vkc::shader::histogram::kDrawGroupY;
using vkc::shader::histogram::kDrawPixelsPerInvocation;
using vkc::shader::histogram::kFastGroups;
using vkc::shader::histogram::kFastInvocations;
using vkc::shader::histogram::kFastLoadBytes;
using vkc::shader::histogram::kFastMinGroups;
using vkc::shader::histogram::kFastTilesPerGroup;
using vkc::shader::histogram::kMaxBins;
using vkc::shader::histogram::kMaxDrawnChannels;
using vkc::shader::histogram::kNarrowBins;
using vkc::shader::histogram::kNoLuma;
using vkc::shader::histogram::kPixelsPerInvocation;
using vkc::shader::histogram::kRegionWords;
using vkc::shader::histogram::Params;

constexpr guint kGraphWidth = 256, kGraphHeight = 100;  // at most; bottom-left corner

struct Settings : vkc::AnalysisSettings {
  guint bins = 256;
  gboolean draw = FALSE;
};

// One dispatch: a plane and the channels it holds.
struct PlaneJob {
  guint plane;
  uint32_t bpp, channels, order, slots, luma_slot;
  guint sub_x, sub_y;     // subsampling against the frame
  uint32_t sample_bytes;  // of every channel of the plane
  uint32_t shifts = 0, depths = 0;

  // Channel `channel` of the job counts the samples of component `component` into histogram
  // `slot`.
  void add(const vkc::SampleLayout& sample, guint slot) {
    bpp = sample.pixel_stride;
    sample_bytes = sample.bytes;
    order |= sample.offset << (8 * channels);
    shifts |= sample.shift << (8 * channels);
    depths |= sample.depth << (8 * channels);
    slots |= slot << (8 * channels);
    sub_x = 1u << sample.w_sub;
    sub_y = 1u << sample.h_sub;
    channels++;
  }

  // Whether the 8-bit kernel counts it (shaders/histogram_fast8.comp): whole bytes of 8-bit
  // samples in pixels of 1, 2 or 4 bytes.
  bool eight_bit() const {
    for (guint c = 0; c < channels; ++c)
      if (((depths >> (8 * c)) & 0xff) != 8) return false;
    return sample_bytes == 1 && shifts == 0 && (bpp == 1 || bpp == 2 || bpp == 4);
  }
};

// The key of a job's kernel: its bytes per pixel and per sample (the specialization).
uint32_t kernel_key(const PlaneJob& job) {
  return job.bpp * 8 + job.sample_bytes;
}

// One frame slot: the counts the GPU writes and what the message needs once it is done.
struct Slot {
  std::unique_ptr<vkc::Readback> counts;
  guint regions_room = 0;                  // the regions the counts buffer has room for
  uint32_t histogram_words = kNarrowBins;  // and its histograms' size (shaders/histogram_layout.h)
  Settings settings;                       // the frame's, from begin_frame()
  vkc::FrameRegions regions;

  // Word offset of plane job j's region table (shaders/histogram_layout.h).
  uint32_t table(size_t job) const { return regions_room * (region_words() + uint32_t(job) * kRegionWords); }
  // Uints from one region's histograms and counter to the next.
  uint32_t region_words() const { return kChannels * histogram_words + 1; }
};

// Everything derived from the negotiated caps.
struct State : vkc::CapsState {
  std::shared_ptr<vkc::Device> device;
  std::map<uint32_t, std::unique_ptr<vkc::Kernel>> kernels;  // by kernel_key()
  std::vector<PlaneJob> jobs;
  // Each job's 8-bit kernel, taken at 256 bins over one region; null where the job is not eight_bit().
  std::vector<std::unique_ptr<vkc::Kernel>> fast;
  std::vector<const char*> names;  // message field of each histogram
  GstVideoInfo info;
  guint width = 0, height = 0;
  // draw: the graph's kernel and which histograms go into which bytes of plane 0
  std::unique_ptr<vkc::Kernel> draw;
  uint32_t draw_bpp = 1, draw_sample_bytes = 1, draw_channels = 1, draw_order = 0, draw_shifts = 0,
           draw_depths = 0;
  std::array<Slot, kVkComputeFramesInFlight> slots;
};

// The planes to count and the histogram of each channel: RGB formats give red, green, blue, luma
// (computed from them) and alpha when present; YUV formats luma, u, v; GRAY8 luma.
void plan_jobs(const GstVideoInfo& info, State& state) {
  const GstVideoFormatInfo* finfo = info.finfo;
  const GstVideoFormat format = GST_VIDEO_INFO_FORMAT(&info);
  if (GST_VIDEO_FORMAT_INFO_IS_RGB(finfo)) {
    const bool alpha = GST_VIDEO_FORMAT_INFO_HAS_ALPHA(finfo);
    // Histograms: 0 red, 1 green, 2 blue, 3 luma, 4 alpha.
    PlaneJob job{0, 0, 0, 0, 0, 3u, 1, 1, 1};
    const guint slots[] = {0, 1, 2, 4};
    for (guint c = 0; c < (alpha ? 4u : 3u); ++c) job.add(vkc::sample_layout(format, c), slots[c]);
    state.jobs.push_back(job);
    state.names = {"red", "green", "blue", "luma"};
    if (alpha) state.names.push_back("alpha");
    return;
  }
  // Y, U, V components, grouped by plane: histogram c counts component c.
  const char* names[] = {"luma", "u", "v"};
  for (guint plane = 0; plane < GST_VIDEO_FORMAT_INFO_N_PLANES(finfo); ++plane) {
    PlaneJob job{plane, 0, 0, 0, 0, kNoLuma, 1, 1, 1};
    for (guint c = 0; c < GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo); ++c)
      if (GST_VIDEO_FORMAT_INFO_PLANE(finfo, c) == plane) job.add(vkc::sample_layout(format, c), c);
    state.jobs.push_back(job);
  }
  state.names.assign(names, names + GST_VIDEO_FORMAT_INFO_N_COMPONENTS(finfo));
}

// What histogram does to each frame.
class HistogramOperation final : public vkc::ElementOperation {
 public:
  using ElementOperation::ElementOperation;
  // Drawing while `draw` is set.
  vkc::Mode mode() const override;
  std::unique_ptr<vkc::CapsState> configure(const std::shared_ptr<vkc::Device>& device,
                                            const GstVideoInfo& in, const GstVideoInfo& out,
                                            GError** error) override;
  bool begin_frame(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
  bool record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) override;
  void complete(vkc::CapsState& caps, vkc::Frame& frame) override;
};

}  // namespace

struct GstHistogram {
  GstVkComputeFilter parent;
  Settings* settings;  // object lock; kProperties allocates and frees it
};

struct GstHistogramClass {
  GstVkComputeFilterClass parent_class;
};

using P = vkc::Properties<Settings>;
static const vkc::PropertyTable<Settings> kProperties{
    [](GObject* object) -> Settings*& { return reinterpret_cast<GstHistogram*>(object)->settings; },
    {
        P::uint("bins", "Bins",
                "Bins per histogram; a code value v of d bits (8, 10, 12 or 16, the format's depth) falls in "
                "bin v * bins / 2^d",
                1, kMaxBins, kNarrowBins, VKC_FIELD(bins)),
        P::boolean("draw", "Draw",
                   "Draw the histogram as a translucent graph (up to 256x100 pixels) into the bottom-left "
                   "corner of every frame, on the GPU; the element then outputs new frames. A change while "
                   "PLAYING applies from the next frame",
                   FALSE, VKC_FIELD(draw)),
    },
    vkc::analysis_properties()};  // post-messages, matrix, roi-*

G_DEFINE_TYPE(GstHistogram, gst_histogram, GST_TYPE_VKCOMPUTE_FILTER)
GST_ELEMENT_REGISTER_DEFINE(histogram, "histogram", GST_RANK_NONE, gst_histogram_get_type())

// The slot's counts buffer with room for `regions` regions of `bins` bins, made anew (zeroed by its
// first frame) when the one it has does not fit them. The slot's previous frame is done. False,
// with `error`, when they would not fit in one storage buffer of the device.
static bool make_room(const State& state, Slot& slot, guint regions, guint bins, GError** error) {
  const uint32_t words = MAX(bins, kNarrowBins);
  if (slot.counts && regions <= slot.regions_room && words == slot.histogram_words) return true;
  Slot sized;
  sized.regions_room = MAX(regions, slot.regions_room);
  sized.histogram_words = words;
  const vk::DeviceSize bytes = vk::DeviceSize(sized.table(state.jobs.size())) * sizeof(uint32_t);
  if (!vkc::fits_one_buffer(*state.device, bytes,
                            std::to_string(regions) + " regions of " + std::to_string(bins) + " bins' counts",
                            "use fewer bins or regions", error))
    return false;
  slot.regions_room = sized.regions_room;
  slot.histogram_words = words;
  slot.counts = std::make_unique<vkc::Readback>(
      state.device, bytes, slot.regions_room * slot.region_words() * sizeof(uint32_t), "histogram counts");
  return true;
}

std::unique_ptr<vkc::CapsState> HistogramOperation::configure(const std::shared_ptr<vkc::Device>& device,
                                                              const GstVideoInfo& in, const GstVideoInfo&,
                                                              GError** error) {
  if (guint64(GST_VIDEO_INFO_WIDTH(&in)) * GST_VIDEO_INFO_HEIGHT(&in) > G_MAXUINT32) {
    g_set_error(error, GST_STREAM_ERROR, GST_STREAM_ERROR_FORMAT,
                "%dx%d frames are too large: counts are 32-bit, at most 2^32 - 1 pixels",
                GST_VIDEO_INFO_WIDTH(&in), GST_VIDEO_INFO_HEIGHT(&in));
    return nullptr;
  }
  auto state = std::make_unique<State>();
  state->info = in;
  state->width = GST_VIDEO_INFO_WIDTH(&in);
  state->height = GST_VIDEO_INFO_HEIGHT(&in);
  plan_jobs(in, *state);

  for (const PlaneJob& job : state->jobs) {
    auto& kernel = state->kernels[kernel_key(job)];
    if (!kernel)
      kernel = std::make_unique<vkc::Kernel>(
          device, vkc::KernelInfo{.name = "histogram",
                                  .spirv = histogram_spv,
                                  .spirv_bytes = sizeof(histogram_spv),
                                  .bindings = 4,  // frame, counts, frame again (16-byte loads), results
                                  .push_constant_bytes = sizeof(Params),
                                  .specialization = {job.bpp, job.sample_bytes}});
    // Compiled now, whatever the bins, so that a change of `bins` compiles nothing mid-stream.
    state->fast.push_back(
        job.eight_bit() ? std::make_unique<vkc::Kernel>(
                              device, vkc::KernelInfo{.name = "histogram fast8",
                                                      .spirv = histogram_fast8_spv,
                                                      .spirv_bytes = sizeof(histogram_fast8_spv),
                                                      .bindings = 4,  // as histogram's
                                                      .push_constant_bytes = sizeof(Params),
                                                      .specialization = {job.bpp, job.channels, job.order,
                                                                         job.slots, job.luma_slot}})
                        : nullptr);
  }
  state->device = device;
  for (Slot& slot : state->slots) make_room(*state, slot, 1, kNarrowBins, nullptr);  // always fits
  // The graph: red, green and blue into their bytes of an RGB pixel, or luma into the Y plane.
  const PlaneJob& first = state->jobs.front();
  state->draw_bpp = first.bpp;
  state->draw_channels = first.luma_slot == kNoLuma ? 1 : kMaxDrawnChannels;
  const uint32_t drawn = state->draw_channels == 3 ? 0xffffffu : 0xffu;
  state->draw_order = first.order & drawn;
  state->draw_shifts = first.shifts & drawn;
  state->draw_depths = first.depths & drawn;
  state->draw_sample_bytes = first.sample_bytes;
  state->draw = std::make_unique<vkc::Kernel>(
      device, vkc::KernelInfo{.name = "histogram draw",
                              .spirv = histogram_draw_spv,
                              .spirv_bytes = sizeof(histogram_draw_spv),
                              .bindings = 2,
                              .push_constant_bytes = sizeof(DrawParams),
                              .specialization = {state->draw_bpp, state->draw_sample_bytes}});
  // The kernels read every plane once, kPixelsPerInvocation pixels per invocation. (The 8-bit kernel
  // reads 16 bytes at a time, but its frames are staged as the blocks' would be until a measurement
  // says whether a Y plane read in place that way is faster.)
  uint32_t widest = 0;
  for (const PlaneJob& job : state->jobs) widest = MAX(widest, job.bpp);
  state->input_reads = {.planes = GST_VIDEO_INFO_N_PLANES(&in), .load_bytes = kPixelsPerInvocation * widest};
  GST_INFO_OBJECT(element_, "%s %ux%u, %zu planes", GST_VIDEO_INFO_NAME(&in), state->width, state->height,
                  state->jobs.size());
  return state;
}

// The graph into the bottom-left corner of the output frame, once the counts are complete.
static void record_draw(const State& state, const vkc::Frame& frame, guint bins) {
  DrawParams params{.offset = frame.out.offset[0],
                    .stride = frame.out.stride[0],
                    .top = state.height - MIN(state.height, kGraphHeight),
                    .width = MIN(state.width, kGraphWidth),
                    .height = MIN(state.height, kGraphHeight),
                    .channels = state.draw_channels,
                    .order = state.draw_order,
                    .bins = bins,
                    .shifts = state.draw_shifts,
                    .depths = state.draw_depths,
                    .histogram_words = state.slots[frame.slot].histogram_words};
  state.draw->update(frame.slot, {{state.slots[frame.slot].counts->host()}, {frame.out.buffer}});
  vkc::compute_barrier(frame.cmd);
  const uint32_t group_width = kDrawGroupX * kDrawPixelsPerInvocation;
  state.draw->dispatch(frame.cmd, frame.slot, &params, (params.width + group_width - 1) / group_width,
                       (params.height + kDrawGroupY - 1) / kDrawGroupY);
}

bool HistogramOperation::begin_frame(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  return vkc::take_frame_settings(kProperties, element_, static_cast<State&>(caps), frame, error);
}

// Workgroups across [from, to) of the frame at subsampling `sub`.
static uint32_t blocks(guint from, guint to, guint sub, guint block) {
  return ((to + sub - 1) / sub - from / sub + block - 1) / block;
}

// A plane job's part of a region: [x0, x1) x [y0, y1) in the plane's samples (a subsampled plane
// counts every sample that covers at least one pixel of the region), and its blocks across and down.
struct PlaneRegion {
  uint32_t x0, y0, x1, y1, across, down;
  PlaneRegion(const PlaneJob& job, const vkc::FrameRegion& r)
      : x0(r.x0 / job.sub_x),
        y0(r.y0 / job.sub_y),
        x1((r.x1 + job.sub_x - 1) / job.sub_x),
        y1((r.y1 + job.sub_y - 1) / job.sub_y),
        across(blocks(r.x0, r.x1, job.sub_x, kBlockWidth)),
        down(blocks(r.y0, r.y1, job.sub_y, kBlockHeight)) {}
};

// The grid of a job's dispatch over `part` of one region: a workgroup per block, or the 8-bit
// kernel's tiles of kFastInvocations 16-byte loads, its rows laid end to end, one workgroup per
// kFastTilesPerGroup of them from kFastMinGroups to kFastGroups (shaders/histogram_layout.h).
struct Grid {
  uint32_t x, y;
};
static Grid one_region_grid(const PlaneJob& job, const PlaneRegion& part, bool fast) {
  if (!fast) return {part.across, part.down};
  const guint64 row_loads = (guint64(part.x1 - part.x0) * job.bpp + kFastLoadBytes - 1) / kFastLoadBytes;
  const guint64 tiles = (row_loads * (part.y1 - part.y0) + kFastInvocations - 1) / kFastInvocations;
  const guint64 wanted = CLAMP((tiles + kFastTilesPerGroup - 1) / kFastTilesPerGroup, guint64(kFastMinGroups),
                               guint64(kFastGroups));
  return {uint32_t(MIN(tiles, wanted)), 1};
}

// Several regions: the region table of every plane job, `room` regions apart (Slot::table()), and
// the blocks of every region in each job.
static std::vector<uint32_t> region_tables(const State& state,
                                           const std::vector<const vkc::FrameRegion*>& regions, guint room,
                                           std::vector<uint32_t>& job_blocks) {
  std::vector<uint32_t> groups(regions.size(), 0);  // each region's, over every job
  for (const PlaneJob& job : state.jobs)
    for (size_t r = 0; r < regions.size(); ++r) {
      const PlaneRegion part(job, *regions[r]);
      groups[r] += part.across * part.down;
    }
  std::vector<uint32_t> tables;
  job_blocks.clear();
  for (const PlaneJob& job : state.jobs) {
    uint32_t first = 0;
    for (size_t r = 0; r < regions.size(); ++r) {
      const PlaneRegion part(job, *regions[r]);
      tables.insert(tables.end(), {part.x0, part.y0, part.x1, part.y1, part.across, first, groups[r], 0});
      first += part.across * part.down;
    }
    tables.resize(tables.size() + (room - regions.size()) * kRegionWords);
    job_blocks.push_back(first);
  }
  return tables;
}

bool HistogramOperation::record(vkc::CapsState& caps, vkc::Frame& frame, GError** error) {
  auto& state = static_cast<State&>(caps);
  Slot& slot = state.slots[frame.slot];
  const Settings& settings = slot.settings;
  const std::vector<const vkc::FrameRegion*> analysed = slot.regions.analysed();
  if (analysed.empty()) return true;  // a frame with no region: its results say so
  std::vector<uint32_t> tables, job_blocks;
  if (!make_room(state, slot, guint(analysed.size()), settings.bins, error)) return false;
  if (slot.regions.listed) tables = region_tables(state, analysed, slot.regions_room, job_blocks);

  const vkc::LumaCoefficients k = vkc::luma_coefficients(settings.matrix);
  // draw: the base class has copied the frame into the output, where the graph goes over it.
  // With 256 bins over one region, the planes of 8-bit samples take their 8-bit kernel.
  const bool narrow = settings.bins == kNarrowBins && !slot.regions.listed;
  auto kernel_of = [&](size_t job) -> vkc::Kernel& {
    return narrow && state.fast[job] ? *state.fast[job] : *state.kernels.at(kernel_key(state.jobs[job]));
  };
  for (size_t j = 0; j < state.jobs.size(); ++j)
    kernel_of(j).update(frame.slot,
                        {{frame.in.buffer}, {slot.counts->work()}, {frame.in.buffer}, {slot.counts->host()}});
  slot.counts->record_zero_once(frame.cmd);  // the kernel leaves its counters zeroed after each frame
  vkc::update_buffer(frame.cmd, slot.counts->work(), slot.table(0), tables);
  const vkc::FrameRegion one{.x0 = frame.x0, .y0 = frame.y0, .x1 = frame.x1, .y1 = frame.y1};
  std::vector<Grid> grids;  // one region: each job's
  uint32_t total_groups = 0;
  for (size_t j = 0; j < state.jobs.size(); ++j) {
    grids.push_back(one_region_grid(state.jobs[j], PlaneRegion(state.jobs[j], one), narrow && state.fast[j]));
    total_groups += grids.back().x * grids.back().y;
  }
  for (size_t j = 0; j < state.jobs.size(); ++j) {
    const PlaneJob& job = state.jobs[j];
    const PlaneRegion part(job, one);  // several regions: unused
    Params params{.offset = frame.in.offset[job.plane],
                  .stride = frame.in.stride[job.plane],
                  .x0 = part.x0,
                  .y0 = part.y0,
                  .x1 = part.x1,
                  .y1 = part.y1,
                  .channels = job.channels,
                  .order = job.order,
                  .slots = job.slots,
                  .luma_slot = job.luma_slot,
                  .kr = k.kr,
                  .kg = k.kg,
                  .kb = k.kb,
                  .bins = settings.bins,
                  .groups = total_groups,
                  .regions = slot.regions.listed ? uint32_t(analysed.size()) : 0,
                  .table = slot.table(j),
                  .blocks = slot.regions.listed ? job_blocks[j] : 0,
                  .shifts = job.shifts,
                  .depths = job.depths,
                  .histogram_words = slot.histogram_words};
    uint32_t groups_x = grids[j].x, groups_y = grids[j].y;
    if (params.regions) {
      // One workgroup per block of every region, in rows of up to 65 535 (every device's least
      // maxComputeWorkGroupCount).
      groups_x = MIN(params.blocks, 65535u);
      groups_y = (params.blocks + groups_x - 1) / groups_x;
    }
    kernel_of(j).dispatch(frame.cmd, frame.slot, &params, groups_x, groups_y);
  }
  if (settings.draw && frame.outbuf) record_draw(state, frame, settings.bins);
  return true;
}

// The histograms of one region (its part of the results, shaders/histogram_layout.h) into `s`: the
// fields of the one-region message.
static void set_region_fields(GstStructure* s, const State& state, const uint32_t* counts, guint bins,
                              uint32_t histogram_words, guint64 pixels) {
  gst_structure_set(s, "bins", G_TYPE_UINT, bins, "pixels", G_TYPE_UINT64, pixels, nullptr);
  // Up to 1280 GValues a frame: each count starts as a copy of one initialised guint64 GValue
  // (it holds no reference, so a plain copy is a valid value) rather than through g_value_init():
  // building and freeing a 5 x 256 message took 22 instead of 29 us on the project's CI machine.
  GValue zero = G_VALUE_INIT;
  g_value_init(&zero, G_TYPE_UINT64);
  for (guint h = 0; h < state.names.size(); ++h) {
    GValue array = G_VALUE_INIT;
    gst_value_array_init(&array, bins);
    for (guint b = 0; b < bins; ++b) {
      GValue count = zero;
      g_value_set_uint64(&count, counts[h * histogram_words + b]);
      gst_value_array_append_and_take_value(&array, &count);
    }
    gst_structure_take_value(s, state.names[h], &array);
  }
}

void HistogramOperation::complete(vkc::CapsState& caps, vkc::Frame& frame) {
  const auto& state = static_cast<const State&>(caps);
  const Slot& slot = state.slots[frame.slot];
  if (!slot.settings.post_messages && !slot.settings.attach_meta) return;
  const uint32_t* counts = slot.counts->result();
  const std::vector<const vkc::FrameRegion*> analysed = slot.regions.analysed();
  GstStructure* s = vkc::new_frame_structure("histogram", frame.inbuf, frame.segment);
  if (slot.regions.listed)
    vkc::set_region_results(s, slot.regions, [&](GstStructure* entry, guint i) {
      set_region_fields(entry, state, counts + i * slot.region_words(), slot.settings.bins,
                        slot.histogram_words, analysed[i]->pixels());
    });
  else
    set_region_fields(s, state, counts, slot.settings.bins, slot.histogram_words, analysed[0]->pixels());
  vkc::attach_results(slot.settings, frame, s, "VkComputeHistogramMeta");
  vkc::post_results(element_, slot.settings, s);
}

vkc::Mode HistogramOperation::mode() const {
  auto* self = reinterpret_cast<GstHistogram*>(element_);
  GST_OBJECT_LOCK(self);
  const bool draw = self->settings->draw;
  GST_OBJECT_UNLOCK(self);
  return draw ? vkc::Mode::kDrawing : vkc::Mode::kAnalysis;
}

static void gst_histogram_init(GstHistogram* self) {
  kProperties.create(G_OBJECT(self));
  gst_vkcompute_filter_set_operation(GST_VKCOMPUTE_FILTER(self),
                                     std::make_unique<HistogramOperation>(GST_ELEMENT(self)));
}

static void gst_histogram_class_init(GstHistogramClass* klass) {
  auto* gobject_class = G_OBJECT_CLASS(klass);
  auto* element_class = GST_ELEMENT_CLASS(klass);
  auto* filter_class = reinterpret_cast<GstVkComputeFilterClass*>(klass);
  GST_DEBUG_CATEGORY_INIT(gst_histogram_debug, "histogram", 0, "Histograms on Vulkan");

  kProperties.install(gobject_class);

  gst_element_class_set_static_metadata(element_class, "Histogram (Vulkan compute)", "Filter/Analyzer/Video",
                                        "Counts per-channel histograms of every frame on a Vulkan device and "
                                        "posts them as \"histogram\" element "
                                        "messages; frames pass through unchanged unless draw=true",
                                        "gst-vkcompute developers");
  gst_vkcompute_filter_class_init_analysis(filter_class, GST_VIDEO_CAPS_MAKE(FORMATS));
}
