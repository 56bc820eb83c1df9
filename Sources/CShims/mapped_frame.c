// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

struct ReelMappedFrame {
  GstSample *sample;
  GstVideoFrame frame;
};

ReelMappedFrame *reel_mapped_frame_new(GstSample *sample) {
  GstVideoInfo info;
  GstCaps *caps = gst_sample_get_caps(sample);
  GstBuffer *buffer = gst_sample_get_buffer(sample);
  if (caps == NULL || buffer == NULL || !gst_video_info_from_caps(&info, caps))
    return NULL;
  ReelMappedFrame *f = g_new0(ReelMappedFrame, 1);
  if (!gst_video_frame_map(&f->frame, &info, buffer, GST_MAP_READ)) {
    g_free(f);
    return NULL;
  }
  f->sample = gst_sample_ref(sample);
  return f;
}

void reel_mapped_frame_free(gpointer data) {
  ReelMappedFrame *f = data;
  gst_video_frame_unmap(&f->frame);
  gst_sample_unref(f->sample);
  g_free(f);
}

const guint8 *reel_mapped_frame_data(ReelMappedFrame *f) { return GST_VIDEO_FRAME_PLANE_DATA(&f->frame, 0); }
gint reel_mapped_frame_width(ReelMappedFrame *f) { return GST_VIDEO_FRAME_WIDTH(&f->frame); }
gint reel_mapped_frame_height(ReelMappedFrame *f) { return GST_VIDEO_FRAME_HEIGHT(&f->frame); }
gint reel_mapped_frame_stride(ReelMappedFrame *f) { return GST_VIDEO_FRAME_PLANE_STRIDE(&f->frame, 0); }
GstVideoFormat reel_mapped_frame_format(ReelMappedFrame *f) { return GST_VIDEO_FRAME_FORMAT(&f->frame); }
gint reel_mapped_frame_par_n(ReelMappedFrame *f) { return GST_VIDEO_INFO_PAR_N(&f->frame.info); }
gint reel_mapped_frame_par_d(ReelMappedFrame *f) { return GST_VIDEO_INFO_PAR_D(&f->frame.info); }
gsize reel_mapped_frame_size(ReelMappedFrame *f) {
  // The bytes GDK reads: every row but the last at full stride, the last row only its pixels.
  gint h = GST_VIDEO_FRAME_HEIGHT(&f->frame);
  gint stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f->frame, 0);
  gint row = GST_VIDEO_FRAME_COMP_PSTRIDE(&f->frame, 0) * GST_VIDEO_FRAME_WIDTH(&f->frame);
  return (gsize)stride * (gsize)(h - 1) + (gsize)row;
}
