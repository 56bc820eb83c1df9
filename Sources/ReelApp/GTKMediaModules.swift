// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// GTK's start-up loads each of its media modules to learn what it provides, as GIO does for a
/// module folder with no `giomodule.cache` (Debian's GTK 4.8 ships none): for GStreamer's, that
/// is GStreamer's GL library and libGL, which Reel, drawing its own frames, never uses. Reel's
/// folder of GTK modules lists that module in a cache of its own, so GIO registers it without
/// loading it, and the system's copy of the same name is then skipped. The folder comes first in
/// GTK_PATH only while GTK starts: programs Reel starts get the user's GTK_PATH back.
/// Workaround (Debian 12's GTK 4.8 package): goes when GTK's media modules come with a
/// giomodule.cache, or GTK loads them on demand.
@MainActor
enum GTKMediaModules {
    /// The user's GTK_PATH while Reel's folder is in it: .some(nil) when they had none.
    private static var userPath: String??

    /// Runs before GTK starts, and before any other thread does (see main.swift).
    static func registerLazilyWhileGTKStarts() {
        let folder = BuildInfo.gtkModulesDirectory
        // Without GTK's module installed (libgtk-4-media-gstreamer) the link leads nowhere, and
        // a cache naming it would have GTK warn that it failed to load it: nothing to skip then.
        guard FileManager.default.fileExists(atPath: folder + "/4.0.0/media/giomodule.cache"),
              FileManager.default.fileExists(atPath: folder + "/4.0.0/media/libmedia-gstreamer.so") else { return }
        let user = getenv("GTK_PATH").map { String(cString: $0) }
        userPath = .some(user)
        setenv("GTK_PATH", [folder, user].compactMap { $0 }.joined(separator: ":"), 1)
    }

    /// Runs once GTK has started, with other threads about: safe there because GTK_PATH is then
    /// set, and glibc replaces or removes a name in place, freeing nothing a reader may hold.
    static func restoreUserPath() {
        guard case .some(let user) = userPath else { return }
        if let user { setenv("GTK_PATH", user, 1) } else { unsetenv("GTK_PATH") }
        userPath = nil
    }
}
