import CShims

/// Translates a user-visible string through gettext (domain `reel`). xgettext finds the
/// strings by this function's name (`--keyword=tr`).
public func tr(_ message: String) -> String {
    // gettext returns its argument when there is no translation: read it while it is alive.
    message.withCString { String(cString: reel_gettext($0)) }
}

/// Sets up gettext for `domain` with catalogs under `localeDirectory`.
public func setUpLocalization(domain: String, localeDirectory: String) {
    reel_i18n_init(domain, localeDirectory)
}
