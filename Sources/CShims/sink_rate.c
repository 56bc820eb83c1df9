// SPDX-License-Identifier: GPL-3.0-or-later
// The playback rate, applied where the streams reach Reel's sinks: upstream (sources, demuxers,
// decoders, GstPlay) always runs at 1×, and the sinks' segments carry the rate.
//
// Why not GstPlay's rate: gst_play_set_rate is a flushing seek (pause, flush, decode again from
// the last keyframe, preroll): a gap in the sound on every change, a second preroll for every
// item that starts at a rate other than 1 (each of a learner's clips), and an error on a stream
// that cannot seek. GStreamer's own instant rate changes (1.18) need the demuxer's help (1.22:
// qtdemux and matroskademux only; oggdemux accepts and misbehaves, mpegaudioparse refuses) and
// leave scaletempo at the old rate: the audio sink then resamples, pitch and all.
//
// How: each sink's input runs on one shared map from upstream running time to the sinks'
// running time, a line per stretch of constant rate. A rate change adds a line from a point no
// data has reached any sink yet: the next buffer on the path that leads (the sound, whose sink
// runs ~200 ms ahead of what is heard), so sound and picture switch at the same media time and
// stay in step. Every path rebases its segment when its data crosses that point; the running
// time of every stream stays continuous. scaletempo, after the audio probe, stretches to the
// segment's rate as it does for a seek at that rate, keeping the pitch. QoS going back upstream
// is mapped back to upstream time. A flush (a seek) or a new stream starts a fresh map at the
// current rate, so a new item or a seek costs nothing extra.
#include "CShims.h"

#include <gst/base/gstbasesink.h>
#include <math.h>

// The lock below, and the pad's probe list, which hands a pad's state from the thread that
// attaches to the streaming thread, are ordered for ThreadSanitizer (see tsan_order.h).
#include "tsan_order.h"

typedef struct {
  GstClockTime upstream;  // upstream running time where the line starts
  GstClockTime sinks;     // the sinks' running time there
  gdouble rate;
} Line;

struct ReelSinkRate {
  GMutex lock;
  GCond arrived;            // `furthest` moved on
  GArray *lines;          // of Line, ordered; never empty
  gdouble wanted;
  gboolean change_pending;
  gboolean leader_flowing;  // the leading path has a stream (a segment, no EOS yet)
  GstClockTime furthest;    // the furthest upstream running time any path has received
  GstSegment leader_segment;  // the leading path's segment, as upstream sent it
  guint32 flush_seqnum;
  guint group;              // the stream group (the item) the map is for
};

typedef struct {
  ReelSinkRate *shared;
  gboolean leads;
  GstSegment upstream;    // as upstream sent it
  GstSegment own;         // as sent on to the sink
  guint line;             // index of the line `own` follows
  gboolean injecting;
} PadState;

// scaletempo at exactly 1.0 switches to passthrough and drops the samples it holds (a 55 ms
// gap, then a resync); a stream slowed or sped up back to 1× mid-stream stays a hair off it.
// The next flush or item starts at 1.0 exactly.
#define NEARLY_ONE (1.0 + 1e-9)

static void reset_locked(ReelSinkRate *self) {
  g_array_set_size(self->lines, 1);
  g_array_index(self->lines, Line, 0) = (Line){0, 0, self->wanted};
  self->change_pending = FALSE;
  self->furthest = 0;
}

ReelSinkRate *reel_sink_rate_new(void) {
  ReelSinkRate *self = g_atomic_rc_box_new0(ReelSinkRate);
  g_mutex_init(&self->lock);
  g_cond_init(&self->arrived);
  self->lines = g_array_new(FALSE, FALSE, sizeof(Line));
  gst_segment_init(&self->leader_segment, GST_FORMAT_UNDEFINED);
  lock_ordered(&self->lock, self);
  self->wanted = 1.0;
  reset_locked(self);
  unlock_ordered(&self->lock, self);
  return self;
}

static void clear(gpointer data) {
  ReelSinkRate *self = data;
  lock_ordered(&self->lock, self);
  unlock_ordered(&self->lock, self);
  g_array_unref(self->lines);
  g_cond_clear(&self->arrived);
  g_mutex_clear(&self->lock);
}

void reel_sink_rate_unref(ReelSinkRate *self) { g_atomic_rc_box_release_full(self, clear); }

ReelSinkRate *reel_sink_rate_ref(ReelSinkRate *self) { return g_atomic_rc_box_acquire(self); }

