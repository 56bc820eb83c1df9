// SPDX-License-Identifier: GPL-3.0-or-later
// The gate in front of playbin's video decoders: shut while the video branch is detached.
#include "CShims.h"

// An entry goes to the streaming threads through the pads' probe lists and comes back on the
// pad's disposal, the gate through the playbin's data: ordered for ThreadSanitizer (tsan_order.h).
#include "tsan_order.h"

/* playbin (1.22, playbin3 too) decodes a switched-off video track all the same and throws the
 * frames away: 0.2 cores for a 1080p film minimized, against 0.01 for its sound alone. So while
 * the branch is detached, the compressed frames stop here:
 * - each once the sound's path has taken in data up to its time: dropped at once, they let the
 *   demuxer race ahead, and multiqueue grew the sound's queue to the end of the file;
 * - those since the last keyframe (or since the gate shut) are kept, and go into the decoder
 *   first when it opens, those the sound has passed marked decode-only: the frames after decode
 *   against the right references, with no wait for a keyframe, and none of them late;
 * - the frames the decoder still held when it shut come out seconds late when it opens: they,
 *   and the sink's QoS reports on them (and on the first second, while playsink relinks), go no
 *   further, or the decoder would drop every frame for twice as long;
 * - after a stream starts or flushes, frames go in until one comes out: the decoder sends the
 *   segment on with it, and playsink's stream synchronizer holds the sound until it has one.
 * A stream too long without a keyframe has its kept frames given up: the decoder makes do. */
#define KEPT_BYTES_MAX (64 * 1024 * 1024)

typedef struct {
  gint open;
  ReelSinkRate *rate;  // whose leading path, the sound's, paces the frames held back
} Gate;

typedef struct {
  Gate *gate;  // the playbin's, shared by its decoders
  GstSegment segment;
  GQueue kept;
  gsize kept_bytes;
  gboolean waiting_for_keyframe;  // what was kept is gone: nothing to keep before a keyframe
  gboolean replaying;
  gint holding;  // frames are held back now (atomic)
  // Running times, atomic (the source pad's probe reads them): where the gate last shut (frames
  // decoded before it are stale once it opens), and up to where QoS reports are not heeded.
  GstClockTime stale_before, quiet_until;
  gint primed;  // a frame has come out since the stream started or flushed (atomic)
} DecoderEntry;

static gint frames_let_through;  // by every gate of the process

static void forget(DecoderEntry *entry, gboolean wait_for_keyframe) {
  g_queue_clear_full(&entry->kept, (GDestroyNotify)gst_buffer_unref);
  entry->kept_bytes = 0;
  entry->waiting_for_keyframe = wait_for_keyframe;
}

static void keep(DecoderEntry *entry, GstBuffer *buffer) {
  gboolean keyframe = !GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT);
  if (keyframe) forget(entry, FALSE);
  if (entry->waiting_for_keyframe) return;
  gsize size = gst_buffer_get_size(buffer);
  if (entry->kept_bytes + size > KEPT_BYTES_MAX) return forget(entry, TRUE);
  g_queue_push_tail(&entry->kept, gst_buffer_ref(buffer));
  entry->kept_bytes += size;
}

static GstClockTime running_time(DecoderEntry *entry, GstBuffer *buffer) {
  GstClockTime pts = GST_BUFFER_PTS(buffer);
  return GST_CLOCK_TIME_IS_VALID(pts) ? gst_segment_to_running_time(&entry->segment, GST_FORMAT_TIME, pts)
                                      : GST_CLOCK_TIME_NONE;
}

/* Into the decoder, in order, from inside its sink pad's probe (the stream lock is recursive). */
static void replay(DecoderEntry *entry, GstPad *pad) {
  entry->replaying = TRUE;
  GstBuffer *buffer;
  while ((buffer = g_queue_pop_head(&entry->kept)) != NULL) {
    GstClockTime t = running_time(entry, buffer);
    if (GST_CLOCK_TIME_IS_VALID(t) && t < reel_sink_rate_furthest(entry->gate->rate)) {
      buffer = gst_buffer_make_writable(buffer);
      GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_DECODE_ONLY);
    }
    g_atomic_int_inc(&frames_let_through);
    if (gst_pad_chain(pad, buffer) != GST_FLOW_OK) break;  // a flush: what is left is stale
  }
  forget(entry, FALSE);
  entry->replaying = FALSE;
}

/* On the decoder's source pad: its stale frames, and the sink's QoS reports on them. */
static GstPadProbeReturn drop_stale(DecoderEntry *entry, GstPadProbeInfo *info) {
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) g_atomic_int_set(&entry->primed, TRUE);
  GstClockTime stale_before = __atomic_load_n(&entry->stale_before, __ATOMIC_ACQUIRE);
  if (!GST_CLOCK_TIME_IS_VALID(stale_before) || g_atomic_int_get(&entry->holding)) return GST_PAD_PROBE_OK;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstClockTime t = running_time(entry, GST_PAD_PROBE_INFO_BUFFER(info));
    return GST_CLOCK_TIME_IS_VALID(t) && t < stale_before ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
  }
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_QOS) return GST_PAD_PROBE_OK;
  GstClockTime timestamp;
  gst_event_parse_qos(event, NULL, NULL, NULL, &timestamp);
  GstClockTime quiet_until = __atomic_load_n(&entry->quiet_until, __ATOMIC_ACQUIRE);
  GstClockTime heeded_from = GST_CLOCK_TIME_IS_VALID(quiet_until) ? MAX(stale_before, quiet_until) : stale_before;
  return GST_CLOCK_TIME_IS_VALID(timestamp) && timestamp < heeded_from ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

