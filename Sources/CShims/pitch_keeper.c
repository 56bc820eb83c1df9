// SPDX-License-Identifier: GPL-3.0-or-later
// The pitch-keeping audio filter: scaletempo in a bin that gives it a fresh instance each time
// the pipeline stops.
//
// Workaround (gst-plugins-good 1.22.0's scaletempo; no upstream report found): goes when
// gst_scaletempo_stop resets its count of bytes queued.
//
// gst-plugins-good 1.22.0's scaletempo frees its sample queue in stop() but keeps the count of
// bytes queued in it. With the next item's caps, reinit_buffers() trims that stale count to the
// new queue size with a memmove from the freed (NULL) queue whenever the old count is larger:
// an item at 48 kHz stereo followed by one at 44.1 kHz, or by a mono one, at a rate other than
// 1 (SIGSEGV in memcpy on the audio streaming thread). Smaller counts play a few milliseconds
// of uninitialized memory instead. Still so in upstream main as last read (gstscaletempo.c:
// gst_scaletempo_stop). A new scaletempo starts with an empty queue; the bin swaps it in at
// PAUSED→READY, when no data flows (GstPlay goes there for every new URI and every stop).
#include "CShims.h"

#define REEL_TYPE_PITCH_KEEPER (reel_pitch_keeper_get_type())
G_DECLARE_FINAL_TYPE(ReelPitchKeeper, reel_pitch_keeper, REEL, PITCH_KEEPER, GstBin)

struct _ReelPitchKeeper {
  GstBin parent;
  GstElement *tempo;  // owned by the bin
  GstPad *sink, *src; // ghost pads, owned by the element
};

G_DEFINE_TYPE(ReelPitchKeeper, reel_pitch_keeper, GST_TYPE_BIN)

/* Puts a new scaletempo in place of the current one (if any) and points the ghost pads at it. */
static gboolean renew_tempo(ReelPitchKeeper *self) {
  GstElement *tempo = gst_element_factory_make("scaletempo", NULL);
  if (tempo == NULL) return FALSE;
  if (self->tempo != NULL) {
    gst_element_set_state(self->tempo, GST_STATE_NULL);
    gst_bin_remove(GST_BIN(self), self->tempo);
  }
  gst_bin_add(GST_BIN(self), tempo);
  self->tempo = tempo;
  GstPad *sink = gst_element_get_static_pad(tempo, "sink");
  GstPad *src = gst_element_get_static_pad(tempo, "src");
  gst_ghost_pad_set_target(GST_GHOST_PAD(self->sink), sink);
  gst_ghost_pad_set_target(GST_GHOST_PAD(self->src), src);
  gst_object_unref(sink);
  gst_object_unref(src);
  return TRUE;
}

static GstStateChangeReturn change_state(GstElement *element, GstStateChange transition) {
  GstStateChangeReturn result = GST_ELEMENT_CLASS(reel_pitch_keeper_parent_class)->change_state(element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY && result != GST_STATE_CHANGE_FAILURE) {
    ReelPitchKeeper *self = REEL_PITCH_KEEPER(element);
    if (renew_tempo(self)) gst_element_set_state(self->tempo, GST_STATE_READY);
  }
  return result;
}

static void reel_pitch_keeper_class_init(ReelPitchKeeperClass *klass) {
  GST_ELEMENT_CLASS(klass)->change_state = change_state;
}

static void reel_pitch_keeper_init(ReelPitchKeeper *self) {
  self->sink = gst_ghost_pad_new_no_target("sink", GST_PAD_SINK);
  self->src = gst_ghost_pad_new_no_target("src", GST_PAD_SRC);
  gst_element_add_pad(GST_ELEMENT(self), self->sink);
  gst_element_add_pad(GST_ELEMENT(self), self->src);
}

GstElement *reel_pitch_keeper_new(void) {
  ReelPitchKeeper *self = g_object_new(REEL_TYPE_PITCH_KEEPER, "name", "reel-pitch-keeper", NULL);
  if (!renew_tempo(self)) {
    gst_object_unref(gst_object_ref_sink(self));
    return NULL;
  }
  return GST_ELEMENT(self);
}