void reel_sink_rate_set(ReelSinkRate *self, gdouble rate) {
  lock_ordered(&self->lock, self);
  if (rate > 0 && rate != self->wanted) {
    self->wanted = rate;
    self->change_pending = TRUE;
  }
  unlock_ordered(&self->lock, self);
}

// The last line starting at or before upstream running time `t`.
static guint line_at(ReelSinkRate *self, GstClockTime t) {
  guint i = self->lines->len - 1;
  while (i > 0 && g_array_index(self->lines, Line, i).upstream > t) i--;
  return i;
}

static GstClockTime to_sinks(const Line *line, GstClockTime t) {
  return line->sinks + (GstClockTime)llround((gdouble)(t - line->upstream) / line->rate);
}

// Back the other way: the upstream running time of the sinks' running time `t`, and (when
// `on` is given) the line it falls on.
static GstClockTime to_upstream_locked(ReelSinkRate *self, GstClockTime t, Line *on) {
  guint i = self->lines->len - 1;
  while (i > 0 && g_array_index(self->lines, Line, i).sinks > t) i--;
  Line line = g_array_index(self->lines, Line, i);
  if (on) *on = line;
  return line.upstream + (GstClockTime)llround((gdouble)(t - MIN(t, line.sinks)) * line.rate);
}

// The segment that maps the upstream segment's positions from `from` on through `line`.
static void own_segment(const GstSegment *upstream, const Line *line, guint64 from, GstSegment *own) {
  gst_segment_copy_into(upstream, own);
  GstClockTime rt = gst_segment_to_running_time(upstream, GST_FORMAT_TIME, from);
  own->start = from;
  own->position = from;
  own->time = gst_segment_to_stream_time(upstream, GST_FORMAT_TIME, from);
  own->base = to_sinks(line, rt);
  own->rate = upstream->rate * line->rate;
  // The running time of `from` under `own` is its base: the offset would be added twice.
  own->offset = 0;
}

// Upstream position at upstream running time `t` (clamped to the segment's start).
static guint64 position_at(const GstSegment *upstream, GstClockTime t) {
  guint64 position = upstream->start;
  if (gst_segment_position_from_running_time_full(upstream, GST_FORMAT_TIME, t, &position) < 0)
    return upstream->start;
  return MAX(position, upstream->start);
}

static void send_own_segment(GstPad *pad, PadState *state) {
  GstEvent *event = gst_event_new_segment(&state->own);
  state->injecting = TRUE;
  gst_pad_send_event(pad, event);
  state->injecting = FALSE;
}

// A buffer or gap at position `pts` is about to enter the sink: add the line a rate change
// asked for, and rebase onto the line the data has reached.
static void data_arrives(GstPad *pad, PadState *state, GstClockTime pts) {
  ReelSinkRate *self = state->shared;
  if (state->upstream.format != GST_FORMAT_TIME || !GST_CLOCK_TIME_IS_VALID(pts)) return;
  GstClockTime rt = gst_segment_to_running_time(&state->upstream, GST_FORMAT_TIME, pts);
  if (!GST_CLOCK_TIME_IS_VALID(rt)) return;
  lock_ordered(&self->lock, self);
  if (self->change_pending && (state->leads || !self->leader_flowing)) {
    GstClockTime from = MAX(rt, self->furthest);
    Line *last = &g_array_index(self->lines, Line, self->lines->len - 1);
    gdouble rate = self->wanted == 1.0 ? NEARLY_ONE : self->wanted;
    Line next = {from, to_sinks(last, from), rate};
    if (from == last->upstream) *last = (Line){last->upstream, last->sinks, rate};
    else g_array_append_val(self->lines, next);
    self->change_pending = FALSE;
  }
  if (rt > self->furthest) {
    self->furthest = rt;
    g_cond_broadcast(&self->arrived);
  }
  guint line = line_at(self, rt);
  gboolean rebase = line != state->line;
  Line target = g_array_index(self->lines, Line, line);
  unlock_ordered(&self->lock, self);
  if (!rebase) return;
  state->line = line;
  own_segment(&state->upstream, &target, position_at(&state->upstream, target.upstream), &state->own);
  send_own_segment(pad, state);
}

