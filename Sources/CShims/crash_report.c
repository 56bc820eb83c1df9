// SPDX-License-Identifier: GPL-3.0-or-later
// A last word when Reel crashes: on a fatal signal, write a report (version, libraries, what was
// playing, the playback state, the crashing thread and its stack) to a file the user can attach
// to a bug, let a fresh process put the stack's Swift names into words, then die as before.
// The handler only calls what is safe in a signal handler: everything it writes is prepared
// beforehand; backtrace() is warmed up at install (its first call loads libgcc_s);
// backtrace_symbols_fd() writes without allocating; _Fork() runs no atfork handlers.
#define _GNU_SOURCE
#include "CShims.h"
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char report_path[4096];
static char header[2048];
static char media_line[4352];
static char state_line[512];
static char executable[4096];
static char **symbolizer_environment;

static void put(int fd, const char *text) {
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t n = write(fd, text, left);
    if (n <= 0) return;
    text += n;
    left -= (size_t)n;
  }
}

static void put_number(int fd, unsigned long value, unsigned base) {
  char digits[24];
  int i = (int)sizeof digits - 1;
  digits[i] = '\0';
  do { digits[--i] = "0123456789abcdef"[value % base]; value /= base; } while (value && i > 0);
  put(fd, digits + i);
}

static const char *signal_name(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV (invalid memory access)";
  case SIGBUS: return "SIGBUS (bus error)";
  case SIGILL: return "SIGILL (illegal instruction; a Swift runtime check fails this way)";
  case SIGFPE: return "SIGFPE (arithmetic error)";
  case SIGABRT: return "SIGABRT (abort)";
  case SIGTRAP: return "SIGTRAP (trap; a Swift runtime check fails this way)";
  default: return "signal";
  }
}

/* A fresh Reel rewrites the report with the stack's Swift names demangled (main.swift,
 * REEL_SYMBOLIZE_CRASH_REPORT). It gets three seconds; the report stands without it. */
static void symbolize_in_helper(void) {
  if (executable[0] == '\0' || symbolizer_environment == NULL) return;
  pid_t child = _Fork();
  if (child == 0) {
    char *argv[] = {executable, NULL};
    execve(executable, argv, symbolizer_environment);
    _exit(127);
  }
  if (child < 0) return;
  struct timespec pause = {0, 20 * 1000 * 1000};
  for (int waited = 0; waited < 150; waited++) {
    if (waitpid(child, NULL, WNOHANG) == child) return;
    nanosleep(&pause, NULL);
  }
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
}

static volatile sig_atomic_t crashing = 0;

static void on_fatal_signal(int sig, siginfo_t *info, void *context) {
  (void)context;
  // A second fault (in this handler, or another thread's) must not overwrite the first report.
  if (crashing) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  crashing = 1;
  int fd = open(report_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    put(fd, header);
    put(fd, "signal: ");
    put(fd, signal_name(sig));
    if (sig == SIGSEGV || sig == SIGBUS) {
      put(fd, " at address 0x");
      put_number(fd, (unsigned long)info->si_addr, 16);
    }
    put(fd, "\ntime: ");
    put_number(fd, (unsigned long)time(NULL), 10);
    put(fd, "\n");
    put(fd, media_line);
    put(fd, state_line);
    char thread[17] = {0};
    prctl(PR_GET_NAME, thread, 0, 0, 0);
    put(fd, "thread: ");
    put(fd, thread);
    put(fd, gettid() == getpid() ? " (the main thread)\n" : "\n");
    void *frames[64];
    int count = backtrace(frames, G_N_ELEMENTS(frames));
    put(fd, "stack (the signal handler first):\n");
    backtrace_symbols_fd(frames, count, fd);
    close(fd);
    symbolize_in_helper();
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void reel_crash_report_install(const char *path, const char *report_header) {
  g_strlcpy(report_path, path, sizeof report_path);
  g_strlcpy(header, report_header, sizeof header);
  g_strlcpy(media_line, "media: none\n", sizeof media_line);
  g_strlcpy(state_line, "playback: idle\n", sizeof state_line);
  ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
  executable[length > 0 ? length : 0] = '\0';
  gchar **environment = g_get_environ();
  symbolizer_environment = g_environ_setenv(environment, "REEL_SYMBOLIZE_CRASH_REPORT", path, TRUE);
  void *warm_up[1];
  backtrace(warm_up, 1);
  int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
  for (size_t i = 0; i < G_N_ELEMENTS(signals); i++) {
    struct sigaction action = {0};
    action.sa_sigaction = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_SIGINFO;
    sigaction(signals[i], &action, NULL);
  }
}

// Called on the main thread as playback changes. A crash in the middle of an update can
// report a torn line; that is accepted for a best-effort report.
void reel_crash_report_set_context(const char *media, const char *state) {
  g_snprintf(media_line, sizeof media_line, "media: %s\n", media);
  g_snprintf(state_line, sizeof state_line, "playback: %s\n", state);
}
