#include "CShims.h"
#include <gst/base/gstbasesrc.h>

// Exported by libdispatch (swift-corelibs-libdispatch) for CoreFoundation's run loop.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

int reel_dispatch_main_queue_fd(void) { return _dispatch_get_main_queue_handle_4CF(); }
void reel_dispatch_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(NULL); }

struct ReelMappedFrame {
  GstSample *sample;
  GstVideoFrame frame;
};

ReelMappedFrame *reel_mapped_frame_new(GstSample *sample) {
  GstVideoInfo info;
  GstCaps *caps = gst_sample_get_caps(sample);
  GstBuffer *buffer = gst_sample_get_buffer(sample);
  if (caps == NULL || buffer == NULL || !gst_video_info_from_caps(&info, caps))
    return NULL;
  ReelMappedFrame *f = g_new0(ReelMappedFrame, 1);
  if (!gst_video_frame_map(&f->frame, &info, buffer, GST_MAP_READ)) {
    g_free(f);
    return NULL;
  }
  f->sample = gst_sample_ref(sample);
  return f;
}

void reel_mapped_frame_free(gpointer data) {
  ReelMappedFrame *f = data;
  gst_video_frame_unmap(&f->frame);
  gst_sample_unref(f->sample);
  g_free(f);
}

const guint8 *reel_mapped_frame_data(ReelMappedFrame *f) { return GST_VIDEO_FRAME_PLANE_DATA(&f->frame, 0); }
gint reel_mapped_frame_width(ReelMappedFrame *f) { return GST_VIDEO_FRAME_WIDTH(&f->frame); }
gint reel_mapped_frame_height(ReelMappedFrame *f) { return GST_VIDEO_FRAME_HEIGHT(&f->frame); }
gint reel_mapped_frame_stride(ReelMappedFrame *f) { return GST_VIDEO_FRAME_PLANE_STRIDE(&f->frame, 0); }
GstVideoFormat reel_mapped_frame_format(ReelMappedFrame *f) { return GST_VIDEO_FRAME_FORMAT(&f->frame); }
gint reel_mapped_frame_par_n(ReelMappedFrame *f) { return GST_VIDEO_INFO_PAR_N(&f->frame.info); }
gint reel_mapped_frame_par_d(ReelMappedFrame *f) { return GST_VIDEO_INFO_PAR_D(&f->frame.info); }
gsize reel_mapped_frame_size(ReelMappedFrame *f) {
  // The bytes GDK reads: every row but the last at full stride, the last row only its pixels.
  gint h = GST_VIDEO_FRAME_HEIGHT(&f->frame);
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f->frame, 0);
  gint row = GST_VIDEO_FRAME_COMP_PSTRIDE(&f->frame, 0) * GST_VIDEO_FRAME_WIDTH(&f->frame);
  return (gsize)stride * (gsize)(h - 1) + (gsize)row;
}

#include <libintl.h>
#include <locale.h>

static const char *reel_domain = "reel";

void reel_i18n_init(const char *domain, const char *localedir) {
  reel_domain = g_intern_string(domain);
  setlocale(LC_ALL, "");
  bindtextdomain(domain, localedir);
  bind_textdomain_codeset(domain, "UTF-8");
  textdomain(domain);
}
const char *reel_gettext(const char *msgid) { return dgettext(reel_domain, msgid); }
const char *reel_ngettext(const char *msgid, const char *plural, unsigned long n) {
    return dngettext(reel_domain, msgid, plural, n);
}

typedef struct {
  ReelSampleCallback callback;
  gpointer user_data;
  GDestroyNotify notify;
} SampleCallbackData;

/* appsink (1.22) hands out one sample object it reuses, setting the next buffer and caps on it
 * in place. Kept by Reel (the frame on screen), it is no longer writable: the next caps change
 * fails ("gst_sample_set_caps: assertion 'gst_sample_is_writable' failed") and later frames go
 * out labelled with the old caps. A new sample around the same buffer and caps costs no copy and
 * leaves appsink's own free. */
static GstSample *detached(GstSample *pulled) {
  GstSample *own = gst_sample_new(gst_sample_get_buffer(pulled), gst_sample_get_caps(pulled),
                                  gst_sample_get_segment(pulled), NULL);
  gst_sample_unref(pulled);
  return own;
}