static GstPadProbeReturn on_downstream(GstPad *pad, GstPadProbeInfo *info, PadState *state) {
  ReelSinkRate *self = state->shared;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    data_arrives(pad, state, GST_BUFFER_PTS(GST_PAD_PROBE_INFO_BUFFER(info)));
    return GST_PAD_PROBE_OK;
  }
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBuffer *first = gst_buffer_list_get(GST_PAD_PROBE_INFO_BUFFER_LIST(info), 0);
    if (first) data_arrives(pad, state, GST_BUFFER_PTS(first));
    return GST_PAD_PROBE_OK;
  }
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  switch (GST_EVENT_TYPE(event)) {
  case GST_EVENT_FLUSH_STOP: {
    // A seek: running time starts again from 0 everywhere.
    gboolean reset_time = FALSE;
    gst_event_parse_flush_stop(event, &reset_time);
    lock_ordered(&self->lock, self);
    if (reset_time && gst_event_get_seqnum(event) != self->flush_seqnum) {
      self->flush_seqnum = gst_event_get_seqnum(event);
      reset_locked(self);
    }
    if (state->leads) gst_segment_init(&self->leader_segment, GST_FORMAT_UNDEFINED);
    unlock_ordered(&self->lock, self);
    gst_segment_init(&state->upstream, GST_FORMAT_UNDEFINED);
    break;
  }
  case GST_EVENT_STREAM_START: {
    // A new item's streams start their running time from 0; a track switched back on (the
    // video, after the window was hidden) keeps its group and joins the map where it is.
    guint group = 0;
    if (!gst_event_parse_group_id(event, &group)) break;
    lock_ordered(&self->lock, self);
    if (group != self->group) {
      self->group = group;
      reset_locked(self);
    }
    unlock_ordered(&self->lock, self);
    break;
  }
  case GST_EVENT_SEGMENT: {
    if (state->injecting) break;
    const GstSegment *segment;
    gst_event_parse_segment(event, &segment);
    gst_segment_copy_into(segment, &state->upstream);
    if (segment->format != GST_FORMAT_TIME) break;
    GstClockTime rt = gst_segment_to_running_time(segment, GST_FORMAT_TIME, segment->start);
    lock_ordered(&self->lock, self);
    if (state->leads) {
      self->leader_flowing = TRUE;
      gst_segment_copy_into(segment, &self->leader_segment);
    }
    guint line = line_at(self, GST_CLOCK_TIME_IS_VALID(rt) ? rt : 0);
    Line target = g_array_index(self->lines, Line, line);
    unlock_ordered(&self->lock, self);
    state->line = line;
    own_segment(segment, &target, segment->start, &state->own);
    GstEvent *own = gst_event_new_segment(&state->own);
    gst_event_set_seqnum(own, gst_event_get_seqnum(event));
    gst_event_unref(event);
    GST_PAD_PROBE_INFO_DATA(info) = own;
    break;
  }
  case GST_EVENT_GAP: {
    GstClockTime pts;
    gst_event_parse_gap(event, &pts, NULL);
    data_arrives(pad, state, pts);
    break;
  }
  case GST_EVENT_EOS:
    if (state->leads) {
      lock_ordered(&self->lock, self);
      self->leader_flowing = FALSE;
      unlock_ordered(&self->lock, self);
    }
    break;
  default:
    break;
  }
  return GST_PAD_PROBE_OK;
}

// QoS reports the sinks' running time; upstream (the decoder skipping late frames) reckons in its own.
static GstPadProbeReturn on_upstream(GstPad *pad, GstPadProbeInfo *info, PadState *state) {
  (void)pad;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT(info);
  if (GST_EVENT_TYPE(event) != GST_EVENT_QOS) return GST_PAD_PROBE_OK;
  GstQOSType type;
  gdouble proportion;
  GstClockTimeDiff diff;
  GstClockTime timestamp;
  gst_event_parse_qos(event, &type, &proportion, &diff, &timestamp);
  if (!GST_CLOCK_TIME_IS_VALID(timestamp)) return GST_PAD_PROBE_OK;
  ReelSinkRate *self = state->shared;
  Line line;
  lock_ordered(&self->lock, self);
  GstClockTime upstream = to_upstream_locked(self, timestamp, &line);
  unlock_ordered(&self->lock, self);
  GstClockTimeDiff jitter = (GstClockTimeDiff)llround((gdouble)diff * line.rate);
  // Early by more than the time itself means "at once": the event cannot say more.
  if (jitter < 0 && (GstClockTime)-jitter > upstream) jitter = -(GstClockTimeDiff)upstream;
  GstEvent *mapped = gst_event_new_qos(type, proportion, jitter, upstream);
  gst_event_set_seqnum(mapped, gst_event_get_seqnum(event));
  gst_event_unref(event);
  GST_PAD_PROBE_INFO_DATA(info) = mapped;
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn probe(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
  PadState *state = data;
  ordered_after(state);
  GstPadProbeReturn result = (info->type & GST_PAD_PROBE_TYPE_EVENT_UPSTREAM) ? on_upstream(pad, info, state)
                                                                               : on_downstream(pad, info, state);
  ordered_before(state);
  return result;
}

static void free_pad_state(gpointer data) {
  PadState *state = data;
  ordered_after(state);
  reel_sink_rate_unref(state->shared);
  g_free(state);
}

void reel_sink_rate_attach(ReelSinkRate *self, GstElement *element, gboolean leads) {
  GstPad *pad = gst_element_get_static_pad(element, "sink");
  if (pad == NULL) return;
  PadState *state = g_new0(PadState, 1);
  state->shared = reel_sink_rate_ref(self);
  state->leads = leads;
  gst_segment_init(&state->upstream, GST_FORMAT_UNDEFINED);
  gst_segment_init(&state->own, GST_FORMAT_UNDEFINED);
  ordered_before(state);
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER | GST_PAD_PROBE_TYPE_BUFFER_LIST |
                    GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM | GST_PAD_PROBE_TYPE_EVENT_FLUSH |
                    GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, probe, state, free_pad_state);
  gst_object_unref(pad);
}

