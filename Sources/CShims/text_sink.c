// SPDX-License-Identifier: GPL-3.0-or-later
// playbin's text sink: an appsink that keeps out of the pipeline's position.
//
// Workaround (GStreamer 1.22's appsink as a text sink): goes when a sparse sink stops answering
// a position query with its last buffer's place after a seek back.
// A pipeline answers a position query with the furthest of its sinks' positions. Subtitles are
// sparse: after a seek back, the text sink, with no line for the new place yet, went on
// answering with the place of its last line (GStreamer 1.22), and the pipeline's position stood
// there, ahead of the sound and the picture, until the next line came: the slider jumped ahead
// and the line drill took a line for played. Only the sound and the picture tell the position.
// The sink answers "unknown", which a bin's furthest-of ignores; refusing to answer would not
// do: playsink's text bin then asks upstream, where the subtitle parser reads ahead.
#include "CShims.h"

#include <gst/app/gstappsink.h>

typedef struct {
  GstAppSink parent;
} ReelTextSink;

typedef struct {
  GstAppSinkClass parent_class;
} ReelTextSinkClass;

G_DEFINE_TYPE(ReelTextSink, reel_text_sink, GST_TYPE_APP_SINK)

static gboolean query(GstElement *element, GstQuery *query) {
  if (GST_QUERY_TYPE(query) == GST_QUERY_POSITION) {
    GstFormat format;
    gst_query_parse_position(query, &format, NULL);
    gst_query_set_position(query, format, -1);
    return TRUE;
  }
  return GST_ELEMENT_CLASS(reel_text_sink_parent_class)->query(element, query);
}

static void reel_text_sink_class_init(ReelTextSinkClass *klass) {
  GST_ELEMENT_CLASS(klass)->query = query;
}

static void reel_text_sink_init(ReelTextSink *self) { (void)self; }

GstElement *reel_text_sink_new(const char *name) {
  return g_object_new(reel_text_sink_get_type(), "name", name, NULL);
}
