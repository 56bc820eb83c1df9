#include "CShims.h"

/* With direct rendering, libavcodec decodes into frames of GStreamer's pool and keeps them as
 * its references, so gst-libav (1.22) copies each decoded frame to make it writable, and the
 * pool must hold libavcodec's references as well as the frames downstream: 8 full-size frames.
 * Without it libavcodec decodes into frames of its own, refcounted as mpv's are, and each is
 * copied out once into a frame that goes downstream: still one copy, fewer full-size frames. */
static void decode_into_own_frames(GstElement *playbin, GstElement *element, gpointer data) {
  (void)playbin; (void)data;
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "direct-rendering"))
    g_object_set(element, "direct-rendering", FALSE, NULL);
}

void reel_playbin_tune_decoders(GstElement *playbin) {
  g_signal_connect(playbin, "element-setup", G_CALLBACK(decode_into_own_frames), NULL);
}
