// SPDX-License-Identifier: GPL-3.0-or-later
// What Swift cannot import directly from GTK and GStreamer: macros, variadic calls, type-cast
// macros and the small GObject types Reel defines in C (GLib's own are in CGLibShims).
#pragma once
#include "CGLibShims.h"
#include <gtk/gtk.h>
#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>

// GStreamer's macros.
static inline guint64 reel_gst_second(void) { return GST_SECOND; }
static inline guint64 reel_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }
static inline GstMapFlags reel_gst_map_read(void) { return GST_MAP_READ; }

// Variadic setters, one typed entry each.
static inline void reel_object_set_bool(gpointer o, const char *k, gboolean v) { g_object_set(o, k, v, NULL); }
static inline void reel_object_set_uint(gpointer o, const char *k, guint v) { g_object_set(o, k, v, NULL); }
static inline void reel_object_set_pointer(gpointer o, const char *k, gpointer v) { g_object_set(o, k, v, NULL); }
static inline void reel_object_set_string(gpointer o, const char *k, const char *v) { g_object_set(o, k, v, NULL); }
static inline gboolean reel_object_has_property(gpointer o, const char *k) { return g_object_class_find_property(G_OBJECT_GET_CLASS(o), k) != NULL; }
static inline gchar *reel_object_get_string(gpointer o, const char *k) { gchar *v = NULL; g_object_get(o, k, &v, NULL); return v; }

static inline GstCaps *reel_caps_from_string(const char *s) { return gst_caps_from_string(s); }
static inline void reel_tag_list_add_string(GstTagList *t, const char *tag, const char *v) { gst_tag_list_add(t, GST_TAG_MERGE_REPLACE, tag, v, NULL); }
static inline GstStructure *reel_structure_from_string(const char *s) { return gst_structure_from_string(s, NULL); }

// GstVideoFrame is a large struct with inline arrays; these accessors keep Swift away from them.
typedef struct ReelMappedFrame ReelMappedFrame;
ReelMappedFrame *reel_mapped_frame_new(GstSample *sample);   // NULL when the sample cannot be mapped
void reel_mapped_frame_free(gpointer frame);                 // unmaps, unrefs the sample
const guint8 *reel_mapped_frame_data(ReelMappedFrame *f);
gsize reel_mapped_frame_size(ReelMappedFrame *f);
gint reel_mapped_frame_width(ReelMappedFrame *f);
gint reel_mapped_frame_height(ReelMappedFrame *f);
gint reel_mapped_frame_stride(ReelMappedFrame *f);
GstVideoFormat reel_mapped_frame_format(ReelMappedFrame *f);
gint reel_mapped_frame_par_n(ReelMappedFrame *f);
gint reel_mapped_frame_par_d(ReelMappedFrame *f);

// ReelIdList: a GListModel of queue item ids whose row objects (ReelIdItem) are made only when
// GTK asks for one (id_list.c).
#define REEL_TYPE_ID_ITEM (reel_id_item_get_type())
G_DECLARE_FINAL_TYPE(ReelIdItem, reel_id_item, REEL, ID_ITEM, GObject)
#define REEL_TYPE_ID_LIST (reel_id_list_get_type())
G_DECLARE_FINAL_TYPE(ReelIdList, reel_id_list, REEL, ID_LIST, GObject)
ReelIdList *reel_id_list_new(void);
void reel_id_list_splice(ReelIdList *list, guint position, guint removed, const gint64 *added, guint n_added);
// The id an item of a ReelIdList stands for (-1 for anything else).
gint64 reel_id_item_get_id(gpointer item);

// ReelVideoPaintable: a GdkPaintable showing the newest GdkTexture at the video's display
// aspect ratio. Swift feeds it; GTK draws it. (A GObject interface implementation needs a
// class_init and an interface vtable, which is a few lines of C and a page of Swift.)
#define REEL_TYPE_VIDEO_PAINTABLE (reel_video_paintable_get_type())
G_DECLARE_FINAL_TYPE(ReelVideoPaintable, reel_video_paintable, REEL, VIDEO_PAINTABLE, GObject)
ReelVideoPaintable *reel_video_paintable_new(void);
// Shows `texture` (may be NULL to clear) whose pixels have aspect `par_n/par_d`.
void reel_video_paintable_set_texture(ReelVideoPaintable *self, GdkTexture *texture, gint par_n, gint par_d);
GdkTexture *reel_video_paintable_get_texture(ReelVideoPaintable *self);
// Shows `texture` as a frame of a video `display_width`×`display_height` big (its intrinsic
// size), whatever the texture's own size: frames may come scaled to the size they are drawn at.
// `bgra` (may be NULL) holds the texture's pixels when they are BGRA rows `bgra_stride` apart.
void reel_video_paintable_set_frame(ReelVideoPaintable *self, GdkTexture *texture, GBytes *bgra, gint bgra_stride,
                                    gint display_width, gint display_height);
