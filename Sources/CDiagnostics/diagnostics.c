// Counts the tests read through the debug D-Bus interface: GStreamer objects (through the
// leaks tracer, when it runs) and GObjects (when a test preloads the counter).
#include "CShims.h"

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
