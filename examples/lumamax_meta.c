/* Prints, for every video frame, its brightest pixel and its brightest peaks, read from the frame
 * itself at an appsink: lumamax with attach-meta=true puts its results on every frame it passes
 * on (a GstCustomMeta "VkComputeLumamaxMeta" with the fields of its "lumamax" message, and each
 * peak as a GstVideoRegionOfInterestMeta of type "lumamax-peak"), so an application gets each
 * frame together with what was measured on it, with no bus messages to match by timestamp.
 *
 *   GST_PLUGIN_PATH=<builddir>/gst <builddir>/examples/lumamax-meta [FRAMES]
 *
 * Analyses FRAMES (default 30) frames of videotestsrc's "ball" pattern, a white ball moving over
 * black. One line per frame:
 *   0:00:00.033333333  x= 160 y= 107 luma=1.0000  peaks: (160,107 9x9) (179,114 9x9) (147,123 9x9)
 * the running time, the brightest pixel and its luma (0..1), and each peak's box.
 *
 * Built against GStreamer 1.24 or later with its analytics library (HAVE_GST_ANALYTICS), it reads
 * the same results from the frame's GstAnalyticsRelationMeta instead, as GStreamer's analytics
 * elements would: the "vkcompute-results" entry holds the message's fields (a serialized
 * GstStructure), and each peak's box is a "lumamax-peak" object-detection entry that is part of it.
 */
#ifdef HAVE_GST_ANALYTICS
#include <gst/analytics/analytics.h>
#endif
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef HAVE_GST_ANALYTICS
/* The frame's lumamax results from its analytics relation meta: the results entry's structure
 * (to free) and its id, or NULL. */
static GstStructure *relation_results(GstAnalyticsRelationMeta *meta, guint *id) {
  gpointer state = NULL;
  GstAnalyticsMtd entry;
  while (gst_analytics_relation_meta_iterate(meta, &state, GST_ANALYTICS_MTD_TYPE_ANY, &entry)) {
    if (g_strcmp0(gst_analytics_mtd_type_get_name(gst_analytics_mtd_get_mtd_type(&entry)),
                  "vkcompute-results"))
      continue;
    GstStructure *results =
        gst_structure_from_string(gst_analytics_relation_meta_get_mtd_data(meta, entry.id), NULL);
    if (results && gst_structure_has_name(results, "lumamax")) {
      *id = entry.id;
      return results;
    }
    if (results) gst_structure_free(results);
  }
  return NULL;
}

static void print_frame(GstBuffer *buffer, GstSegment *segment) {
  GstAnalyticsRelationMeta *meta = gst_buffer_get_analytics_relation_meta(buffer);
  guint id = 0;
  GstStructure *results = meta ? relation_results(meta, &id) : NULL;
  if (results == NULL) {
    printf("frame without results\n");
    return;
  }
  gint x = 0, y = 0;
  gdouble luma = 0;
  gst_structure_get(results, "x", G_TYPE_INT, &x, "y", G_TYPE_INT, &y, "luma", G_TYPE_DOUBLE, &luma, NULL);
  GstClockTime running_time = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
  printf("%" GST_TIME_FORMAT "  x=%4d y=%4d luma=%.4f  peaks:", GST_TIME_ARGS(running_time), x, y, luma);

  /* The peaks' boxes, in rank order: the entries the results entry contains. */
  const GValue *peaks = gst_structure_get_value(results, "peaks");
  gpointer state = NULL;
  GstAnalyticsODMtd box;
  guint n = 0;
  while (gst_analytics_relation_meta_get_direct_related(meta, id, GST_ANALYTICS_REL_TYPE_CONTAIN,
                                                        gst_analytics_od_mtd_get_mtd_type(), &state, &box)) {
    if (gst_analytics_od_mtd_get_obj_type(&box) != g_quark_from_string("lumamax-peak")) continue;
    gint box_x, box_y, w, h;
    gfloat confidence;
    gst_analytics_od_mtd_get_location(&box, &box_x, &box_y, &w, &h, &confidence);
    gint peak_x = 0, peak_y = 0;
    if (peaks && n < gst_value_array_get_size(peaks))
      gst_structure_get(gst_value_get_structure(gst_value_array_get_value(peaks, n)), "x", G_TYPE_INT,
                        &peak_x, "y", G_TYPE_INT, &peak_y, NULL);
    printf(" (%d,%d %dx%d)", peak_x, peak_y, w, h);
    n++;
  }
  printf("\n");
  gst_structure_free(results);
}
#else
static void print_frame(GstBuffer *buffer, GstSegment *segment) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "VkComputeLumamaxMeta");
  if (meta == NULL) {
    printf("frame without results\n");
    return;
  }
  const GstStructure *results = gst_custom_meta_get_structure(meta);
  gint x = 0, y = 0;
  gdouble luma = 0;
  gst_structure_get(results, "x", G_TYPE_INT, &x, "y", G_TYPE_INT, &y, "luma", G_TYPE_DOUBLE, &luma, NULL);
  GstClockTime running_time = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
  printf("%" GST_TIME_FORMAT "  x=%4d y=%4d luma=%.4f  peaks:", GST_TIME_ARGS(running_time), x, y, luma);

  gpointer state = NULL;
  GstMeta *roi_meta;
  while ((roi_meta =
              gst_buffer_iterate_meta_filtered(buffer, &state, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *)roi_meta;
    if (roi->roi_type != g_quark_from_static_string("lumamax-peak")) continue;
    const GstStructure *peak = gst_video_region_of_interest_meta_get_param(roi, "peak");
    gint peak_x = 0, peak_y = 0;
    gst_structure_get(peak, "x", G_TYPE_INT, &peak_x, "y", G_TYPE_INT, &peak_y, NULL);
    printf(" (%d,%d %ux%u)", peak_x, peak_y, roi->w, roi->h);
  }
  printf("\n");
}
#endif

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  const int frames = argc > 1 ? atoi(argv[1]) : 30;
  if (gst_element_factory_find("lumamax") == NULL) {
    fprintf(stderr, "lumamax not found: set GST_PLUGIN_PATH to the directory holding libgstvkcompute.so\n");
    return 2;
  }
  gchar *description = g_strdup_printf(
      "videotestsrc pattern=ball num-buffers=%d ! videoconvert ! "
      "lumamax attach-meta=true post-messages=false count=3 min-distance=20 peak-box=9 ! "
      "appsink name=sink sync=false",
      frames);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  g_free(description);
  if (pipeline == NULL) {
    fprintf(stderr, "%s\n", error->message);
    return 1;
  }
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  gst_element_set_state(pipeline, GST_STATE_PLAYING);

  GstSample *sample;
  while ((sample = gst_app_sink_pull_sample(GST_APP_SINK(sink))) != NULL) {
    print_frame(gst_sample_get_buffer(sample), gst_sample_get_segment(sample));
    gst_sample_unref(sample);
  }

  /* The stream ended (EOS) or failed: an error is on the bus. */
  int status = 0;
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message = gst_bus_pop_filtered(bus, GST_MESSAGE_ERROR);
  if (message != NULL) {
    gst_message_parse_error(message, &error, NULL);
    fprintf(stderr, "error: %s\n", error->message);
    g_clear_error(&error);
    gst_message_unref(message);
    status = 1;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return status;
}