GstClockTime reel_sink_rate_furthest(ReelSinkRate *self) {
  lock_ordered(&self->lock, self);
  GstClockTime furthest = self->furthest;
  unlock_ordered(&self->lock, self);
  return furthest;
}

gboolean reel_sink_rate_wait_for_leader(ReelSinkRate *self, GstClockTime t, GstPad *pad) {
  lock_ordered(&self->lock, self);
  gboolean paced = self->leader_flowing;
  while (self->leader_flowing && self->furthest < t && !GST_PAD_IS_FLUSHING(pad)) {
    // A flush or a stop shows on the pad: looked at every 50 ms.
    ordered_before(self);
    g_cond_wait_until(&self->arrived, &self->lock, g_get_monotonic_time() + 50 * G_TIME_SPAN_MILLISECOND);
    ordered_after(self);
  }
  unlock_ordered(&self->lock, self);
  return paced;
}

// The sinks' own answer (GstBaseSink: its segment's time plus the clock since the segment's
// base) holds at the start of a segment the sink gets ahead of the sound: after a rate change,
// the audio sink's rebased segment arrives up to its device buffer (200 ms) before it is heard,
// and the position jumped ahead and stood still that long. Here what is heard is followed back
// through the map instead. Only while the map has a change in it; else the sink answers.
gboolean reel_sink_rate_position(ReelSinkRate *self, GstElement *sink, gint64 *position) {
  if (!GST_IS_BASE_SINK(sink)) return FALSE;
  GST_OBJECT_LOCK(sink);
  GstState state = GST_STATE_PENDING(sink) == GST_STATE_VOID_PENDING ? GST_STATE(sink) : GST_STATE_VOID_PENDING;
  GST_OBJECT_UNLOCK(sink);
  // The sinks' running time of what is heard now, as GstBaseSink reckons it: from the clock
  // while playing, from where it stopped while paused.
  GstClockTime now, since;
  if (state == GST_STATE_PLAYING) {
    GstClock *clock = gst_element_get_clock(sink);
    if (clock == NULL) return FALSE;
    now = gst_clock_get_time(clock);
    gst_object_unref(clock);
    since = gst_element_get_base_time(sink);
  } else if (state == GST_STATE_PAUSED) {
    now = gst_element_get_start_time(sink);
    since = 0;
  } else {
    return FALSE;
  }
  GstClockTime latency = gst_base_sink_get_latency(GST_BASE_SINK(sink));
  if (!GST_CLOCK_TIME_IS_VALID(now) || now < since + latency) return FALSE;
  GstClockTime heard = now - since - latency;
  lock_ordered(&self->lock, self);
  gboolean answer = self->lines->len > 1 && self->leader_flowing && self->leader_segment.format == GST_FORMAT_TIME;
  GstSegment segment;
  GstClockTime upstream = 0;
  if (answer) {
    upstream = to_upstream_locked(self, heard, NULL);
    gst_segment_copy_into(&self->leader_segment, &segment);
  }
  unlock_ordered(&self->lock, self);
  if (!answer) return FALSE;
  guint64 at = position_at(&segment, upstream);
  if (GST_CLOCK_TIME_IS_VALID(segment.stop)) at = MIN(at, segment.stop);
  guint64 stream = gst_segment_to_stream_time(&segment, GST_FORMAT_TIME, at);
  if (!GST_CLOCK_TIME_IS_VALID(stream)) return FALSE;
  *position = (gint64)stream;
  return TRUE;
}
