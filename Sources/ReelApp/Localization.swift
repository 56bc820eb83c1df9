// SPDX-License-Identifier: GPL-3.0-or-later
import CShims
import ReelCore

/// Sets up gettext for `domain` with catalogs under `localeDirectory` and makes `tr`/`trn`
/// (in ReelCore, where every layer finds them) translate through it.
func setUpLocalization(domain: String, localeDirectory: String) {
    reel_i18n_init(domain, localeDirectory)
    // gettext returns its argument when there is no translation: read it while it is alive.
    Translator.translate = { message in message.withCString { String(cString: reel_gettext($0)) } }
    Translator.translatePlural = { singular, plural, count in
        singular.withCString { one in
            plural.withCString { many in String(cString: reel_ngettext(one, many, UInt(max(0, count)))) }
        }
    }
}
