// SPDX-License-Identifier: GPL-3.0-or-later
import CAdwaita
import CGStreamer
import CGtk
import CShims
import Foundation
import ReelCore
import ReelGLib

/// On a fatal signal Reel writes a report — its version and its libraries', the media playing,
/// the playback state, the crashing thread and its stack — to
/// `$XDG_STATE_HOME/reel/crash/crash-<time>-<pid>.txt`, for the user to attach to a bug. The
/// signal handler is C (async-signal-safe); this keeps its context current, and, run again by
/// the handler as a helper process, demangles the stack's Swift names.
@MainActor
enum CrashReporter {
    static var directory: String { (StateFile.named("crash").path as NSString).standardizingPath }

    static func install(model: PlayerModel) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            Log.warning("crash reports are off: \(directory) could not be made: \(error)")
            return
        }
        let path = directory + "/crash-\(Int(Date().timeIntervalSince1970))-\(getpid()).txt"
        reel_crash_report_install(path, header)
        model.observe { change in
            switch change {
            case .item, .status, .rate, .seeked: update(model)
            default: break
            }
        }
    }

    private static var header: String {
        let gstreamer = takeString(gst_version_string()) ?? "GStreamer ?"
        return "\(BuildInfo.name) \(BuildInfo.version) crashed\n" +
            "libraries: \(gstreamer), GTK \(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version()), " +
            "libadwaita \(adw_get_major_version()).\(adw_get_minor_version()).\(adw_get_micro_version()), " +
            "GLib \(glib_major_version).\(glib_minor_version).\(glib_micro_version)\n"
    }

    private static func update(_ model: PlayerModel) {
        let media = model.currentItem?.uri ?? "none"
        var state = "\(model.status)"
        if model.currentItem != nil {
            state += String(format: " at %.1f s of %@, rate %.2f", model.position,
                            model.duration.map { String(format: "%.1f s", $0) } ?? "unknown", model.rate)
        }
        reel_crash_report_set_context(media, state)
    }
}

/// The helper process's job: each stack line `module(symbol+offset) [address]` whose symbol is a
/// mangled Swift name gets the name in words after it. The report is rewritten atomically.
enum CrashReportSymbolizer {
    static func run(report path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard let open = line.firstIndex(of: "("), let end = line[open...].firstIndex(where: { $0 == "+" || $0 == ")" }) else {
                return String(line)
            }
            let symbol = String(line[line.index(after: open)..<end])
            guard let words = demangle(symbol) else { return String(line) }
            return "\(line)\n    = \(words)"
        }
        try? lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    private static func demangle(_ symbol: String) -> String? {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return nil }
        guard let words = swift_demangle(symbol, symbol.utf8.count, nil, nil, 0) else { return nil }
        defer { free(words) }
        return String(cString: words)
    }
}

/// The Swift runtime's demangler (libswiftCore exports it; it has no Swift declaration).
@_silgen_name("swift_demangle")
private func swift_demangle(_ mangledName: UnsafePointer<CChar>?, _ length: Int, _ outputBuffer: UnsafeMutablePointer<CChar>?,
                            _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32) -> UnsafeMutablePointer<CChar>?
