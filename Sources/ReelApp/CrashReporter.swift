import CShims
import Foundation
import ReelCore
import ReelGLib

/// On a fatal signal Reel writes a short report — its version, the media playing and the
/// playback state — to `$XDG_STATE_HOME/reel/crash/crash-<time>-<pid>.txt`, for the user to
/// attach to a bug. The signal handler is C (async-signal-safe); this keeps its context current.
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
        reel_crash_report_install(path, BuildInfo.version)
        model.observe { change in
            switch change {
            case .item, .status, .rate, .seeked: update(model)
            default: break
            }
        }
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
