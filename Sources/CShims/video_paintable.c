// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

// A video frame as the paintable shows it.
typedef struct {
  GdkTexture *texture;
  // The video's size as shown (its intrinsic size); the texture may be smaller, scaled upstream
  // to the size it is drawn at.
  int display_width, display_height;
  // The texture's pixels when they are BGRA (cairo's RGB24 on little-endian), for drawing them
  // with cairo directly. Workaround (GTK 4.8's cairo renderer): it downloads every texture
  // through a float conversion, 4 ms for a 960×540 frame; goes when Reel draws with GL. NULL
  // otherwise.
  GBytes *bgra;
  int bgra_stride;
  // How the stream's tag says to turn it (a GstVideoOrientationMethod).
  int orientation;
  // Its stream time and segment (a seek starts another), to tell frames never drawn.
  GstClockTime pts, duration;
  GstSegment segment;
} Frame;

static void frame_clear(Frame *frame) {
  g_clear_object(&frame->texture);
  g_clear_pointer(&frame->bgra, g_bytes_unref);
  frame->pts = frame->duration = GST_CLOCK_TIME_NONE;
}

struct _ReelVideoPaintable {
  GObject parent_instance;
  Frame frame;
  // A frame that came before `frame` was drawn: shown at the next repaint instead of replacing
  // `frame` undrawn. The window's frame clock is not in step with the video's (on Xvfb not with
  // anything), so at 60 fps two frames now and then land between two repaints; one waits a
  // repaint (16 ms) rather than never being seen. A third replaces it (and is counted skipped).
  Frame pending;
  gboolean frame_drawn;
  guint promote_source;
  // The user's turn on top of the tag's, and the shown aspect ratio the user chose (0: the
  // video's own); both only change how the frame is drawn, at no cost to the frame path.
  int user_orientation;
  double aspect;
  // The stream time of the sample the next frame set comes from.
  GstClockTime next_pts, next_duration;
  GstSegment next_segment;
  int next_orientation;  // -1: as the frame shown
  int scale_factor;
  int drawn_width, drawn_height;  // device pixels, as last drawn
  gboolean draw_with_cairo;
  ReelDrawSizeCallback draw_size_callback;
  gpointer draw_size_data;
  GDestroyNotify draw_size_notify;
  // Frames set and not drawn since this time (monotonic µs; 0: every frame set was drawn).
  gint64 undrawn_since;
  gboolean drawing_stalled;
  ReelDrawingStalledCallback stalled_callback;
  gpointer stalled_data;
  GDestroyNotify stalled_notify;
  // The stream time of the last frame drawn, and its segment: frames between two drawn ones of
  // a segment were never drawn.
  GstClockTime drawn_pts;
  GstSegment drawn_segment;
  guint64 frames_skipped;
  // GTK repaints at GDK_PRIORITY_REDRAW, after all default-priority work: a frame set together
  // with GstPlay's reports (an item's first, a sought one) waited for the model and every
  // observer to take them in, 20 ms at the start of an item. This source (GstPlay's reports)
  // gives way while a frame waits for its repaint, unless drawing has stalled; the repaint
  // restores it, so it can never be kept waiting longer than from one repaint to the next.
  GSource *yielding;
  gint yielding_priority;
};

// A longer gap between two frames drawn is no hiccup of playback: a window that was not shown
// (minimized, the video branch detached) or a seek within the segment.
#define SKIP_COUNT_MAX_GAP GST_SECOND

// Frames set but not drawn for this long mean the window is not being drawn at all: a Wayland
// compositor sends no frame callbacks to a surface it does not show (minimized, on another
// workspace), and GTK then waits to draw. Far longer than a slow frame under load.
#define DRAWING_STALL_US (G_USEC_PER_SEC * 3 / 4)

static void give_way(ReelVideoPaintable *self, gboolean waiting) {
  if (self->yielding == NULL || g_source_is_destroyed(self->yielding)) return;
  gint priority = waiting ? GDK_PRIORITY_REDRAW + 1 : self->yielding_priority;
  if (g_source_get_priority(self->yielding) != priority) g_source_set_priority(self->yielding, priority);
}

static void set_drawing_stalled(ReelVideoPaintable *self, gboolean stalled) {
  if (stalled) give_way(self, FALSE);
  if (self->drawing_stalled == stalled) return;
  self->drawing_stalled = stalled;
  if (self->stalled_callback) self->stalled_callback(stalled, self->stalled_data);
}

