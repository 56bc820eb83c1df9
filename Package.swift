// swift-tools-version: 6.0
// Reel: a GTK 4 + GStreamer video player. The targets follow the data flow:
//   C system libraries + CShims  →  ReelGLib (ownership, signals, main loop)
//   ReelCore (pure Swift model)  ←  ReelEngine (GstPlay, frames)  →  ReelMPRIS, ReelApp
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
        systemLibrary("CGstPbutils", "gstreamer-pbutils-1.0", "libgstreamer-plugins-base1.0-dev"),
        systemLibrary("CDBus", "dbus-1", "libdbus-1-dev"),
        .target(
            name: "CShims",
            dependencies: ["CGio", "CGtk", "CGStreamer", "CGstVideo", "CGstApp"],
            linkerSettings: [.linkedLibrary("dispatch")]),

        .target(name: "ReelCore"),
        .target(name: "ReelGLib", dependencies: ["ReelCore", "CGio", "CShims"]),
        .target(
            name: "ReelEngine",
            dependencies: ["ReelCore", "ReelGLib", "CShims", "CGio", "CGtk", "CGStreamer",
                           "CGstPlay", "CGstApp", "CGstVideo", "CGstPbutils"]),
        .target(name: "ReelMPRIS", dependencies: ["ReelCore", "ReelGLib", "CGio"]),
        .executableTarget(
            name: "reel",
            dependencies: ["ReelCore", "ReelGLib", "ReelEngine", "ReelMPRIS", "CShims", "CGio",
                           "CGtk", "CAdwaita"],
            path: "Sources/ReelApp"),

        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore"]),
        .testTarget(name: "ReelGLibTests", dependencies: ["ReelGLib", "CGio"]),
        .testTarget(name: "ReelEngineTests", dependencies: ["ReelEngine", "ReelCore", "ReelGLib", "CGStreamer"]),
        .testTarget(name: "ReelAppTests", dependencies: ["CDBus"], exclude: ["Fixtures"]),
    ]
)
