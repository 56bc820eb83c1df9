// SPDX-License-Identifier: GPL-3.0-or-later
// Seek-bar previews: small frames of the item from a pipeline of its own, on a thread of its
// own, kept paused between requests (no CPU while the pointer rests). Keyframes only: each
// request is a key-unit seek to the keyframe at or before the time, a 20-45 ms decode at 1080p
// where an accurate seek decodes up to a whole group of pictures (0.4-1.2 s measured). Only the
// picture is decoded: sound and subtitle streams are never given a decoder. The newest request
// wins; those made while one is decoded are dropped but the last.
// The pipeline opens when asked to get ready (the pointer moved: a seek may come), as opening
// costs 200-300 ms, and closes after `idle_ms` without use, giving back its decoder's frames.
// Its decoding threads run at a lower priority than playback's: a preview may wait, a frame may not.
#define _GNU_SOURCE // gettid
#include "CShims.h"
#include "tsan_order.h"
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

struct ReelPreviewSource {
  gchar *uri;
  gint width;
  ReelPreviewCallback callback;
  gpointer user_data;
  GDestroyNotify notify;
  GMutex lock;
  GCond changed;
  gint64 idle_us;
  // Under `lock`:
  gint64 wanted;     // the time asked for, -1 when none
  gint64 last_use;   // monotonic time of the last request or call to get ready
  gboolean get_ready;
  gboolean open;     // whether the pipeline is open
  gboolean closing;
};

// When the pipeline, open, has been unused long enough to close; under `lock`.
static gint64 idle_from(ReelPreviewSource *self) { return self->last_use + self->idle_us; }

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

// A preview decodes one frame at a time: one decoding thread, not one a core, beside playback;
// the keyframe, not the frames after it (see gst_workarounds.c).
static void on_element_added(GstBin *bin, GstBin *child, GstElement *element, gpointer data) {
  (void)bin; (void)child; (void)data;
  GstElementFactory *factory = gst_element_get_factory(element);
  const gchar *klass = factory ? gst_element_factory_get_metadata(factory, GST_ELEMENT_METADATA_KLASS) : NULL;
  if (!klass || !strstr(klass, "Decoder") || !strstr(klass, "Video")) return;
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "max-threads")) g_object_set(element, "max-threads", 1, NULL);
  GstPad *sink = gst_element_get_static_pad(element, "sink");
  if (sink) {
    reel_decode_from_the_keyframe(sink);
    gst_object_unref(sink);
  }
}

// The preview pipeline's tasks (demuxer, queues: the decoding ones) each get a thread of their
// own at a background priority, ended with the task. Not GStreamer's default pool: it lends
// GLib's shared threads, and one given back would keep the lower priority (an unprivileged
// thread cannot raise it again) for the playing pipeline.
typedef struct { GstTaskPool parent; } PreviewTaskPool;
typedef struct { GstTaskPoolClass parent; } PreviewTaskPoolClass;
G_DEFINE_TYPE(PreviewTaskPool, preview_task_pool, GST_TYPE_TASK_POOL)

typedef struct { GstTaskPoolFunction function; gpointer data; } Job;

static gpointer run_job(gpointer data) {
  Job job = *(Job *)data;
  g_free(data);
  setpriority(PRIO_PROCESS, (id_t)gettid(), 10);
  job.function(job.data);
  return NULL;
}

// Detached: GstTask's join waits for its function to return by itself.
static gpointer push_job(GstTaskPool *pool, GstTaskPoolFunction function, gpointer data, GError **error) {
  (void)pool;
  Job *job = g_new(Job, 1);
  *job = (Job){function, data};
  GThread *thread = g_thread_try_new("reel-preview-task", run_job, job, error);
  if (!thread) {
    g_free(job);
    return NULL;
  }
  g_thread_unref(thread);
  return GINT_TO_POINTER(1);
}

static void no_pool(GstTaskPool *pool, GError **error) { (void)pool; (void)error; }
static void no_cleanup(GstTaskPool *pool) { (void)pool; }
static void no_join(GstTaskPool *pool, gpointer id) { (void)pool; (void)id; }

static void preview_task_pool_class_init(PreviewTaskPoolClass *klass) {
  klass->parent.prepare = no_pool;
  klass->parent.cleanup = no_cleanup;
  klass->parent.push = push_job;
  klass->parent.join = no_join;
}
static void preview_task_pool_init(PreviewTaskPool *pool) { (void)pool; }

