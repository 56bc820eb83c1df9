// swift-tools-version: 6.0
// SPDX-License-Identifier: GPL-3.0-or-later
// Reel: a GTK 4 + GStreamer video player. The targets, each depending only on those above it:
//   the C system libraries; CGLibShims → ReelGLib (ownership, signals, the main loop);
//   CShims and CDiagnostics (the C Swift cannot write)
//   ReelCore (the pure Swift model) ← ReelEngine (GstPlay, frames) and ReelMPRIS (the model on D-Bus)
//   ReelDiagnostics (the tests' window into a running Reel) ← reel (Sources/ReelApp: the app)
import PackageDescription

/// One system library target per pkg-config module, each a module map over that library's headers.
func systemLibrary(_ name: String, _ pkg: String, _ apt: String) -> Target {
    .systemLibrary(name: name, path: "Sources/CLibraries/\(name)", pkgConfig: pkg,
                   providers: [.apt([apt])])
}

let package = Package(
    name: "Reel",
    targets: [
        systemLibrary("CGio", "gio-2.0", "libglib2.0-dev"),
        systemLibrary("CGtk", "gtk4", "libgtk-4-dev"),
        systemLibrary("CAdwaita", "libadwaita-1", "libadwaita-1-dev"),
        systemLibrary("CGStreamer", "gstreamer-1.0", "libgstreamer1.0-dev"),
        systemLibrary("CGstPlay", "gstreamer-play-1.0", "libgstreamer-plugins-bad1.0-dev"),
        systemLibrary("CGstApp", "gstreamer-app-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGstVideo", "gstreamer-video-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGstAudio", "gstreamer-audio-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CGstPbutils", "gstreamer-pbutils-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CDBus", "dbus-1", "libdbus-1-dev"),
        systemLibrary("CTotemPlParser", "totem-plparser", "libtotem-plparser-dev"),
        .target(name: "CGLibShims", dependencies: ["CGio"], linkerSettings: [.linkedLibrary("dispatch")]),
        .target(name: "CShims", dependencies: ["CGLibShims", "CGio", "CGtk", "CGStreamer", "CGstVideo", "CGstApp", "CGstAudio",
                                               "CTotemPlParser"]),
        .target(name: "CDiagnostics", dependencies: ["CGtk", "CGStreamer"]),

        .target(name: "ReelCore"),
        .target(name: "ReelGLib", dependencies: ["CGio", "CGLibShims"]),
        .target(
            name: "ReelEngine",
            dependencies: ["ReelCore", "ReelGLib", "CShims", "CGio", "CGtk", "CGStreamer",
                           "CGstPlay", "CGstApp", "CGstVideo", "CGstPbutils"]),
        .target(name: "ReelMPRIS", dependencies: ["ReelCore", "ReelGLib", "CGio"]),
        // The tests' window into a running Reel, registered only when REEL_DEBUG_DBUS is set.
        .target(name: "ReelDiagnostics", dependencies: ["ReelCore", "ReelGLib", "ReelEngine", "CDiagnostics", "CGio", "CGtk"]),
        .executableTarget(
            name: "reel",
            dependencies: ["ReelCore", "ReelGLib", "ReelEngine", "ReelMPRIS", "ReelDiagnostics", "CShims", "CGio",
                           "CGtk", "CAdwaita", "CGStreamer"],
            path: "Sources/ReelApp",
            // Crash reports name Reel's own functions in their stacks (dladdr sees exported symbols only).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])],
            plugins: ["ProjectInfo"]),

        // The version and application id, from meson.build.
        .plugin(name: "ProjectInfo", capability: .buildTool(), path: "meson_helpers/ProjectInfo"),

        // A scripted engine and a manual clock, for tests of the model and of what observes it.
        .target(name: "ReelModelTestSupport", dependencies: ["ReelCore"], path: "Tests/ReelModelTestSupport"),
        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore", "ReelModelTestSupport"]),
        .testTarget(name: "ReelMPRISTests", dependencies: ["ReelMPRIS", "ReelCore", "ReelGLib", "ReelModelTestSupport", "ReelTestSupport", "CGio"]),
        .testTarget(name: "ReelGLibTests", dependencies: ["ReelGLib", "CGio"]),
        // What the test targets share: the package's paths and test media, waiting on a condition.
        .target(name: "ReelTestSupport", path: "Tests/ReelTestSupport"),
        .testTarget(name: "ReelEngineTests", dependencies: ["ReelEngine", "ReelCore", "ReelGLib", "ReelDiagnostics", "CGStreamer",
                                                           "CGstAudio", "CGtk", "CShims", "ReelTestSupport"]),
        .testTarget(name: "ReelAppTests", dependencies: ["CDBus", "ReelTestSupport"], exclude: ["Fixtures"]),
    ]
)
