/* Finds the brightest pixel of each quarter of every video frame, with the regions given the way a
 * detector upstream gives them: a pad probe attaches a GstVideoRegionOfInterestMeta per quarter to
 * each frame before lumamax, which (regions-from-meta=true roi-type=quarter) analyses each of them
 * on its own, all in one pass on the GPU, and (attach-meta=true) puts the results on the frame,
 * read at an appsink.
 *
 *   GST_PLUGIN_PATH=<builddir>/gst <builddir>/examples/lumamax-regions [FRAMES]
 *
 * Analyses FRAMES (default 30) frames of videotestsrc's "ball" pattern (320x240, a white ball moving
 * over black). One line per frame: the running time, then for each quarter (its meta's id: 0 top
 * left, 1 top right, 2 bottom left, 3 bottom right) the position and luma (0..1) of its brightest
 * pixel:
 *   0:00:00.033333333  0: x=160 y=107 luma=1.0000  1: x=160 y=  0 luma=0.0000  ...
 * The probe also attaches a meta of type "label", which roi-type=quarter leaves out.
 */
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <stdio.h>
#include <stdlib.h>

#define WIDTH 320
#define HEIGHT 240

/* The pad probe: the four quarters of the frame as region-of-interest metas, ids 0 to 3. */
static GstPadProbeReturn attach_quarters(GstPad *pad G_GNUC_UNUSED, GstPadProbeInfo *info,
                                         gpointer data G_GNUC_UNUSED) {
  GstBuffer *buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));
  for (gint n = 0; n < 4; ++n) {
    GstVideoRegionOfInterestMeta *meta = gst_buffer_add_video_region_of_interest_meta(
        buffer, "quarter", (n % 2) * WIDTH / 2, (n / 2) * HEIGHT / 2, WIDTH / 2, HEIGHT / 2);
    meta->id = n;
  }
  gst_buffer_add_video_region_of_interest_meta(buffer, "label", 0, 0, 10, 10);
  GST_PAD_PROBE_INFO_DATA(info) = buffer; /* the writable buffer goes on instead */
  return GST_PAD_PROBE_OK;
}

static void print_frame(GstBuffer *buffer, GstSegment *segment) {
  GstCustomMeta *meta = gst_buffer_get_custom_meta(buffer, "VkComputeLumamaxMeta");
  if (meta == NULL) {
    printf("frame without results\n");
    return;
  }
  GstClockTime running_time = gst_segment_to_running_time(segment, GST_FORMAT_TIME, GST_BUFFER_PTS(buffer));
  printf("%" GST_TIME_FORMAT, GST_TIME_ARGS(running_time));
  /* One "region" structure per region: the meta's roi-id and roi-type, and the region's results. */
  const GValue *regions = gst_structure_get_value(gst_custom_meta_get_structure(meta), "regions");
  for (guint i = 0; i < gst_value_array_get_size(regions); ++i) {
    const GstStructure *region = gst_value_get_structure(gst_value_array_get_value(regions, i));
    gint quarter = -1, x = 0, y = 0;
    gdouble luma = 0;
    gst_structure_get(region, "roi-id", G_TYPE_INT, &quarter, "x", G_TYPE_INT, &x, "y", G_TYPE_INT, &y,
                      "luma", G_TYPE_DOUBLE, &luma, NULL);
    printf("  %d: x=%3d y=%3d luma=%.4f", quarter, x, y, luma);
  }
  printf("\n");
}

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  const int frames = argc > 1 ? atoi(argv[1]) : 30;
  if (gst_element_factory_find("lumamax") == NULL) {
    fprintf(stderr, "lumamax not found: set GST_PLUGIN_PATH to the directory holding libgstvkcompute.so\n");
    return 2;
  }
  gchar *description = g_strdup_printf(
      "videotestsrc pattern=ball num-buffers=%d ! video/x-raw,width=%d,height=%d ! videoconvert ! "
      "lumamax name=lumamax regions-from-meta=true roi-type=quarter attach-meta=true post-messages=false ! "
      "appsink name=sink sync=false",
      frames, WIDTH, HEIGHT);
  GError *error = NULL;
  GstElement *pipeline = gst_parse_launch(description, &error);
  g_free(description);
  if (pipeline == NULL) {
    fprintf(stderr, "%s\n", error->message);
    return 1;
  }
  GstElement *lumamax = gst_bin_get_by_name(GST_BIN(pipeline), "lumamax");
  GstPad *pad = gst_element_get_static_pad(lumamax, "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, attach_quarters, NULL, NULL);
  gst_object_unref(pad);
  gst_object_unref(lumamax);
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
    g_error_free(error);
    gst_message_unref(message);
    status = 1;
  }
  gst_object_unref(bus);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipeline);
  return status;
}