/* The callback data is handed to the streaming thread through appsink's object lock, a GLib
 * futex ThreadSanitizer cannot see; a release store of the callback (written last) and an
 * acquire load of it make the hand-over visible to it, at no cost on x86. */
static void deliver(SampleCallbackData *d, GstSample *sample) {
  ReelSampleCallback callback = __atomic_load_n(&d->callback, __ATOMIC_ACQUIRE);
  if (sample) callback(detached(sample), d->user_data);
}

static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
  deliver(data, gst_app_sink_pull_sample(sink));
  return GST_FLOW_OK;
}

static GstFlowReturn on_new_preroll(GstAppSink *sink, gpointer data) {
  deliver(data, gst_app_sink_pull_preroll(sink));
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
}

static GstPadProbeReturn clear_trickmode(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad; (void)data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_SEEK) return GST_PAD_PROBE_OK;
  gdouble rate;
  GstFormat format;
  GstSeekFlags flags;
  GstSeekType start_type, stop_type;
  gint64 start, stop;
  gst_event_parse_seek(event, &rate, &format, &flags, &start_type, &start, &stop_type, &stop);
  if (!(flags & GST_SEEK_FLAG_TRICKMODE)) return GST_PAD_PROBE_OK;
  GstEvent *plain = gst_event_new_seek(rate, format, flags & ~GST_SEEK_FLAG_TRICKMODE,
                                       start_type, start, stop_type, stop);
  gst_event_set_seqnum(plain, gst_event_get_seqnum(event));
  gst_event_unref(event);
  GST_PAD_PROBE_INFO_DATA(info) = plain;
  return GST_PAD_PROBE_OK;
}

void reel_sink_clear_trickmode_seeks(GstElement *sink) {
  GstPad *pad = gst_element_get_static_pad(sink, "sink");
  if (pad == NULL) return;
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, clear_trickmode, NULL, NULL);
  gst_object_unref(pad);
}

/* playbin joins the streams of a file with several sound or subtitle tracks in input-selectors
 * set to keep the tracks not played in step by waiting on the clock, holding their stream
 * locks. Stopping (each item change does) first stops the audio clock, so those waits never
 * end and the stop, which needs the locks, never finishes: GStreamer 1.22 then hangs on the
 * next item (GstPlay's thread in gst_pad_set_active). Keeping them in step by the active
 * track's segment instead waits on a condition that stopping does wake. Only selectors that
 * get a second track are changed: with one track nothing waits, and playbin's own mode is
 * left where it does no harm. */
static void use_segment_sync_from_second_track(GstElement *selector, GstPad *pad, gpointer data) {
  (void)data;
  if (GST_PAD_DIRECTION(pad) == GST_PAD_SINK && selector->numsinkpads >= 2)
    g_object_set(selector, "sync-mode", 0 /* active-segment */, NULL);
}

static void watch_selector(GstElement *playbin, GstElement *element, gpointer data) {
  (void)playbin; (void)data;
  GstElementFactory *factory = gst_element_get_factory(element);
  if (factory != NULL && g_strcmp0(GST_OBJECT_NAME(factory), "input-selector") == 0)
    g_signal_connect(element, "pad-added", G_CALLBACK(use_segment_sync_from_second_track), NULL);
}

void reel_playbin_sync_tracks_by_segment(GstElement *playbin) {
  g_signal_connect(playbin, "element-setup", G_CALLBACK(watch_selector), NULL);
}

// ---- The frame sink's element: videoconvertscale ! appsink in one bin -------------------------

// Upstream asks the bin what it takes: anything the converter takes, with no preferred size.
// (Left to itself the converter would put the size it currently makes first, and playsink's
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

#include <malloc.h>

