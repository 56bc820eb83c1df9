// SPDX-License-Identifier: GPL-3.0-or-later
// The sound's way out: the pitch keeper (scaletempo), the night mode's compressor, the volume's
// part above 100 % with its limiter, then the device's sink.
#include "CShims.h"

/* scaletempo stretches the sound to the rate its segment carries (see sink_rate.c). Here, after
 * playsink's 1 s audio queue rather than before it as playbin's audio-filter, the segments it
 * is given reach what is heard within the device's own buffer (200 ms): a rate change takes
 * effect at once instead of a second later. */

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

// LSP's plugin whose factory name ends with `suffix`; NULL when not installed.
static GstElementFactory *lsp_factory(const char *suffix) {
  GstElementFactory *factory = NULL;
  GList *features = gst_registry_get_feature_list(gst_registry_get(), GST_TYPE_ELEMENT_FACTORY);
  for (GList *node = features; node != NULL && factory == NULL; node = node->next) {
    if (g_str_has_suffix(GST_OBJECT_NAME(node->data), suffix)) factory = gst_object_ref(node->data);
  }
  gst_plugin_feature_list_free(features);
  return factory;
}

GstElementFactory *reel_night_compressor_factory(void) {
  static gsize found = 0;
  static GstElementFactory *factory = NULL;
  if (g_once_init_enter(&found)) {
    factory = lsp_factory(NIGHT_COMPRESSOR_SUFFIX);
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

/* Volume above 100 %: PulseAudio clips a stream amplified past 1, so the device keeps the part
 * up to 1 (what the desktop shows) and the rest is gain here, in float, before a look-ahead
 * limiter. playsink 1.22 drives the first child with GstStreamVolume (never the bin's own
 * properties): ReelVolume is added after the device, as a bin lists its newest child first. */
#define LIMITER_SUFFIX "-lsp-plug-in-plugins-ladspa-limiter-stereo"

GstElementFactory *reel_volume_limiter_factory(void) {
  static gsize found = 0;
  static GstElementFactory *factory = NULL;
  if (g_once_init_enter(&found)) {
    factory = lsp_factory(LIMITER_SUFFIX);
    g_once_init_leave(&found, 1);
  }
  return factory;
}

typedef struct {
  GstBin parent;
  GstElement *device, *gain, *limiter;  // the device: the output bin's child, referenced here
  GRecMutex lock;  // recursive: setting the device's volume notifies, and playsink reads it back
  gdouble volume, device_part;  // the whole volume, and the part last given to the device
} ReelVolume;
typedef GstBinClass ReelVolumeClass;
G_DEFINE_TYPE_WITH_CODE(ReelVolume, reel_volume, GST_TYPE_BIN, G_IMPLEMENT_INTERFACE(GST_TYPE_STREAM_VOLUME, NULL))
enum { PROP_VOLUME = 1, PROP_MUTE };

// Called with the lock held. At 1 and below the gain passes through and the limiter is bypassed.
static void reel_volume_apply(ReelVolume *self, gdouble volume, gboolean to_device) {
  self->volume = volume;
  g_object_set(self->gain, "volume", MAX(volume, 1.0), NULL);
  g_object_set(self->limiter, "bypass", volume <= 1.0, NULL);
  self->device_part = MIN(volume, 1.0);
  if (to_device) g_object_set(self->device, "volume", self->device_part, NULL);
}

static gdouble reel_volume_current(ReelVolume *self) {
  g_rec_mutex_lock(&self->lock);
  gdouble device_volume;
  g_object_get(self->device, "volume", &device_volume, NULL);  // pulsesink asks the server
  // Changed elsewhere (the desktop's sound settings): that is the volume now, with no gain.
  if (fabs(device_volume - self->device_part) > 0.001) reel_volume_apply(self, device_volume, FALSE);
  gdouble volume = self->volume;
  g_rec_mutex_unlock(&self->lock);
  return volume;
}

static void reel_volume_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  ReelVolume *self = (ReelVolume *)object;
  if (id == PROP_VOLUME) {
    g_rec_mutex_lock(&self->lock);
    reel_volume_apply(self, g_value_get_double(value), TRUE);
    g_rec_mutex_unlock(&self->lock);
  } else if (id == PROP_MUTE) {
    g_object_set_property(G_OBJECT(self->device), "mute", value);
  } else {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void reel_volume_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  ReelVolume *self = (ReelVolume *)object;
  if (id == PROP_VOLUME) g_value_set_double(value, reel_volume_current(self));
  else if (id == PROP_MUTE) g_object_get_property(G_OBJECT(self->device), "mute", value);
  else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
}

// The device's notifications (its own, and the desktop's changes) become this element's.
static void reel_volume_device_notified(GObject *device, GParamSpec *pspec, gpointer self) {
  (void)device;
  g_object_notify(G_OBJECT(self), g_param_spec_get_name(pspec));
}

static void reel_volume_dispose(GObject *object) {
  ReelVolume *self = (ReelVolume *)object;
  if (self->device) {
    g_signal_handlers_disconnect_by_data(self->device, self);
    gst_clear_object(&self->device);
  }
  G_OBJECT_CLASS(reel_volume_parent_class)->dispose(object);
}

static void reel_volume_finalize(GObject *object) {
  g_rec_mutex_clear(&((ReelVolume *)object)->lock);
  G_OBJECT_CLASS(reel_volume_parent_class)->finalize(object);
}

static void reel_volume_class_init(ReelVolumeClass *klass) {
  GObjectClass *object_class = G_OBJECT_CLASS(klass);
  object_class->set_property = reel_volume_set_property;
  object_class->get_property = reel_volume_get_property;
  object_class->dispose = reel_volume_dispose;
  object_class->finalize = reel_volume_finalize;
  // Notified when the device is (EXPLICIT_NOTIFY): once a change, as playsink had it before.
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  g_object_class_install_property(object_class, PROP_VOLUME,
                                  g_param_spec_double("volume", "Volume", "Linear volume, 1.0 = 100 %", 0, 10, 1, flags));
  g_object_class_install_property(object_class, PROP_MUTE, g_param_spec_boolean("mute", "Mute", "Mute", FALSE, flags));
}

static void reel_volume_init(ReelVolume *self) {
  g_rec_mutex_init(&self->lock);
  self->volume = self->device_part = 1;
}

// NULL without the limiter, or with a device that has no volume of its own: playsink then
// finds the device's, and a volume above 1 is PulseAudio's, as before.
static GstElement *reel_volume_new(GstElement *device) {
  GstElementFactory *factory = reel_volume_limiter_factory();
  if (factory == NULL || !GST_IS_STREAM_VOLUME(device)) return NULL;
  GstElement *gain = gst_element_factory_make("volume", "reel-volume-gain");
  GstElement *limiter = gst_element_factory_create(factory, "reel-volume-limiter");
  if (gain == NULL || limiter == NULL) {
    if (gain) gst_object_unref(gst_object_ref_sink(gain));
    if (limiter) gst_object_unref(gst_object_ref_sink(limiter));
    return NULL;
  }
  // 0 dBFS, 5 ms ahead. Mode 3 (Herm Duck) and the longest release: the least distortion on low
  // notes at 150 % (50 Hz full scale: THD 1 %, against 9 % with LSP's defaults).
  g_object_set(limiter, "threshold", 1.0, "operating-mode", 3, "lookahead", 5.0, "attack-time", 5.0,
               "release-time", 20.0, "bypass", TRUE, NULL);
  ReelVolume *self = g_object_new(reel_volume_get_type(), "name", "reel-volume", NULL);
  self->device = gst_object_ref(device);
  self->gain = gain;
  self->limiter = limiter;
  gst_bin_add_many(GST_BIN(self), gain, limiter, NULL);
  gst_element_link(gain, limiter);
  GstPad *sink = gst_element_get_static_pad(gain, "sink"), *src = gst_element_get_static_pad(limiter, "src");
  gst_element_add_pad(GST_ELEMENT(self), gst_ghost_pad_new("sink", sink));
  gst_element_add_pad(GST_ELEMENT(self), gst_ghost_pad_new("src", src));
  gst_object_unref(sink);
  gst_object_unref(src);
  g_signal_connect(device, "notify::volume", G_CALLBACK(reel_volume_device_notified), self);
  g_signal_connect(device, "notify::mute", G_CALLBACK(reel_volume_device_notified), self);
  return GST_ELEMENT(self);
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
  GstElement *after = gst_element_factory_make("audioconvert", "reel-night-mode-convert");
  if (keeper == NULL || convert == NULL || after == NULL) {
    if (keeper) gst_object_unref(gst_object_ref_sink(keeper));
    if (convert) gst_object_unref(gst_object_ref_sink(convert));
    if (after) gst_object_unref(gst_object_ref_sink(after));
    return device;
  }
  ReelAudioOutput *output = g_object_new(reel_audio_output_get_type(), "name", "reel-audio-output", NULL);
  output->rate = reel_sink_rate_ref(rate);
  output->device = device;
  GstElement *bin = GST_ELEMENT(output);
  GstElement *compressor = night_compressor_new();
  GstElement *volume = reel_volume_new(device);
  // The volume after the device: playsink must find it first (see ReelVolume).
  gst_bin_add_many(GST_BIN(bin), keeper, convert, after, device, NULL);
  if (compressor) gst_bin_add(GST_BIN(bin), compressor);
  if (volume) gst_bin_add(GST_BIN(bin), volume);
  // Both work in float; the convert after them goes back to what the device takes.
  gst_element_link_many(keeper, convert, NULL);
  GstElement *last = convert;
  GstElement *stages[] = {compressor, volume};
  for (guint i = 0; i < G_N_ELEMENTS(stages); i++) {
    if (stages[i] == NULL) continue;
    gst_element_link(last, stages[i]);
    last = stages[i];
  }
  gst_element_link_many(last, after, device, NULL);
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