// A frame set before the last one was drawn waits for the next repaint (see the .c file); this
// shows it at once, for a window that will not be drawn for a while.
void reel_video_paintable_show_newest(ReelVideoPaintable *self);
// The sample the next frame set comes from: its timestamps tell frames never drawn, counted
// in reel_video_paintable_get_frames_skipped (gaps over a second, seeks, and frames without a
// duration are not counted).
void reel_video_paintable_set_frame_sample(ReelVideoPaintable *self, GstSample *sample);
guint64 reel_video_paintable_get_frames_skipped(ReelVideoPaintable *self);
// The user's turn, on top of the one each frame's tag gives, and the aspect ratio to show the
// picture at (0: the video's own); both apply at once, to the frame shown too.
void reel_video_paintable_set_user_orientation(ReelVideoPaintable *self, gint orientation);
void reel_video_paintable_set_aspect(ReelVideoPaintable *self, double aspect);
// How the frame shown is turned, tag and user's together.
gint reel_video_paintable_get_orientation(ReelVideoPaintable *self);
// Whether the window draws with GTK's cairo renderer: BGRA frames are then painted with cairo
// directly instead of as textures (which GTK 4.8's cairo renderer converts pixel by pixel).
void reel_video_paintable_set_draw_with_cairo(ReelVideoPaintable *self, gboolean cairo);
// Whether `widget`'s window is drawn by GTK's cairo renderer (FALSE before it is realized).
gboolean reel_widget_renders_with_cairo(GtkWidget *widget);
// On X11 with the cairo renderer, keeps cairo's shared-memory pool for a repaint of the largest
// monitor alive (see x11_upload_pool.c). Call once the widget's window is realized; again after
// a scale change (it does nothing when the pool held is large enough).
void reel_x11_hold_upload_pool(GtkWidget *widget);
// The device pixels per logical pixel where the paintable is drawn (the widget's scale factor).
void reel_video_paintable_set_scale_factor(ReelVideoPaintable *self, gint scale);
// Called on the main thread, from drawing, when the size in device pixels the video is drawn at
// changes. `notify` frees `user_data` when the paintable goes away.
typedef void (*ReelDrawSizeCallback)(gint width, gint height, gpointer user_data);
void reel_video_paintable_set_draw_size_callback(ReelVideoPaintable *self, ReelDrawSizeCallback callback,
                                                 gpointer user_data, GDestroyNotify notify);
// Called on the main thread when frames have been set without being drawn for most of a second
// (`stalled`: the window is not drawn at all; a Wayland compositor does that to a window it does
// not show), and when a draw comes again. `notify` frees `user_data`.
typedef void (*ReelDrawingStalledCallback)(gboolean stalled, gpointer user_data);
void reel_video_paintable_set_drawing_stalled_callback(ReelVideoPaintable *self, ReelDrawingStalledCallback callback,
                                                       gpointer user_data, GDestroyNotify notify);
// `source` (a main-loop source of the default context, or NULL for none) gives way to the
// repaint while a frame waits for it (see the .c file).
void reel_video_paintable_set_yielding_source(ReelVideoPaintable *self, GSource *source);

// The frame sink's element: a bin of a scaler, the size's capsfilter, a converter and colour
// balance, and an appsink, returned in `appsink` (owned by the bin). Caps set on the appsink pick
// the format; reel_frame_sink_set_caps sets the size (and pixel aspect) the scaler makes, while
// playing, without upstream (the decoder) having to negotiate again.
GstElement *reel_frame_sink_bin_new(const char *name, GstElement **appsink);
void reel_frame_sink_set_caps(GstElement *bin, const char *caps);
// The display size of the video entering the bin (before any scaling); FALSE before caps.
gboolean reel_frame_sink_input_size(GstElement *bin, gint *width, gint *height);

