#include "CShims.h"

struct _ReelVideoPaintable {
  GObject parent_instance;
  GdkTexture *texture;
  double pixel_aspect;  // width of one pixel relative to its height
};

static void reel_video_paintable_iface_init(GdkPaintableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(ReelVideoPaintable, reel_video_paintable, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE(GDK_TYPE_PAINTABLE, reel_video_paintable_iface_init))

static void snapshot(GdkPaintable *paintable, GdkSnapshot *snapshot, double width, double height) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  if (self->texture == NULL) return;
  // The widget (GtkPicture) already letterboxes to our intrinsic aspect ratio.
  graphene_rect_t bounds = GRAPHENE_RECT_INIT(0, 0, width, height);
  gtk_snapshot_append_texture(GTK_SNAPSHOT(snapshot), self->texture, &bounds);
}

static int intrinsic_width(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  return self->texture ? (int)(gdk_texture_get_width(self->texture) * self->pixel_aspect + 0.5) : 0;
}

static int intrinsic_height(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  return self->texture ? gdk_texture_get_height(self->texture) : 0;
}

static double intrinsic_aspect_ratio(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  if (self->texture == NULL) return 0;
  return gdk_texture_get_width(self->texture) * self->pixel_aspect / gdk_texture_get_height(self->texture);
}

static GdkPaintable *get_current_image(GdkPaintable *paintable) {
  ReelVideoPaintable *self = REEL_VIDEO_PAINTABLE(paintable);
  if (self->texture) return GDK_PAINTABLE(g_object_ref(self->texture));
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
  g_clear_object(&self->texture);
  G_OBJECT_CLASS(reel_video_paintable_parent_class)->dispose(object);
}

static void reel_video_paintable_class_init(ReelVideoPaintableClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = reel_video_paintable_dispose;
}

static void reel_video_paintable_init(ReelVideoPaintable *self) { self->pixel_aspect = 1.0; }

ReelVideoPaintable *reel_video_paintable_new(void) {
  return g_object_new(REEL_TYPE_VIDEO_PAINTABLE, NULL);
}

GdkTexture *reel_video_paintable_get_texture(ReelVideoPaintable *self) { return self->texture; }

void reel_video_paintable_set_texture(ReelVideoPaintable *self, GdkTexture *texture, gint par_n, gint par_d) {
  double aspect = (par_n > 0 && par_d > 0) ? (double)par_n / par_d : 1.0;
  gboolean size_changed =
      (texture == NULL) != (self->texture == NULL) || aspect != self->pixel_aspect ||
      (texture && (gdk_texture_get_width(texture) != gdk_texture_get_width(self->texture) ||
                   gdk_texture_get_height(texture) != gdk_texture_get_height(self->texture)));
  g_set_object(&self->texture, texture);
  self->pixel_aspect = aspect;
  if (size_changed)
    gdk_paintable_invalidate_size(GDK_PAINTABLE(self));
  gdk_paintable_invalidate_contents(GDK_PAINTABLE(self));
}
