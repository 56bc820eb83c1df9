// SPDX-License-Identifier: GPL-3.0-or-later
// A picture's orientation: GStreamer's eight GstVideoOrientationMethod values (IDENTITY to
// UR_LL), as the stream's tag gives them and as the user turns the picture, composed and turned
// into the affine map the picture is drawn with.
#include "CShims.h"

#include <math.h>

/* Each method as a map of the unit square, source to shown: d = A·s + b, with A's entries in
 * {-1, 0, 1} and b the corner the source's origin lands on. Row-major: a00 a01 a10 a11 b0 b1. */
static const gint maps[8][6] = {
  [GST_VIDEO_ORIENTATION_IDENTITY] = { 1, 0, 0, 1, 0, 0 },
  [GST_VIDEO_ORIENTATION_90R] = { 0, -1, 1, 0, 1, 0 },
  [GST_VIDEO_ORIENTATION_180] = { -1, 0, 0, -1, 1, 1 },
  [GST_VIDEO_ORIENTATION_90L] = { 0, 1, -1, 0, 0, 1 },
  [GST_VIDEO_ORIENTATION_HORIZ] = { -1, 0, 0, 1, 1, 0 },
  [GST_VIDEO_ORIENTATION_VERT] = { 1, 0, 0, -1, 0, 1 },
  [GST_VIDEO_ORIENTATION_UL_LR] = { 0, 1, 1, 0, 0, 0 },
  [GST_VIDEO_ORIENTATION_UR_LL] = { 0, -1, -1, 0, 1, 1 },
};

static gint valid(gint method) { return method >= 0 && method < 8 ? method : GST_VIDEO_ORIENTATION_IDENTITY; }

gint reel_orientation_compose(gint first, gint then) {
  const gint *f = maps[valid(first)], *t = maps[valid(then)];
  // A = At·Af: the method whose linear part that is (b follows from A for the unit square).
  gint a[4] = { t[0] * f[0] + t[1] * f[2], t[0] * f[1] + t[1] * f[3],
                t[2] * f[0] + t[3] * f[2], t[2] * f[1] + t[3] * f[3] };
  for (gint m = 0; m < 8; m++)
    if (maps[m][0] == a[0] && maps[m][1] == a[1] && maps[m][2] == a[2] && maps[m][3] == a[3]) return m;
  return GST_VIDEO_ORIENTATION_IDENTITY;
}

gboolean reel_orientation_swaps_sides(gint method) { return maps[valid(method)][0] == 0; }

void reel_orientation_matrix(gint method, double width, double height, cairo_matrix_t *matrix) {
  const gint *m = maps[valid(method)];
  // Source-oriented box: width and height exchanged when the method turns a quarter.
  double sw = m[0] == 0 ? height : width, sh = m[0] == 0 ? width : height;
  cairo_matrix_init(matrix, m[0] * width / sw, m[2] * height / sw, m[1] * width / sh, m[3] * height / sh,
                    m[4] * width, m[5] * height);
}

void reel_orientation_turn_snapshot(GtkSnapshot *snapshot, gint method, double width, double height) {
  const gint *m = maps[valid(method)];
  // As a translation, a rotation and a mirror. Workaround (GTK 4.8's cairo renderer): it draws
  // those, and not a general matrix (categorised 3D, it draws its placeholder instead).
  // Goes when Reel draws with GL, or the cairo renderer draws 2D matrices.
  gboolean mirrored = m[0] * m[3] - m[1] * m[2] < 0;
  double c = mirrored ? -m[0] : m[0], s = mirrored ? -m[2] : m[2];
  gtk_snapshot_translate(snapshot, &GRAPHENE_POINT_INIT(m[4] * width, m[5] * height));
  gtk_snapshot_rotate(snapshot, (float)(atan2(s, c) * 180 / G_PI));
  if (mirrored) gtk_snapshot_scale(snapshot, -1, 1);
}

gint reel_orientation_from_tags(const GstTagList *tags, gint fallback) {
  GstVideoOrientationMethod method;
  return tags && gst_video_orientation_from_tag((GstTagList *)tags, &method) ? (gint)method : fallback;
}