static void count_frames_skipped(ReelVideoPaintable *self) {
  const Frame *f = &self->frame;
  if (!GST_CLOCK_TIME_IS_VALID(f->pts) || f->pts == self->drawn_pts) return;
  if (GST_CLOCK_TIME_IS_VALID(self->drawn_pts) && f->pts > self->drawn_pts &&
      f->pts - self->drawn_pts <= SKIP_COUNT_MAX_GAP &&
      GST_CLOCK_TIME_IS_VALID(f->duration) && f->duration > 0 &&
      gst_segment_is_equal(&f->segment, &self->drawn_segment))
    self->frames_skipped += (f->pts - self->drawn_pts + f->duration / 2) / f->duration - 1;
  self->drawn_pts = f->pts;
  self->drawn_segment = f->segment;
}

static void show(ReelVideoPaintable *self, Frame *frame);

static int orientation_of(const ReelVideoPaintable *self, const Frame *frame) {
  return reel_orientation_compose(frame->orientation, self->user_orientation);
}

// The frame's size as shown: turned as its orientation says, and at the aspect ratio chosen;
// 0×0 without a frame.
static void shown_size(const ReelVideoPaintable *self, const Frame *frame, int *width, int *height) {
  if (frame->texture == NULL) {
    *width = *height = 0;
    return;
  }
  gboolean swaps = reel_orientation_swaps_sides(orientation_of(self, frame));
  *width = swaps ? frame->display_height : frame->display_width;
  *height = swaps ? frame->display_width : frame->display_height;
  if (self->aspect > 0 && *height > 0) *width = (int)(*height * self->aspect + 0.5);
}

// After the repaint that drew `frame`: the frame waiting goes up for the next.
static gboolean promote_pending(gpointer data) {
  ReelVideoPaintable *self = data;
  self->promote_source = 0;
  if (self->pending.texture) show(self, &self->pending);
  return G_SOURCE_REMOVE;
}

static void reel_video_paintable_iface_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(ReelVideoPaintable, reel_video_paintable, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, reel_video_paintable_iface_init))

static void snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  self->undrawn_since = 0;
  set_drawing_stalled(self, FALSE);
  // The frame is made upright by the drawing below: in its own orientation the box is turned.
  int orientation = self->frame.texture ? orientation_of(self, &self->frame) : GST_VIDEO_ORIENTATION_IDENTITY;
  gboolean swaps = reel_orientation_swaps_sides(orientation);
  double sw = swaps ? height : width, sh = swaps ? width : height;
  // Tell the sink the size frames are drawn at, so it can make them that size (GTK then draws
  // them 1:1 instead of scaling every frame down on each repaint). Without a frame, GtkPicture
  // draws us at the whole widget's size: the bound the first frame of an item is made within.
  int w = (int)(sw * self->scale_factor + 0.5), h = (int)(sh * self->scale_factor + 0.5);
  if ((w != self->drawn_width || h != self->drawn_height) && w > 0 && h > 0) {
    self->drawn_width = w;
    self->drawn_height = h;
    if (self->draw_size_callback) self->draw_size_callback(w, h, self->draw_size_data);
  }
  if (self->frame.texture == NULL) return;
  count_frames_skipped(self);
  self->frame_drawn = TRUE;
  give_way(self, FALSE);
  if (self->pending.texture && self->promote_source == 0)
    self->promote_source = g_idle_add_full(G_PRIORITY_DEFAULT, promote_pending, g_object_ref(self), g_object_unref);
  // The widget (GtkPicture) already letterboxes to our intrinsic aspect ratio. A turned frame
  // is drawn in the same pass that scales it: a quarter turn at 1:1 is one of pixman's fast
  // paths, and free to a GL renderer.
  graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, width, height);
  const Frame *f = &self->frame;
  if (self->draw_with_cairo && f->bgra && self->scale_factor == 1) {
    // One pixman blit (1:1 when the sink made the frame this size) into the node's surface.
    int tw = gdk_texture_get_width(f->texture), th = gdk_texture_get_height(f->texture);
    cairo_surface_t *frame = cairo_image_surface_create_for_data(
        (unsigned char *)g_bytes_get_data(f->bgra, NULL), CAIRO_FORMAT_RGB24, tw, th, f->bgra_stride);
    cairo_t *cr = gtk_snapshot_append_cairo(GTK_SNAPSHOT(snapshot), &bounds);
    if (orientation != GST_VIDEO_ORIENTATION_IDENTITY) {
      cairo_matrix_t turn;
      reel_orientation_matrix(orientation, width, height, &turn);
      cairo_transform(cr, &turn);
    }
    cairo_scale(cr, sw / tw, sh / th);
    cairo_set_source_surface(cr, frame, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(frame);
  } else if (orientation == GST_VIDEO_ORIENTATION_IDENTITY) {
    gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), f->texture, &bounds);
  } else {
    gtk_snapshot_save(GTK_SNAPSHOT(snapshot));
    reel_orientation_turn_snapshot(GTK_SNAPSHOT(snapshot), orientation, width, height);
    gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), f->texture, &GRAPHENE_RECT_INIT(0, 0, sw, sh));
    gtk_snapshot_restore(GTK_SNAPSHOT(snapshot));
  }
}

