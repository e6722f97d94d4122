// The regions an analysis element analyses in a frame: the one region of the roi-* properties, the
// list of the `regions` property, or the GstVideoRegionOfInterestMeta of the incoming buffer
// (regions-from-meta, optionally of one roi-type); and how each region is named in the results.
#pragma once

#include <gst/video/video.h>

#include <string>
#include <vector>

namespace vkc {

// The most regions a frame is analysed in (the `regions` property, or the metas of a frame).
inline constexpr guint kMaxRegions = 256;

// roi-x, roi-y, roi-width, roi-height: width or height 0 = up to the frame edge.
struct RegionOfInterest {
  guint x = 0, y = 0, width = 0, height = 0;

  // The region clamped to a width x height frame, as [x0, x1) x [y0, y1). False, with `error`
  // set, when nothing of it lies in the frame.
  bool clamp(guint frame_width, guint frame_height, guint& x0, guint& y0, guint& x1, guint& y1,
             std::string& error) const;
};

// One `region` structure of the `regions` property: x, y, width, height (> 0) and an optional id.
struct ListedRegion {
  RegionOfInterest rect;
  std::string id;
  bool operator==(const ListedRegion& other) const {
    return rect.x == other.rect.x && rect.y == other.rect.y && rect.width == other.rect.width &&
           rect.height == other.rect.height && id == other.id;
  }
};

// The `regions` property (a GstValueArray of `region` structures) to and from its value.
std::vector<ListedRegion> regions_from_value(const GValue* value);
void regions_to_value(const std::vector<ListedRegion>& regions, GValue* value);
// Why `value` is not a valid `regions` value, or "" when it is.
std::string regions_refused(const GValue* value);
// Its GParamSpec: a GstValueArray of GstStructure.
GParamSpec* regions_param_spec(const char* name, const char* nick, const char* blurb, GParamFlags flags);

// One region of one frame, as the kernels read it and as the results name it.
struct FrameRegion {
  RegionOfInterest asked;                // as set, or the meta's rectangle
  guint x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // clamped to the frame; empty when no pixel of it is in it
  std::string id;                        // a listed region's id ("" = none)
  bool from_meta = false;                // then roi_id and roi_type are the meta's
  gint roi_id = 0;
  std::string roi_type;

  bool empty() const { return x1 <= x0 || y1 <= y0; }
  guint64 pixels() const { return empty() ? 0 : guint64(x1 - x0) * (y1 - y0); }
};

// A frame's regions. `listed`: results go into a `regions` array, one entry per region (the
// `regions` property or regions-from-meta); otherwise the one region of the roi-* properties,
// whose results are the message's own fields.
struct FrameRegions {
  bool listed = false;
  std::vector<FrameRegion> list;

  // The regions with at least one pixel, which the kernels analyse, in order.
  std::vector<const FrameRegion*> analysed() const;
};

// The structure of a region's entry in the `regions` array, before the results: roi-x, roi-y,
// roi-width, roi-height (the rectangle analysed, or the one asked for when empty), id or roi-id and
// roi-type, and empty.
GstStructure* new_region_entry(const FrameRegion& region);

}  // namespace vkc
