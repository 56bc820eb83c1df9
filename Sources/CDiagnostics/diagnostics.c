// SPDX-License-Identifier: GPL-3.0-or-later
// Counts the tests read through the debug D-Bus interface: GStreamer objects (through the
// leaks tracer, when it runs), GObjects (when a test preloads the counter) and frames (through
// a pad probe and the paintable's own signal: nothing in the frame path counts).
#include "CDiagnostics.h"

#include <gdk/gdk.h>

#include <dlfcn.h>

/* The active leaks tracer, or NULL (transfer full). */
static GstTracer *leaks_tracer(void) {
  GstTracer *found = NULL;
  GList *tracers = gst_tracing_get_active_tracers();
  for (GList *l = tracers; l != NULL; l = l->next) {
    if (g_strcmp0(G_OBJECT_TYPE_NAME(l->data), "GstLeaksTracer") == 0) {
      found = gst_object_ref(l->data);
      break;
    }
  }
  g_list_free_full(tracers, gst_object_unref);
  return found;
}

gboolean reel_gst_object_count_start(void) {
  GstTracer *tracer = leaks_tracer();
  if (tracer == NULL) return FALSE;
  g_signal_emit_by_name(tracer, "activity-start-tracking");
  gst_object_unref(tracer);
  return TRUE;
}

/* The checkpoint lists objects by type name and address only: unlike "get-live-objects",
 * which takes a reference to each live object and was seen to resurrect objects being
 * disposed on streaming threads (and crash), it is safe while the pipeline runs. */
gint64 reel_gst_object_count_change(void) {
  GstTracer *tracer = leaks_tracer();
  if (tracer == NULL) return G_MININT64;
  GstStructure *checkpoint = NULL;
  g_signal_emit_by_name(tracer, "activity-get-checkpoint", &checkpoint);
  gst_object_unref(tracer);
  if (checkpoint == NULL) return G_MININT64;
  const GValue *created = gst_structure_get_value(checkpoint, "objects-created-list");
  const GValue *removed = gst_structure_get_value(checkpoint, "objects-removed-list");
  gint64 change = (created ? (gint64)gst_value_list_get_size(created) : 0) -
                  (removed ? (gint64)gst_value_list_get_size(removed) : 0);
  gst_structure_free(checkpoint);
  return change;
}

/* The GObjects alive, as counted by meson_helpers/gobject-counter.c when a test preloads it
 * (G_MININT64 otherwise): looked up at run time, so Reel itself carries no counting. */
gint64 reel_gobject_live_count(void) {
  gint64 (*live)(void) = (gint64 (*)(void))dlsym(RTLD_DEFAULT, "reel_gobject_counter_live");
  return live ? live() : G_MININT64;
}

/* Shared by the caller, the pad probe and the signal handler: each holds a reference. */
struct ReelFrameCounts {
  gsize received;
  gsize shown;
};

static void release(gpointer counts) { g_atomic_rc_box_release(counts); }
static void release_closure(gpointer counts, GClosure *closure) { g_atomic_rc_box_release(counts); }

static GstPadProbeReturn count_buffer(GstPad *pad, GstPadProbeInfo *info, gpointer counts) {
  g_atomic_pointer_add(&((ReelFrameCounts *)counts)->received, 1);
  return GST_PAD_PROBE_OK;
}

/* A texture given to draw: the paintable's contents change (and it has a frame, not none). */
static void count_frame_drawn(GdkPaintable *paintable, gpointer counts) {
  if (gdk_paintable_get_intrinsic_width(paintable) > 0) g_atomic_pointer_add(&((ReelFrameCounts *)counts)->shown, 1);
}

ReelFrameCounts *reel_frame_counts_attach(GstElement *frame_sink, gpointer paintable) {
  ReelFrameCounts *counts = g_atomic_rc_box_new0(ReelFrameCounts);
  GstIterator *sinks = gst_bin_iterate_sinks(GST_BIN(frame_sink));
  GValue item = G_VALUE_INIT;
  if (gst_iterator_next(sinks, &item) == GST_ITERATOR_OK) {
    GstPad *pad = gst_element_get_static_pad(GST_ELEMENT(g_value_get_object(&item)), "sink");
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, count_buffer, g_atomic_rc_box_acquire(counts), release);
    gst_object_unref(pad);
    g_value_unset(&item);
  }
  gst_iterator_free(sinks);
  g_signal_connect_data(paintable, "invalidate-contents", G_CALLBACK(count_frame_drawn),
                        g_atomic_rc_box_acquire(counts), release_closure, 0);
  return counts;
}

guint64 reel_frame_counts_received(ReelFrameCounts *counts) { return (guint64)g_atomic_pointer_get(&counts->received); }
guint64 reel_frame_counts_shown(ReelFrameCounts *counts) { return (guint64)g_atomic_pointer_get(&counts->shown); }
void reel_frame_counts_release(ReelFrameCounts *counts) { g_atomic_rc_box_release(counts); }
