#include "CShims.h"

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

static GstFlowReturn on_new_sample(GstAppSink *sink, gpointer data) {
  SampleCallbackData *d = data;
  GstSample *sample = gst_app_sink_pull_sample(sink);
  if (sample) d->callback(sample, d->user_data);
  return GST_FLOW_OK;
}

static GstFlowReturn on_new_preroll(GstAppSink *sink, gpointer data) {
  SampleCallbackData *d = data;
  GstSample *sample = gst_app_sink_pull_preroll(sink);
  if (sample) d->callback(sample, d->user_data);
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
  d->callback = callback;
  d->user_data = user_data;
  d->notify = notify;
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
