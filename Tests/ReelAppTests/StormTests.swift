// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import ReelTestSupport
import XCTest

/// Random but ordinary input against one Reel, every 10–90 ms, for REEL_STORM_SECONDS (120):
/// keys, window resizes, minimize and restore, clicks, MPRIS calls, drops of good and broken
/// files, and the menus and dialogs; over a queue that mixes formats and broken files. Reel must
/// never crash, must answer a D-Bus call within a second, every second, and must still play at
/// the end. A failing run prints its seed (REEL_FUZZ_SEED repeats the same actions; timing
/// still varies) and its last 50 actions.
final class StormTests: XCTestCase {
    static var seconds: Double { Double(ProcessInfo.processInfo.environment["REEL_STORM_SECONDS"] ?? "") ?? 120 }

    static let goodFiles = RateAcrossFormatsTests.mixedFiles + ["clip-h264.mp4", "clip-vp9.webm", "short-1.webm", "tone-30s.webm",
                                                                "subtitled.mkv", "audio-only.ogg"]
    static let brokenFiles = ["random.mp4", "text.mkv", "truncated.mp4", "empty.mp4", "no-such-file.mp4"]
    static let keys = ["space", "Left", "Right", "shift+Left", "shift+Right", "bracketleft", "bracketright", "BackSpace",
                       "n", "p", "f", "m", "Home", "End", "F9", "Escape", "Up", "Down",
                       // menus and dialogs: preferences, shortcuts, open location, open file, the main menu
                       "ctrl+comma", "ctrl+question", "ctrl+l", "ctrl+o", "F10"]

    func testRandomInputNeverCrashesOrHangsReel() throws {
        let seed = FuzzTests.seed()
        var rng = SplitMix(seed: seed)
        print("storm seed \(seed), \(Self.seconds) s on the \(Desktop.current.name) desktop")
        func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
        func uri(_ name: String) -> String { Paths.mediaURI(name) }

        let queue = (Self.goodFiles + Self.brokenFiles).shuffled(using: &rng)
        let app = try ReelApp(["--rate=1.8"] + queue.map(Paths.media))
        let dragSource = try Fixture("drag-source.py", [uri(pick(Self.goodFiles)), uri(pick(Self.brokenFiles)), uri(pick(Self.goodFiles))])
        _ = app.windowID
        app.placeBesideDragSource("Reel drag source")
        let monitor = ResponsivenessMonitor()
        defer { monitor.stop() }
        var log: [String] = []
        func record(_ action: String) {
            log.append(String(format: "%7.2f s  %@", -monitor.started.timeIntervalSinceNow, action))
            if log.count > 50 { log.removeFirst() }
        }
        func failure(_ what: String) -> String {
            "\(what) (seed \(seed); replay with REEL_FUZZ_SEED=\(seed)). Last actions:\n\(log.joined(separator: "\n"))\n" +
                "\(app.crashReports)\nReel's output:\n\(app.output.suffix(2000))"
        }

        var actions = 0
        let end = Date().addingTimeInterval(Self.seconds)
        while Date() < end {
            switch rng.next() % 20 {
            case 0..<8:
                let key = pick(Self.keys)
                record("key \(key)")
                app.pressKey(key)
            case 8:
                let (width, height) = (360 + Int(rng.next() % 1140), 300 + Int(rng.next() % 650))
                record("resize \(width)×\(height)")
                app.requestSize(width: width, height: height)
            case 9:
                record("minimize")
                app.requestMinimize()
            case 10:
                record("restore")
                app.restore()
            case 11, 12:
                let (x, y) = (Double(rng.next() % 1000) / 1000, Double(rng.next() % 1000) / 1000)
                record(String(format: "click at %.2f, %.2f", x, y))
                app.clickBesideTheCloseButton(x: x, y: y)
            case 13:
                let files = Self.goodFiles + Self.brokenFiles
                let file = pick(files)
                record("MPRIS OpenUri \(file)")
                try? app.player("OpenUri", [.string(uri(file))])
            case 14:
                let rate = pick([0.5, 0.75, 1, 1.15, 1.5, 1.8, 2, 3])
                record("MPRIS Rate \(rate)")
                try? app.setProperty("Rate", .variantDouble(rate))
            case 15:
                let offset = Int64(rng.next() % 40_000_000) - 20_000_000
                record("MPRIS Seek \(offset / 1000) ms")
                try? app.player("Seek", [.int64(offset)])
            case 16:
                let method = pick(["Next", "Previous", "PlayPause", "Play", "Pause"])
                record("MPRIS \(method)")
                try? app.player(method)
            case 17:
                let volume = Double(30 + rng.next() % 71) / 100
                record("MPRIS Volume \(volume)")
                try? app.setProperty("Volume", .variantDouble(volume))
            case 18:
                record("drop files")
                app.dragFromSource("Reel drag source")
            default:
                let action = pick(["app.preferences", "app.about", "win.show-help-overlay", "app.open-location", "app.show-queue",
                                   "app.toggle-fullscreen", "app.next", "app.previous"])
                record("action \(action)")
                app.activateQuietly(action)
            }
            actions += 1
            Thread.sleep(forTimeInterval: Double(10 + rng.next() % 81) / 1000)  // input pacing, not a wait
            if !app.process.isRunning { return XCTFail(failure("Reel died after \(actions) actions, status \(app.process.terminationStatus)")) }
            if let late = monitor.firstLateAnswer {
                return XCTFail(failure("Reel took \(late) to answer a D-Bus call") + "\nReel's threads:\n\(app.threadStacks)")
            }
        }
        monitor.stop()
        print(String(format: "storm: %d actions in %.0f s, %d D-Bus checks, slowest answer %.0f ms", actions, Self.seconds,
                     monitor.checks, monitor.slowest * 1000))
        XCTAssertGreaterThan(monitor.checks, Int(Self.seconds * 0.8), "the responsiveness check ran every second")
        withExtendedLifetime(dragSource) {}

        // Calm: dialogs closed, the window back and not fullscreen; then it must still play.
        record("calm down")
        app.closeDialogs(thenByTheWindowManager: true)
        app.restore()
        app.activateQuietly("app.leave-fullscreen")
        try? app.setProperty("Volume", .variantDouble(1))
        try RateAcrossFormatsTests.assertStillPlays(app, rate: nil)
        _ = app.screenshot("storm-end")
        if !app.process.isRunning { XCTFail(failure("Reel died after the storm")) }
    }
}