/* A new segment, stream or flush: nothing held back or stale any more. */
static void start_over(DecoderEntry *entry, gboolean wait_for_keyframe) {
  forget(entry, wait_for_keyframe);
  g_atomic_int_set(&entry->holding, FALSE);
  g_atomic_int_set(&entry->primed, FALSE);
  __atomic_store_n(&entry->stale_before, GST_CLOCK_TIME_NONE, __ATOMIC_RELEASE);
  __atomic_store_n(&entry->quiet_until, GST_CLOCK_TIME_NONE, __ATOMIC_RELEASE);
}

static GstPadProbeReturn guard_decoder(DecoderEntry *entry, GstPad *pad, GstPadProbeInfo *info) {
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
    switch (GST_EVENT_TYPE(event)) {
      case GST_EVENT_SEGMENT:
        gst_event_copy_segment(event, &entry->segment);
        start_over(entry, FALSE);  // the demuxer starts a new segment at a keyframe
        break;
      case GST_EVENT_FLUSH_STOP:
      case GST_EVENT_STREAM_START:
        start_over(entry, TRUE);
        break;
      case GST_EVENT_CAPS:
        forget(entry, TRUE);
        break;
      default:
        break;
    }
    return GST_PAD_PROBE_OK;
  }
  if (entry->replaying) return GST_PAD_PROBE_OK;
  GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(info);
  if (!g_atomic_int_get(&entry->gate->open) && g_atomic_int_get(&entry->primed)) {
    GstClockTime t = running_time(entry, buffer);
    // With no sound to pace them (a silent video, or its sound over), frames go in as before.
    if (GST_CLOCK_TIME_IS_VALID(t) && reel_sink_rate_wait_for_leader(entry->gate->rate, t, pad)) {
      if (!g_atomic_int_get(&entry->holding)) __atomic_store_n(&entry->stale_before, t, __ATOMIC_RELEASE);
      g_atomic_int_set(&entry->holding, TRUE);
      keep(entry, buffer);
      return GST_PAD_PROBE_DROP;
    }
  }
  if (g_atomic_int_get(&entry->holding)) {  // the gate has just opened
    __atomic_store_n(&entry->quiet_until, reel_sink_rate_furthest(entry->gate->rate) + GST_SECOND, __ATOMIC_RELEASE);
    g_atomic_int_set(&entry->holding, FALSE);
  }
  if (!g_queue_is_empty(&entry->kept)) replay(entry, pad);
  entry->waiting_for_keyframe = FALSE;  // the decoder has every frame up to this one
  g_atomic_int_inc(&frames_let_through);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn on_sink_pad(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  ordered_after(data);
  GstPadProbeReturn result = guard_decoder(data, pad, info);
  ordered_before(data);
  return result;
}

static GstPadProbeReturn on_source_pad(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad;
  ordered_after(data);
  GstPadProbeReturn result = drop_stale(data, info);
  ordered_before(data);
  return result;
}

static void clear_gate(gpointer data) { reel_sink_rate_unref(((Gate *)data)->rate); }

static void release_gate(gpointer gate) { g_atomic_rc_box_release_full(gate, clear_gate); }

static void free_entry(gpointer data) {
  DecoderEntry *entry = data;
  ordered_after(entry);
  forget(entry, FALSE);
  release_gate(entry->gate);
  g_free(entry);
}

static Gate *gate_of(GstElement *playbin) { return g_object_get_data(G_OBJECT(playbin), "reel-decoder-gate"); }

void reel_decoder_gate_install(GstElement *playbin, ReelSinkRate *rate) {
  Gate *gate = g_atomic_rc_box_new0(Gate);
  gate->open = TRUE;
  gate->rate = reel_sink_rate_ref(rate);
  ordered_before(gate);
  g_object_set_data_full(G_OBJECT(playbin), "reel-decoder-gate", gate, release_gate);
}

void reel_decoder_gate_add(GstElement *playbin, GstElement *decoder) {
  if (gate_of(playbin) == NULL) return;
  GstPad *pad = gst_element_get_static_pad(decoder, "sink");
  if (pad == NULL) return;
  GstPad *source = gst_element_get_static_pad(decoder, "src");
  if (source == NULL) return gst_object_unref(pad);
  DecoderEntry *entry = g_new0(DecoderEntry, 1);
  ordered_after(gate_of(playbin));
  entry->gate = g_atomic_rc_box_acquire(gate_of(playbin));
  gst_segment_init(&entry->segment, GST_FORMAT_TIME);
  g_queue_init(&entry->kept);
  entry->stale_before = entry->quiet_until = GST_CLOCK_TIME_NONE;
  ordered_before(entry);
  // The sink pad's probe owns the entry; the source pad goes with it, the decoder's.
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, on_sink_pad, entry, free_entry);
  gst_pad_add_probe(source, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, on_source_pad, entry, NULL);
  gst_object_unref(source);
  gst_object_unref(pad);
}

void reel_playbin_set_video_decoding(GstElement *playbin, gboolean on) {
  Gate *gate = gate_of(playbin);
  if (gate != NULL) g_atomic_int_set(&gate->open, on);
}

guint64 reel_decoder_gate_frames_let_through(void) { return (guint64)g_atomic_int_get(&frames_let_through); }
