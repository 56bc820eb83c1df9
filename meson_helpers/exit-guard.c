// SPDX-License-Identifier: GPL-3.0-or-later
/* Catches Reel running its libraries' destructors while its GStreamer start-up thread still
 * loads plugins, for ReliabilityTests. glibc's exit() marks each library uninitialised as it
 * runs its destructors, and a plugin loading meanwhile runs GObject's constructor a second
 * time: an abort in CI, one run in hundreds. Loaded with LD_PRELOAD, its own destructor runs
 * among theirs and aborts the process if that thread is still there, so the test sees the
 * hazard every time and not only when the race is lost. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int start_up_thread_runs(void) {
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == NULL) return 0;
  int found = 0;
  for (struct dirent *entry; !found && (entry = readdir(tasks)) != NULL;) {
    if (entry->d_name[0] == '.') continue;
    char path[64], name[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", entry->d_name);
    FILE *comm = fopen(path, "r");
    if (comm == NULL) continue;
    if (fgets(name, sizeof name, comm) != NULL) found = strcmp(name, "reel-gst-start\n") == 0;
    fclose(comm);
  }
  closedir(tasks);
  return found;
}

__attribute__((destructor)) static void check(void) {
  if (!start_up_thread_runs()) return;
  fprintf(stderr, "exit-guard: destructors run while GStreamer's start-up thread runs\n");
  abort();
}
