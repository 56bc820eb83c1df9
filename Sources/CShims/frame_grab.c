// SPDX-License-Identifier: GPL-3.0-or-later
// One frame of a file, decoded at the video's own size by a pipeline of its own, on a thread
// of its own (screenshots): the playing pipeline's frames are the window's size, and it
// decodes none while the window is hidden.
#include "CShims.h"

typedef struct {
  gchar *uri;
  gint64 position;
  gint orientation;
  ReelFrameGrabCallback done;
  gpointer user_data;
} Grab;

// Until the pipeline is prerolled, fails, or 10 s pass.
static gboolean wait_prerolled(GstElement *pipeline) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message =
      gst_bus_timed_pop_filtered(bus, 10 * GST_SECOND, GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR | GST_MESSAGE_EOS);
  gboolean prerolled = message && GST_MESSAGE_TYPE(message) == GST_MESSAGE_ASYNC_DONE;
  if (message) gst_message_unref(message);
  gst_object_unref(bus);
  return prerolled;
}

static gpointer run(gpointer data) {
  Grab *grab = data;
  GstSample *sample = NULL;
  // Turned: as the stream's tag says, then as the user turned it; or as stored.
  GstElement *pipeline = gst_parse_launch(grab->orientation < 0
      ? "uridecodebin name=source ! videoconvert ! video/x-raw,format=BGRA ! appsink name=sink sync=false"
      : "uridecodebin name=source ! videoconvert ! video/x-raw,format=BGRA ! videoflip video-direction=auto ! "
        "videoflip name=turn ! appsink name=sink sync=false", NULL);
  if (pipeline && grab->orientation >= 0) {
    GstElement *turn = gst_bin_get_by_name(GST_BIN(pipeline), "turn");
    g_object_set(turn, "video-direction", grab->orientation, NULL);
    gst_object_unref(turn);
  }
  if (pipeline) {
    reel_bin_tune_decoders(pipeline);
    GstElement *source = gst_bin_get_by_name(GST_BIN(pipeline), "source");
    GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
    g_object_set(source, "uri", grab->uri, NULL);
    // Only the picture: a sound track left unlinked would stop the preroll.
    GstCaps *caps = gst_caps_from_string("video/x-raw(ANY)");
    g_object_set(source, "caps", caps, NULL);
    gst_caps_unref(caps);
    if (gst_element_set_state(pipeline, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE && wait_prerolled(pipeline) &&
        gst_element_seek_simple(pipeline, GST_FORMAT_TIME, GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_ACCURATE, grab->position) &&
        wait_prerolled(pipeline))
      sample = gst_app_sink_try_pull_preroll(GST_APP_SINK(sink), 0);
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(source);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
  }
  grab->done(sample, grab->user_data);
  g_free(grab->uri);
  g_free(grab);
  return NULL;
}

void reel_grab_frame(const char *uri, gint64 position, gint orientation, ReelFrameGrabCallback done, gpointer user_data) {
  Grab *grab = g_new0(Grab, 1);
  grab->orientation = orientation;
  grab->uri = g_strdup(uri);
  grab->position = position;
  grab->done = done;
  grab->user_data = user_data;
  g_thread_unref(g_thread_new("reel-frame-grab", run, grab));
}
