// Is GL drawn in software? (Then Reel draws with cairo; see Renderer.swift.)
#include "CShims.h"

#include <dlfcn.h>
#include <glob.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif
#ifdef GDK_WINDOWING_WAYLAND
#include <gdk/wayland/gdkwayland.h>
#endif

/* Whether a GPU's DRM render node is there for Mesa to use (on Wayland, without one Mesa can
 * only draw with its software rasterizer). */
static gboolean has_render_node(void) {
  glob_t nodes;
  gboolean found = glob("/dev/dri/renderD*", 0, NULL, &nodes) == 0 && nodes.gl_pathc > 0;
  globfree(&nodes);
  return found;
}

gboolean reel_gl_is_software(void) {
  // Asking GL itself (GL_RENDERER) would load Mesa's llvmpipe and LLVM into the process (50 MB,
  // and a tenth of a second before the first frame) only to decide not to use them.
  const char *forced = g_getenv("LIBGL_ALWAYS_SOFTWARE");
  if (forced != NULL && forced[0] != '\0' && g_strcmp0(forced, "0") != 0) return TRUE;
  GdkDisplay *display = gdk_display_get_default();
  if (display == NULL) return FALSE;
#ifdef GDK_WINDOWING_WAYLAND
  // A Wayland client draws with the GPU's render node or not at all (VMs, remote desktops).
  if (GDK_IS_WAYLAND_DISPLAY(display)) return !has_render_node();
#endif
#ifdef GDK_WINDOWING_X11
  // An X server that offers no direct rendering (DRI3, DRI2, or NVIDIA's own NV-GLX) leaves Mesa
  // nothing but its software rasterizer: Xvfb, Xvnc, xrdp, X forwarded over SSH.
  if (!GDK_IS_X11_DISPLAY(display)) return FALSE;
  // libX11 is loaded with GTK; Reel does not link it itself.
  typedef int (*QueryExtension)(void *, const char *, int *, int *, int *);
  QueryExtension query = (QueryExtension)dlsym(RTLD_DEFAULT, "XQueryExtension");
  if (query == NULL) return FALSE;
  void *xdisplay = gdk_x11_display_get_xdisplay(display);
  int opcode, event, error;
  return !query(xdisplay, "DRI3", &opcode, &event, &error) && !query(xdisplay, "DRI2", &opcode, &event, &error) &&
         !query(xdisplay, "NV-GLX", &opcode, &event, &error);
#else
  return FALSE;
#endif
}

gboolean reel_widget_renders_with_cairo(GtkWidget *widget) {
  GtkNative *native = gtk_widget_get_native(widget);
  GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
  return renderer != NULL && G_TYPE_CHECK_INSTANCE_TYPE(renderer, gsk_cairo_renderer_get_type());
}