// Deinterlacing: automatic (interlaced caps only), off, or forced for badly flagged files.
typedef enum { REEL_DEINTERLACE_AUTO = 0, REEL_DEINTERLACE_OFF = 1, REEL_DEINTERLACE_FORCE = 2 } ReelDeinterlaceMode;
// A change of mode applies when the bin's input is next idle; the same mode again does nothing.
void reel_frame_sink_set_deinterlace(GstElement *bin, ReelDeinterlaceMode mode);
// GstPlayFlags (playbin's, not in a public header).
enum { REEL_PLAY_FLAG_DEINTERLACE = 0x200, REEL_PLAY_FLAG_SOFT_COLORBALANCE = 0x400 };
// Takes playbin's own deinterlacer and colour balance out: the frame sink has its own.
void reel_playbin_leave_picture_to_frame_sink(GstElement *playbin);
// Whether the deinterlacer is in the frame path now.
gboolean reel_frame_sink_is_deinterlacing(GstElement *bin);
// videobalance's ranges: brightness and hue -1…1 (0 neutral), contrast and saturation 0…2 (1).
void reel_frame_sink_set_balance(GstElement *bin, double brightness, double contrast, double saturation, double hue);
// How the stream's tag says to turn the sample's frame (a GstVideoOrientationMethod, 0…7).
gint reel_sample_orientation(GstSample *sample);

// Orientations (orientation.c): GstVideoOrientationMethod 0…7. `first` then `then`, as one.
gint reel_orientation_compose(gint first, gint then);
// Whether the method turns a quarter (width and height trade places).
gboolean reel_orientation_swaps_sides(gint method);
// The map from a box in the source's orientation onto the box `width`×`height` shown.
void reel_orientation_matrix(gint method, double width, double height, cairo_matrix_t *matrix);
// The same map as the snapshot's translation, rotation and mirror.
void reel_orientation_turn_snapshot(GtkSnapshot *snapshot, gint method, double width, double height);
// The image-orientation tag's method, or `fallback` when the tags have none.
gint reel_orientation_from_tags(const GstTagList *tags, gint fallback);

// Whether the display GTK is about to open can only draw GL with a software rasterizer (Mesa's
// llvmpipe): an X server without direct rendering, a Wayland session without a GPU render node.
// Call before GTK opens the display; loads no GL.
gboolean reel_gl_will_be_software(void);

// Stored settings GSettings ignores (wrong type, out of range or choices) and answers the
// default for instead, as "key=value"; NULL-terminated, free with g_strfreev.
gchar **reel_settings_ignored_values(GSettings *settings);

// gettext: libintl.h is not part of Swift's Glibc module.
void reel_i18n_init(const char *domain, const char *localedir);
const char *reel_gettext(const char *msgid);
const char *reel_ngettext(const char *msgid, const char *plural, unsigned long n);
// A word in another domain's catalogue (GTK's "gtk40"), for the words GTK's own widgets lack.
const char *reel_dgettext(const char *domain, const char *msgid);

// Crash reports: on a fatal signal, `header` (version, libraries), the media, the playback state,
// the thread and its stack go to `path`; then Reel runs again with REEL_SYMBOLIZE_CRASH_REPORT=path
// to put the stack's names into words.
void reel_crash_report_install(const char *path, const char *header);
void reel_crash_report_set_context(const char *media, const char *state);

// GstAppSink callbacks, set from C so the struct layout (which grows between releases) is
// filled by the compiler that knows it. `on_sample` runs on the streaming thread.
typedef void (*ReelSampleCallback)(GstSample *sample /* transfer full */, gpointer user_data);
void reel_app_sink_set_sample_callback(GstAppSink *sink, ReelSampleCallback callback,
                                       gpointer user_data, GDestroyNotify notify);

