// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// Identifiers and where Reel finds its data, installed or running from the build tree.
enum BuildInfo {
    static let appID = ProjectInfo.appID
    static let version = ProjectInfo.version
    static let gettextDomain = "reel"
    static let name = "Reel"

    /// The executable's directory (`…/bin` when installed, `.build/<triple>/debug` in the build tree).
    private static let executableDirectory: URL = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }()

    /// The source tree when running from its build folder (`swift run reel`).
    static let sourceTree: URL? = {
        let root = URL(fileURLWithPath: ProjectInfo.sourceRoot).resolvingSymlinksInPath()
        return executableDirectory.path.hasPrefix(root.appendingPathComponent(".build").path + "/") ? root : nil
    }()

    /// `<prefix>/share` for an installed Reel.
    private static var installedShare: URL {
        executableDirectory.deletingLastPathComponent().appendingPathComponent("share")
    }

    static var localeDirectory: String {
        if let dir = ProcessInfo.processInfo.environment["REEL_LOCALEDIR"] { return dir }
        if let tree = sourceTree { return tree.appendingPathComponent(".build/locale").path }
        return installedShare.appendingPathComponent("locale").path
    }

    /// Reel's folder of GTK modules (`GTKMediaModules`): `<prefix>/lib/reel/gtk` when installed.
    static var gtkModulesDirectory: String {
        if let tree = sourceTree { return tree.appendingPathComponent(".build/gtk").path }
        return executableDirectory.deletingLastPathComponent().appendingPathComponent("lib/reel/gtk").path
    }

    /// The compiled GResource of the `.ui` files (data/org.reelplayer.Reel.gresource.xml).
    static var resourceFile: String {
        let name = "\(appID).gresource"
        if let tree = sourceTree { return tree.appendingPathComponent(".build/resources/\(name)").path }
        return installedShare.appendingPathComponent("reel/\(name)").path
    }

    /// Where the compiled GSettings schema is when running uninstalled (nil when installed).
    static var uninstalledSchemaDirectory: String? {
        sourceTree.map { $0.appendingPathComponent(".build/schemas").path }
    }
}