static int intrinsic_width(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  return width;
}

static int intrinsic_height(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  return height;
}

static double intrinsic_aspect_ratio(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  return height > 0 ? (double)width / height : 0;
}

static GdkPaintable *get_current_image(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  if (self->frame.texture) return GDK_PAINTABLE(g_object_ref(self->frame.texture));
  return gdk_paintable_new_empty(0, 0);
}

static void reel_video_paintable_iface_init(GdkPaintableInterface *iface) {
  iface->snapshot = snapshot;
  iface->get_intrinsic_width = intrinsic_width;
  iface->get_intrinsic_height = intrinsic_height;
  iface->get_intrinsic_aspect_ratio = intrinsic_aspect_ratio;
  iface->get_current_image = get_current_image;
}

static void reel_video_paintable_dispose(GObject *object) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(object);
  frame_clear(&self->frame);
  frame_clear(&self->pending);
  if (self->promote_source) g_source_remove(self->promote_source);
  self->promote_source = 0;
  reel_video_paintable_set_yielding_source(self, NULL);
  reel_video_paintable_set_draw_size_callback(self, NULL, NULL, NULL);
  reel_video_paintable_set_drawing_stalled_callback(self, NULL, NULL, NULL);
  G_OBJECT_CLASS(reel_video_paintable_parent_class)->dispose(object);
}

static void reel_video_paintable_class_init(ReelVideoPaintableClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = reel_video_paintable_dispose;
}

static void reel_video_paintable_init(ReelVideoPaintable *self) {
  self->scale_factor = 1;
  self->frame.pts = self->frame.duration = self->pending.pts = self->pending.duration = GST_CLOCK_TIME_NONE;
  self->next_pts = self->next_duration = self->drawn_pts = GST_CLOCK_TIME_NONE;
  self->next_orientation = -1;
}

ReelVideoPaintable *reel_video_paintable_new(void) {
  return g_object_new(REEL_TYPE_VIDEO_PAINTABLE, NULL);
}

GdkTexture *reel_video_paintable_get_texture(ReelVideoPaintable *self) { return self->frame.texture; }

// Makes `frame` (taken over, left empty) the one shown.
static void show(ReelVideoPaintable *self, Frame *frame) {
  int old_width, old_height, new_width, new_height;
  shown_size(self, &self->frame, &old_width, &old_height);
  shown_size(self, frame, &new_width, &new_height);
  gboolean size_changed = old_width != new_width || old_height != new_height;
  frame_clear(&self->frame);
  self->frame = *frame;
  *frame = (Frame){ .pts = GST_CLOCK_TIME_NONE, .duration = GST_CLOCK_TIME_NONE };
  self->frame_drawn = FALSE;
  if (self->frame.texture == NULL) self->drawn_pts = GST_CLOCK_TIME_NONE;
  if (size_changed)
    gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
  gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
  give_way(self, self->frame.texture != NULL && !self->drawing_stalled);
}

void reel_video_paintable_set_frame(ReelVideoPaintable *self, GdkTexture *texture, GBytes *bgra, gint bgra_stride,
                                    gint display_width, gint display_height) {
  if (texture && (display_width <= 0 || display_height <= 0)) {
    display_width = gdk_texture_get_width(texture);
    display_height = gdk_texture_get_height(texture);
  }
  Frame frame = {
    .texture = texture ? g_object_ref(texture) : NULL,
    .display_width = display_width, .display_height = display_height,
    .bgra = texture && bgra ? g_bytes_ref(bgra) : NULL, .bgra_stride = bgra_stride,
    .pts = self->next_pts, .duration = self->next_duration, .segment = self->next_segment,
    // A still (not from a sample) is the stream's frame too: turned as the frame shown.
    .orientation = self->next_orientation >= 0 ? self->next_orientation : self->frame.orientation,
  };
  self->next_pts = self->next_duration = GST_CLOCK_TIME_NONE;
  self->next_orientation = -1;
  frame_clear(&self->pending);
  if (texture && self->frame.texture && !self->frame_drawn) self->pending = frame;
  else show(self, &frame);
  if (texture != NULL) {
    gint64 now = g_get_monotonic_time();
    if (self->undrawn_since == 0) self->undrawn_since = now;
    else if (now - self->undrawn_since > DRAWING_STALL_US) set_drawing_stalled(self, TRUE);
  }
}

