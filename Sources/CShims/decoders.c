// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

/* With direct rendering, libavcodec decodes into frames of GStreamer's pool and keeps them as
 * its references, so gst-libav (1.22) copies each decoded frame to make it writable, and the
 * pool must hold libavcodec's references as well as the frames downstream: 8 full-size frames.
 * Without it libavcodec decodes into frames of its own, refcounted as mpv's are, and each is
 * copied out once into a frame that goes downstream: still one copy, fewer full-size frames. */
static void decode_into_own_frames(GstElement *element) {
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "direct-rendering"))
    g_object_set(element, "direct-rendering", FALSE, NULL);
}

/* An accurate seek lands between keyframes, and every frame from the keyframe before the target
 * is decoded only to be thrown away. Those no other frame refers to need not be decoded at all
 * (mpv's --hr-seek-framedrop). gst-libav 1.22 cannot be asked to skip them: its skip-frame
 * values predate libavcodec's AVDiscard and none reaches AVDISCARD_NONREF. So they are dropped
 * on their way into the decoder, whichever decoder it is: H.264 pictures with nal_ref_idc 0 and
 * H.265's sub-layer non-reference pictures (libavcodec's own rule for AVDISCARD_NONREF), when
 * they end before the segment's start. */
static gint frames_spared;  // by every pipeline of the process

typedef enum { CODEC_OTHER, CODEC_H264, CODEC_H265 } Codec;

typedef struct {
  Codec codec;
  guint length_size;    // bytes of the length before each NAL unit
  GstClockTime target;  // the start of a forward segment; NONE: nothing to skip
} SeekSkipper;

/* 1: a picture others may refer to, 0: one they may not, -1: not a picture's slice. */
static int referenced(Codec codec, const guint8 *nal, gsize size) {
  if (codec == CODEC_H264 && size >= 1) {
    guint type = nal[0] & 0x1f;
    if (type < 1 || type > 5) return -1;
    return (nal[0] >> 5) != 0;
  }
  if (codec == CODEC_H265 && size >= 2) {
    guint type = (nal[0] >> 1) & 0x3f;
    if (type > 31) return -1;
    return !(type <= 14 && type % 2 == 0);
  }
  return -1;
}

/* Whether every slice of the access unit is of a picture no other picture refers to (its two
 * fields may differ). */
static gboolean is_unreferenced(const SeekSkipper *skipper, const guint8 *data, gsize size) {
  gboolean slices = FALSE;
  gsize offset = 0;
  while (offset + skipper->length_size <= size) {
    gsize length = 0;
    for (guint i = 0; i < skipper->length_size; i++) length = length << 8 | data[offset + i];
    offset += skipper->length_size;
    if (length > size - offset) return FALSE;
    int verdict = referenced(skipper->codec, data + offset, length);
    if (verdict == 1) return FALSE;
    slices |= verdict == 0;
    offset += length;
  }
  return slices && offset == size;
}

static void read_caps(SeekSkipper *skipper, GstCaps *caps) {
  skipper->codec = CODEC_OTHER;
  GstStructure *structure = gst_caps_get_structure(caps, 0);
  Codec codec = gst_structure_has_name(structure, "video/x-h264")   ? CODEC_H264
                : gst_structure_has_name(structure, "video/x-h265") ? CODEC_H265
                                                                    : CODEC_OTHER;
  if (codec == CODEC_OTHER) return;
  // Units with a length before each, as MP4 and Matroska keep them; the size of that length is
  // in avcC's 5th byte, hvcC's 22nd. (MPEG-TS's start codes are left to decode as they were.)
  const GValue *value = gst_structure_get_value(structure, "codec_data");
  GstBuffer *codec_data = value && G_VALUE_HOLDS(value, GST_TYPE_BUFFER) ? gst_value_get_buffer(value) : NULL;
  guint8 byte;
  if (codec_data == NULL || gst_buffer_extract(codec_data, codec == CODEC_H264 ? 4 : 21, &byte, 1) != 1) return;
  skipper->length_size = (byte & 3) + 1;
  skipper->codec = codec;
}

static GstPadProbeReturn skip_unreferenced_before_target(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  SeekSkipper *skipper = data;
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
      GstCaps *caps;
      gst_event_parse_caps(event, &caps);
      read_caps(skipper, caps);
      // Any other decoder's frames pass untouched from here on, without a call each.
      if (skipper->codec == CODEC_OTHER) return GST_PAD_PROBE_REMOVE;
    } else if (GST_EVENT_TYPE(event) == GST_EVENT_SEGMENT) {
      const GstSegment *segment;
      gst_event_parse_segment(event, &segment);
      gboolean forward = segment->format == GST_FORMAT_TIME && segment->rate > 0 && segment->start > 0;
      skipper->target = forward ? segment->start : GST_CLOCK_TIME_NONE;
    }
    return GST_PAD_PROBE_OK;
  }
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  GstClockTime pts = GST_BUFFER_PTS(buffer), duration = GST_BUFFER_DURATION(buffer);
  if (skipper->codec == CODEC_OTHER || !GST_CLOCK_TIME_IS_VALID(skipper->target) || !GST_CLOCK_TIME_IS_VALID(pts) ||
      !GST_CLOCK_TIME_IS_VALID(duration) || pts + duration > skipper->target ||
      !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT))
    return GST_PAD_PROBE_OK;
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_READ)) return GST_PAD_PROBE_OK;
  gboolean skip = is_unreferenced(skipper, map.data, map.size);
  gst_buffer_unmap(buffer, &map);
  if (!skip) return GST_PAD_PROBE_OK;
  g_atomic_int_inc(&frames_spared);
  return GST_PAD_PROBE_DROP;
}

static void tune_decoder(GstElement *element) {
  if (!GST_IS_VIDEO_DECODER(element)) return;
  decode_into_own_frames(element);
  GstPad *pad = gst_element_get_static_pad(element, "sink");
  if (pad == NULL) return;
  SeekSkipper *skipper = g_new0(SeekSkipper, 1);
  skipper->target = GST_CLOCK_TIME_NONE;
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
                    skip_unreferenced_before_target, skipper, g_free);
  gst_object_unref(pad);
}

static void tune_playbin_element(GstElement *playbin, GstElement *element, gpointer data) {
  (void)data;
  tune_decoder(element);
  if (GST_IS_VIDEO_DECODER(element)) reel_decoder_gate_add(playbin, element);
}

static void tune_added_element(GstBin *bin, GstBin *parent, GstElement *element, gpointer data) {
  (void)bin; (void)parent; (void)data;
  tune_decoder(element);
}

void reel_playbin_tune_decoders(GstElement *playbin, ReelSinkRate *rate) {
  reel_decoder_gate_install(playbin, rate);
  g_signal_connect(playbin, "element-setup", G_CALLBACK(tune_playbin_element), NULL);
}

void reel_bin_tune_decoders(GstElement *bin) {
  g_signal_connect(bin, "deep-element-added", G_CALLBACK(tune_added_element), NULL);
}

guint64 reel_decoders_frames_spared(void) { return (guint64)g_atomic_int_get(&frames_spared); }
