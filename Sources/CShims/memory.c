// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

#include <malloc.h>

void reel_release_free_memory(void) {
  // Hands back every free page of every malloc arena, not only the main heap's top: the frame
  // path's blocks are freed on all the threads that drew or decoded them.
  malloc_trim(0);
}
