// SPDX-License-Identifier: GPL-3.0-or-later
// What GSettings will not say: a stored value it ignores. GSettings answers a key's default
// when the backend holds a value of the wrong type or outside the schema's range or choices
// (left by a hand-edited keyfile or a raw `dconf write`), and tells nobody. Reel reads the
// stored value itself, through the backend class's own read function (public to backend
// implementers), to warn in words.
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include "CShims.h"

gchar **reel_settings_ignored_values(GSettings *settings) {
  GSettingsSchema *schema = NULL;
  GSettingsBackend *backend = NULL;
  gchar *path = NULL;
  g_object_get(settings, "settings-schema", &schema, "backend", &backend, "path", &path, NULL);
  GPtrArray *ignored = g_ptr_array_new();
  if (schema != NULL && backend != NULL && path != NULL) {
    gchar **keys = g_settings_schema_list_keys(schema);
    for (gchar **key = keys; *key != NULL; key++) {
      GSettingsSchemaKey *schema_key = g_settings_schema_get_key(schema, *key);
      gchar *full_key = g_strconcat(path, *key, NULL);
      // No expected type: a value of the wrong type must come back to be reported.
      GVariant *stored = G_SETTINGS_BACKEND_GET_CLASS(backend)->read(backend, full_key, NULL, FALSE);
      if (stored != NULL) {
        if (!g_variant_is_of_type(stored, g_settings_schema_key_get_value_type(schema_key)) ||
            !g_settings_schema_key_range_check(schema_key, stored)) {
          gchar *text = g_variant_print(stored, FALSE);
          g_ptr_array_add(ignored, g_strdup_printf("%s=%s", *key, text));
          g_free(text);
        }
        g_variant_unref(stored);
      }
      g_free(full_key);
      g_settings_schema_key_unref(schema_key);
    }
    g_strfreev(keys);
  }
  g_ptr_array_add(ignored, NULL);
  g_free(path);
  g_clear_object(&backend);
  if (schema != NULL) g_settings_schema_unref(schema);
  return (gchar **)g_ptr_array_free(ignored, FALSE);
}
