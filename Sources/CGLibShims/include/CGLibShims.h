// SPDX-License-Identifier: GPL-3.0-or-later
// What Swift cannot import directly from GLib alone: type macros and libdispatch's main-queue
// hooks. ReelGLib needs only this; GTK's and GStreamer's helpers are in CShims.
#pragma once
#include <gio/gio.h>
#include <glib-unix.h>

// libdispatch: the eventfd that becomes readable when the main queue has work, and its drain.
// Foundation's run loop uses the same pair; GLib's loop knows nothing of them.
int reel_dispatch_main_queue_fd(void);
void reel_dispatch_drain_main_queue(void);

// GLib's type macros.
static inline GType reel_type_string(void) { return G_TYPE_STRING; }
static inline GType reel_type_object(void) { return G_TYPE_OBJECT; }
static inline GType reel_type_uint(void) { return G_TYPE_UINT; }
static inline GType reel_type_int(void) { return G_TYPE_INT; }
static inline GType reel_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType reel_type_pointer(void) { return G_TYPE_POINTER; }
static inline GType reel_type_boxed(void) { return G_TYPE_BOXED; }
static inline GType reel_type_enum(void) { return G_TYPE_ENUM; }
static inline GType reel_type_flags(void) { return G_TYPE_FLAGS; }
static inline GType reel_type_variant(void) { return G_TYPE_VARIANT; }
static inline GType reel_value_type(const GValue *v) { return G_VALUE_TYPE(v); }
static inline gboolean reel_type_is_a(GType t, GType parent) { return g_type_is_a(t, parent); }
static inline gboolean reel_object_is_floating(gpointer p) { return g_object_is_floating(p); }

// g_signal_emit_by_name for signals without arguments or return value (it is variadic).
static inline void reel_signal_emit(gpointer instance, const char *name) { g_signal_emit_by_name(instance, name); }
