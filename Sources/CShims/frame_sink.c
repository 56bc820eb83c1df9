// SPDX-License-Identifier: GPL-3.0-or-later
// The frame sink: [deinterlace, only for interlaced caps] ! videoscale ! capsfilter (the size
// drawn) ! videoconvert ! videobalance ! appsink in one bin, and the callback that hands its
// samples, with their stream's orientation, to Swift.
#include "CShims.h"

#include <malloc.h>

typedef struct {
  ReelSampleCallback callback;
  gpointer user_data;
  GDestroyNotify notify;
  // The buffer last handed over as the preroll (compared, never dereferenced; streaming thread).
  GstBuffer *prerolled;
  // How the stream's tag says to turn its frames (a GstVideoOrientationMethod). Atomic: after a
  // flush the streaming thread may be another (GLib's task pool hands over unseen by TSan).
  gint orientation;
} SampleCallbackData;

/* appsink (1.22) hands out one sample object it reuses, setting the next buffer and caps on it
 * in place. Kept by Reel (the frame on screen), it is no longer writable: the next caps change
 * fails ("gst_sample_set_caps: assertion 'gst_sample_is_writable' failed") and later frames go
 * out labelled with the old caps. A new sample around the same buffer and caps costs no copy and
 * leaves appsink's own free. */
static GstSample *detached(GstSample *pulled, gint orientation) {
  // The tag's orientation travels with the frame it applies to (the paintable turns it).
  GstStructure *info = orientation == GST_VIDEO_ORIENTATION_IDENTITY ? NULL
      : gst_structure_new("reel-frame", "orientation", G_TYPE_INT, orientation, NULL);
  GstSample *own = gst_sample_new(gst_sample_get_buffer(pulled), gst_sample_get_caps(pulled),
                                  gst_sample_get_segment(pulled), info);
  gst_sample_unref(pulled);
  return own;
}

/* The callback data is handed to the streaming thread through appsink's object lock, a GLib
 * futex ThreadSanitizer cannot see; a release store of the callback (written last) and an
 * acquire load of it make the hand-over visible to it, at no cost on x86. */
static void deliver(SampleCallbackData *d, GstSample *sample) {
  ReelSampleCallback callback = __atomic_load_n(&d->callback, __ATOMIC_ACQUIRE);
  if (sample) callback(detached(sample, __atomic_load_n(&d->orientation, __ATOMIC_RELAXED)), d->user_data);
}

gint reel_sample_orientation(GstSample *sample) {
  const GstStructure *info = sample ? gst_sample_get_info(sample) : NULL;
  gint orientation = GST_VIDEO_ORIENTATION_IDENTITY;
  if (info) gst_structure_get_int(info, "orientation", &orientation);
  return orientation;
}

// A phone's portrait video is stored landscape with a tag saying how to turn it; a new stream
// starts unturned until its tags say otherwise.
static GstPadProbeReturn watch_orientation(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  SampleCallbackData *d = data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) == GST_EVENT_STREAM_START) {
    __atomic_store_n(&d->orientation, GST_VIDEO_ORIENTATION_IDENTITY, __ATOMIC_RELAXED);
  } else if (GST_EVENT_TYPE(event) == GST_EVENT_TAG) {
    GstTagList *tags = NULL;
    gst_event_parse_tag(event, &tags);
    gint orientation = reel_orientation_from_tags(tags, __atomic_load_n(&d->orientation, __ATOMIC_RELAXED));
    __atomic_store_n(&d->orientation, orientation, __ATOMIC_RELAXED);
  }
  return GST_PAD_PROBE_OK;
}

/* A sink going to PLAYING renders the buffer it prerolled with (after every seek, and at the
 * start): that frame is on its way to the screen already, and a second hand-over only costs a
 * repaint. */
static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
  SampleCallbackData *d = data;
  GstSample *sample = gst_app_sink_pull_sample(sink);
  gboolean again = sample && gst_sample_get_buffer(sample) == d->prerolled;
  d->prerolled = NULL;
  if (again) gst_sample_unref(sample);
  else deliver(d, sample);
  return GST_FLOW_OK;
}

static GstFlowReturn on_new_preroll(GstAppSink *sink, gpointer data) {
  SampleCallbackData *d = data;
  GstSample *sample = gst_app_sink_pull_preroll(sink);
  d->prerolled = sample ? gst_sample_get_buffer(sample) : NULL;
  deliver(d, sample);
  return GST_FLOW_OK;
}

static void free_sample_callback_data(gpointer data) {
  SampleCallbackData *d = data;
  if (d->notify) d->notify(d->user_data);
  g_free(d);
}

