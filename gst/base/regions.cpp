#include "regions.hpp"

#include <cstring>

namespace vkc {

bool RegionOfInterest::clamp(guint frame_width, guint frame_height, guint& x0, guint& y0, guint& x1,
                             guint& y1, std::string& error) const {
  x0 = MIN(x, frame_width);
  y0 = MIN(y, frame_height);
  x1 = width ? guint(MIN(guint64(x) + width, guint64(frame_width))) : frame_width;
  y1 = height ? guint(MIN(guint64(y) + height, guint64(frame_height))) : frame_height;
  if (x1 > x0 && y1 > y0) return true;
  error = "region of interest x=" + std::to_string(x) + " y=" + std::to_string(y) +
          " width=" + std::to_string(width) + " height=" + std::to_string(height) +
          " holds no pixel of the " + std::to_string(frame_width) + "x" + std::to_string(frame_height) +
          " frame";
  return false;
}

namespace {

const char* const kCoordinates[] = {"x", "y", "width", "height"};

// The array's element `i` as a structure: a GstStructure, or a string that parses as one (owned
// by `parsed`, freed by the caller).
const GstStructure* element_structure(const GValue* value, guint i, GstStructure*& parsed) {
  const GValue* element = gst_value_array_get_value(value, i);
  parsed = nullptr;
  if (GST_VALUE_HOLDS_STRUCTURE(element)) return gst_value_get_structure(element);
  if (G_VALUE_HOLDS_STRING(element) && g_value_get_string(element))
    parsed = gst_structure_from_string(g_value_get_string(element), nullptr);
  return parsed;
}

// Why `s` is not a `region` structure, or "".
std::string region_refused(const GstStructure* s) {
  if (!s) return "is not a structure";
  if (!gst_structure_has_name(s, "region"))
    return std::string("is named \"") + gst_structure_get_name(s) + "\", not \"region\"";
  for (gint f = 0; f < gst_structure_n_fields(s); ++f) {
    const char* field = gst_structure_nth_field_name(s, guint(f));
    const GValue* v = gst_structure_get_value(s, field);
    if (!strcmp(field, "id")) {
      if (!G_VALUE_HOLDS_STRING(v)) return "has an id that is not a string";
      continue;
    }
    bool coordinate = false;
    for (const char* name : kCoordinates) coordinate |= !strcmp(field, name);
    if (!coordinate) return std::string("has a field \"") + field + "\" (x, y, width, height and id only)";
    if (G_VALUE_HOLDS_INT(v) ? g_value_get_int(v) < 0 : !G_VALUE_HOLDS_UINT(v))
      return std::string("has a ") + field + " that is not a number of pixels (an integer >= 0)";
  }
  return "";
}

guint coordinate(const GstStructure* s, const char* field) {
  const GValue* v = gst_structure_get_value(s, field);
  if (!v) return 0;
  return G_VALUE_HOLDS_INT(v) ? guint(g_value_get_int(v)) : g_value_get_uint(v);
}

}  // namespace

std::string regions_refused(const GValue* value) {
  if (!GST_VALUE_HOLDS_ARRAY(value)) return "is not an array of region structures";
  const guint n = gst_value_array_get_size(value);
  if (n > kMaxRegions)
    return "lists " + std::to_string(n) + " regions (at most " + std::to_string(kMaxRegions) + ")";
  for (guint i = 0; i < n; ++i) {
    GstStructure* parsed;
    const std::string why = region_refused(element_structure(value, i, parsed));
    if (parsed) gst_structure_free(parsed);
    if (!why.empty()) return "is refused: its region " + std::to_string(i) + " " + why;
  }
  return "";
}

std::vector<ListedRegion> regions_from_value(const GValue* value) {
  std::vector<ListedRegion> regions;
  if (!GST_VALUE_HOLDS_ARRAY(value)) return regions;
  for (guint i = 0; i < gst_value_array_get_size(value); ++i) {
    GstStructure* parsed;
    const GstStructure* s = element_structure(value, i, parsed);
    if (!s) continue;
    ListedRegion region;
    region.rect = {coordinate(s, "x"), coordinate(s, "y"), coordinate(s, "width"), coordinate(s, "height")};
    if (const char* id = gst_structure_get_string(s, "id")) region.id = id;
    regions.push_back(region);
    if (parsed) gst_structure_free(parsed);
  }
  return regions;
}

void regions_to_value(const std::vector<ListedRegion>& regions, GValue* value) {
  GValue array = G_VALUE_INIT;
  gst_value_array_init(&array, guint(regions.size()));
  for (const ListedRegion& region : regions) {
    GstStructure* s =
        gst_structure_new("region", "x", G_TYPE_UINT, region.rect.x, "y", G_TYPE_UINT, region.rect.y, "width",
                          G_TYPE_UINT, region.rect.width, "height", G_TYPE_UINT, region.rect.height, nullptr);
    if (!region.id.empty()) gst_structure_set(s, "id", G_TYPE_STRING, region.id.c_str(), nullptr);
    GValue element = G_VALUE_INIT;
    g_value_init(&element, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&element, s);
    gst_value_array_append_and_take_value(&array, &element);
  }
  g_value_copy(&array, value);
  g_value_unset(&array);
}

GParamSpec* regions_param_spec(const char* name, const char* nick, const char* blurb, GParamFlags flags) {
  return gst_param_spec_array(
      name, nick, blurb,
      g_param_spec_boxed("region", "Region", "x, y, width, height and an optional id", GST_TYPE_STRUCTURE,
                         GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS)),
      flags);
}

std::vector<const FrameRegion*> FrameRegions::analysed() const {
  std::vector<const FrameRegion*> regions;
  for (const FrameRegion& region : list)
    if (!region.empty()) regions.push_back(&region);
  return regions;
}

GstStructure* new_region_entry(const FrameRegion& region) {
  const bool empty = region.empty();
  GstStructure* s =
      gst_structure_new("region", "roi-x", G_TYPE_UINT, empty ? region.asked.x : region.x0, "roi-y",
                        G_TYPE_UINT, empty ? region.asked.y : region.y0, "roi-width", G_TYPE_UINT,
                        empty ? region.asked.width : region.x1 - region.x0, "roi-height", G_TYPE_UINT,
                        empty ? region.asked.height : region.y1 - region.y0, nullptr);
  if (region.from_meta)
    gst_structure_set(s, "roi-id", G_TYPE_INT, region.roi_id, "roi-type", G_TYPE_STRING,
                      region.roi_type.c_str(), nullptr);
  else if (!region.id.empty())
    gst_structure_set(s, "id", G_TYPE_STRING, region.id.c_str(), nullptr);
  gst_structure_set(s, "empty", G_TYPE_BOOLEAN, empty, nullptr);
  return s;
}

}  // namespace vkc
