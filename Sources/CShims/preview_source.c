// Seek-bar previews: small frames of the item from a pipeline of its own, on a thread of its
// own, kept paused between requests (no CPU while the pointer rests). Keyframes only: each
// request is a key-unit seek to the keyframe at or before the time, a 20-45 ms decode at 1080p
// where an accurate seek decodes up to a whole group of pictures (0.4-1.2 s measured). Only the
// picture is decoded: sound and subtitle streams are never given a decoder. The newest request
// wins; those made while one is decoded are dropped but the last.
#include "CShims.h"
#include "tsan_order.h"

struct ReelPreviewSource {
  gchar *uri;
  gint width;
  ReelPreviewCallback callback;
  gpointer user_data;
  GDestroyNotify notify;
  GMutex lock;
  GCond changed;
  gint64 wanted;   // the time asked for, -1 when none; under `lock`
  gboolean closing;
};

static gboolean decode_picture_only(GstElement *bin, GstPad *pad, GstCaps *caps, gpointer data) {
  (void)bin; (void)pad; (void)data;
  const gchar *name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
  return !g_str_has_prefix(name, "audio/") && !g_str_has_prefix(name, "text/") && !g_str_has_prefix(name, "subpicture/");
}

static void link_picture(GstElement *source, GstPad *pad, gpointer converter) {
  (void)source;
  GstCaps *caps = gst_pad_get_current_caps(pad);
  if (caps && g_str_has_prefix(gst_structure_get_name(gst_caps_get_structure(caps, 0)), "video/x-raw")) {
    GstPad *sink = gst_element_get_static_pad(converter, "sink");
    if (!gst_pad_is_linked(sink)) gst_pad_link(pad, sink);
    gst_object_unref(sink);
  }
  if (caps) gst_caps_unref(caps);
}

// A preview decodes one frame at a time: one decoding thread, not one a core, beside playback.
static void one_thread_a_decoder(GstBin *bin, GstBin *child, GstElement *element, gpointer data) {
  (void)bin; (void)child; (void)data;
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "max-threads")) g_object_set(element, "max-threads", 1, NULL);
}

// Until the pipeline is prerolled, fails, or 5 s pass.
static gboolean prerolled(GstElement *pipeline) {
  GstBus *bus = gst_element_get_bus(pipeline);
  GstMessage *message = gst_bus_timed_pop_filtered(bus, 5 * GST_SECOND, GST_MESSAGE_ASYNC_DONE | GST_MESSAGE_ERROR);
  gboolean done = message && GST_MESSAGE_TYPE(message) == GST_MESSAGE_ASYNC_DONE;
  if (message) gst_message_unref(message);
  gst_object_unref(bus);
  return done;
}

static GstElement *open_pipeline(ReelPreviewSource *self, GstElement **sink) {
  GstElement *pipeline = gst_pipeline_new("reel-preview");
  GstElement *source = gst_element_factory_make("uridecodebin", NULL);
  GstElement *converter = gst_element_factory_make("videoconvertscale", NULL);
  GstElement *filter = gst_element_factory_make("capsfilter", NULL);
  *sink = gst_element_factory_make("appsink", NULL);
  if (!source || !converter || !filter || !*sink) {
    for (GstElement **e = (GstElement *[]){source, converter, filter, *sink, NULL}; *e; e++) gst_object_unref(gst_object_ref_sink(*e));
    gst_object_unref(pipeline);
    return NULL;
  }
  g_object_set(source, "uri", self->uri, "expose-all-streams", FALSE, NULL);
  gchar *caps_text = g_strdup_printf("video/x-raw,format=BGRA,width=%d,pixel-aspect-ratio=1/1", self->width);
  GstCaps *caps = gst_caps_from_string(caps_text);
  g_free(caps_text);
  g_object_set(filter, "caps", caps, NULL);
  gst_caps_unref(caps);
  g_object_set(*sink, "sync", FALSE, "max-buffers", 1, "drop", TRUE, "enable-last-sample", FALSE, NULL);
  gst_bin_add_many(GST_BIN(pipeline), source, converter, filter, *sink, NULL);
  gst_element_link_many(converter, filter, *sink, NULL);
  g_signal_connect(source, "autoplug-continue", G_CALLBACK(decode_picture_only), NULL);
  g_signal_connect(source, "pad-added", G_CALLBACK(link_picture), converter);
  g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(one_thread_a_decoder), NULL);
  return pipeline;
}

static gpointer run(gpointer data) {
  ReelPreviewSource *self = data;
  GstElement *sink = NULL;
  GstElement *pipeline = open_pipeline(self, &sink);
  gboolean ready = pipeline && gst_element_set_state(pipeline, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE &&
                   prerolled(pipeline);
  for (;;) {
    g_mutex_lock(&self->lock);
    ordered_after(self);
    while (self->wanted < 0 && !self->closing) {
      ordered_before(self);
      g_cond_wait(&self->changed, &self->lock);
      ordered_after(self);
    }
    gint64 wanted = self->wanted;
    self->wanted = -1;
    gboolean closing = self->closing;
    ordered_before(self);
    g_mutex_unlock(&self->lock);
    if (closing) break;
    GstSample *sample = NULL;
    if (ready && gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME,
                                  GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_BEFORE,
                                  GST_SEEK_TYPE_SET, wanted, GST_SEEK_TYPE_NONE, -1) && prerolled(pipeline))
      sample = gst_app_sink_try_pull_preroll(GST_APP_SINK(sink), 0);
    self->callback(sample, wanted, self->user_data);
  }
  if (pipeline) {
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(pipeline);
  }
  if (self->notify) self->notify(self->user_data);
  g_mutex_clear(&self->lock);
  g_cond_clear(&self->changed);
  g_free(self->uri);
  g_free(self);
  return NULL;
}

ReelPreviewSource *reel_preview_source_new(const char *uri, gint width, ReelPreviewCallback callback,
                                           gpointer user_data, GDestroyNotify notify) {
  ReelPreviewSource *self = g_new0(ReelPreviewSource, 1);
  self->uri = g_strdup(uri);
  self->width = width;
  self->callback = callback;
  self->user_data = user_data;
  self->notify = notify;
  self->wanted = -1;
  g_mutex_init(&self->lock);
  g_cond_init(&self->changed);
  g_thread_unref(g_thread_new("reel-preview", run, self));
  return self;
}

void reel_preview_source_request(ReelPreviewSource *self, gint64 position) {
  g_mutex_lock(&self->lock);
  ordered_after(self);
  self->wanted = MAX(position, 0);
  g_cond_signal(&self->changed);
  ordered_before(self);
  g_mutex_unlock(&self->lock);
}

// Returns at once; the thread ends after the decode under way, if any (whose callback may
// still come), stops the pipeline and frees the source, `notify` last.
void reel_preview_source_close(ReelPreviewSource *self) {
  g_mutex_lock(&self->lock);
  ordered_after(self);
  self->closing = TRUE;
  g_cond_signal(&self->changed);
  ordered_before(self);
  g_mutex_unlock(&self->lock);
}
