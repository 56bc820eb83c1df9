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

    /// The source tree when running from it (`swift run reel`): the folder holding Package.swift.
    static let sourceTree: URL? = {
        var dir = executableDirectory
        for _ in 0..<5 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { return dir }
            dir.deleteLastPathComponent()
        }
        return nil
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

    /// Where the compiled GSettings schema is when running uninstalled (nil when installed).
    static var uninstalledSchemaDirectory: String? {
        sourceTree.map { $0.appendingPathComponent(".build/schemas").path }
    }
}