void reel_app_sink_set_sample_callback(GstAppSink *sink, ReelSampleCallback callback,
                                       gpointer user_data, GDestroyNotify notify) {
  SampleCallbackData *d = g_new0(SampleCallbackData, 1);
  d->user_data = user_data;
  d->notify = notify;
  __atomic_store_n(&d->callback, callback, __ATOMIC_RELEASE);
  GstAppSinkCallbacks callbacks = {0};
  callbacks.new_sample = on_new_sample;
  callbacks.new_preroll = on_new_preroll;
  gst_app_sink_set_callbacks(sink, &callbacks, d, free_sample_callback_data);
  // The events reach the pad in the thread the samples then leave in; the data lives as long
  // as the appsink's callbacks, so as the pad.
  GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(sink), "sink");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, watch_orientation, d, NULL);
  gst_object_unref(pad);
}

// Upstream asks the bin what it takes: anything the scaler takes, with no preferred size.
// (Left to itself the scaler would put the size it currently makes first, and playsink's
// own videoscale upstream would then do the scaling in a second pass.)
static GstPadProbeReturn answer_caps_query(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY(info);
  if (GST_QUERY_TYPE(query) != GST_QUERY_CAPS) return GST_PAD_PROBE_OK;
  GstCaps *filter = NULL;
  gst_query_parse_caps(query, &filter);
  GstCaps *caps = gst_pad_get_pad_template_caps(GST_PAD(data));
  if (filter) {
    GstCaps *both = gst_caps_intersect_full(filter, caps, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(caps);
    caps = both;
  }
  gst_query_set_caps_result(query, caps);
  gst_caps_unref(caps);
  return GST_PAD_PROBE_HANDLED;
}

// A new frame size is the converter's business alone: its input stays as it is. Let through,
// the appsink's caps change reached the decoder, which negotiated again and made a new pool of
// frames each time (8 × 3 MB at 1080p) while the old one drained: memory at its peak.
static GstPadProbeReturn keep_reconfigure_inside(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad; (void)data;
  return GST_EVENT_TYPE(GST_PAD_PROBE_INFO_EVENT(info)) == GST_EVENT_RECONFIGURE ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

/* Interlaced video (recorded TV, camcorders, DVDs) is deinterlaced before it is scaled: the
 * deinterlacer is put in front of the scaler only while the stream's caps say it is interlaced
 * (or the user forces it), so progressive video never passes through one. The switch happens
 * in the streaming thread as the caps pass, or, for a change of mode, when the pad is idle. */
typedef struct {
  GstPad *ghost;
  GstElement *deinterlace, *scale;  // children of the bin, which outlives this
  // Atomics: the mode is written on the main thread, and the idle probe may run there too, while
  // the caps' probe runs in the streaming thread (GStreamer's own locks order them, unseen by TSan).
  gint mode;      // ReelDeinterlaceMode
  gint inserted;
} Deinterlacing;

static gboolean wants_deinterlace(Deinterlacing *d, GstCaps *caps) {
  gint mode = __atomic_load_n(&d->mode, __ATOMIC_ACQUIRE);
  if (mode == REEL_DEINTERLACE_OFF || caps == NULL) return FALSE;
  GstPad *pad = gst_element_get_static_pad(d->deinterlace, "sink");
  GstCaps *takes = gst_pad_get_pad_template_caps(pad);
  gboolean fits = gst_caps_can_intersect(caps, takes);
  gst_caps_unref(takes);
  gst_object_unref(pad);
  if (!fits) return FALSE;
  if (mode == REEL_DEINTERLACE_FORCE) return TRUE;
  const gchar *interlacing = gst_structure_get_string(gst_caps_get_structure(caps, 0), "interlace-mode");
  return interlacing && g_strcmp0(interlacing, "progressive") != 0;
}

static void place_deinterlacer(Deinterlacing *d, GstCaps *caps) {
  gboolean want = wants_deinterlace(d, caps);
  g_object_set(d->deinterlace, "mode", __atomic_load_n(&d->mode, __ATOMIC_ACQUIRE) == REEL_DEINTERLACE_FORCE ? 1 : 0, NULL);
  if (want == __atomic_load_n(&d->inserted, __ATOMIC_ACQUIRE)) return;
  GstPad *in = gst_element_get_static_pad(d->deinterlace, "sink"), *out = gst_element_get_static_pad(d->deinterlace, "src");
  GstPad *scaler = gst_element_get_static_pad(d->scale, "sink");
  if (want) {
    gst_ghost_pad_set_target(GST_GHOST_PAD(d->ghost), in);
    gst_pad_link(out, scaler);
  } else {
    gst_pad_unlink(out, scaler);
    gst_ghost_pad_set_target(GST_GHOST_PAD(d->ghost), scaler);
  }
  __atomic_store_n(&d->inserted, want, __ATOMIC_RELEASE);
  gst_object_unref(in);
  gst_object_unref(out);
  gst_object_unref(scaler);
}

static GstPadProbeReturn place_on_caps(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
    GstCaps *caps = NULL;
    gst_event_parse_caps(event, &caps);
    place_deinterlacer(data, caps);
  }
  return GST_PAD_PROBE_OK;
}

/* Workaround (GStreamer 1.22): goes when an idle probe run at once from gst_pad_add_probe holds
 * the stream back while it runs.
 * The idle probe runs at once, in the calling thread, when the pad is idle as it is added;
 * GStreamer 1.22 does not hold the stream back meanwhile, and a frame pushed between the two
 * relinks met the deinterlacer's unlinked output: not-linked ended the stream (seen in
 * PictureTests, 2 runs in 5 after BadMediaTests). Such a frame is dropped instead. */
static GstPadProbeReturn drop_while_unlinked(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)info;
  (void)data;
  return gst_pad_is_linked(pad) ? GST_PAD_PROBE_OK : GST_PAD_PROBE_DROP;
}

