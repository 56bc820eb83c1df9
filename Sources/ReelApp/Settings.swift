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

    // Clamped again, to the model's own limits: the schema's ranges are GSettings' business.
    var skipInterval: Seconds { Seconds(clamped(int("skip-interval", 10), 1, 300)) }
    var minimizeAction: MinimizeAction { MinimizeAction(rawValue: string("minimize-action")) ?? .keepPlaying }
    var closeAction: CloseAction { CloseAction(rawValue: string("close-action")) ?? .quit }
    var rate: Double { clamped(double("rate", 1), PlayerModel.rateRange.lowerBound, PlayerModel.rateRange.upperBound) }
    var volume: Double { clamped(double("volume", 1), 0, 1) }
    var continueAfterErrors: Bool { bool("continue-after-errors", true) }
    var resumePlayback: Bool { bool("resume-playback", true) }
    var repeatEach: Int {
        clamped(int("repeat-each", 1), PlayerModel.repeatRange.lowerBound, PlayerModel.repeatRange.upperBound)
    }
    var gap: Seconds { clamped(double("gap", 0), PlayerModel.gapRange.lowerBound, PlayerModel.gapRange.upperBound) }

    /// Calls `handler` whenever one of `keys` changes (in preferences, or from outside with gsettings).
    func observe(_ keys: [String], _ handler: @escaping @MainActor () -> Void) {
        guard let settings else { return }
        for key in keys { connectMainSignal(settings, "changed::\(key)") { _ in handler() } }
    }

    func setRate(_ value: Double) { set("rate", g_variant_new_double(value)) }
    func setString(_ key: String, _ value: String) { set(key, g_variant_new_string(value)) }

    /// Keeps a widget property and a key in step, both ways.
    func bind(_ key: String, to widget: Widget, property: String) {
        guard let settings else { gtk_widget_set_sensitive(widget, 0); return }
        g_settings_bind(settings, key, UnsafeMutableRawPointer(widget), property, G_SETTINGS_BIND_DEFAULT)
    }
    func setVolume(_ value: Double) { set("volume", g_variant_new_double(value)) }

    private func clamped<T: Comparable>(_ value: T, _ low: T, _ high: T) -> T { min(max(value, low), high) }

    private func int(_ key: String, _ fallback: Int) -> Int { settings.map { Int(g_settings_get_int($0, key)) } ?? fallback }
    private func double(_ key: String, _ fallback: Double) -> Double {
        guard let settings else { return fallback }
        let value = g_settings_get_double(settings, key)
        return value.isFinite ? value : fallback
    }
    private func bool(_ key: String, _ fallback: Bool) -> Bool { settings.map { g_settings_get_boolean($0, key) != 0 } ?? fallback }
    func string(_ key: String) -> String { settings.flatMap { takeString(g_settings_get_string($0, key)) } ?? "" }
    private func set(_ key: String, _ value: OpaquePointer) {
        guard let settings else { g_variant_unref(g_variant_ref_sink(value)); return }
        _ = g_settings_set_value(settings, key, value)
    }
}
