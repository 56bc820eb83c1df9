// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import PackagePlugin

/// Generates `ProjectInfo.swift` for the target from meson.build, the one place the version and
/// the application id are written: `ProjectInfo.version` and `ProjectInfo.appID`. Meson builds
/// Reel through SwiftPM, so both builds read the same source. `ProjectInfo.sourceRoot` is the
/// package's folder, so a Reel run from its build tree finds the data built there.
@main
struct ProjectInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let meson = context.package.directoryURL.appending(path: "meson.build")
        let output = context.pluginWorkDirectoryURL.appending(path: "ProjectInfo.swift")
        // The first `version: '…'` (the project's) and `app_id = '…'` of meson.build.
        let script = """
            version=$(sed -n "s/^ *version: *'\\\\([^']*\\\\)'.*/\\\\1/p" "$1" | head -n 1)
            app_id=$(sed -n "s/^app_id *= *'\\\\([^']*\\\\)'.*/\\\\1/p" "$1" | head -n 1)
            [ -n "$version" ] && [ -n "$app_id" ] || { echo "ProjectInfo: no version or app_id in $1" >&2; exit 1; }
            printf '// Generated from meson.build by the ProjectInfo plugin.\\nenum ProjectInfo {\\n    static let version = "%s"\\n    static let appID = "%s"\\n    static let sourceRoot = "%s"\\n}\\n' "$version" "$app_id" "$3" > "$2"
            """
        return [.buildCommand(displayName: "Reading the version and app id from meson.build",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "sh", meson.path, output.path, context.package.directoryURL.path],
                              inputFiles: [meson], outputFiles: [output])]
    }
}
