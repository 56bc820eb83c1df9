// SPDX-License-Identifier: GPL-3.0-or-later
/// Translates a user-visible string. xgettext finds the strings by these functions' names
/// (`--keyword=tr --keyword=trn:1,2`, see meson_helpers/update-po). The model has no gettext of
/// its own: the app installs one in `Translator` at start-up; until then strings stay English.
public func tr(_ message: String) -> String { Translator.translate(message) }

/// The singular or plural form of a message for `count`, following the locale's plural rules.
public func trn(_ singular: String, _ plural: String, _ count: Int) -> String {
    Translator.translatePlural(singular, plural, count)
}

public enum Translator {
    // Set once on the main thread before any window or engine exists, then only read.
    nonisolated(unsafe) public static var translate: (String) -> String = { $0 }
    nonisolated(unsafe) public static var translatePlural: (String, String, Int) -> String = { $2 == 1 ? $0 : $1 }
}