/// Asks Reel for its playback status once a second, from a thread and a bus connection of its
/// own, and keeps the first answer that took longer than a second (or never came).
final class ResponsivenessMonitor: @unchecked Sendable {
    let started = Date()
    private let lock = NSLock()
    private var late: String?
    private var slowestAnswer = 0.0
    private var count = 0
    private var running = true
    private let thread: Thread

    init() {
        let box = Box()
        thread = Thread {
            guard let bus = try? DBusClient() else { return }
            box.monitor?.run(bus)
        }
        box.monitor = self
        thread.start()
    }

    private final class Box: @unchecked Sendable { weak var monitor: ResponsivenessMonitor? }

    private func run(_ bus: DBusClient) {
        while lock.withLock({ running }) {
            let asked = Date()
            let answered = (try? bus.call(ReelApp.busName, ReelApp.mprisPath, "org.freedesktop.DBus.Properties", "Get",
                                          [.string(ReelApp.playerInterface), .string("PlaybackStatus")], timeout: 3000)) != nil
            let took = -asked.timeIntervalSinceNow
            lock.withLock {
                count += 1
                slowestAnswer = max(slowestAnswer, took)
                if late == nil, !answered || took > 1 {
                    late = answered ? String(format: "%.2f s", took) : "more than 3 s (no answer)"
                }
            }
            Thread.sleep(forTimeInterval: max(0, 1 - took))
        }
    }

    var firstLateAnswer: String? { lock.withLock { late } }
    var slowest: Double { lock.withLock { slowestAnswer } }
    var checks: Int { lock.withLock { count } }
    func stop() { lock.withLock { running = false } }
    deinit { stop() }
}
