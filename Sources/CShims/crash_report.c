// A last word when Reel crashes: on a fatal signal, write a short report (version, what was
// playing, the playback state) to a file the user can attach to a bug, then die as before.
// Everything the handler does is async-signal-safe: the path and the context are prepared
// beforehand, and it only calls open, write, close, signal and raise.
#include "CShims.h"
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char report_path[4096];
static char version_line[256];
static char media_line[4352];
static char state_line[512];

static void put(int fd, const char *text) {
  size_t left = strlen(text);
  while (left > 0) {
    ssize_t n = write(fd, text, left);
    if (n <= 0) return;
    text += n;
    left -= (size_t)n;
  }
}

static void put_number(int fd, long value) {
  char digits[24];
  int i = (int)sizeof digits - 1;
  int negative = value < 0;
  unsigned long v = negative ? (unsigned long)(-value) : (unsigned long)value;
  digits[i] = '\0';
  do { digits[--i] = (char)('0' + v % 10); v /= 10; } while (v && i > 1);
  if (negative) digits[--i] = '-';
  put(fd, digits + i);
}

static void on_fatal_signal(int sig) {
  int fd = open(report_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    put(fd, version_line);
    put(fd, "signal: ");
    put_number(fd, sig);
    put(fd, "\ntime: ");
    put_number(fd, (long)time(NULL));
    put(fd, "\n");
    put(fd, media_line);
    put(fd, state_line);
    close(fd);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void reel_crash_report_install(const char *path, const char *version) {
  g_strlcpy(report_path, path, sizeof report_path);
  g_snprintf(version_line, sizeof version_line, "Reel %s crashed\n", version);
  g_strlcpy(media_line, "media: none\n", sizeof media_line);
  g_strlcpy(state_line, "playback: idle\n", sizeof state_line);
  int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < G_N_ELEMENTS(signals); i++) {
    struct sigaction action = {0};
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND;
    sigaction(signals[i], &action, NULL);
  }
}

// Called on the main thread as playback changes. A crash in the middle of an update can
// report a torn line; that is accepted for a best-effort report.
void reel_crash_report_set_context(const char *media, const char *state) {
  g_snprintf(media_line, sizeof media_line, "media: %s\n", media);
  g_snprintf(state_line, sizeof state_line, "playback: %s\n", state);
}