static GstPadProbeReturn place_when_idle(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)info;
  GstCaps *caps = gst_pad_get_current_caps(pad);
  place_deinterlacer(data, caps);
  if (caps) gst_caps_unref(caps);
  return GST_PAD_PROBE_REMOVE;
}

void reel_frame_sink_set_deinterlace(GstElement *bin, ReelDeinterlaceMode mode) {
  Deinterlacing *d = g_object_get_data(G_OBJECT(bin), "reel-deinterlacing");
  if (__atomic_exchange_n(&d->mode, (gint)mode, __ATOMIC_ACQ_REL) == (gint)mode) return;
  gst_pad_add_probe(d->ghost, GST_PAD_PROBE_TYPE_IDLE, place_when_idle, d, NULL);
}

gboolean reel_frame_sink_is_deinterlacing(GstElement *bin) {
  Deinterlacing *d = g_object_get_data(G_OBJECT(bin), "reel-deinterlacing");
  GstPad *pad = gst_element_get_static_pad(d->deinterlace, "sink");
  gboolean linked = gst_pad_is_linked(pad);
  gst_object_unref(pad);
  return linked;
}

void reel_frame_sink_set_balance(GstElement *bin, double brightness, double contrast, double saturation, double hue) {
  GstElement *balance = gst_bin_get_by_name(GST_BIN(bin), "reel-frame-balance");
  // At its defaults the balance passes frames through untouched (GstBaseTransform passthrough).
  g_object_set(balance, "brightness", brightness, "contrast", contrast, "saturation", saturation, "hue", hue, NULL);
  gst_object_unref(balance);
}

void reel_playbin_leave_picture_to_frame_sink(GstElement *playbin) {
  // playbin's defaults put its own deinterlacer and colour balance in front of the sink, at the
  // decoded size, for every stream (and its balance takes 8-bit formats only, so 10-bit video
  // was converted at full size to pass it): the frame sink does both, only when needed.
  guint flags = 0;
  g_object_get(playbin, "flags", &flags, NULL);
  g_object_set(playbin, "flags", flags & ~(REEL_PLAY_FLAG_DEINTERLACE | REEL_PLAY_FLAG_SOFT_COLORBALANCE), NULL);
}

