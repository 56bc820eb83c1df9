// SPDX-License-Identifier: GPL-3.0-or-later
// GStreamer's start-up on a thread of its own, while GTK starts on the main thread.
#include "CShims.h"

#include <stdlib.h>

/* Loading a plugin the first time a pipeline needs it happens while that pipeline prerolls,
 * on its streaming thread: gst-libav alone (libavcodec, libavformat and their ~100 libraries)
 * took 80 ms of the 180 ms before a 1080p H.264 file's first frame. Loaded here, in parallel
 * with GTK's start-up, it costs the first frame nothing. */
static gpointer start_up(gpointer data) {
  gchar **plugins = data;
  gst_init(NULL, NULL);
  GstRegistry *registry = gst_registry_get();
  for (gchar **name = plugins; *name; name++) {
    GstPlugin *plugin = gst_registry_find_plugin(registry, *name);
    if (plugin == NULL) continue;
    GstPlugin *loaded = gst_plugin_load(plugin);
    if (loaded) gst_object_unref(loaded);
    gst_object_unref(plugin);
  }
  g_strfreev(plugins);
  // The night mode's compressor: LADSPA's bridge and LSP's library load on first use (30 ms).
  GstElementFactory *compressor = reel_night_compressor_factory();
  GstElement *warm = compressor ? gst_element_factory_create(compressor, NULL) : NULL;
  if (warm) gst_object_unref(gst_object_ref_sink(warm));
  return NULL;
}

static GThread *starting;

/* glibc's exit() marks each library uninitialised as it runs its destructors, and a plugin
 * loading meanwhile ran GObject's constructor a second time ("cannot register existing
 * fundamental type 'gchar'", an abort in CI). Handlers run before the destructors, on every
 * exit(): Reel's own and GLib's (--help). */
static void wait_for_start_up(void) {
  if (starting != NULL && starting != g_thread_self()) g_thread_join(starting);
  starting = NULL;
}

void reel_gst_start_in_background(const char *const *plugins) {
  starting = g_thread_new("reel-gst-start", start_up, g_strdupv((gchar **)plugins));
  atexit(wait_for_start_up);
}
