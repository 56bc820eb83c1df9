// The sound's way out: the pitch keeper (scaletempo), the night mode's compressor, then the
// device's sink.
#include "CShims.h"

/* scaletempo stretches the sound to the rate its segment carries (see sink_rate.c). Here, after
 * playsink's 1 s audio queue rather than before it as playbin's audio-filter, the segments it
 * is given reach what is heard within the device's own buffer (200 ms): a rate change takes
 * effect at once instead of a second later. playsink finds the device sink's volume inside the
 * bin and keeps using it (the stream volume the desktop's sound settings show). */

/* Night mode evens out loud and quiet passages: LSP's stereo compressor (Debian's
 * lsp-plugins-ladspa, through GStreamer's LADSPA bridge), always in the chain and switched by
 * its bypass, which crossfades over 5 ms: no gap and no click, where changing a compressor's
 * ratio while playing steps the gain at once (measured: an audible click with swh's SC4).
 * Above -30 dBFS (RMS, 10 ms) it compresses 6:1 (attack 5 ms, release 250 ms), then adds 6 dB,
 * looking 5 ms ahead so a sudden bang does not pass before the gain comes down. Measured on the
 * speakers' monitor (ViewerTests), passages at -38 and -14 dBFS RMS: 24 dB apart become 10.5.
 * Bypassed, it passes the sound bit for bit, 5 ms later. It takes stereo only: with it, sound
 * of more channels is mixed down to two. */
#define NIGHT_MODE_NAME "reel-night-mode"
// The factory's name carries the package's version (ladspa-lsp-plugins-ladspa-1-2-5-so-…).
#define NIGHT_COMPRESSOR_SUFFIX "-lsp-plug-in-plugins-ladspa-compressor-stereo"

GstElementFactory *reel_night_compressor_factory(void) {
  static gsize found = 0;
  static GstElementFactory *factory = NULL;
  if (g_once_init_enter(&found)) {
    GList *features = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
    for (GList *node = features; node != NULL && factory == NULL; node = node->next) {
      if (g_str_has_suffix(GST_OBJECT_NAME(node->data), NIGHT_COMPRESSOR_SUFFIX)) factory = gst_object_ref(node->data);
    }
    gst_plugin_feature_list_free(features);
    g_once_init_leave(&found, 1);
  }
  return factory;
}

static GstElement *night_compressor_new(void) {
  GstElementFactory *factory = reel_night_compressor_factory();
  GstElement *compressor = factory ? gst_element_factory_create(factory, NIGHT_MODE_NAME) : NULL;
  if (compressor == NULL) return NULL;
  // Its gains are linear: 0.0316 is -30 dB, 0.5 -6 dB, 2 +6 dB. Side-chain mode 1 is RMS.
  g_object_set(compressor, "attack-threshold", 0.0316, "ratio", 6.0, "knee", 0.5, "attack-time", 5.0,
               "release-time", 250.0, "makeup-gain", 2.0, "sidechain-mode", 1, "sidechain-reactivity", 10.0,
               "sidechain-lookahead", 5.0, "bypass", TRUE, NULL);
  return compressor;
}

/* GstPlay (1.22) reports the position only when it differs from the last, so the sink's own
 * answer, standing still after a rate change (see reel_sink_rate_position), has to be put
 * right where the pipeline is asked: here, where playbin's position query reaches the sound. */
typedef struct {
  GstBin parent;
  ReelSinkRate *rate;
  GstElement *device;  // a child: lives as long as the bin
} ReelAudioOutput;
typedef GstBinClass ReelAudioOutputClass;
G_DEFINE_TYPE(ReelAudioOutput, reel_audio_output, GST_TYPE_BIN)

static gboolean reel_audio_output_query(GstElement *element, GstQuery *query) {
  ReelAudioOutput *self = (ReelAudioOutput *)element;
  if (GST_QUERY_TYPE(query) == GST_QUERY_POSITION) {
    GstFormat format;
    gint64 position;
    gst_query_parse_position(query, &format, NULL);
    if (format == GST_FORMAT_TIME && reel_sink_rate_position(self->rate, self->device, &position)) {
      gst_query_set_position(query, format, position);
      return TRUE;
    }
  }
  return GST_ELEMENT_CLASS(reel_audio_output_parent_class)->query(element, query);
}

static void reel_audio_output_finalize(GObject *object) {
  reel_sink_rate_unref(((ReelAudioOutput *)object)->rate);
  G_OBJECT_CLASS(reel_audio_output_parent_class)->finalize(object);
}

static void reel_audio_output_class_init(ReelAudioOutputClass *klass) {
  GST_ELEMENT_CLASS(klass)->query = reel_audio_output_query;
  G_OBJECT_CLASS(klass)->finalize = reel_audio_output_finalize;
}

static void reel_audio_output_init(ReelAudioOutput *self) { (void)self; }

GstElement *reel_audio_sink_new(GstElement *device, ReelSinkRate *rate) {
  GstElement *keeper = reel_pitch_keeper_new();
  GstElement *convert = gst_element_factory_make("audioconvert", "reel-audio-convert");
  if (keeper == NULL || convert == NULL) {
    if (keeper) gst_object_unref(gst_object_ref_sink(keeper));
    if (convert) gst_object_unref(gst_object_ref_sink(convert));
    return device;
  }
  ReelAudioOutput *output = g_object_new(reel_audio_output_get_type(), "name", "reel-audio-output", NULL);
  output->rate = reel_sink_rate_ref(rate);
  output->device = device;
  GstElement *bin = GST_ELEMENT(output);
  gst_bin_add_many(GST_BIN(bin), keeper, convert, NULL);
  gst_element_link(keeper, convert);
  GstElement *last = convert;
  GstElement *compressor = night_compressor_new();
  GstElement *after = compressor ? gst_element_factory_make("audioconvert", "reel-night-mode-convert") : NULL;
  if (compressor && after) {
    gst_bin_add_many(GST_BIN(bin), compressor, after, NULL);
    gst_element_link_many(convert, compressor, after, NULL);
    last = after;
  } else if (compressor) {
    gst_object_unref(gst_object_ref_sink(compressor));
  }
  gst_bin_add(GST_BIN(bin), device);
  gst_element_link(last, device);
  GstPad *target = gst_element_get_static_pad(keeper, "sink");
  gst_element_add_pad(bin, gst_ghost_pad_new("sink", target));
  gst_object_unref(target);
  return bin;
}

gboolean reel_audio_sink_set_night_mode(GstElement *pipeline, gboolean on) {
  GstElement *compressor = gst_bin_get_by_name(GST_BIN(pipeline), NIGHT_MODE_NAME);
  if (compressor == NULL) return FALSE;
  g_object_set(compressor, "bypass", !on, NULL);
  gst_object_unref(compressor);
  return TRUE;
}