void reel_release_free_memory(void) {
  // Hands back every free page of every malloc arena, not only the main heap's top: the frame
  // path's blocks are freed on all the threads that drew or decoded them.
  malloc_trim(0);
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
  // One pass from the decoder's format and size to what GDK draws 1:1, on as many threads as
  // there are cores. Older GStreamer (< 1.22) has the two halves as separate elements.
  GstElement *convert = gst_element_factory_make("videoconvertscale", "reel-frame-convert");
  GstElement *first = convert, *last = convert;
  if (convert == NULL) {
    first = gst_element_factory_make("videoscale", "reel-frame-scale");
    last = gst_element_factory_make("videoconvert", "reel-frame-convert");
    gst_bin_add(GST_BIN(bin), first);
    gst_bin_add(GST_BIN(bin), last);
    gst_element_link(first, last);
  } else {
    gst_bin_add(GST_BIN(bin), convert);
  }
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(last), "n-threads"))
    g_object_set(last, "n-threads", 0, NULL);
  // 8-bit in, 8-bit out: dithering would only add work. Chroma is taken as it is, not
  // resampled: the unscaled fast path does the same, and scaled to half size (1080p in a
  // 960-pixel window) the 4:2:0 chroma planes already are the output size. Measured on 1080p
  // I420 to 950×534 BGRA: 3.1 ms a frame with chroma resampling, 1.9 ms without.
  g_object_set(last, "dither", 0, "chroma-mode", GST_VIDEO_CHROMA_MODE_NONE, NULL);
  GstElement *sink = gst_element_factory_make("appsink", "reel-frame-appsink");
  gst_bin_add(GST_BIN(bin), sink);
  gst_element_link(last, sink);
  GstPad *target = gst_element_get_static_pad(first, "sink");
  GstPad *ghost = gst_ghost_pad_new("sink", target);
  gst_pad_add_probe(ghost, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM, answer_caps_query, target, gst_object_unref);
  gst_element_add_pad(bin, ghost);
  *appsink = sink;
  return bin;
}

