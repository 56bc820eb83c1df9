// SPDX-License-Identifier: GPL-3.0-or-later
#include "CShims.h"

#include <libintl.h>
#include <locale.h>

static const char *reel_domain = "reel";

void reel_i18n_init(const char *domain, const char *localedir) {
  reel_domain = g_intern_string(domain);
  setlocale(LC_ALL, "");
  bindtextdomain(domain, localedir);
  bind_textdomain_codeset(domain, "UTF-8");
  textdomain(domain);
}
const char *reel_gettext(const char *msgid) { return dgettext(reel_domain, msgid); }
const char *reel_ngettext(const char *msgid, const char *plural, unsigned long n) {
    return dngettext(reel_domain, msgid, plural, n);
}
const char *reel_dgettext(const char *domain, const char *msgid) { return dgettext(domain, msgid); }
