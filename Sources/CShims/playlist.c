// SPDX-License-Identifier: GPL-3.0-or-later
// Playlists (M3U, PLS, XSPF, ASX…) read and written by totem-pl-parser, Totem's own: its
// signals and varargs setters are C's business, so PlaylistFile.swift sees two calls.
#include "CShims.h"

#include <totem-pl-parser.h>

typedef struct {
  ReelPlaylistEntryFunc func;
  gpointer data;
} EntrySink;

static void on_entry_parsed(TotemPlParser *parser, const char *uri, GHashTable *metadata, gpointer user_data) {
  (void)parser;
  EntrySink *sink = user_data;
  sink->func(uri, g_hash_table_lookup(metadata, TOTEM_PL_PARSER_FIELD_TITLE), sink->data);
}

int reel_playlist_read(const char *uri, ReelPlaylistEntryFunc func, gpointer data) {
  // Made on this thread, the parser emits its signals here, during the parse.
  TotemPlParser *parser = totem_pl_parser_new();
  g_object_set(parser, "recurse", TRUE, "disable-unsafe", TRUE, NULL);
  EntrySink sink = {func, data};
  g_signal_connect(parser, "entry-parsed", G_CALLBACK(on_entry_parsed), &sink);
  TotemPlParserResult result = totem_pl_parser_parse(parser, uri, FALSE);
  g_object_unref(parser);
  switch (result) {
    case TOTEM_PL_PARSER_RESULT_SUCCESS: return REEL_PLAYLIST_READ;
    case TOTEM_PL_PARSER_RESULT_ERROR: return REEL_PLAYLIST_BROKEN;
    default: return REEL_PLAYLIST_NOT_A_PLAYLIST;
  }
}

gboolean reel_playlist_write(const char *path, gboolean xspf, const char *title, const char *const *uris,
                             const char *const *titles, guint count, GError **error) {
  TotemPlParser *parser = totem_pl_parser_new();
  TotemPlPlaylist *playlist = totem_pl_playlist_new();
  for (guint i = 0; i < count; i++) {
    TotemPlPlaylistIter iter;
    totem_pl_playlist_append(playlist, &iter);
    totem_pl_playlist_set(playlist, &iter, TOTEM_PL_PARSER_FIELD_URI, uris[i], NULL);
    if (titles[i] != NULL) totem_pl_playlist_set(playlist, &iter, TOTEM_PL_PARSER_FIELD_TITLE, titles[i], NULL);
  }
  GFile *file = g_file_new_for_path(path);
  gboolean saved = totem_pl_parser_save(parser, playlist, file, title, xspf ? TOTEM_PL_PARSER_XSPF : TOTEM_PL_PARSER_M3U, error);
  g_object_unref(file);
  g_object_unref(playlist);
  g_object_unref(parser);
  return saved;
}