// The audio filter that keeps the pitch at any rate: scaletempo, renewed whenever the pipeline
// stops (GStreamer 1.22's scaletempo crashes on stale state; see pitch_keeper.c). NULL without
// scaletempo (gst-plugins-good).
GstElement *reel_pitch_keeper_new(void);
typedef struct ReelSinkRate ReelSinkRate;
// The audio sink Reel gives playbin: the pitch keeper, the night mode's compressor (bypassed),
// then `device` (floating, taken), in a bin that answers the position through `rate`'s map;
// `device` itself when scaletempo is missing.
GstElement *reel_audio_sink_new(GstElement *device, ReelSinkRate *rate);
// Turns the night mode's compressor in `pipeline` on or off, gaplessly; FALSE when it has none
// (the compressor, from lsp-plugins-ladspa, is not installed).
gboolean reel_audio_sink_set_night_mode(GstElement *pipeline, gboolean on);
// The night mode's compressor's factory; NULL when it is not installed. Found once.
GstElementFactory *reel_night_compressor_factory(void);
// The limiter that lets the volume go above 1 (100 %) unclipped; NULL when it is not installed
// (the volume above 1 is then the device's, which clips). Found once.
GstElementFactory *reel_volume_limiter_factory(void);

// The playback rate, applied at the sinks (see sink_rate.c): attach the element at the entry of
// each sink path (the audio path, which runs furthest ahead, `leads`), then set the rate from
// any thread; it takes effect on the data next to reach the sinks, seamlessly.
ReelSinkRate *reel_sink_rate_new(void);
ReelSinkRate *reel_sink_rate_ref(ReelSinkRate *self);
void reel_sink_rate_unref(ReelSinkRate *self);
void reel_sink_rate_attach(ReelSinkRate *self, GstElement *element, gboolean leads);
void reel_sink_rate_set(ReelSinkRate *self, gdouble rate);
// Blocks until the leading path (the sound) has taken in data up to upstream running time `t`,
// it ends, or `pad` flushes: paces a stream that reaches no sink. FALSE: no sound flows to pace by.
gboolean reel_sink_rate_wait_for_leader(ReelSinkRate *self, GstClockTime t, GstPad *pad);
// The furthest upstream running time any path has taken in (the sound runs ~200 ms ahead of
// what is heard).
GstClockTime reel_sink_rate_furthest(ReelSinkRate *self);
// The position heard now on `audio_device_sink`, followed through the rate changes (FALSE:
// the sink's own answer is right).
gboolean reel_sink_rate_position(ReelSinkRate *self, GstElement *audio_device_sink, gint64 *position);

// Makes the input-selectors playbin joins several tracks of a kind with keep the tracks in step
// by the active track's segment rather than by waiting on the clock (see gst_workarounds.c for why).
void reel_playbin_sync_tracks_by_segment(GstElement *playbin);

// A video-track switch may start only while the pipeline plays steadily, and nothing may flush
// or change its state until playsink has relinked (see gst_workarounds.c for why).
gboolean reel_pipeline_is_playing_steadily(GstElement *pipeline);
gboolean reel_playbin_is_relinking(GstElement *playbin);

// Wraps pulsesink's clock so that libpulse 16's absurd stream times never reach the pipeline
// (see pulse_clock_guard.c); call it before the sink joins a pipeline. Other sinks are left alone.
void reel_pulse_clock_guard(GstElement *pulsesink);
// The same guard on any GstAudioClock; `sink` (NULL: always) tells when the sound plays.
void reel_audio_clock_guard(GstClock *clock, GstAudioBaseSink *sink);
// Shortens the text tags that reach pulsesink, which PulseAudio would otherwise refuse with
// the whole connection when long (see pulse_tag_limit.c).
void reel_pulse_limit_tags(GstElement *pulsesink);

// An appsink for playbin's subtitles whose position is always unknown (see text_sink.c).
GstElement *reel_text_sink_new(const char *name);

// Opens a PulseAudio sink that stays open for the life of the process (see gst_workarounds.c for why);
// FALSE when there is no PulseAudio server to open it on. Only the first call does anything.
gboolean reel_pulse_keep_main_loop(void);

// Initialises GStreamer and loads `plugins` (NULL-terminated names) on a thread of its own;
// gst_init elsewhere waits for it to finish, and so does the process's exit().
void reel_gst_start_in_background(const char *const *plugins);

// The lines of the `index`-th embedded text track of `uri`, read whole (demuxed, not decoded)
// on a thread of its own, where `done` gets them: texts NULL-terminated, times in nanoseconds,
// an end of -1 when unknown; `markup` when they are Pango markup.
typedef void (*ReelSubtitleLinesCallback)(const char *const *texts, const gint64 *starts, const gint64 *ends,
                                          guint count, gboolean markup, gpointer user_data);