void reel_frame_sink_set_caps(GstElement *appsink, const char *caps_string) {
  GstCaps *caps = gst_caps_from_string(caps_string);
  g_object_set(appsink, "caps", caps, NULL);
  gst_caps_unref(caps);
  // Upstream renegotiates (and the converter resizes) with the next frame.
  GstPad *pad = gst_element_get_static_pad(appsink, "sink");
  gst_pad_push_event(pad, gst_event_new_reconfigure());
  gst_object_unref(pad);
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

// ---- Is GL drawn in software? -----------------------------------------------------------------

#include <dlfcn.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

gboolean reel_gl_is_software(void) {
  // Asking GL itself (GL_RENDERER) would load Mesa's llvmpipe and LLVM into the process (50 MB,
  // and a tenth of a second before the first frame) only to decide not to use them. An X server
  // that offers no direct rendering (DRI3, DRI2, or NVIDIA's own NV-GLX) leaves Mesa nothing but
  // its software rasterizer: Xvfb, Xvnc, xrdp, X forwarded over SSH. Elsewhere GL is hardware.
#ifdef GDK_WINDOWING_X11
  GdkDisplay *display = gdk_display_get_default();
  if (display == NULL || !GDK_IS_X11_DISPLAY(display)) return FALSE;
  // libX11 is loaded with GTK; Reel does not link it itself.
  typedef int (*QueryExtension)(void *, const char *, int *, int *, int *);
  QueryExtension query = (QueryExtension)dlsym(RTLD_DEFAULT, "XQueryExtension");
  if (query == NULL) return FALSE;
  void *xdisplay = gdk_x11_display_get_xdisplay(display);
  int opcode, event, error;
  return !query(xdisplay, "DRI3", &opcode, &event, &error) && !query(xdisplay, "DRI2", &opcode, &event, &error) &&
         !query(xdisplay, "NV-GLX", &opcode, &event, &error);
#else
  return FALSE;
#endif
}

gboolean reel_widget_renders_with_cairo(GtkWidget *widget) {
  GtkNative *native = gtk_widget_get_native(widget);
  GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
  return renderer != NULL && G_TYPE_CHECK_INSTANCE_TYPE(renderer, gsk_cairo_renderer_get_type());
}

/* The active leaks tracer, or NULL (transfer full). */
static GstTracer *leaks_tracer(void) {
  GstTracer *found = NULL;
  GList *tracers = gst_tracing_get_active_tracers();
  for (GList *l = tracers; l != NULL; l = l->next) {
    if (g_strcmp0(G_OBJECT_TYPE_NAME(l->data), "GstLeaksTracer") == 0) {
      found = gst_object_ref(l->data);
      break;
    }
  }
  g_list_free_full(tracers, gst_object_unref);
  return found;
}

gboolean reel_gst_object_count_start(void) {
  GstTracer *tracer = leaks_tracer();
  if (tracer == NULL) return FALSE;
  g_signal_emit_by_name(tracer, "activity-start-tracking");
  gst_object_unref(tracer);
  return TRUE;
}

/* The checkpoint lists objects by type name and address only: unlike "get-live-objects",
 * which takes a reference to each live object and was seen to resurrect objects being
 * disposed on streaming threads (and crash), it is safe while the pipeline runs. */
gint64 reel_gst_object_count_change(void) {
  GstTracer *tracer = leaks_tracer();
  if (tracer == NULL) return G_MININT64;
  GstStructure *checkpoint = NULL;
  g_signal_emit_by_name(tracer, "activity-get-checkpoint", &checkpoint);
  gst_object_unref(tracer);
  if (checkpoint == NULL) return G_MININT64;
  const GValue *created = gst_structure_get_value(checkpoint, "objects-created-list");
  const GValue *removed = gst_structure_get_value(checkpoint, "objects-removed-list");
  gint64 change = (created ? (gint64)gst_value_list_get_size(created) : 0) -
                  (removed ? (gint64)gst_value_list_get_size(removed) : 0);
  gst_structure_free(checkpoint);
  return change;
}

/* The GObjects alive, as counted by meson_helpers/gobject-counter.c when a test preloads it
 * (G_MININT64 otherwise): looked up at run time, so Reel itself carries no counting. */
gint64 reel_gobject_live_count(void) {
  gint64 (*live)(void) = (gint64 (*)(void))dlsym(RTLD_DEFAULT, "reel_gobject_counter_live");
  return live ? live() : G_MININT64;
}

/* Every pulsesink in a process shares one PulseAudio main loop, made when the first opens its
 * device and freed when the last closes it. GStreamer 1.22's pulsesink answers a caps query
 * between making its ring buffer and opening its device (or between closing and dropping it)
 * by locking that main loop, which then may not exist: libpulse aborts the process (seen as
 * Reel dying in pa_threaded_mainloop_lock during item changes, from decodebin's caps queries).
 * One sink kept open for the life of the process keeps the main loop alive. */
static GstElement *pulse_keeper = NULL;

gboolean reel_pulse_keep_main_loop(void) {
  static gsize once = 0;
  if (g_once_init_enter(&once)) {
    GstElement *sink = gst_element_factory_make("pulsesink", "reel-pulse-keeper");
    // A client name of its own: pulsesinks of one name share one server connection, and the
    // server drops a connection that sends it something it refuses (a 36 kB title tag, say),
    // which must end no more than the playing sink's.
    if (sink != NULL) g_object_set(sink, "client-name", "Reel (keeps the sound connection)", NULL);
    if (sink != NULL && gst_element_set_state(sink, GST_STATE_READY) != GST_STATE_CHANGE_FAILURE) {
      pulse_keeper = sink;
    } else if (sink != NULL) {
      gst_element_set_state(sink, GST_STATE_NULL);
      gst_object_unref(sink);
    }
    g_once_init_leave(&once, 1);
  }
  return pulse_keeper != NULL;
}

gboolean reel_is_base_src(GstObject *object) {
  return object != NULL && GST_IS_BASE_SRC(object);
}

typedef struct {
  gpointer adapter;
  GstElement *pipeline;
  gpointer player;
} PlayerRemains;

static gpointer release_player(gpointer data) {
  PlayerRemains *remains = data;
  // Streaming threads take passing references to the player (GstPlay's volume-notify handler
  // reads its own property from there). Were one of those the last, the player's dispose would
  // run on that streaming thread and join GstPlay's thread, which is waiting for that very
  // streaming thread to stop: a deadlock, seen as players that were never freed. So the
  // pipeline is stopped first, while this thread still holds the player.
  gst_element_set_state(remains->pipeline, GST_STATE_NULL);
  g_object_unref(remains->adapter);
  gst_object_unref(remains->pipeline);
  g_object_unref(remains->player);
  g_free(remains);
  return NULL;
}

void reel_release_player_in_background(gpointer adapter, GstElement *pipeline, gpointer player) {
  PlayerRemains *remains = g_new(PlayerRemains, 1);
  remains->adapter = g_object_ref(adapter);
  remains->pipeline = gst_object_ref(pipeline);
  remains->player = g_object_ref(player);
  g_thread_unref(g_thread_new("reel-teardown", release_player, remains));
}
