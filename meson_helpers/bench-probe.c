// SPDX-License-Identifier: GPL-3.0-or-later
// bench-probe: watches what the X server draws and says when the benchmark clips' marks appear,
// the same way for every player (no player cooperates).
//
// It asks the DAMAGE extension for every change to the root window (which covers every window
// drawn on it), reads back only the changed rectangles and classifies each one:
//   bars    SMPTE colour bars (yellow, cyan and magenta pixels, which no player's UI draws)
//   orange  the clips' solid orange seek mark
// Each time the classification of a drawn rectangle changes it prints one line:
//   <CLOCK_MONOTONIC ns> <bars|orange>
// and flushes, so a reader can take time differences against its own monotonic clock. It prints
// "ready" once it listens. It runs until killed.
//
// Build: cc -O2 -o bench-probe bench-probe.c -lX11 -lXdamage -lXfixes
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/Xfixes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// Samples every 4th pixel of every 4th row; a mark needs this many samples of its colours.
enum { STEP = 4, MIN_SAMPLES = 150 };

static const char *classify(XImage *img) {
  long yellow = 0, cyan = 0, magenta = 0, orange = 0;
  for (int y = 0; y < img->height; y += STEP) {
    for (int x = 0; x < img->width; x += STEP) {
      unsigned long p = XGetPixel(img, x, y);
      int r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;
      if (r > 170 && g > 170 && b < 90) yellow++;
      else if (r < 90 && g > 170 && b > 170) cyan++;
      else if (r > 170 && g < 90 && b > 170) magenta++;
      else if (r > 200 && g > 95 && g < 165 && b < 70) orange++;
    }
  }
  if (orange >= MIN_SAMPLES && orange > yellow) return "orange";
  if (yellow >= MIN_SAMPLES / 3 && cyan >= MIN_SAMPLES / 3 && magenta >= MIN_SAMPLES / 3) return "bars";
  return NULL;
}

// A window that goes away while we read it is not fatal.
static int ignore_error(Display *dpy, XErrorEvent *e) {
  char text[128];
  XGetErrorText(dpy, e->error_code, text, sizeof text);
  if (getenv("PROBE_DEBUG")) fprintf(stderr, "bench-probe: X error %s (request %d)\n", text, e->request_code);
  return 0;
}

int main(void) {
  Display *dpy = XOpenDisplay(NULL);
  if (!dpy) { fprintf(stderr, "bench-probe: cannot open display\n"); return 1; }
  int damage_event, damage_error, fixes_event, fixes_error;
  if (!XDamageQueryExtension(dpy, &damage_event, &damage_error) ||
      !XFixesQueryExtension(dpy, &fixes_event, &fixes_error)) {
    fprintf(stderr, "bench-probe: the X server lacks DAMAGE or XFIXES\n");
    return 1;
  }
  XSetErrorHandler(ignore_error);
  Window root = DefaultRootWindow(dpy);
  int screen_w = DisplayWidth(dpy, DefaultScreen(dpy)), screen_h = DisplayHeight(dpy, DefaultScreen(dpy));
  Damage damage = XDamageCreate(dpy, root, XDamageReportNonEmpty);
  XserverRegion region = XFixesCreateRegion(dpy, NULL, 0);
  XSync(dpy, False);
  printf("ready\n");
  fflush(stdout);

  const char *last = NULL;
  struct pollfd fds[1] = {{ConnectionNumber(dpy), POLLIN, 0}};
  for (;;) {
    while (XPending(dpy)) {
      XEvent ev;
      XNextEvent(dpy, &ev);
      if (ev.type != damage_event + XDamageNotify) continue;
      long long t = now_ns();
      if (getenv("PROBE_DEBUG")) fprintf(stderr, "damage\n");
      XDamageSubtract(dpy, damage, None, region);
      int n = 0;
      XRectangle *rects = XFixesFetchRegion(dpy, region, &n);
      for (int i = 0; i < n; i++) {
        int x = rects[i].x, y = rects[i].y, w = rects[i].width, h = rects[i].height;
        if (x < 0) { w += x; x = 0; }
        if (y < 0) { h += y; y = 0; }
        if (x + w > screen_w) w = screen_w - x;
        if (y + h > screen_h) h = screen_h - y;
        if (w < 64 || h < 64) continue;  // text, cursors, spinners: never a video frame
        XImage *img = XGetImage(dpy, root, x, y, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
        if (!img) continue;
        const char *kind = classify(img);
        XDestroyImage(img);
        if (kind && kind != last) {
          printf("%lld %s\n", t, kind);
          fflush(stdout);
          last = kind;
        }
      }
      if (rects) XFree(rects);
    }
    if (poll(fds, 1, -1) < 0) break;
  }
  XCloseDisplay(dpy);
  return 0;
}