static GstBusSyncReply pool_new_tasks(GstBus *bus, GstMessage *message, gpointer pool) {
  (void)bus;
  GstStreamStatusType type;
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_STREAM_STATUS) {
    gst_message_parse_stream_status(message, &type, NULL);
    const GValue *task = gst_message_get_stream_status_object(message);
    if (type == GST_STREAM_STATUS_TYPE_CREATE && task && G_VALUE_HOLDS(task, GST_TYPE_TASK))
      gst_task_set_pool(g_value_get_object(task), pool);
  }
  return GST_BUS_PASS;
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
  // Upright as the stream's tag says (a phone's portrait video), before the scaler: turned
  // after it, the frame's size would change under the fixed width and fail to negotiate. The
  // converter in front passes frames through unless the decoder's format is one videoflip lacks.
  GstElement *unusual = gst_element_factory_make("videoconvert", NULL);
  GstElement *turn = gst_element_factory_make("videoflip", NULL);
  GstElement *filter = gst_element_factory_make("capsfilter", NULL);
  *sink = gst_element_factory_make("appsink", NULL);
  if (!source || !converter || !unusual || !turn || !filter || !*sink) {
    GstElement *made[] = {source, converter, unusual, turn, filter, *sink};
    for (guint i = 0; i < G_N_ELEMENTS(made); i++)
      if (made[i]) gst_object_unref(gst_object_ref_sink(made[i]));
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
  g_object_set(turn, "video-direction", GST_VIDEO_ORIENTATION_AUTO, NULL);
  gst_bin_add_many(GST_BIN(pipeline), source, unusual, turn, converter, filter, *sink, NULL);
  gst_element_link_many(unusual, turn, converter, filter, *sink, NULL);
  g_signal_connect(source, "autoplug-continue", G_CALLBACK(decode_picture_only), NULL);
  g_signal_connect(source, "pad-added", G_CALLBACK(link_picture), unusual);
  g_signal_connect(pipeline, "deep-element-added", G_CALLBACK(on_element_added), NULL);
  GstBus *bus = gst_element_get_bus(pipeline);
  gst_bus_set_sync_handler(bus, pool_new_tasks, gst_object_ref_sink(g_object_new(preview_task_pool_get_type(), NULL)),
                           gst_object_unref);
  gst_object_unref(bus);
  return pipeline;
}

static void close_pipeline(GstElement **pipeline) {
  if (!*pipeline) return;
  gst_element_set_state(*pipeline, GST_STATE_NULL);
  gst_object_unref(*pipeline);
  *pipeline = NULL;
}

static void set_open(ReelPreviewSource *self, gboolean open) {
  lock_ordered(&self->lock, self);
  self->open = open;
  unlock_ordered(&self->lock, self);
}

static gpointer run(gpointer data) {
  ReelPreviewSource *self = data;
  GstElement *pipeline = NULL, *sink = NULL;
  gboolean ready = FALSE;
  for (;;) {
    lock_ordered(&self->lock, self);
    gboolean idle = FALSE;
    while (self->wanted < 0 && !self->get_ready && !self->closing && !idle) {
      gint64 deadline = idle_from(self);
      ordered_before(self);
      if (!pipeline)
        g_cond_wait(&self->changed, &self->lock);
      else
        g_cond_wait_until(&self->changed, &self->lock, deadline);
      ordered_after(self);
      idle = pipeline && g_get_monotonic_time() >= idle_from(self);
    }
    gint64 wanted = self->wanted;
    self->wanted = -1;
    self->get_ready = FALSE;
    gboolean closing = self->closing;
    unlock_ordered(&self->lock, self);
    if (closing) break;
    if (idle) {
      close_pipeline(&pipeline);
      set_open(self, FALSE);
      continue;
    }
    if (!pipeline) {
      pipeline = open_pipeline(self, &sink);
      ready = pipeline && gst_element_set_state(pipeline, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE &&
              prerolled(pipeline);
      set_open(self, pipeline != NULL);
    }
    if (wanted < 0) continue;
    GstSample *sample = NULL;
    if (ready && gst_element_seek(pipeline, 1.0, GST_FORMAT_TIME,
                                  GST_SEEK_FLAG_FLUSH | GST_SEEK_FLAG_KEY_UNIT | GST_SEEK_FLAG_SNAP_BEFORE,
                                  GST_SEEK_TYPE_SET, wanted, GST_SEEK_TYPE_NONE, -1) && prerolled(pipeline))
      sample = gst_app_sink_try_pull_preroll(GST_APP_SINK(sink), 0);
    self->callback(sample, wanted, self->user_data);
  }
  close_pipeline(&pipeline);
  if (self->notify) self->notify(self->user_data);
  g_mutex_clear(&self->lock);
  g_cond_clear(&self->changed);
  g_free(self->uri);
  g_free(self);
  return NULL;
}

ReelPreviewSource *reel_preview_source_new(const char *uri, gint width, gint idle_ms, ReelPreviewCallback callback,
                                           gpointer user_data, GDestroyNotify notify) {
  ReelPreviewSource *self = g_new0(ReelPreviewSource, 1);
  self->uri = g_strdup(uri);
  self->width = width;
  self->idle_us = (gint64)idle_ms * 1000;
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
  lock_ordered(&self->lock, self);
  self->wanted = MAX(position, 0);
  self->last_use = g_get_monotonic_time();
  g_cond_signal(&self->changed);
  unlock_ordered(&self->lock, self);
}

// Opens the pipeline if it is not, and keeps it open `idle_ms` longer; the thread is woken only
// to open it (a pointer moving calls this at every step).
void reel_preview_source_get_ready(ReelPreviewSource *self) {
  lock_ordered(&self->lock, self);
  self->last_use = g_get_monotonic_time();
  if (!self->open) {
    self->get_ready = TRUE;
    g_cond_signal(&self->changed);
  }
  unlock_ordered(&self->lock, self);
}

gboolean reel_preview_source_is_open(ReelPreviewSource *self) {
  lock_ordered(&self->lock, self);
  gboolean open = self->open;
  unlock_ordered(&self->lock, self);
  return open;
}

// Returns at once; the thread ends after the decode under way, if any (whose callback may
// still come), stops the pipeline and frees the source, `notify` last.
void reel_preview_source_close(ReelPreviewSource *self) {
  lock_ordered(&self->lock, self);
  self->closing = TRUE;
  g_cond_signal(&self->changed);
  unlock_ordered(&self->lock, self);
}
