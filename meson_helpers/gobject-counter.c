// SPDX-License-Identifier: GPL-3.0-or-later
/* A count of the GObjects alive in a process, for the long-session tests (GLib's own instance
 * counts need a GLib built with debugging, which Debian's is not). Loaded with LD_PRELOAD, it
 * stands in for GLib's public constructors, so every object another library or the program
 * makes through them is counted, and uncounted by a weak reference when it is finalized.
 * Objects GLib's libgobject makes internally (GBinding, say) do not pass through here.
 * Reel's debug D-Bus interface reads the count through reel_gobject_counter_live(). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <glib-object.h>

static gint64 live;

gint64 reel_gobject_counter_live(void) { return __atomic_load_n(&live, __ATOMIC_RELAXED); }

static void finalized(gpointer data, GObject *where_the_object_was) {
  (void)data, (void)where_the_object_was;
  __atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED);
}

static gpointer counted(gpointer object) {
  if (object) {
    __atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
    g_object_weak_ref(object, finalized, NULL);
  }
  return object;
}

#define REAL(name) \
  static __typeof__(name) *real; \
  if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

GObject *g_object_new_valist(GType type, const gchar *first, va_list args) {
  REAL(g_object_new_valist);
  return counted(real(type, first, args));
}

gpointer g_object_new(GType type, const gchar *first, ...) {
  REAL(g_object_new_valist);
  va_list args;
  va_start(args, first);
  gpointer object = real(type, first, args);
  va_end(args);
  return counted(object);
}

GObject *g_object_new_with_properties(GType type, guint n, const char *names[], const GValue values[]) {
  REAL(g_object_new_with_properties);
  return counted(real(type, n, names, values));
}

G_GNUC_BEGIN_IGNORE_DEPRECATIONS
gpointer g_object_newv(GType type, guint n, GParameter *parameters) {
  REAL(g_object_newv);
  return counted(real(type, n, parameters));
}
G_GNUC_END_IGNORE_DEPRECATIONS
