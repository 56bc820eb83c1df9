// SPDX-License-Identifier: GPL-3.0-or-later
// A guard on the clock pulsesink gives the pipeline.
//
// Workaround (libpulse 16.1, https://github.com/mpv-player/mpv/issues/10333): goes when
// libpulse's time smoother no longer jumps on a quick cork and uncork.
//
// libpulse 16's stream time (pa_stream_get_time, interpolated by its time-smoother_2.c) can
// jump to an absurd value, centuries ahead, when a stream is corked and uncorked in quick
// succession, as each seek while playing does; libpulse keeps a stream's time monotonic, so it
// then stays there for the life of the stream. pulsesink's clock, the pipeline's, follows it:
// the position stops moving while the sound plays on, a flushing seek changes nothing, and only
// a new stream (loading the item again) ends it. Measured on a line drill (a seek every 0.3 s):
// once in 20 to 300 seeks. mpv met the same bug (mpv-player/mpv#10333, PulseAudio 16.0, 16.1).
//
// The guard wraps pulsesink's clock function. A time further ahead of the last than the wall
// clock can explain is refused: from then on the clock runs from its last sane time at the
// system clock's pace while the sink plays (and stands while it is paused), until the sink opens
// a new stream, whose time starts again from zero.
#include "CShims.h"

#include <gst/audio/audio.h>
#include <pthread.h>

typedef struct {
  GstAudioClockGetTimeFunc func;  // the sink's own
  gpointer user_data;
  GstAudioBaseSink *sink;         // owns the clock, so outlives every call; NULL: always playing
  pthread_mutex_t lock;           // a lock ThreadSanitizer sees (GMutex is a bare futex)
  GstClockTime given;             // the time last given, NONE before the first
  GstClockTime read;              // pulsesink's time last read
  gint64 given_at;                // monotonic µs
  gboolean refusing;
} ClockGuard;

// Further ahead than this beyond twice the wall clock's time is not a sound device's time.
#define IMPLAUSIBLE_LEAD (10 * GST_SECOND)

static gboolean sink_playing(GstAudioBaseSink *sink) {
  if (sink == NULL) return TRUE;
  GstAudioRingBuffer *ring = sink->ringbuffer;
  return ring != NULL && g_atomic_int_get(&ring->state) == GST_AUDIO_RING_BUFFER_STATE_STARTED;
}

static GstClockTime guarded_time(GstClock *clock, gpointer data) {
  ClockGuard *guard = data;
  GstClockTime read = guard->func(clock, guard->user_data);
  if (!GST_CLOCK_TIME_IS_VALID(read)) return read;
  gint64 now = g_get_monotonic_time();
  pthread_mutex_lock(&guard->lock);
  GstClockTime elapsed = (GstClockTime)MAX(0, now - guard->given_at) * GST_USECOND;
  gboolean first = !GST_CLOCK_TIME_IS_VALID(guard->given);
  if (guard->refusing && read < guard->read) {
    guard->refusing = FALSE;  // a new stream
  } else if (!guard->refusing && !first && read > guard->given + 2 * elapsed + IMPLAUSIBLE_LEAD) {
    guard->refusing = TRUE;
    g_info("PulseAudio's stream time jumped from %" GST_TIME_FORMAT " to %" GST_TIME_FORMAT
           "; the system clock stands in until the next stream", GST_TIME_ARGS(guard->given), GST_TIME_ARGS(read));
  }
  guard->read = read;
  GstClockTime given = guard->refusing ? guard->given + (sink_playing(guard->sink) ? elapsed : 0) : read;
  guard->given = given;
  guard->given_at = now;
  pthread_mutex_unlock(&guard->lock);
  return given;
}

static void free_guard(gpointer data) {
  ClockGuard *guard = data;
  pthread_mutex_destroy(&guard->lock);
  g_free(guard);
}

void reel_audio_clock_guard(GstClock *clock, GstAudioBaseSink *sink) {
  if (clock == NULL || !GST_IS_AUDIO_CLOCK(clock)) return;
  GstAudioClock *audio_clock = GST_AUDIO_CLOCK(clock);
  // pulsesink's function takes the sink as its data and frees nothing: nothing to hand on.
  if (audio_clock->destroy_notify != NULL) return;
  ClockGuard *guard = g_new0(ClockGuard, 1);
  guard->func = audio_clock->func;
  guard->user_data = audio_clock->user_data;
  guard->sink = sink;
  guard->given = GST_CLOCK_TIME_NONE;
  pthread_mutex_init(&guard->lock, NULL);
  // Set before the sink joins a pipeline, so before any thread reads the clock.
  audio_clock->user_data = guard;
  audio_clock->destroy_notify = free_guard;
  audio_clock->func = guarded_time;
}

void reel_pulse_clock_guard(GstElement *pulsesink) {
  if (!GST_IS_AUDIO_BASE_SINK(pulsesink)) return;
  GstAudioBaseSink *sink = GST_AUDIO_BASE_SINK(pulsesink);
  reel_audio_clock_guard(sink->provided_clock, sink);
}
