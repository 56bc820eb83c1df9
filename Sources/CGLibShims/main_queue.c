// SPDX-License-Identifier: GPL-3.0-or-later
#include "CGLibShims.h"

// Exported by libdispatch (swift-corelibs-libdispatch) for CoreFoundation's run loop.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

int reel_dispatch_main_queue_fd(void) { return _dispatch_get_main_queue_handle_4CF(); }
void reel_dispatch_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(NULL); }