void reel_video_paintable_show_newest(ReelVideoPaintable *self) {
  if (self->pending.texture) show(self, &self->pending);
}

void reel_video_paintable_set_texture(ReelVideoPaintable *self, GdkTexture *texture, gint par_n, gint par_d) {
  double aspect = (par_n > 0 && par_d > 0) ? (double)par_n / par_d : 1.0;
  gint w = texture ? (gint)(gdk_texture_get_width(texture) * aspect + 0.5) : 0;
  gint h = texture ? gdk_texture_get_height(texture) : 0;
  reel_video_paintable_set_frame(self, texture, NULL, 0, w, h);
}

void reel_video_paintable_set_draw_with_cairo(ReelVideoPaintable *self, gboolean cairo) {
  self->draw_with_cairo = cairo;
}

void reel_video_paintable_set_scale_factor(ReelVideoPaintable *self, gint scale) {
  self->scale_factor = scale > 0 ? scale : 1;
}

void reel_video_paintable_set_draw_size_callback(ReelVideoPaintable *self, ReelDrawSizeCallback callback,
                                                 gpointer user_data, GDestroyNotify notify) {
  if (self->draw_size_notify) self->draw_size_notify(self->draw_size_data);
  self->draw_size_callback = callback;
  self->draw_size_data = user_data;
  self->draw_size_notify = notify;
  self->drawn_width = self->drawn_height = 0;
}

void reel_video_paintable_set_drawing_stalled_callback(ReelVideoPaintable *self, ReelDrawingStalledCallback callback,
                                                       gpointer user_data, GDestroyNotify notify) {
  if (self->stalled_notify) self->stalled_notify(self->stalled_data);
  self->stalled_callback = callback;
  self->stalled_data = user_data;
  self->stalled_notify = notify;
}

void reel_video_paintable_set_yielding_source(ReelVideoPaintable *self, GSource *source) {
  give_way(self, FALSE);
  g_clear_pointer(&self->yielding, g_source_unref);
  if (source == NULL) return;
  self->yielding = g_source_ref(source);
  self->yielding_priority = g_source_get_priority(source);
}

void reel_video_paintable_set_frame_sample(ReelVideoPaintable *self, GstSample *sample) {
  GstBuffer *buffer = gst_sample_get_buffer(sample);
  GstSegment *segment = gst_sample_get_segment(sample);
  self->next_pts = buffer ? GST_BUFFER_PTS(buffer) : GST_CLOCK_TIME_NONE;
  self->next_duration = buffer ? GST_BUFFER_DURATION(buffer) : GST_CLOCK_TIME_NONE;
  if (segment) gst_segment_copy_into(segment, &self->next_segment);
  self->next_orientation = reel_sample_orientation(sample);
}

gint reel_video_paintable_get_orientation(ReelVideoPaintable *self) {
  return self->frame.texture ? orientation_of(self, &self->frame) : self->user_orientation;
}

// Drawn again at once, paused or not, and laid out again if the change turned or stretched it.
static void reshow(ReelVideoPaintable *self, int old_width, int old_height) {
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  if (width != old_width || height != old_height) gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
  gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}

void reel_video_paintable_set_user_orientation(ReelVideoPaintable *self, gint orientation) {
  if (orientation == self->user_orientation) return;
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  self->user_orientation = orientation;
  reshow(self, width, height);
}

void reel_video_paintable_set_aspect(ReelVideoPaintable *self, double aspect) {
  aspect = aspect > 0 ? aspect : 0;
  if (aspect == self->aspect) return;
  int width, height;
  shown_size(self, &self->frame, &width, &height);
  self->aspect = aspect;
  reshow(self, width, height);
}

guint64 reel_video_paintable_get_frames_skipped(ReelVideoPaintable *self) { return self->frames_skipped; }
