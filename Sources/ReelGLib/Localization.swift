import CShims

/// Translates a user-visible string through gettext (domain `reel`). xgettext finds the
/// strings by this function's name (`--keyword=tr`).
public func tr(_ message: String) -> String {
    String(cString: reel_gettext(message))
}

/// Plural-aware translation: `trn("%d item", "%d items", n)`, then format.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    String(cString: reel_ngettext(singular, plural, UInt(max(count, 0))))
}

/// Sets up gettext for `domain` with catalogs under `localeDirectory`.
public func setUpLocalization(domain: String, localeDirectory: String) {
    reel_i18n_init(domain, localeDirectory)
}
