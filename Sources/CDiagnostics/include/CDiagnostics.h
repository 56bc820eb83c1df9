// SPDX-License-Identifier: GPL-3.0-or-later
// What the diagnostics count from outside the product's code: GStreamer objects and GObjects
// made and not freed, and the frames that reach the frame sink and are drawn.
#pragma once
#include <gst/gst.h>

// GStreamer objects made minus those freed since reel_gst_object_count_start, as GStreamer's
// leaks tracer counts them (run with GST_TRACERS=leaks); start answers FALSE, and change
// G_MININT64, when that tracer is not active. Each change call starts a new count.
gboolean reel_gst_object_count_start(void);
gint64 reel_gst_object_count_change(void);
// GObjects alive, when meson_helpers/gobject-counter.c is preloaded; G_MININT64 otherwise.
gint64 reel_gobject_live_count(void);

// Counts, from then on, the buffers reaching the sink of the bin `frame_sink` (decoded and
// converted frames) and the frames `paintable` (a GdkPaintable) is given to draw. The counts stay readable until
// released, whatever becomes of the sink and the paintable.
typedef struct ReelFrameCounts ReelFrameCounts;
ReelFrameCounts *reel_frame_counts_attach(GstElement *frame_sink, gpointer paintable);
guint64 reel_frame_counts_received(ReelFrameCounts *counts);
guint64 reel_frame_counts_shown(ReelFrameCounts *counts);
void reel_frame_counts_release(ReelFrameCounts *counts);
