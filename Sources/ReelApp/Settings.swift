// SPDX-License-Identifier: GPL-3.0-or-later
import CGio
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// Reel's GSettings (schema `org.reelplayer.Reel`). Installed, the schema is found the usual way;
/// running from the source tree, in `.build/schemas` (made by meson_helpers/build-data). Without
/// a schema the defaults apply and nothing is remembered — Reel still plays.
@MainActor
final class Settings {
    /// The choices of `SettingKey.minimizeAction` and `.closeAction`.
    enum MinimizeAction: String { case keepPlaying = "keep-playing", pause }
    enum CloseAction: String { case quit, keepPlaying = "keep-playing" }

    private let settings: UnsafeMutablePointer<GSettings>?

    init(schemaID: String) {
        settings = Self.open(schemaID)
        if settings == nil { Log.warning("settings schema \(schemaID) not found; using defaults, nothing will be saved") }
        warnAboutIgnoredValues()
    }

    /// GSettings answers the default for a stored value of the wrong type or out of range,
    /// silently; the user who edited it should learn why it has no effect.
    private func warnAboutIgnoredValues() {
        guard let settings, let ignored = reel_settings_ignored_values(settings) else { return }
        defer { g_strfreev(ignored) }
        var entry = ignored
        while let text = entry.pointee {
            let parts = String(cString: text).split(separator: "=", maxSplits: 1).map(String.init)
            Log.warning("setting “\(parts[0])” holds \(parts.count > 1 ? parts[1] : ""), which it does not allow; using its default")
            entry += 1
        }
    }

    private static func open(_ id: String) -> UnsafeMutablePointer<GSettings>? {
        if let source = g_settings_schema_source_get_default(), let schema = g_settings_schema_source_lookup(source, id, 1) {
            defer { g_settings_schema_unref(schema) }
            return g_settings_new_full(schema, nil, nil)
        }
        guard let dir = BuildInfo.uninstalledSchemaDirectory,
              FileManager.default.fileExists(atPath: dir + "/gschemas.compiled") else { return nil }
        var error: UnsafeMutablePointer<GError>?
        guard let source = g_settings_schema_source_new_from_directory(dir, g_settings_schema_source_get_default(), 0, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_settings_schema_source_unref(source) }
        guard let schema = g_settings_schema_source_lookup(source, id, 0) else { return nil }
        defer { g_settings_schema_unref(schema) }
        return g_settings_new_full(schema, nil, nil)
    }

    // Clamped again, to SettingKey's ranges: what GSettings allows is the schema's business.
    /// The schema's default, for when there are no settings to read.
    static let defaultSkipInterval = 10
    var skipInterval: Seconds { Seconds(int(.skipInterval, Self.defaultSkipInterval)) }
    var minimizeAction: MinimizeAction { MinimizeAction(rawValue: string(.minimizeAction)) ?? .keepPlaying }
    var closeAction: CloseAction { CloseAction(rawValue: string(.closeAction)) ?? .quit }
    var rate: Double { double(.rate, 1) }
    var volume: Double { double(.volume, 1) }
    var continueAfterErrors: Bool { bool(.continueAfterErrors, true) }
    var recurseFolders: Bool { bool(.recurseFolders, true) }
    var resumePlayback: Bool { bool(.resumePlayback, true) }
    var nightMode: Bool { bool(.nightMode, false) }
    var repeatEach: Int { int(.repeatEach, 1) }
    var gap: Seconds { double(.gap, 0) }
    var lineMargins: (leadIn: Seconds, leadOut: Seconds) {
        (double(.lineLeadIn, PlayerModel.defaultLineLeadIn), double(.lineLeadOut, PlayerModel.defaultLineLeadOut))
    }

    /// Calls `handler` whenever one of `keys` changes (in preferences, or from outside with gsettings).
    func observe(_ keys: [SettingKey], _ handler: @escaping @MainActor () -> Void) {
        guard let settings else { return }
        for key in keys { connectMainSignal(settings, "changed::\(key.rawValue)") { _ in handler() } }
    }

    func setRate(_ value: Double) { set(.rate, g_variant_new_double(value)) }
    func setVolume(_ value: Double) { set(.volume, g_variant_new_double(value)) }
    func setString(_ key: SettingKey, _ value: String) { set(key, g_variant_new_string(value)) }

    /// A stateful action that reads and writes a boolean key (menus show it checked); nil
    /// without settings.
    func action(_ key: SettingKey) -> OpaquePointer? {
        settings.map { g_settings_create_action($0, key.rawValue) }
    }

    /// Keeps an object's property and a key in step, both ways.
    func bind(_ key: SettingKey, to object: UnsafeMutableRawPointer, property: String) {
        guard let settings else { return }
        g_settings_bind(settings, key.rawValue, object, property, G_SETTINGS_BIND_DEFAULT)
    }

    /// A widget's property and a key in step; without settings the widget is insensitive.
    func bind(_ key: SettingKey, to widget: Widget, property: String) {
        guard settings != nil else { gtk_widget_set_sensitive(widget, 0); return }
        bind(key, to: UnsafeMutableRawPointer(widget), property: property)
    }

    private func clamped(_ value: Double, to key: SettingKey) -> Double {
        guard let range = key.range else { return value }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    private func int(_ key: SettingKey, _ fallback: Int) -> Int {
        guard let settings else { return fallback }
        return Int(clamped(Double(g_settings_get_int(settings, key.rawValue)), to: key))
    }
    private func double(_ key: SettingKey, _ fallback: Double) -> Double {
        guard let settings else { return fallback }
        let value = g_settings_get_double(settings, key.rawValue)
        return value.isFinite ? clamped(value, to: key) : fallback
    }
    private func bool(_ key: SettingKey, _ fallback: Bool) -> Bool {
        settings.map { g_settings_get_boolean($0, key.rawValue) != 0 } ?? fallback
    }
    func string(_ key: SettingKey) -> String { settings.flatMap { takeString(g_settings_get_string($0, key.rawValue)) } ?? "" }
    private func set(_ key: SettingKey, _ value: OpaquePointer) {
        guard let settings else { g_variant_unref(g_variant_ref_sink(value)); return }
        _ = g_settings_set_value(settings, key.rawValue, value)
    }
}
