// SPDX-License-Identifier: GPL-3.0-or-later
// Reading one embedded subtitle track whole, ahead of playback (for the second subtitle track):
// the file is demuxed, not decoded, on a thread of its own.
#include "CShims.h"

typedef struct {
  gchar *uri;
  guint wanted;               // the index among the file's text tracks
  guint seen;                 // text tracks met so far
  GstElement *pipeline, *sink;
  ReelSubtitleLinesCallback done;
  gpointer user_data;
} Reader;

static gboolean is_text(const GstStructure *s) {
  return gst_structure_has_name(s, "text/x-raw") || gst_structure_has_name(s, "application/x-ssa") ||
         gst_structure_has_name(s, "application/x-ass");
}

/* Each stream parsebin finds goes to a fakesink, but the wanted text track, which goes to the
 * appsink (through ssaparse for SubStation Alpha). Sinks added while the pipeline starts do not
 * take part in its preroll (async off): with it, the pipeline waited for them for good. */
static void pad_added(GstElement *parsebin, GstPad *pad, gpointer data) {
  (void)parsebin;
  Reader *r = data;
  GstCaps *caps = gst_pad_get_current_caps(pad);
  if (caps == NULL) caps = gst_pad_query_caps(pad, NULL);
  const GstStructure *s = gst_caps_get_size(caps) > 0 ? gst_caps_get_structure(caps, 0) : NULL;
  gboolean text = s && is_text(s), ssa = s && !gst_structure_has_name(s, "text/x-raw");
  gst_caps_unref(caps);
  GstElement *first;
  if (text && r->seen++ == r->wanted && r->sink == NULL) {
    r->sink = gst_element_factory_make("appsink", NULL);
    // Its lines are pulled after the end: an appsink otherwise holds the end back until they are.
    g_object_set(r->sink, "sync", FALSE, "async", FALSE, "emit-signals", FALSE, "max-buffers", 0, "wait-on-eos", FALSE, NULL);
    gst_bin_add(GST_BIN(r->pipeline), r->sink);
    first = r->sink;
    if (ssa) {
      GstElement *parse = gst_element_factory_make("ssaparse", NULL);
      if (parse) {
        gst_bin_add(GST_BIN(r->pipeline), parse);
        gst_element_link(parse, r->sink);
        gst_element_sync_state_with_parent(parse);
        first = parse;
      }
    }
    gst_element_sync_state_with_parent(r->sink);
  } else {
    first = gst_element_factory_make("fakesink", NULL);
    g_object_set(first, "sync", FALSE, "async", FALSE, NULL);
    gst_bin_add(GST_BIN(r->pipeline), first);
    gst_element_sync_state_with_parent(first);
  }
  GstPad *sinkpad = gst_element_get_static_pad(first, "sink");
  gst_pad_link(pad, sinkpad);
  gst_object_unref(sinkpad);
}

static void source_pad_added(GstElement *source, GstPad *pad, gpointer data) {
  (void)source;
  GstElement *parsebin = data;
  GstPad *sinkpad = gst_element_get_static_pad(parsebin, "sink");
  if (!gst_pad_is_linked(sinkpad)) gst_pad_link(pad, sinkpad);
  gst_object_unref(sinkpad);
}

static gpointer run(gpointer data) {
  Reader *r = data;
  GPtrArray *texts = g_ptr_array_new_with_free_func(g_free);
  GArray *starts = g_array_new(FALSE, FALSE, sizeof(gint64)), *ends = g_array_new(FALSE, FALSE, sizeof(gint64));
  gboolean markup = FALSE;
  r->pipeline = gst_pipeline_new("reel-subtitle-reader");
  GstElement *source = gst_element_factory_make("urisourcebin", NULL);
  GstElement *parsebin = gst_element_factory_make("parsebin", NULL);
  if (source == NULL || parsebin == NULL) {
    if (source) gst_object_unref(gst_object_ref_sink(source));
    if (parsebin) gst_object_unref(gst_object_ref_sink(parsebin));
  } else {
    g_object_set(source, "uri", r->uri, NULL);
    gst_bin_add_many(GST_BIN(r->pipeline), source, parsebin, NULL);
    g_signal_connect(source, "pad-added", G_CALLBACK(source_pad_added), parsebin);
    g_signal_connect(parsebin, "pad-added", G_CALLBACK(pad_added), r);
    GstBus *bus = gst_element_get_bus(r->pipeline);
    gst_element_set_state(r->pipeline, GST_STATE_PLAYING);
    // Until the whole file is read, it fails, or a minute passes.
    GstMessage *end = gst_bus_timed_pop_filtered(bus, 60 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
    if (end && GST_MESSAGE_TYPE(end) == GST_MESSAGE_EOS && r->sink) {
      GstSample *sample;
      while ((sample = gst_app_sink_try_pull_sample(GST_APP_SINK(r->sink), 0)) != NULL) {
        GstBuffer *buffer = gst_sample_get_buffer(sample);
        GstMapInfo map;
        if (GST_BUFFER_PTS_IS_VALID(buffer) && gst_buffer_map(buffer, &map, GST_MAP_READ)) {
          g_ptr_array_add(texts, g_strndup((const gchar *)map.data, map.size));
          gint64 start = (gint64)GST_BUFFER_PTS(buffer);
          gint64 stop = GST_BUFFER_DURATION_IS_VALID(buffer) ? start + (gint64)GST_BUFFER_DURATION(buffer) : -1;
          g_array_append_val(starts, start);
          g_array_append_val(ends, stop);
          gst_buffer_unmap(buffer, &map);
          const GstStructure *s = gst_caps_get_structure(gst_sample_get_caps(sample), 0);
          markup = s && g_strcmp0(gst_structure_get_string(s, "format"), "pango-markup") == 0;
        }
        gst_sample_unref(sample);
      }
    }
    if (end) gst_message_unref(end);
    gst_element_set_state(r->pipeline, GST_STATE_NULL);
    gst_object_unref(bus);
  }
  gst_object_unref(r->pipeline);
  g_ptr_array_add(texts, NULL);
  r->done((const char *const *)texts->pdata, (const gint64 *)(void *)starts->data, (const gint64 *)(void *)ends->data,
          starts->len, markup, r->user_data);
  g_ptr_array_unref(texts);
  g_array_unref(starts);
  g_array_unref(ends);
  g_free(r->uri);
  g_free(r);
  return NULL;
}

void reel_read_subtitle_track(const char *uri, guint index, ReelSubtitleLinesCallback done, gpointer user_data) {
  Reader *r = g_new0(Reader, 1);
  r->uri = g_strdup(uri);
  r->wanted = index;
  r->done = done;
  r->user_data = user_data;
  g_thread_unref(g_thread_new("reel-subtitles", run, r));
}