GstElement *reel_frame_sink_bin_new(const char *name, GstElement **appsink) {
  // Every repaint allocates a frame-sized cairo surface (8 MB at 1080p) and frees the last one.
  // glibc gives such blocks back to the kernel on free (mmap, or trimming the heap's top), so
  // each frame paid for page faults and the kernel zeroing fresh pages: a fifth of the main
  // thread's time in fullscreen. Kept in the heap instead, they are reused.
  static gsize malloc_tuned = 0;
  if (g_once_init_enter(&malloc_tuned)) {
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
    g_once_init_leave(&malloc_tuned, 1);
  }
  GstElement *bin = gst_bin_new(name);
  // Scaled in the decoder's own format, then converted at the size drawn: planar 4:2:0 is a
  // third of the bytes that one pass (videoconvertscale) scales after unpacking to 4:4:4, and the
  // conversion then takes its unscaled fast path. At the video's own size the scaler passes
  // frames through. Both on the streaming thread alone: helper threads cost more in handing
  // lines over than they saved. (bench --only main,uhd, one pass on every core / this: CPU
  // 0.30 / 0.28 cores at 960×540 and 0.81 / 0.73 for 2160p in the same window.)
  GstElement *first = gst_element_factory_make("videoscale", "reel-frame-scale");
  // The size frames are made at, set while playing. Set on the appsink, a new size raced the
  // frames already past the scaler: the elements between, asked to renegotiate with a frame of
  // the old size, failed with not-negotiated and stopped playback (seen in the bench: 5 of 34
  // starts of a turned clip, whose size changes as its first frame shows). The frames after
  // this filter may be any size.
  GstElement *size = gst_element_factory_make("capsfilter", "reel-frame-size");
  g_object_set(size, "caps-change-mode", 1 /* GST_CAPS_FILTER_CAPS_CHANGE_MODE_DELAYED */, NULL);
  GstElement *last = gst_element_factory_make("videoconvert", "reel-frame-convert");
  // Brightness, contrast, saturation and hue on the frame at the size drawn, in the format
  // drawn (GStreamer 1.22's converter has no colour balance of its own).
  GstElement *balance = gst_element_factory_make("videobalance", "reel-frame-balance");
  GstElement *deinterlace = gst_element_factory_make("deinterlace", "reel-frame-deinterlace");
  gst_bin_add_many(GST_BIN(bin), first, size, last, balance, deinterlace, NULL);
  GstPad *deinterlaced = gst_element_get_static_pad(deinterlace, "src");
  gst_pad_add_probe(deinterlaced, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST, drop_while_unlinked, NULL, NULL);
  gst_object_unref(deinterlaced);
  gst_element_link_many(first, size, last, balance, NULL);
  // An aspect ratio chosen asks for frames of another shape: stretched, not letterboxed.
  g_object_set(first, "n-threads", 1, "add-borders", FALSE, NULL);
  // 8-bit in, 8-bit out: dithering would only add work. Chroma is taken as it is, not
  // resampled, as the unscaled fast path does.
  g_object_set(last, "n-threads", 1, "dither", 0, "chroma-mode", GST_VIDEO_CHROMA_MODE_NONE, NULL);
  GstElement *sink = gst_element_factory_make("appsink", "reel-frame-appsink");
  gst_bin_add(GST_BIN(bin), sink);
  gst_element_link(balance, sink);
  GstPad *target = gst_element_get_static_pad(first, "sink");
  GstPad *ghost = gst_ghost_pad_new("sink", target);
  gst_pad_add_probe(ghost, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_caps_query, target, gst_object_unref);
  gst_pad_add_probe(ghost, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, keep_reconfigure_inside, NULL, NULL);
  Deinterlacing *d = g_new0(Deinterlacing, 1);
  *d = (Deinterlacing){ .ghost = ghost, .deinterlace = deinterlace, .scale = first, .mode = REEL_DEINTERLACE_AUTO };
  g_object_set_data_full(G_OBJECT(bin), "reel-deinterlacing", d, g_free);
  gst_pad_add_probe(ghost, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, place_on_caps, d, NULL);
  gst_element_add_pad(bin, ghost);
  *appsink = sink;
  return bin;
}

void reel_frame_sink_set_caps(GstElement *bin, const char *caps_string) {
  // The capsfilter asks the scaler for the new size (a reconfigure upstream) and meanwhile
  // takes frames of the old one (caps-change-mode delayed).
  GstElement *size = gst_bin_get_by_name(GST_BIN(bin), "reel-frame-size");
  GstCaps *caps = gst_caps_from_string(caps_string);
  g_object_set(size, "caps", caps, NULL);
  gst_caps_unref(caps);
  gst_object_unref(size);
}

gboolean reel_frame_sink_input_size(GstElement *bin, gint *width, gint *height) {
  GstPad *pad = gst_element_get_static_pad(bin, "sink");
  GstCaps *caps = gst_pad_get_current_caps(pad);
  gst_object_unref(pad);
  if (caps == NULL) return FALSE;
  GstVideoInfo info;
  gboolean ok = gst_video_info_from_caps(&info, caps);
  gst_caps_unref(caps);
  if (!ok || info.width <= 0 || info.height <= 0) return FALSE;
  // The display size: pixels widened or narrowed by their aspect ratio.
  *width = info.par_d > 0 && info.par_n > 0 ? (gint)((gint64)info.width * info.par_n / info.par_d) : info.width;
  *height = info.height;
  return TRUE;
}
