// The GPU time of elements' work on frames already in device memory, recorded back to back in one
// command buffer: what a kernel costs where no link, no upload and no lone launch hides it (a frame
// from a decoder, a chain's middle). The elements record their own work (their configure(),
// begin_frame() and record()), with the barriers a stream's frames need (framebarriers.hpp), so the
// time is theirs as a stream records it, its frames in one submission (as the frames of one batch
// are: a stream whose frames each go alone also pays, per frame, the queue's gap between
// submissions).
//
// For vkcompute-bench (--resident) and the suite, not for applications: the plugin exports one C
// function, found through GStreamer's registry (load_time_resident()), so that the caller needs
// nothing of the plugin's own Vulkan runtime.
#pragma once

#include <gmodule.h>
#include <gst/gst.h>

G_BEGIN_DECLS

// Times `n_frames` frames through `elements` (a chain in order, each a started vkcompute element
// whose caps are negotiated, on one device, with no frame in flight and none coming: the caller's
// pipeline has reached EOS). `frames` holds the n_frames input frames one after another, each of
// `frame_bytes` laid out as the first element's sink caps say (GstVideoInfo's default layout).
// Frame i takes ring slot i % 4, as a stream's frames do; each stage's frames of one slot share one
// buffer. Records them all into one command buffer, submits it `repeats` + 1 times (the first
// untimed: it clears what the elements clear once), and gives the GPU time per frame: the median
// and the least of the timed submissions, divided by n_frames; `moved_bytes` (when given) gets the
// bytes of frames the elements read and write per frame (each element's input, and a filter's
// output), what the device's memory must move at least. With `last_output`, the last
// element's output of the last frame (laid out as its source caps say; `last_output_bytes` long)
// after the timed submissions, or, for a chain of analyses, that frame as they passed it on.
// FALSE with `error` set when an element is not one of ours, not started, drawing into its frames,
// on another device, or its work cannot be recorded.
G_MODULE_EXPORT gboolean gst_vkcompute_time_resident(GstElement* const* elements, guint n_elements,
                                                     const guint8* frames, gsize frame_bytes, guint n_frames,
                                                     guint repeats, gdouble* median_us, gdouble* least_us,
                                                     gsize* moved_bytes, guint8* last_output,
                                                     gsize last_output_bytes, GError** error);

typedef gboolean (*GstVkComputeTimeResident)(GstElement* const*, guint, const guint8*, gsize, guint, guint,
                                             gdouble*, gdouble*, gsize*, guint8*, gsize, GError**);

// gst_vkcompute_time_resident() of the vkcompute plugin in GStreamer's registry (loaded if it is
// not yet), or NULL with `why` set (a string the caller frees).
static inline GstVkComputeTimeResident load_time_resident(gchar** why) {
  GstPlugin* plugin = gst_registry_find_plugin(gst_registry_get(), "vkcompute");
  GstPlugin* loaded = plugin ? gst_plugin_load(plugin) : NULL;
  if (plugin) gst_object_unref(plugin);
  if (!loaded) {
    *why = g_strdup("the vkcompute plugin is not in GStreamer's registry or does not load");
    return NULL;
  }
  // The plugin's module, already open: this adds a reference that is never dropped, as GStreamer
  // keeps its plugins loaded.
  GModule* module = g_module_open(gst_plugin_get_filename(loaded), G_MODULE_BIND_LAZY);
  gst_object_unref(loaded);
  gpointer symbol = NULL;
  if (!module || !g_module_symbol(module, "gst_vkcompute_time_resident", &symbol)) {
    *why = g_strdup_printf("the vkcompute plugin has no device-resident timing (%s)", g_module_error());
    return NULL;
  }
  return (GstVkComputeTimeResident)symbol;
}

G_END_DECLS
