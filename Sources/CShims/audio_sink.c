// The sound's way out: the pitch keeper (scaletempo), then the device's sink.
#include "CShims.h"

/* scaletempo stretches the sound to the rate its segment carries (see sink_rate.c). Here, after
 * playsink's 1 s audio queue rather than before it as playbin's audio-filter, the segments it
 * is given reach what is heard within the device's own buffer (200 ms): a rate change takes
 * effect at once instead of a second later. playsink finds the device sink's volume inside the
 * bin and keeps using it (the stream volume the desktop's sound settings show). */
GstElement *reel_audio_sink_new(GstElement *device) {
  GstElement *keeper = reel_pitch_keeper_new();
  GstElement *convert = gst_element_factory_make("audioconvert", "reel-audio-convert");
  if (keeper == NULL || convert == NULL) {
    if (keeper) gst_object_unref(gst_object_ref_sink(keeper));
    if (convert) gst_object_unref(gst_object_ref_sink(convert));
    return device;
  }
  GstElement *bin = gst_bin_new("reel-audio-output");
  gst_bin_add_many(GST_BIN(bin), keeper, convert, device, NULL);
  gst_element_link_many(keeper, convert, device, NULL);
  GstPad *target = gst_element_get_static_pad(keeper, "sink");
  gst_element_add_pad(bin, gst_ghost_pad_new("sink", target));
  gst_object_unref(target);
  return bin;
}
