// SPDX-License-Identifier: GPL-3.0-or-later
/* Catches a process adding a name to its environment while it runs more than one thread, for
 * ReliabilityTests. glibc (2.36, Debian 12) then reallocates the array of names, and a getenv
 * on another thread may read the freed one: an activated Reel died of SIGSEGV that way at
 * start-up. Loaded with LD_PRELOAD, it stands in for setenv and putenv, and aborts the process
 * with a line on stderr naming the variable, so the test sees the hazard every time and not
 * only when the race is lost. Replacing or removing a name changes the array in place. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int threads(void) {
  DIR *tasks = opendir("/proc/self/task");
  if (tasks == NULL) return 0;
  int count = 0;
  for (struct dirent *entry; (entry = readdir(tasks)) != NULL;)
    if (entry->d_name[0] != '.') count++;
  closedir(tasks);
  return count;
}

static void check(const char *name, size_t length) {
  char copy[256];
  snprintf(copy, sizeof copy, "%.*s", (int)length, name);
  if (getenv(copy) != NULL) return;
  int count = threads();
  if (count <= 1) return;
  fprintf(stderr, "environment-guard: %s added to the environment while %d threads run\n", copy, count);
  abort();
}

int setenv(const char *name, const char *value, int overwrite) {
  static __typeof__(setenv) *real;
  if (!real) real = (__typeof__(setenv) *)dlsym(RTLD_NEXT, "setenv");
  check(name, strlen(name));
  return real(name, value, overwrite);
}

int putenv(char *string) {
  static __typeof__(putenv) *real;
  if (!real) real = (__typeof__(putenv) *)dlsym(RTLD_NEXT, "putenv");
  const char *equals = strchr(string, '=');
  if (equals != NULL) check(string, (size_t)(equals - string));
  return real(string);
}