void reel_read_subtitle_track(const char *uri, guint index, ReelSubtitleLinesCallback done, gpointer user_data);

// The frame of `uri` at `position` (nanoseconds), decoded at the video's own size as BGRA on a
// thread of its own, where `done` gets it (NULL when it cannot be had; the callee unrefs it).
typedef void (*ReelFrameGrabCallback)(GstSample *sample, gpointer user_data);
// `orientation`: -1 for the frame as stored; else the tag's turn, then this method (0…7).
void reel_grab_frame(const char *uri, gint64 position, gint orientation, ReelFrameGrabCallback done, gpointer user_data);

// Seek-bar previews of `uri` (see preview_source.c): frames `width` pixels wide, BGRA, from the
// keyframe at or before each time requested. `callback` runs on the source's own thread with
// the sample (NULL when there is none; the callee unrefs it) and the time it was asked for.
// Its pipeline opens on a request or `get_ready`, and closes after `idle_ms` without either.
typedef struct ReelPreviewSource ReelPreviewSource;
typedef void (*ReelPreviewCallback)(GstSample *sample, gint64 requested, gpointer user_data);
ReelPreviewSource *reel_preview_source_new(const char *uri, gint width, gint idle_ms, ReelPreviewCallback callback,
                                           gpointer user_data, GDestroyNotify notify);
void reel_preview_source_request(ReelPreviewSource *self, gint64 position);
// Makes a key-unit seek's decoder start its output at the keyframe (see gst_workarounds.c).
void reel_decode_from_the_keyframe(GstPad *decoder_sink);
void reel_preview_source_get_ready(ReelPreviewSource *self);
gboolean reel_preview_source_is_open(ReelPreviewSource *self);
// Ends the source on its own thread (a decode under way may still call back); `notify` last.
void reel_preview_source_close(ReelPreviewSource *self);

// Whether a message's source is a source element (GstBaseSrc: a file or network reader).
gboolean reel_is_base_src(GstObject *object);

// Lets libavcodec's video decoders decode into frames of their own, and spares them the frames
// no other frame refers to ahead of an accurate seek's target (see decoders.c for why).
void reel_playbin_tune_decoders(GstElement *playbin, ReelSinkRate *rate);
// The same for the decoders any other pipeline adds (decodebin's).
void reel_bin_tune_decoders(GstElement *bin);
// How many frames the decoders of this process were spared so far.
guint64 reel_decoders_frames_spared(void);
// The gate in front of playbin's video decoders (decoder_gate.c), paced by the sound's path in
// `rate`: shut, no video is decoded; opened, the frames it held back that the sound has passed
// are decoded, not shown.
void reel_decoder_gate_install(GstElement *playbin, ReelSinkRate *rate);
void reel_decoder_gate_add(GstElement *playbin, GstElement *decoder);
void reel_playbin_set_video_decoding(GstElement *playbin, gboolean on);
// How many frames the gates of this process have let into a decoder so far.
guint64 reel_decoder_gate_frames_let_through(void);

// Takes a reference to each of a GstPlay (`player`), its signal adapter and its pipeline; then,
// on a thread of its own (stopping can block), sets the pipeline to NULL and drops them.
void reel_release_player_in_background(gpointer adapter, GstElement *pipeline, gpointer player);

// Gives the memory malloc keeps free for reuse back to the system (see reel_frame_sink_bin_new).
void reel_release_free_memory(void);

// Playlists, through totem-pl-parser (playlist.c). Reading blocks: call it off the main thread.
typedef void (*ReelPlaylistEntryFunc)(const char *uri, const char *title, gpointer data);
enum { REEL_PLAYLIST_READ, REEL_PLAYLIST_BROKEN, REEL_PLAYLIST_NOT_A_PLAYLIST };
// Each entry (nested playlists expanded) goes to func with its title or NULL.
int reel_playlist_read(const char *uri, ReelPlaylistEntryFunc func, gpointer data);
// Writes an M3U (UTF-8: .m3u8) or XSPF playlist of count entries; titles[i] may be NULL.
gboolean reel_playlist_write(const char *path, gboolean xspf, const char *title, const char *const *uris,
                             const char *const *titles, guint count, GError **error);
