// SPDX-License-Identifier: GPL-3.0-or-later
// Workarounds for GStreamer 1.22 (Debian 12). Each, as every workaround in Reel, starts
// "Workaround (WHAT VERSION[, URL]):" and says when it goes ("Goes when …"): grep "Workaround (".
#include "CShims.h"

/* Workaround (GStreamer 1.22.0, likely https://gitlab.freedesktop.org/gstreamer/gstreamer/-/issues/1772):
 * playbin joins the streams of a file with several sound or subtitle tracks in input-selectors
 * set to keep the tracks not played in step by waiting on the clock, holding their stream
 * locks. Stopping (each item change does) first stops the audio clock, so those waits never
 * end and the stop, which needs the locks, never finishes: GStreamer 1.22 then hangs on the
 * next item (GstPlay's thread in gst_pad_set_active). Keeping them in step by the active
 * track's segment instead waits on a condition that stopping does wake. Only selectors that
 * get a second track are changed: with one track nothing waits, and playbin's own mode is
 * left where it does no harm. Goes when Reel runs on a GStreamer with
 * input-selector's shutdown fix (merge request 4098, 1.24; 4099 for 1.22.x). */
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

/* Workaround (GStreamer 1.22's pulsesink):
 * Every pulsesink in a process shares one PulseAudio main loop, made when the first opens its
 * device and freed when the last closes it. GStreamer 1.22's pulsesink answers a caps query
 * between making its ring buffer and opening its device (or between closing and dropping it)
 * by locking that main loop, which then may not exist: libpulse aborts the process (seen as
 * Reel dying in pa_threaded_mainloop_lock during item changes, from decodebin's caps queries).
 * One sink kept open for the life of the process keeps the main loop alive. Goes when
 * pulsesink takes its main loop's lock only while the loop exists. */
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

/* Workaround (GStreamer 1.22's qtdemux):
 * A key-unit seek (SNAP_BEFORE) in an MP4 with sound, to a time just at or after a keyframe,
 * lands on the keyframe before it, but qtdemux 1.22 starts the segment at the sound's sample
 * there: the decoder decodes every frame from that keyframe on and drops those before the
 * segment, up to a second of frames (100-150 ms at 1080p) for the frame after it. Opening the
 * segment back (its stream times kept) makes the keyframe the frame that comes out.
 * Goes when qtdemux starts a key-unit seek's segment at the keyframe (ViewerTests' seek times tell). */
static GstPadProbeReturn open_segment_back(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  (void)pad; (void)data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_SEGMENT) return GST_PAD_PROBE_OK;
  const GstSegment *given;
  gst_event_parse_segment(event, &given);
  if (given->format != GST_FORMAT_TIME || given->rate <= 0 || given->start == 0) return GST_PAD_PROBE_OK;
  GstSegment segment = *given;
  guint64 back = MIN(segment.start, segment.time);
  segment.start -= back;
  segment.time -= back;
  segment.position = segment.start;
  GstEvent *opened = gst_event_new_segment(&segment);
  gst_event_set_seqnum(opened, gst_event_get_seqnum(event));
  gst_event_unref(event);
  GST_PAD_PROBE_INFO_DATA(info) = opened;
  return GST_PAD_PROBE_OK;
}

void reel_decode_from_the_keyframe(GstPad *decoder_sink) {
  gst_pad_add_probe(decoder_sink, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, open_segment_back, NULL, NULL);
}

/* Workaround (GStreamer 1.22's playsink):
 * Switching playbin's video track relinks playsink from a streaming thread once data has reached
 * every one of its inputs, deactivating pads whose stream locks the other streams hold. A sink
 * waiting for preroll (paused, or after a flushing seek or a state change) holds its stream's
 * lock until the pipeline plays: GStreamer 1.22 then deadlocks, the state change that would
 * release it waiting for playsink's lock, which the relink holds. So a switch starts only while
 * the pipeline plays steadily, and nothing flushes or changes state until its relink is done.
 * Goes when playsink relinks without holding its lock against a state change (BackgroundTests'
 * minimize/restore cycles pass without it). */
gboolean reel_pipeline_is_playing_steadily(GstElement *pipeline) {
  GstState current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING;
  return gst_element_get_state(pipeline, &current, &pending, 0) == GST_STATE_CHANGE_SUCCESS &&
         current == GST_STATE_PLAYING && pending == GST_STATE_VOID_PENDING;
}

gboolean reel_playbin_is_relinking(GstElement *playbin) {
  GstElement *playsink = gst_bin_get_by_name(GST_BIN(playbin), "playsink");
  if (playsink == NULL) return FALSE;
  GST_OBJECT_LOCK(playsink);
  GList *pads = g_list_copy_deep(GST_ELEMENT(playsink)->sinkpads, (GCopyFunc)gst_object_ref, NULL);
  GST_OBJECT_UNLOCK(playsink);
  gboolean relinking = FALSE;
  // playsink blocks the inner side of each input's ghost pad until it has relinked.
  for (GList *l = pads; l != NULL && !relinking; l = l->next) {
    if (!GST_IS_GHOST_PAD(l->data)) continue;
    GstPad *inner = GST_PAD(gst_proxy_pad_get_internal(GST_PROXY_PAD(l->data)));
    if (inner == NULL) continue;
    relinking = gst_pad_is_blocked(inner);
    gst_object_unref(inner);
  }
  g_list_free_full(pads, gst_object_unref);
  gst_object_unref(playsink);
  return relinking;
}
