import CShims

/// Translates a user-visible string through gettext (domain `reel`). xgettext finds the
/// strings by this function's name (`--keyword=tr`).
public func tr(_ message: String) -> String {
    // gettext returns its argument when there is no translation: read it while it is alive.
    message.withCString { String(cString: reel_gettext($0)) }
}

/// Plural-aware translation: `trn("%d item", "%d items", n)`, then format.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    singular.withCString { s in
        plural.withCString { p in String(cString: reel_ngettext(s, p, UInt(max(count, 0)))) }
    }
}

/// Sets up gettext for `domain` with catalogs under `localeDirectory`.
public func setUpLocalization(domain: String, localeDirectory: String) {
    reel_i18n_init(domain, localeDirectory)
}
