// SPDX-License-Identifier: GPL-3.0-or-later
// Keeps cairo's shared-memory pool for a whole screen's repaint alive on X11.
#include "CShims.h"

#include <cairo-xlib.h>
#include <gdk/x11/gdkx.h>

/* Workaround (GTK 4.8's cairo renderer with cairo 1.16): goes when Reel draws with GTK's GL
 * renderer on X11 too, or cairo keeps its MIT-SHM pool between repaints.
 * GTK 4.8's cairo renderer sends each repaint to the X server as an MIT-SHM image from cairo's
 * pool. cairo 1.16 makes a pool for an image that fits in none (eight times its size, in powers
 * of two) and destroys the pool as soon as nothing in it is in use. A repaint of a whole
 * 1920×1080 screen found no pool left from the one before: each made, attached and dropped a new
 * 64 MB segment, its 8 MB faulted in and cleared by the kernel and attached by the X server, 30
 * times a second. A small image held in a pool made for the largest monitor keeps that pool, and
 * every repaint reuses it. Pages of it never written cost nothing. */

typedef struct {
  cairo_surface_t *anchor;
  gint64 pixels;
} HeldPool;

static void held_pool_free(gpointer data) {
  HeldPool *held = data;
  cairo_surface_destroy(held->anchor);
  g_free(held);
}

void reel_x11_hold_upload_pool(GtkWidget *widget) {
  GdkDisplay *display = gtk_widget_get_display(widget);
  if (!GDK_IS_X11_DISPLAY(display) || !reel_widget_renders_with_cairo(widget)) return;
  // The largest monitor in device pixels: the largest repaint a window can ask for.
  int width = 0, height = 0;
  GListModel *monitors = gdk_display_get_monitors(display);
  for (guint i = 0; i < g_list_model_get_n_items(monitors); i++) {
    GdkMonitor *monitor = g_list_model_get_item(monitors, i);
    GdkRectangle area;
    gdk_monitor_get_geometry(monitor, &area);
    int scale = gdk_monitor_get_scale_factor(monitor);
    if ((gint64)area.width * area.height * scale * scale > (gint64)width * height) {
      width = area.width * scale;
      height = area.height * scale;
    }
    g_object_unref(monitor);
  }
  HeldPool *held = g_object_get_data(G_OBJECT(display), "reel-x11-upload-pool");
  if (width == 0 || (held != NULL && held->pixels >= (gint64)width * height)) return;

  Display *xdisplay = gdk_x11_display_get_xdisplay(display);
  int screen = DefaultScreen(xdisplay);
  cairo_surface_t *root = cairo_xlib_surface_create(xdisplay, RootWindow(xdisplay, screen),
                                                    DefaultVisual(xdisplay, screen), 1, 1);
  // The screen-sized image makes the pool (the newest, so the first searched); the small one is
  // then taken from it and outlives the large one.
  cairo_surface_t *screenful = cairo_surface_create_similar_image(root, CAIRO_FORMAT_ARGB32, width, height);
  held = g_new0(HeldPool, 1);
  held->anchor = cairo_surface_create_similar_image(root, CAIRO_FORMAT_ARGB32, 64, 64);
  held->pixels = (gint64)width * height;
  cairo_surface_destroy(screenful);
  cairo_surface_destroy(root);
  g_object_set_data_full(G_OBJECT(display), "reel-x11-upload-pool", held, held_pool_free);
}
