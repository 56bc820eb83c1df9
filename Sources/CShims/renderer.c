// SPDX-License-Identifier: GPL-3.0-or-later
// Will GL be drawn in software? (Then Reel draws with cairo; see Renderer.swift.) Decided
// before GTK opens the display, so that GTK can be told not to initialise GL at all.
#include "CShims.h"

#include <dlfcn.h>
#include <glob.h>
#include <sys/stat.h>

/* Whether a GPU's DRM render node is there for Mesa to use (on Wayland, without one Mesa can
 * only draw with its software rasterizer). */
static gboolean has_render_node(void) {
  glob_t nodes;
  gboolean found = glob("/dev/dri/renderD*", 0, NULL, &nodes) == 0 && nodes.gl_pathc > 0;
  globfree(&nodes);
  return found;
}

/* Whether GDK will pick its Wayland backend: GDK_BACKEND's first choice, else Wayland when a
 * compositor's socket is there (GDK tries Wayland before X11; libwayland falls back to
 * "wayland-0" without WAYLAND_DISPLAY). */
static gboolean will_use_wayland(void) {
  const char *backend = g_getenv("GDK_BACKEND");
  if (backend != NULL && backend[0] != '\0' && backend[0] != '*')
    return g_str_has_prefix(backend, "wayland");
  const char *name = g_getenv("WAYLAND_DISPLAY");
  if (name == NULL || name[0] == '\0') name = "wayland-0";
  char *path = g_path_is_absolute(name) ? g_strdup(name) : g_build_filename(g_get_user_runtime_dir(), name, NULL);
  struct stat info;
  gboolean found = stat(path, &info) == 0 && S_ISSOCK(info.st_mode);
  g_free(path);
  return found;
}

/* An X server that offers no direct rendering (DRI3, DRI2, or NVIDIA's own NV-GLX) leaves Mesa
 * nothing but its software rasterizer: Xvfb, Xvnc, xrdp, X forwarded over SSH. Asked over a
 * connection of its own, closed at once. (libX11 comes with GTK; Reel does not link it.) */
static gboolean x_server_lacks_direct_rendering(void) {
  typedef void *(*OpenDisplay)(const char *);
  typedef int (*QueryExtension)(void *, const char *, int *, int *, int *);
  typedef int (*CloseDisplay)(void *);
  OpenDisplay open_display = (OpenDisplay)dlsym(RTLD_DEFAULT, "XOpenDisplay");
  QueryExtension query = (QueryExtension)dlsym(RTLD_DEFAULT, "XQueryExtension");
  CloseDisplay close_display = (CloseDisplay)dlsym(RTLD_DEFAULT, "XCloseDisplay");
  if (open_display == NULL || query == NULL || close_display == NULL) return FALSE;
  void *display = open_display(NULL);
  if (display == NULL) return FALSE;
  int opcode, event, error;
  gboolean lacks = !query(display, "DRI3", &opcode, &event, &error) && !query(display, "DRI2", &opcode, &event, &error) &&
                   !query(display, "NV-GLX", &opcode, &event, &error);
  close_display(display);
  return lacks;
}

gboolean reel_gl_will_be_software(void) {
  // Asking GL itself (GL_RENDERER) would load Mesa's llvmpipe and LLVM into the process (50 MB,
  // and a tenth of a second before the first frame) only to decide not to use them.
  const char *forced = g_getenv("LIBGL_ALWAYS_SOFTWARE");
  if (forced != NULL && forced[0] != '\0' && g_strcmp0(forced, "0") != 0) return TRUE;
  // A Wayland client draws with the GPU's render node or not at all (VMs, remote desktops).
  if (will_use_wayland()) return !has_render_node();
  return x_server_lacks_direct_rendering();
}

gboolean reel_widget_renders_with_cairo(GtkWidget *widget) {
  GtkNative *native = gtk_widget_get_native(widget);
  GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
  return renderer != NULL && G_TYPE_CHECK_INSTANCE_TYPE(renderer, gsk_cairo_renderer_get_type());
}
