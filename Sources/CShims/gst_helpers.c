// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

#include <gst/base/gstbasesrc.h>

gboolean reel_is_base_src(GstObject *object) {
  return object != NULL && GST_IS_BASE_SRC(object);
}
