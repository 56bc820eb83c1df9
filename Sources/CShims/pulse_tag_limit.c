// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps the tags pulsesink forwards to PulseAudio short.
//
// Workaround (GStreamer 1.22's pulsesink with PulseAudio 16): goes when pulsesink bounds the
// tags it copies into a stream's properties.
//
// pulsesink copies a stream's title, artist and a few other tags into its stream's properties,
// whatever their length. PulseAudio ends the connection of a client whose message passes 64 KiB
// (pstream's frame limit): a file whose title and artist are 33 KB each stopped playing with
// "Connection terminated". The probe shortens each text tag to what any mixer can show before
// pulsesink sees it; the tags everything else reads (GstPlay's media info) are untouched.
#include "CShims.h"
#include <string.h>

enum { longest_tag = 4096 };  // bytes; a handful of such tags stays far below 64 KiB

static gboolean is_long_text(const GValue *value) {
  return G_VALUE_HOLDS_STRING(value) && g_value_get_string(value) != NULL &&
         strlen(g_value_get_string(value)) > longest_tag;
}

static gboolean has_long_text(const GstTagList *tags, const char *tag) {
  for (guint i = 0, n = gst_tag_list_get_tag_size(tags, tag); i < n; i++)
    if (is_long_text(gst_tag_list_get_value_index(tags, tag, i))) return TRUE;
  return FALSE;
}

// Cut at a character boundary: the text stays valid UTF-8, as GStreamer's tags are.
static gchar *shortened(const char *text) {
  gsize length = longest_tag;
  while (length > 0 && ((guchar)text[length] & 0xC0) == 0x80) length--;
  return g_strndup(text, length);
}

static void shorten_tag(GstTagList *tags, const char *tag) {
  guint n = gst_tag_list_get_tag_size(tags, tag);
  GValue *values = g_new0(GValue, n);
  for (guint i = 0; i < n; i++) {
    const GValue *value = gst_tag_list_get_value_index(tags, tag, i);
    g_value_init(&values[i], G_VALUE_TYPE(value));
    if (is_long_text(value))
      g_value_take_string(&values[i], shortened(g_value_get_string(value)));
    else
      g_value_copy(value, &values[i]);
  }
  gst_tag_list_remove_tag(tags, tag);
  for (guint i = 0; i < n; i++) {
    gst_tag_list_add_value(tags, GST_TAG_MERGE_APPEND, tag, &values[i]);
    g_value_unset(&values[i]);
  }
  g_free(values);
}

static GstPadProbeReturn shorten_long_tags(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad; (void)data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_TAG) return GST_PAD_PROBE_OK;
  GstTagList *tags = NULL;
  gst_event_parse_tag(event, &tags);
  GstTagList *copy = NULL;
  for (gint i = 0, n = gst_tag_list_n_tags(tags); i < n; i++) {
    const gchar *tag = gst_tag_list_nth_tag_name(tags, i);
    if (!has_long_text(tags, tag)) continue;
    if (copy == NULL) copy = gst_tag_list_copy(tags);
    shorten_tag(copy, tag);
  }
  if (copy == NULL) return GST_PAD_PROBE_OK;
  GST_PAD_PROBE_INFO_DATA(info) = gst_event_new_tag(copy);
  gst_event_unref(event);
  return GST_PAD_PROBE_OK;
}

void reel_pulse_limit_tags(GstElement *pulsesink) {
  GstPad *pad = gst_element_get_static_pad(pulsesink, "sink");
  if (pad == NULL) return;
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, shorten_long_tags, NULL, NULL);
  gst_object_unref(pad);
}
