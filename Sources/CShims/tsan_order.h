// SPDX-License-Identifier: GPL-3.0-or-later
// ThreadSanitizer cannot see the locks GLib and GStreamer take (GMutex is futex-based and
// neither library is instrumented), so code guarded by them tells it what they order:
// `ordered_after(x)` once a lock is held (and after any wait on it), `ordered_before(x)` just
// before it is released. Nothing in other builds.
#pragma once

#include <glib.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
void __tsan_acquire(void *address);
void __tsan_release(void *address);
#define ordered_after(address) __tsan_acquire(address)
#define ordered_before(address) __tsan_release(address)
#endif
#endif
#ifndef ordered_after
#define ordered_after(address) ((void)(address))
#define ordered_before(address) ((void)(address))
#endif

// A GMutex taken and released, with what it orders told to ThreadSanitizer (keyed by `owner`).
static inline void lock_ordered(GMutex *mutex, void *owner) {
  g_mutex_lock(mutex);
  ordered_after(owner);
}

static inline void unlock_ordered(GMutex *mutex, void *owner) {
  ordered_before(owner);
  g_mutex_unlock(mutex);
}
